/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Valhall (v9) back end of the IR: legalization, register allocation
 * and emission through the isa library's assembler.
 */

#ifndef PAN_VA_H
#define PAN_VA_H

#include "pan_ir.h"

struct pan_va_binary;

/* The compute preloads (r55..r62, see pan_ir_from_nir_intrinsic.c): like
 * every preload the allocator keeps each until its last read; collects
 * of preloads below them are the preloaded registers (pan_va_ra.c). */
#define PAN_VA_FIRST_RESERVED 55
#define PAN_VA_LAST_RESERVED 62
#define PAN_VA_NR_REGS 64
/* Shaders declaring 32 registers run twice as many threads; they have
 * r0-r15 and r48-r63 (compiler.rst, register allocation): r16-r47 exist
 * only in the 64-register mode. */
#define PAN_VA_HALF_REGS 32
#define PAN_VA_HALF_GAP_FIRST 16
#define PAN_VA_HALF_GAP_COUNT 32
/* The return address of blend shaders (the v9 driver's convention). */
#define PAN_VA_BLEND_LINK_REG 48

/* Shared memory accesses as global loads and stores at the
 * workgroup-local pointer plus the offset (pan_va_lower_shared.c). */
void pan_va_lower_shared(pan_ir_shader *s);

/* The slice or layer of image messages in the high half of their second
 * source, where Valhall reads it (pan_va_lower_image.c). */
void pan_va_lower_image(pan_ir_shader *s);

/* Scratch accesses address thread_local_pointer plus their offset
 * (pan_va_lower_scratch.c). */
void pan_va_lower_scratch(pan_ir_shader *s);

/*
 * Fold FAU reads into sources when fold_fau is set (pan_va_fold.c), then
 * (with a push table, graphics stages) push constants, then materialize
 * the other immediates outside the hardware constant table with iadd_imm.
 */
void pan_va_legalize(pan_ir_shader *s, bool fold_fau,
                     struct pan_va_binary *push);

/* Fold uniforms, specials and table constants read through movs into
 * their users; returns how many sources were folded (the movs stay for
 * dead-code elimination). */
unsigned pan_va_fold_fau(pan_ir_shader *s);

/* Whether source s of I is read as one byte (a shift amount: the form
 * selects byte lane 0 of it), so that an immediate below 32 is a byte of
 * the table's 0x03020100.. entries instead of a whole table word. */
bool pan_va_src_is_byte(const pan_ir_instr *I, unsigned s);

/* Whether source s of I is a binary32 source that can widen a binary16
 * half ("h0"/"h1"): float constants exactly a half of a table entry (0.5,
 * 2.0, 256.0...), negated with the neg modifier, need no register. */
bool pan_va_src_widens_half(const pan_ir_instr *I, unsigned s);

/* The table entry and half (0, 1) whose binary16 value widens to the
 * binary32 v, or its negation (*neg set); false when none does. */
bool pan_va_lut_half(uint32_t v, unsigned *entry, unsigned *half, bool *neg);

/* The FAU value (64-bit uniform pair or special) a source reads, or -1. */
int pan_va_fau_slot(pan_ir_index i);

/* Whether source i of I is an encoded source that may read the FAU (not
 * staging, not wide). */
bool pan_va_foldable_src(const pan_ir_instr *I, unsigned i);

/* Whether immediate source i of I needs a register or an FAU word: not
 * in the table, not a byte of it (shift amounts), not a binary16 half of
 * it (widening float sources).  A float -0 becomes the table's 0 negated
 * here. */
bool pan_va_imm_needs_word(pan_ir_instr *I, unsigned i);
/* Source 0 of I is a staging register range. */
bool pan_va_src_is_staging(const pan_ir_instr *I);

/* fma_rscale(fma(p, q, -0), 1.0, -0, s) with the product read only there
 * and in the same block: fma_rscale(p, q, -0, s) (pan_va_fuse_rscale.c).
 * Returns whether anything changed. */
bool pan_va_fuse_rscale(pan_ir_shader *s);

/* Graphics stages: read the constants that need a word from pushed FAU
 * words (PAN_VA_PUSH_CONSTANT), where the instruction reads no other FAU
 * value and the push table has room (pan_va_push_constants.c). */
void pan_va_push_constants(pan_ir_shader *s, struct pan_va_binary *bin);

/* What spilling cost: bytes of thread-local storage per thread, stores
 * and loads inserted. */
struct pan_va_spill_stats {
   unsigned tls_size, spills, fills;
};

/*
 * Linear-scan allocation: returns the base register of every value
 * (ralloc'd on s).  Values that do not fit are spilled to thread-local
 * storage (pan_va_spill.c) and allocation runs again; NULL with a message
 * when even that fails.  max_regs PAN_VA_HALF_REGS is the half file
 * (r0-r15, r48-r63), other values below 64 shrink the file to
 * r0..max_regs-1 (blend shaders, tests); 0 means all of it.  The first
 * try, for twice the threads, is the half file when half_file (v7, v9),
 * else r0-r31 (v6, which has no half mode).
 */
uint8_t *pan_va_ra(pan_ir_shader *s, unsigned max_regs, bool half_file,
                   struct pan_va_spill_stats *stats, char *err,
                   size_t err_size);

/* The Valhall pipeline's allocation: as pan_va_ra, and when 32 registers
 * do not suffice, computations move down first (pan_va_sink_pressure).
 * The Bifrost pipeline keeps pan_va_ra: its clauses group messages that
 * the move would part. */
uint8_t *pan_va_ra_pressure(pan_ir_shader *s, unsigned max_regs,
                            struct pan_va_spill_stats *stats, char *err,
                            size_t err_size);

/* Rewrite the program so that value v (comps words) lives in thread-local
 * storage at byte offset, counting the stores and loads in stats. */
void pan_va_spill(pan_ir_shader *s, unsigned v, unsigned comps,
                  unsigned offset, struct pan_va_spill_stats *stats);

/* Copy the words of vector v that are read alone into scalars after its
 * only definition and read those instead (pan_va_split.c); false when
 * there is no such word or v is not a vector defined once. */
bool pan_va_split_vector(pan_ir_shader *s, unsigned v);

/* Move each attribute or varying load read in one later block only (not
 * in a loop the load is outside of) to just before its first reader there
 * (pan_va_sink_inputs.c); false when none moved. */
bool pan_va_sink_inputs(pan_ir_shader *s);

/* Move each instruction without side effects down to the first reader in
 * its block when that makes no source live longer, or from level 1 (wide)
 * also past BLEND and ATEST and lengthening sources narrower than the
 * result, and from level 2 with its first reader taken along to its next
 * reader when that lengthens nothing (pan_va_sink_pressure.c); false
 * when none moved. */
bool pan_va_sink_pressure(pan_ir_shader *s, unsigned level);

/* Move each vertex output store (and the collect of its data, or when
 * whole everything only the store reads) up to just below the last
 * definition of its other sources in its block (pan_va_hoist_stores.c);
 * false when none moved. */
bool pan_va_hoist_stores(pan_ir_shader *s, bool whole);

/* The next offset for a value of comps words that stays within one
 * 16-byte line; grows *tls_size past it. */
unsigned pan_va_spill_slot(unsigned *tls_size, unsigned comps);

/* Encode; words are ralloc'd on mem_ctx.  Returns false with a message. */
bool pan_va_emit(pan_ir_shader *s, const uint8_t *regs, void *mem_ctx,
                 uint64_t **words, unsigned *nr_words, char *err,
                 size_t err_size);

#endif
