/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GLSL images (set_shader_images).  On Valhall an image is a texture
 * descriptor of resource table PANFROST_TABLE_IMAGE (5, pan_arch.h), which
 * the compiler's
 * LD_TEX / LEA_TEX name by the image's index (pan_ir_from_nir_image.c);
 * its first plane is the bound level (and layer) of a linear resource.
 * imageSize() becomes push words (pan_nir_lower_compute.c) filled from
 * the bound view.  See docs/drivers/panfrost/draw-path.rst, "Images".
 */

#ifndef PAN_IMAGE_H
#define PAN_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_defines.h"

struct panfrost_context;
struct pipe_context;

/*
 * The texture descriptors of the stage's images 0..count-1 (unbound ones
 * zeroed) in a table of the batch's pool, each image's buffer recorded in
 * the batch for reading and, if the view is writable, writing.  0 with a
 * message in err when an image cannot be described (no texture
 * descriptors on this GPU, a buffer image) or out of memory.
 */
uint64_t panfrost_image_table(struct panfrost_context *ctx,
                              enum pipe_shader_type stage, unsigned count,
                              char *err, size_t err_size);

/*
 * Bifrost (v6/v7): the stage's images 0..count-1 as records of an
 * attribute table (*attrs) over buffer records (*bufs, two per image),
 * recorded in the batch as above.  false with a message in err.
 */
bool panfrost_image_attributes(struct panfrost_context *ctx,
                               enum pipe_shader_type stage, unsigned count,
                               uint64_t *attrs, uint64_t *bufs, char *err,
                               size_t err_size);

/* Component c (width, height, depth or layers) of the size imageSize()
 * returns for the stage's image i; 0 when unbound. */
uint32_t panfrost_image_size(struct panfrost_context *ctx,
                             enum pipe_shader_type stage, unsigned i,
                             unsigned c);

void panfrost_context_init_images(struct pipe_context *pctx);
void panfrost_context_release_images(struct panfrost_context *ctx);

#endif
