/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Layered framebuffers (docs/drivers/panfrost/draw-path.rst, "Layered
 * rendering"): the tiler has no layer index, so a pass renders one layer
 * of every attachment (batch.layer, counted from the surfaces' first
 * layer) and moving to another layer submits the pass.  Clears run once
 * per layer; geometry shaders writing gl_Layer draw their list once per
 * layer, each draw keeping the primitives of its layer (pan_gs.c).
 */

#ifndef PAN_LAYER_H
#define PAN_LAYER_H

#include <stdbool.h>

struct panfrost_context;
struct pipe_framebuffer_state;
struct pipe_surface;

/* Layers of the framebuffer: those of its attachment with the most (as
 * softpipe counts them; a layer past an attachment's last renders into
 * its last), the framebuffer's own count without attachments; at least 1.
 */
unsigned panfrost_fb_layers(const struct pipe_framebuffer_state *fb);

/* Makes the pending pass the one of layer `layer` of the bound
 * framebuffer, submitting the pending one first when it renders another
 * layer.
 */
void panfrost_batch_use_layer(struct panfrost_context *ctx, unsigned layer);

/* The resource layer (or 3D slice) the pending pass renders in surf. */
unsigned panfrost_batch_surface_layer(const struct panfrost_context *ctx,
                                      const struct pipe_surface *surf);

#endif
