/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Panfrost compiler IR, shared by the Bifrost and Valhall back ends.
 *
 * A shader is a list of blocks in layout order; each block holds a list of
 * instructions and knows its successors and predecessors.  Values are
 * 32-bit words; an SSA value may be a vector of 1-4 consecutive words
 * (memory vectors, 64-bit addresses).  The opcodes, with their operand
 * counts and modifiers, are generated from pan_ir_opcodes.py.  See
 * docs/drivers/panfrost/compiler.rst.
 */

#ifndef PAN_IR_H
#define PAN_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/list.h"
#include "util/ralloc.h"
#include "util/u_dynarray.h"

#include "pan_ir_opcodes.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pan_ir_kind {
   PAN_IR_NULL = 0,
   PAN_IR_SSA,     /* value number */
   PAN_IR_IMM,     /* 32-bit constant */
   PAN_IR_UNIFORM, /* FAU uniform word */
   PAN_IR_SPECIAL, /* special FAU value (lane id...), by name index */
};

/* Special FAU values the IR can name (word comp of each, 0 unless set;
 * the names are the ISA description's, pan_ir_special_names). */
enum pan_ir_special {
   PAN_IR_SPECIAL_LANE_ID,
   PAN_IR_SPECIAL_ATEST_DATUM,
   PAN_IR_SPECIAL_PROGRAM_COUNTER,
   PAN_IR_SPECIAL_TLS_PTR, /* 64-bit: this thread's spill storage */
   PAN_IR_SPECIAL_WLS_PTR, /* 64-bit: the workgroup's shared memory */
   PAN_IR_SPECIAL_BLEND_DESC_0, /* ... _7: one per render target */
   PAN_IR_NR_SPECIALS = PAN_IR_SPECIAL_BLEND_DESC_0 + 8,
};

extern const char *const pan_ir_special_names[PAN_IR_NR_SPECIALS];

/* The imm field of tex, tex_fetch and tex_gather: the dimension (0 1D, 1
 * 2D, 2 3D, 3 cube), the LOD mode (the ISA's lod enum), flags and the
 * component a gather returns. */
#define PAN_IR_TEX_DIM(imm) ((imm)&3u)
#define PAN_IR_TEX_LOD(imm) (((imm) >> 2) & 7u)
#define PAN_IR_TEX_LOD_ZERO 0u
#define PAN_IR_TEX_LOD_COMPUTED 1u
#define PAN_IR_TEX_LOD_EXPLICIT 4u
#define PAN_IR_TEX_LOD_BIAS 5u
#define PAN_IR_TEX_ARRAY (1u << 5)
#define PAN_IR_TEX_SHADOW (1u << 6)
#define PAN_IR_TEX_OFFSET (1u << 7)
#define PAN_IR_TEX_GATHER_COMP(imm) (((imm) >> 8) & 3u)
#define PAN_IR_TEX_GATHER_SHIFT 8
/* A fetch from a multisampled texture: the sample in byte 2 of the offset
 * word (Valhall's place; Bifrost's lowering moves it to byte 3). */
#define PAN_IR_TEX_MS (1u << 10)

/*
 * An operand.  As a destination, comps is the vector length of the new
 * value.  As a source, comps words are read starting at word comp of the
 * value (a scalar use of a vector picks one word).
 */
typedef struct {
   uint32_t value;
   uint8_t kind; /* enum pan_ir_kind */
   uint8_t comps;
   uint8_t comp;
   bool neg, abs; /* float source modifiers */
} pan_ir_index;

struct pan_ir_block;

typedef struct pan_ir_instr {
   struct list_head link;
   enum pan_ir_op op;

   pan_ir_index dest; /* kind PAN_IR_NULL when the op has none */
   pan_ir_index *src;
   unsigned nr_srcs;

   /* Modifiers; which ones an op uses is in pan_ir_op_infos[]. */
   enum pan_ir_type type;
   enum pan_ir_cmp cmp;
   uint32_t imm; /* immediate field (constant, offset, register) */
   bool on_zero; /* branchz: taken when the source is zero */
   struct pan_ir_block *target; /* branches */
} pan_ir_instr;

typedef struct pan_ir_block {
   struct list_head link;
   struct list_head instrs;
   unsigned index;

   /* Successors in order: the branch target, then the fall-through. */
   struct pan_ir_block *succ[2];
   struct util_dynarray preds; /* pan_ir_block * */

   /* Scratch for passes (liveness...). */
   void *pass_data;
} pan_ir_block;

typedef struct pan_ir_shader {
   struct list_head blocks;
   unsigned nr_blocks;
   unsigned ssa_alloc; /* next value number */

   /* After phi lowering a value may have several definitions. */
   bool out_of_ssa;

   /* Bytes of thread storage the scratch arrays take, from offset 0;
    * spill slots go after them. */
   unsigned scratch_size;
} pan_ir_shader;

/* Index constructors. */
static inline pan_ir_index
pan_ir_imm(uint32_t v)
{
   return (pan_ir_index){ .kind = PAN_IR_IMM, .value = v, .comps = 1 };
}

static inline pan_ir_index
pan_ir_uniform(unsigned word)
{
   return (pan_ir_index){ .kind = PAN_IR_UNIFORM, .value = word, .comps = 1 };
}

static inline pan_ir_index
pan_ir_special(enum pan_ir_special s)
{
   return (pan_ir_index){ .kind = PAN_IR_SPECIAL, .value = s, .comps = 1 };
}

static inline pan_ir_index
pan_ir_null(void)
{
   return (pan_ir_index){ .kind = PAN_IR_NULL };
}

/* Word c of a value, as a scalar source. */
static inline pan_ir_index
pan_ir_word(pan_ir_index v, unsigned c)
{
   v.comp += c;
   v.comps = 1;
   return v;
}

static inline pan_ir_index
pan_ir_fneg(pan_ir_index v)
{
   v.neg = !v.neg;
   return v;
}

static inline pan_ir_index
pan_ir_fabs(pan_ir_index v)
{
   v.abs = true;
   v.neg = false;
   return v;
}

static inline bool
pan_ir_is_ssa(pan_ir_index i)
{
   return i.kind == PAN_IR_SSA;
}

/* Whether I reads the SSA value v. */
static inline bool
pan_ir_reads(const pan_ir_instr *I, unsigned v)
{
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA && I->src[i].value == v)
         return true;
   }
   return false;
}

pan_ir_shader *pan_ir_shader_create(void *mem_ctx);
pan_ir_block *pan_ir_block_create(pan_ir_shader *s);
pan_ir_index pan_ir_new_value(pan_ir_shader *s, unsigned comps);
void pan_ir_block_add_succ(pan_ir_block *from, pan_ir_block *to);
void pan_ir_instr_remove(pan_ir_instr *I);

static inline pan_ir_block *
pan_ir_entry_block(pan_ir_shader *s)
{
   return list_first_entry(&s->blocks, pan_ir_block, link);
}

bool pan_ir_op_is_pure(enum pan_ir_op op);

/* The last instruction when it is a branch, else NULL. */
pan_ir_instr *pan_ir_block_terminator(pan_ir_block *b);

#define pan_ir_foreach_block(s, b)                                             \
   list_for_each_entry (pan_ir_block, b, &(s)->blocks, link)
#define pan_ir_foreach_instr(b, I)                                             \
   list_for_each_entry (pan_ir_instr, I, &(b)->instrs, link)
#define pan_ir_foreach_instr_safe(b, I)                                        \
   list_for_each_entry_safe (pan_ir_instr, I, &(b)->instrs, link)
#define pan_ir_foreach_instr_global(s, b, I)                                   \
   pan_ir_foreach_block(s, b) pan_ir_foreach_instr(b, I)
#define pan_ir_foreach_pred(blk, p)                                            \
   util_dynarray_foreach(&(blk)->preds, pan_ir_block *, p)

/*
 * Builder: instructions go at a cursor (end of a block, or before an
 * instruction).  The generated builders in pan_ir_builder.h use it.
 */
typedef struct {
   pan_ir_shader *shader;
   pan_ir_block *block;
   pan_ir_instr *before; /* NULL: append to block */
} pan_ir_builder;

static inline pan_ir_builder
pan_ir_builder_at_end(pan_ir_shader *s, pan_ir_block *b)
{
   return (pan_ir_builder){ .shader = s, .block = b };
}

static inline pan_ir_builder
pan_ir_builder_before(pan_ir_shader *s, pan_ir_block *b, pan_ir_instr *I)
{
   return (pan_ir_builder){ .shader = s, .block = b, .before = I };
}

/* Allocate an instruction with nr_srcs sources and insert it. */
pan_ir_instr *pan_ir_build(pan_ir_builder *b, enum pan_ir_op op,
                           unsigned nr_srcs);

/* Printing and validation (pan_ir_print.c, pan_ir_validate.c). */
void pan_ir_print_index(FILE *fp, pan_ir_index i);
void pan_ir_print_instr(FILE *fp, const pan_ir_instr *I);
void pan_ir_print_shader(FILE *fp, const pan_ir_shader *s);
/* Printed shader as a ralloc'd string of mem_ctx. */
char *pan_ir_shader_to_string(void *mem_ctx, const pan_ir_shader *s);

/* Returns true when valid; otherwise writes the first error to err. */
bool pan_ir_validate(const pan_ir_shader *s, char *err, size_t err_size);

/* Passes (one file each). */
bool pan_ir_opt_dce(pan_ir_shader *s);
bool pan_ir_opt_copy_prop(pan_ir_shader *s);
bool pan_ir_opt_collect(pan_ir_shader *s);
bool pan_ir_opt_cse(pan_ir_shader *s);
bool pan_ir_opt_sink(pan_ir_shader *s);
void pan_ir_lower_phis(pan_ir_shader *s);

#ifdef __cplusplus
}
#endif

#endif
