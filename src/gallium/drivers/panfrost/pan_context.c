/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/log.h"
#include "util/u_memory.h"
#include "util/u_upload_mgr.h"

#include "indices/u_primconvert.h"

#include "pan_blend_shader.h"
#include "pan_context.h"
#include "pan_preload.h"
#include "pan_fence.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_submit.h"

void
panfrost_warn_once(struct panfrost_context *ctx, enum panfrost_warning what,
                   const char *fmt, ...)
{
   char msg[256];
   va_list args;

   if (ctx->warned & BITFIELD_BIT(what))
      return;
   ctx->warned |= BITFIELD_BIT(what);

   va_start(args, fmt);
   vsnprintf(msg, sizeof(msg), fmt, args);
   va_end(args);
   mesa_logw("panfrost: %s", msg);
   util_debug_message(&ctx->debug, INFO, "panfrost: %s", msg);
}

/* The window system calls this before another party (the display, a
 * compositor) reads a shared buffer, e.g. at eglSwapBuffers: its pending
 * rendering must be in memory by then.  Every layout we share is one the
 * reader understands, so submitting the writer is all it takes.
 */
static void
panfrost_flush_resource(struct pipe_context *pctx, struct pipe_resource *prsc)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (panfrost_batch_writes(ctx, prsc))
      panfrost_batch_submit(ctx);
}

static void
panfrost_flush(struct pipe_context *pctx, struct pipe_fence_handle **fence,
               unsigned flags)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct pan_device *dev = panfrost_device(pctx->screen);
   uint32_t syncobj;
   int ret;

   panfrost_batch_submit(ctx);
   if (!fence)
      return;

   if (ctx->last_fence) {
      pctx->screen->fence_reference(pctx->screen, fence, ctx->last_fence);
      return;
   }

   /* Nothing was ever submitted: the fence is complete already. */
   ret = pan_syncobj_create(dev, true, &syncobj);
   if (ret) {
      mesa_loge("panfrost: cannot create a syncobj for a fence: %s",
                strerror(-ret));
      pctx->screen->fence_reference(pctx->screen, fence, NULL);
      return;
   }

   struct pipe_fence_handle *f = panfrost_fence_create(pctx->screen, syncobj);
   pctx->screen->fence_reference(pctx->screen, fence, NULL);
   *fence = f;
}

static void
panfrost_set_debug_callback(struct pipe_context *pctx,
                            const struct util_debug_callback *cb)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (cb)
      ctx->debug = *cb;
   else
      memset(&ctx->debug, 0, sizeof(ctx->debug));
}

static void
panfrost_context_destroy(struct pipe_context *pctx)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   /* Pending clears are for surfaces nobody can read any more. */
   panfrost_batch_fini(ctx);
   panfrost_context_release_blit(ctx);
   panfrost_preload_fini(ctx);
   panfrost_blend_shaders_fini(ctx);
   pan_bo_unref(ctx->tiler_heap);
   pctx->screen->fence_reference(pctx->screen, &ctx->last_fence, NULL);
   panfrost_context_release_state(pctx);
   panfrost_context_release_compute(ctx);
   panfrost_context_release_xfb(ctx);
   panfrost_context_release_gs(ctx);
   if (ctx->primconvert)
      util_primconvert_destroy(ctx->primconvert);
   if (pctx->stream_uploader)
      u_upload_destroy(pctx->stream_uploader);
   FREE(pctx);
}

struct pipe_context *
panfrost_context_create(struct pipe_screen *pscreen, void *priv, unsigned flags)
{
   struct panfrost_context *ctx = CALLOC_STRUCT(panfrost_context);

   if (!ctx)
      return NULL;

   struct pipe_context *pctx = &ctx->base;
   pctx->screen = pscreen;
   pctx->priv = priv;
   pctx->destroy = panfrost_context_destroy;
   pctx->flush = panfrost_flush;
   pctx->flush_resource = panfrost_flush_resource;
   pctx->set_debug_callback = panfrost_set_debug_callback;

   panfrost_context_init_resource(pctx);
   panfrost_context_init_state(pctx);
   panfrost_context_init_shaders(pctx);
   panfrost_context_init_draw(pctx);
   panfrost_context_init_compute(pctx);
   panfrost_context_init_xfb(pctx);
   panfrost_context_init_gs(pctx);
   panfrost_context_init_query(pctx);
   panfrost_batch_init(ctx);

   /* The frontends upload through these; the CPU paths serve for now. */
   pctx->stream_uploader = u_upload_create_default(pctx);
   if (!pctx->stream_uploader) {
      FREE(ctx);
      return NULL;
   }
   pctx->const_uploader = pctx->stream_uploader;

   /* The blitter makes its states through the hooks set above. */
   if (!panfrost_context_init_blit(ctx)) {
      panfrost_context_destroy(pctx);
      return NULL;
   }

   return pctx;
}
