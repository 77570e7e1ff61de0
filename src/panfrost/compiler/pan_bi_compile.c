/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Bifrost pipeline, top to bottom: the NIR lowering and IR passes the
 * Valhall back end uses too, Bifrost legalization, the shared register
 * allocator (64 registers on both architectures, the same compute
 * preloads r55..r62, spilling to thread storage: pan_bi_spill.c), clause
 * scheduling and packing.
 */

#include <string.h>

#include "isa/pan_isa_bi.h"
#include "pan_bi.h"
#include "pan_compile.h"
#include "pan_compile_priv.h"
#include "pan_ir_from_nir.h"
#include "pan_va.h"

static unsigned
count_loops(nir_shader *nir)
{
   unsigned n = 0;
   nir_foreach_function (f, nir) {
      if (!f->impl)
         continue;
      nir_foreach_block (blk, f->impl) {
         nir_cf_node *p = blk->cf_node.parent;
         n += p->type == nir_cf_node_loop &&
              nir_loop_first_block(nir_cf_node_as_loop(p)) == blk;
      }
   }
   return n;
}

/* The varying slots stored as integers (pan_bi_binary.int_varyings). */
static uint64_t
int_varyings(pan_ir_shader *s)
{
   uint64_t slots = 0;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_STORE_VARY && I->type == PAN_IR_TYPE_U32 &&
          I->imm / 16 < 64)
         slots |= 1ull << (I->imm / 16);
   }
   return slots;
}

/* Distinct hardware-preloaded registers the program reads. */
static unsigned
count_preloads(pan_ir_shader *s)
{
   uint64_t regs = 0;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_PRELOAD)
         regs |= 1ull << (I->imm & 63);
   }
   return __builtin_popcountll(regs);
}

static void
print_pass(FILE *fp, pan_ir_shader *s, const char *what)
{
   if (!fp)
      return;
   fprintf(fp, "-- after %s\n", what);
   pan_ir_print_shader(fp, s);
}

bool
pan_bi_compile(nir_shader *nir, void *mem_ctx,
               const struct pan_bi_compile_options *opts,
               struct pan_bi_binary *out, FILE *print_ir, char *err,
               size_t err_size)
{
   void *tmp = ralloc_context(NULL);
   bool ok = false;
   *out = (struct pan_bi_binary){ 0 };
   unsigned arch = opts && opts->arch ? opts->arch : 7;

   gl_shader_stage stage = nir->info.stage;
   if (stage != MESA_SHADER_COMPUTE && stage != MESA_SHADER_VERTEX &&
       stage != MESA_SHADER_FRAGMENT) {
      snprintf(err, err_size, "%s shaders are unsupported on Bifrost",
               _mesa_shader_stage_to_string(stage));
      goto done;
   }
   if (stage != MESA_SHADER_COMPUTE)
      pan_va_lower_gfx_nir(nir, opts ? opts->variant : PAN_VA_VARIANT_DEFAULT);
   pan_compile_lower_nir(nir);
   pan_bi_opt_nir(nir);
   out->loops = count_loops(nir);

   /* Graphics push words only; compute has none (nor blend shaders,
    * which run on their caller's). */
   const struct pan_va_blend_options *blend = opts ? opts->blend : NULL;
   struct pan_va_binary *va = rzalloc(tmp, struct pan_va_binary);
   pan_ir_shader *s =
      blend ? pan_ir_from_nir_blend(tmp, nir, blend, err, err_size)
            : pan_ir_from_nir(tmp, nir, va, err, err_size);
   if (!s)
      goto done;
   if (blend)
      pan_bi_lower_blend(s, blend);
   out->nr_push = va->nr_push;
   memcpy(out->push, va->push, sizeof(out->push));
   out->int_varyings = int_varyings(s);
   if (stage == MESA_SHADER_COMPUTE
          ? !pan_bi_lower_tex(s, err, err_size)
          : !pan_bi_lower_gfx(s, stage == MESA_SHADER_VERTEX, arch, err,
                              err_size))
      goto done;
   /* The hardware interpolates preloads at the sample position.  Under
    * per-sample shading that differs from the centre our loads use, which
    * GLSL allows for inputs without an interpolation qualifier ("may be
    * interpolated anywhere within the pixel"): only sample-qualified
    * loads keep theirs.  (uses_sample_shading alone is also set by a
    * shader that reads its outputs back, most of tesseract's.) */
   if (arch >= 7 && stage == MESA_SHADER_FRAGMENT && !blend &&
       !nir->info.fs.uses_sample_qualifier)
      pan_bi_message_preload(s, out->messages);
   pan_bi_lower_atomic(s);
   pan_ir_opt_copy_prop(s);
   pan_ir_opt_collect(s);
   pan_ir_opt_cse(s);
   pan_ir_opt_dce(s);
   /* After the preloads, which may take a lookup whole; after collect_opt
    * too, which leaves one coordinate value where NIR had copies. */
   if (stage == MESA_SHADER_FRAGMENT && !blend && pan_bi_dual_tex(s))
      pan_ir_opt_collect(s);
   pan_bi_opt_fold(s);
   pan_ir_lower_phis(s);
   pan_bi_pair_push(s, out->push, out->nr_push);
   print_pass(print_ir, s, "IR passes");
   if (!pan_bi_legalize(s, err, err_size))
      goto done;
   print_pass(print_ir, s, "bi_legalize");
#ifndef NDEBUG
   char verr[192];
   if (!pan_ir_validate(s, verr, sizeof(verr))) {
      snprintf(err, err_size, "invalid IR after bi_legalize: %s", verr);
      goto done;
   }
#endif

   struct pan_va_spill_stats spill;
   /* A blend shader keeps to r0-r15, which its caller leaves it (and the
    * r48 link); a final one, which the caller ends with, may take the half
    * file too: it runs in the caller's thread, whose declared file may
    * lack r16-r47. */
   unsigned max_regs = blend && !blend->last ? 16
                       : blend               ? PAN_VA_HALF_REGS
                       : opts                ? opts->max_regs
                                             : 0;
   uint8_t *regs = pan_va_ra(s, max_regs, arch >= 7, &spill, err, err_size);
   if (!regs)
      goto done;
   if (blend && spill.spills) {
      snprintf(err, err_size, "the blend shader does not fit in %s",
               blend->last ? "the registers" : "r0-r15");
      goto done;
   }
   pan_compile_blend_regs(s, regs, out->blend_regs);
   pan_bi_lower_spill(s);
   out->tls_size = spill.tls_size;
   out->spills = spill.spills;
   out->fills = spill.fills;
   out->work_regs = pan_compile_work_regs(s, regs);

   if (!pan_bi_emit(s, regs, mem_ctx, &out->words, &out->nr_words,
                    &out->stats, err, err_size))
      goto done;
   out->preloads = count_preloads(s);
   if (stage == MESA_SHADER_FRAGMENT && !blend &&
       !pan_bi_blend_returns(out->words, out->nr_words, out->blend_return)) {
      snprintf(err, err_size, "a BLEND whose render target the packed "
                              "program does not tell (blend shaders could "
                              "not return to it)");
      goto done;
   }
   if (print_ir) {
      fprintf(print_ir, "-- Bifrost\n");
      pan_bi_disassemble(out->words, out->nr_words * 8, print_ir, true, NULL,
                         0);
   }
   ok = true;
done:
   if (!ok)
      *out = (struct pan_bi_binary){ 0 };
   ralloc_free(tmp);
   return ok;
}
