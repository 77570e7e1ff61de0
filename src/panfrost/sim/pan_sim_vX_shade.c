/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Fragment shading of the primitives of a frame (compiled once per
 * PAN_ARCH, run on v6/v7 and v9), called by the fragment job when its
 * tiler context has a polygon list.  The per-draw state (struct fs_state)
 * comes from the renderer state and viewport on Bifrost, from the draw
 * descriptor, its depth/stencil descriptor and the job's scissor on
 * Valhall, where varyings are read from the draw's vertex packets and the
 * preloads follow the shader program descriptor's mask (r58 facing, r59
 * position, r60 coverage, r61 sample mask and id).  Everything below the
 * state is shared.
 *
 * Primitives are drawn in the order the tiler recorded them.  For each
 * triangle, pixels with a covered sample (pan_sim_tri_covers_at at each
 * sample position of a multisampled frame, the centre otherwise), inside
 * the frame, the viewport's scissor and the depth range (or clamped to it,
 * as the primitive's depth-cull flags say) are "inside"; they are stencil-
 * and depth-tested against the tile buffer, and those passing both get
 * coverage.  2x2 quads with an inside pixel go into warps of GFX_LANES
 * lanes, the other pixels of a quad running as helper lanes, whose memory
 * writes the interpreters drop (so do lanes the tests killed, unless the
 * draw forces kills late).  The tests
 * read the tile buffer before shading; their updates (depth write, the
 * stencil fail / depth fail / pass operations) are made after the warp,
 * for inside lanes the shader did not discard, as GL orders discard
 * before the per-fragment operations; a draw whose depth/stencil update
 * is forced early (GL's early fragment tests) makes them for discarded
 * lanes too, and tests with the rasterised depth.  Depth is z
 * interpolated linearly in screen space; every sample is tested at its own
 * depth and has its own depth, stencil and colour in the tile buffer.  The polygon offset
 * of a face whose bias flag is set (pan_sim_depth_bias, once a primitive)
 * is added after the depth range's culling, then clamped to the range;
 * depth from the shader is not offset.  The shader runs once a pixel, or
 * once a sample when the draw evaluates per sample.
 *
 * Registers preloaded (when the renderer state's flags ask):
 *    r58  0 for a front-facing primitive, 1 for a back-facing one
 *    r59  pixel x (bits 0-15) | pixel y (bits 16-31)
 *    r60  coverage (bit i: sample i passed the tests), r61  the same
 *         bits | the sample shaded << 16 (0 when shading per pixel)
 *    r0..r3, r4..r7  v7 message preloads 1 and 2 (LD_VAR and VAR_TEX)
 * FAU specials: blend_descriptor_N = words 2-3 of render target N's blend
 * descriptor (they follow the renderer state).
 *
 * Messages: LD_VAR interpolates perspective-correctly with the screen
 * barycentrics weighted by 1/w, flat loads take the provoking vertex;
 * BLEND writes covered lanes with the descriptor's fixed-function
 * equation (opaque mode: the colour as is) under the colour mask.  Depth
 * and stencil are updated at the end of the warp (see above).  Textures
 * are the draw's tables (pan_sim_vX_texture.c).  A draw taking depth or
 * the stencil reference from the shader tests its lanes late: they start
 * covered, and ZS_EMIT runs the tests with the shader's values (a lane
 * that never reaches one is tested with the rasterised values after the
 * warp).  On v9 a BLEND whose descriptor asks for a blend shader writes
 * nothing: the call after it runs the shader (fs_code_at fetches its
 * code, pan_sim_va_call.c runs it with the thread's registers), whose
 * LD_TILE reads the destination and whose own BLEND stores the result.
 * On v6/v7 the BLEND itself calls (the Bifrost interpreter's
 * pan_sim_bi_call.c, with the descriptor's return value), and LD_TILE
 * takes its register format from the conversion word.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_a2c.h"
#include "pan_sim_fp.h"
#include "pan_sim_line.h"
#include "pan_sim_srgb.h"
#include "pan_sim_vX_gfx.h"
#include "pan_sim_vX_img.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 6

#define MAX_LANES 16

struct fs_lane {
   int x, y;
   double b[3];    /* at the pixel centre: what varyings interpolate */
   float z;        /* at the pixel centre, in the depth range */
   bool inside;    /* a sample rasterised, in scissor and depth range */
   bool covered;   /* a sample inside and passing the stencil and depth tests */
   bool late;      /* tests wait for the shader's ZS_EMIT */
   uint8_t ref;    /* stencil reference (the shader's, when it gives one) */
   uint16_t cover; /* samples inside */
   uint16_t pass;  /* samples inside passing the stencil and depth tests */
   uint16_t a2c;   /* samples alpha to coverage keeps (ATEST) */
   float sz[PAN_SIM_MAX_SAMPLES];    /* depth at each sample inside */
   uint8_t sop[PAN_SIM_MAX_SAMPLES]; /* stencil operation of each sample,
                                      * to apply if not discarded */
};

/* The per-fragment state of a draw, whichever descriptors hold it (the
 * renderer state and viewport on v6/v7, the draw's depth/stencil
 * descriptor and the job's scissor on v9). */
struct fs_face {
   unsigned func, stencil_fail, depth_fail, depth_pass;
   uint8_t ref, mask, write_mask;
};

struct fs_state {
   unsigned depth_func;
   bool depth_write, stencil_enable, has_shader;
   bool shader_z, shader_s; /* depth, stencil reference from ZS_EMIT */
   bool kill_late; /* pixel kill operation force late: no early kills */
   /* zs update operation force early (GL's early fragment tests): the
    * tests, depth/stencil writes and the occlusion count come before the
    * shader, whose depth, discards and coverage change none of them. */
   bool update_early;
   struct fs_face face[2]; /* front, back */
   bool bias_front, bias_back; /* polygon offset of each face */
   struct pan_sim_bias bias;
   float min_z, max_z;
   int scissor[4]; /* min x, min y, max x, max y */
};

struct fs_run {
   struct pan_sim_ctx *ctx;
   const struct pan_sim_plist *l;
   struct pan_sim_tilebuf *tb;
   const struct pan_sim_prim *prim;

   /* State of the current draw. */
   int draw_index;
   struct PAN_GENX(draw) draw;
   struct fs_state st;
   const struct pan_sim_draw_rec *rec;
   uint64_t blend_va;
   struct gfx_program prog;
   struct gfx_mem mem;
#if PAN_ARCH >= 9
   struct gfx_env env;
   struct pan_sim_va_config cfg;
   struct pan_sim_va_gfx gfx;
   struct pan_sim_va_warp w;
   /* GLSL images: texture descriptors of the draw's resource tables. */
   struct pan_sim_image_env img;
   struct pan_sim_image_ops img_ops;
#else
   struct PAN_GENX(renderer_state) rs;
   const uint32_t *uniforms;
   unsigned uniform_words;
   struct pan_sim_bi_config cfg;
   struct pan_sim_bi_gfx gfx;
   struct pan_sim_tex_env tex_env;
   struct pan_sim_tex_ops tex;
   struct pan_sim_bi_warp w;
   /* GLSL images: records of the draw's attribute table. */
   struct pan_sim_image_env img;
   struct pan_sim_image_ops img_ops;
#endif
   /* Blend shaders the draw called, fetched once each. */
   struct gfx_program called[PAN_SIM_MAX_RTS];
   unsigned nr_called;

   int clip_x0, clip_y0, clip_x1, clip_y1; /* inclusive */
   /* Multisampling of the draw: rasterised at the sample positions (else
    * at the pixel centre, covering every sample), the static sample mask,
    * and the sample shaded alone when shading per sample (-1: the pixel). */
   bool ms_enable, per_sample;
   uint16_t sample_mask;
   int sample;
   struct pan_sim_tri tri;
   struct pan_sim_line line; /* of a line primitive */
   float z_bias;             /* the primitive's polygon offset */
   struct fs_lane lane[MAX_LANES];
   unsigned nr_quads;
   bool reported; /* a fault was raised already */
};

/* ---- messages ---- */

static bool fs_zs_emit(void *user, unsigned lane, bool z, float depth,
                       bool stencil, uint8_t ref, uint32_t *coverage,
                       char *err);
static uint32_t fs_alpha_coverage(void *user, unsigned lane,
                                  uint32_t alpha);

/* Perspective-correct interpolation of v[vertex][component] at the lane
 * (screen barycentrics weighted by 1/w) into f16 or f32 registers. */
static void
interpolate(const struct fs_run *r, const struct fs_lane *ln,
            const float v[3][4], unsigned comps, bool f16, uint32_t out[4])
{
   double wsum = 0, wt[3];
   for (unsigned i = 0; i < 3; ++i) {
      wt[i] = ln->b[i] * r->prim->v[i].inv_w;
      wsum += wt[i];
   }
   memset(out, 0, 16);
   for (unsigned c = 0; c < comps; ++c) {
      double x = 0;
      for (unsigned i = 0; i < 3; ++i)
         x += wt[i] * v[i][c];
      x = wsum > 0 ? x / wsum : 0;
      if (f16)
         out[c / 2] |= pan_sim_fp_round_f64(x, PAN_SIM_ROUND_RTE, 5, 10)
                       << (16 * (c % 2));
      else
         out[c] = pan_sim_fp_round_f64(x, PAN_SIM_ROUND_RTE, 8, 23);
   }
}

/* The colour registers' format of a BLEND with the "auto" register
 * format.  Bifrost takes the conversion's register format (which its
 * drivers fill in); on Valhall "auto" means the 32-bit type of the
 * conversion's memory format (float, signed or unsigned), and the stock
 * driver leaves the register format field zero (F16) there. */
static enum pan_sim_regfmt
blend_auto_regfmt(const struct PAN_GENX(internal_conversion) *conv)
{
#if PAN_ARCH >= 9
   /* Parsing the format's name is slow and every lane of every blend asks:
    * remember the answer for the last format word. */
   static __thread uint32_t last_word = ~0u;
   static __thread enum pan_sim_regfmt last = PAN_SIM_REG_F32;
   uint32_t word = conv->memory_format;
   if (word != last_word) {
      pan_unpack(&word, pixel_format, pf);
      struct pan_sim_mem_format f;
      last = pan_sim_mem_format_parse(PAN_GENX(format_name)(pf.format), &f)
                ? pan_sim_auto_regfmt(&f)
                : PAN_SIM_REG_F32;
      last_word = word;
   }
   return last;
#else
   return (enum pan_sim_regfmt)conv->register_format;
#endif
}

/* The blend descriptor of render target rt of the draw. */
static bool
read_blend(struct fs_run *r, unsigned rt, struct PAN_GENX(blend) *bd,
           char *err)
{
   const void *p =
      PAN_GENX(sim_gfx_read)(r->ctx->space, r->blend_va + rt * pan_size(blend),
                             pan_size(blend), "blend descriptor", err);
   if (!p)
      return false;
   PAN_GENX(blend_unpack)(p, bd);
   return true;
}

/* The bytes of a raw tile-buffer format (float and integer targets) of
 * sample `at` of target rt: the colour converted to the conversion's
 * memory format, under the colour mask. */
static bool
raw_store(struct fs_run *r, unsigned at,
          const struct PAN_GENX(internal_conversion) * conv, unsigned rt,
          enum pan_sim_regfmt regfmt, const uint32_t in[4], unsigned mask,
          char *err)
{
   uint32_t word = conv->memory_format;
   pan_unpack(&word, pixel_format, pf);
   struct pan_sim_mem_format f;
   const char *name = PAN_GENX(format_name)(pf.format);
   if (name && !strcmp(name, "r11f_g11f_b10f")) {
      float src[4];
      if (!pan_sim_regs_to_float(regfmt, in, 4, src)) {
         snprintf(err, GFX_ERR_LEN,
                  "r11f_g11f_b10f from integer registers is not modelled");
         return false;
      }
      uint32_t *w = &r->tb->rt[rt].words[4 * at];
      w[0] = pan_sim_r11g11b10_pack(src, mask, w[0]);
      r->tb->written[at] |= 1u << rt;
      return true;
   }
   if (!name || !pan_sim_mem_format_parse(name, &f)) {
      snprintf(err, GFX_ERR_LEN,
               "raw tile-buffer writes in memory format %s are not modelled",
               name ? name : "(unknown)");
      return false;
   }
   uint32_t *words = &r->tb->rt[rt].words[4 * at];
   uint8_t old[16], now[16];
   memcpy(old, words, 16);
   memcpy(now, old, 16);
   pan_sim_regs_to_tile(&f, regfmt, f.comps, in, now);
   unsigned comp_B = f.bits / 8;
   for (unsigned c = 0; c < f.comps && !f.rgb10_a2; ++c) {
      if (!((mask >> c) & 1))
         memcpy(now + c * comp_B, old + c * comp_B, comp_B);
   }
   if (f.rgb10_a2) {
      /* Masked components keep their bits of the packed word. */
      uint32_t o, n, keep = 0;
      memcpy(&o, old, 4);
      memcpy(&n, now, 4);
      for (unsigned c = 0; c < 4; ++c) {
         if (!((mask >> c) & 1))
            keep |= (c == 3 ? 3u : 0x3ffu) << (10 * c);
      }
      n = (n & ~keep) | (o & keep);
      memcpy(now, &n, 4);
   }
   memcpy(words, now, 16);
   r->tb->written[at] |= 1u << rt;
   return true;
}

/* A BLEND into a raw tile-buffer format (float and integer targets): the
 * unit converts the colour to the conversion's memory format and stores
 * the bytes under the colour mask; there is nothing to blend with, so
 * only a replace equation is modelled. */
static bool
blend_raw_sample(struct fs_run *r, unsigned at,
                 const struct PAN_GENX(internal_conversion) * conv, unsigned rt,
                 enum pan_sim_regfmt regfmt, const uint32_t in[4], bool opaque,
                 char *err)
{
   struct PAN_GENX(blend) bd;
   if (!read_blend(r, rt, &bd, err))
      return false;
   const struct PAN_GENX(blend_function) *fns[2] = { &bd.equation.rgb,
                                                     &bd.equation.alpha };
   for (unsigned i = 0; i < 2; ++i) {
      const struct PAN_GENX(blend_function) *f = fns[i];
      bool replace = f->a == MALI_BLEND_OPERAND_A_ZERO &&
                     f->b == MALI_BLEND_OPERAND_B_SRC && !f->negate_b &&
                     f->c == MALI_BLEND_OPERAND_C_ZERO && f->invert_c;
      if (!replace && !opaque &&
          bd.internal.mode != MALI_BLEND_MODE_OPAQUE) {
         snprintf(err, GFX_ERR_LEN,
                  "blending into raw tile-buffer formats is not modelled");
         return false;
      }
   }

   /* Opaque writes take every channel (see blend_sample). */
   return raw_store(r, at, conv, rt, regfmt, in,
                    opaque ? 0xf : bd.equation.color_mask, err);
}

/* Blend source colour src into sample `at` of target rt. */
static void
blend_sample(struct fs_run *r, const struct PAN_GENX(blend) * bd, unsigned mode,
             unsigned rt, const float src[4], unsigned at)
{
   struct pan_sim_tb_rt *t = &r->tb->rt[rt];
   uint32_t *words = &t->words[4 * at];
   float dst[4], res[4];
   pan_sim_tib_decode(t, words, dst);
   /* sRGB targets blend in linear space. */
   if (bd->srgb)
      pan_sim_srgb_convert(dst, false);

   if (mode == MALI_BLEND_MODE_FIXED_FUNCTION) {
      const struct PAN_GENX(blend_function) *
         fns[2] = { &bd->equation.rgb, &bd->equation.alpha };
      float k = bd->constant / 65535.0f;
      for (unsigned c = 0; c < 4; ++c) {
         const struct PAN_GENX(blend_function) *f = fns[c == 3];
         struct pan_sim_blend_fn fn = {
            .a = f->a,
            .b = f->b,
            .c = f->c,
            .negate_a = f->negate_a,
            .negate_b = f->negate_b,
            .invert_c = f->invert_c,
         };
         res[c] = pan_sim_blend_channel(&fn, src[c], dst[c], src[3], dst[3], k);
      }
   } else {
      memcpy(res, src, sizeof(res));
   }
   /* An opaque write takes every channel: the colour mask is the
    * equation's, which it does not use.  The stock driver leaves the
    * equation of a target with a blend shader zero, and the blend shader's
    * own opaque BLEND (having applied the mask itself) still writes. */
   unsigned mask =
      mode == MALI_BLEND_MODE_OPAQUE ? 0xf : bd->equation.color_mask;
   if (bd->srgb) {
      for (unsigned c = 0; c < 3; ++c)
         res[c] = fminf(fmaxf(res[c], 0.0f), 1.0f);
      pan_sim_srgb_convert(res, true);
   }
   pan_sim_tib_encode(t, res, mask, words);
   r->tb->written[at] |= 1u << rt;
}

/* Whether a conversion word's memory format is sRGB: LD_TILE decodes,
 * ST_TILE encodes, as the blend unit does for such targets. */
static bool
conversion_srgb(uint32_t conversion)
{
   pan_unpack(&conversion, internal_conversion, conv);
   uint32_t fmt = conv.memory_format;
   pan_unpack(&fmt, pixel_format, pf);
   return pf.srgb;
}

/* LD_TILE of an R11G11B10F sample: its three channels and an alpha of 1
 * in float registers. */
static bool
ld_tile_r11g11b10(uint32_t word, enum pan_sim_regfmt regfmt, unsigned comps,
                  uint32_t out[4], char *err)
{
   if (regfmt != PAN_SIM_REG_F32 && regfmt != PAN_SIM_REG_F16) {
      snprintf(err, GFX_ERR_LEN,
               "tile reads of r11f_g11f_b10f into integer registers");
      return false;
   }
   for (unsigned c = 0; c < comps && c < 4; ++c) {
      float v = c < 3 ? pan_sim_r11g11b10_channel(word, c) : 1.0f;
      if (regfmt == PAN_SIM_REG_F16)
         out[c / 2] |= pan_sim_fp_round_f64(v, PAN_SIM_ROUND_RTE, 5, 10)
                       << (16 * (c % 2));
      else
         memcpy(&out[c], &v, 4);
   }
   return true;
}

/* LD_TILE of one lane: a sample of a render target at the lane's pixel
 * (blend shaders read the destination so), in register format regfmt:
 * what the blend unit would blend with for normalised targets, the
 * stored value converted by the descriptor's memory format for raw ones.
 */
static bool
ld_tile_lane(struct fs_run *r, unsigned lane, uint32_t pixel,
             uint32_t conversion, enum pan_sim_regfmt regfmt, unsigned comps,
             uint32_t out[4], char *err)
{
   const struct fs_lane *ln = &r->lane[lane];
   unsigned sample = pixel & 0xff, rt = (pixel >> 8) & 0xff;

   memset(out, 0, 16);
   if (rt >= PAN_SIM_MAX_RTS || !r->tb->rt[rt].present ||
       sample >= r->tb->samples) {
      snprintf(err, GFX_ERR_LEN,
               "tile read of sample %u of render target %u, which the "
               "frame does not have",
               sample, rt);
      return false;
   }
   const struct pan_sim_tb_rt *t = &r->tb->rt[rt];
   const uint32_t *words =
      &t->words[4 * (pan_sim_tilebuf_at(r->tb, ln->x, ln->y) + sample)];
   if (t->raw) {
      pan_unpack(&conversion, internal_conversion, conv);
      uint32_t fmt = conv.memory_format;
      pan_unpack(&fmt, pixel_format, pf);
      struct pan_sim_mem_format f;
      const char *name = PAN_GENX(format_name)(pf.format);
      if (name && !strcmp(name, "r11f_g11f_b10f"))
         return ld_tile_r11g11b10(words[0], regfmt, comps, out, err);
      if (!name || !pan_sim_mem_format_parse(name, &f)) {
         snprintf(err, GFX_ERR_LEN,
                  "tile reads in memory format %s are not modelled",
                  name ? name : "(unknown)");
         return false;
      }
      pan_sim_mem_to_regs(&f, words, regfmt, comps, out);
      return true;
   }
   if (regfmt != PAN_SIM_REG_F32 && regfmt != PAN_SIM_REG_F16) {
      snprintf(err, GFX_ERR_LEN,
               "tile reads of a normalised target into integer registers");
      return false;
   }
   float rgba[4];
   pan_sim_tib_decode(t, words, rgba);
   if (conversion_srgb(conversion))
      pan_sim_srgb_convert(rgba, false);
   for (unsigned c = 0; c < comps && c < 4; ++c) {
      if (regfmt == PAN_SIM_REG_F16)
         out[c / 2] |= pan_sim_fp_round_f64(rgba[c], PAN_SIM_ROUND_RTE, 5, 10)
                       << (16 * (c % 2));
      else
         memcpy(&out[c], &rgba[c], 4);
   }
   return true;
}

/* ST_TILE of one lane: the colour in register format regfmt to the sample
 * of a render target the pixel indices name at the lane's pixel,
 * converted as the conversion descriptor says (all channels: there is
 * no colour mask).  The sample is stored when the coverage has its bit
 * (multisampled blend shaders run once a sample, the coverage that
 * sample's bit), and when it passed the tests.
 */
static bool
st_tile_lane(struct fs_run *r, unsigned lane, uint32_t pixel,
             uint32_t coverage, uint32_t conversion,
             enum pan_sim_regfmt regfmt, const uint32_t in[4], char *err)
{
   const struct fs_lane *ln = &r->lane[lane];
   unsigned sample = pixel & 0xff, rt = (pixel >> 8) & 0xff;

   if (rt >= PAN_SIM_MAX_RTS || !r->tb->rt[rt].present ||
       sample >= r->tb->samples) {
      snprintf(err, GFX_ERR_LEN,
               "tile write of sample %u of render target %u, which the "
               "frame does not have",
               sample, rt);
      return false;
   }
   if (!((coverage & ln->pass) >> sample & 1))
      return true;
   unsigned at = pan_sim_tilebuf_at(r->tb, ln->x, ln->y) + sample;
   pan_unpack(&conversion, internal_conversion, conv);
   if (r->tb->rt[rt].raw)
      return raw_store(r, at, &conv, rt, regfmt, in, 0xf, err);
   float rgba[4];
   if (!pan_sim_regs_to_float(regfmt, in, 4, rgba)) {
      snprintf(err, GFX_ERR_LEN,
               "tile writes of integer registers to a normalised target");
      return false;
   }
   struct pan_sim_tb_rt *t = &r->tb->rt[rt];
   for (unsigned c = 0; c < 4; ++c)
      rgba[c] = isnan(rgba[c]) ? 0.0f : fminf(fmaxf(rgba[c], 0.0f), 1.0f);
   if (conv.memory_format && conversion_srgb(conversion))
      pan_sim_srgb_convert(rgba, true);
   pan_sim_tib_encode(t, rgba, 0xf, &t->words[4 * at]);
   r->tb->written[at] |= 1u << rt;
   return true;
}

/* The code of a blend shader the fragment shader calls (quadwords). */
static const uint64_t *
called_code(struct fs_run *r, uint64_t va, unsigned *quads)
{
   for (unsigned i = 0; i < r->nr_called; ++i) {
      if (r->called[i].va == va) {
         *quads = r->called[i].quads;
         return r->called[i].words;
      }
   }
   if (r->nr_called == PAN_SIM_MAX_RTS ||
       !PAN_GENX(sim_gfx_fetch)(r->ctx, va, "blend shader",
                                &r->called[r->nr_called]))
      return NULL;
   struct gfx_program *p = &r->called[r->nr_called++];
   *quads = p->quads;
   return p->words;
}

static void
forget_called(struct fs_run *r)
{
   for (unsigned i = 0; i < r->nr_called; ++i)
      free(r->called[i].words);
   r->nr_called = 0;
}

/* Fixed-function BLEND of one lane: colour `in` (register format regfmt)
 * to the render target the internal descriptor names. */
static bool
blend_lane(struct fs_run *r, unsigned lane, uint64_t descriptor,
           uint32_t coverage, enum pan_sim_regfmt regfmt,
           const uint32_t in[4], bool *call, char *err)
{
   const struct fs_lane *ln = &r->lane[lane];

   pan_unpack(&descriptor, internal_blend, ib);
   if (ib.mode == MALI_BLEND_MODE_OFF)
      return true;
   if (ib.mode == MALI_BLEND_MODE_SHADER) {
      /* v9: the instructions after the BLEND call it. */
      if (call) {
         *call = true;
         return true;
      }
      snprintf(err, GFX_ERR_LEN,
               "blend shaders are not executed on this architecture yet");
      return false;
   }
   if (regfmt == PAN_SIM_REG_AUTO)
      regfmt = blend_auto_regfmt(&ib.fixed_function.conversion);
   unsigned rt = ib.fixed_function.rt;
   if (rt >= PAN_SIM_MAX_RTS || !r->tb->rt[rt].present)
      return true; /* no colour buffer: nothing to store */
   /* The samples the shader kept of those passing the tests. */
   uint16_t samples = (uint16_t)(coverage & ln->pass);
   if (!samples)
      return true;

   if (r->tb->rt[rt].raw) {
      unsigned at = pan_sim_tilebuf_at(r->tb, ln->x, ln->y);
      for (unsigned s = 0; s < r->tb->samples; ++s) {
         if (((samples >> s) & 1) &&
             !blend_raw_sample(r, at + s, &ib.fixed_function.conversion, rt,
                               regfmt, in, ib.mode == MALI_BLEND_MODE_OPAQUE,
                               err))
            return false;
      }
      return true;
   }

   float src[4];
   if (!pan_sim_regs_to_float(regfmt, in, 4, src)) {
      snprintf(err, GFX_ERR_LEN,
               "blending from register format %u (integer targets) is not "
               "modelled",
               (unsigned)regfmt);
      return false;
   }
   struct PAN_GENX(blend) bd;
   if (!read_blend(r, rt, &bd, err))
      return false;

   unsigned at0 = pan_sim_tilebuf_at(r->tb, ln->x, ln->y);
   for (unsigned c = 0; c < 4; ++c)
      src[c] = isnan(src[c]) ? 0.0f : fminf(fmaxf(src[c], 0.0f), 1.0f);
   /* After ATEST took the coverage from the shader's alpha. */
   if (bd.alpha_to_one)
      src[3] = 1.0f;
   for (unsigned s = 0; s < r->tb->samples; ++s) {
      if ((samples >> s) & 1)
         blend_sample(r, &bd, ib.mode, rt, src, at0 + s);
   }
   return true;
}

static bool
fs_fault(struct fs_run *r, uint64_t va, const char *what)
{
   return pan_sim_fault(r->ctx, PAN_SIM_CONFIG_FAULT, va, "%s", what);
}

/* The draw's scissor box, clipped to the frame. */
static void
set_clip(struct fs_run *r)
{
   const int *s = r->st.scissor;
   int x1 = r->tb->x0 + (int)r->tb->w - 1, y1 = r->tb->y0 + (int)r->tb->h - 1;
   r->clip_x0 = s[0] > r->tb->x0 ? s[0] : r->tb->x0;
   r->clip_y0 = s[1] > r->tb->y0 ? s[1] : r->tb->y0;
   r->clip_x1 = s[2] < x1 ? s[2] : x1;
   r->clip_y1 = s[3] < y1 ? s[3] : y1;
}

/* The r61 preload: the samples of the fragment (bits 0-15) and, when
 * shading per sample, the sample's index (bits 16-23). */
static uint32_t
sample_mask_id(const struct fs_run *r, const struct fs_lane *ln)
{
   uint32_t id = r->sample >= 0 ? (uint32_t)r->sample : 0;
   return ln->pass | id << 16;
}

/* Helper lanes, whose memory writes the hardware drops (GL: helper
 * invocations have no side effects): the pixels of a quad without a
 * rasterised sample, and those the depth or stencil test killed before
 * the shader (not when the draw forces kills late: the shader's side
 * effects come before its tests then). */
static uint16_t
helper_lanes(const struct fs_run *r, unsigned lanes)
{
   uint16_t mask = 0;
   for (unsigned l = 0; l < lanes; ++l) {
      const struct fs_lane *ln = &r->lane[l];
      if (!ln->inside || (!ln->pass && !r->st.kill_late))
         mask |= 1u << l;
   }
   return mask;
}

/* The special varyings of LD_VAR_SPECIAL at a lane's pixel, numbered as
 * its varying name on both architectures: 0 gl_PointCoord, 2 1/w, 3 z. */
static void
lane_special(const struct fs_run *r, unsigned lane, unsigned which,
             float out[2])
{
   const struct fs_lane *ln = &r->lane[lane];
   const struct pan_sim_prim *p = r->prim;

   switch (which) {
   case 0: {
      /* Within the point's square, from its top-left corner. */
      float size = p->point_size > 0 ? p->point_size : 1;
      out[0] = (ln->x + 0.5f - (p->v[0].x - size / 2)) / size;
      out[1] = (ln->y + 0.5f - (p->v[0].y - size / 2)) / size;
      break;
   }
   case 3:
      out[0] = ln->z;
      break;
   default: /* 1/w, linear in screen space */
      out[0] = (float)(ln->b[0] * p->v[0].inv_w + ln->b[1] * p->v[1].inv_w +
                       ln->b[2] * p->v[2].inv_w);
      break;
   }
}

/* Image stores of fragment shaders: ST_CVT through an address from
 * LEA_TEX (v9) or LEA_ATTR_TEX (v6/v7). */
static bool
fs_image_store(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
               const uint32_t in[4], char *err)
{
   const struct pan_sim_image_env *img = user;
   return PAN_GENX(sim_gfx_st_cvt)(img->tex.space, addr, conversion, comps, in,
                                   err);
}

#if PAN_ARCH < 9
/* Bifrost's ST_CVT hook gets the run, whose image environment it uses. */
static bool
fs_bi_st_cvt(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
             const uint32_t in[4], char *err)
{
   struct fs_run *r = user;
   return fs_image_store(&r->img, addr, conversion, comps, in, err);
}
#endif

#if PAN_ARCH >= 9
/* The varying at vp[vertex] (binary16 or binary32 components), the
 * provoking vertex's raw bits when flat, interpolated otherwise. */
static void
vary_out(const struct fs_run *r, unsigned lane, const uint8_t *const vp[3],
         bool flat, bool src16, bool out16, unsigned comps, uint32_t out[4])
{
   unsigned size = src16 ? 2 : 4;
   float v[3][4] = { { 0 } };

   for (unsigned i = 0; i < 3; ++i) {
      if (flat && i != r->prim->provoking)
         continue;
      const uint8_t *p = vp[i];
      if (flat) {
         memset(out, 0, 16);
         for (unsigned c = 0; c < comps; ++c) {
            uint32_t bits = 0;
            memcpy(&bits, p + c * size, size);
            /* Raw bits when the widths agree, converted otherwise. */
            if (src16 && !out16)
               bits = pan_sim_fp_round_f64(pan_sim_fp_f16_to_f64(bits),
                                           PAN_SIM_ROUND_RTE, 8, 23);
            else if (!src16 && out16) {
               float f;
               memcpy(&f, &bits, 4);
               bits = pan_sim_fp_round_f64(f, PAN_SIM_ROUND_RTE, 5, 10);
            }
            if (out16)
               out[c / 2] |= (bits & 0xffff) << (16 * (c % 2));
            else
               out[c] = bits;
         }
         return;
      }
      for (unsigned c = 0; c < comps; ++c) {
         if (src16) {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            v[i][c] = (float)pan_sim_fp_f16_to_f64(h);
         } else {
            memcpy(&v[i][c], p + 4 * c, 4);
         }
      }
   }
   interpolate(r, &r->lane[lane], (const float(*)[4])v, comps, out16, out);
}

/* v9: varyings come from the vertex packets of the primitive's draw. */
static bool
fs_ld_var_buf(void *user, unsigned lane, uint32_t offset, bool flat,
              bool src16, bool out16, unsigned comps, uint32_t out[4],
              char *err)
{
   struct fs_run *r = user;
   const struct pan_sim_draw_rec *rec = r->rec;
   const uint8_t *vp[3];

   if (!rec->packets || PAN_SIM_PACKET_VARYINGS + (uint64_t)offset +
                           comps * (src16 ? 2 : 4) > rec->packet_B) {
      snprintf(err, GFX_ERR_LEN,
               "varying bytes %u..%u beyond the %u of the vertex packet",
               offset, offset + comps * (src16 ? 2 : 4),
               rec->packet_B - PAN_SIM_PACKET_VARYINGS);
      return false;
   }
   for (unsigned i = 0; i < 3; ++i)
      vp[i] = rec->packets + (uint64_t)r->prim->v[i].index * rec->packet_B +
              PAN_SIM_PACKET_VARYINGS + offset;
   vary_out(r, lane, vp, flat, src16, out16, comps, out);
   return true;
}


/* v9, shaders without IDVS (the stock pre-frame shaders): a varying an
 * attribute descriptor places in a buffer, element = vertex index. */
static bool
fs_ld_var_table(void *user, unsigned lane, unsigned table, unsigned index,
                bool flat, bool out16, unsigned comps, uint32_t out[4],
                char *err)
{
   struct fs_run *r = user;
   const struct pan_sim_space *space = r->ctx->space;
   struct pan_sim_mem_format f;
   uint64_t va;

   if (!PAN_GENX(sim_gfx_resource)(space, r->env.resources, table, index,
                                   &va, err))
      return false;
   const void *p = PAN_GENX(sim_gfx_read)(space, va, pan_size(attribute),
                                          "varying descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, attribute, at);
   if (!PAN_GENX(sim_gfx_format)(at.format, "varying", index, &f, err) ||
       !PAN_GENX(sim_gfx_resource)(space, r->env.resources, at.table,
                                   at.buffer_index, &va, err))
      return false;
   if (f.num != PAN_SIM_NUM_FLOAT || (f.bits != 16 && f.bits != 32) ||
       comps > f.comps || at.attribute_type != MALI_ATTRIBUTE_TYPE_1D) {
      snprintf(err, GFX_ERR_LEN,
               "varying %u: only 1D float varyings of enough components "
               "are modelled",
               index);
      return false;
   }
   p = PAN_GENX(sim_gfx_read)(space, va, pan_size(buffer),
                              "varying buffer descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, buffer, buf);
   const uint8_t *vp[3];
   for (unsigned i = 0; i < 3; ++i) {
      uint64_t off = (uint64_t)r->prim->v[i].index * at.strided.stride +
                     (int64_t)at.offset;
      unsigned bytes = comps * f.bits / 8;
      if (off + bytes > buf.size) {
         snprintf(err, GFX_ERR_LEN,
                  "varying %u of vertex %u beyond its %u-byte buffer", index,
                  r->prim->v[i].index, (unsigned)buf.size);
         return false;
      }
      vp[i] = PAN_GENX(sim_gfx_read)(space, buf.address + off, bytes,
                                     "varying", err);
      if (!vp[i])
         return false;
   }
   vary_out(r, lane, vp, flat, f.bits == 16, out16, comps, out);
   return true;
}

static bool
fs_ld_var_special(void *user, unsigned lane, enum pan_sim_va_special_var which,
                  float out[2], char *err)
{
   (void)err;
   lane_special(user, lane, (unsigned)which, out);
   return true;
}

static bool
fs_blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
         enum pan_sim_regfmt regfmt, const uint32_t in[4], bool *call,
         char *err)
{
   return blend_lane(user, lane, descriptor, coverage, regfmt, in, call, err);
}

static bool
fs_ld_tile(void *user, unsigned lane, uint32_t pixel, uint32_t conversion,
           enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
           char *err)
{
   return ld_tile_lane(user, lane, pixel, conversion, regfmt, comps, out,
                       err);
}

static bool
fs_st_tile(void *user, unsigned lane, uint32_t pixel, uint32_t coverage,
           uint32_t conversion, enum pan_sim_regfmt regfmt,
           const uint32_t in[4], char *err)
{
   return st_tile_lane(user, lane, pixel, coverage, conversion, regfmt, in,
                       err);
}

/* The code of a blend shader the fragment shader calls, in words. */
static const uint64_t *
fs_code_at(void *user, uint64_t va, unsigned *words)
{
   unsigned quads = 0;
   const uint64_t *code = called_code(user, va, &quads);
   *words = quads * 2;
   return code;
}

static bool
fs_ld_buffer(void *user, unsigned table, uint32_t index, uint32_t offset,
             unsigned size, void *out, char *err)
{
   struct fs_run *r = user;
   return PAN_GENX(sim_gfx_ld_buffer)(r->ctx->space, r->env.resources, table,
                                      index, offset, size, out, err);
}

static void
face_of(struct fs_face *f, unsigned func, unsigned sfail, unsigned zfail,
        unsigned zpass, uint32_t ref, uint32_t mask, uint32_t wmask)
{
   *f = (struct fs_face){ func, sfail, zfail, zpass, (uint8_t)ref,
                          (uint8_t)mask, (uint8_t)wmask };
}

static bool
load_draw(struct fs_run *r, unsigned index)
{
   struct pan_sim_ctx *ctx = r->ctx;
   struct fs_state *st = &r->st;

   free(r->env.prog.words);
   r->env.prog.words = NULL;
   forget_called(r);
   r->draw_index = (int)index;
   r->rec = &r->l->draws[index];
   PAN_GENX(draw_unpack)(r->rec->draw, &r->draw);
   const struct PAN_GENX(draw) *d = &r->draw;

   memset(st, 0, sizeof(*st));
   st->depth_func = MALI_FUNC_ALWAYS;
   st->kill_late = d->pixel_kill_operation == MALI_PIXEL_KILL_FORCE_LATE;
   st->update_early = d->zs_update_operation == MALI_PIXEL_KILL_FORCE_EARLY;
   st->min_z = d->minimum_z;
   st->max_z = d->maximum_z;
   for (unsigned i = 0; i < 4; ++i)
      st->scissor[i] = r->rec->scissor[i];
   set_clip(r);
   if (d->depth_stencil) {
      const void *p = pan_sim_ctx_read(ctx, d->depth_stencil,
                                       pan_size(depth_stencil),
                                       "depth/stencil descriptor");
      if (!p)
         return false;
      pan_unpack(p, depth_stencil, ds);
      st->shader_z = ds.depth_source == MALI_DEPTH_SOURCE_SHADER;
      st->shader_s = ds.stencil_from_shader;
      st->depth_func = ds.depth_function;
      st->depth_write = ds.depth_write_enable;
      st->stencil_enable = ds.stencil_test_enable;
      st->bias_front = st->bias_back = ds.depth_bias_enable;
      st->bias = (struct pan_sim_bias){ ds.depth_units, ds.depth_factor,
                                        ds.depth_bias_clamp };
      face_of(&st->face[0], ds.front_compare_function, ds.front_stencil_fail,
              ds.front_depth_fail, ds.front_depth_pass,
              ds.front_reference_value, ds.front_value_mask,
              ds.front_write_mask);
      face_of(&st->face[1], ds.back_compare_function, ds.back_stencil_fail,
              ds.back_depth_fail, ds.back_depth_pass, ds.back_reference_value,
              ds.back_value_mask, ds.back_write_mask);
   }
   r->blend_va = d->blend;
   r->ms_enable = d->multisample_enable;
   r->per_sample = d->evaluate_per_sample && r->tb->samples > 1;
   r->sample_mask = (uint16_t)d->sample_mask;

   /* The draw's shader environment, packed, is its last 64 bytes. */
   const void *packed_env = r->rec->draw + pan_size(draw) - 64;
   st->has_shader = d->shader.shader != 0;
   if (!st->has_shader)
      return true;
   if (!PAN_GENX(sim_gfx_env)(ctx, packed_env, "fragment shader", &r->env))
      return false;
   r->prog.va = r->env.prog.va;

   r->gfx = (struct pan_sim_va_gfx){
      .user = r,
      .ld_var_buf = fs_ld_var_buf,
      .ld_var_table = fs_ld_var_table,
      .ld_var_special = fs_ld_var_special,
      .blend = fs_blend,
      .ld_tile = fs_ld_tile,
      .st_tile = fs_st_tile,
      .zs_emit = fs_zs_emit,
      .ld_buffer = fs_ld_buffer,
      .alpha_coverage = d->alpha_to_coverage && r->ms_enable &&
                              r->tb->samples > 1
                           ? fs_alpha_coverage
                           : NULL,
   };
   PAN_GENX(sim_gfx_config)(&r->env, &r->mem, &r->gfx, &r->cfg);
   r->cfg.code_at = fs_code_at;
   r->cfg.code_user = r;
   r->img = (struct pan_sim_image_env){
      .tex = PAN_GENX(sim_tex_env_resources)(ctx->space, r->env.resources),
   };
   PAN_GENX(sim_image_ops)(&r->img, &r->img_ops);
   r->img_ops.store = fs_image_store;
   r->cfg.image = &r->img_ops;
   /* blend_descriptor_N: words 2-3 of the draw's blend descriptors. */
   for (unsigned rt = 0; rt < d->blend_count && rt < PAN_SIM_MAX_RTS; ++rt) {
      const uint32_t *bd =
         pan_sim_ctx_read(ctx, r->blend_va + rt * pan_size(blend),
                          pan_size(blend), "blend descriptor");
      if (!bd)
         return false;
      r->cfg.special[0][8 + rt] = bd[2] | (uint64_t)bd[3] << 32;
   }
   return true;
}

static uint16_t
shade_warp(struct fs_run *r, unsigned lanes, bool *ok)
{
   *ok = true;
   if (!r->st.has_shader)
      return 0; /* depth/stencil only: nothing discards */
   pan_sim_va_warp_init(&r->w, (uint16_t)((1u << lanes) - 1));
   r->w.helper = helper_lanes(r, lanes);
   for (unsigned l = 0; l < lanes; ++l) {
      const struct fs_lane *ln = &r->lane[l];
      uint32_t *reg = r->w.r[l];
      uint32_t v[4] = { r->prim->front ? 0 : 1,
                        ((uint32_t)ln->x & 0xffff) | (uint32_t)ln->y << 16,
                        ln->pass, sample_mask_id(r, ln) };
      for (unsigned i = 0; i < 4; ++i) {
         if (r->env.preload & (1u << (58 + i - 48)))
            reg[58 + i] = v[i];
      }
   }
   *ok = pan_sim_va_run(&r->w, &r->cfg) == PAN_SIM_VA_DONE;
   return r->w.discarded;
}
#else
static bool
fs_ld_var(void *user, unsigned lane, unsigned index, bool flat,
          enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
          char *err)
{
   struct fs_run *r = user;
   struct gfx_attr_ref ref = {
      .table = r->draw.varyings,
      .buffers = r->draw.varying_buffers,
      .varying = true,
   };
   float v[3][4];

   for (unsigned i = 0; i < 3; ++i) {
      struct pan_sim_mem_format f;
      uint64_t addr;
      uint32_t word;
      if (flat && i != r->prim->provoking)
         continue;
      ref.linear = r->prim->v[i].index;
      if (!PAN_GENX(sim_gfx_locate)(r->ctx->space, &ref, index, &addr, &word,
                                    &f, err))
         return false;
      const void *p = PAN_GENX(sim_gfx_read)(
         r->ctx->space, addr, f.comps * f.bits / 8, "varying", err);
      if (!p)
         return false;
      if (flat) {
         pan_sim_mem_to_regs(&f, p, regfmt, comps, out);
         return true;
      }
      uint32_t regs[4];
      pan_sim_mem_to_regs(&f, p, PAN_SIM_REG_F32, 4, regs);
      pan_sim_regs_to_float(PAN_SIM_REG_F32, regs, 4, v[i]);
   }
   if (regfmt != PAN_SIM_REG_F16 && regfmt != PAN_SIM_REG_F32) {
      snprintf(err, GFX_ERR_LEN,
               "interpolated varying into register format %u",
               (unsigned)regfmt);
      return false;
   }
   interpolate(r, &r->lane[lane], (const float(*)[4])v, comps,
               regfmt == PAN_SIM_REG_F16, out);
   return true;
}

static bool
fs_blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
         const uint32_t in[4], struct pan_sim_bi_blend_call *call, char *err)
{
   pan_unpack(&descriptor, internal_blend, ib);
   if (ib.mode == MALI_BLEND_MODE_SHADER) {
      /* The blend shader stores (its own BLEND, opaque); BLEND hands it
       * the return value the descriptor holds. */
      *call = (struct pan_sim_bi_blend_call){
         .call = true,
         .pc = (uint32_t)ib.shader.pc,
         .ret = (uint32_t)ib.shader.return_value,
      };
      return true;
   }
   /* Bifrost's BLEND names no register format: the descriptor's
    * conversion does, which is what blend_lane makes of "auto". */
   return blend_lane(user, lane, descriptor, coverage, PAN_SIM_REG_AUTO, in,
                     NULL, err);
}

/* Bifrost's LD_TILE and ST_TILE take the register format from the
 * conversion and address the pixel: y 0xff names the lane's own (x is
 * then ignored: the stock compiler leaves it 0, ours 0xff), the only
 * one modelled. */
static bool
own_pixel(uint32_t pixel, const char *what, char *err)
{
   if ((pixel >> 24) == 0xff)
      return true;
   snprintf(err, GFX_ERR_LEN,
            "tile %s at pixel indices 0x%x: only the lane's own pixel is "
            "modelled",
            what, pixel);
   return false;
}

static bool
fs_bi_ld_tile(void *user, unsigned lane, uint32_t pixel, uint32_t conversion,
              unsigned comps, enum pan_sim_regfmt *regfmt, uint32_t out[4],
              char *err)
{
   if (!own_pixel(pixel, "read", err))
      return false;
   pan_unpack(&conversion, internal_conversion, conv);
   *regfmt = blend_auto_regfmt(&conv);
   return ld_tile_lane(user, lane, pixel & 0xffff, conversion, *regfmt, comps,
                       out, err);
}

static bool
fs_bi_st_tile(void *user, unsigned lane, uint32_t pixel, uint32_t coverage,
              uint32_t conversion, const uint32_t in[4], char *err)
{
   if (!own_pixel(pixel, "write", err))
      return false;
   pan_unpack(&conversion, internal_conversion, conv);
   return st_tile_lane(user, lane, pixel & 0xffff, coverage, conversion,
                       blend_auto_regfmt(&conv), in, err);
}

static const uint64_t *
fs_bi_code_at(void *user, uint64_t va, unsigned *quads)
{
   return called_code(user, va, quads);
}

static bool
fs_bi_ld_var_special(void *user, unsigned lane, unsigned which, float out[2],
                     char *err)
{
   (void)err;
   lane_special(user, lane, which, out);
   return true;
}

static bool
fs_ubo(void *user, uint32_t index, uint32_t offset, unsigned size, void *out,
       char *err)
{
   struct fs_run *r = user;
   return PAN_GENX(sim_gfx_ubo)(r->ctx->space, r->draw.uniform_buffers, index,
                                offset, size, out, err);
}

static void
face_of(struct fs_face *f, const struct PAN_GENX(stencil) * s, unsigned wmask)
{
   *f = (struct fs_face){ s->compare_function, s->stencil_fail,
                          s->depth_fail,       s->depth_pass,
                          (uint8_t)s->reference_value, (uint8_t)s->mask,
                          (uint8_t)wmask };
}

static bool
load_draw(struct fs_run *r, unsigned index)
{
   struct pan_sim_ctx *ctx = r->ctx;
   struct fs_state *st = &r->st;

   free(r->prog.words);
   r->prog.words = NULL;
   forget_called(r);
   r->draw_index = (int)index;
   r->rec = &r->l->draws[index];
   PAN_GENX(draw_unpack)(r->rec->draw, &r->draw);

   const void *rsd = pan_sim_ctx_read(
      ctx, r->draw.state, pan_size(renderer_state), "fragment renderer state");
   if (!rsd)
      return false;
   PAN_GENX(renderer_state_unpack)(rsd, &r->rs);
   r->blend_va = r->draw.state + pan_size(renderer_state);

   const struct PAN_GENX(renderer_state) *rs = &r->rs;
   const void *vpp =
      pan_sim_ctx_read(ctx, r->draw.viewport, pan_size(viewport), "viewport");
   if (!vpp)
      return false;
   pan_unpack(vpp, viewport, vp);
   *st = (struct fs_state){
      .depth_func = rs->multisample_misc.depth_function,
      .depth_write = rs->multisample_misc.depth_write_mask,
      .stencil_enable = rs->stencil_mask_misc.stencil_enable,
      /* No shader (a depth-only draw): covered pixels update depth and
       * stencil only. */
      .has_shader = rs->shader.shader != 0,
      .shader_z = rs->properties.depth_source == MALI_DEPTH_SOURCE_SHADER,
      .shader_s = rs->properties.stencil_from_shader,
      .kill_late =
         rs->properties.pixel_kill_operation == MALI_PIXEL_KILL_FORCE_LATE,
      .update_early =
         rs->properties.zs_update_operation == MALI_PIXEL_KILL_FORCE_EARLY,
      .bias_front = rs->stencil_mask_misc.front_facing_depth_bias,
      .bias_back = rs->stencil_mask_misc.back_facing_depth_bias,
      .bias = { rs->depth_units, rs->depth_factor, rs->depth_bias_clamp },
      .min_z = vp.minimum_z,
      .max_z = vp.maximum_z,
      .scissor = { vp.scissor_minimum_x, vp.scissor_minimum_y,
                   vp.scissor_maximum_x, vp.scissor_maximum_y },
   };
   r->ms_enable = rs->multisample_misc.multisample_enable;
   r->per_sample =
      rs->multisample_misc.evaluate_per_sample && r->tb->samples > 1;
   r->sample_mask = (uint16_t)rs->multisample_misc.sample_mask;
   face_of(&st->face[0], &rs->stencil_front,
           rs->stencil_mask_misc.stencil_mask_front);
   face_of(&st->face[1], &rs->stencil_back,
           rs->stencil_mask_misc.stencil_mask_back);
   set_clip(r);

   r->uniform_words = rs->preload.uniform_count * 2;
   r->uniforms = NULL;
   if (r->uniform_words) {
      r->uniforms =
         pan_sim_ctx_read(ctx, r->draw.push_uniforms, r->uniform_words * 4ull,
                          "fragment uniforms");
      if (!r->uniforms)
         return false;
   }
   if (st->has_shader && !PAN_GENX(sim_gfx_fetch)(ctx, rs->shader.shader,
                                                  "fragment shader", &r->prog))
      return false;

   r->gfx = (struct pan_sim_bi_gfx){
      .user = r,
      .ld_var = fs_ld_var,
      .ld_var_special = fs_bi_ld_var_special,
      .blend = fs_blend,
      .ld_tile = fs_bi_ld_tile,
      .st_tile = fs_bi_st_tile,
      .zs_emit = fs_zs_emit,
      .ubo = fs_ubo,
      .alpha_coverage = rs->stencil_mask_misc.alpha_to_coverage &&
                              r->ms_enable && r->tb->samples > 1
                           ? fs_alpha_coverage
                           : NULL,
   };
   r->cfg = (struct pan_sim_bi_config){
      .program = r->prog.words,
      .program_quads = r->prog.quads,
      .program_va = r->prog.va,
      .uniforms = r->uniforms,
      .uniform_words = r->uniform_words,
      .mem = PAN_GENX(sim_gfx_mem_ops),
      .lanes = GFX_LANES,
      .gfx = &r->gfx,
      .tex = &r->tex,
      .code_at = fs_bi_code_at,
      .code_user = r,
      .work_regs = PAN_GENX(sim_bi_declared_regs)(rs),
   };
   r->cfg.mem.user = &r->mem;
   if (!PAN_GENX(sim_gfx_thread_storage)(ctx, r->draw.thread_storage,
                                         &r->cfg))
      return false;
   r->tex_env = (struct pan_sim_tex_env){
      .space = ctx->space,
      .textures = r->draw.textures,
      .samplers = r->draw.samplers,
      .texture_count = rs->shader.texture_count,
      .sampler_count = rs->shader.sampler_count,
   };
   r->tex = (struct pan_sim_tex_ops){ &r->tex_env, PAN_GENX(sim_tex_run) };
   r->img = (struct pan_sim_image_env){
      .tex = r->tex_env,
      .attributes = r->draw.attributes,
      .attribute_buffers = r->draw.attribute_buffers,
   };
   PAN_GENX(sim_image_ops)(&r->img, &r->img_ops);
   r->img_ops.store = fs_image_store;
   r->cfg.image = &r->img_ops;
   r->gfx.st_cvt = fs_bi_st_cvt;
   /* blend_descriptor_N: words 2-3 of each blend descriptor present;
    * a draw has the one of target 0 even in a pass without targets.
    */
   for (unsigned rt = 0; rt < PAN_SIM_MAX_RTS; ++rt) {
      if (rt && !r->tb->rt[rt].present)
         continue;
      const uint32_t *bd =
         pan_sim_ctx_read(ctx, r->blend_va + rt * pan_size(blend),
                          pan_size(blend), "blend descriptor");
      if (!bd)
         return false;
      r->cfg.special[8 + rt] = bd[2] | (uint64_t)bd[3] << 32;
   }
   return true;
}

static bool
preload_message(struct fs_run *r, unsigned l, unsigned k)
{
#if PAN_ARCH >= 7
   const struct PAN_GENX(message_preload) *mp =
      k ? &r->rs.fragment_messages.message_preload_2
        : &r->rs.fragment_messages.message_preload_1;
   char err[GFX_ERR_LEN] = "";
   uint32_t out[4];

   if (mp->type != MALI_MESSAGE_TYPE_LD_VAR)
      return true;
   enum pan_sim_regfmt f =
      mp->ld_var.register_format == MALI_MESSAGE_PRELOAD_REGISTER_FORMAT_F16
         ? PAN_SIM_REG_F16
         : PAN_SIM_REG_F32;
   if (!fs_ld_var(r, l, mp->ld_var.varying_index, false, f,
                  mp->ld_var.num_components, out, err))
      return pan_sim_fault(r->ctx, PAN_SIM_CONFIG_FAULT, r->draw.state,
                           "message preload %u: %s", k + 1, err);
   memcpy(&r->w.r[l][4 * k], out, 16);
#else
   (void)r, (void)l, (void)k;
#endif
   return true;
}

/* VAR_TEX message preloads need the whole quad (derivatives): run after
 * the per-lane preloads, as the instruction would. */
static bool
preload_var_tex(struct fs_run *r, unsigned lanes, unsigned k)
{
#if PAN_ARCH >= 7
   const struct PAN_GENX(message_preload) *mp =
      k ? &r->rs.fragment_messages.message_preload_2
        : &r->rs.fragment_messages.message_preload_1;
   char err[GFX_ERR_LEN] = "";

   if (mp->type != MALI_MESSAGE_TYPE_VAR_TEX)
      return true;
   if (!pan_sim_bi_var_tex_preload(
          &r->w, &r->cfg, (uint16_t)((1u << lanes) - 1),
          mp->var_tex.varying_index, mp->var_tex.texture_index,
          mp->var_tex.register_format ==
             MALI_MESSAGE_PRELOAD_REGISTER_FORMAT_F16,
          mp->var_tex.zero_lod, 4 * k, err, sizeof(err)))
      return pan_sim_fault(r->ctx, PAN_SIM_CONFIG_FAULT, r->draw.state,
                           "message preload %u: %s", k + 1, err);
#else
   (void)r, (void)lanes, (void)k;
#endif
   return true;
}

static uint16_t
shade_warp(struct fs_run *r, unsigned lanes, bool *ok)
{
   const struct PAN_GENX(preload) *pl = &r->rs.preload;

   *ok = true;
   if (!r->st.has_shader)
      return 0; /* depth/stencil only: nothing discards */
   pan_sim_bi_warp_init(&r->w, (uint16_t)((1u << lanes) - 1));
   r->w.helper = helper_lanes(r, lanes);
   for (unsigned l = 0; l < lanes; ++l) {
      const struct fs_lane *ln = &r->lane[l];
      uint32_t *reg = r->w.r[l];
      if (pl->fragment.primitive_flags)
         reg[58] = r->prim->front ? 0 : 1;
      if (pl->fragment.fragment_position)
         reg[59] = ((uint32_t)ln->x & 0xffff) | (uint32_t)ln->y << 16;
      if (pl->fragment.coverage)
         reg[60] = ln->pass;
      if (pl->fragment.sample_mask_id)
         reg[61] = sample_mask_id(r, ln);
      if (!preload_message(r, l, 0) || !preload_message(r, l, 1)) {
         r->reported = true;
         *ok = false;
         return 0;
      }
   }
   if (!preload_var_tex(r, lanes, 0) || !preload_var_tex(r, lanes, 1)) {
      r->reported = true;
      *ok = false;
      return 0;
   }
   r->w.fault[0] = 0;
   *ok = pan_sim_bi_run(&r->w, &r->cfg) == PAN_SIM_BI_DONE;
   return r->w.discarded;
}
#endif

/* ---- warps ---- */

static bool
depth_pass(unsigned func, float z, float stored)
{
   switch (func) {
   case MALI_FUNC_NEVER:
      return false;
   case MALI_FUNC_LESS:
      return z < stored;
   case MALI_FUNC_EQUAL:
      return z == stored;
   case MALI_FUNC_LEQUAL:
      return z <= stored;
   case MALI_FUNC_GREATER:
      return z > stored;
   case MALI_FUNC_NOT_EQUAL:
      return z != stored;
   case MALI_FUNC_GEQUAL:
      return z >= stored;
   default:
      return true;
   }
}

static const struct fs_face *
stencil_face(const struct fs_run *r)
{
   return &r->st.face[r->prim->front ? 0 : 1];
}

/* Apply stencil operation op (stencil_op enum) under the face's write
 * mask, REPLACE writing ref. */
static void
stencil_update(struct fs_run *r, unsigned at, unsigned op, uint8_t ref)
{
   const struct fs_face *s = stencil_face(r);
   uint8_t old = r->tb->stencil[at], v = old;

   switch (op) {
   case MALI_STENCIL_OP_KEEP:
      return;
   case MALI_STENCIL_OP_REPLACE:
      v = ref;
      break;
   case MALI_STENCIL_OP_ZERO:
      v = 0;
      break;
   case MALI_STENCIL_OP_INVERT:
      v = (uint8_t)~old;
      break;
   case MALI_STENCIL_OP_INCR_WRAP:
      v = (uint8_t)(old + 1);
      break;
   case MALI_STENCIL_OP_DECR_WRAP:
      v = (uint8_t)(old - 1);
      break;
   case MALI_STENCIL_OP_INCR_SAT:
      v = old == 255 ? 255 : old + 1;
      break;
   default:
      v = old == 0 ? 0 : old - 1;
      break; /* DECR_SAT */
   }
   v = (uint8_t)((old & ~s->write_mask) | (v & s->write_mask));
   if (v != old) {
      r->tb->stencil[at] = v;
      r->tb->written[at] |= PAN_SIM_WRITTEN_STENCIL;
   }
}

/* The stencil and depth tests of the samples inside a lane against the
 * tile buffer, at their own depth or, when shader_z, at z: which pass, and
 * the stencil operation each asks. */
static void
zs_test(struct fs_run *r, struct fs_lane *ln, bool shader_z, float z)
{
   unsigned at = pan_sim_tilebuf_at(r->tb, ln->x, ln->y);

   if (shader_z)
      ln->z = z;
   ln->late = false;
   ln->pass = 0;
   for (unsigned i = 0; i < r->tb->samples; ++i) {
      if (!((ln->cover >> i) & 1))
         continue;
      if (shader_z)
         ln->sz[i] = z;
      bool zpass =
         depth_pass(r->st.depth_func, ln->sz[i], r->tb->depth[at + i]);
      ln->sop[i] = MALI_STENCIL_OP_KEEP;
      if (r->st.stencil_enable) {
         const struct fs_face *s = stencil_face(r);
         unsigned ref = ln->ref & s->mask;
         unsigned cur = r->tb->stencil[at + i] & s->mask;
         /* The compare functions read "reference FUNC stored". */
         if (!depth_pass(s->func, (float)ref, (float)cur)) {
            ln->sop[i] = s->stencil_fail;
            continue;
         }
         ln->sop[i] = zpass ? s->depth_pass : s->depth_fail;
      }
      if (zpass)
         ln->pass |= 1u << i;
   }
   ln->covered = ln->pass != 0;
}

/* ZS_EMIT: the tests a draw whose descriptor takes depth or stencil from
 * the shader left for now, with the shader's values (the depth clamped to
 * the depth range, as fixed-function depth is). */
static bool
fs_zs_emit(void *user, unsigned lane, bool z, float depth, bool stencil,
           uint8_t ref, uint32_t *coverage, char *err)
{
   struct fs_run *r = user;
   struct fs_lane *ln = &r->lane[lane];

   if (!r->st.shader_z && !r->st.shader_s) {
      snprintf(err, 160, "depth/stencil output from a draw whose "
                         "depth/stencil source is fixed function");
      return false;
   }
   if (!ln->inside || !ln->late) {
      *coverage &= ln->pass;
      return true;
   }
   float zv = 0;
   bool use_z = z && r->st.shader_z;
   if (use_z) {
      zv = isnan(depth) ? r->st.min_z : depth;
      zv = zv < r->st.min_z ? r->st.min_z : zv > r->st.max_z ? r->st.max_z : zv;
   }
   if (stencil && r->st.shader_s)
      ln->ref = ref;
   zs_test(r, ln, use_z, zv);
   *coverage &= ln->pass;
   return true;
}

/* ATEST with alpha to coverage on: pan_sim_a2c.h's mask, kept for the
 * depth/stencil updates after the warp. */
static uint32_t
fs_alpha_coverage(void *user, unsigned lane, uint32_t alpha)
{
   struct fs_run *r = user;
   uint32_t mask = pan_sim_a2c_mask(alpha, r->tb->samples);
   r->lane[lane].a2c &= (uint16_t)mask;
   return mask;
}

/* The draw's occlusion query: a counter adds the samples that passed the
 * depth and stencil tests and were not discarded, a predicate is set to 1
 * once one passed. */
static bool
count_occlusion(struct fs_run *r, uint64_t passed)
{
   enum mali_occlusion_mode mode = r->draw.occlusion_query;
   if (mode == MALI_OCCLUSION_MODE_DISABLED || !passed)
      return true;
   void *q = pan_sim_ctx_write(r->ctx, r->draw.occlusion, sizeof(uint64_t),
                               "occlusion query");
   if (!q)
      return false;
   uint64_t v = 1;
   if (mode == MALI_OCCLUSION_MODE_COUNTER) {
      memcpy(&v, q, sizeof(v));
      v += passed;
   }
   memcpy(q, &v, sizeof(v));
   return true;
}

static bool
run_warp(struct fs_run *r)
{
   unsigned lanes = r->nr_quads * 4;
   bool ok;

   if (!lanes)
      return true;
   r->nr_quads = 0;
   uint16_t discarded = shade_warp(r, lanes, &ok);
   if (!ok)
      return r->reported ||
             pan_sim_fault(r->ctx,
                           r->mem.failed ? PAN_SIM_READ_FAULT
                                         : MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC,
                           r->prog.va,
                           "fragment shader 0x%" PRIx64
                           ", pixel (%d, %d): %s%s%s",
                           r->prog.va, r->lane[0].x, r->lane[0].y, r->w.fault,
                           r->mem.failed ? ": " : "", r->mem.message);

   uint64_t passed = 0;
   for (unsigned l = 0; l < lanes; ++l) {
      const struct fs_lane *ln = &r->lane[l];
      bool early = r->st.update_early;
      if (!ln->inside || ((discarded & (1u << l)) && !early))
         continue;
      /* No ZS_EMIT ran: the rasterised values decide. */
      if (ln->late)
         zs_test(r, &r->lane[l], false, 0);
      /* GL's alpha to coverage comes before the stencil and depth tests
       * (which early updates precede). */
      if (!early) {
         r->lane[l].cover &= ln->a2c;
         r->lane[l].pass &= ln->a2c;
      }
      passed += (unsigned)__builtin_popcount(ln->pass);
      unsigned at = pan_sim_tilebuf_at(r->tb, ln->x, ln->y);
      for (unsigned i = 0; i < r->tb->samples; ++i) {
         if (!((ln->cover >> i) & 1))
            continue;
         if (r->st.stencil_enable)
            stencil_update(r, at + i, ln->sop[i], ln->ref);
         if (((ln->pass >> i) & 1) && r->st.depth_write) {
            r->tb->depth[at + i] = ln->sz[i];
            r->tb->written[at + i] |= PAN_SIM_WRITTEN_DEPTH;
         }
      }
   }
   return count_occlusion(r, passed);
}

/* z offset by the primitive's polygon offset, clamped to the depth
 * range. */
static float
offset_depth(const struct fs_run *r, float z)
{
   z += r->z_bias;
   return z < r->st.min_z ? r->st.min_z : z > r->st.max_z ? r->st.max_z : z;
}

/* Whether sample position (sx, sy) of pixel (x, y) is inside the
 * primitive and the depth range (before the polygon offset, which GL
 * applies after clipping); its depth, offset and clamped, in *z. */
static bool
sample_inside(struct fs_run *r, int x, int y, unsigned sx, unsigned sy,
              float *z)
{
   const struct pan_sim_tri *t = &r->tri;
   const struct pan_sim_vtx *v = &r->prim->v[0];
   double b[3];

   if (r->prim->point_size > 0) {
      if (!pan_sim_point_covers_at(v->x, v->y, r->prim->point_size, x, y, sx,
                                   sy))
         return false;
      *z = v->z;
   } else if (r->prim->line_width > 0) {
      double at;
      if (!pan_sim_line_covers_at(&r->line, x, y, sx, sy, &at))
         return false;
      *z = (float)((1 - at) * v[0].z + at * v[1].z);
   } else {
      if (!pan_sim_tri_covers_at(t, x, y, sx, sy, b))
         return false;
      *z = (float)(b[0] * t->z[0] + b[1] * t->z[1] + b[2] * t->z[2]);
   }
   if ((*z < r->st.min_z && r->rec->low_depth_cull) ||
       (*z > r->st.max_z && r->rec->high_depth_cull))
      return false;
   *z = offset_depth(r, *z);
   return true;
}

/* Coverage, depth range, stencil and depth tests of one pixel: of each
 * sample at its position in a multisampled frame (only the sample shaded
 * when shading per sample), of the centre otherwise, whose coverage then
 * stands for every sample. */
static void
set_lane(struct fs_run *r, struct fs_lane *ln, int x, int y)
{
   const struct pan_sim_tri *t = &r->tri;
   const struct pan_sim_tilebuf *tb = r->tb;

   ln->x = x;
   ln->y = y;
   ln->inside = false;
   ln->covered = false;
   ln->late = false;
   ln->cover = 0;
   ln->a2c = 0xffff;
   ln->pass = 0;
   ln->ref = stencil_face(r)->ref;
   memset(ln->b, 0, sizeof(ln->b));
   ln->b[0] = 1.0;
   /* Helper lanes of a triangle interpolate its plane extrapolated, so
    * that derivatives across its edges are those of the plane. */
   bool point = r->prim->point_size > 0;
   if (r->prim->line_width > 0) {
      /* Along the segment: the weights of its two ends. */
      double at;
      pan_sim_line_covers_at(&r->line, x, y, 128, 128, &at);
      ln->b[0] = 1 - at;
      ln->b[1] = at;
   } else if (!point) {
      pan_sim_tri_covers(t, x, y, ln->b);
   }
   if (x < r->clip_x0 || x > r->clip_x1 || y < r->clip_y0 || y > r->clip_y1)
      return;
   if (tb->samples > 1 && r->ms_enable) {
      for (unsigned i = 0; i < tb->samples; ++i) {
         if (r->sample >= 0 && i != (unsigned)r->sample)
            continue;
         if (sample_inside(r, x, y, tb->sample_x[i], tb->sample_y[i],
                           &ln->sz[i]))
            ln->cover |= 1u << i;
      }
   } else {
      float z;
      if (sample_inside(r, x, y, 128, 128, &z)) {
         for (unsigned i = 0; i < tb->samples; ++i)
            ln->sz[i] = z;
         ln->cover = (uint16_t)((1u << tb->samples) - 1);
         if (r->sample >= 0)
            ln->cover &= 1u << r->sample;
      }
   }
   if (tb->samples > 1)
      ln->cover &= r->sample_mask;
   if (!ln->cover)
      return;
   /* The depth the shader sees: at the centre, in the depth range. */
   const struct pan_sim_vtx *pv = r->prim->v;
   float z = point ? pv[0].z
                   : (float)(ln->b[0] * pv[0].z + ln->b[1] * pv[1].z +
                             ln->b[2] * pv[2].z);
   ln->z = offset_depth(r, z);
   ln->inside = true;
   if ((r->st.shader_z || r->st.shader_s) && !r->st.update_early) {
      /* Tested when the shader gives its values: covered until then. */
      ln->late = true;
      ln->covered = true;
      ln->pass = ln->cover;
      return;
   }
   zs_test(r, ln, false, 0);
}

static bool
shade_prim(struct fs_run *r)
{
   const struct pan_sim_vtx *v = &r->prim->v[0];
   int bx0, by0, bx1, by1;
   bool ccw;

   if (r->prim->point_size > 0) {
      if (!(v->inv_w > 0) || !(fabsf(v->x) < (1 << 20)) ||
          !(fabsf(v->y) < (1 << 20)) || !(r->prim->point_size < (1 << 12)))
         return true; /* behind the eye or absurd: nothing to draw */
      pan_sim_point_box(v->x, v->y, r->prim->point_size, &bx0, &by0, &bx1,
                        &by1);
   } else if (r->prim->line_width > 0) {
      if (!pan_sim_line_setup(r->prim, &r->line)) {
         pan_sim_warn_once(r->ctx, PAN_SIM_ONCE_NO_CLIP,
                           "lines with an end at or behind the eye or "
                           "beyond the guard band are dropped (no "
                           "clipping)");
         return true;
      }
      bx0 = r->line.minx, by0 = r->line.miny;
      bx1 = r->line.maxx, by1 = r->line.maxy;
   } else if (!pan_sim_tri_setup(r->prim, &r->tri, &ccw)) {
      pan_sim_warn_once(r->ctx, PAN_SIM_ONCE_NO_CLIP,
                        "triangles with a vertex at or behind the eye or "
                        "beyond the guard band are dropped (no clipping)");
      return true;
   } else {
      bx0 = r->tri.minx, by0 = r->tri.miny;
      bx1 = r->tri.maxx, by1 = r->tri.maxy;
   }
   bool biased = r->prim->front ? r->st.bias_front : r->st.bias_back;
   r->z_bias = biased ? (float)pan_sim_depth_bias(&r->st.bias, r->prim,
                                                  r->tb->z_bits, r->tb->z_float)
                      : 0.0f;
   /* The boxes hold the pixels whose centre may be covered: samples off
    * the centre may reach one pixel further. */
   if (r->tb->samples > 1) {
      bx0--, by0--;
      bx1++, by1++;
   }
   int x0 = bx0 > r->clip_x0 ? bx0 : r->clip_x0;
   int y0 = by0 > r->clip_y0 ? by0 : r->clip_y0;
   int x1 = bx1 < r->clip_x1 ? bx1 : r->clip_x1;
   int y1 = by1 < r->clip_y1 ? by1 : r->clip_y1;
   x0 &= ~1;
   y0 &= ~1;

   /* Shading per sample runs the primitive once a sample. */
   unsigned passes = r->per_sample ? r->tb->samples : 1;
   for (unsigned p = 0; p < passes; ++p) {
      r->sample = r->per_sample ? (int)p : -1;
      for (int qy = y0; qy <= y1; qy += 2) {
         for (int qx = x0; qx <= x1; qx += 2) {
            struct fs_lane *q = &r->lane[4 * r->nr_quads];
            bool any = false;
            for (unsigned i = 0; i < 4; ++i) {
               set_lane(r, &q[i], qx + (int)(i & 1), qy + (int)(i >> 1));
               any |= q[i].inside;
            }
            if (!any)
               continue;
            if (++r->nr_quads * 4 == GFX_LANES && !run_warp(r))
               return false;
         }
      }
      if (!run_warp(r))
         return false;
   }
   return true;
}

bool
PAN_GENX(sim_shade_list)(struct pan_sim_ctx *ctx, const struct pan_sim_plist *l,
                         struct pan_sim_tilebuf *tb)
{
   struct fs_run *r = calloc(1, sizeof(*r));
   bool ok = true;

   if (!r)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0, "out of memory");
   r->ctx = ctx;
   r->l = l;
   r->tb = tb;
   r->mem.space = ctx->space;
   r->draw_index = -1;
   r->sample = -1;
   for (unsigned i = 0; ok && i < l->nr_prims; ++i) {
      r->prim = &l->prims[i];
      if ((int)r->prim->draw != r->draw_index)
         ok = load_draw(r, r->prim->draw);
      if (ok)
         ok = shade_prim(r);
   }
#if PAN_ARCH >= 9
   free(r->env.prog.words);
#else
   free(r->prog.words);
#endif
   forget_called(r);
   free(r);
   return ok;
}

#endif
