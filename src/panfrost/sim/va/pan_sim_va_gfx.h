/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Graphics messages of the Valhall interpreter (pan_sim_va_msg_gfx.c), the
 * counterpart of the Bifrost pan_sim_bi_gfx.h: the interpreter decodes the
 * instruction and moves registers; everything that needs descriptors
 * (resource tables, the vertex being shaded, the primitive under a pixel,
 * render targets) is the executor's, reached through these callbacks.  A
 * callback returns false after writing why into err (at most
 * PAN_SIM_VA_GFX_ERR_LEN bytes); the instruction then faults with it.
 */

#ifndef PAN_SIM_VA_GFX_H
#define PAN_SIM_VA_GFX_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "../pan_sim_regfmt.h"

/* LD_VAR_SPECIAL's index immediate. */
enum pan_sim_va_special_var {
   PAN_SIM_VA_VAR_POINT = 0, /* gl_PointCoord (v2) */
   PAN_SIM_VA_VAR_FRAG_W = 2,
   PAN_SIM_VA_VAR_FRAG_Z = 3,
};

#define PAN_SIM_VA_GFX_ERR_LEN 160

struct pan_sim_va_gfx {
   void *user;
   /* LD_ATTR_IMM / LD_ATTR: components [0, comps) of attribute `index` of
    * resource table `table` for the vertex and instance ids the shader
    * passes, converted to regfmt (16-bit formats pack two a word). */
   bool (*ld_attr)(void *user, unsigned table, unsigned index,
                   uint32_t vertex, uint32_t instance,
                   enum pan_sim_regfmt regfmt, unsigned comps,
                   uint32_t out[4], char *err);
   /* LEA_BUF_IMM: the address a lane stores its vertex outputs at, from
    * the value the hardware preloaded (`linear`). */
   bool (*lea_buf)(void *user, unsigned lane, unsigned table, unsigned index,
                   uint32_t linear, uint64_t *addr, char *err);
   /* LD_VAR_BUF(_IMM): comps components at byte `offset` of the vertex
    * packets of the lane's primitive, stored as binary32 (src16 false) or
    * binary16, interpolated (or the provoking vertex's raw bits when
    * flat), into f32 or f16 (out16) registers. */
   bool (*ld_var_buf)(void *user, unsigned lane, uint32_t offset, bool flat,
                      bool src16, bool out16, unsigned comps, uint32_t out[4],
                      char *err);
   /* LD_VAR_IMM / LD_VAR_FLAT_IMM: comps components of the varying that
    * attribute `index` of resource table `table` describes, read for the
    * vertices of the lane's primitive and interpolated (the provoking
    * vertex's when flat) into f32 or f16 (out16) registers. */
   bool (*ld_var_table)(void *user, unsigned lane, unsigned table,
                        unsigned index, bool flat, bool out16, unsigned comps,
                        uint32_t out[4], char *err);
   /* LD_VAR_SPECIAL: gl_PointCoord, 1/w or z at the lane's pixel, as
    * binary32. */
   bool (*ld_var_special)(void *user, unsigned lane,
                          enum pan_sim_va_special_var which, float out[2],
                          char *err);
   /* BLEND: colour registers to the render target the 64-bit internal
    * blend descriptor names, when coverage bit 0 is set.  *call: the
    * descriptor asks for a blend shader instead, which the instructions
    * after the BLEND call (nothing is written). */
   bool (*blend)(void *user, unsigned lane, uint64_t descriptor,
                 uint32_t coverage, enum pan_sim_regfmt regfmt,
                 const uint32_t in[4], bool *call, char *err);
   /* LD_TILE: sample (pixel bits 0-7) of render target (bits 8-15) at the
    * lane's pixel, converted by the internal conversion descriptor into
    * comps components of register format regfmt. */
   bool (*ld_tile)(void *user, unsigned lane, uint32_t pixel,
                   uint32_t conversion, enum pan_sim_regfmt regfmt,
                   unsigned comps, uint32_t out[4], char *err);
   /* ST_TILE: the colour (four components of register format regfmt) to
    * the sample and render target the pixel indices name at the lane's
    * pixel, converted by the internal conversion descriptor, when the
    * coverage has that sample's bit. */
   bool (*st_tile)(void *user, unsigned lane, uint32_t pixel,
                   uint32_t coverage, uint32_t conversion,
                   enum pan_sim_regfmt regfmt, const uint32_t in[4],
                   char *err);
   /* ZS_EMIT: the late depth/stencil test of the lane with the depth
    * (when z) and stencil reference (when stencil) the shader gives, in
    * place of the rasterised ones; *coverage (the instruction's input) is
    * left with bit 0 cleared when the test fails. */
   bool (*zs_emit)(void *user, unsigned lane, bool z, float depth,
                   bool stencil, uint8_t stencil_ref, uint32_t *coverage,
                   char *err);
   /* LD_BUFFER: size bytes at byte offset of buffer `index` of resource
    * table `table` (uniform buffers). */
   bool (*ld_buffer)(void *user, unsigned table, uint32_t index,
                     uint32_t offset, unsigned size, void *out, char *err);
   /* ATEST: the samples alpha to coverage leaves the lane for the alpha
    * (binary32 bits), which also spare them the depth/stencil updates
    * (NULL: alpha to coverage off, every sample). */
   uint32_t (*alpha_coverage)(void *user, unsigned lane, uint32_t alpha);
};

#ifdef __cplusplus
}
#endif

#endif
