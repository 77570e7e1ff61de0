/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drm-uapi/panfrost_drm.h"
#include "util/log.h"
#include "util/format/u_format.h"
#include "util/u_framebuffer.h"
#include "util/u_inlines.h"

#include "pan_arch.h"
#include "pan_batch.h"
#include "pan_context.h"
#include "pan_fb.h"
#include "pan_fence.h"
#include "pan_job.h"
#include "pan_layer.h"
#include "pan_preload.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_submit.h"

/* Descriptor memory per pass; a clear-only pass uses well under 1 KiB. */
#define PANFROST_BATCH_POOL_CHUNK_B (64 * 1024)

/* PAN_MESA_DEBUG=sync: how long to wait for a submit before calling the
 * GPU hung.
 */
#define PANFROST_SYNC_TIMEOUT_NS (10ll * 1000 * 1000 * 1000)

void
panfrost_batch_init(struct panfrost_context *ctx)
{
   struct panfrost_batch *b = &ctx->batch;

   memset(b, 0, sizeof(*b));
   pan_pool_init(&b->pool, panfrost_device(ctx->base.screen), 0,
                 PANFROST_BATCH_POOL_CHUNK_B, "Batch descriptors");
   util_dynarray_init(&b->compute_jobs, NULL);
   util_dynarray_init(&b->draw_jobs, NULL);
   util_dynarray_init(&b->bos, NULL);
}

/* Forgets the gathered work once it is submitted or dropped. */
static void
batch_reset(struct panfrost_batch *b)
{
   util_dynarray_foreach(&b->bos, struct panfrost_batch_bo, e)
      pan_bo_unref(e->bo);
   util_dynarray_clear(&b->bos);
   b->wls_bo = NULL;
   util_dynarray_clear(&b->compute_jobs);
   util_dynarray_clear(&b->draw_jobs);
   b->tiler = 0;
   b->clear = 0;
   b->draw_ssbos = false;
   memset(&b->draw_cache, 0, sizeof(b->draw_cache));
   pan_pool_finish(&b->pool);
}

void
panfrost_batch_fini(struct panfrost_context *ctx)
{
   batch_reset(&ctx->batch);
   util_dynarray_fini(&ctx->batch.bos);
   util_dynarray_fini(&ctx->batch.compute_jobs);
   util_dynarray_fini(&ctx->batch.draw_jobs);
}

bool
panfrost_batch_add_bo(struct panfrost_context *ctx, struct pan_bo *bo,
                      uint32_t access)
{
   struct panfrost_batch *b = &ctx->batch;

   util_dynarray_foreach(&b->bos, struct panfrost_batch_bo, e)
   {
      if (e->bo == bo) {
         e->access |= access;
         return true;
      }
   }
   struct panfrost_batch_bo *e =
      util_dynarray_grow(&b->bos, struct panfrost_batch_bo, 1);
   if (!e)
      return false;
   e->bo = pan_bo_ref(bo);
   e->access = access;
   return true;
}

unsigned
panfrost_batch_next_job_index(struct panfrost_context *ctx)
{
   return util_dynarray_num_elements(&ctx->batch.compute_jobs,
                                     struct panfrost_batch_job) +
          1;
}

/* Appends a job to one of the batch's chains, linking the previous one. */
static bool
append_job(struct panfrost_context *ctx, struct util_dynarray *chain,
           void *cpu, uint64_t gpu)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   unsigned n = util_dynarray_num_elements(chain, struct panfrost_batch_job);
   struct panfrost_batch_job *job =
      util_dynarray_grow(chain, struct panfrost_batch_job, 1);

   if (!job)
      return false;
   job->cpu = cpu;
   job->gpu = gpu;
   if (n) {
      struct panfrost_batch_job *prev =
         util_dynarray_element(chain, struct panfrost_batch_job, n - 1);
      arch->link_job(prev->cpu, gpu);
   }
   return true;
}

bool
panfrost_batch_add_compute_job(struct panfrost_context *ctx, void *cpu,
                               uint64_t gpu)
{
   return append_job(ctx, &ctx->batch.compute_jobs, cpu, gpu);
}

bool
panfrost_batch_add_draw_job(struct panfrost_context *ctx, void *cpu,
                            uint64_t gpu)
{
   return append_job(ctx, &ctx->batch.draw_jobs, cpu, gpu);
}

static uint64_t
local_storage(struct panfrost_context *ctx, unsigned tls_size,
              const struct panfrost_wls *wls)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct panfrost_arch *arch = screen->arch;
   struct pan_ptr desc = pan_pool_alloc(&ctx->batch.pool,
                                        arch->local_storage_size_B,
                                        arch->local_storage_align_B);
   if (!desc.cpu)
      return 0;
   if (!tls_size) {
      arch->emit_local_storage(desc.cpu, 0, 0, wls);
      return desc.gpu;
   }

   /* The hardware gives each thread 16 << shift bytes, threads of a core
    * thread_tls_alloc apart, cores by their id (ids may have gaps).
    */
   unsigned shift = util_logbase2_ceil(DIV_ROUND_UP(tls_size, 16));
   uint64_t size_B = (16ull << shift) *
                     util_next_power_of_two(screen->dev.thread_tls_alloc) *
                     screen->dev.core_id_range;
   struct pan_bo *bo = pan_bo_create(&screen->dev, size_B, PAN_BO_INVISIBLE,
                                     "Thread local storage");
   if (!bo)
      return 0;
   bool ok = panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ |
                                               PAN_BO_ACCESS_WRITE);
   arch->emit_local_storage(desc.cpu, bo->gpu_va, shift, wls);
   pan_bo_unref(bo); /* the batch keeps its own reference */
   return ok ? desc.gpu : 0;
}

uint64_t
panfrost_batch_local_storage(struct panfrost_context *ctx, unsigned tls_size)
{
   return local_storage(ctx, tls_size, NULL);
}

/*
 * Shared memory: the hardware gives each workgroup slot 2^n bytes (at
 * least 128) and addresses the slots by workgroup id, each dimension's
 * count rounded up to a power of two, on every core.  The batch keeps the
 * largest storage one of its dispatches needed and gives it to the next
 * ones, which run after it.
 */
uint64_t
panfrost_batch_compute_storage(struct panfrost_context *ctx,
                               unsigned tls_size, unsigned wls_B,
                               const uint32_t grid[3])
{
   struct panfrost_batch *b = &ctx->batch;
   struct pan_device *dev = &panfrost_screen(ctx->base.screen)->dev;

   if (!wls_B)
      return local_storage(ctx, tls_size, NULL);
   struct panfrost_wls wls = {
      .size_B = util_next_power_of_two(MAX2(wls_B, 128)),
      .instances = util_next_power_of_two(grid[0]) *
                   util_next_power_of_two(grid[1]) *
                   util_next_power_of_two(grid[2]),
   };
   uint64_t total_B =
      (uint64_t)wls.size_B * wls.instances * MAX2(dev->core_id_range, 1);
   if (total_B > PANFROST_MAX_WLS_TOTAL_B)
      return 0;
   if (!b->wls_bo || b->wls_bo->size_B < total_B) {
      struct pan_bo *bo = pan_bo_create(dev, total_B, PAN_BO_INVISIBLE,
                                        "Workgroup local storage");
      if (!bo)
         return 0;
      bool ok = panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ |
                                                  PAN_BO_ACCESS_WRITE);
      pan_bo_unref(bo); /* the batch keeps its own reference */
      if (!ok)
         return 0;
      b->wls_bo = bo;
   }
   wls.base = b->wls_bo->gpu_va;
   /* Offsets go into the low word of the address alone. */
   if ((wls.base & 4095) ||
       wls.base >> 32 != (wls.base + total_B - 1) >> 32)
      return 0;
   return local_storage(ctx, tls_size, &wls);
}

static void
record_clear(struct panfrost_batch *b, unsigned buffers,
             const union pipe_color_union *color, double depth,
             unsigned stencil)
{
   for (unsigned i = 0; i < PIPE_MAX_COLOR_BUFS; ++i) {
      if (buffers & (PIPE_CLEAR_COLOR0 << i))
         b->clear_color[i] = *color;
   }
   if (buffers & PIPE_CLEAR_DEPTH)
      b->clear_depth = (float)depth;
   if (buffers & PIPE_CLEAR_STENCIL)
      b->clear_stencil = (uint8_t)stencil;
   b->clear |= buffers;
}

void
panfrost_batch_clear(struct panfrost_context *ctx, unsigned buffers,
                     const union pipe_color_union *color, double depth,
                     unsigned stencil)
{
   /* A pass renders one layer: a layered framebuffer clears in a pass
    * per layer, the last one left pending.
    */
   unsigned layers = panfrost_fb_layers(&ctx->state.fb);

   for (unsigned l = 0; l < layers; ++l) {
      panfrost_batch_use_layer(ctx, l);
      record_clear(&ctx->batch, buffers, color, depth, stencil);
   }
}

static struct panfrost_resource *
surface_resource(const struct pipe_surface *surf)
{
   return surf ? panfrost_resource(surf->texture) : NULL;
}

static bool
bo_used(struct panfrost_context *ctx, const struct pan_bo *bo, uint32_t access)
{
   util_dynarray_foreach(&ctx->batch.bos, struct panfrost_batch_bo, e)
   {
      if (e->bo == bo && (e->access & access))
         return true;
   }
   return false;
}

static bool
compute_uses(struct panfrost_context *ctx, const struct pipe_resource *prsc,
             uint32_t access)
{
   return bo_used(ctx, panfrost_resource((struct pipe_resource *)prsc)->bo,
                  access);
}

bool
panfrost_batch_uses_bo(struct panfrost_context *ctx, const struct pan_bo *bo)
{
   return bo_used(ctx, bo, PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
}

bool
panfrost_batch_has_pass(struct panfrost_context *ctx)
{
   const struct panfrost_batch *b = &ctx->batch;

   return b->clear || b->tiler ||
          util_dynarray_num_elements(&b->draw_jobs, struct panfrost_batch_job);
}

void
panfrost_batch_framebuffer_changes(struct panfrost_context *ctx)
{
   if (panfrost_batch_has_pass(ctx))
      panfrost_batch_submit(ctx);
   else
      memset(&ctx->batch.draw_cache, 0, sizeof(ctx->batch.draw_cache));
}

bool
panfrost_batch_uses(struct panfrost_context *ctx,
                    const struct pipe_resource *prsc)
{
   return panfrost_batch_writes(ctx, prsc) ||
          compute_uses(ctx, prsc, PAN_BO_ACCESS_READ);
}

bool
panfrost_batch_writes(struct panfrost_context *ctx,
                      const struct pipe_resource *prsc)
{
   return compute_uses(ctx, prsc, PAN_BO_ACCESS_WRITE) ||
          panfrost_batch_renders(ctx, prsc);
}

bool
panfrost_batch_renders(struct panfrost_context *ctx,
                       const struct pipe_resource *prsc)
{
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   unsigned clear = ctx->batch.clear;

   /* Draws may write every attachment of the pass. */
   if (ctx->batch.tiler)
      clear |= PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL;

   for (unsigned i = 0; i < fb->nr_cbufs; ++i) {
      if ((clear & (PIPE_CLEAR_COLOR0 << i)) && fb->cbufs[i] &&
          fb->cbufs[i]->texture == prsc)
         return true;
   }
   if (!(clear & PIPE_CLEAR_DEPTHSTENCIL) || !fb->zsbuf)
      return false;
   /* A split depth/stencil resource and its S8 plane, which blits bind
    * and map on its own (pan_blit.c), are one attachment.
    */
   const struct panfrost_resource *z = panfrost_resource(fb->zsbuf->texture);
   const struct panfrost_resource *r =
      panfrost_resource((struct pipe_resource *)prsc);
   return fb->zsbuf->texture == prsc ||
          (z->stencil && &z->stencil->base == prsc) ||
          (r->stencil && &r->stencil->base == fb->zsbuf->texture);
}

/* The BOs of a submit, each once, with what the jobs do to them.  A
 * clear-only pass has a handful, a compute chain one per bound buffer and
 * shader; a fixed array means no allocation that could fail half-way.
 */
#define PANFROST_MAX_SUBMIT_BOS 256

struct batch_bos {
   struct pan_bo *bos[PANFROST_MAX_SUBMIT_BOS];
   uint32_t access[PANFROST_MAX_SUBMIT_BOS]; /* enum pan_bo_access */
   unsigned count;
   bool overflow;
};

bool
panfrost_batch_nearly_full(struct panfrost_context *ctx)
{
   struct panfrost_batch *b = &ctx->batch;
   unsigned n = util_dynarray_num_elements(&b->bos, struct panfrost_batch_bo) +
                pan_pool_bo_count(&b->pool);

   /* Room for one draw's buffers: vertex buffers, textures and uniform
    * buffers of its stages, targets, shaders.
    */
   return n + 128 > PANFROST_MAX_SUBMIT_BOS;
}

static void
add_bo(struct batch_bos *list, struct pan_bo *bo, uint32_t access)
{
   for (unsigned i = 0; i < list->count; ++i) {
      if (list->bos[i] == bo) {
         list->access[i] |= access;
         return;
      }
   }
   if (list->count == PANFROST_MAX_SUBMIT_BOS) {
      list->overflow = true;
      return;
   }
   list->bos[list->count] = bo;
   list->access[list->count++] = access;
}

static uint64_t
surface_address(const struct panfrost_context *ctx,
                const struct pipe_surface *surf)
{
   struct panfrost_resource *rsc = surface_resource(surf);
   struct pipe_box box = { .z = panfrost_batch_surface_layer(ctx, surf) };

   return rsc->bo->gpu_va +
          panfrost_resource_offset_B(rsc, surf->u.tex.level, &box);
}

/* Describes render target i; true when the pass must load its previous
 * contents (draws without a clear).
 */
static bool
describe_color(struct panfrost_context *ctx, struct pan_fb *fb,
               struct batch_bos *bos, unsigned i)
{
   const struct pipe_surface *surf = ctx->state.fb.cbufs[i];
   struct panfrost_batch *b = &ctx->batch;
   struct pan_fb_color *rt = &fb->rts[i];
   unsigned arch = panfrost_device(ctx->base.screen)->arch;

   if (!surf)
      return false;
   /* The format table decides; the emitter check only guards against the
    * two disagreeing (tests/fb proves they do not).
    */
   if (!pan_format_supports(arch, surf->format, PAN_USE_RENDER) ||
       !pan_rt_format_lookup(surf->format, &rt->format) ||
       !pan_fb_color_supported(arch, &rt->format)) {
      panfrost_warn_once(ctx, PANFROST_WARN_FORMAT,
                         "render target format %s not supported, clear "
                         "dropped",
                         util_format_short_name(surf->format));
      return false;
   }

   struct panfrost_resource *rsc = surface_resource(surf);
   const struct pan_image_level *l = &rsc->layout.levels[surf->u.tex.level];

   rt->enabled = true;
   rt->block = panfrost_resource_is_afbc(rsc)    ? PAN_FB_BLOCK_AFBC
               : panfrost_resource_is_tiled(rsc) ? PAN_FB_BLOCK_U_INTERLEAVED
                                                 : PAN_FB_BLOCK_LINEAR;
   rt->base = surface_address(ctx, surf);
   rt->row_stride_B = l->row_stride_B;
   rt->surface_stride_B = l->surface_stride_B;
   if (rt->block == PAN_FB_BLOCK_AFBC) {
      /* base is the surface's first header; its body follows the headers. */
      rt->afbc_body_offset_B = (uint32_t)l->afbc_header_size_B;
      rt->afbc_mode = panfrost_afbc_mode(rsc->base.format);
      rsc->afbc_written = true;
   }
   if (b->clear & (PIPE_CLEAR_COLOR0 << i)) {
      rt->clear = rt->write = true;
      pan_rt_pack_clear(surf->format, &rt->format, &b->clear_color[i],
                        rt->clear_words);
      add_bo(bos, rsc->bo, PAN_BO_ACCESS_WRITE);
   } else if (b->tiler) {
      /* The draws change part of it: the rest comes from memory. */
      rt->write = true;
      add_bo(bos, rsc->bo, PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
      return true;
   }
   return false;
}

/* Returns the aspects (PIPE_CLEAR_DEPTH, _STENCIL) the pass must load
 * from memory: those its draws may use but it does not clear.
 */
static unsigned
describe_zs(struct panfrost_context *ctx, struct pan_fb *fb,
            struct batch_bos *bos)
{
   const struct pipe_surface *surf = ctx->state.fb.zsbuf;
   struct panfrost_batch *b = &ctx->batch;
   unsigned clear = b->clear & PIPE_CLEAR_DEPTHSTENCIL;
   unsigned arch = panfrost_device(ctx->base.screen)->arch;
   unsigned load = 0;

   /* Draws may test and write depth: the buffer is part of the pass. */
   if (b->tiler) {
      load = PIPE_CLEAR_DEPTHSTENCIL & ~clear;
      clear = PIPE_CLEAR_DEPTHSTENCIL;
   }
   if (!surf || !clear)
      return 0;

   struct panfrost_resource *rsc = surface_resource(surf);
   const struct pan_format_info *f = pan_format_info(surf->format);
   /* A split depth/stencil resource is two attachments. */
   enum pan_zs_layout layout = rsc->stencil ? PAN_ZS_D32F_S8 : f->zs;
   if (!(rsc->stencil ||
         pan_format_supports(arch, surf->format, PAN_USE_DEPTH)) ||
       !pan_fb_zs_supported(arch, layout)) {
      panfrost_warn_once(ctx, PANFROST_WARN_FORMAT,
                         "depth/stencil format %s not supported, clear "
                         "dropped",
                         util_format_short_name(surf->format));
      return 0;
   }

   /* The whole ZS buffer is written back: the aspect a clear of the other
    * leaves must be loaded.
    */
   bool depth = pan_zs_layout_has_depth(layout);
   bool stencil = pan_zs_layout_has_stencil(layout);
   if (depth && stencil)
      load |= PIPE_CLEAR_DEPTHSTENCIL & ~clear;
   load &= (depth ? PIPE_CLEAR_DEPTH : 0) | (stencil ? PIPE_CLEAR_STENCIL : 0);

   const struct pan_image_level *l = &rsc->layout.levels[surf->u.tex.level];

   fb->zs.format = layout;
   /* A split stencil plane shares the depth plane's layout. */
   fb->zs.block = panfrost_resource_is_afbc(rsc)    ? PAN_FB_BLOCK_AFBC
                  : panfrost_resource_is_tiled(rsc) ? PAN_FB_BLOCK_U_INTERLEAVED
                                                    : PAN_FB_BLOCK_LINEAR;
   fb->zs.base = surface_address(ctx, surf);
   fb->zs.row_stride_B = l->row_stride_B;
   fb->zs.surface_stride_B = l->surface_stride_B;
   if (fb->zs.block == PAN_FB_BLOCK_AFBC) {
      /* base is the surface's first header; its body follows them. */
      fb->zs.afbc_body_offset_B = (uint32_t)l->afbc_header_size_B;
      rsc->afbc_written = true;
   }
   fb->zs.write_z = depth;
   fb->zs.write_s = stencil;
   fb->zs.z_clear = b->clear_depth;
   fb->zs.s_clear = b->clear_stencil;
   add_bo(bos, rsc->bo, PAN_BO_ACCESS_WRITE);
   if (rsc->stencil) {
      struct panfrost_resource *s = rsc->stencil;
      const struct pan_image_level *sl = &s->layout.levels[surf->u.tex.level];
      struct pipe_box box = { .z = panfrost_batch_surface_layer(ctx, surf) };

      fb->zs.s_base = s->bo->gpu_va +
                      panfrost_resource_offset_B(s, surf->u.tex.level, &box);
      fb->zs.s_row_stride_B = sl->row_stride_B;
      fb->zs.s_surface_stride_B = sl->surface_stride_B;
      add_bo(bos, s->bo, PAN_BO_ACCESS_WRITE);
   }
   if (load)
      add_bo(bos, rsc->bo, PAN_BO_ACCESS_READ);
   return load;
}

/* Builds the chain of the pending pass; returns the first job's address,
 * 0 when there is nothing to submit or memory ran out.
 */
static uint64_t
build_chain(struct panfrost_context *ctx, struct batch_bos *bos,
            uint8_t **job_cpu)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct pipe_framebuffer_state *key = &ctx->state.fb;
   struct pan_pool *pool = &ctx->batch.pool;
   unsigned arch = screen->dev.arch;
   struct pan_fb fb = {
      .width_px = key->width,
      .height_px = key->height,
      .rt_count = MAX2(key->nr_cbufs, 1),
      .tile_budget_B = screen->dev.optimal_tib_size_B,
      .no_hierarchical_tiling = pan_model_has_quirk(
         screen->dev.model, PAN_QUIRK_NO_HIERARCHICAL_TILING),
      .tiler = ctx->batch.tiler,
      .nr_samples = util_framebuffer_get_num_samples(key),
   };

   if (!key->width || !key->height)
      return 0;
   unsigned preload = 0;
   for (unsigned i = 0; i < key->nr_cbufs; ++i)
      preload |= describe_color(ctx, &fb, bos, i) << i;
   unsigned zs_load = describe_zs(ctx, &fb, bos);
   /* Without a preload the tile buffer starts undefined: what the pass
    * did not draw or clear would be lost.
    */
   if (preload && !panfrost_preload_color(ctx, preload, &fb))
      panfrost_warn_once(ctx, PANFROST_WARN_PRELOAD,
                         "draws without a clear of the pass: the previous "
                         "colour contents could not be preloaded");
   if (zs_load && !panfrost_preload_zs(ctx, zs_load, &fb))
      panfrost_warn_once(ctx, PANFROST_WARN_PRELOAD,
                         "draws without a depth/stencil clear of the pass: "
                         "its previous contents could not be preloaded");
   /* A pass without attachments still runs its draws' fragment shaders
    * (side effects, occlusion counts).
    */
   if (!bos->count && !ctx->batch.tiler)
      return 0;
   /* The fragment job runs the draws' fragment shaders, which read what
    * the draws bound, and reads the polygon lists the tiler wrote to the
    * heap: all of that must stay alive and synchronised until it is done.
    */
   if (ctx->batch.tiler) {
      util_dynarray_foreach(&ctx->batch.bos, struct panfrost_batch_bo, e)
         add_bo(bos, e->bo, e->access);
   }

   if (arch >= 6) {
      fb.sample_positions = screen->sample_positions->gpu_va;
      add_bo(bos, screen->sample_positions, PAN_BO_ACCESS_READ);
   } else {
      struct pan_ptr list =
         pan_pool_alloc(pool, PAN_FB_EMPTY_POLYGON_LIST_B, 64);
      if (!list.cpu)
         goto oom;
      pan_fb_init_empty_polygon_list(&fb, list.cpu);
      fb.polygon_list = list.gpu;
   }

   struct pan_ptr fbd =
      pan_pool_alloc(pool, pan_fb_size_B(arch, &fb), PAN_FB_ALIGN_B);
   struct pan_ptr job =
      pan_pool_alloc(pool, pan_fragment_job_size_B(arch), PAN_JOB_ALIGN_B);
   if (!fbd.cpu || !job.cpu)
      goto oom;

   uint64_t fbd_ptr = pan_fb_emit(arch, &fb, fbd.cpu, fbd.gpu);
   pan_fb_emit_fragment_job(arch, &fb, fbd_ptr, job.cpu);
   *job_cpu = job.cpu;

   for (unsigned i = 0; i < pan_pool_bo_count(pool); ++i)
      add_bo(bos, pan_pool_bos(pool)[i],
             PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
   if (bos->overflow) {
      mesa_loge("panfrost: a pass uses more than %u buffers, dropped",
                PANFROST_MAX_SUBMIT_BOS);
      return 0;
   }
   return job.gpu;

oom:
   mesa_loge("panfrost: out of GPU memory for a pass, dropped");
   return 0;
}

/* PAN_MESA_DEBUG=sync: wait and report what the GPU wrote in the job
 * headers (DONE, or NOT_STARTED when nothing executed the job, as on the
 * noop drm-shim, are fine).
 */
static void
sync_and_check(struct panfrost_context *ctx, uint32_t syncobj,
               void *const *jobs, unsigned job_count, const char *what)
{
   struct pan_device *dev = panfrost_device(ctx->base.screen);
   int ret = pan_syncobj_wait(dev, &syncobj, 1, PANFROST_SYNC_TIMEOUT_NS);

   if (ret == -ETIMEDOUT) {
      mesa_loge("panfrost: submit did not complete within %lld s",
                (long long)(PANFROST_SYNC_TIMEOUT_NS / 1000000000));
      return;
   }
   if (ret) {
      mesa_loge("panfrost: waiting for a submit failed: %s", strerror(-ret));
      return;
   }
   for (unsigned i = 0; i < job_count; ++i) {
      struct pan_job_status st;

      if (!pan_job_read_status(dev->arch, jobs[i], &st) ||
          !pan_job_status_failed(st.exception_status))
         continue;

      const char *name = pan_job_exception_name(st.exception_status);
      mesa_loge("panfrost: %s job %u faulted: %s (status 0x%x, address "
                "0x%llx)",
                what, i + 1, name ? name : "unknown exception",
                st.exception_status, (unsigned long long)st.fault_va);
      return;
   }
}

/* Submits one chain after everything this context submitted before, and
 * makes its syncobj the context's last fence.
 */
static bool
submit_chain(struct panfrost_context *ctx, uint64_t jc,
             const struct batch_bos *bos, uint32_t requirements,
             void *const *jobs, unsigned job_count, const char *what)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   struct pan_device *dev = &screen->dev;
   uint32_t syncobj = 0;
   int ret = pan_syncobj_create(dev, false, &syncobj);

   if (ret) {
      mesa_loge("panfrost: cannot create a syncobj, %s dropped: %s", what,
                strerror(-ret));
      return false;
   }

   /* Compute and fragment jobs run on different slots: waiting for the
    * previous submit keeps the order the API gave them in.
    */
   uint32_t prev = ctx->last_fence ? ctx->last_fence->syncobj : 0;
   struct pan_submit submit = {
      .jc_gpu_va = jc,
      .bos = bos->bos,
      .bo_count = bos->count,
      .requirements = requirements,
      .in_syncs = prev ? &prev : NULL,
      .in_sync_count = prev ? 1 : 0,
      .out_sync = syncobj,
   };
   ret = pan_submit_jc(dev, &submit);
   if (ret) {
      mesa_loge("panfrost: job submission failed: %s", strerror(-ret));
      pan_syncobj_destroy(dev, syncobj);
      return false;
   }
   for (unsigned i = 0; i < bos->count; ++i)
      pan_bo_mark_gpu_access(bos->bos[i], bos->access[i]);

   if (screen->debug & PANFROST_DBG_SYNC)
      sync_and_check(ctx, syncobj, jobs, job_count, what);

   struct pipe_fence_handle *f = panfrost_fence_create(&screen->base, syncobj);
   screen->base.fence_reference(&screen->base, &ctx->last_fence, NULL);
   ctx->last_fence = f;
   return true;
}

/* Submits one chain of the batch (compute or IDVS jobs) with every BO the
 * batch uses.
 */
static bool
submit_jobs(struct panfrost_context *ctx, struct util_dynarray *chain,
            const char *what)
{
   struct panfrost_batch *b = &ctx->batch;
   unsigned count =
      util_dynarray_num_elements(chain, struct panfrost_batch_job);
   struct batch_bos bos = { .count = 0 };
   void **jobs = malloc(count * sizeof(*jobs));

   if (!jobs) {
      mesa_loge("panfrost: out of memory, %s jobs dropped", what);
      return false;
   }
   for (unsigned i = 0; i < count; ++i)
      jobs[i] =
         util_dynarray_element(chain, struct panfrost_batch_job, i)->cpu;

   util_dynarray_foreach(&b->bos, struct panfrost_batch_bo, e)
      add_bo(&bos, e->bo, e->access);
   for (unsigned i = 0; i < pan_pool_bo_count(&b->pool); ++i)
      add_bo(&bos, pan_pool_bos(&b->pool)[i],
             PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);

   bool ok = false;
   if (bos.overflow) {
      mesa_loge("panfrost: %s jobs use more than %u buffers, dropped", what,
                PANFROST_MAX_SUBMIT_BOS);
   } else {
      uint64_t jc =
         util_dynarray_element(chain, struct panfrost_batch_job, 0)->gpu;
      ok = submit_chain(ctx, jc, &bos, 0, jobs, count, what);
   }
   free(jobs);
   return ok;
}

static bool
submit_pass(struct panfrost_context *ctx)
{
   struct batch_bos bos = { .count = 0 };
   uint8_t *job_cpu = NULL;
   uint64_t jc = build_chain(ctx, &bos, &job_cpu);

   if (!jc)
      return true;
   void *jobs[] = { job_cpu };
   return submit_chain(ctx, jc, &bos, PANFROST_JD_REQ_FS, jobs, 1, "fragment");
}

bool
panfrost_batch_submit(struct panfrost_context *ctx)
{
   struct panfrost_batch *b = &ctx->batch;
   bool ok = true;

   if (util_dynarray_num_elements(&b->compute_jobs,
                                  struct panfrost_batch_job) ||
       panfrost_batch_has_pass(ctx))
      b->submits++;
   if (util_dynarray_num_elements(&b->compute_jobs, struct panfrost_batch_job))
      ok = submit_jobs(ctx, &b->compute_jobs, "compute");
   /* The vertex and tiler work of the pass, then its fragment job, which
    * waits for it (each submit waits for the previous one).
    */
   if (util_dynarray_num_elements(&b->draw_jobs, struct panfrost_batch_job))
      ok = submit_jobs(ctx, &b->draw_jobs, "vertex") && ok;
   if (b->clear || b->tiler)
      ok = submit_pass(ctx) && ok;

   batch_reset(b);
   return ok;
}
