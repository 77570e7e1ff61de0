/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_RESOLVE_H
#define PAN_RESOLVE_H

#include <stdbool.h>

struct panfrost_context;
struct pipe_blit_info;
struct pipe_box;
struct pipe_context;
struct pipe_resource;

/* Handles a blit from a multisampled to a single-sampled resource
 * (pan_resolve.c): true when info was one, done or refused with a
 * warning; false leaves the blit to the caller.
 */
bool panfrost_resolve(struct panfrost_context *ctx,
                      const struct pipe_blit_info *info);

/* pipe_context::resource_copy_region: a map and a copy, every sample of
 * multisampled resources.
 */
void panfrost_resource_copy_region(
   struct pipe_context *pctx, struct pipe_resource *dst, unsigned dst_level,
   unsigned dstx, unsigned dsty, unsigned dstz, struct pipe_resource *src,
   unsigned src_level, const struct pipe_box *src_box);

#endif /* PAN_RESOLVE_H */
