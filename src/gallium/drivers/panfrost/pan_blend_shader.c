/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Blend shaders.  The fragment shader's BLEND of a render target whose
 * descriptor is in shader mode falls into its call sequence (v9) or calls
 * it itself (v6/v7, with the return address the descriptor holds), the
 * return address in r48 either way.  The blend
 * shader shares the thread's registers: it reads the colour and the
 * coverage where that BLEND has them (they depend on the fragment shader,
 * so they are part of the key), reads the destination from the tile
 * buffer, and stores the result through an opaque internal descriptor of
 * the target's conversion.  Nir_lower_blend writes the maths and the
 * logic ops; the blend constants are immediates, so a change of constants
 * is another shader.  Compiled shaders live in executable arenas until the
 * context is destroyed; the hardware takes the low word of their address,
 * the high word being the fragment shader's.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_lower_blend.h"
#include "util/format/u_format.h"
#include "util/hash_table.h"
#include "util/u_framebuffer.h"
#include "util/u_math.h"
#include "util/ralloc.h"

#include "pan_batch.h"
#include "pan_blend_shader.h"
#include "pan_bo.h"
#include "pan_compile.h"
#include "pan_context.h"
#include "pan_screen.h"

struct blend_shader {
   struct panfrost_blend_shader_key key;
   struct pan_bo *bo; /* the arena holding it */
   uint64_t va;
};

/* Blend shaders are suballocated from executable arenas of this size, so
 * that a pass using many references few BOs. */
#define ARENA_B (64u << 10)

struct panfrost_blend_shaders {
   struct hash_table *table;
   struct pan_bo *arenas[64];
   unsigned nr_arenas, used_B; /* bytes used of the last arena */
};

/* A Gallium factor as nir_lower_blend's factor and inversion. */
static void
to_factor(unsigned f, enum blend_factor *out, bool *invert)
{
   static const enum blend_factor plain[] = {
      [PIPE_BLENDFACTOR_ONE] = BLEND_FACTOR_ZERO,
      [PIPE_BLENDFACTOR_SRC_COLOR] = BLEND_FACTOR_SRC_COLOR,
      [PIPE_BLENDFACTOR_SRC_ALPHA] = BLEND_FACTOR_SRC_ALPHA,
      [PIPE_BLENDFACTOR_DST_ALPHA] = BLEND_FACTOR_DST_ALPHA,
      [PIPE_BLENDFACTOR_DST_COLOR] = BLEND_FACTOR_DST_COLOR,
      [PIPE_BLENDFACTOR_SRC_ALPHA_SATURATE] = BLEND_FACTOR_SRC_ALPHA_SATURATE,
      [PIPE_BLENDFACTOR_CONST_COLOR] = BLEND_FACTOR_CONSTANT_COLOR,
      [PIPE_BLENDFACTOR_CONST_ALPHA] = BLEND_FACTOR_CONSTANT_ALPHA,
      [PIPE_BLENDFACTOR_ZERO] = BLEND_FACTOR_ZERO,
      [PIPE_BLENDFACTOR_INV_SRC_COLOR] = BLEND_FACTOR_SRC_COLOR,
      [PIPE_BLENDFACTOR_INV_SRC_ALPHA] = BLEND_FACTOR_SRC_ALPHA,
      [PIPE_BLENDFACTOR_INV_DST_ALPHA] = BLEND_FACTOR_DST_ALPHA,
      [PIPE_BLENDFACTOR_INV_DST_COLOR] = BLEND_FACTOR_DST_COLOR,
      [PIPE_BLENDFACTOR_INV_CONST_COLOR] = BLEND_FACTOR_CONSTANT_COLOR,
      [PIPE_BLENDFACTOR_INV_CONST_ALPHA] = BLEND_FACTOR_CONSTANT_ALPHA,
      [PIPE_BLENDFACTOR_SRC1_COLOR] = BLEND_FACTOR_SRC1_COLOR,
      [PIPE_BLENDFACTOR_SRC1_ALPHA] = BLEND_FACTOR_SRC1_ALPHA,
      [PIPE_BLENDFACTOR_INV_SRC1_COLOR] = BLEND_FACTOR_SRC1_COLOR,
      [PIPE_BLENDFACTOR_INV_SRC1_ALPHA] = BLEND_FACTOR_SRC1_ALPHA,
   };

   switch (f) {
   case PIPE_BLENDFACTOR_ONE:
   case PIPE_BLENDFACTOR_INV_SRC_COLOR:
   case PIPE_BLENDFACTOR_INV_SRC_ALPHA:
   case PIPE_BLENDFACTOR_INV_DST_ALPHA:
   case PIPE_BLENDFACTOR_INV_DST_COLOR:
   case PIPE_BLENDFACTOR_INV_CONST_COLOR:
   case PIPE_BLENDFACTOR_INV_CONST_ALPHA:
   case PIPE_BLENDFACTOR_INV_SRC1_COLOR:
   case PIPE_BLENDFACTOR_INV_SRC1_ALPHA:
      *invert = true;
      break;
   default:
      *invert = false;
      break;
   }
   *out = f < ARRAY_SIZE(plain) ? plain[f] : BLEND_FACTOR_ZERO;
}

static enum blend_func
to_func(unsigned f)
{
   switch (f) {
   case PIPE_BLEND_SUBTRACT:
      return BLEND_FUNC_SUBTRACT;
   case PIPE_BLEND_REVERSE_SUBTRACT:
      return BLEND_FUNC_REVERSE_SUBTRACT;
   case PIPE_BLEND_MIN:
      return BLEND_FUNC_MIN;
   case PIPE_BLEND_MAX:
      return BLEND_FUNC_MAX;
   default:
      return BLEND_FUNC_ADD;
   }
}

static void
to_channel(unsigned func, unsigned src, unsigned dst,
           nir_lower_blend_channel *c)
{
   c->func = to_func(func);
   to_factor(src, &c->src_factor, &c->invert_src_factor);
   to_factor(dst, &c->dst_factor, &c->invert_dst_factor);
}

/* The blend constants, which nir_lower_blend loads, as immediates. */
static bool
inline_constants(nir_builder *b, nir_instr *instr, void *data)
{
   const float *k = data;
   if (instr->type != nir_instr_type_intrinsic ||
       nir_instr_as_intrinsic(instr)->intrinsic !=
          nir_intrinsic_load_blend_const_color_rgba)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   b->cursor = nir_before_instr(instr);
   nir_ssa_def_rewrite_uses(&intr->dest.ssa,
                            nir_imm_vec4(b, k[0], k[1], k[2], k[3]));
   nir_instr_remove(instr);
   return true;
}

/* The format nir_lower_blend is told: it takes a format's channels as
 * red, green, blue, alpha in order, so one with alpha but fewer channels
 * (alpha, luminance-alpha) is blended as the four-channel format of its
 * kind (the tile buffer and the registers hold all four; the store
 * descriptor's conversion writes what the target has).
 */
static enum pipe_format
blend_format(enum pipe_format f)
{
   const struct util_format_description *d = util_format_description(f);
   if (!util_format_has_alpha(f) || d->nr_channels == 4)
      return f;
   unsigned bits = d->channel[0].size;
   bool sgn = d->channel[0].type == UTIL_FORMAT_TYPE_SIGNED;
   if (d->channel[0].type == UTIL_FORMAT_TYPE_FLOAT)
      return bits == 16 ? PIPE_FORMAT_R16G16B16A16_FLOAT
                        : PIPE_FORMAT_R32G32B32A32_FLOAT;
   if (bits <= 8)
      return sgn ? PIPE_FORMAT_R8G8B8A8_SNORM : PIPE_FORMAT_R8G8B8A8_UNORM;
   return sgn ? PIPE_FORMAT_R16G16B16A16_SNORM : PIPE_FORMAT_R16G16B16A16_UNORM;
}

nir_shader *
panfrost_blend_shader_nir(const struct panfrost_blend_shader_key *k)
{
   const struct panfrost_blend_rt *rt = &k->rt;
   nir_lower_blend_options o = { 0 };
   bool integer = util_format_is_pure_integer(rt->format);

   o.format[0] = integer ? rt->format : blend_format(rt->format);
   o.rt[0].colormask = rt->colormask;
   o.logicop_enable = rt->logicop && rt->logicop_func != PIPE_LOGICOP_COPY;
   o.logicop_func = rt->logicop_func;
   if (rt->blend && !integer && !o.logicop_enable) {
      to_channel(rt->rgb_func, rt->rgb_src, rt->rgb_dst, &o.rt[0].rgb);
      to_channel(rt->alpha_func, rt->alpha_src, rt->alpha_dst, &o.rt[0].alpha);
   } else {
      to_channel(PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ZERO,
                 &o.rt[0].rgb);
      o.rt[0].alpha = o.rt[0].rgb;
   }

   nir_alu_type type = util_format_is_pure_uint(rt->format) ? nir_type_uint32
                       : util_format_is_pure_sint(rt->format)
                          ? nir_type_int32
                          : nir_type_float32;
   const struct glsl_type *vec4 = type == nir_type_uint32  ? glsl_uvec4_type()
                                  : type == nir_type_int32 ? glsl_ivec4_type()
                                                           : glsl_vec4_type();
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "blend_rt%u_%s", k->index,
      util_format_short_name(rt->format));
   nir_variable *out =
      nir_variable_create(b.shader, nir_var_shader_out, vec4, "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_ssa_def *src =
      nir_load_input(&b, 4, 32, nir_imm_int(&b, 0), .dest_type = type,
                     .io_semantics = (nir_io_semantics){
                        .location = VARYING_SLOT_VAR0, .num_slots = 1 });
   /* The second colour of dual-source blending (dead unless a factor
    * reads it). */
   o.src1 = nir_load_input(
      &b, 4, 32, nir_imm_int(&b, 0), .base = 1, .dest_type = type,
      .io_semantics =
         (nir_io_semantics){ .location = VARYING_SLOT_VAR1, .num_slots = 1 });
   /* The blend unit's alpha_to_one does not reach the shader's input. */
   if (rt->alpha_to_one && type == nir_type_float32)
      src = nir_vector_insert_imm(&b, src, nir_imm_float(&b, 1.0f), 3);
   nir_store_var(&b, out, src, 0xf);
   nir_lower_blend(b.shader, &o);
   nir_shader_instructions_pass(
      b.shader, inline_constants,
      nir_metadata_block_index | nir_metadata_dominance, (void *)rt->constant);
   return b.shader;
}

static uint32_t
key_hash(const void *key)
{
   return _mesa_hash_data(key, sizeof(struct panfrost_blend_shader_key));
}

static bool
key_equal(const void *a, const void *b)
{
   return !memcmp(a, b, sizeof(struct panfrost_blend_shader_key));
}

/* Compiles and uploads the shader of k; NULL after a message. */
static struct blend_shader *
build(struct panfrost_context *ctx, const struct panfrost_blend_shader_key *k,
      char *err, size_t err_size)
{
   nir_shader *nir = panfrost_blend_shader_nir(k);
   if (!nir) {
      snprintf(err, err_size, "out of memory");
      return NULL;
   }
   const struct panfrost_arch *arch =
      panfrost_screen(ctx->base.screen)->arch;
   const struct pan_va_blend_options blend = {
      .rt = k->index,
      .conversion = k->conversion,
      .store = k->store,
      .colour_reg = k->colour_reg,
      .colour1_reg = k->colour1_reg,
      .coverage_reg = k->coverage_reg,
      .last = k->last,
      .nr_samples = k->nr_samples,
   };
   struct panfrost_binary bin;
   char cerr[256];
   struct blend_shader *s = NULL;
   if (!arch->compile_blend(nir, nir, &blend, &bin, cerr, sizeof(cerr))) {
      snprintf(err, err_size,
               "the blend shader (colour in r%u, coverage in r%u) did not "
               "compile: %s",
               k->colour_reg, k->coverage_reg, cerr);
      goto out;
   }
   struct panfrost_blend_shaders *all = ctx->blend_shaders;
   unsigned size_B = ALIGN_POT(bin.nr_words * 8, 128);
   if (size_B > ARENA_B) {
      snprintf(err, err_size, "the blend shader is too large");
      goto out;
   }
   if (!all->nr_arenas || all->used_B + size_B > ARENA_B) {
      struct pan_bo *bo =
         all->nr_arenas < ARRAY_SIZE(all->arenas)
            ? pan_bo_create(panfrost_device(ctx->base.screen), ARENA_B,
                            PAN_BO_EXECUTE, "Blend shaders")
            : NULL;
      if (!bo || !pan_bo_mmap(bo)) {
         pan_bo_unref(bo);
         snprintf(err, err_size, "out of GPU memory for blend shaders");
         goto out;
      }
      all->arenas[all->nr_arenas++] = bo;
      all->used_B = 0;
   }
   struct pan_bo *bo = all->arenas[all->nr_arenas - 1];
   memcpy((uint8_t *)pan_bo_mmap(bo) + all->used_B, bin.words,
          bin.nr_words * 8);
   s = rzalloc(all, struct blend_shader);
   s->key = *k;
   s->bo = bo;
   s->va = bo->gpu_va + all->used_B;
   all->used_B += size_B;
   _mesa_hash_table_insert(all->table, &s->key, s);
out:
   ralloc_free(nir);
   return s;
}

uint64_t
panfrost_blend_shader_get(struct panfrost_context *ctx,
                          const struct panfrost_blend_rt *b, unsigned index,
                          const struct panfrost_program *fs, char *err,
                          size_t err_size)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   void (*shader_io)(const struct panfrost_blend_rt *, unsigned, uint32_t *,
                     uint64_t *) = arch->draw  ? arch->draw->blend_shader_io
                                   : arch->jm ? arch->jm->blend_shader_io
                                              : NULL;
   struct panfrost_blend_shader_key k;

   if (!shader_io) {
      snprintf(err, err_size,
               "blend shaders are not implemented on this "
               "GPU yet");
      return 0;
   }
   if (index >= 8 || fs->blend_regs[index].colour == 0xff ||
       fs->blend_regs[index].coverage == 0xff) {
      snprintf(err, err_size,
               "the fragment shader has no BLEND of render "
               "target %u to call a blend shader from",
               index);
      return 0;
   }
   memset(&k, 0, sizeof(k));
   k.rt = *b;
   k.rt.shader = 0;
   k.rt.shader_return = 0;
   k.index = index;
   k.colour_reg = fs->blend_regs[index].colour;
   k.coverage_reg = fs->blend_regs[index].coverage;
   k.colour1_reg = fs->blend_regs[index].colour1;
   k.nr_samples = util_framebuffer_get_num_samples(&ctx->state.fb);
   k.last = true;
   for (unsigned rt = index + 1; rt < 8; ++rt)
      k.last &= fs->blend_regs[rt].colour == 0xff;
   shader_io(b, index, &k.conversion, &k.store);

   if (!ctx->blend_shaders) {
      ctx->blend_shaders = rzalloc(NULL, struct panfrost_blend_shaders);
      if (ctx->blend_shaders)
         ctx->blend_shaders->table =
            _mesa_hash_table_create(ctx->blend_shaders, key_hash, key_equal);
      if (!ctx->blend_shaders || !ctx->blend_shaders->table) {
         panfrost_blend_shaders_fini(ctx);
         snprintf(err, err_size, "out of memory");
         return 0;
      }
   }
   struct hash_entry *e =
      _mesa_hash_table_search(ctx->blend_shaders->table, &k);
   struct blend_shader *s = e ? e->data : build(ctx, &k, err, err_size);
   if (!s)
      return 0;
   uint64_t va = s->va;
   if ((va >> 32) != (fs->binary >> 32)) {
      snprintf(err, err_size,
               "the blend shader is not in the fragment "
               "shader's 4 GiB window");
      return 0;
   }
   if (!panfrost_batch_add_bo(ctx, s->bo, PAN_BO_ACCESS_READ)) {
      snprintf(err, err_size, "out of memory");
      return 0;
   }
   return va;
}

void
panfrost_blend_shaders_fini(struct panfrost_context *ctx)
{
   if (!ctx->blend_shaders)
      return;
   for (unsigned i = 0; i < ctx->blend_shaders->nr_arenas; ++i)
      pan_bo_unref(ctx->blend_shaders->arenas[i]);
   ralloc_free(ctx->blend_shaders);
   ctx->blend_shaders = NULL;
}
