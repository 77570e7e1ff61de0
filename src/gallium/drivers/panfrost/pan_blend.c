/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "util/format/u_format.h"
#include "util/u_framebuffer.h"

#include "pan_blend.h"

void
panfrost_blend_rt_init(struct panfrost_blend_rt *b,
                       const struct pipe_blend_state *blend, unsigned rt,
                       const struct pipe_framebuffer_state *fb,
                       const struct pipe_blend_color *color)
{
   const struct pipe_rt_blend_state *s =
      &blend->rt[blend->independent_blend_enable ? rt : 0];

   memset(b, 0, sizeof(*b));
   b->enabled = rt < fb->nr_cbufs && fb->cbufs[rt];
   b->format = b->enabled ? fb->cbufs[rt]->format : PIPE_FORMAT_NONE;
   b->colormask = s->colormask;
   b->blend = s->blend_enable;
   b->rgb_func = s->rgb_func;
   b->rgb_src = s->rgb_src_factor;
   b->rgb_dst = s->rgb_dst_factor;
   b->alpha_func = s->alpha_func;
   b->alpha_src = s->alpha_src_factor;
   b->alpha_dst = s->alpha_dst_factor;
   memcpy(b->constant, color->color, sizeof(b->constant));
   b->logicop = blend->logicop_enable;
   b->logicop_func = blend->logicop_func;
   /* The state tracker sets it only with GL_MULTISAMPLE on. */
   b->alpha_to_one =
      blend->alpha_to_one && util_framebuffer_get_num_samples(fb) > 1;
}

static void
face_init(struct panfrost_zs_face *f, const struct pipe_stencil_state *s,
          uint8_t ref)
{
   f->func = s->func;
   f->fail = s->fail_op;
   f->zfail = s->zfail_op;
   f->zpass = s->zpass_op;
   f->value_mask = s->valuemask;
   f->write_mask = s->writemask;
   f->ref = ref;
}

void
panfrost_zs_state_init(struct panfrost_zs_state *zs,
                       const struct pipe_depth_stencil_alpha_state *zsa,
                       const struct pipe_stencil_ref *ref,
                       const struct pipe_surface *zsbuf)
{
   enum pipe_format f = zsbuf ? zsbuf->format : PIPE_FORMAT_NONE;

   memset(zs, 0, sizeof(*zs));
   zs->depth =
      zsa->depth_enabled && util_format_has_depth(util_format_description(f));
   zs->depth_write = zsa->depth_writemask;
   zs->depth_func = zsa->depth_func;
   zs->stencil = zsa->stencil[0].enabled &&
                 util_format_has_stencil(util_format_description(f));
   face_init(&zs->face[0], &zsa->stencil[0], ref->ref_value[0]);
   /* One-sided stencil tests back faces as front ones. */
   if (zsa->stencil[1].enabled)
      face_init(&zs->face[1], &zsa->stencil[1], ref->ref_value[1]);
   else
      face_init(&zs->face[1], &zsa->stencil[0], ref->ref_value[0]);
}
