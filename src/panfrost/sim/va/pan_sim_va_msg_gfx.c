/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Graphics message instructions of the Valhall interpreter, the forms the
 * stock compiler emits for malloc-IDVS vertex shaders and for fragment
 * shaders on v9:
 *    LD_ATTR_IMM, LD_ATTR  attribute load (vertex id, instance id in
 *                  sources 0 and 1; the register form's index in source 2)
 *    LEA_BUF_IMM   where the lane's vertex outputs go (source 0 is the
 *                  preloaded linear id, possibly offset by the shader)
 *    LD_VAR_BUF_IMM, LD_VAR_BUF  varying at a byte offset of the vertex
 *                  packets, interpolated or flat as the source format says
 *    LD_VAR_SPECIAL  point coordinate, fragment 1/w and z
 *    LD_BUFFER     uniform buffer load (offset in source 0, the buffer in
 *                  the low byte of the mode word in source 1)
 *    ATEST         coverage (source 0) passes, cut to the alpha's
 *                  (source 1, binary32) mask with alpha to coverage on
 *    BLEND         colour to a render target; on the fixed-function path
 *                  it then branches `target` instructions past the next,
 *                  with a blend shader it goes on into the call
 *    LD_TILE       a render target's sample read from the tile buffer
 *                  (blend shaders' destination colour)
 *    ST_TILE       a sample written to it (the stock compiler's
 *                  multisampled blend shaders)
 * Everything needing descriptors goes through the executor's callbacks
 * (pan_sim_va_gfx.h); without them (compute jobs) these fault.  The
 *    ZS_EMIT       depth (source 0, binary32) and stencil (source 1, low
 *                  byte) tested late by the executor, as the z and
 *                  stencil modifiers ask; the coverage (source 2) comes
 *                  back with the failing lanes' bit 0 cleared
 * The LD_VAR forms with a register index and LEA_ATTR are refused by
 * name; ST_CVT and the image messages are
 * pan_sim_va_msg_image.c's.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_va_gfx.h"
#include "pan_sim_va_priv.h"

static unsigned
comps_of(const struct pan_sim_va_ins *ins)
{
   int v = pan_sim_va_mod(ins, "vecsize");
   return v < 0 ? 1 : (unsigned)v + 1;
}

static bool
named(const struct pan_sim_va_ins *ins, const char *name)
{
   return !strcmp(ins->op->name, name);
}

static bool
named_prefix(const struct pan_sim_va_ins *ins, const char *prefix)
{
   return !strncmp(ins->op->name, prefix, strlen(prefix));
}

static enum pan_sim_regfmt
regfmt_of(const struct pan_sim_va_ins *ins)
{
   return pan_sim_regfmt_named(pan_sim_va_mod_str(ins, "regfmt", NULL));
}

/* Writes n words to staging vector 0 of the lane. */
static enum va_sim_result
put(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins, unsigned lane,
    const uint32_t *v, unsigned n)
{
   unsigned reg, count;
   pan_sim_va_staging(ins, 0, &reg, &count);
   if (count < n)
      return pan_sim_va_fault(c, ins, "staging vector too short");
   memcpy(&c->w->r[lane][reg], v, n * 4);
   return VA_SIM_OK;
}

static enum va_sim_result
failed(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
       unsigned lane, const char *err)
{
   return pan_sim_va_fault(c, ins, "lane %u: %s", lane, err);
}

void
pan_sim_va_table_index(const struct pan_sim_va_ctx *c,
                       const struct pan_sim_va_ins *ins, bool imm,
                       unsigned lane, unsigned *table, unsigned *index)
{
   if (imm) {
      *table = (unsigned)pan_sim_va_imm(ins, "table");
      *index = (unsigned)pan_sim_va_imm(ins, "index");
   } else {
      /* Resource handle: table in the top byte, index below. */
      uint32_t h = pan_sim_va_src32(c, ins, 2, lane);
      *table = h >> 24;
      *index = h & 0xffffff;
   }
}

static enum va_sim_result
ld_attr(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const struct pan_sim_va_gfx *g)
{
   enum pan_sim_regfmt f = regfmt_of(ins);
   unsigned comps = comps_of(ins);
   bool imm = named(ins, "ld_attr_imm");

   if (!imm && !named(ins, "ld_attr"))
      return pan_sim_va_refuse(c, ins, "texture-table attribute loads");
   if (f == PAN_SIM_REG_AUTO || !g->ld_attr)
      return pan_sim_va_refuse(c, ins, f == PAN_SIM_REG_AUTO
                                          ? "attribute loads without a "
                                            "register format"
                                          : "attributes outside a vertex "
                                            "shader");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t out[4] = { 0 };
      unsigned table, index;
      pan_sim_va_table_index(c, ins, imm, l, &table, &index);
      if (!g->ld_attr(g->user, table, index, pan_sim_va_src32(c, ins, 0, l),
                      pan_sim_va_src32(c, ins, 1, l), f, comps, out, err))
         return failed(c, ins, l, err);
      if (put(c, ins, l, out, pan_sim_regfmt_words(f, comps)))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
lea_buf(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const struct pan_sim_va_gfx *g)
{
   if (!g->lea_buf)
      return pan_sim_va_refuse(c, ins, "vertex outputs outside a vertex "
                                       "shader");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint64_t addr;
      if (!g->lea_buf(g->user, l, (unsigned)pan_sim_va_imm(ins, "table"),
                      (unsigned)pan_sim_va_imm(ins, "index"),
                      pan_sim_va_src32(c, ins, 0, l), &addr, err))
         return failed(c, ins, l, err);
      uint32_t v[2] = { (uint32_t)addr, (uint32_t)(addr >> 32) };
      if (put(c, ins, l, v, 2))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

/* LD_VAR_IMM / LD_VAR_FLAT_IMM: varyings through attribute descriptors
 * (shaders compiled without IDVS, such as the stock driver's pre-frame
 * shaders), into f32 or f16 registers. */
static enum va_sim_result
ld_var_table(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
             const struct pan_sim_va_gfx *g)
{
   enum pan_sim_regfmt f = regfmt_of(ins);
   unsigned comps = comps_of(ins);
   bool flat = named(ins, "ld_var_flat_imm");

   if (!g->ld_var_table || (f != PAN_SIM_REG_F32 && f != PAN_SIM_REG_F16))
      return pan_sim_va_refuse(c, ins, g->ld_var_table
                                          ? "table varyings into this "
                                            "register format"
                                          : "table varyings outside a "
                                            "fragment shader");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t out[4] = { 0 };
      if (!g->ld_var_table(g->user, l, (unsigned)pan_sim_va_imm(ins, "table"),
                           (unsigned)pan_sim_va_imm(ins, "index"), flat,
                           f == PAN_SIM_REG_F16, comps, out, err))
         return failed(c, ins, l, err);
      if (put(c, ins, l, out, pan_sim_regfmt_words(f, comps)))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
ld_var(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
       const struct pan_sim_va_gfx *g)
{
   unsigned comps = comps_of(ins);

   if (named(ins, "ld_var_special")) {
      int which = (int)pan_sim_va_imm(ins, "index");
      enum pan_sim_regfmt f = regfmt_of(ins);
      if (!g->ld_var_special || (f != PAN_SIM_REG_F32 &&
                                 f != PAN_SIM_REG_F16) ||
          (which != PAN_SIM_VA_VAR_POINT && which != PAN_SIM_VA_VAR_FRAG_W &&
           which != PAN_SIM_VA_VAR_FRAG_Z))
         return pan_sim_va_refuse(c, ins, "this special varying");
      foreach_lane(c, l)
      {
         char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
         float v[2];
         uint32_t out[2] = { 0, 0 };
         if (!g->ld_var_special(g->user, l, (enum pan_sim_va_special_var)which,
                                v, err))
            return failed(c, ins, l, err);
         unsigned n = which == PAN_SIM_VA_VAR_POINT ? (comps < 2 ? comps : 2)
                                                    : 1;
         for (unsigned k = 0; k < n; ++k) {
            if (f == PAN_SIM_REG_F32)
               memcpy(&out[k], &v[k], 4);
            else
               out[0] |= pan_sim_fp_round_f64(v[k], PAN_SIM_ROUND_RTE, 5, 10)
                         << (16 * k);
         }
         if (put(c, ins, l, out, f == PAN_SIM_REG_F32 ? n : 1))
            return VA_SIM_FAULT;
      }
      return VA_SIM_OK;
   }
   if (named(ins, "ld_var_imm") || named(ins, "ld_var_flat_imm"))
      return ld_var_table(c, ins, g);
   if (!named_prefix(ins, "ld_var_buf"))
      return pan_sim_va_refuse(c, ins, "table varyings with a register "
                                       "index");
   const char *src = pan_sim_va_mod_str(ins, "srcfmt", "src_f32");
   bool flat = !strncmp(src, "src_flat", 8);
   bool src16 = !strcmp(src + strlen(src) - 2, "16");
   bool out16 = !strcmp(ins->op->name + strlen(ins->op->name) - 4, ".f16");
   bool imm = named_prefix(ins, "ld_var_buf_imm");
   if (!g->ld_var_buf)
      return pan_sim_va_refuse(c, ins, "varyings outside a fragment shader");

   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t out[4] = { 0 };
      uint32_t offset = imm ? (uint32_t)pan_sim_va_imm(ins, "index")
                            : pan_sim_va_src32(c, ins, 1, l);
      if (!g->ld_var_buf(g->user, l, offset, flat, src16, out16, comps, out,
                         err))
         return failed(c, ins, l, err);
      if (put(c, ins, l, out, out16 ? (comps + 1) / 2 : comps))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
ld_buffer(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
          const struct pan_sim_va_gfx *g)
{
   unsigned bytes = va_types[ins->sem->dtype].bits / 8;

   if (!g->ld_buffer)
      return pan_sim_va_refuse(c, ins, "buffers without a resource table");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t mode = pan_sim_va_src32(c, ins, 1, l);
      uint32_t out[4] = { 0 };
      unsigned reg, count;
      if (mode >> 25)
         return pan_sim_va_refuse(c, ins, "loads of buffer descriptors");
      if (!g->ld_buffer(g->user, 0, mode & 0xff, pan_sim_va_src32(c, ins, 0, l),
                        bytes, out, err))
         return failed(c, ins, l, err);
      pan_sim_va_staging(ins, 0, &reg, &count);
      if (count * 4 < bytes)
         return pan_sim_va_fault(c, ins, "staging vector too short");
      memcpy(&c->w->r[l][reg], out, (bytes + 3) / 4 * 4);
   }
   return VA_SIM_OK;
}

static enum va_sim_result
atest(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
      const struct pan_sim_va_gfx *g)
{
   foreach_lane(c, l)
   {
      uint32_t cov = pan_sim_va_src32(c, ins, 0, l);
      if (g->alpha_coverage)
         cov &= g->alpha_coverage(g->user, l, pan_sim_va_src32(c, ins, 1, l));
      if (put(c, ins, l, &cov, 1))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
zs_emit(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const struct pan_sim_va_gfx *g)
{
   bool z = pan_sim_va_mod(ins, "z") == 1;
   bool s = pan_sim_va_mod(ins, "stencil") == 1;

   if (!g->zs_emit)
      return pan_sim_va_refuse(c, ins, "depth/stencil output outside a "
                                       "fragment shader");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t zbits = pan_sim_va_src32(c, ins, 0, l);
      uint32_t cov = pan_sim_va_src32(c, ins, 2, l);
      float depth;
      memcpy(&depth, &zbits, 4);
      if (!g->zs_emit(g->user, l, z, depth, s,
                      (uint8_t)pan_sim_va_src32(c, ins, 1, l), &cov, err))
         return failed(c, ins, l, err);
      if (put(c, ins, l, &cov, 1))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
blend(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
      const struct pan_sim_va_gfx *g)
{
   enum pan_sim_regfmt f = regfmt_of(ins);
   unsigned comps = comps_of(ins), reg, count;

   if (!g->blend)
      return pan_sim_va_refuse(c, ins, "blending outside a fragment shader");
   pan_sim_va_staging(ins, 0, &reg, &count);
   /* "auto": the descriptor's conversion says what the registers hold, so
    * hand over the whole staging vector and let the blend callback read
    * the format from the descriptor. */
   unsigned words =
      f == PAN_SIM_REG_AUTO ? (count < 4 ? count : 4)
                            : pan_sim_regfmt_words(f, comps);
   if (count < words)
      return pan_sim_va_fault(c, ins, "staging vector too short");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t in[4] = { 0 };
      memcpy(in, &c->w->r[l][reg], words * 4);
      if (f == PAN_SIM_REG_F16 && comps < 4)
         return pan_sim_va_refuse(c, ins, "blending fewer than 4 binary16 "
                                          "components");
      bool call = false;
      if (!g->blend(g->user, l, pan_sim_va_src64(c, ins, 0, l),
                    pan_sim_va_src32(c, ins, 1, l), f, in, &call, err))
         return failed(c, ins, l, err);
      /* A blend shader: go on into the call sequence that follows, even
       * from the last BLEND.  Fixed function: skip it. */
      if (call)
         c->keep |= 1u << l;
      else
         c->next[l] = c->pc + 1 + (uint32_t)pan_sim_va_imm(ins, "target");
   }
   return VA_SIM_OK;
}

/* LD_TILE: source 0 the pixel indices, 1 the coverage, 2 the internal
 * conversion descriptor. */
static enum va_sim_result
ld_tile(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const struct pan_sim_va_gfx *g)
{
   enum pan_sim_regfmt f = regfmt_of(ins);
   unsigned comps = comps_of(ins);

   if (!g->ld_tile)
      return pan_sim_va_refuse(c, ins, "tile reads outside a fragment shader");
   if (f == PAN_SIM_REG_AUTO)
      return pan_sim_va_refuse(c, ins, "tile reads without a register format");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t out[4] = { 0 };
      if (!g->ld_tile(g->user, l, pan_sim_va_src32(c, ins, 0, l),
                      pan_sim_va_src32(c, ins, 2, l), f, comps, out, err))
         return failed(c, ins, l, err);
      if (put(c, ins, l, out, pan_sim_regfmt_words(f, comps)))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

/* ST_TILE: the staging colour to the tile buffer; source 0 the pixel
 * indices, 1 the coverage, 2 the internal conversion descriptor. */
static enum va_sim_result
st_tile(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const struct pan_sim_va_gfx *g)
{
   enum pan_sim_regfmt f = regfmt_of(ins);
   unsigned comps = comps_of(ins), reg, count;

   if (!g->st_tile)
      return pan_sim_va_refuse(c, ins, "tile writes outside a fragment "
                                       "shader");
   if (f == PAN_SIM_REG_AUTO)
      return pan_sim_va_refuse(c, ins, "tile writes without a register "
                                       "format");
   pan_sim_va_staging(ins, 0, &reg, &count);
   unsigned words = pan_sim_regfmt_words(f, comps);
   if (count < words)
      return pan_sim_va_fault(c, ins, "staging vector too short");
   foreach_lane(c, l)
   {
      char err[PAN_SIM_VA_GFX_ERR_LEN] = "";
      uint32_t in[4] = { 0 };
      memcpy(in, &c->w->r[l][reg], words * 4);
      if (!g->st_tile(g->user, l, pan_sim_va_src32(c, ins, 0, l),
                      pan_sim_va_src32(c, ins, 1, l),
                      pan_sim_va_src32(c, ins, 2, l), f, in, err))
         return failed(c, ins, l, err);
   }
   return VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_msg_gfx(struct pan_sim_va_ctx *c,
                        const struct pan_sim_va_ins *ins)
{
   static const struct pan_sim_va_gfx none = { 0 };
   const struct pan_sim_va_gfx *g = c->cfg->gfx ? c->cfg->gfx : &none;

   switch (ins->sem->family) {
   case VA_FAM_LD_ATTR:
      return ld_attr(c, ins, g);
   case VA_FAM_LEA_BUF_IMM:
      return lea_buf(c, ins, g);
   case VA_FAM_LD_VAR:
      return ld_var(c, ins, g);
   case VA_FAM_LD_BUFFER:
      return ld_buffer(c, ins, g);
   case VA_FAM_ATEST:
      return atest(c, ins, g);
   case VA_FAM_BLEND:
      return blend(c, ins, g);
   case VA_FAM_LD_TILE:
      return ld_tile(c, ins, g);
   case VA_FAM_ST_TILE:
      return st_tile(c, ins, g);
   case VA_FAM_ZS_EMIT:
      return zs_emit(c, ins, g);
   default:
      return VA_SIM_UNCLAIMED;
   }
}
