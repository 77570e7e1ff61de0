/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard messages that need job-level state: attribute loads (ld_attr_*),
 * varying loads and stores (ld_vary_*, st_vary_*) and texture words.  The
 * interpreter decodes the word and its registers; the values come from the
 * executor through struct pan_sim_mid_gfx.
 *
 * Operand encoding (as the stock compiler emits them): the 18-bit offset
 * holds the attribute index above bit 9 and, for ld_vary, the
 * interpolation parameters in bits 0-8 (bits 0-2 a modifier such as the
 * perspective divisions, bit 3 flat); bit 1 of the index format selects
 * the varying table for ld_attr/st_vary.  Stores read r26/r27.
 */

#include "pan_sim_mid_priv.h"

#include <stdio.h>
#include <string.h>

#include "pan_sim_fp.h"

#define ATTR_INDEX_SHIFT 9
#define VARY_MODIFIER_MASK 0x7
#define VARY_FLAT_BIT (1u << 3)
#define LDST_ZERO_OPERAND 7 /* address/index operand reading zero */

static bool
regfmt_of(const char *sfx, enum pan_sim_mid_regfmt *fmt)
{
   static const char *const names[] = { "32", "16", "32u", "32i" };
   for (unsigned i = 0; i < 4; i++) {
      if (!strcmp(sfx, names[i])) {
         *fmt = (enum pan_sim_mid_regfmt)i;
         return true;
      }
   }
   return false;
}

/* Written components take loaded words through the swizzle, as ld_. */
static void
write_loaded(struct mid_exec *x, const struct pan_mid_instr *I,
             const uint32_t v[4])
{
   uint32_t *d = mid_write_reg(x, mid_f(I, "reg"));
   unsigned mask = mid_f(I, "mask"), swz = mid_f(I, "swz");
   for (unsigned c = 0; c < 4; c++) {
      if (mask & (1u << c))
         d[c] = v[(swz >> (2 * c)) & 3];
   }
}

bool
mid_exec_attr(struct mid_exec *x, const struct pan_mid_instr *I, const char *op)
{
   const struct pan_sim_mid_gfx *g = x->cfg->gfx;
   char err[PAN_SIM_MID_GFX_ERR_LEN] = "";
   enum pan_sim_mid_regfmt fmt;
   bool ld_vary = !strncmp(op, "ld_vary_", 8);
   bool st = !strncmp(op, "st_vary_", 8);

   if (!regfmt_of(op + 8, &fmt))
      return mid_fault(x->t, "%s: unknown register format", op);
   /* Register operands (indirect indices, explicit vertices) are not
    * modelled: both must be the zero operand. */
   if (mid_f(I, "areg") != LDST_ZERO_OPERAND ||
       mid_f(I, "ireg") != LDST_ZERO_OPERAND)
      return mid_fault(x->t,
                       "%s: register-indexed attributes/varyings are "
                       "not simulated",
                       op);

   unsigned offset = (unsigned)mid_f(I, "offset") & 0x3ffff;
   unsigned index = offset >> ATTR_INDEX_SHIFT;
   bool varying_table = (mid_f(I, "ifmt") >> 1) & 1;
   uint32_t v[4] = { 0 };
   bool ok;

   if (ld_vary) {
      if (offset & VARY_MODIFIER_MASK)
         return mid_fault(x->t,
                          "%s: varying modifier %u (perspective "
                          "division, cube map) is not simulated",
                          op, offset & VARY_MODIFIER_MASK);
      if (!g || !g->ld_vary)
         return mid_fault(x->t, "%s: no varying source configured", op);
      ok = g->ld_vary(g->user, index, offset & VARY_FLAT_BIT, fmt, v, err);
   } else if (st) {
      unsigned reg = mid_f(I, "reg");
      if (reg > 1)
         return mid_fault(x->t, "%s: data register %u is not r26/r27", op, reg);
      const uint32_t *s = mid_read_reg(x, 26 + reg);
      unsigned swz = mid_f(I, "swz");
      for (unsigned c = 0; c < 4; c++)
         v[c] = s[(swz >> (2 * c)) & 3];
      if (!g || !g->st_vary)
         return mid_fault(x->t, "%s: no varying sink configured", op);
      ok = g->st_vary(g->user, varying_table, index, fmt, mid_f(I, "mask"), v,
                      err);
      if (ok)
         return true;
   } else {
      if (!g || !g->ld_attr)
         return mid_fault(x->t, "%s: no attribute source configured", op);
      ok = g->ld_attr(g->user, varying_table, index, fmt, v, err);
   }
   if (!ok)
      return mid_fault(x->t, "%s %u: %s", op, index, err);
   write_loaded(x, I, v);
   return true;
}

/* r28/r29 operand of a texture word (full 32-bit registers only): the
 * inputs ALU and load/store words wrote, not the texture results.  Cores
 * without texture registers read r26/r27 instead. */
static const uint32_t *
tex_reg(struct mid_exec *x, bool select)
{
   if (x->cfg->tex_aliasing)
      return x->t->r[MID_REG_LDST + select];
   return x->t->tex_in[select];
}

bool
mid_exec_tex(struct mid_exec *x, const struct pan_mid_instr *I, unsigned tag)
{
   const struct pan_sim_mid_gfx *g = x->cfg->gfx;
   char err[PAN_SIM_MID_GFX_ERR_LEN] = "";
   unsigned value;
   const char *op = pan_mid_instr_op(I, &value, NULL);

   if (!op)
      return mid_fault(x->t, "unknown texture operation %u", value);
   if (strcmp(op, "normal") && strcmp(op, "fetch"))
      return mid_fault(x->t, "texture operation %s is not simulated", op);
   unsigned mode = mid_f(I, "mode");
   if (mode != 1 && mode != 5)
      return mid_fault(x->t,
                       "texture %s: mode %u (gathers) is not "
                       "simulated",
                       op, mode);
   if (mid_f(I, "sreg") || mid_f(I, "treg"))
      return mid_fault(x->t,
                       "texture %s: register-indexed textures and "
                       "samplers are not simulated",
                       op);
   if (mid_f(I, "offreg") || mid_f(I, "off"))
      return mid_fault(x->t, "texture %s: texel offsets are not simulated", op);
   if (!mid_f(I, "infull"))
      return mid_fault(x->t,
                       "texture %s: 16-bit coordinates are not "
                       "simulated",
                       op);
   if (mid_f(I, "omod"))
      return mid_fault(x->t,
                       "texture %s: output modifiers are not "
                       "simulated",
                       op);
   if (mid_f(I, "stype") != 1)
      return mid_fault(x->t,
                       "texture %s: integer sampler types are not "
                       "simulated",
                       op);

   struct pan_sim_mid_tex req = {
      .op = op,
      .vertex = tag == 2,
      .dim = mid_f(I, "dim"),
      .shadow = mode == 5,
      .texture = mid_f(I, "texture"),
      .sampler = mid_f(I, "sampler"),
   };
   const uint32_t *in = tex_reg(x, mid_f(I, "insel"));
   unsigned inswz = mid_f(I, "inswz");
   for (unsigned c = 0; c < 4; c++)
      req.coords[c] = in[(inswz >> (2 * c)) & 3];

   unsigned bias = mid_f(I, "bias");
   int bias_int = (int)(int64_t)mid_f(I, "biasi");
   if (mid_f(I, "lodreg")) {
      /* bias is a register select: full, r28/r29, upper half, component. */
      if (!(bias & 1))
         return mid_fault(x->t,
                          "texture %s: 16-bit LOD register is not "
                          "simulated",
                          op);
      uint32_t w = tex_reg(x, (bias >> 1) & 1)[(bias >> 3) & 3];
      req.lod = strcmp(op, "fetch") ? pan_sim_fp_f32(w) : (float)(int32_t)w;
   } else if (!strcmp(op, "fetch")) {
      req.lod = bias; /* the level as an integer */
   } else {
      req.lod = bias_int + bias / 256.0f;
   }

   if (!g || !g->tex)
      return mid_fault(x->t, "texture %s: no texture unit configured", op);
   uint32_t res[4];
   if (!g->tex(g->user, &req, res, err))
      return mid_fault(x->t, "texture %s: %s", op, err);

   /* Results go to r28/r29 (r0/r1 without texture registers) through the
    * output swizzle and mask, as 32-bit words or (without outfull) as f16
    * lanes of the low or upper half. */
   unsigned out = x->cfg->tex_aliasing ? 0 : MID_REG_TEX;
   uint32_t *d = x->t->r[out + mid_f(I, "outsel")];
   unsigned mask = mid_f(I, "mask"), swz = mid_f(I, "swz");
   bool full = mid_f(I, "outfull"), upper = mid_f(I, "outupper");
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      uint32_t r = res[(swz >> (2 * c)) & 3];
      if (full) {
         d[c] = r;
      } else {
         unsigned lane = c + (upper ? 4 : 0);
         uint32_t h = pan_sim_fp_f32_to_f16(r, PAN_SIM_ROUND_RTE);
         uint32_t *w = &d[lane / 2];
         unsigned sh = (lane & 1) * 16;
         *w = (*w & ~(0xffffu << sh)) | h << sh;
      }
   }
   return true;
}
