/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Fixed-function blend descriptors, once per PAN_ARCH (v6, v7, v9).
 *
 * The blend unit computes, per channel, (+/-)A + (+/-)B * C, where A is
 * zero, the source or the destination, B one of src, dst, src + dst,
 * src - dst, and C a factor (zero, src, dst, 2 src, src alpha, dst alpha
 * or the one blend constant), optionally 1 - C.  A GL equation
 * src * S (op) dst * D fits when one factor is zero or one, when both are
 * the same factor, when one is the other inverted, or for the
 * src * dst + dst * src product; anything else (min, max, alpha
 * saturate, dual-source factors, a constant whose used channels differ),
 * blending float targets and logic ops need a blend shader
 * (pan_blend_shader.c): its descriptor holds the shader's address
 * instead (and on v6/v7 where it returns to), and the shader stores
 * through an opaque internal descriptor of the same conversion
 * (blend_shader_io).
 */

#include <string.h>

#include "pipe/p_defines.h"
#include "util/bitscan.h"
#include "util/format/u_format.h"
#include "util/u_math.h"

#include "pan_arch.h"
#include "pan_genxml.h"
#include "pan_rt_format.h"
#include "pan_vX_blend.h"
#include "pan_vX_format.h"

/* A GL factor as the C operand it multiplies by, inverted or not. */
struct factor {
   unsigned c; /* MALI_BLEND_OPERAND_C_*, 0 when the unit has none */
   bool invert;
   unsigned constant_mask; /* constant channels it reads */
};

static struct factor
to_factor(unsigned f, bool alpha, bool dst_has_alpha)
{
   /* One channel of the alpha equation: colour and alpha factors agree. */
   unsigned k_mask = alpha ? 0x8 : 0x7;

   switch (f) {
   case PIPE_BLENDFACTOR_ZERO:
      return (struct factor){ MALI_BLEND_OPERAND_C_ZERO, false, 0 };
   case PIPE_BLENDFACTOR_ONE:
      return (struct factor){ MALI_BLEND_OPERAND_C_ZERO, true, 0 };
   case PIPE_BLENDFACTOR_SRC_COLOR:
   case PIPE_BLENDFACTOR_INV_SRC_COLOR:
      return (struct factor){ alpha ? MALI_BLEND_OPERAND_C_SRC_ALPHA
                                    : MALI_BLEND_OPERAND_C_SRC,
                              f == PIPE_BLENDFACTOR_INV_SRC_COLOR, 0 };
   case PIPE_BLENDFACTOR_SRC_ALPHA:
   case PIPE_BLENDFACTOR_INV_SRC_ALPHA:
      return (struct factor){ MALI_BLEND_OPERAND_C_SRC_ALPHA,
                              f == PIPE_BLENDFACTOR_INV_SRC_ALPHA, 0 };
   case PIPE_BLENDFACTOR_DST_COLOR:
   case PIPE_BLENDFACTOR_INV_DST_COLOR:
      if (alpha && !dst_has_alpha)
         return to_factor(f == PIPE_BLENDFACTOR_DST_COLOR
                             ? PIPE_BLENDFACTOR_ONE
                             : PIPE_BLENDFACTOR_ZERO,
                          alpha, dst_has_alpha);
      return (struct factor){ alpha ? MALI_BLEND_OPERAND_C_DEST_ALPHA
                                    : MALI_BLEND_OPERAND_C_DEST,
                              f == PIPE_BLENDFACTOR_INV_DST_COLOR, 0 };
   case PIPE_BLENDFACTOR_DST_ALPHA:
   case PIPE_BLENDFACTOR_INV_DST_ALPHA:
      /* A target without alpha reads it as one. */
      if (!dst_has_alpha)
         return to_factor(f == PIPE_BLENDFACTOR_DST_ALPHA
                             ? PIPE_BLENDFACTOR_ONE
                             : PIPE_BLENDFACTOR_ZERO,
                          alpha, dst_has_alpha);
      return (struct factor){ MALI_BLEND_OPERAND_C_DEST_ALPHA,
                              f == PIPE_BLENDFACTOR_INV_DST_ALPHA, 0 };
   case PIPE_BLENDFACTOR_CONST_COLOR:
   case PIPE_BLENDFACTOR_INV_CONST_COLOR:
      return (struct factor){ MALI_BLEND_OPERAND_C_CONSTANT,
                              f == PIPE_BLENDFACTOR_INV_CONST_COLOR, k_mask };
   case PIPE_BLENDFACTOR_CONST_ALPHA:
   case PIPE_BLENDFACTOR_INV_CONST_ALPHA:
      return (struct factor){ MALI_BLEND_OPERAND_C_CONSTANT,
                              f == PIPE_BLENDFACTOR_INV_CONST_ALPHA, 0x8 };
   default: /* alpha saturate, dual-source factors */
      return (struct factor){ 0, false, 0 };
   }
}

static bool
is_constant(struct factor f, bool one)
{
   return f.c == MALI_BLEND_OPERAND_C_ZERO && f.invert == one;
}

/* One channel group's equation; false when the unit cannot compute it. */
static bool
to_function(unsigned func, struct factor s, struct factor d, bool alpha,
            struct PAN_GENX(blend_function) * fn)
{
   bool sub = func == PIPE_BLEND_SUBTRACT;
   bool rsub = func == PIPE_BLEND_REVERSE_SUBTRACT;

   if ((func != PIPE_BLEND_ADD && !sub && !rsub) || !s.c || !d.c)
      return false;

   memset(fn, 0, sizeof(*fn));
   if (is_constant(s, false) || is_constant(s, true)) {
      /* (src or 0) +/- dst * D */
      fn->a = is_constant(s, true) ? MALI_BLEND_OPERAND_A_SRC
                                   : MALI_BLEND_OPERAND_A_ZERO;
      fn->negate_a = rsub;
      fn->b = MALI_BLEND_OPERAND_B_DEST;
      fn->negate_b = sub;
      fn->c = d.c;
      fn->invert_c = d.invert;
   } else if (is_constant(d, false) || is_constant(d, true)) {
      /* (dst or 0) +/- src * S */
      fn->a = is_constant(d, true) ? MALI_BLEND_OPERAND_A_DEST
                                   : MALI_BLEND_OPERAND_A_ZERO;
      fn->negate_a = sub;
      fn->b = MALI_BLEND_OPERAND_B_SRC;
      fn->negate_b = rsub;
      fn->c = s.c;
      fn->invert_c = s.invert;
   } else if (s.c == d.c && s.invert == d.invert) {
      /* (src +/- dst) * F */
      fn->a = MALI_BLEND_OPERAND_A_ZERO;
      fn->b = func == PIPE_BLEND_ADD ? MALI_BLEND_OPERAND_B_SRC_PLUS_DEST
                                     : MALI_BLEND_OPERAND_B_SRC_MINUS_DEST;
      fn->negate_b = rsub;
      fn->c = s.c;
      fn->invert_c = s.invert;
   } else if (s.c == d.c) {
      /* src * F (op) dst * (1 - F): add is dst + (src - dst) F, subtract
       * -dst + (src + dst) F, reverse subtract dst - (src + dst) F.
       */
      fn->a = MALI_BLEND_OPERAND_A_DEST;
      fn->negate_a = sub;
      fn->b = func == PIPE_BLEND_ADD ? MALI_BLEND_OPERAND_B_SRC_MINUS_DEST
                                     : MALI_BLEND_OPERAND_B_SRC_PLUS_DEST;
      fn->negate_b = rsub;
      fn->c = s.c;
      fn->invert_c = s.invert;
   } else if (func == PIPE_BLEND_ADD && !s.invert && !d.invert &&
              s.c == (alpha ? MALI_BLEND_OPERAND_C_DEST_ALPHA
                            : MALI_BLEND_OPERAND_C_DEST) &&
              d.c == (alpha ? MALI_BLEND_OPERAND_C_SRC_ALPHA
                            : MALI_BLEND_OPERAND_C_SRC)) {
      /* src * dst + dst * src = dst * (2 src), channel by channel (for
       * colours, src alpha times dst alpha is not that).
       */
      fn->a = MALI_BLEND_OPERAND_A_ZERO;
      fn->b = MALI_BLEND_OPERAND_B_DEST;
      fn->c = MALI_BLEND_OPERAND_C_SRC_X_2;
   } else {
      return false;
   }
   return true;
}

/* Whether a function reads the destination (the tile buffer). */
static bool
reads_dest(const struct PAN_GENX(blend_function) * f)
{
   return f->a == MALI_BLEND_OPERAND_A_DEST ||
          f->b != MALI_BLEND_OPERAND_B_SRC ||
          f->c == MALI_BLEND_OPERAND_C_DEST ||
          f->c == MALI_BLEND_OPERAND_C_DEST_ALPHA;
}

/* out = src: zero plus src times (1 - 0). */
static void replace_function(struct PAN_GENX(blend_function) * fn)
{
   memset(fn, 0, sizeof(*fn));
   fn->a = MALI_BLEND_OPERAND_A_ZERO;
   fn->b = MALI_BLEND_OPERAND_B_SRC;
   fn->c = MALI_BLEND_OPERAND_C_ZERO;
   fn->invert_c = true;
}

/* The one 16-bit constant, in the target's precision from the top bit
 * (the unit compares it at that precision).
 */
static uint16_t
pack_constant(const struct util_format_description *desc, float k)
{
   unsigned bits = 0;

   for (unsigned i = 0; i < desc->nr_channels; ++i)
      bits = MAX2(bits, desc->channel[i].size);
   bits = CLAMP(bits, 1, 16);
   k = CLAMP(k, 0.0f, 1.0f);
   return (uint16_t)(lroundf(k * (float)((1u << bits) - 1)) << (16 - bits));
}

/* The conversion's memory format: a blendable target names the packed
 * tile-buffer layout the unit blends in (the variant without dithering,
 * as we round to the target's precision), a raw one its memory format.
 */
static unsigned
conversion_format(enum pipe_format format, unsigned hw)
{
   struct pan_rt_format f;

   if (!pan_rt_format_lookup(format, &f) || f.raw)
      return hw;
   switch (f.tib) {
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8:
      return MALI_FORMAT_RGBA8_TB;
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R10G10B10A2:
      return MALI_FORMAT_RGB10_A2_TB;
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A2:
      return MALI_FORMAT_RGB8_A2_PU;
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R4G4B4A4:
      return MALI_FORMAT_RGBA4_PU;
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G6B5A0:
      return MALI_FORMAT_R5G6B5_PU;
   case MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G5B5A1:
      return MALI_FORMAT_RGB5_A1_PU;
   default:
      return hw;
   }
}

static unsigned
register_format(const struct util_format_description *desc)
{
   if (util_format_is_pure_uint(desc->format))
      return MALI_REGISTER_FILE_FORMAT_U32;
   if (util_format_is_pure_sint(desc->format))
      return MALI_REGISTER_FILE_FORMAT_I32;
   /* Our compiler writes float colours as four binary32 (BLEND .f32). */
   return MALI_REGISTER_FILE_FORMAT_F32;
}

static const char *
pack_fixed(void *cpu, unsigned rt, const struct panfrost_blend_rt *b)
{
   if (!b->enabled) {
      pan_pack(cpu, blend, cfg)
      {
         cfg.enable = false;
         cfg.internal.mode = MALI_BLEND_MODE_OFF;
      }
      return NULL;
   }

   const struct util_format_description *desc =
      util_format_description(b->format);
   unsigned char swz[4];
   unsigned hw = PAN_GENX(panfrost_format)(b->format, swz);
   if (!desc || !hw)
      return "render target format without a hardware format";

   bool integer = util_format_is_pure_integer(b->format);
   bool normalised = !integer && !util_format_is_float(b->format);
   /* GL ignores blending on integer targets. */
   bool blending = b->blend && !integer;
   struct pan_rt_format rtf;
   if (b->logicop && b->logicop_func != PIPE_LOGICOP_COPY)
      return "logic ops need a blend shader";
   if (blending && !normalised)
      return "blending a float render target needs a blend shader";
   /* The unit blends in the packed tile-buffer layouts only: a raw
    * normalised target (16-bit unorm) keeps its memory bytes there.
    */
   if (blending && pan_rt_format_lookup(b->format, &rtf) && rtf.raw)
      return "blending a 16-bit normalised render target needs a blend "
             "shader";

   bool has_alpha = util_format_has_alpha(b->format);
   struct PAN_GENX(blend_equation) eq = { 0 };
   unsigned constant_mask = 0;
   if (blending) {
      struct factor f[4] = {
         to_factor(b->rgb_src, false, has_alpha),
         to_factor(b->rgb_dst, false, has_alpha),
         to_factor(b->alpha_src, true, has_alpha),
         to_factor(b->alpha_dst, true, has_alpha),
      };
      if (!to_function(b->rgb_func, f[0], f[1], false, &eq.rgb) ||
          !to_function(b->alpha_func, f[2], f[3], true, &eq.alpha))
         return "blend equation beyond fixed-function blending (min/max, "
                "alpha saturate, dual source or an unsupported factor "
                "pair) needs a blend shader";
      for (unsigned i = 0; i < 4; ++i)
         constant_mask |= f[i].constant_mask;
   } else {
      replace_function(&eq.rgb);
      eq.alpha = eq.rgb;
   }
   eq.color_mask = b->colormask;

   /* The unit has one constant for every channel. */
   float k = 0;
   if (constant_mask) {
      unsigned first = constant_mask;
      k = b->constant[u_bit_scan(&first)];
      u_foreach_bit (c, constant_mask) {
         if (b->constant[c] != k)
            return "a blend constant whose channels differ needs a blend "
                   "shader";
      }
   }

   uint32_t memory_format = PAN_GENX(panfrost_pixel_format)(
      conversion_format(b->format, hw), util_format_is_srgb(b->format));

   pan_pack(cpu, blend, cfg)
   {
      cfg.enable = true;
      /* The unit reads the tile buffer for the equation or to keep the
       * channels a colour mask leaves.
       */
      cfg.load_destination = (b->colormask && b->colormask != PIPE_MASK_RGBA) ||
                             reads_dest(&eq.rgb) || reads_dest(&eq.alpha);
      cfg.srgb = util_format_is_srgb(b->format);
      cfg.round_to_fb_precision = normalised;
      cfg.alpha_to_one = b->alpha_to_one && !integer;
      cfg.constant = pack_constant(desc, k);
      cfg.equation = eq;
      /* Opaque writes skip reading the tile buffer: only without blending
       * and with every channel written.
       */
      cfg.internal.mode = !blending && b->colormask == PIPE_MASK_RGBA
                             ? MALI_BLEND_MODE_OPAQUE
                             : MALI_BLEND_MODE_FIXED_FUNCTION;
      cfg.internal.fixed_function.num_comps = 4;
      cfg.internal.fixed_function.rt = rt;
      cfg.internal.fixed_function.conversion.memory_format = memory_format;
      cfg.internal.fixed_function.conversion.register_format =
         register_format(desc);
   }
   return NULL;
}

/* The conversion of the colour registers to the tile buffer. */
static uint32_t
conversion(const struct panfrost_blend_rt *b)
{
   const struct util_format_description *desc =
      util_format_description(b->format);
   unsigned char swz[4];
   unsigned hw = PAN_GENX(panfrost_format)(b->format, swz);
   uint32_t packed;

   pan_pack(&packed, internal_conversion, cfg)
   {
      cfg.memory_format = PAN_GENX(panfrost_pixel_format)(
         conversion_format(b->format, hw), util_format_is_srgb(b->format));
      cfg.register_format = register_format(desc);
   }
   return packed;
}

bool
PAN_GENX(panfrost_blend_needs_shader)(const struct panfrost_blend_rt *b)
{
   uint8_t scratch[pan_size(blend)] __attribute__((aligned(16)));
   unsigned char swz[4];

   /* Everything the blend unit refuses but a missing format. */
   return b->enabled && PAN_GENX(panfrost_format)(b->format, swz) &&
          pack_fixed(scratch, 0, b);
}

void
PAN_GENX(panfrost_blend_shader_io)(const struct panfrost_blend_rt *b,
                                   unsigned rt, uint32_t *conv,
                                   uint64_t *store)
{
   *conv = conversion(b);
   /* The shader's result is final: stored as is. */
   pan_pack(store, internal_blend, cfg)
   {
      cfg.mode = MALI_BLEND_MODE_OPAQUE;
      cfg.fixed_function.num_comps = 4;
      cfg.fixed_function.rt = rt;
      pan_unpack(conv, internal_conversion, c);
      cfg.fixed_function.conversion = c;
   }
}

const char *
PAN_GENX(panfrost_emit_blend)(void *cpu, unsigned rt,
                              const struct panfrost_blend_rt *b)
{
   if (!b->enabled || !b->shader)
      return pack_fixed(cpu, rt, b);
   pan_pack(cpu, blend, cfg)
   {
      cfg.enable = true;
      /* The shader reads the tile buffer (LD_TILE). */
      cfg.load_destination = true;
      cfg.srgb = util_format_is_srgb(b->format);
      replace_function(&cfg.equation.rgb);
      cfg.equation.alpha = cfg.equation.rgb;
      cfg.equation.color_mask = b->colormask;
      cfg.internal.mode = MALI_BLEND_MODE_SHADER;
      /* The high word is the fragment shader's (pan_blend_shader.c). */
      cfg.internal.shader.pc = (uint32_t)b->shader;
#if PAN_ARCH < 9
      /* BLEND hands it to the blend shader, which jumps there (0: the
       * thread ends). */
      cfg.internal.shader.return_value = (uint32_t)b->shader_return;
#endif
   }
   return NULL;
}

unsigned
PAN_GENX(panfrost_stencil_op)(unsigned op)
{
   switch (op) {
   case PIPE_STENCIL_OP_ZERO:
      return MALI_STENCIL_OP_ZERO;
   case PIPE_STENCIL_OP_REPLACE:
      return MALI_STENCIL_OP_REPLACE;
   case PIPE_STENCIL_OP_INCR:
      return MALI_STENCIL_OP_INCR_SAT;
   case PIPE_STENCIL_OP_DECR:
      return MALI_STENCIL_OP_DECR_SAT;
   case PIPE_STENCIL_OP_INCR_WRAP:
      return MALI_STENCIL_OP_INCR_WRAP;
   case PIPE_STENCIL_OP_DECR_WRAP:
      return MALI_STENCIL_OP_DECR_WRAP;
   case PIPE_STENCIL_OP_INVERT:
      return MALI_STENCIL_OP_INVERT;
   default:
      return MALI_STENCIL_OP_KEEP;
   }
}
