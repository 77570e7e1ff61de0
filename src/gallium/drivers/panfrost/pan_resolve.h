/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_RESOLVE_H
#define PAN_RESOLVE_H

#include <stdbool.h>

struct panfrost_context;
struct pipe_blit_info;

/* Handles a blit from a multisampled to a single-sampled resource
 * (pan_resolve.c): true when info was one, done or refused with a
 * warning; false leaves the blit to the caller.
 */
bool panfrost_resolve(struct panfrost_context *ctx,
                      const struct pipe_blit_info *info);

#endif /* PAN_RESOLVE_H */
