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
#include "pan_preload.h"
#include "pan_screen.h"
#include "pan_texture.h"

/* Shaders are kept per set of targets and their kinds (float, signed,
 * unsigned): a few per context.
 */
#define PRELOAD_SHADERS 8

struct panfrost_preload {
   struct {
      uint32_t key;
      struct panfrost_shader *fs;
   } shaders[PRELOAD_SHADERS];
   unsigned next; /* replaced when all are taken */
};

static nir_alu_type
rt_type(enum pipe_format f)
{
   return util_format_is_pure_uint(f)   ? nir_type_uint32
          : util_format_is_pure_sint(f) ? nir_type_int32
                                        : nir_type_float32;
}

/* Output i = texelFetch(texture i, pixel, 0) for each target of mask. */
static struct panfrost_shader *
build_shader(struct panfrost_context *ctx, unsigned mask,
             const nir_alu_type types[PIPE_MAX_COLOR_BUFS])
{
   struct pipe_screen *screen = ctx->base.screen;
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_FRAGMENT);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT, opts, "preload");
   nir_ssa_def *pos =
      nir_f2i32(&b, nir_channels(&b, nir_load_frag_coord(&b), 0x3));

   u_foreach_bit (i, mask) {
      nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
      tex->op = nir_texop_txf;
      tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
      tex->dest_type = types[i];
      tex->texture_index = i;
      tex->sampler_index = 0;
      tex->coord_components = 2;
      tex->src[0].src_type = nir_tex_src_coord;
      tex->src[0].src = nir_src_for_ssa(pos);
      tex->src[1].src_type = nir_tex_src_lod;
      tex->src[1].src = nir_src_for_ssa(nir_imm_int(&b, 0));
      nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
      nir_builder_instr_insert(&b, &tex->instr);

      const struct glsl_type *t =
         types[i] == nir_type_float32  ? glsl_vec4_type()
         : types[i] == nir_type_uint32 ? glsl_uvec4_type()
                                       : glsl_ivec4_type();
      nir_variable *out =
         nir_variable_create(b.shader, nir_var_shader_out, t, "colour");
      out->data.location = FRAG_RESULT_DATA0 + i;
      out->data.driver_location = i;
      nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   }

   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   struct panfrost_shader *fs = ctx->base.create_fs_state(&ctx->base, &cso);
   /* The driver interface pushes nothing a pre-frame draw would fill. */
   if (fs && (fs->error[0] || fs->progs[0].nr_push)) {
      ctx->base.delete_fs_state(&ctx->base, fs);
      return NULL;
   }
   return fs;
}

static struct panfrost_shader *
get_shader(struct panfrost_context *ctx, unsigned mask,
           const nir_alu_type types[PIPE_MAX_COLOR_BUFS])
{
   struct panfrost_preload *p = ctx->preload;
   uint32_t key = mask;

   u_foreach_bit (i, mask) {
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
   struct panfrost_shader *fs = build_shader(ctx, mask, types);
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

/* Copies the texture descriptor of a view of the surface into cpu, the
 * view's planes staying referenced by the batch.
 */
static bool
surface_texture(struct panfrost_context *ctx, const struct pipe_surface *s,
                void *cpu)
{
   struct pipe_sampler_view templ = {
      /* Raw bytes: no sRGB decoding on the way in nor encoding out. */
      .format = util_format_linear(s->format),
      .target = PIPE_TEXTURE_2D,
      .swizzle_r = PIPE_SWIZZLE_X,
      .swizzle_g = PIPE_SWIZZLE_Y,
      .swizzle_b = PIPE_SWIZZLE_Z,
      .swizzle_a = PIPE_SWIZZLE_W,
      .u.tex = { .first_layer = s->u.tex.first_layer,
                 .last_layer = s->u.tex.first_layer,
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

/* The texture views of the targets in mask (by target index) and one
 * nearest sampler, for the pre-frame shader to fetch from.
 */
static bool
preload_tables(struct panfrost_context *ctx, unsigned mask,
               struct pan_ptr *textures, struct pan_ptr *sampler)
{
   const struct panfrost_arch_texture *tx =
      panfrost_screen(ctx->base.screen)->arch->texture;
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   unsigned n = util_last_bit(mask);

   *textures = pan_pool_alloc(pool, n * tx->texture_size_B, tx->align_B);
   *sampler = pan_pool_alloc(pool, tx->sampler_size_B, tx->align_B);
   if (!textures->cpu || !sampler->cpu)
      return false;
   memset(textures->cpu, 0, n * tx->texture_size_B);
   u_foreach_bit (i, mask) {
      if (!surface_texture(ctx, key->cbufs[i],
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

/* v6/v7: the pre-frame draw is a draw section over the framebuffer whose
 * fragment renderer state (blend descriptors after it) runs fs.
 */
static bool
preload_jm(struct panfrost_context *ctx, unsigned mask, struct pan_fb *fb,
           struct panfrost_shader *fs, uint64_t textures, uint64_t sampler)
{
   const struct panfrost_arch_jm *jm =
      panfrost_screen(ctx->base.screen)->arch->jm;
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   struct panfrost_jm_fragment f = {
      .binary = fs->progs[0].desc,
      .textures = util_last_bit(mask),
      .samplers = 1,
      .rt_count = MAX2(key->nr_cbufs, 1),
   };

   /* Its push words would need state the draws' path does not hold. */
   if (fs->progs[0].nr_push)
      return false;
   for (unsigned i = 0; i < f.rt_count; ++i) {
      bool on = (mask >> i) & 1;
      f.rts[i] = (struct panfrost_blend_rt){
         .enabled = on,
         .format =
            on ? util_format_linear(key->cbufs[i]->format) : PIPE_FORMAT_NONE,
         .colormask = PIPE_MASK_RGBA,
      };
   }
   struct pan_ptr rsd = pan_pool_alloc(
      pool, jm->rsd_size_B + f.rt_count * jm->blend_size_B, jm->rsd_align_B);
   struct pan_ptr vp =
      pan_pool_alloc(pool, jm->viewport_size_B, jm->viewport_align_B);
   struct pan_ptr dcds =
      pan_pool_alloc(pool, jm->frame_shaders_size_B, jm->frame_shaders_align_B);
   struct pan_ptr pos = pan_pool_alloc(pool, 4 * 4 * sizeof(float), 64);
   uint64_t tls = panfrost_batch_local_storage(ctx, 0);
   if (!rsd.cpu || !vp.cpu || !dcds.cpu || !pos.cpu || !tls ||
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
   jm->emit_preload_draw(dcds.cpu, rsd.gpu, textures, sampler, vp.gpu, pos.gpu,
                         tls);
   fb->frame_shaders = dcds.gpu;
   fb->preload_color = true;
   return true;
}

bool
panfrost_preload_color(struct panfrost_context *ctx, unsigned mask,
                       struct pan_fb *fb)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct panfrost_arch_draw *d = screen->arch->draw;
   const struct panfrost_arch_texture *tx = screen->arch->texture;
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   nir_alu_type types[PIPE_MAX_COLOR_BUFS] = { 0 };

   if (!tx || (!screen->arch->jm && (!d || !d->emit_preload_draw)))
      return false;
   u_foreach_bit (i, mask)
      types[i] = rt_type(key->cbufs[i]->format);
   struct panfrost_shader *fs = get_shader(ctx, mask, types);
   if (!fs)
      return false;

   unsigned n = util_last_bit(mask);
   unsigned nr_rts = MAX2(key->nr_cbufs, 1);
   struct pan_ptr textures, sampler;
   if (!preload_tables(ctx, mask, &textures, &sampler))
      return false;
   if (screen->arch->jm)
      return preload_jm(ctx, mask, fb, fs, textures.gpu, sampler.gpu);
   struct pan_ptr res = pan_pool_alloc(
      pool, PANFROST_TABLE_COUNT * d->resource_size_B, d->resource_align_B);
   struct pan_ptr blend =
      pan_pool_alloc(pool, nr_rts * d->blend_size_B, d->blend_align_B);
   struct pan_ptr zs =
      pan_pool_alloc(pool, d->depth_stencil_size_B, d->depth_stencil_align_B);
   struct pan_ptr dcds =
      pan_pool_alloc(pool, d->frame_shaders_size_B, d->frame_shaders_align_B);
   if (!res.cpu || !blend.cpu || !zs.cpu || !dcds.cpu ||
       !panfrost_batch_add_bo(ctx, fs->bo, PAN_BO_ACCESS_READ))
      return false;
   for (unsigned t = 0; t < PANFROST_TABLE_COUNT; ++t) {
      uint64_t addr = t == PANFROST_TABLE_TEXTURE   ? textures.gpu
                      : t == PANFROST_TABLE_SAMPLER ? sampler.gpu
                                                    : 0;
      unsigned count = t == PANFROST_TABLE_TEXTURE   ? n
                       : t == PANFROST_TABLE_SAMPLER ? 1
                                                     : 0;
      d->emit_resource((uint8_t *)res.cpu + t * d->resource_size_B, addr,
                       count);
   }

   /* Each loaded target written whole, the others left alone. */
   for (unsigned i = 0; i < nr_rts; ++i) {
      struct panfrost_blend_rt b = {
         .enabled = (mask >> i) & 1,
         .format = (mask >> i) & 1 ? util_format_linear(key->cbufs[i]->format)
                                   : PIPE_FORMAT_NONE,
         .colormask = PIPE_MASK_RGBA,
      };
      if (d->emit_blend((uint8_t *)blend.cpu + i * d->blend_size_B, i, &b))
         return false;
   }
   const struct panfrost_zs_state no_zs = {
      .face = { { .func = PIPE_FUNC_ALWAYS }, { .func = PIPE_FUNC_ALWAYS } },
   };
   d->emit_depth_stencil(zs.cpu, &no_zs);

   struct panfrost_shader_env env = {
      .shader = fs->progs[0].desc,
      .resources = res.gpu | PANFROST_TABLE_COUNT,
      .thread_storage =
         panfrost_batch_local_storage(ctx, fs->progs[0].tls_size),
   };
   if (!env.thread_storage)
      return false;
   d->emit_preload_draw(dcds.cpu, &env, blend.gpu, nr_rts, mask, zs.gpu);
   fb->frame_shaders = dcds.gpu;
   fb->preload_color = true;
   return true;
}
