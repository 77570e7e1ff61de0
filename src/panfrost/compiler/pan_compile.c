/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The compiler pipeline, top to bottom: NIR lowering, NIR -> IR, IR
 * passes, Valhall legalization, register allocation, emission.  In debug
 * builds the IR is validated after every pass.
 */

#include <limits.h>

#include "util/u_math.h"

#include "pan_compile.h"
#include "pan_compile_priv.h"
#include "pan_ir_from_nir.h"
#include "isa/pan_isa_va.h"
#include "pan_va.h"
#include "pan_nir_fixpoint.h"

const nir_shader_compiler_options pan_va_nir_options = {
   /* Float ops Valhall has no instruction for, as ALU sequences. */
   .lower_fsat = true, .lower_flrp32 = true, .lower_fpow = true,
   .lower_fdiv = true, .lower_fmod = true, .lower_fsqrt = true,
   .lower_ffract = true, .lower_fsign = true, .lower_isign = true,
   .lower_fdph = true, .lower_scmp = true, .lower_ldexp = true,
   /* Integer and bit ops, as shifts, masks and adds. */
   .lower_bitops = true, .lower_uadd_carry = true, .lower_usub_borrow = true,
   .lower_uadd_sat = true, .lower_usub_sat = true, .lower_iadd_sat = true,
   .lower_extract_byte = true, .lower_extract_word = true,
   .lower_insert_byte = true, .lower_insert_word = true,
   /* No pack/unpack instructions: NIR spells every format out in ALU */
   .lower_pack_half_2x16 = true, .lower_unpack_half_2x16 = true,
   .lower_pack_unorm_2x16 = true, .lower_unpack_unorm_2x16 = true,
   .lower_pack_snorm_2x16 = true, .lower_unpack_snorm_2x16 = true,
   .lower_pack_unorm_4x8 = true, .lower_unpack_unorm_4x8 = true,
   .lower_pack_snorm_4x8 = true, .lower_unpack_snorm_4x8 = true,
   .use_interpolated_input_intrinsics = true,
   /* The driver hands compute shaders these options: GL uniforms must
    * arrive as constant buffer 0, which it reads through global memory. */
   .lower_uniforms_to_ubo = true,
   .fuse_ffma32 = false, /* keep a * b + c rounded twice, as written */
   /* Loops with a constant trip count are unrolled (as the stock compiler
    * does): their UBO reads get constant offsets and are pushed. */
   .max_unroll_iterations = 32,
};

static bool
lower_scalar_filter(const nir_instr *instr, const void *data)
{
   return instr->type == nir_instr_type_alu &&
          !nir_op_is_vec(nir_instr_as_alu(instr)->op);
}

static bool
scalarise(nir_shader *nir)
{
   return nir_lower_alu_to_scalar(nir, lower_scalar_filter, NULL);
}

/* Scalar ALU and clean-up, run together until nothing changes. */
static const pan_nir_pass pan_nir_cleanup[] = {
   scalarise,         nir_copy_prop,  nir_opt_dce,     nir_opt_cse,
   nir_opt_constant_folding, nir_opt_algebraic, nir_opt_dead_cf,
   nir_opt_loop_unroll,
};

/* x / 2^n as x >> n and x % 2^n as x & (2^n - 1), unsigned: NIR's own
 * rules for them are off under lower_bitops, which the options set, and
 * nir_lower_idiv would otherwise spell a reciprocal sequence. */
static bool
udiv_pow2(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_alu)
      return false;
   nir_alu_instr *alu = nir_instr_as_alu(instr);
   if ((alu->op != nir_op_udiv && alu->op != nir_op_umod) ||
       alu->dest.dest.ssa.num_components != 1 ||
       !nir_src_is_const(alu->src[1].src))
      return false;
   uint64_t d = nir_src_comp_as_uint(alu->src[1].src, alu->src[1].swizzle[0]);
   if (!d || !util_is_power_of_two_or_zero64(d))
      return false;

   unsigned bits = alu->dest.dest.ssa.bit_size;
   b->cursor = nir_before_instr(instr);
   nir_ssa_def *x = nir_ssa_for_alu_src(b, alu, 0);
   nir_ssa_def *r = alu->op == nir_op_udiv
                       ? nir_ushr_imm(b, x, util_logbase2_64(d))
                       : nir_iand(b, x, nir_imm_intN_t(b, d - 1, bits));
   nir_ssa_def_rewrite_uses(&alu->dest.dest.ssa, r);
   nir_instr_remove(instr);
   return true;
}

/* Indexed temporaries larger than this go to thread storage.  At 256
 * bytes, the 126 ints glsl-1.30's varying-packing-mixed-types writes to a
 * temporary and copies to the packed outputs at the end no longer fit the
 * registers once loaded back from storage; as selects they do. */
#define PAN_SCRATCH_MIN_B 1024

void
pan_compile_lower_scratch(nir_shader *nir)
{
   /* A temporary array of more than PAN_SCRATCH_MIN_B bytes indexed at
    * run time lives in thread storage (load_scratch/store_scratch): as
    * selects, each access would test every element and a store write
    * them all (glsl-fs-giant-temp-array's 512 words took minutes and
    * gigabytes).  Smaller ones stay in registers. */
   NIR_PASS_V(nir, nir_lower_var_copies);
   NIR_PASS_V(nir, nir_lower_vars_to_scratch, nir_var_function_temp,
              PAN_SCRATCH_MIN_B, glsl_get_natural_size_align_bytes);
}

/* The NIR passes the slice needs, once: SSA, scalar ALU (the slice selects
 * scalar instructions only), then clean-up to a fixed point. */
static void
lower_nir(nir_shader *nir)
{
   /* Whatever options the driver's frontend used: no integer divide or
    * high multiply here (nir_lower_idiv spells division with a float
    * reciprocal and multiplies, nir_lower_alu the high half in 16-bit
    * pieces), and iabs becomes a max. */
   const nir_shader_compiler_options *options = nir->options;
   nir_shader_compiler_options ours = *options;
   ours.lower_mul_high = true;
   ours.lower_iabs = true;
   nir->options = &ours;
   pan_nir_lower_shared(nir);
   pan_compile_lower_scratch(nir);
   /* The smaller indexed temporaries become selects of their elements
    * (graphics stages did so in pan_va_lower_gfx_nir already; compute
    * shaders come with them since PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR). */
   NIR_PASS_V(nir, nir_lower_indirect_derefs, nir_var_function_temp,
              UINT32_MAX);
   NIR_PASS_V(nir, nir_lower_vars_to_ssa);
   NIR_PASS_V(nir, nir_lower_phis_to_scalar, true);
   /* Clean-up first, so that constant divisors are known: a division by a
    * power of two becomes a shift and a remainder a mask. */
   pan_nir_fixpoint(nir, pan_nir_cleanup, ARRAY_SIZE(pan_nir_cleanup),
                    UINT_MAX);
   NIR_PASS_V(nir, nir_shader_instructions_pass, udiv_pow2,
              nir_metadata_block_index | nir_metadata_dominance, NULL);
   NIR_PASS_V(nir, nir_lower_idiv, &(nir_lower_idiv_options){0});
   NIR_PASS_V(nir, nir_lower_alu);
   pan_nir_fixpoint(nir, pan_nir_cleanup, ARRAY_SIZE(pan_nir_cleanup),
                    UINT_MAX);
   /* Graphics stages fuse a * b + c (GLSL allows it for values not marked
    * precise, which NIR keeps exact); compute keeps the two roundings, so
    * the interpreter tests compare bit for bit with C. */
   ours.fuse_ffma32 = nir->info.stage != MESA_SHADER_COMPUTE;
   NIR_PASS_V(nir, nir_opt_algebraic_late);
   NIR_PASS_V(nir, nir_copy_prop);
   NIR_PASS_V(nir, nir_opt_dce);
   nir->options = options;
}

#ifndef NDEBUG
#define VALIDATE(s, what)                                                      \
   do {                                                                        \
      char verr[192];                                                          \
      if (!pan_ir_validate(s, verr, sizeof(verr))) {                           \
         snprintf(err, err_size, "invalid IR after %s: %s", what, verr);       \
         goto fail;                                                            \
      }                                                                        \
   } while (0)
#else
#define VALIDATE(s, what)
#endif

#define PASS(s, pass, what)                                                    \
   do {                                                                        \
      pass;                                                                    \
      if (print_ir) {                                                          \
         fprintf(print_ir, "-- after %s\n", what);                             \
         pan_ir_print_shader(print_ir, s);                                     \
      }                                                                        \
      VALIDATE(s, what);                                                       \
   } while (0)

/* The register file the shader needs: n when only r0..n-1 (n <= 16) hold
 * values, 32 when the others sit in r48-r63 (the half file, twice the
 * threads), 64 when any sits in r16-r47. */
static unsigned
work_regs(pan_ir_shader *s, const uint8_t *regs)
{
   uint64_t used = 0;
   pan_ir_foreach_instr_global(s, b, I)
   {
      /* Preloads are the hardware's registers, not ours. */
      if (I->dest.kind == PAN_IR_SSA && I->op != PAN_IR_OP_PRELOAD)
         used |= BITFIELD64_MASK(I->dest.comps) << regs[I->dest.value];
   }
   if (used & BITFIELD64_RANGE(PAN_VA_HALF_GAP_FIRST, PAN_VA_HALF_GAP_COUNT))
      return PAN_VA_NR_REGS;
   if (used >> (PAN_VA_HALF_GAP_FIRST + PAN_VA_HALF_GAP_COUNT))
      return PAN_VA_HALF_REGS;
   return util_last_bit64(used);
}

/* Where each render target's BLEND has its colour and coverage, for the
 * blend shaders it may call. */
void
pan_compile_blend_regs(pan_ir_shader *s, const uint8_t *regs,
                       struct pan_blend_regs out[8])
{
   memset(out, 0xff, 8 * sizeof(out[0]));
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op != PAN_IR_OP_BLEND || (I->imm & 0x200))
         continue;
      unsigned rt = I->imm & 0xff;
      if (rt >= 8 || I->src[0].kind != PAN_IR_SSA)
         continue;
      out[rt].colour = regs[I->src[0].value] + I->src[0].comp;
      if (I->src[3].kind == PAN_IR_SSA)
         out[rt].colour1 = regs[I->src[3].value] + I->src[3].comp;
      if (I->src[2].kind == PAN_IR_SSA)
         out[rt].coverage = regs[I->src[2].value] + I->src[2].comp;
   }
}

bool
pan_va_compile(nir_shader *nir, void *mem_ctx, struct pan_va_binary *out,
               FILE *print_ir, char *err, size_t err_size)
{
   return pan_va_compile_opts(nir, mem_ctx, NULL, out, print_ir, err, err_size);
}

bool
pan_va_compile_opts(nir_shader *nir, void *mem_ctx,
                    const struct pan_va_compile_options *opts,
                    struct pan_va_binary *out, FILE *print_ir, char *err,
                    size_t err_size)
{
   bool fold = !(opts && opts->no_fau_fold);
   void *tmp = ralloc_context(NULL);
   *out = (struct pan_va_binary){ 0 };

   enum pan_va_variant variant = opts ? opts->variant : PAN_VA_VARIANT_DEFAULT;
   if (nir->info.stage != MESA_SHADER_COMPUTE &&
       nir->info.stage != MESA_SHADER_VERTEX &&
       nir->info.stage != MESA_SHADER_FRAGMENT) {
      snprintf(err, err_size, "%s shaders are unsupported",
               _mesa_shader_stage_to_string(nir->info.stage));
      goto fail;
   }
   if (nir->info.stage != MESA_SHADER_COMPUTE)
      pan_va_lower_gfx_nir(nir, variant);
   lower_nir(nir);
   nir_foreach_function (f, nir) {
      if (f->impl)
         nir_foreach_block (blk, f->impl) {
            nir_cf_node *n = blk->cf_node.parent;
            if (n->type == nir_cf_node_loop &&
                nir_loop_first_block(nir_cf_node_as_loop(n)) == blk)
               out->loops++;
         }
   }

   const struct pan_va_blend_options *blend = opts ? opts->blend : NULL;
   pan_ir_shader *s =
      blend ? pan_ir_from_nir_blend(tmp, nir, blend, err, err_size)
            : pan_ir_from_nir(tmp, nir, out, err, err_size);
   if (!s)
      goto fail;
   PASS(s, (void)0, "from_nir");
   PASS(s, pan_va_lower_shared(s), "va_lower_shared");
   PASS(s, pan_va_lower_image(s), "va_lower_image");
   PASS(s, pan_va_lower_scratch(s), "va_lower_scratch");
   PASS(s, pan_ir_opt_copy_prop(s), "copy_prop");
   PASS(s, pan_ir_opt_collect(s), "opt_collect");
   PASS(s, pan_ir_opt_cse(s), "opt_cse");
   PASS(s, pan_ir_opt_dce(s), "dce");
   PASS(s, pan_ir_lower_phis(s), "lower_phis");
   /* Blend shaders run on their caller's uniforms: nothing is pushed. */
   PASS(s,
        pan_va_legalize(s, fold,
                        nir->info.stage == MESA_SHADER_COMPUTE || blend
                           ? NULL
                           : out),
        "va_legalize");
   PASS(s, pan_ir_opt_sink(s), "opt_sink");

   struct pan_va_spill_stats spill;
   /* A blend shader keeps to r0-r15, which its caller leaves it (and the
    * r48 link); a final one, which the caller ends with, may take the half
    * file too: it runs in the caller's thread, whose declared file may
    * lack r16-r47. */
   unsigned max_regs = blend && !blend->last ? 16
                       : blend               ? PAN_VA_HALF_REGS
                       : opts                ? opts->max_regs
                                             : 0;
   uint8_t *regs = pan_va_ra_pressure(s, max_regs, &spill, err, err_size);
   if (!regs)
      goto fail;
   if (print_ir && spill.spills)
      PASS(s, (void)0, "spilling");
   if (blend && spill.spills) {
      snprintf(err, err_size, "the blend shader does not fit in %s",
               blend->last ? "the registers" : "r0-r15");
      goto fail;
   }
   pan_compile_blend_regs(s, regs, out->blend_regs);
   out->tls_size = spill.tls_size;
   out->spills = spill.spills;
   out->fills = spill.fills;
   out->work_regs = work_regs(s, regs);
   if (!pan_va_emit(s, regs, mem_ctx, &out->words, &out->nr_words, err,
                    err_size)) {
      ralloc_free(out->words);
      *out = (struct pan_va_binary){ 0 };
      goto fail;
   }
   if (print_ir) {
      fprintf(print_ir, "-- Valhall\n");
      pan_va_disassemble(out->words, out->nr_words * 8, print_ir, true, NULL,
                         0);
   }
   ralloc_free(tmp);
   return true;

fail:
   ralloc_free(tmp);
   return false;
}

void
pan_compile_lower_nir(nir_shader *nir)
{
   lower_nir(nir);
}

unsigned
pan_compile_work_regs(pan_ir_shader *s, const uint8_t *regs)
{
   return work_regs(s, regs);
}
