/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Entry points the base's loaders call: the pipe-loader and DRI target for a
 * Mali render node, and kmsro for a display controller paired with a Mali. */

#ifndef PANFROST_DRM_PUBLIC_H
#define PANFROST_DRM_PUBLIC_H

struct pipe_screen;
struct renderonly;

struct pipe_screen *panfrost_drm_screen_create(int fd);
struct pipe_screen *panfrost_drm_screen_create_renderonly(struct renderonly *ro);

#endif
