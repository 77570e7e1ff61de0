/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Graphics message instructions of the Bifrost interpreter, the forms the
 * stock compiler emits for vertex and fragment shaders:
 *    LD_ATTR_IMM   attribute load, vertex id and instance id in sources
 *                  0 and 1, converted to the register format
 *    LEA_ATTR_IMM  address and conversion word of a varying slot
 *    ST_CVT        format-converting store (address in sources 0/1,
 *                  conversion word in source 2); fragment helper lanes'
 *                  are dropped
 *    LD_VAR_IMM, LD_VAR_FLAT_IMM  interpolated / flat varying (and the
 *                  forms with the index in their last source register,
 *                  as LD_ATTR and LEA_ATTR)
 *    ATEST         coverage after the alpha test: Bifrost has no alpha
 *                  test, the coverage (source 0) passes through, cut to
 *                  the alpha's (source 1, binary32) mask with alpha to
 *                  coverage on
 *    BLEND         colour to a render target (descriptor in sources 1, 2);
 *                  in shader mode a call (pan_sim_bi_call.c), its result
 *                  the return value the descriptor gives
 *    LD_TILE       tile-buffer read of a blend shader (pixel indices,
 *                  coverage, conversion word in sources 0-2)
 *    ST_TILE       tile-buffer write of the same operands (the stock
 *                  compiler's multisampled blend shaders)
 *    DISCARD.F32   ends the lanes whose comparison holds
 *    LOAD.ubo      uniform buffer load: byte offset in source 0, buffer
 *                  index in source 1
 * Staging registers start at the clause header's data register.  The
 * descriptor work is the executor's (pan_sim_bi_gfx.h); without it (a
 *    LD_VAR_SPECIAL  gl_PointCoord (v2), fragment 1/w or z, at the
 *                  lane's pixel, as f32 or packed f16 (the form with a
 *                  register format; explicit sample positions refused)
 * compute job) these instructions fault.
 *    ZS_EMIT       depth (source 0) and stencil (source 1, low byte)
 *                  tested late by the executor as d9 says (bit 0 stencil,
 *                  bit 1 depth; 0 reserved), the coverage (source 2)
 *                  coming back with the failing lanes' bit 0 cleared
 * Attribute loads without a register format stay refused; textures are pan_sim_bi_msg_tex.c's, atomics
 * pan_sim_bi_msg_image.c's.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_fp.h"

static unsigned
vecsize(const struct pan_sim_bi_ins *ins)
{
   int v = pan_sim_bi_mod(ins, "vecsize");
   return v < 0 ? 1 : (unsigned)v + 1;
}

static bool
is_imm_form(const struct pan_sim_bi_ins *ins, const char *name)
{
   return !strcmp(ins->op->name, name);
}

/* Whether this file executes ins (decided from the word alone). */
static bool
claims(const struct pan_sim_bi_ins *ins)
{
   switch (ins->sem->family) {
   case BI_FAM_ATEST:
   case BI_FAM_BLEND:
   case BI_FAM_LD_TILE:
   case BI_FAM_ST_TILE:
   case BI_FAM_DISCARD:
   case BI_FAM_ST_CVT:
      return true;
   case BI_FAM_ZS_EMIT:
      return pan_sim_bi_mod(ins, "d9") > 0;
   case BI_FAM_LD_ATTR:
      /* Loads need an explicit register format. */
      return (is_imm_form(ins, "ld_attr_imm") || is_imm_form(ins, "ld_attr")) &&
             pan_sim_bi_mod(ins, "register_format") >= 0;
   case BI_FAM_LEA_ATTR:
      return is_imm_form(ins, "lea_attr_imm") || is_imm_form(ins, "lea_attr");
   case BI_FAM_LD_VAR:
      if (is_imm_form(ins, "ld_var_special")) {
         /* d3: the varying name (1 is reserved); d10: sample and update
          * mode, 3 and 13 are explicit sample positions, 5-7, 14 and 15
          * reserved. */
         int name = pan_sim_bi_mod(ins, "d3"), mode = pan_sim_bi_mod(ins, "d10");
         return pan_sim_bi_mod(ins, "register_format") >= 0 && name != 1 &&
                mode != 3 && mode != 13 && !(mode >= 5 && mode <= 7) &&
                mode < 14;
      }
      return is_imm_form(ins, "ld_var_imm") ||
             is_imm_form(ins, "ld_var_flat_imm") ||
             is_imm_form(ins, "ld_var") || is_imm_form(ins, "ld_var_flat");
   case BI_FAM_LOAD:
      return pan_sim_bi_mod_is(ins, "seg", "ubo") &&
             pan_sim_bi_mod(ins, "lane_dest") < 0;
   default:
      return false;
   }
}

static unsigned
staging_reg(const struct pan_sim_bi_ctx *c)
{
   return (unsigned)(c->clause->header >> 18) & 63;
}

static enum bi_sim_result
gfx_fail(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
         unsigned lane, const char *err)
{
   return pan_sim_bi_fault(c, ins, "lane %u: %s", lane, err);
}

static enum bi_sim_result
exec_load(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
          const struct pan_sim_bi_gfx *g)
{
   bool attr = ins->sem->family == BI_FAM_LD_ATTR;
   bool lea = ins->sem->family == BI_FAM_LEA_ATTR;
   bool flat =
      is_imm_form(ins, "ld_var_flat_imm") || is_imm_form(ins, "ld_var_flat");
   /* Register forms take the index from their last source. */
   bool reg_index = !ins->op->nr_imms;
   unsigned index_src = ins->op->nr_srcs - 1;
   enum pan_sim_regfmt regfmt =
      pan_sim_regfmt_named(pan_sim_bi_mod_str(ins, "register_format", NULL));
   unsigned comps = lea ? 3 : vecsize(ins);
   unsigned n = lea ? 3 : pan_sim_regfmt_words(regfmt, comps);
   unsigned sr = staging_reg(c);
   int index = pan_sim_bi_imm(ins, attr || lea ? "attribute_index" : "index");
   char err[PAN_SIM_BI_GFX_ERR_LEN] = "";

   /* Flat loads copy the format's natural registers (AUTO); an
    * interpolated load must say how to round. */
   if (regfmt == PAN_SIM_REG_AUTO && !lea && !flat)
      return pan_sim_bi_fault(c, ins,
                              "varying load without a register "
                              "format");
   if (pan_sim_bi_staging_ok(c, ins, sr, n))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      uint32_t out[4] = { 0 };
      bool ok;
      if (reg_index)
         index = (int)pan_sim_bi_src(c, ins, index_src, l);
      if (attr || lea) {
         uint32_t vertex = pan_sim_bi_src(c, ins, 0, l);
         uint32_t instance = pan_sim_bi_src(c, ins, 1, l);
         ok = attr ? g->ld_attr(g->user, (unsigned)index, vertex, instance,
                                regfmt, comps, out, err)
                   : g->lea_attr(g->user, (unsigned)index, vertex, instance,
                                 regfmt, out, err);
      } else {
         ok = g->ld_var(g->user, l, (unsigned)index, flat, regfmt, comps, out,
                        err);
      }
      if (!ok)
         return gfx_fail(c, ins, l, err);
      memcpy(&c->w->r[l][sr], out, n * 4);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_special(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
             const struct pan_sim_bi_gfx *g)
{
   unsigned which = (unsigned)pan_sim_bi_mod(ins, "d3");
   bool f16 = pan_sim_bi_mod_is(ins, "register_format", "f16");
   unsigned comps = which == 0 ? 2 : 1;
   unsigned n = f16 ? 1 : comps, sr = staging_reg(c);

   if (pan_sim_bi_staging_ok(c, ins, sr, n))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      char err[PAN_SIM_BI_GFX_ERR_LEN] = "";
      float v[2] = { 0, 0 };
      uint32_t out[2] = { 0, 0 };
      if (!g->ld_var_special(g->user, l, which, v, err))
         return gfx_fail(c, ins, l, err);
      for (unsigned k = 0; k < comps; ++k) {
         if (f16)
            out[0] |= pan_sim_fp_round_f64(v[k], PAN_SIM_ROUND_RTE, 5, 10)
                      << (16 * k);
         else
            memcpy(&out[k], &v[k], 4);
      }
      memcpy(&c->w->r[l][sr], out, n * 4);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_st_cvt(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
            const struct pan_sim_bi_gfx *g)
{
   unsigned comps = vecsize(ins), sr = staging_reg(c);
   char err[PAN_SIM_BI_GFX_ERR_LEN] = "";

   if (pan_sim_bi_staging_ok(c, ins, sr, comps))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      uint64_t addr = pan_sim_bi_src(c, ins, 0, l) |
                      (uint64_t)pan_sim_bi_src(c, ins, 1, l) << 32;
      uint32_t conv = pan_sim_bi_src(c, ins, 2, l);
      if (bi_sim_helper(c, l))
         continue; /* the hardware drops a helper lane's image store */
      if (!g->st_cvt(g->user, addr, conv, comps, &c->w->r[l][sr], err))
         return gfx_fail(c, ins, l, err);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_blend(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
           const struct pan_sim_bi_gfx *g)
{
   unsigned sr = staging_reg(c);
   char err[PAN_SIM_BI_GFX_ERR_LEN] = "";

   if (pan_sim_bi_staging_ok(c, ins, sr, 4))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      uint64_t desc = pan_sim_bi_src(c, ins, 1, l) |
                      (uint64_t)pan_sim_bi_src(c, ins, 2, l) << 32;
      struct pan_sim_bi_blend_call call = { 0 };
      if (!g->blend(g->user, l, desc, pan_sim_bi_src(c, ins, 0, l),
                    &c->w->r[l][sr], &call, err))
         return gfx_fail(c, ins, l, err);
      if (!call.call)
         continue;
      /* The return value is BLEND's result; the call waits for the end of
       * the clause (pan_sim_bi_call.c). */
      if (!c->cfg->code_at)
         return pan_sim_bi_fault(c, ins, "blend shader call with no code "
                                         "to call");
      c->res[l] = call.ret;
      c->calls |= 1u << l;
      c->call_va[l] = ((c->cfg->program_va + c->clause_pc) &
                       ~0xffffffffull) | call.pc;
   }
   return BI_SIM_OK;
}

/* LD_TILE: the register format is the conversion's, which the executor
 * reads; the staging registers get what it gives. */
static enum bi_sim_result
exec_ld_tile(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
             const struct pan_sim_bi_gfx *g)
{
   unsigned comps = vecsize(ins), sr = staging_reg(c);

   bi_foreach_lane(c, l)
   {
      char err[PAN_SIM_BI_GFX_ERR_LEN] = "";
      enum pan_sim_regfmt regfmt = PAN_SIM_REG_F32;
      uint32_t out[4] = { 0 };
      if (!g->ld_tile(g->user, l, pan_sim_bi_src(c, ins, 0, l),
                      pan_sim_bi_src(c, ins, 2, l), comps, &regfmt, out, err))
         return gfx_fail(c, ins, l, err);
      unsigned n = pan_sim_regfmt_words(regfmt, comps);
      if (pan_sim_bi_staging_ok(c, ins, sr, n))
         return BI_SIM_FAULT;
      memcpy(&c->w->r[l][sr], out, n * 4);
   }
   return BI_SIM_OK;
}

/* ST_TILE: four staging registers in the conversion's register format
 * (the executor's), pixel indices, coverage and conversion word in
 * sources 0-2. */
static enum bi_sim_result
exec_st_tile(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
             const struct pan_sim_bi_gfx *g)
{
   unsigned sr = staging_reg(c);

   if (sr + 4 > PAN_SIM_BI_REGS)
      return pan_sim_bi_fault(c, ins, "staging r%u..r%u beyond r63", sr,
                              sr + 3);
   bi_foreach_lane(c, l)
   {
      char err[PAN_SIM_BI_GFX_ERR_LEN] = "";
      if (!g->st_tile(g->user, l, pan_sim_bi_src(c, ins, 0, l),
                      pan_sim_bi_src(c, ins, 1, l),
                      pan_sim_bi_src(c, ins, 2, l), &c->w->r[l][sr], err))
         return gfx_fail(c, ins, l, err);
   }
   return BI_SIM_OK;
}

static unsigned
load_size_B(const struct pan_sim_bi_ins *ins)
{
   switch (ins->sem->src_type) {
   case BI_TYPE_I8:
      return 1;
   case BI_TYPE_I16:
      return 2;
   case BI_TYPE_I32:
      return 4;
   case BI_TYPE_I64:
      return 8;
   case BI_TYPE_I96:
      return 12;
   case BI_TYPE_I128:
      return 16;
   default:
      return 0;
   }
}

static enum bi_sim_result
exec_ubo(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
         const struct pan_sim_bi_gfx *g)
{
   unsigned size = load_size_B(ins), sr = staging_reg(c);
   char err[PAN_SIM_BI_GFX_ERR_LEN] = "";

   if (!size)
      return pan_sim_bi_fault(c, ins, "load size not modelled");
   if (pan_sim_bi_staging_ok(c, ins, sr, (size + 3) / 4))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      uint8_t buf[16] = { 0 };
      if (!g->ubo(g->user, pan_sim_bi_src(c, ins, 1, l),
                  pan_sim_bi_src(c, ins, 0, l), size, buf, err))
         return gfx_fail(c, ins, l, err);
      uint32_t *r = &c->w->r[l][sr];
      if (size < 4) {
         uint32_t v = size == 1 ? buf[0] : (uint32_t)(buf[0] | buf[1] << 8);
         r[0] = pan_sim_bi_mod_is(ins, "extend", "sext")
                   ? bi_sim_sext(v, size * 8)
                   : v;
      } else {
         memcpy(r, buf, size);
      }
   }
   return BI_SIM_OK;
}

static bool
discard_cmp(const char *cmpf, float a, float b)
{
   if (!strcmp(cmpf, "eq"))
      return a == b;
   if (!strcmp(cmpf, "ne"))
      return a != b;
   if (!strcmp(cmpf, "lt"))
      return a < b;
   return a <= b;
}

static enum bi_sim_result
exec_discard(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const char *cmpf = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   uint16_t ended = 0;

   bi_foreach_lane(c, l)
   {
      uint32_t a = pan_sim_bi_src(c, ins, 0, l),
               b = pan_sim_bi_src(c, ins, 1, l);
      float fa, fb;
      memcpy(&fa, &a, 4);
      memcpy(&fb, &b, 4);
      if (discard_cmp(cmpf, fa, fb))
         ended |= 1u << l;
   }
   /* A discarded lane stops here: it takes no further part in the
    * clause and writes nothing more. */
   c->exec &= ~ended;
   c->w->live &= ~ended;
   c->w->discarded |= ended;
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_zs_emit(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
             const struct pan_sim_bi_gfx *g)
{
   unsigned d9 = (unsigned)pan_sim_bi_mod(ins, "d9"), sr = staging_reg(c);

   if (pan_sim_bi_staging_ok(c, ins, sr, 1))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      char err[PAN_SIM_BI_GFX_ERR_LEN] = "";
      uint32_t zbits = pan_sim_bi_src(c, ins, 0, l);
      uint32_t cov = pan_sim_bi_src(c, ins, 2, l);
      float depth;
      memcpy(&depth, &zbits, 4);
      if (!g->zs_emit(g->user, l, d9 & 2, depth, d9 & 1,
                      (uint8_t)pan_sim_bi_src(c, ins, 1, l), &cov, err))
         return gfx_fail(c, ins, l, err);
      c->res[l] = cov;
      c->w->r[l][sr] = cov;
   }
   return BI_SIM_OK;
}

enum bi_sim_result
pan_sim_bi_exec_msg_gfx(struct pan_sim_bi_ctx *c,
                        const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;

   unsigned fam = ins->sem->family;
   if (fam == BI_FAM_DISCARD)
      return exec_discard(c, ins);
   if (fam == BI_FAM_ATEST) {
      /* The result goes to the staging register and, as the tuple's
       * result, wherever the register block writes it. */
      unsigned sr = staging_reg(c);
      if (pan_sim_bi_staging_ok(c, ins, sr, 1))
         return BI_SIM_FAULT;
      const struct pan_sim_bi_gfx *ag = c->cfg->gfx;
      bi_foreach_lane(c, l)
      {
         c->res[l] = pan_sim_bi_src(c, ins, 0, l);
         if (ag && ag->alpha_coverage)
            c->res[l] &=
               ag->alpha_coverage(ag->user, l, pan_sim_bi_src(c, ins, 1, l));
         c->w->r[l][sr] = c->res[l];
      }
      return BI_SIM_OK;
   }

   const struct pan_sim_bi_gfx *g = c->cfg->gfx;
   if (!g)
      return pan_sim_bi_fault(c, ins,
                              "graphics message outside a vertex "
                              "or fragment job");
   switch (fam) {
   case BI_FAM_ST_CVT:
      return g->st_cvt ? exec_st_cvt(c, ins, g)
                       : pan_sim_bi_fault(c, ins, "no varying stores here");
   case BI_FAM_BLEND:
      return g->blend ? exec_blend(c, ins, g)
                      : pan_sim_bi_fault(c, ins, "no render target here");
   case BI_FAM_LD_TILE:
      return g->ld_tile ? exec_ld_tile(c, ins, g)
                        : pan_sim_bi_fault(c, ins, "no tile buffer here");
   case BI_FAM_ST_TILE:
      return g->st_tile ? exec_st_tile(c, ins, g)
                        : pan_sim_bi_fault(c, ins, "no tile buffer here");
   case BI_FAM_ZS_EMIT:
      return g->zs_emit ? exec_zs_emit(c, ins, g)
                        : pan_sim_bi_fault(c, ins, "depth/stencil output "
                                                   "outside a fragment job");
   case BI_FAM_LOAD:
      return g->ubo ? exec_ubo(c, ins, g)
                    : pan_sim_bi_fault(c, ins, "no uniform buffers here");
   case BI_FAM_LD_ATTR:
   case BI_FAM_LEA_ATTR:
      if (!g->ld_attr || !g->lea_attr)
         return pan_sim_bi_fault(c, ins, "no attributes here");
      return exec_load(c, ins, g);
   default:
      if (is_imm_form(ins, "ld_var_special"))
         return g->ld_var_special
                   ? exec_special(c, ins, g)
                   : pan_sim_bi_fault(c, ins, "no special varyings here");
      if (!g->ld_var)
         return pan_sim_bi_fault(c, ins, "no varyings here");
      return exec_load(c, ins, g);
   }
}
