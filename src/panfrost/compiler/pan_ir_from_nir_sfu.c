/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: exp2, log2, sin and cos as sequences of the special-function
 * steps (the same steps the stock v9 compiler uses, chained our way).
 * Accuracy, checked on the Valhall interpreter by pan_va_gfx_test.c:
 * exp2 and log2 within a few ulps, sin and cos within 3e-5 absolute for
 * |x| <= 100 (docs/drivers/panfrost/compiler.rst).
 */

#include "pan_ir_from_nir_priv.h"

#define F32_ONE 0x3f800000u
#define F32_MINUS_ONE 0xbf800000u
#define F32_NEG_ZERO 0x80000000u
#define F32_PI 0x40490fdbu          /* in the hardware table */
#define F32_ONE_OVER_PI 0x3ea2f983u /* in the hardware table */
/* 1.5 * 2^18: its ulp is 1/32, so x / pi + this rounds x to a multiple of
 * pi / 32 whose index (mod 64) lands in the low 6 bits. */
#define F32_SINCOS_BIAS 0x48c00000u

/* log2(x) = e + (m - 1) * log2(m) / (m - 1), x = m * 2^e. */
static pan_ir_index
emit_log2(pan_ir_builder *b, pan_ir_index x)
{
   pan_ir_index e = pan_ir_s2f32(b, pan_ir_frexpe_log(b, x));
   pan_ir_index m_minus_1 = pan_ir_fadd_lscale(b, pan_ir_imm(F32_MINUS_ONE), x);
   return pan_ir_fma(b, pan_ir_flogd(b, x), m_minus_1, e);
}

/* 2^x from x in 8.24 fixed point (x * 2^24 rounded to an integer). */
static pan_ir_index
emit_exp2(pan_ir_builder *b, pan_ir_index x)
{
   pan_ir_index scaled = pan_ir_fma_rscale(
      b, x, pan_ir_imm(F32_ONE), pan_ir_imm(F32_NEG_ZERO), pan_ir_imm(24));
   return pan_ir_fexp(b, pan_ir_f2s32_rte(b, scaled), scaled);
}

/*
 * sin / cos: x = k * pi / 32 + d with |d| <= pi / 64; the tables give
 * f(k pi / 32) and f'(k pi / 32), and the second-order Taylor step
 * f + d f' - d^2 / 2 f adds the rest.
 */
static pan_ir_index
emit_sincos(pan_ir_builder *b, pan_ir_index x, bool cos)
{
   pan_ir_index biased = pan_ir_fma(b, x, pan_ir_imm(F32_ONE_OVER_PI),
                                    pan_ir_imm(F32_SINCOS_BIAS));
   pan_ir_index k_over_32 =
      pan_ir_fadd(b, biased, pan_ir_fneg(pan_ir_imm(F32_SINCOS_BIAS)));
   pan_ir_index d =
      pan_ir_fma(b, k_over_32, pan_ir_fneg(pan_ir_imm(F32_PI)), x);
   pan_ir_index s = pan_ir_fsin_table(b, biased);
   pan_ir_index c = pan_ir_fcos_table(b, biased);
   pan_ir_index f = cos ? c : s;
   pan_ir_index df = cos ? pan_ir_fneg(s) : c;
   pan_ir_index half_d2 = pan_ir_fma_rscale(b, d, d, pan_ir_imm(F32_NEG_ZERO),
                                            pan_ir_imm(0xffffffffu));
   pan_ir_index quad =
      pan_ir_fma(b, pan_ir_fneg(half_d2), f, pan_ir_imm(F32_NEG_ZERO));
   return pan_ir_fadd(b, pan_ir_fma(b, d, df, quad), f);
}

pan_ir_index
pan_ir_from_nir_sfu(pan_ir_builder *b, nir_op op, pan_ir_index x)
{
   switch (op) {
   case nir_op_flog2:
      return emit_log2(b, x);
   case nir_op_fexp2:
      return emit_exp2(b, x);
   case nir_op_fsin:
   case nir_op_fcos:
      return emit_sincos(b, x, op == nir_op_fcos);
   default:
      return pan_ir_null();
   }
}
