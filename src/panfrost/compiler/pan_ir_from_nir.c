/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: blocks and control flow.  Each NIR block becomes one IR block
 * in the same layout order, so if/else and loops are laid out as NIR
 * nests them.  Edges come from the NIR successors:
 *
 *  - a block followed by an if branches to the else side when the
 *    condition is zero and falls through into the then side;
 *  - any other block falls through to its successor when that is the
 *    next block, and jumps otherwise (end of a then side, loop back edge,
 *    break, continue).
 *
 * Phis are created with their block's instructions and get their sources
 * once all edges exist, in the order of the IR predecessors.
 */

#include <stdarg.h>

#include "pan_ir_from_nir.h"
#include "pan_ir_from_nir_priv.h"

void
pan_ir_from_nir_error(struct pan_ir_from_nir *ctx, const char *fmt, ...)
{
   if (ctx->failed)
      return;
   ctx->failed = true;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(ctx->err, ctx->err_size, fmt, ap);
   va_end(ap);
}

bool
pan_ir_from_nir_check_32bit(struct pan_ir_from_nir *ctx,
                            nir_intrinsic_instr *intr, unsigned bits)
{
   if (bits == 32)
      return true;
   pan_ir_from_nir_error(ctx, "%s of %u-bit data is unsupported",
                         nir_intrinsic_infos[intr->intrinsic].name, bits);
   return false;
}

bool
pan_ir_from_nir_def_words(struct pan_ir_from_nir *ctx, const nir_ssa_def *def,
                          unsigned *words)
{
   if ((def->bit_size == 32 || def->bit_size == 1) && def->num_components <= 4)
      *words = def->num_components;
   else if (def->bit_size == 64 && def->num_components == 1)
      *words = 2;
   else {
      pan_ir_from_nir_error(ctx, "unsupported NIR value: %u x %u-bit",
                            def->num_components, def->bit_size);
      return false;
   }
   return true;
}

pan_ir_index
pan_ir_from_nir_src(struct pan_ir_from_nir *ctx, nir_src src)
{
   if (!src.is_ssa) {
      pan_ir_from_nir_error(ctx, "NIR register sources are not supported");
      return pan_ir_imm(0);
   }
   pan_ir_index v = ctx->values[src.ssa->index];
   if (v.kind == PAN_IR_NULL) {
      pan_ir_from_nir_error(ctx, "NIR value %u read before translation",
                            src.ssa->index);
      return pan_ir_imm(0);
   }
   return v;
}

static void
emit_phi(struct pan_ir_from_nir *ctx, nir_phi_instr *phi)
{
   unsigned words;
   if (!pan_ir_from_nir_def_words(ctx, &phi->dest.ssa, &words))
      return;
   if (words != 1) {
      pan_ir_from_nir_error(ctx, "phi of %u words: only scalars for now",
                            words);
      return;
   }
   /* Sources are filled by fill_phis once the edges exist. */
   pan_ir_instr *I = pan_ir_build(&ctx->b, PAN_IR_OP_PHI, 0);
   I->dest = pan_ir_new_value(ctx->shader, 1);
   ctx->values[phi->dest.ssa.index] = I->dest;
}

static void
emit_instr(struct pan_ir_from_nir *ctx, nir_instr *instr)
{
   switch (instr->type) {
   case nir_instr_type_alu:
      pan_ir_from_nir_alu(ctx, nir_instr_as_alu(instr));
      break;
   case nir_instr_type_intrinsic:
      pan_ir_from_nir_intrinsic(ctx, nir_instr_as_intrinsic(instr));
      break;
   case nir_instr_type_load_const:
      pan_ir_from_nir_load_const(ctx, nir_instr_as_load_const(instr));
      break;
   case nir_instr_type_phi:
      emit_phi(ctx, nir_instr_as_phi(instr));
      break;
   case nir_instr_type_jump: {
      nir_jump_type t = nir_instr_as_jump(instr)->type;
      if (t != nir_jump_break && t != nir_jump_continue)
         pan_ir_from_nir_error(ctx, "unsupported NIR jump (return/halt)");
      break; /* the edge is emitted from the successors */
   }
   case nir_instr_type_ssa_undef: {
      nir_ssa_undef_instr *u = nir_instr_as_ssa_undef(instr);
      unsigned words;
      if (pan_ir_from_nir_def_words(ctx, &u->def, &words)) {
         pan_ir_index z[4] = { pan_ir_imm(0), pan_ir_imm(0), pan_ir_imm(0),
                               pan_ir_imm(0) };
         ctx->values[u->def.index] =
            words == 1 ? z[0] : pan_ir_collect(&ctx->b, words, z);
      }
      break;
   }
   case nir_instr_type_tex:
      pan_ir_from_nir_tex(ctx, nir_instr_as_tex(instr));
      break;
   default:
      pan_ir_from_nir_error(ctx, "unsupported NIR instruction type %u",
                            instr->type);
   }
}

/* The branch or fall-through that ends NIR block nb (IR block blocks[i]). */
static void
emit_edges(struct pan_ir_from_nir *ctx, nir_function_impl *impl,
           pan_ir_block **blocks, nir_block *nb)
{
   pan_ir_block *ib = blocks[nb->index];
   pan_ir_block *next =
      nb->index + 1 < impl->num_blocks - 1 ? blocks[nb->index + 1] : NULL;
   nir_cf_node *after = nir_cf_node_next(&nb->cf_node);
   pan_ir_builder b = pan_ir_builder_at_end(ctx->shader, ib);

   if (after && after->type == nir_cf_node_if) {
      nir_if *nif = nir_cf_node_as_if(after);
      pan_ir_index c = pan_ir_from_nir_src(ctx, nif->condition);
      pan_ir_block *then_b = blocks[nir_if_first_then_block(nif)->index];
      pan_ir_block *else_b = blocks[nir_if_first_else_block(nif)->index];
      pan_ir_branchz(&b, true, else_b, c);
      pan_ir_block_add_succ(ib, else_b);
      pan_ir_block_add_succ(ib, then_b);
      return;
   }

   nir_block *succ = nb->successors[0];
   if (!succ || succ == impl->end_block)
      return;
   pan_ir_block *target = blocks[succ->index];
   if (target != next)
      pan_ir_jump(&b, target);
   pan_ir_block_add_succ(ib, target);
}

static void
fill_phis(struct pan_ir_from_nir *ctx, pan_ir_block *ib, nir_block *nb,
          pan_ir_block **blocks, nir_block **nir_blocks)
{
   pan_ir_instr *I = list_first_entry(&ib->instrs, pan_ir_instr, link);
   unsigned nr_preds = util_dynarray_num_elements(&ib->preds, pan_ir_block *);

   nir_foreach_instr (instr, nb) {
      if (instr->type != nir_instr_type_phi)
         break;
      nir_phi_instr *phi = nir_instr_as_phi(instr);
      I->src = rzalloc_array(I, pan_ir_index, nr_preds);
      I->nr_srcs = nr_preds;
      unsigned p = 0;
      pan_ir_foreach_pred(ib, pred)
      {
         nir_block *np = nir_blocks[(*pred)->index];
         nir_foreach_phi_src(ps, phi)
         {
            if (ps->pred == np)
               I->src[p] = pan_ir_from_nir_src(ctx, ps->src);
         }
         p++;
      }
      I = list_entry(I->link.next, pan_ir_instr, link);
   }
   (void)blocks;
}

static pan_ir_shader *
from_nir(void *mem_ctx, nir_shader *nir, struct pan_va_binary *bin,
         const struct pan_va_blend_options *blend, char *err,
         size_t err_size)
{
   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   if (!impl) {
      snprintf(err, err_size, "the NIR shader has no entry point");
      return NULL;
   }
   nir_index_blocks(impl);
   nir_index_ssa_defs(impl);

   struct pan_ir_from_nir ctx = {
      .err = err, .err_size = err_size, .stage = nir->info.stage, .bin = bin,
      .blend = blend,
   };
   nir_shader_gather_info(nir, impl);
   ctx.shader = pan_ir_shader_create(mem_ctx);
   ctx.shader->scratch_size = nir->scratch_size;
   ctx.values = rzalloc_array(ctx.shader, pan_ir_index, impl->ssa_alloc + 1);
   pan_ir_block **blocks =
      rzalloc_array(ctx.shader, pan_ir_block *, impl->num_blocks);
   nir_block **nir_blocks =
      rzalloc_array(ctx.shader, nir_block *, impl->num_blocks);

   /* Blocks first, so that branches can name later ones. */
   nir_foreach_block (nb, impl) {
      blocks[nb->index] = pan_ir_block_create(ctx.shader);
      nir_blocks[blocks[nb->index]->index] = nb;
   }
   nir_foreach_block (nb, impl) {
      ctx.b = pan_ir_builder_at_end(ctx.shader, blocks[nb->index]);
      nir_foreach_instr (instr, nb) {
         emit_instr(&ctx, instr);
         if (ctx.failed)
            goto fail;
      }
   }
   /* The fragment tail goes at the end of the last block. */
   ctx.b = pan_ir_builder_at_end(ctx.shader,
                                 blocks[nir_impl_last_block(impl)->index]);
   pan_ir_from_nir_gfx_finish(&ctx);
   if (ctx.failed)
      goto fail;
   nir_foreach_block (nb, impl)
      emit_edges(&ctx, impl, blocks, nb);
   nir_foreach_block (nb, impl)
      fill_phis(&ctx, blocks[nb->index], nb, blocks, nir_blocks);
   if (ctx.failed)
      goto fail;
   return ctx.shader;

fail:
   ralloc_free(ctx.shader);
   return NULL;
}

pan_ir_shader *
pan_ir_from_nir(void *mem_ctx, nir_shader *nir, struct pan_va_binary *bin,
                char *err, size_t err_size)
{
   return from_nir(mem_ctx, nir, bin, NULL, err, err_size);
}

pan_ir_shader *
pan_ir_from_nir_blend(void *mem_ctx, nir_shader *nir,
                      const struct pan_va_blend_options *blend, char *err,
                      size_t err_size)
{
   if (nir->info.stage != MESA_SHADER_FRAGMENT) {
      snprintf(err, err_size, "a blend shader must be a fragment shader");
      return NULL;
   }
   return from_nir(mem_ctx, nir, NULL, blend, err, err_size);
}
