/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Storage buffer accesses as global memory accesses (pan_ssbo.h): the
 * address of an access is the slot's base address plus its byte offset.
 * The slot words come from the caller's source: push words in compute,
 * the driver's constant buffer PANFROST_SSBO_CBUF in draws.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/u_math.h"

#include "pan_ssbo.h"

struct lower_ssbo {
   panfrost_ssbo_word_fn fn;
   void *data;
   char *err;
   size_t err_size;
   bool failed;
};

/* The global atomic doing what an ssbo atomic does, or 0 for none. */
static nir_intrinsic_op
global_atomic(nir_intrinsic_op op)
{
   switch (op) {
#define ATOMIC(name)                                                           \
   case nir_intrinsic_ssbo_atomic_##name:                                      \
      return nir_intrinsic_global_atomic_##name
      ATOMIC(add);
      ATOMIC(imin);
      ATOMIC(umin);
      ATOMIC(imax);
      ATOMIC(umax);
      ATOMIC(and);
      ATOMIC(or);
      ATOMIC(xor);
      ATOMIC(exchange);
      ATOMIC(comp_swap);
      ATOMIC(fadd);
      ATOMIC(fmin);
      ATOMIC(fmax);
      ATOMIC(fcomp_swap);
#undef ATOMIC
   default:
      return nir_num_intrinsics;
   }
}

static nir_ssa_def *
address(nir_builder *b, struct lower_ssbo *s, nir_src *index,
        nir_ssa_def *offset)
{
   nir_ssa_def *base = s->fn(b, index, false, s->data, s->err, s->err_size);
   if (!base) {
      s->failed = true;
      return NULL;
   }
   return nir_iadd(b, base, nir_u2u64(b, offset));
}

static bool
lower_instr(nir_builder *b, nir_instr *instr, void *data)
{
   struct lower_ssbo *s = data;

   if (instr->type != nir_instr_type_intrinsic || s->failed)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   nir_ssa_def *addr, *repl;

   b->cursor = nir_before_instr(instr);
   switch (intr->intrinsic) {
   case nir_intrinsic_load_ssbo:
      addr = address(b, s, &intr->src[0], intr->src[1].ssa);
      if (!addr)
         return false;
      repl = nir_load_global(b, addr, nir_intrinsic_align(intr),
                             intr->dest.ssa.num_components,
                             intr->dest.ssa.bit_size);
      break;
   case nir_intrinsic_store_ssbo:
      addr = address(b, s, &intr->src[1], intr->src[2].ssa);
      if (!addr)
         return false;
      nir_store_global(b, addr, nir_intrinsic_align(intr), intr->src[0].ssa,
                       nir_intrinsic_write_mask(intr));
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_get_ssbo_size:
      repl = s->fn(b, &intr->src[0], true, s->data, s->err, s->err_size);
      if (!repl) {
         s->failed = true;
         return false;
      }
      break;
   default: {
      nir_intrinsic_op op = global_atomic(intr->intrinsic);
      if (op == nir_num_intrinsics)
         return false;
      addr = address(b, s, &intr->src[0], intr->src[1].ssa);
      if (!addr)
         return false;
      /* ssbo atomics: index, offset, data (, data2); global: address,
       * data (, data2).
       */
      nir_intrinsic_instr *g = nir_intrinsic_instr_create(b->shader, op);
      unsigned nsrc = nir_intrinsic_infos[op].num_srcs;
      g->src[0] = nir_src_for_ssa(addr);
      for (unsigned i = 1; i < nsrc; ++i)
         g->src[i] = nir_src_for_ssa(intr->src[i + 1].ssa);
      nir_ssa_dest_init(&g->instr, &g->dest, 1, intr->dest.ssa.bit_size,
                        NULL);
      nir_builder_instr_insert(b, &g->instr);
      repl = &g->dest.ssa;
      break;
   }
   }

   nir_ssa_def_rewrite_uses(&intr->dest.ssa, repl);
   nir_instr_remove(instr);
   return true;
}

/* Every global_atomic_* intrinsic (the SSBO rewrite above makes them):
 * told apart by name, so a new operation needs no list kept here. */
static bool
is_global_atomic(nir_intrinsic_op op)
{
   static const char prefix[] = "global_atomic";
   return !strncmp(nir_intrinsic_infos[op].name, prefix, sizeof(prefix) - 1);
}

/* Helper lanes (the pixels of a quad outside the primitive, whose
 * coverage is 0) run a fragment shader for derivatives only: GL gives
 * their stores and atomics no effect, so these are made under the
 * coverage.  An atomic's result is 0 in a helper lane.
 */
static bool
guard_helper_write(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   bool store = intr->intrinsic == nir_intrinsic_store_global;
   if (!store && !is_global_atomic(intr->intrinsic))
      return false;

   b->cursor = nir_before_instr(instr);
   nir_ssa_def *covered = nir_ine_imm(b, nir_load_sample_mask_in(b), 0);
   /* Made before the if: a phi must come first in its block. */
   nir_ssa_def *zero =
      store ? NULL : nir_imm_intN_t(b, 0, intr->dest.ssa.bit_size);
   nir_push_if(b, covered);
   nir_instr_remove(instr);
   nir_builder_instr_insert(b, instr);
   nir_pop_if(b, NULL);
   if (!store) {
      nir_ssa_def *def = &intr->dest.ssa;
      nir_ssa_def *phi = nir_if_phi(b, def, zero);
      /* Every use reads the phi, but the phi reads the atomic. */
      nir_ssa_def_rewrite_uses(def, phi);
      nir_foreach_phi_src(src, nir_instr_as_phi(phi->parent_instr)) {
         if (src->src.ssa == phi)
            nir_instr_rewrite_src(phi->parent_instr, &src->src,
                                  nir_src_for_ssa(def));
      }
   }
   return true;
}

/* A store, or an atomic whose result nothing reads. */
static bool
drop_write(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (intr->intrinsic != nir_intrinsic_store_global &&
       !(is_global_atomic(intr->intrinsic) &&
         nir_ssa_def_is_unused(&intr->dest.ssa)))
      return false;
   nir_instr_remove(instr);
   return true;
}

void
panfrost_nir_drop_vertex_writes(nir_shader *nir)
{
   nir_shader_instructions_pass(nir, drop_write,
                                nir_metadata_block_index |
                                   nir_metadata_dominance,
                                NULL);
}

/* Calls visit on the intrinsics of the shader until it returns true;
 * whether it did. */
static bool
any_intrinsic(nir_shader *nir, bool (*visit)(nir_intrinsic_instr *, void *),
              void *data)
{
   nir_foreach_function(func, nir) {
      if (!func->impl)
         continue;
      nir_foreach_block(block, func->impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type == nir_instr_type_intrinsic &&
                visit(nir_instr_as_intrinsic(instr), data))
               return true;
         }
      }
   }
   return false;
}

static bool
is_memory_write(nir_intrinsic_instr *intr, void *data)
{
   return intr->intrinsic == nir_intrinsic_store_global ||
          is_global_atomic(intr->intrinsic);
}

/* Whether the shader writes memory (a global store or atomic). */
static bool
writes_memory(nir_shader *nir)
{
   return any_intrinsic(nir, is_memory_write, NULL);
}

/* A memory read outside loops whose result is used (pan_ssbo.h): an
 * atomic, or a load in a shader that writes memory (the position
 * programs' writes would change what the varying program reads).
 */
static bool
is_kept_read(const nir_instr *instr, bool writes)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (!(is_global_atomic(intr->intrinsic) ||
         (writes && intr->intrinsic == nir_intrinsic_load_global)) ||
       nir_ssa_def_is_unused(&intr->dest.ssa))
      return false;
   for (const nir_cf_node *n = &instr->block->cf_node; n; n = n->parent) {
      if (n->type == nir_cf_node_loop)
         return false;
   }
   return true;
}

/* The kept reads in program order, each at the next offset aligned to
 * its component size; calls fn for each when given.  Returns the
 * record's size (0 for a shader that writes no memory).
 */
static unsigned
foreach_kept_read(nir_shader *nir,
                  void (*fn)(nir_builder *b, nir_intrinsic_instr *intr,
                             unsigned offset_B, const void *data),
                  const void *data)
{
   unsigned at = 0, align = 4;
   bool writes = writes_memory(nir);

   if (!writes)
      return 0;
   nir_foreach_function(func, nir) {
      if (!func->impl)
         continue;
      nir_builder b;
      nir_builder_init(&b, func->impl);
      nir_foreach_block(block, func->impl) {
         nir_foreach_instr_safe(instr, block) {
            if (!is_kept_read(instr, writes))
               continue;
            nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
            unsigned comp_B = intr->dest.ssa.bit_size / 8;
            at = ALIGN_POT(at, comp_B);
            align = MAX2(align, comp_B);
            if (fn)
               fn(&b, intr, at, data);
            at += comp_B * intr->dest.ssa.num_components;
         }
      }
      if (fn)
         nir_metadata_preserve(func->impl, nir_metadata_none);
   }
   return ALIGN_POT(at, align);
}

/* A read that is_kept_read would keep but for its loop. */
static bool
is_read_in_loop(nir_intrinsic_instr *intr, void *data)
{
   if (!(is_global_atomic(intr->intrinsic) ||
         intr->intrinsic == nir_intrinsic_load_global) ||
       nir_ssa_def_is_unused(&intr->dest.ssa))
      return false;
   for (const nir_cf_node *n = &intr->instr.block->cf_node; n; n = n->parent) {
      if (n->type == nir_cf_node_loop)
         return true;
   }
   return false;
}

bool
panfrost_nir_vertex_writes_memory(nir_shader *nir)
{
   return writes_memory(nir);
}

bool
panfrost_nir_vertex_needs_once(nir_shader *nir)
{
   return writes_memory(nir) && any_intrinsic(nir, is_read_in_loop, NULL);
}

unsigned
panfrost_nir_vertex_results_B(nir_shader *nir)
{
   return foreach_kept_read(nir, NULL, NULL);
}

/* Where this vertex keeps the result at offset_B of its record. */
static nir_ssa_def *
result_address(nir_builder *b, unsigned record_B, unsigned offset_B)
{
   nir_ssa_def *w =
      nir_load_ubo(b, 4, 32, nir_imm_int(b, PANFROST_VERTEX_RESULTS_CBUF),
                   nir_imm_int(b, 0), .align_mul = 16, .range = ~0);
   nir_ssa_def *vertex =
      nir_iadd(b, nir_isub(b, nir_load_vertex_id(b), nir_channel(b, w, 2)),
               nir_imul(b, nir_load_instance_id(b), nir_channel(b, w, 3)));
   nir_ssa_def *base =
      nir_pack_64_2x32_split(b, nir_channel(b, w, 0), nir_channel(b, w, 1));
   nir_ssa_def *off =
      nir_iadd_imm(b, nir_imul_imm(b, vertex, record_B), offset_B);
   return nir_iadd(b, base, nir_u2u64(b, off));
}

static void
store_result(nir_builder *b, nir_intrinsic_instr *intr, unsigned offset_B,
             const void *data)
{
   b->cursor = nir_after_instr(&intr->instr);
   nir_ssa_def *addr = result_address(b, *(const unsigned *)data, offset_B);
   nir_store_global(b, addr, intr->dest.ssa.bit_size / 8, &intr->dest.ssa,
                    BITFIELD_MASK(intr->dest.ssa.num_components));
}

static void
load_result(nir_builder *b, nir_intrinsic_instr *intr, unsigned offset_B,
            const void *data)
{
   b->cursor = nir_before_instr(&intr->instr);
   unsigned bits = intr->dest.ssa.bit_size;
   nir_ssa_def *addr = result_address(b, *(const unsigned *)data, offset_B);
   nir_ssa_def *v =
      nir_load_global(b, addr, bits / 8, intr->dest.ssa.num_components, bits);
   nir_ssa_def_rewrite_uses(&intr->dest.ssa, v);
   nir_instr_remove(&intr->instr);
}

void
panfrost_nir_keep_vertex_results(nir_shader *nir, bool varying,
                                 unsigned record_B)
{
   foreach_kept_read(nir, varying ? load_result : store_result, &record_B);
}

bool
panfrost_nir_lower_ssbo(nir_shader *nir, panfrost_ssbo_word_fn fn, void *data,
                        char *err, size_t err_size)
{
   struct lower_ssbo s = {
      .fn = fn,
      .data = data,
      .err = err,
      .err_size = err_size,
   };

   nir_shader_instructions_pass(
      nir, lower_instr, nir_metadata_block_index | nir_metadata_dominance, &s);
   return !s.failed;
}

/* Draws: the slot's words in PANFROST_SSBO_CBUF, 16 bytes a slot.  An
 * index known only at run time is clamped to the slots, as robust access
 * would; the compiler then reads the buffer instead of pushing it.
 */
static nir_ssa_def *
gfx_word(nir_builder *b, nir_src *index, bool size, void *data, char *err,
         size_t err_size)
{
   const unsigned slot_B = PANFROST_SSBO_SLOT_WORDS * 4;
   nir_ssa_def *offset;

   if (nir_src_is_const(*index)) {
      unsigned slot = nir_src_as_uint(*index);
      if (slot >= PANFROST_MAX_SSBOS) {
         snprintf(err, err_size, "shader storage slot %u out of range", slot);
         return NULL;
      }
      offset = nir_imm_int(b, slot * slot_B + (size ? 8 : 0));
      *(uint32_t *)data |= BITFIELD_BIT(slot);
   } else {
      nir_ssa_def *slot =
         nir_umin(b, index->ssa, nir_imm_int(b, PANFROST_MAX_SSBOS - 1));
      offset = nir_iadd_imm(b, nir_imul_imm(b, slot, slot_B), size ? 8 : 0);
   }
   nir_ssa_def *w =
      nir_load_ubo(b, size ? 1 : 2, 32, nir_imm_int(b, PANFROST_SSBO_CBUF),
                   offset, .align_mul = size ? 4 : 8, .range = ~0);
   return size ? w
               : nir_pack_64_2x32_split(b, nir_channel(b, w, 0),
                                        nir_channel(b, w, 1));
}

/* Widens *data (a uint32_t reach) to the end of the access; true, with
 * the reach UINT32_MAX, when its offset is known only at run time. */
static bool
widen_reach(nir_intrinsic_instr *intr, void *data)
{
   uint32_t *reach = data;
   unsigned bytes;

   if (intr->intrinsic == nir_intrinsic_load_ssbo)
      bytes = intr->num_components * intr->dest.ssa.bit_size / 8;
   else if (intr->intrinsic == nir_intrinsic_store_ssbo)
      bytes = nir_src_num_components(intr->src[0]) *
              nir_src_bit_size(intr->src[0]) / 8;
   else if (global_atomic(intr->intrinsic) != nir_num_intrinsics)
      bytes = intr->dest.ssa.bit_size / 8;
   else
      return false;
   nir_src *off = nir_get_io_offset_src(intr);
   if (!off || !nir_src_is_const(*off)) {
      *reach = UINT32_MAX;
      return true;
   }
   *reach = MAX2(*reach, nir_src_as_uint(*off) + bytes);
   return false;
}

/* One past the last byte a storage access of the shader may touch, from
 * its constant offsets; UINT32_MAX when an offset is known only at run
 * time.
 */
static uint32_t
ssbo_reach(nir_shader *nir)
{
   uint32_t reach = 0;

   any_intrinsic(nir, widen_reach, &reach);
   return reach;
}

bool
panfrost_nir_lower_ssbo_gfx(nir_shader *nir, uint32_t *slots,
                            uint32_t *reach_B, char *err, size_t err_size)
{
   /* Block indices and offsets of arrays of blocks come as sums of
    * constants (a[1] is binding + 1): folded first, so that the slots they
    * name are known and pushed.
    */
   NIR_PASS_V(nir, nir_copy_prop);
   NIR_PASS_V(nir, nir_opt_constant_folding);
   *slots = 0;
   *reach_B = ssbo_reach(nir);
   if (!panfrost_nir_lower_ssbo(nir, gfx_word, slots, err, err_size))
      return false;
   if (nir->info.stage == MESA_SHADER_FRAGMENT)
      nir_shader_instructions_pass(nir, guard_helper_write, nir_metadata_none,
                                   NULL);
   return true;
}
