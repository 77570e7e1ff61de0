/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Compute shaders and dispatches.  A state object is compiled once, at
 * creation, with the architecture's compiler (Valhall or Bifrost, through
 * screen->arch->compile); a dispatch fills the shader's push
 * words (buffer addresses and launch values, pan_nir_lower_compute.c) and
 * appends one compute job to the batch.  Shaders the compiler refuses
 * still give a state object: its dispatches are dropped with the
 * compiler's message.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "nir/tgsi_to_nir.h"
#include "util/log.h"
#include "util/ralloc.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"

#include "pan_arch.h"
#include "pan_bo.h"
#include "pan_compile.h"
#include "pan_compute.h"
#include "pan_context.h"
#include "pan_draw_jm.h"
#include "pan_image.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_shader_cache.h"
#include "pan_ssbo.h"
#include "pan_texture.h"

/* Compiles nir (which it frees) into so, or sets so->error. */
static void
compile_compute(struct panfrost_context *ctx,
                struct panfrost_compute_shader *so, nir_shader *nir)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct panfrost_arch *arch = screen->arch;
   struct panfrost_binary bin;
   char err[sizeof(so->error)] = "";

   if (!arch) {
      snprintf(so->error, sizeof(so->error),
               "compute shaders are not supported on v%u yet",
               screen->dev.arch);
      goto out;
   }
   /* Shared variables laid out first: dispatches need their size, and a
    * cached binary skips the compiler, which would do it otherwise.
    */
   pan_nir_lower_shared(nir);
   so->wls_B = MAX2(so->wls_B, nir->info.shared_size);
   if (so->wls_B > PANFROST_MAX_SHARED_B) {
      snprintf(so->error, sizeof(so->error),
               "%u bytes of shared memory, more than %u", so->wls_B,
               PANFROST_MAX_SHARED_B);
      goto out;
   }
   so->nr_images = panfrost_nir_image_count(nir);
   if (so->nr_images)
      panfrost_nir_lower_image_bounds(nir);
   so->uses_textures = BITSET_COUNT(nir->info.textures_used) != 0;
   if (!panfrost_nir_lower_compute(nir, &so->push, err, sizeof(err)) ||
       !panfrost_compile_cached(screen, nir, nir, PAN_VA_VARIANT_DEFAULT, &bin,
                                err, sizeof(err))) {
      snprintf(so->error, sizeof(so->error), "%s", err);
      goto out;
   }
   util_debug_message(&ctx->debug, SHADER_INFO, "%s", bin.shaderdb);

   unsigned code_B = ALIGN_POT(bin.nr_words * 8, arch->shader_desc_align_B);
   so->bo = pan_bo_create(&screen->dev, code_B + arch->shader_desc_size_B,
                          PAN_BO_EXECUTE, "Compute shader");
   uint8_t *cpu = so->bo ? pan_bo_mmap(so->bo) : NULL;
   if (!cpu) {
      snprintf(so->error, sizeof(so->error),
               "out of GPU memory for a shader binary");
      goto out;
   }
   memcpy(cpu, bin.words, bin.nr_words * 8);
   arch->emit_compute_shader(cpu + code_B, so->bo->gpu_va, bin.work_regs,
                             ALIGN_POT(so->push.nr_words, 2), 0, 0);
   so->shader_desc = so->bo->gpu_va + code_B;
   so->work_regs = bin.work_regs;
   so->tls_size = bin.tls_size;

out:
   ralloc_free(nir);
}

static void *
panfrost_create_compute_state(struct pipe_context *pctx,
                              const struct pipe_compute_state *cso)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_compute_shader *so = CALLOC_STRUCT(panfrost_compute_shader);

   if (!so)
      return NULL;
   so->tex_stage = PIPE_SHADER_COMPUTE;
   so->mem_stage = PIPE_SHADER_COMPUTE;

   nir_shader *nir = cso->ir_type == PIPE_SHADER_IR_NIR
                        ? (nir_shader *)cso->prog /* ownership moves to us */
                        : tgsi_to_nir(cso->prog, pctx->screen, false);
   so->input_B = cso->req_input_mem;
   so->wls_B = cso->req_local_mem;
   compile_compute(ctx, so, nir);

   if (so->error[0]) {
      mesa_loge("panfrost: compute shader refused: %s", so->error);
      util_debug_message(&ctx->debug, SHADER_INFO,
                         "panfrost: compute shader refused: %s", so->error);
   }
   return so;
}

static void
panfrost_bind_compute_state(struct pipe_context *pctx, void *cso)
{
   panfrost_context(pctx)->compute.shader = cso;
}

static void
panfrost_delete_compute_state(struct pipe_context *pctx, void *cso)
{
   struct panfrost_compute_shader *so = cso;
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (ctx->compute.shader == so)
      ctx->compute.shader = NULL;
   /* A pending batch holds its own reference to the binary. */
   pan_bo_unref(so->bo);
   FREE(so);
}

static void
panfrost_set_shader_buffers(struct pipe_context *pctx,
                            enum pipe_shader_type stage, unsigned start,
                            unsigned count,
                            const struct pipe_shader_buffer *buffers,
                            unsigned writable_bitmask)
{
   struct panfrost_compute_ctx *c = &panfrost_context(pctx)->compute;

   assert(start + count <= PANFROST_MAX_SSBOS);
   for (unsigned i = 0; i < count; ++i) {
      struct pipe_shader_buffer *slot = &c->ssbos[stage][start + i];

      if (buffers && buffers[i].buffer) {
         pipe_resource_reference(&slot->buffer, buffers[i].buffer);
         slot->buffer_offset = buffers[i].buffer_offset;
         slot->buffer_size = buffers[i].buffer_size;
      } else {
         pipe_resource_reference(&slot->buffer, NULL);
         slot->buffer_offset = slot->buffer_size = 0;
      }
   }
   uint32_t mask = BITFIELD_RANGE(start, count);
   c->ssbo_writable[stage] =
      (c->ssbo_writable[stage] & ~mask) | ((writable_bitmask << start) & mask);
   if (stage == PIPE_SHADER_VERTEX || stage == PIPE_SHADER_FRAGMENT)
      panfrost_ssbo_bind_gfx(panfrost_context(pctx), stage);
}

/* Every compute job of a batch waits for the ones before it (the job
 * barrier bit), and CPU maps submit the batch and wait: nothing is left
 * for a barrier to order except persistent mappings, which need the work
 * submitted so that the application's fence covers it, and draws with
 * storage buffers for later GPU readers: the vertex jobs of later draws
 * would run before the fragment job of earlier ones.
 */
static void
panfrost_memory_barrier(struct pipe_context *pctx, unsigned flags)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   /* Readers on the CPU (indirect arguments, uploads and maps; there are
    * no query buffer objects) submit a batch that writes what they read
    * by themselves. */
   const unsigned cpu_reads = PIPE_BARRIER_INDIRECT_BUFFER |
                              PIPE_BARRIER_UPDATE | PIPE_BARRIER_QUERY_BUFFER;

   if ((flags & PIPE_BARRIER_MAPPED_BUFFER) ||
       (ctx->batch.draw_ssbos && (flags & ~cpu_reads)))
      panfrost_batch_submit(ctx);
}

/* Whether the dispatch may write a buffer or image that a draw of the
 * pending pass uses.  The batch does not say which of its jobs uses a BO,
 * so one an earlier dispatch used counts too: a submit too many, never a
 * draw reading what comes after it.
 */
static bool
overwrites_draw_reads(struct panfrost_context *ctx,
                      const struct panfrost_compute_shader *so)
{
   const struct panfrost_compute_ctx *c = &ctx->compute;
   enum pipe_shader_type st = so->mem_stage;

   if (!util_dynarray_num_elements(&ctx->batch.draw_jobs,
                                   struct panfrost_batch_job))
      return false;
   u_foreach_bit(i, c->ssbo_writable[st]) {
      const struct pipe_resource *r = c->ssbos[st][i].buffer;
      if (r && panfrost_batch_uses(ctx, r))
         return true;
   }
   for (unsigned i = 0; i < PANFROST_MAX_IMAGES; ++i) {
      const struct pipe_image_view *v = &c->images[st][i];
      if (v->resource && (v->access & PIPE_IMAGE_ACCESS_WRITE) &&
          panfrost_batch_uses(ctx, v->resource))
         return true;
   }
   return false;
}

void
panfrost_compute_submit_before(struct panfrost_context *ctx,
                               const struct panfrost_compute_shader *so)
{
   /* The batch's compute jobs run before its pass: draws with storage
    * buffers must be done before this dispatch starts, and so must draws
    * reading what it may write (a texture buffer, a vertex buffer).
    */
   if (ctx->batch.draw_ssbos || overwrites_draw_reads(ctx, so) ||
       panfrost_compute_samples_pass_output(ctx, so))
      panfrost_batch_submit(ctx);
}

/* The address of compute constant buffer i (user buffers copied, since
 * the application may change its memory after the call), 0 when unbound;
 * false when out of memory.
 */
static bool
ubo_address(struct panfrost_context *ctx, unsigned i, uint64_t *addr)
{
   const struct pipe_constant_buffer *cb =
      &ctx->state.cbufs[PIPE_SHADER_COMPUTE][i];

   *addr = 0;
   if (cb->buffer) {
      struct pan_bo *bo = panfrost_resource(cb->buffer)->bo;
      if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
         return false;
      *addr = bo->gpu_va + cb->buffer_offset;
   } else if (cb->user_buffer) {
      struct pan_ptr p =
         pan_pool_alloc(&ctx->batch.pool, MAX2(cb->buffer_size, 4), 16);
      if (!p.cpu)
         return false;
      memcpy(p.cpu, cb->user_buffer, cb->buffer_size);
      *addr = p.gpu;
   }
   return true;
}

/* The address and bound size of storage slot i of the stage (0 and 0
 * when unbound), its buffer recorded in the batch for reading, and
 * writing when writable; false when out of memory.
 */
static bool
ssbo_slot(struct panfrost_context *ctx, enum pipe_shader_type st, unsigned i,
          uint64_t *addr, unsigned *size_B)
{
   struct panfrost_compute_ctx *c = &ctx->compute;
   const struct pipe_shader_buffer *sb = &c->ssbos[st][i];

   *addr = 0;
   *size_B = 0;
   if (!sb->buffer)
      return true;
   struct panfrost_resource *rsc = panfrost_resource(sb->buffer);
   bool writable = c->ssbo_writable[st] & BITFIELD_BIT(i);
   if (!panfrost_batch_add_bo(ctx, rsc->bo,
                              PAN_BO_ACCESS_READ |
                                 (writable ? PAN_BO_ACCESS_WRITE : 0)))
      return false;
   /* Index ranges read from it before the dispatch are stale. */
   if (writable)
      pan_index_cache_invalidate(&rsc->index_cache, sb->buffer_offset,
                                 sb->buffer_size);
   *addr = rsc->bo->gpu_va + sb->buffer_offset;
   *size_B = sb->buffer_size;
   return true;
}

/* Fills one push entry; false (after a warning) when the state it needs
 * is missing.
 */
static bool
fill_push_entry(struct panfrost_context *ctx,
                const struct panfrost_compute_shader *so,
                const struct panfrost_push_entry *e,
                const struct pipe_grid_info *info, const uint32_t grid[3],
                uint32_t *words)
{
   struct panfrost_compute_ctx *c = &ctx->compute;
   uint64_t addr = 0;

   switch (e->source) {
   case PANFROST_PUSH_SSBO_ADDR:
   case PANFROST_PUSH_SSBO_SIZE: {
      unsigned size_B;
      if (!c->ssbos[so->mem_stage][e->index].buffer) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                            "shader storage slot %u is not bound, dispatch "
                            "dropped",
                            e->index);
         return false;
      }
      if (!ssbo_slot(ctx, so->mem_stage, e->index, &addr, &size_B))
         return false;
      if (e->source == PANFROST_PUSH_SSBO_SIZE) {
         words[0] = size_B;
         return true;
      }
      break;
   }
   case PANFROST_PUSH_SSBO_TABLE: {
      struct pan_ptr t =
         pan_pool_alloc(&ctx->batch.pool,
                        PANFROST_MAX_SSBOS * PANFROST_SSBO_SLOT_WORDS * 4, 16);
      if (!t.cpu)
         return false;
      uint32_t *w = t.cpu;
      for (unsigned i = 0; i < PANFROST_MAX_SSBOS;
           ++i, w += PANFROST_SSBO_SLOT_WORDS) {
         uint64_t va;
         unsigned size_B;
         if (!ssbo_slot(ctx, so->mem_stage, i, &va, &size_B))
            return false;
         w[0] = (uint32_t)va;
         w[1] = (uint32_t)(va >> 32);
         w[2] = size_B;
         w[3] = 0;
      }
      addr = t.gpu;
      break;
   }
   case PANFROST_PUSH_UBO_ADDR:
      if (!ubo_address(ctx, e->index, &addr))
         return false;
      if (!addr) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                            "constant buffer %u is not bound, dispatch "
                            "dropped",
                            e->index);
         return false;
      }
      break;
   case PANFROST_PUSH_UBO_TABLE: {
      struct pan_ptr t = pan_pool_alloc(
         &ctx->batch.pool, PANFROST_MAX_CONST_BUFFERS * sizeof(uint64_t), 8);
      if (!t.cpu)
         return false;
      uint64_t *table = t.cpu;
      for (unsigned i = 0; i < PANFROST_MAX_CONST_BUFFERS; ++i) {
         if (!ubo_address(ctx, i, &table[i]))
            return false;
      }
      addr = t.gpu;
      break;
   }
   case PANFROST_PUSH_NUM_WORKGROUPS:
      words[0] = grid[e->index];
      return true;
   case PANFROST_PUSH_WORKGROUP_SIZE:
      words[0] = info->block[e->index];
      return true;
   case PANFROST_PUSH_IMAGE_SIZE:
      words[0] = panfrost_image_size(ctx, so->mem_stage, e->index / 4,
                                     e->index % 4);
      return true;
   case PANFROST_PUSH_TEXTURE_SIZE:
      words[0] = panfrost_texture_size(
         ctx->state.views[so->tex_stage][e->index / 4], e->index % 4);
      return true;
   case PANFROST_PUSH_INPUT:
      if (!info->input || e->offset_B + 4 > so->input_B) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                            "kernel input word at %u is not given, dispatch "
                            "dropped",
                            e->offset_B);
         return false;
      }
      memcpy(words, (const uint8_t *)info->input + e->offset_B, 4);
      return true;
   default:
      unreachable("push source");
   }
   words[0] = (uint32_t)addr;
   words[1] = (uint32_t)(addr >> 32);
   return true;
}

/* Whether the dispatch samples a texture that the pending pass renders:
 * the batch's compute jobs run before its pass, so the pass must be
 * submitted first for the dispatch to see its pixels.
 */
bool
panfrost_compute_samples_pass_output(struct panfrost_context *ctx,
                                     const struct panfrost_compute_shader *so)
{
   if (!so->uses_textures)
      return false;
   u_foreach_bit(i, ctx->state.view_mask[so->tex_stage]) {
      if (panfrost_batch_renders(ctx,
                                 ctx->state.views[so->tex_stage][i]->texture))
         return true;
   }
   return false;
}

/* The texture and sampler tables of the dispatch (copies of the bound
 * descriptors, the draws' tables) and, on v6/v7, a renderer state that
 * bounds the shader's indices by their sizes.  false after a warning.
 */
static bool
texture_descs(struct panfrost_context *ctx,
              const struct panfrost_compute_shader *so, uint64_t *addr,
              unsigned *count, struct panfrost_compute_job *job)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   const struct panfrost_arch_texture *t = arch->texture;
   uint32_t views = ctx->state.view_mask[so->tex_stage];
   uint32_t samplers = ctx->state.sampler_mask[so->tex_stage];
   unsigned nt = util_last_bit(views), ns = util_last_bit(samplers);

   /* Views that cannot be sampled keep why (pan_texture.c). */
   u_foreach_bit(i, views) {
      struct panfrost_sampler_view *v =
         panfrost_sampler_view(ctx->state.views[so->tex_stage][i]);
      if (!v->bo) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                            "texture %u cannot be sampled (%s), dispatch "
                            "dropped",
                            i, v->error);
         return false;
      }
   }
   count[PANFROST_TABLE_TEXTURE] = nt;
   count[PANFROST_TABLE_SAMPLER] = ns;
   addr[PANFROST_TABLE_TEXTURE] =
      nt ? panfrost_draw_descriptor_table(
              ctx, (void *const *)ctx->state.views[so->tex_stage], nt,
              true, t->texture_size_B, t->align_B)
         : 0;
   addr[PANFROST_TABLE_SAMPLER] =
      ns ? panfrost_draw_descriptor_table(
              ctx, ctx->state.samplers[so->tex_stage], ns, false,
              t->sampler_size_B, t->align_B)
         : 0;
   if ((nt && !addr[PANFROST_TABLE_TEXTURE]) ||
       (ns && !addr[PANFROST_TABLE_SAMPLER]))
      goto oom;
   if (arch->draw)
      return true;

   /* Bifrost: the tables hang off the job, their sizes off the renderer
    * state, packed again for this dispatch.
    */
   struct pan_ptr rsd = pan_pool_alloc(&ctx->batch.pool,
                                       arch->shader_desc_size_B,
                                       arch->shader_desc_align_B);
   if (!rsd.cpu)
      goto oom;
   arch->emit_compute_shader(rsd.cpu, so->bo->gpu_va, so->work_regs,
                             ALIGN_POT(so->push.nr_words, 2), nt, ns);
   job->shader = rsd.gpu;
   job->textures = addr[PANFROST_TABLE_TEXTURE];
   job->samplers = addr[PANFROST_TABLE_SAMPLER];
   return true;

oom:
   panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                      "out of memory for texture tables, dispatch dropped");
   return false;
}

/* The descriptors of a dispatch's textures and images into the job: on
 * v9 resource tables PANFROST_TABLE_SAMPLER, PANFROST_TABLE_TEXTURE and
 * PANFROST_TABLE_IMAGE (the tables between empty), on v6/v7 the job's
 * texture, sampler and attribute tables.  false after a warning: the
 * dispatch is dropped.
 */
static bool
shader_resources(struct panfrost_context *ctx,
                 const struct panfrost_compute_shader *so,
                 struct panfrost_compute_job *job)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   const struct panfrost_arch_draw *d = arch->draw;
   uint64_t addr[PANFROST_TABLE_COUNT] = { 0 };
   unsigned count[PANFROST_TABLE_COUNT] = { 0 };
   char err[128] = "";

   if (so->uses_textures && !texture_descs(ctx, so, addr, count, job))
      return false;
   if (so->nr_images && !d) {
      if (panfrost_image_attributes(ctx, so->mem_stage, so->nr_images,
                                    &job->attributes, &job->attribute_buffers,
                                    err, sizeof(err)))
         return true;
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE, "%s, dispatch dropped",
                         err);
      return false;
   }
   if (!d)
      return true;
   if (so->nr_images) {
      addr[PANFROST_TABLE_IMAGE] = panfrost_image_table(
         ctx, so->mem_stage, so->nr_images, err, sizeof(err));
      if (!addr[PANFROST_TABLE_IMAGE]) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE, "%s, dispatch dropped",
                            err);
         return false;
      }
      count[PANFROST_TABLE_IMAGE] = so->nr_images;
   }
   unsigned n = 0;
   for (unsigned i = 0; i < PANFROST_TABLE_COUNT; ++i) {
      if (count[i])
         n = i + 1;
   }
   if (!n)
      return true;
   struct pan_ptr t = pan_pool_alloc(&ctx->batch.pool, n * d->resource_size_B,
                                     d->resource_align_B);
   if (!t.cpu) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "out of memory, dispatch dropped");
      return false;
   }
   for (unsigned i = 0; i < n; ++i)
      d->emit_resource((uint8_t *)t.cpu + i * d->resource_size_B, addr[i],
                       count[i]);
   job->resources = t.gpu | n;
   return true;
}

static void
panfrost_launch_grid(struct pipe_context *pctx,
                     const struct pipe_grid_info *info)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_screen *screen = panfrost_screen(pctx->screen);
   const struct panfrost_arch *arch = screen->arch;
   struct panfrost_compute_shader *so = ctx->compute.shader;
   uint32_t grid[3];

   if (!so || !panfrost_render_condition_check(ctx))
      return;
   if (so->error[0]) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "dispatch of a compute shader that did not compile "
                         "dropped: %s",
                         so->error);
      return;
   }
   panfrost_compute_submit_before(ctx, so);
   if (info->last_block[0] || info->last_block[1] || info->last_block[2]) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "partial last workgroups are not supported, "
                         "dispatch dropped");
      return;
   }
   if (info->indirect) {
      if (!panfrost_read_buffer(ctx, info->indirect, info->indirect_offset,
                                sizeof(grid), grid)) {
         panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                            "cannot read an indirect dispatch's size, "
                            "dispatch dropped");
         return;
      }
   } else {
      memcpy(grid, info->grid, sizeof(grid));
   }
   if (!grid[0] || !grid[1] || !grid[2])
      return;

   uint64_t threads =
      (uint64_t)info->block[0] * info->block[1] * info->block[2];
   if (!threads || threads > screen->dev.max_workgroup_size) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "workgroup of %llu invocations, dispatch dropped",
                         (unsigned long long)threads);
      return;
   }

   struct pan_pool *pool = &ctx->batch.pool;
   unsigned fau_words = ALIGN_POT(so->push.nr_words, 2);
   struct pan_ptr fau = { NULL, 0 };
   if (fau_words) {
      fau = pan_pool_alloc(pool, fau_words * 4, 8);
      if (!fau.cpu)
         goto oom;
      for (unsigned i = 0; i < so->push.count; ++i) {
         const struct panfrost_push_entry *e = &so->push.entries[i];
         if (!fill_push_entry(ctx, so, e, info, grid,
                              (uint32_t *)fau.cpu + e->first_word))
            return;
      }
   }

   struct panfrost_compute_job res = { .shader = so->shader_desc };
   if (!shader_resources(ctx, so, &res))
      return;

   uint64_t tls =
      panfrost_batch_compute_storage(ctx, so->tls_size, so->wls_B, grid);
   if (!tls && so->wls_B) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "no room for the shared memory of %u x %u x %u "
                         "workgroups, dispatch dropped",
                         grid[0], grid[1], grid[2]);
      return;
   }
   struct pan_ptr job =
      pan_pool_alloc(pool, arch->compute_job_size_B, arch->job_align_B);
   if (!tls || !job.cpu ||
       !panfrost_batch_add_bo(ctx, so->bo, PAN_BO_ACCESS_READ))
      goto oom;

   struct panfrost_compute_job desc = {
      .shader = res.shader,
      .fau = fau.gpu,
      .fau_words = fau_words,
      .thread_storage = tls,
      .resources = res.resources,
      .attributes = res.attributes,
      .attribute_buffers = res.attribute_buffers,
      .textures = res.textures,
      .samplers = res.samplers,
      .size = { info->block[0], info->block[1], info->block[2] },
      .count = { grid[0], grid[1], grid[2] },
      .index = panfrost_batch_next_job_index(ctx),
   };
   if (!arch->emit_compute_job(job.cpu, &desc)) {
      panfrost_warn_once(ctx, PANFROST_WARN_COMPUTE,
                         "workgroup size and count do not fit the job, "
                         "dispatch dropped");
      return;
   }
   if (panfrost_batch_add_compute_job(ctx, job.cpu, job.gpu))
      return;

oom:
   mesa_loge("panfrost: out of memory for a dispatch, dropped");
}

void
panfrost_context_release_compute(struct panfrost_context *ctx)
{
   for (unsigned s = 0; s < PIPE_SHADER_TYPES; ++s) {
      for (unsigned i = 0; i < PANFROST_MAX_SSBOS; ++i)
         pipe_resource_reference(&ctx->compute.ssbos[s][i].buffer, NULL);
   }
   pan_bo_unref(ctx->compute.ssbo_sink);
   ctx->compute.ssbo_sink = NULL;
   panfrost_context_release_images(ctx);
}

void
panfrost_context_init_compute(struct pipe_context *pctx)
{
   pctx->create_compute_state = panfrost_create_compute_state;
   pctx->bind_compute_state = panfrost_bind_compute_state;
   pctx->delete_compute_state = panfrost_delete_compute_state;
   pctx->set_shader_buffers = panfrost_set_shader_buffers;
   pctx->memory_barrier = panfrost_memory_barrier;
   pctx->launch_grid = panfrost_launch_grid;
   panfrost_context_init_images(pctx);
}
