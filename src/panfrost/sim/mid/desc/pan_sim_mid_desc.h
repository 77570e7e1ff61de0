/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Midgard interpreter's attribute, varying and texture messages served
 * from v4/v5 descriptors in GPU memory, laid out as the stock driver does:
 * what a v4/v5 job executor fills in for each thread.  Descriptors are read
 * through the genxml unpackers; memory formats are named by the format
 * enum (pan_sim_mem_format_parse).  See
 * docs/drivers/panfrost/simulator-midgard.rst.
 */

#ifndef PAN_SIM_MID_DESC_H
#define PAN_SIM_MID_DESC_H

#include "pan_sim_mid.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_sim_mid_desc {
   struct pan_sim_mid_mem mem;

   /* The attribute table (ld_attr) and the varying table (st_vary, and
    * ld_attr with the table bit): attribute records and the attribute
    * buffer records they name. */
   uint64_t attributes, attribute_buffers;
   unsigned nr_attributes;
   uint64_t varyings, varying_buffers;
   unsigned nr_varyings;

   /* The thread's vertex and instance: 1D buffers read element `vertex`,
    * modulus buffers vertex % padded_count, power-of-two divisor buffers
    * instance / divisor.  Varying stores write element `vertex`. */
   uint32_t vertex, instance;

   /* ld_vary reads element `pixel` of the varying buffers: the executor
    * stores there what the rasteriser interpolated for this pixel. */
   uint32_t pixel;

   /* Textures: an array of 64-bit pointers to texture descriptors, each
    * followed by its surface pointers; samplers: an array of sampler
    * descriptors. */
   uint64_t textures, samplers;
   unsigned nr_textures, nr_samplers;
};

/* Point gfx at callbacks reading d (which must outlive the runs), for
 * arch 4 or 5; false for another arch. */
bool pan_sim_mid_desc_init(unsigned arch, struct pan_sim_mid_desc *d,
                           struct pan_sim_mid_gfx *gfx);

#ifdef __cplusplus
}
#endif

#endif
