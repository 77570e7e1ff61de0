/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image messages of the Valhall interpreter, the forms the stock compiler
 * emits for GLSL images (texture descriptors of a resource table):
 *    LD_TEX_IMM, LD_TEX    texel load into the written staging vector,
 *                  converted to the register format
 *    LEA_TEX_IMM, LEA_TEX  the texel's address (two words) and conversion
 *                  word into the written staging vector; atomics then go
 *                  through the address (pan_sim_va_msg.c)
 *    ST_CVT        converting store of the read staging vector to the
 *                  address in source 0 (plus the offset immediate) as the
 *                  conversion word in source 1 says (none from fragment
 *                  helper lanes)
 * Source 0 holds x (bits 0-15) and y (bits 16-31), the high half of source
 * 1 z (a 3D slice or an array layer).  The immediate forms name the
 * resource table and index; the register forms take a handle from source
 * 2 (table in the top byte, index below).  The descriptor work is the
 * executor's (pan_sim_img.h); without it these fault.
 */

#include <string.h>

#include "pan_sim_img.h"
#include "pan_sim_va_priv.h"

static bool
named(const struct pan_sim_va_ins *ins, const char *name)
{
   return !strcmp(ins->op->name, name);
}

static enum va_sim_result
st_cvt(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   const struct pan_sim_image_ops *img = c->cfg->image;
   int v = pan_sim_va_mod(ins, "vecsize");
   unsigned comps = v < 0 ? 1 : (unsigned)v + 1, reg, count;

   if (!img || !img->store)
      return pan_sim_va_refuse(c, ins, "converting stores without images");
   pan_sim_va_staging(ins, 0, &reg, &count);
   if (count < comps)
      return pan_sim_va_fault(c, ins, "%u staging registers read, %u needed",
                              count, comps);
   foreach_lane(c, l)
   {
      char err[PAN_SIM_IMAGE_ERR_LEN] = "";
      uint64_t addr = pan_sim_va_src64(c, ins, 0, l) +
                      (uint64_t)pan_sim_va_imm(ins, "offset");
      if (va_sim_helper(c, l))
         continue; /* the hardware drops a helper lane's image store */
      if (!img->store(img->user, addr, pan_sim_va_src32(c, ins, 1, l), comps,
                      &c->w->r[l][reg], err))
         return pan_sim_va_fault(c, ins, "lane %u: %s", l, err);
   }
   return VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_msg_image(struct pan_sim_va_ctx *c,
                          const struct pan_sim_va_ins *ins)
{
   if (named(ins, "st_cvt"))
      return st_cvt(c, ins);

   bool imm = named(ins, "ld_tex_imm") || named(ins, "lea_tex_imm");
   bool lea = named(ins, "lea_tex_imm") || named(ins, "lea_tex");

   if (!imm && !named(ins, "ld_tex") && !named(ins, "lea_tex"))
      return VA_SIM_UNCLAIMED;

   const struct pan_sim_image_ops *img = c->cfg->image;
   enum pan_sim_regfmt regfmt =
      pan_sim_regfmt_named(pan_sim_va_mod_str(ins, "regfmt", NULL));
   int v = pan_sim_va_mod(ins, "vecsize");
   unsigned comps = v < 0 ? 1 : (unsigned)v + 1;
   unsigned n = lea ? 3 : pan_sim_regfmt_words(regfmt, comps);
   unsigned reg, count;

   if (!img || !img->address || !img->load)
      return pan_sim_va_refuse(c, ins, "images without resource tables");
   pan_sim_va_staging(ins, 0, &reg, &count);
   if (count < n)
      return pan_sim_va_fault(c, ins,
                              "%u staging registers written, %u "
                              "needed",
                              count, n);
   foreach_lane(c, l)
   {
      char err[PAN_SIM_IMAGE_ERR_LEN] = "";
      uint32_t xy = pan_sim_va_src32(c, ins, 0, l), out[4] = { 0 };
      uint32_t coord[3] = { xy & 0xffff, xy >> 16,
                            pan_sim_va_src32(c, ins, 1, l) >> 16 };
      unsigned table, index;
      pan_sim_va_table_index(c, ins, imm, l, &table, &index);
      bool ok =
         lea ? img->address(img->user, table, index, coord, regfmt, out, err)
             : img->load(img->user, table, index, coord, regfmt, comps, out,
                         err);
      if (!ok)
         return pan_sim_va_fault(c, ins, "lane %u: %s", l, err);
      memcpy(&c->w->r[l][reg], out, n * 4);
   }
   return VA_SIM_OK;
}
