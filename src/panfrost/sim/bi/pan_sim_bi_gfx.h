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

/* A BLEND whose descriptor is in shader mode (v6/v7 blend shaders): the
 * hardware writes ret to the instruction's destination register (r48 by
 * convention) and, once the clause ends, runs the code at the low word pc
 * of the caller's 4 GiB window, which returns by branching to ret (0
 * ends the thread). */
struct pan_sim_bi_blend_call {
   bool call;
   uint32_t pc, ret;
};

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
    * 64-bit internal blend descriptor names, for the covered samples.  A
    * descriptor in shader mode stores nothing: the executor fills *call
    * (the blend shader to run and BLEND's result, its return value). */
   bool (*blend)(void *user, unsigned lane, uint64_t descriptor,
                 uint32_t coverage, const uint32_t in[4],
                 struct pan_sim_bi_blend_call *call, char *err);
   /* LD_TILE: comps components of the tile buffer at `pixel` (sample in
    * bits 0-7, render target in 8-15, x and y in 16-23 and 24-31, 0xff
    * meaning the lane's own) converted as the internal conversion word
    * says, in the register format it names (*regfmt). */
   bool (*ld_tile)(void *user, unsigned lane, uint32_t pixel,
                   uint32_t conversion, unsigned comps,
                   enum pan_sim_regfmt *regfmt, uint32_t out[4], char *err);
   /* ST_TILE: the lane's four colour registers to the tile buffer at
    * `pixel` (as LD_TILE's) in the register format the conversion word
    * names, converted as it says, when the coverage has the sample's
    * bit. */
   bool (*st_tile)(void *user, unsigned lane, uint32_t pixel,
                   uint32_t coverage, uint32_t conversion,
                   const uint32_t in[4], char *err);
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
   /* ATEST: the samples alpha to coverage leaves the lane for the alpha
    * (binary32 bits), which also spare them the depth/stencil updates
    * (NULL: alpha to coverage off, every sample). */
   uint32_t (*alpha_coverage)(void *user, unsigned lane, uint32_t alpha);
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
