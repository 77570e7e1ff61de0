/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Transform feedback of a geometry shader's outputs, on the CPU: how many
 * primitives a geometry shader emits is known only once it ran, and the
 * targets' offsets (and the queries) are kept on the CPU, so the capture
 * submits the batch, waits for it and copies the selected outputs of the
 * list's primitives, in order, from the output records into the targets.
 * Only draws with targets bound pay for the wait.
 */

#include <string.h>

#include "util/bitscan.h"
#include "util/u_math.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_gs.h"
#include "pan_resource.h"

#define RESTART 0xffffffffu

void
panfrost_gs_capture(struct panfrost_context *ctx, const struct panfrost_gs *gs,
                    struct pipe_resource *buf, unsigned index_at_B,
                    unsigned records_at_B, unsigned records)
{
   struct panfrost_xfb_ctx *x = &ctx->xfb;
   const struct pipe_stream_output_info *so = &gs->stream_output;
   unsigned per = panfrost_gs_vertices_per_prim(gs->info.out_mode);
   unsigned rec_B = util_bitcount64(gs->info.out_mask) * 16;
   uint8_t *dst[PIPE_MAX_SO_BUFFERS] = { NULL };
   uint64_t room = UINT64_MAX; /* primitives that fit in every target */

   for (unsigned b = 0; b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (so->stride[b] && (b >= x->num_targets || !x->targets[b]))
         return; /* GL makes this an error: nothing to capture into */
   }
   /* The geometry shader's writes, and any work on the targets, done. */
   panfrost_batch_submit(ctx);
   struct pan_bo *bo = panfrost_resource(buf)->bo;
   const uint8_t *map =
      pan_bo_wait(bo, INT64_MAX, false) ? pan_bo_mmap(bo) : NULL;
   if (!map)
      return;
   for (unsigned b = 0; b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (!so->stride[b])
         continue;
      struct panfrost_so_target *t = (struct panfrost_so_target *)x->targets[b];
      struct panfrost_resource *rsc = panfrost_resource(t->base.buffer);
      uint8_t *cpu =
         pan_bo_wait(rsc->bo, INT64_MAX, true) ? pan_bo_mmap(rsc->bo) : NULL;
      if (!cpu)
         return;
      dst[b] = cpu + t->base.buffer_offset + t->offset_B;
      unsigned used = t->offset_B;
      uint64_t left =
         t->base.buffer_size > used ? t->base.buffer_size - used : 0;
      room = MIN2(room, left / (so->stride[b] * 4) / per);
   }

   const uint32_t *idx = (const uint32_t *)(map + index_at_B);
   const uint8_t *rec = map + records_at_B;
   uint64_t generated = 0, emitted = 0;
   for (unsigned p = 0; p < records; ++p) {
      const uint32_t *prim = idx + (size_t)p * per;
      if (prim[0] == RESTART)
         continue;
      generated++;
      if (emitted >= room)
         continue;
      for (unsigned v = 0; v < per; ++v) {
         const uint8_t *r = rec + (size_t)prim[v] * rec_B;
         for (unsigned o = 0; o < so->num_outputs; ++o) {
            const struct pipe_stream_output *out = &so->output[o];
            unsigned b = out->output_buffer;
            if (out->stream || out->register_index * 16 >= rec_B)
               continue;
            memcpy(dst[b] +
                      ((emitted * per + v) * so->stride[b] + out->dst_offset) *
                         4,
                   r + out->register_index * 16 + out->start_component * 4,
                   out->num_components * 4);
         }
      }
      emitted++;
   }

   for (unsigned b = 0; b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (!so->stride[b])
         continue;
      struct panfrost_so_target *t = (struct panfrost_so_target *)x->targets[b];
      unsigned size_B = emitted * per * so->stride[b] * 4;
      pan_index_cache_invalidate(
         &panfrost_resource(t->base.buffer)->index_cache,
         t->base.buffer_offset + t->offset_B, size_B);
      t->offset_B += size_B;
      t->stride_B = so->stride[b] * 4;
   }
   /* The draw of the list counts the generated primitives. */
   if (x->active_queries && !x->queries_paused) {
      x->counts.emitted += emitted;
      x->counts.overflows += emitted < generated;
   }
}
