/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <xf86drm.h>

#include "util/log.h"
#include "util/os_time.h"
#include "util/u_memory.h"

#include "pan_fence.h"
#include "pan_screen.h"

struct pipe_fence_handle *
panfrost_fence_create(struct pipe_screen *pscreen, uint32_t syncobj)
{
   struct pipe_fence_handle *fence = CALLOC_STRUCT(pipe_fence_handle);

   if (!fence)
      return NULL;

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
      drmSyncobjDestroy(panfrost_device(pscreen)->fd, old->syncobj);
      FREE(old);
   }
   *ptr = fence;
}

static bool
panfrost_fence_finish(struct pipe_screen *pscreen, struct pipe_context *pctx,
                      struct pipe_fence_handle *fence, uint64_t timeout_ns)
{
   int64_t abs_ns = os_time_get_absolute_timeout(timeout_ns);
   int ret;

   /* The syncobj API takes an absolute CLOCK_MONOTONIC deadline. */
   ret = drmSyncobjWait(panfrost_device(pscreen)->fd, &fence->syncobj, 1,
                        abs_ns < 0 ? INT64_MAX : abs_ns,
                        DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);
   return ret == 0;
}

static int
panfrost_fence_get_fd(struct pipe_screen *pscreen,
                      struct pipe_fence_handle *fence)
{
   int fd = -1;

   if (drmSyncobjExportSyncFile(panfrost_device(pscreen)->fd, fence->syncobj,
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
