/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Bifrost (v6/v7) back end of the IR: legalization, then the shared
 * register allocator, then clause scheduling and packing through the isa
 * library's Bifrost tables.  See docs/drivers/panfrost/compiler.rst.
 */

#ifndef PAN_BI_H
#define PAN_BI_H

#include "pan_compile.h"
#include "pan_ir.h"

/*
 * Rewrite what Bifrost lacks (pan_bi_legalize.c): comparisons into the
 * orders the hardware has, 64-bit adds into 32-bit ones, memory offsets
 * into the address, FAU reads one instruction cannot have into movs.
 * Returns false with a message for an op with no Bifrost form.
 */
bool pan_bi_legalize(pan_ir_shader *s, char *err, size_t err_size);

/*
 * Reorder the push table so that words one instruction reads together
 * share a 64-bit FAU slot, and renumber the IR's uniform reads
 * (pan_bi_push_pairs.c).  Before pan_bi_legalize, which moves what still
 * does not fit.
 */
void pan_bi_pair_push(pan_ir_shader *s, struct pan_va_push_word *push,
                      unsigned nr_push);

/* After register allocation: the spill stores and fills the shared
 * allocator left address thread storage as Bifrost does, through the tl
 * segment (pan_bi_spill.c). */
void pan_bi_lower_spill(pan_ir_shader *s);

/*
 * The v9-shaped graphics I/O of the IR to the G52 interface
 * (pan_bi_lower_gfx.c): v7 preloads, ST_CVT stores, varying indices.
 * False with a message for what does not fit.
 */
bool pan_bi_lower_gfx(pan_ir_shader *s, bool vertex, unsigned arch,
                      char *err, size_t err_size);

/* Only the texture instructions of that rewrite (TEXS_2D or TEXC, at
 * LOD 0 unless explicit): what a compute shader needs of it.
 */
bool pan_bi_lower_tex(pan_ir_shader *s, char *err, size_t err_size);

/*
 * v7 fragment shaders: up to two varying loads or varying-coordinate 2D
 * lookups of the entry block become reads of the registers the renderer
 * state's message preloads fill (pan_bi_message_preload.c).  Returns how
 * many; msgs gets them (zeroed past them).
 */
unsigned pan_bi_message_preload(pan_ir_shader *s,
                                struct pan_bi_message_preload msgs[2]);

/*
 * Fragment shaders: pairs of 2D lookups of one block at the same
 * coordinates (computed LOD, textures and samplers below 4) become one
 * dual TEXC message (pan_bi_dual_tex.c).  Returns how many pairs.
 */
unsigned pan_bi_dual_tex(pan_ir_shader *s);

/*
 * Atomics in Bifrost's shape (pan_bi_lower_atomic.c): a returning atomic
 * is atom_c_return then atom_post, an exchange axchg, a compare-and-swap
 * acmpxchg and a move of its first word.
 */
void pan_bi_lower_atomic(pan_ir_shader *s);

/* Bifrost's own NIR passes after the shared lowering (pan_bi_opt_nir.c):
 * small if/else arms become selects. */
void pan_bi_opt_nir(nir_shader *nir);

/*
 * Saturations and max(x, 0) into the clamp modifier of the fma/fadd
 * computing x, float booleans into the fcmp's result type
 * (pan_bi_opt_fold.c); SSA only.  True on progress.
 */
bool pan_bi_opt_fold(pan_ir_shader *s);

/*
 * Blend shaders (pan_bi_blend.c).  In a blend shader: LD_TILE of the
 * thread's own pixel, and the jump back through r48 after its BLEND
 * (none when the caller's last BLEND called it).  In a packed fragment
 * shader: the byte offset of the clause after each render target's
 * BLEND, where a blend shader it calls returns (0: none); false when a
 * BLEND's target cannot be told (its descriptor not read from the FAU).
 */
void pan_bi_lower_blend(pan_ir_shader *s,
                        const struct pan_va_blend_options *blend);
bool pan_bi_blend_returns(const uint64_t *words, unsigned nr_words,
                          uint32_t ret[8]);

/* The Bifrost form of I (pan_ir_opcodes.py), or NULL. */
const struct pan_ir_bi_form *pan_bi_form(const pan_ir_instr *I);

/*
 * An instruction word with its modifiers set from a form (source
 * selectors zero): the first encoding of that name on that unit the
 * modifiers fit (pan_bi_encode.c).  *op gets the encoding's index in the
 * isa tables; false with a message when none fits.
 */
bool pan_bi_encode_form(const char *name, unsigned unit,
                        const char *const (*mods)[2], unsigned nr_mods,
                        uint32_t *word, unsigned *op, char *err,
                        size_t err_size);

/* Whether every encoding named name on unit has the one-bit field
 * `field` (false when there is none of that name). */
bool pan_bi_all_have_field(const char *name, unsigned unit,
                           const char *field);

/* Put source selector sel in encoding source slot k of bi_ops[op]. */
uint32_t pan_bi_set_src(uint32_t word, unsigned op, unsigned k, unsigned sel);

/* Set immediate field `name` of bi_ops[op]; false when it has none or v
 * does not fit. */
bool pan_bi_set_imm(uint32_t *word, unsigned op, const char *name,
                    uint32_t v);

/* FAU index of an IR special value on Bifrost, or -1. */
int pan_bi_special_fau(unsigned special);

/* Toggle a one-bit field of bi_ops[op] (neg/abs, raw derived fields);
 * false when the encoding has no such field. */
bool pan_bi_toggle(uint32_t *word, unsigned op, const char *field);

/* The NOP word of a unit (0 FMA, 1 ADD). */
uint32_t pan_bi_nop(unsigned unit);

/*
 * Schedule and pack (pan_bi_schedule.c): one instruction per tuple, a
 * message instruction or branch ends its clause, clause constants carry
 * immediates and branch distances.  Words are ralloc'd on mem_ctx (two
 * 64-bit words per quadword).  False with a message.
 */
bool pan_bi_emit(pan_ir_shader *s, const uint8_t *regs, void *mem_ctx,
                 uint64_t **words, unsigned *nr_words,
                 struct pan_bi_stats *stats, char *err, size_t err_size);

#endif
