/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"

#include "pan_arch.h"
#include "pan_batch.h"
#include "pan_blend.h"
#include "pan_context.h"
#include "pan_fb.h"
#include "pan_layer.h"
#include "pan_preload.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_texture.h"

/* Shaders are kept per set of targets and their kinds (float, signed,
 * unsigned), the depth one under its own key: a few per context.
 */
#define PRELOAD_SHADERS 8
#define PRELOAD_KEY_DEPTH (1u << 31)
#define PRELOAD_KEY_STENCIL (1u << 30)
#define PRELOAD_KEY_STENCIL_W (1u << 29) /* the byte is .w, else .x */
/* 4x targets: shaded once a sample, each fetching its own sample. */
#define PRELOAD_KEY_MS (1u << 28)

/* The largest frame shader array of any architecture (3 draws). */
#define FRAME_SHADERS_MAX_B 1024

struct panfrost_preload {
   struct {
      uint32_t key;
      struct panfrost_shader *fs;
   } shaders[PRELOAD_SHADERS];
   unsigned next; /* replaced when all are taken */
   /* The frame shader array of the pass being built, on the CPU. */
   uint64_t dcds_gpu;
   uint8_t *dcds_cpu;
};

static nir_alu_type
rt_type(enum pipe_format f)
{
   return util_format_is_pure_uint(f)   ? nir_type_uint32
          : util_format_is_pure_sint(f) ? nir_type_int32
                                        : nir_type_float32;
}

/* texelFetch(texture index, pixel, 0) as four words of type; with ms,
 * of a multisampled texture at gl_SampleID.
 */
static nir_ssa_def *
fetch_texel(nir_builder *b, unsigned index, nir_alu_type type, bool ms)
{
   nir_ssa_def *pos =
      nir_f2i32(b, nir_channels(b, nir_load_frag_coord(b), 0x3));
   nir_tex_instr *tex = nir_tex_instr_create(b->shader, 2);

   tex->op = ms ? nir_texop_txf_ms : nir_texop_txf;
   tex->sampler_dim = ms ? GLSL_SAMPLER_DIM_MS : GLSL_SAMPLER_DIM_2D;
   tex->dest_type = type;
   tex->texture_index = index;
   tex->sampler_index = 0;
   tex->coord_components = 2;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(pos);
   tex->src[1].src_type = ms ? nir_tex_src_ms_index : nir_tex_src_lod;
   tex->src[1].src =
      nir_src_for_ssa(ms ? nir_load_sample_id(b) : nir_imm_int(b, 0));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(b, &tex->instr);
   return &tex->dest.ssa;
}

static void
store_output(nir_builder *b, const struct glsl_type *t, unsigned location,
             unsigned driver_location, nir_ssa_def *v)
{
   nir_variable *out =
      nir_variable_create(b->shader, nir_var_shader_out, t, "preloaded");
   out->data.location = location;
   out->data.driver_location = driver_location;
   nir_store_var(b, out, v, nir_component_mask(v->num_components));
}

/* The driver interface pushes nothing a pre-frame draw would fill: only
 * constants (the multisampled fetches' masks), which v9 pushes.
 */
static bool
constant_pushes(const struct panfrost_program *p)
{
   for (unsigned i = 0; i < p->nr_push; ++i) {
      if (p->push[i].source != PAN_VA_PUSH_CONSTANT)
         return false;
   }
   return true;
}

/* Output i = texelFetch(texture i, pixel, 0) for each target of mask; for
 * PRELOAD_KEY_DEPTH, gl_FragDepth = texelFetch(texture 0, pixel, 0).x, and
 * for PRELOAD_KEY_STENCIL the stencil reference from the next texture.
 */
static struct panfrost_shader *
build_shader(struct panfrost_context *ctx, uint32_t key,
             const nir_alu_type types[PIPE_MAX_COLOR_BUFS])
{
   struct pipe_screen *screen = ctx->base.screen;
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_FRAGMENT);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT, opts, "preload");

   bool ms = key & PRELOAD_KEY_MS;
   if (key & (PRELOAD_KEY_DEPTH | PRELOAD_KEY_STENCIL)) {
      bool z = key & PRELOAD_KEY_DEPTH;
      if (z)
         store_output(
            &b, glsl_float_type(), FRAG_RESULT_DEPTH, 0,
            nir_channel(&b, fetch_texel(&b, 0, nir_type_float32, ms), 0));
      if (key & PRELOAD_KEY_STENCIL)
         store_output(&b, glsl_uint_type(), FRAG_RESULT_STENCIL, 0,
                      nir_channel(&b, fetch_texel(&b, z, nir_type_uint32, ms),
                                  key & PRELOAD_KEY_STENCIL_W ? 3 : 0));
   } else {
      u_foreach_bit (i, key & 0xff) {
         const struct glsl_type *t =
            types[i] == nir_type_float32  ? glsl_vec4_type()
            : types[i] == nir_type_uint32 ? glsl_uvec4_type()
                                          : glsl_ivec4_type();
         store_output(&b, t, FRAG_RESULT_DATA0 + i, i,
                      fetch_texel(&b, i, types[i], ms));
      }
   }

   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   struct panfrost_shader *fs = ctx->base.create_fs_state(&ctx->base, &cso);
   if (fs && (fs->error[0] || !constant_pushes(&fs->progs[0]))) {
      ctx->base.delete_fs_state(&ctx->base, fs);
      return NULL;
   }
   return fs;
}

static struct panfrost_shader *
get_shader(struct panfrost_context *ctx, uint32_t mask,
           const nir_alu_type types[PIPE_MAX_COLOR_BUFS])
{
   struct panfrost_preload *p = ctx->preload;
   uint32_t key = mask;

   u_foreach_bit (i, mask & 0xff) {
      key |= (types[i] == nir_type_uint32  ? 1u
              : types[i] == nir_type_int32 ? 2u
                                           : 0u)
             << (8 + 2 * i);
   }
   if (!p) {
      p = ctx->preload = CALLOC_STRUCT(panfrost_preload);
      if (!p)
         return NULL;
   }
   for (unsigned i = 0; i < PRELOAD_SHADERS; ++i) {
      if (p->shaders[i].fs && p->shaders[i].key == key)
         return p->shaders[i].fs;
   }
   struct panfrost_shader *fs = build_shader(ctx, key, types);
   if (!fs)
      return NULL;
   unsigned slot = p->next++ % PRELOAD_SHADERS;
   /* A pending batch holds its own reference to the binaries. */
   if (p->shaders[slot].fs)
      ctx->base.delete_fs_state(&ctx->base, p->shaders[slot].fs);
   p->shaders[slot].key = key;
   p->shaders[slot].fs = fs;
   return fs;
}

void
panfrost_preload_fini(struct panfrost_context *ctx)
{
   struct panfrost_preload *p = ctx->preload;

   if (!p)
      return;
   for (unsigned i = 0; i < PRELOAD_SHADERS; ++i) {
      if (p->shaders[i].fs)
         ctx->base.delete_fs_state(&ctx->base, p->shaders[i].fs);
   }
   FREE(p);
   ctx->preload = NULL;
}

/* The format a view of surface s reads its texels as: raw bytes (no sRGB
 * decoding on the way in nor encoding out), and depth planes whose bits a
 * colour format reads as the same value as the colour one (not every
 * architecture samples those depth formats).
 */
static enum pipe_format
view_format(const struct pipe_surface *s)
{
   switch (s->format) {
   case PIPE_FORMAT_Z16_UNORM:
      return PIPE_FORMAT_R16_UNORM;
   case PIPE_FORMAT_Z32_FLOAT:
   case PIPE_FORMAT_Z32_FLOAT_S8X24_UINT: /* its depth plane (split) */
      return PIPE_FORMAT_R32_FLOAT;
   default:
      return util_format_linear(s->format);
   }
}

/* Copies the texture descriptor of a view of the surface into cpu, the
 * view's planes staying referenced by the batch.
 */
static bool
surface_texture(struct panfrost_context *ctx, const struct pipe_surface *s,
                void *cpu)
{
   struct pipe_sampler_view templ = {
      .format = view_format(s),
      .target = PIPE_TEXTURE_2D,
      .swizzle_r = PIPE_SWIZZLE_X,
      .swizzle_g = PIPE_SWIZZLE_Y,
      .swizzle_b = PIPE_SWIZZLE_Z,
      .swizzle_a = PIPE_SWIZZLE_W,
      .u.tex = { .first_layer = panfrost_batch_surface_layer(ctx, s),
                 .last_layer = panfrost_batch_surface_layer(ctx, s),
                 .first_level = s->u.tex.level,
                 .last_level = s->u.tex.level },
   };
   struct pipe_sampler_view *v =
      ctx->base.create_sampler_view(&ctx->base, s->texture, &templ);
   if (!v)
      return false;
   struct panfrost_sampler_view *pv = panfrost_sampler_view(v);
   bool ok = pv->bo && panfrost_batch_add_bo(ctx, pv->bo, PAN_BO_ACCESS_READ);
   if (ok)
      memcpy(cpu, pv->desc, sizeof(pv->desc));
   pipe_sampler_view_reference(&v, NULL);
   return ok;
}

/* The texture views of the surfaces in mask (by index) and one nearest
 * sampler, for the pre-frame shader to fetch from.
 */
static bool
preload_tables(struct panfrost_context *ctx,
               struct pipe_surface *const *surfs, unsigned mask,
               struct pan_ptr *textures, struct pan_ptr *sampler)
{
   const struct panfrost_arch_texture *tx =
      panfrost_screen(ctx->base.screen)->arch->texture;
   struct pan_pool *pool = &ctx->batch.pool;
   unsigned n = util_last_bit(mask);

   *textures = pan_pool_alloc(pool, n * tx->texture_size_B, tx->align_B);
   *sampler = pan_pool_alloc(pool, tx->sampler_size_B, tx->align_B);
   if (!textures->cpu || !sampler->cpu)
      return false;
   memset(textures->cpu, 0, n * tx->texture_size_B);
   u_foreach_bit (i, mask) {
      if (!surface_texture(ctx, surfs[i],
                           (uint8_t *)textures->cpu + i * tx->texture_size_B))
         return false;
   }
   const struct pipe_sampler_state nearest = {
      .wrap_s = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_t = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_r = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
   };
   tx->emit_sampler(sampler->cpu, &nearest);
   return true;
}

/* Frame shader draw `which` (0 colour, 1 depth/stencil) of the pass's
 * array, allocated zeroed by the first preload; NULL when out of memory.
 */
static uint8_t *
frame_shader_slot(struct panfrost_context *ctx, struct pan_fb *fb,
                  unsigned size_B, unsigned align_B, unsigned which)
{
   struct panfrost_preload *p = ctx->preload;

   if (!fb->frame_shaders || fb->frame_shaders != p->dcds_gpu) {
      struct pan_ptr dcds = pan_pool_alloc(&ctx->batch.pool, size_B, align_B);
      if (!dcds.cpu)
         return NULL;
      memset(dcds.cpu, 0, size_B);
      p->dcds_gpu = fb->frame_shaders = dcds.gpu;
      p->dcds_cpu = dcds.cpu;
   }
   return p->dcds_cpu + which * (size_B / 3);
}

/* The emitters write a whole array (the other draws empty): emit into a
 * scratch one and keep draw 0 as draw `which`.
 */
static void
place_draw(uint8_t *slot, const uint8_t *scratch, unsigned size_B)
{
   memcpy(slot, scratch, size_B / 3);
}

/* Target i of the framebuffer as the colour pre-frame draw writes it:
 * whole when in mask, else not at all.
 */
static struct panfrost_blend_rt
loaded_rt(const struct pipe_framebuffer_state *key, unsigned mask, unsigned i)
{
   bool on = (mask >> i) & 1;
   return (struct panfrost_blend_rt){
      .enabled = on,
      .format =
         on ? util_format_linear(key->cbufs[i]->format) : PIPE_FORMAT_NONE,
      .colormask = PIPE_MASK_RGBA,
   };
}

/* v6/v7: the pre-frame draw is a draw section over the framebuffer whose
 * fragment renderer state (blend descriptors after it) runs fs; zs (the
 * depth/stencil draw) when it writes no colour.
 */
static bool
preload_jm(struct panfrost_context *ctx, unsigned mask,
           const struct panfrost_zs_state *zs, struct pan_fb *fb,
           struct panfrost_shader *fs, unsigned textures_n, uint64_t textures,
           uint64_t sampler)
{
   const struct panfrost_arch_jm *jm =
      panfrost_screen(ctx->base.screen)->arch->jm;
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   struct panfrost_jm_fragment f = {
      .binary = fs->progs[0].desc,
      .work_regs = fs->progs[0].work_regs,
      .textures = textures_n,
      .samplers = 1,
      .sample_mask = 0xffff,
      /* 4x targets: each sample loads its own (PRELOAD_KEY_MS). */
      .multisample = fb->nr_samples > 1,
      .per_sample = fb->nr_samples > 1,
      .rt_count = MAX2(key->nr_cbufs, 1),
      .kills = zs != NULL, /* ZS_EMIT: late kill */
   };
   uint8_t scratch[FRAME_SHADERS_MAX_B];

   /* Its push words would need state the draws' path does not hold. */
   if (fs->progs[0].nr_push || jm->frame_shaders_size_B > sizeof(scratch))
      return false;
   if (zs)
      f.zs = *zs;
   for (unsigned i = 0; i < f.rt_count; ++i)
      f.rts[i] = loaded_rt(key, mask, i);
   struct pan_ptr rsd = pan_pool_alloc(
      pool, jm->rsd_size_B + f.rt_count * jm->blend_size_B, jm->rsd_align_B);
   struct pan_ptr vp =
      pan_pool_alloc(pool, jm->viewport_size_B, jm->viewport_align_B);
   uint8_t *slot =
      frame_shader_slot(ctx, fb, jm->frame_shaders_size_B,
                        jm->frame_shaders_align_B, zs ? 1 : 0);
   struct pan_ptr pos = pan_pool_alloc(pool, 4 * 4 * sizeof(float), 64);
   uint64_t tls = panfrost_batch_local_storage(ctx, 0);
   if (!rsd.cpu || !vp.cpu || !slot || !pos.cpu || !tls ||
       !panfrost_batch_add_bo(ctx, fs->bo, PAN_BO_ACCESS_READ) ||
       jm->emit_fragment_rsd(rsd.cpu, &f))
      return false;
   const unsigned scissor[4] = { 0, 0, key->width - 1, key->height - 1 };
   jm->emit_viewport(vp.cpu, scissor, 0.0f, 1.0f);
   /* The frame's corners as a strip: x, y, depth 0, 1/w 1. */
   float *corner = pos.cpu;
   for (unsigned v = 0; v < 4; ++v) {
      corner[4 * v + 0] = (v & 1) ? key->width : 0.0f;
      corner[4 * v + 1] = (v & 2) ? key->height : 0.0f;
      corner[4 * v + 2] = 0.0f;
      corner[4 * v + 3] = 1.0f;
   }
   jm->emit_preload_draw(scratch, rsd.gpu, textures, sampler, vp.gpu,
                         pos.gpu, tls);
   place_draw(slot, scratch, jm->frame_shaders_size_B);
   return true;
}

/* v9: the pre-frame draw names fs with a resource table of its textures
 * and sampler, blend descriptors for the targets of mask (all written
 * whole, the others left alone) and the depth/stencil descriptor zs (the
 * tests off for the colour draw).
 */
static bool
preload_v9(struct panfrost_context *ctx, unsigned mask,
           const struct panfrost_zs_state *zs, struct pan_fb *fb,
           struct panfrost_shader *fs, unsigned textures_n, uint64_t textures,
           uint64_t sampler)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   unsigned nr_rts = zs ? 0 : MAX2(key->nr_cbufs, 1);
   uint8_t scratch[FRAME_SHADERS_MAX_B];

   if (d->frame_shaders_size_B > sizeof(scratch))
      return false;
   struct pan_ptr res = pan_pool_alloc(
      pool, PANFROST_TABLE_COUNT * d->resource_size_B, d->resource_align_B);
   struct pan_ptr blend = { 0 };
   if (nr_rts)
      blend = pan_pool_alloc(pool, nr_rts * d->blend_size_B, d->blend_align_B);
   struct pan_ptr zsd =
      pan_pool_alloc(pool, d->depth_stencil_size_B, d->depth_stencil_align_B);
   uint8_t *slot = frame_shader_slot(ctx, fb, d->frame_shaders_size_B,
                                     d->frame_shaders_align_B, zs ? 1 : 0);
   if (!res.cpu || (nr_rts && !blend.cpu) || !zsd.cpu || !slot ||
       !panfrost_batch_add_bo(ctx, fs->bo, PAN_BO_ACCESS_READ))
      return false;
   for (unsigned t = 0; t < PANFROST_TABLE_COUNT; ++t) {
      uint64_t addr = t == PANFROST_TABLE_TEXTURE   ? textures
                      : t == PANFROST_TABLE_SAMPLER ? sampler
                                                    : 0;
      unsigned count = t == PANFROST_TABLE_TEXTURE   ? textures_n
                       : t == PANFROST_TABLE_SAMPLER ? 1
                                                     : 0;
      d->emit_resource((uint8_t *)res.cpu + t * d->resource_size_B, addr,
                       count);
   }
   for (unsigned i = 0; i < nr_rts; ++i) {
      struct panfrost_blend_rt b = loaded_rt(key, mask, i);
      if (d->emit_blend((uint8_t *)blend.cpu + i * d->blend_size_B, i, &b))
         return false;
   }
   const struct panfrost_zs_state no_zs = {
      .face = { { .func = PIPE_FUNC_ALWAYS }, { .func = PIPE_FUNC_ALWAYS } },
   };
   d->emit_depth_stencil(zsd.cpu, zs ? zs : &no_zs);

   struct panfrost_shader_env env = {
      .shader = fs->progs[0].desc,
      .resources = res.gpu | PANFROST_TABLE_COUNT,
      .thread_storage =
         panfrost_batch_local_storage(ctx, fs->progs[0].tls_size),
   };
   if (!env.thread_storage)
      return false;
   /* The constants the compiler pushed (constant_pushes). */
   const struct panfrost_program *prog = &fs->progs[0];
   if (prog->nr_push) {
      env.fau_words = ALIGN_POT(prog->nr_push, 2);
      struct pan_ptr fau = pan_pool_alloc(pool, env.fau_words * 4, 8);
      if (!fau.cpu)
         return false;
      uint32_t *words = fau.cpu;
      words[env.fau_words - 1] = 0;
      for (unsigned i = 0; i < prog->nr_push; ++i)
         words[i] = prog->push[i].offset_B;
      env.fau = fau.gpu;
   }
   d->emit_preload_draw(scratch, &env, blend.gpu, nr_rts, zs ? 0 : mask,
                        zsd.gpu, fb->nr_samples > 1);
   place_draw(slot, scratch, d->frame_shaders_size_B);
   return true;
}

/* Builds pre-frame draw `which` of fb running the shader of key over
 * the surfaces of mask (textures by index).
 */
static bool
preload(struct panfrost_context *ctx, uint32_t key,
        const nir_alu_type types[PIPE_MAX_COLOR_BUFS],
        struct pipe_surface *const *surfs, unsigned mask,
        const struct panfrost_zs_state *zs, struct pan_fb *fb)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct panfrost_arch_draw *d = screen->arch->draw;

   /* Multisampled targets load shading once a sample. */
   if (!screen->arch->texture ||
       (!screen->arch->jm && (!d || !d->emit_preload_draw)))
      return false;
   if (fb->nr_samples > 1)
      key |= PRELOAD_KEY_MS;
   struct panfrost_shader *fs = get_shader(ctx, key, types);
   struct pan_ptr textures, sampler;
   if (!fs || !preload_tables(ctx, surfs, mask, &textures, &sampler))
      return false;
   unsigned n = util_last_bit(mask);
   return screen->arch->jm
             ? preload_jm(ctx, zs ? 0 : mask, zs, fb, fs, n, textures.gpu,
                          sampler.gpu)
             : preload_v9(ctx, zs ? 0 : mask, zs, fb, fs, n, textures.gpu,
                          sampler.gpu);
}

bool
panfrost_preload_color(struct panfrost_context *ctx, unsigned mask,
                       struct pan_fb *fb)
{
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   nir_alu_type types[PIPE_MAX_COLOR_BUFS] = { 0 };

   u_foreach_bit (i, mask)
      types[i] = rt_type(key->cbufs[i]->format);
   if (!preload(ctx, mask, types, key->cbufs, mask, NULL, fb))
      return false;
   fb->preload_color = true;
   return true;
}

bool
panfrost_preload_zs(struct panfrost_context *ctx, unsigned aspects,
                    struct pan_fb *fb)
{
   const nir_alu_type types[PIPE_MAX_COLOR_BUFS] = { 0 };
   struct pipe_surface *zsbuf = ctx->state.fb.zsbuf;
   struct panfrost_resource *rsc = panfrost_resource(zsbuf->texture);
   bool z = aspects & PIPE_CLEAR_DEPTH, s = aspects & PIPE_CLEAR_STENCIL;
   /* The stencil bytes read as an unsigned colour: the top byte of a
    * Z24S8 word, a byte of the S8 plane (split Z32F + S8) or surface.
    */
   struct pipe_surface stencil = *zsbuf;
   if (rsc->stencil)
      stencil.texture = &rsc->stencil->base;
   stencil.format = zsbuf->format == PIPE_FORMAT_Z24_UNORM_S8_UINT
                       ? PIPE_FORMAT_R8G8B8A8_UINT
                       : PIPE_FORMAT_R8_UINT;
   struct pipe_surface *srcs[2] = { z ? zsbuf : &stencil, &stencil };
   uint32_t key = (z ? PRELOAD_KEY_DEPTH : 0) | (s ? PRELOAD_KEY_STENCIL : 0) |
                  (s && zsbuf->format == PIPE_FORMAT_Z24_UNORM_S8_UINT
                      ? PRELOAD_KEY_STENCIL_W
                      : 0);
   /* Written as the shader says whatever was there, each aspect asked. */
   struct panfrost_zs_face replace = {
      .func = PIPE_FUNC_ALWAYS,
      .fail = PIPE_STENCIL_OP_REPLACE,
      .zfail = PIPE_STENCIL_OP_REPLACE,
      .zpass = PIPE_STENCIL_OP_REPLACE,
      .value_mask = 0xff,
      .write_mask = 0xff,
   };
   const struct panfrost_zs_state zs = {
      .depth = z,
      .depth_write = z,
      .depth_func = PIPE_FUNC_ALWAYS,
      .stencil = s,
      .face = { replace, replace },
      .shader_z = z,
      .shader_s = s,
   };

   if (!(z || s) ||
       !preload(ctx, key, types, srcs, z && s ? 0x3 : 0x1, &zs, fb))
      return false;
   fb->preload_zs = true;
   return true;
}
