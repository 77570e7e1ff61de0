/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GLSL images of the simulator: what the interpreters' image messages ask
 * of the executor.  Both ISAs compute a texel's address from a descriptor
 * (Bifrost: an attribute record of the job's attribute table, whose buffer
 * is a 3D linear or u-interleaved surface; Valhall: a texture descriptor
 * of a resource table), and then load through the descriptor's format or
 * run atomics on the address.  The address message returns three words:
 * the 64-bit address and an internal_conversion word (memory format and
 * register format) for a converting store.
 *
 * The interpreters decode the instruction and its registers; descriptors
 * are the executor's (pan_sim_vX_img.c).  Coordinates arrive as the
 * hardware takes them: x and y (16 bits each) and z, a depth slice of a 3D
 * image or the layer of an array (cube faces count as layers).  A callback
 * returns false after writing why into err.
 */

#ifndef PAN_SIM_IMG_H
#define PAN_SIM_IMG_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_sim_regfmt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_IMAGE_ERR_LEN 160

struct pan_sim_image_ops {
   void *user;
   /* Address (out[0] low, out[1] high) of texel coord of image `index` in
    * descriptor table `table`, and its conversion word (out[2]) for
    * register format regfmt (AUTO: the format's natural one). */
   bool (*address)(void *user, unsigned table, unsigned index,
                   const uint32_t coord[3], enum pan_sim_regfmt regfmt,
                   uint32_t out[3], char *err);
   /* Components [0, comps) of that texel converted to regfmt (16-bit
    * formats two components a word). */
   bool (*load)(void *user, unsigned table, unsigned index,
                const uint32_t coord[3], enum pan_sim_regfmt regfmt,
                unsigned comps, uint32_t out[4], char *err);
   /* Converting store (ST_CVT) of comps register values to addr as the
    * conversion word says; NULL: stores fault. */
   bool (*store)(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
                 const uint32_t in[4], char *err);
};

#ifdef __cplusplus
}
#endif

#endif
