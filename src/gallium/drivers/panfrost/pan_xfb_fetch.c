/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The vertex fetch of the vertex shader's compute variants (transform
 * feedback, rasterizer discard, the records before a geometry shader):
 * their shader loads each attribute channel as a 32-bit word at
 * address + element * stride (pan_nir_lower_xfb.c).  Elements of 32-bit
 * float or integer channels are read where they are; any other format the
 * screen takes for vertex buffers (8- and 16-bit normalized, scaled and
 * integer channels, half floats, 10_10_10_2, 11_11_10 floats, BGRA
 * orders...) is converted on the CPU by the format's util_format unpack,
 * the elements the draw reads only, into four 32-bit channels in the
 * batch's memory, with the defaults (0, 0, 0, 1) the fetch gives.
 */

#include <string.h>

#include "util/format/u_format.h"
#include "util/u_math.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_resource.h"

/* At most this many elements of an attribute are converted per draw. */
#define PANFROST_XFB_CONVERT_MAX (1u << 20)

/* Whether the variant reads the format's elements as they are: 32-bit
 * float or pure integer channels in memory order.
 */
static bool
fetched_as_is(enum pipe_format format)
{
   const struct util_format_description *d = util_format_description(format);

   if (!d || d->layout != UTIL_FORMAT_LAYOUT_PLAIN ||
       d->block.bits != 32 * d->nr_channels)
      return false;
   bool integer = util_format_is_pure_integer(format);
   for (unsigned c = 0; c < d->nr_channels; ++c) {
      const struct util_format_channel_description *ch = &d->channel[c];
      if (ch->size != 32 || ch->normalized ||
          d->swizzle[c] != PIPE_SWIZZLE_X + c)
         return false;
      if (!integer && ch->type != UTIL_FORMAT_TYPE_FLOAT)
         return false; /* 32-bit scaled or fixed channels */
   }
   return true;
}

/* The elements [*first, *first + *count) of el the draw reads: those its
 * vertex ids name, or those of its instances.
 */
static void
element_range(const struct pipe_vertex_element *el, const uint32_t *ids,
              unsigned per_instance, unsigned instances, unsigned base_instance,
              uint32_t *first, uint64_t *count)
{
   if (el->instance_divisor) {
      *first = base_instance;
      *count = (instances - 1) / el->instance_divisor + 1;
      return;
   }
   uint32_t lo = UINT32_MAX, hi = 0;
   for (unsigned i = 0; i < per_instance; ++i) {
      lo = MIN2(lo, ids[i]);
      hi = MAX2(hi, ids[i]);
   }
   *first = lo;
   *count = (uint64_t)hi - lo + 1;
}

/* Converts the elements of el the draw reads into the batch's memory and
 * points a at them; false after a message.
 */
static bool
convert(struct panfrost_context *ctx, const struct pipe_vertex_element *el,
        const struct pipe_vertex_buffer *vb, const uint32_t *ids,
        unsigned per_instance, unsigned instances, unsigned base_instance,
        struct panfrost_xfb_attrib *a)
{
   const char *fmt = util_format_short_name(el->src_format);
   const struct util_format_unpack_description *u =
      util_format_unpack_description(el->src_format);

   if (!u || !u->unpack_rgba) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "the vertex shader's compute variants cannot fetch "
                         "%s: nothing captured or written",
                         fmt);
      return false;
   }
   uint32_t first;
   uint64_t count;
   element_range(el, ids, per_instance, instances, base_instance, &first,
                 &count);
   if (count > PANFROST_XFB_CONVERT_MAX) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "%llu %s vertices to convert for the vertex "
                         "shader's compute variants are too many: nothing "
                         "captured or written",
                         (unsigned long long)count, fmt);
      return false;
   }

   /* The source: a user array, or a buffer the pending batch does not
    * write (a submit here would drop what the caller put in the batch). */
   const uint8_t *src;
   uint64_t size_B = UINT64_MAX;
   if (vb->is_user_buffer) {
      src = vb->buffer.user;
   } else {
      struct pipe_resource *r = vb->buffer.resource;
      if (!r)
         return false;
      if (panfrost_batch_writes(ctx, r)) {
         panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                            "a %s vertex buffer the pending work writes "
                            "cannot be converted for the vertex shader's "
                            "compute variants: nothing captured or written",
                            fmt);
         return false;
      }
      struct pan_bo *bo = panfrost_resource(r)->bo;
      src = pan_bo_wait(bo, INT64_MAX, false) ? pan_bo_mmap(bo) : NULL;
      size_B = r->width0;
   }
   struct pan_ptr out = pan_pool_alloc(&ctx->batch.pool, count * 16, 16);
   if (!src || !out.cpu)
      return false;

   uint32_t *dst = out.cpu;
   unsigned elem_B = util_format_get_blocksize(el->src_format);
   uint64_t at = (uint64_t)vb->buffer_offset + el->src_offset +
                 (uint64_t)first * vb->stride;
   for (uint64_t i = 0; i < count; ++i, at += vb->stride, dst += 4) {
      /* Past the buffer: zeros, as the hardware fetch reads there. */
      if (at + elem_B > size_B)
         memset(dst, 0, 16);
      else
         u->unpack_rgba(dst, src + at, 1);
   }
   *a = (struct panfrost_xfb_attrib){
      /* Element e is at gpu + (e - first) * 16. */
      .addr = out.gpu - (uint64_t)first * 16,
      .stride_B = 16,
      .divisor = el->instance_divisor,
      .last_comp = 3,
   };
   return true;
}

bool
panfrost_xfb_fill_attribs(struct panfrost_context *ctx,
                          struct panfrost_xfb_params *p, const uint32_t *ids,
                          unsigned per_instance, unsigned instances)
{
   const struct panfrost_vertex_elements *ve =
      (const struct panfrost_vertex_elements *)ctx->state.vertex_elements;
   unsigned count = ve ? MIN2(ve->count, PANFROST_XFB_MAX_ATTRIBS) : 0;

   for (unsigned i = 0; i < count; ++i) {
      const struct pipe_vertex_element *el = &ve->elements[i];
      const struct pipe_vertex_buffer *vb =
         &ctx->state.vbufs[el->vertex_buffer_index];

      if (vb->is_user_buffer || !fetched_as_is(el->src_format)) {
         if (!convert(ctx, el, vb, ids, per_instance, instances,
                      p->base_instance, &p->attribs[i]))
            return false;
         continue;
      }
      if (!vb->buffer.resource)
         return false;
      struct pan_bo *bo = panfrost_resource(vb->buffer.resource)->bo;
      if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
         return false;
      const struct util_format_description *d =
         util_format_description(el->src_format);
      p->attribs[i] = (struct panfrost_xfb_attrib){
         .addr = bo->gpu_va + vb->buffer_offset + el->src_offset,
         .stride_B = vb->stride,
         .divisor = el->instance_divisor,
         .last_comp = d->nr_channels - 1,
         .one = util_format_is_pure_integer(el->src_format) ? 1 : fui(1.0f),
      };
   }
   return true;
}
