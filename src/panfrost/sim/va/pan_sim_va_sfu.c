/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Special-function families of the Valhall interpreter, the steps of the
 * compiler's exp2/log2/sin/cos sequences: fma_rscale, fexp, fadd_lscale,
 * flogd, fsin_table, fcos_table.  Modelled as exact functions rounded once
 * (see pan_sim_sfu.h and docs/drivers/panfrost/simulator-valhall.rst).
 * Also the cube-map steps (pan_sim_cube.h).
 */

#include "pan_sim_cube.h"
#include "pan_sim_sfu.h"
#include "pan_sim_va_priv.h"

static uint32_t
one(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
    unsigned lane)
{
   const char *clamp = pan_sim_va_mod_str(ins, "clamp", "none");

   switch (ins->sem->family) {
   case VA_FAM_FMA_RSCALE:
      return pan_sim_sfu_fma_rscale(pan_sim_va_fsrc(c, ins, 0, lane, 0, 32),
                                    pan_sim_va_fsrc(c, ins, 1, lane, 0, 32),
                                    pan_sim_va_fsrc(c, ins, 2, lane, 0, 32),
                                    (int32_t)pan_sim_va_src32(c, ins, 3, lane),
                                    PAN_SIM_ROUND_RTE, clamp);
   case VA_FAM_FEXP:
      return pan_sim_sfu_fma_rscale(
         pan_sim_sfu_fexp((int32_t)pan_sim_va_src32(c, ins, 0, lane),
                          pan_sim_va_fsrc(c, ins, 1, lane, 0, 32)),
         1, -0.0, 0, PAN_SIM_ROUND_RTE, clamp);
   case VA_FAM_FADD_LSCALE: {
      int e;
      double b = pan_sim_va_fsrc(c, ins, 1, lane, 0, 32);
      double m = copysign(pan_sim_sfu_log_split(b, &e), b);
      return pan_sim_sfu_add(pan_sim_va_fsrc(c, ins, 0, lane, 0, 32), m, clamp);
   }
   case VA_FAM_FLOGD:
      return pan_sim_sfu_fma_rscale(
         pan_sim_sfu_flogd(pan_sim_va_fsrc(c, ins, 0, lane, 0, 32)), 1, -0.0, 0,
         PAN_SIM_ROUND_RTE, "none");
   default: /* fsin_table, fcos_table */
      return pan_sim_sfu_fma_rscale(
         pan_sim_sfu_sincos_table(pan_sim_va_src32(c, ins, 0, lane),
                                  ins->sem->family == VA_FAM_FCOS_TABLE),
         1, -0.0, 0, PAN_SIM_ROUND_RTE, "none");
   }
}

static uint32_t
exact32(double v)
{
   return pan_sim_sfu_fma_rscale(v, 1, -0.0, 0, PAN_SIM_ROUND_RTE, "none");
}

/* cubeface1/2, cube_ssel/tsel: sources are binary32 with abs/neg. */
static enum va_sim_result
cube(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   unsigned fam = ins->sem->family;
   uint32_t out[PAN_SIM_VA_LANES];

   foreach_lane(c, l)
   {
      double a = pan_sim_va_fsrc(c, ins, 0, l, 0, 32);
      double b = pan_sim_va_fsrc(c, ins, 1, l, 0, 32);
      if (fam == VA_FAM_CUBEFACE1 || fam == VA_FAM_CUBEFACE2) {
         double z = pan_sim_va_fsrc(c, ins, 2, l, 0, 32);
         out[l] = fam == VA_FAM_CUBEFACE2
                     ? pan_sim_cube_face_word(a, b, z)
                     : exact32(pan_sim_cube_major(a, b, z));
         continue;
      }
      unsigned face = pan_sim_cube_face_of(pan_sim_va_src32(c, ins, 2, l));
      if (face > 5)
         return pan_sim_va_fault(c, ins,
                                 "lane %u: face index %u is no cube "
                                 "face",
                                 l, face);
      out[l] = exact32(fam == VA_FAM_CUBE_SSEL ? pan_sim_cube_ssel(a, b, face)
                                               : pan_sim_cube_tsel(a, b, face));
   }
   foreach_lane(c, l) pan_sim_va_dest32(c, ins, l, out[l]);
   return VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_sfu(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   switch (ins->sem->family) {
   case VA_FAM_FMA_RSCALE:
   case VA_FAM_FEXP:
   case VA_FAM_FADD_LSCALE:
   case VA_FAM_FLOGD:
   case VA_FAM_FSIN_TABLE:
   case VA_FAM_FCOS_TABLE:
      break;
   case VA_FAM_CUBEFACE1:
   case VA_FAM_CUBEFACE2:
   case VA_FAM_CUBE_SSEL:
   case VA_FAM_CUBE_TSEL:
      return cube(c, ins);
   default:
      return VA_SIM_UNCLAIMED;
   }
   foreach_lane(c, l)
   {
      uint32_t r = one(c, ins, l);
      pan_sim_va_dest32(c, ins, l, c->cfg->flush_f32 ? pan_sim_fp_ftz32(r) : r);
   }
   return VA_SIM_OK;
}
