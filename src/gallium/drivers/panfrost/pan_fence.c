/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <errno.h>
#include <string.h>

#include "util/log.h"
#include "util/u_memory.h"

#include "pan_fence.h"
#include "pan_screen.h"
#include "pan_submit.h"

struct pipe_fence_handle *
panfrost_fence_create(struct pipe_screen *pscreen, uint32_t syncobj)
{
   struct pipe_fence_handle *fence = CALLOC_STRUCT(pipe_fence_handle);

   if (!fence) {
      pan_syncobj_destroy(panfrost_device(pscreen), syncobj);
      return NULL;
   }

   pipe_reference_init(&fence->reference, 1);
   fence->syncobj = syncobj;
   return fence;
}

static void
panfrost_fence_reference(struct pipe_screen *pscreen,
                         struct pipe_fence_handle **ptr,
                         struct pipe_fence_handle *fence)
{
   struct pipe_fence_handle *old = *ptr;

   if (pipe_reference(old ? &old->reference : NULL,
                      fence ? &fence->reference : NULL)) {
      pan_syncobj_destroy(panfrost_device(pscreen), old->syncobj);
      FREE(old);
   }
   *ptr = fence;
}

static bool
panfrost_fence_finish(struct pipe_screen *pscreen, struct pipe_context *pctx,
                      struct pipe_fence_handle *fence, uint64_t timeout_ns)
{
   /* Gallium's PIPE_TIMEOUT_INFINITE is UINT64_MAX; kmod waits are signed. */
   int64_t rel_ns = timeout_ns > (uint64_t)PAN_KMOD_TIMEOUT_INFINITE
                       ? PAN_KMOD_TIMEOUT_INFINITE
                       : (int64_t)timeout_ns;
   int ret =
      pan_syncobj_wait(panfrost_device(pscreen), &fence->syncobj, 1, rel_ns);

   if (ret && ret != -ETIMEDOUT)
      mesa_loge("panfrost: fence wait failed: %s", strerror(-ret));
   return ret == 0;
}

static int
panfrost_fence_get_fd(struct pipe_screen *pscreen,
                      struct pipe_fence_handle *fence)
{
   int fd = -1;

   if (pan_syncobj_export_sync_file(panfrost_device(pscreen), fence->syncobj,
                                    &fd))
      return -1;
   return fd;
}

void
panfrost_screen_init_fence(struct pipe_screen *pscreen)
{
   pscreen->fence_reference = panfrost_fence_reference;
   pscreen->fence_finish = panfrost_fence_finish;
   pscreen->fence_get_fd = panfrost_fence_get_fd;
}
