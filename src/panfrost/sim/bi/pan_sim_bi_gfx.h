/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Graphics messages of the Bifrost interpreter (pan_sim_bi_msg_gfx.c):
 * attribute and varying access, format-converting stores, alpha test and
 * blending.  The interpreter decodes the instruction and its registers;
 * everything that needs descriptors (attribute tables, the primitive being
 * shaded, render targets) is the executor's, reached through these
 * callbacks.  A callback returns false after writing why into err; the
 * instruction then faults with that text.
 */

#ifndef PAN_SIM_BI_GFX_H
#define PAN_SIM_BI_GFX_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../pan_sim_regfmt.h"

#define PAN_SIM_BI_GFX_ERR_LEN 160

struct pan_sim_bi_gfx {
   void *user;
   /* LD_ATTR_IMM: components [0, comps) of attribute `index` of the
    * vertex, converted to regfmt, into out (f16 formats pack two
    * components per word). */
   bool (*ld_attr)(void *user, unsigned index, uint32_t vertex,
                   uint32_t instance, enum pan_sim_regfmt regfmt,
                   unsigned comps, uint32_t out[4], char *err);
   /* LEA_ATTR_IMM: address (out[0], out[1]) of varying `index` of the
    * vertex and its conversion word for ST_CVT (out[2]). */
   bool (*lea_attr)(void *user, unsigned index, uint32_t vertex,
                    uint32_t instance, enum pan_sim_regfmt regfmt,
                    uint32_t out[3], char *err);
   /* ST_CVT: comps register values in to memory at addr, as the
    * conversion word says. */
   bool (*st_cvt)(void *user, uint64_t addr, uint32_t conversion,
                  unsigned comps, const uint32_t in[4], char *err);
   /* LD_VAR_IMM / LD_VAR_FLAT_IMM: varying `index` at the lane's pixel. */
   bool (*ld_var)(void *user, unsigned lane, unsigned index, bool flat,
                  enum pan_sim_regfmt regfmt, unsigned comps,
                  uint32_t out[4], char *err);
   /* LD_VAR_SPECIAL: the special varying `which` (its varying name: 0
    * gl_PointCoord, 2 fragment 1/w, 3 fragment z) at the lane's pixel, as
    * binary32 (two components for the point coordinate). */
   bool (*ld_var_special)(void *user, unsigned lane, unsigned which,
                          float out[2], char *err);
   /* BLEND: colour registers of the lane to the render target that the
    * 64-bit internal blend descriptor names, for the covered samples. */
   bool (*blend)(void *user, unsigned lane, uint64_t descriptor,
                 uint32_t coverage, const uint32_t in[4], char *err);
   /* ZS_EMIT: the late depth/stencil test of the lane with the depth
    * (when z) and stencil reference (when stencil) the shader gives;
    * *coverage (the instruction's input) is left with bit 0 cleared when
    * the test fails. */
   bool (*zs_emit)(void *user, unsigned lane, bool z, float depth,
                   bool stencil, uint8_t stencil_ref, uint32_t *coverage,
                   char *err);
   /* LOAD with the ubo segment: size bytes at byte offset of uniform
    * buffer `index` into out. */
   bool (*ubo)(void *user, uint32_t index, uint32_t offset, unsigned size,
               void *out, char *err);
};

struct pan_sim_bi_warp;
struct pan_sim_bi_config;

/* A v7 VAR_TEX message preload: what VAR_TEX (varying `varying` as two
 * binary32 coordinates, texture and sampler `texture`) would write, into
 * registers dst.. of the lanes given, before the shader starts.  Runs the
 * config's ld_var and tex callbacks quad by quad; false with err set. */
bool pan_sim_bi_var_tex_preload(struct pan_sim_bi_warp *w,
                                const struct pan_sim_bi_config *cfg,
                                uint16_t lanes, unsigned varying,
                                unsigned texture, bool f16, bool zero_lod,
                                unsigned dst, char *err, unsigned err_len);

#ifdef __cplusplus
}
#endif

#endif
