/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "util/os_file.h"
#include "renderonly/renderonly.h"

#include "panfrost_drm_public.h"
#include "panfrost/pan_public.h"

/* The screen owns its own descriptor: the caller keeps (and may close)
 * the one it passed in. */
struct pipe_screen *
panfrost_drm_screen_create(int fd)
{
   return panfrost_create_screen(os_dupfd_cloexec(fd), NULL);
}

/* kmsro has already chosen how scanout buffers are made (dumb buffers on the
 * display device, imported into the GPU); we only need the GPU node. */
struct pipe_screen *
panfrost_drm_screen_create_renderonly(struct renderonly *ro)
{
   return panfrost_create_screen(os_dupfd_cloexec(ro->gpu_fd), ro);
}
