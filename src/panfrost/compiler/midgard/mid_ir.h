/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Midgard back end's own IR.  Midgard is a vec4 SIMD-within-a-register
 * VLIW machine: an instruction reads whole 128-bit registers through a
 * swizzle and writes a lane mask, so values here are vec4 variables with
 * per-source swizzles and per-destination masks, which the scalar shared
 * IR (pan_ir.h, one value per SSA index) does not model.  Operations are
 * ISA opcode names from midgard_isa.py; the encoder looks them up in the
 * generated tables.  Everything is 32-bit lanes in this first slice.
 */

#ifndef MID_IR_H
#define MID_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/list.h"
#include "util/u_dynarray.h"

#include "mid_compile.h"

enum mid_ref_kind {
   MID_REF_NONE,
   MID_REF_VAR,     /* virtual vec4, register allocated */
   MID_REF_HW,      /* a fixed register (r0/r1 writeout, r26/r27, r31) */
   MID_REF_CONST,   /* embedded constant lanes (r26 or inline immediate) */
   MID_REF_UNIFORM, /* preloaded uniform vec4 index (register r23 - i) */
};

struct mid_ref {
   uint8_t kind;
   unsigned index;
};

struct mid_src {
   struct mid_ref ref;
   uint8_t swz[4]; /* lane c reads component swz[c] */
   bool abs, neg;
   uint32_t imm[4]; /* MID_REF_CONST: the value lane c reads */
};

enum mid_kind {
   MID_ALU,
   MID_LDST,
   MID_BRANCH,   /* to target; cond: always, or r31.w true/false */
   MID_WRITEOUT, /* fragment end: colour in r0 */
   MID_TEX,      /* texture word: coordinates in tex.in_reg, result to dst */
};

enum mid_cond {
   MID_COND_ALWAYS,
   MID_COND_TRUE,
   MID_COND_FALSE,
};

/* Load/store operand fields, by their midgard_isa.py names. */
struct mid_ls {
   unsigned areg, acomp, ireg, icomp, ifmt, ishift;
   bool wide;
   bool data26; /* store: data in r26 instead of r27 */
   int offset;
   unsigned swz;
};

/* Texture operand fields, by their midgard_isa.py names. */
struct mid_tex {
   unsigned dim, mode, stype, texture, sampler;
   unsigned in_reg;      /* coordinates: struct mid_shader::tex_in */
   bool lodreg;          /* LOD/bias from (in_reg + 1).x, else bias/biasi */
   unsigned bias, biasi; /* constant LOD/bias, 8.8 fixed point */
   bool vertex;          /* texvtx tag: vertex stage or texel fetch */
   bool swizzled;        /* coordinates through inswz (else identity) */
   uint8_t inswz[4];     /* lane c reads component inswz[c] of in_reg */
   bool outswz_set;      /* result through outswz (else identity) */
   uint8_t outswz[4];    /* lane c gets component outswz[c] */
};

struct mid_block;
struct mid_sched_cache;

struct mid_instr {
   struct list_head link;
   enum mid_kind kind;
   const char *op;  /* ISA opcode name (ALU and load/store) */
   bool int_result; /* integer output modifier (keeplo) */
   unsigned omod;   /* float output modifier field value */
   struct mid_ref dst;
   uint8_t mask; /* 32-bit lanes written */
   struct mid_src src[2];
   unsigned nr_srcs;
   /* Must share a bundle with the next instruction, on an earlier unit
    * (it feeds r31 to a csel or branch). */
   bool pair_next;
   struct mid_ls ls;
   struct mid_tex tex;
   bool store; /* load/store: src[0] is data in r27 (not a destination) */
   struct mid_block *target;
   enum mid_cond cond;
   bool discard; /* branch: ends the thread instead (target unused) */
   unsigned rt;  /* writeout: render target (r1.z = rt << 8 when not 0) */
   /* mid_cross_lane's answer for op cross_op (asked per source read by
    * scheduling, packing and allocation; recomputed when op changes). */
   const char *cross_op;
   bool cross;
};

struct mid_block {
   struct list_head link;
   struct list_head instrs;
   unsigned index;
   /* Filled by emission: offset of the first bundle and its tag. */
   unsigned start_qw, start_tag;
   struct mid_block *succ[2];
};

/* A scheduled bundle (mid_sched.c); layout fields filled by emission. */
enum mid_bkind { MID_B_ALU, MID_B_LDST, MID_B_WRITEOUT, MID_B_TEX };

struct mid_bundle {
   enum mid_bkind kind;
   struct mid_block *block;   /* first bundle of this block, else NULL */
   struct mid_instr *unit[5]; /* by enum pan_mid_slot */
   struct mid_instr *branch;
   struct mid_instr *ls[2];
   uint32_t consts[4];
   unsigned nr_consts;
   /* Per unit: constant slot of each lane of each source; inline imm. */
   uint8_t cslot[5][2][4];
   bool imm[5];
   uint16_t imm16[5];
   unsigned pipe_used; /* r24/r25 taken by a forwarded value */
   /* Writeout bundles: one per render target goes out in program order,
    * its branch taken to a retry bundle (wo_target) while the tile buffer
    * refuses the write, the last one ending the program; after them each
    * retry bundle loops onto itself (writeout_last), followed for all
    * but the last target by a return bundle (wo_return, no words but an
    * unconditional branch) to the writeout of the next target. */
   bool writeout_last;
   bool wo_return;
   int wo_delta; /* the branch's target bundle, relative to this one */
   bool extended;      /* branch needs the extended form */
   unsigned qw, size_qw, tag;
};

#define MID_SCHED_LEVELS 26
/* Levels below this hoist varying stores; the levels from it up to the
 * last but one (which skips move elimination) are tried both ways. */
#define MID_HOIST_LEVELS 4

struct mid_shader {
   void *mem;
   gl_shader_stage stage;
   unsigned gpu_id;
   struct list_head blocks;
   unsigned nr_blocks;
   unsigned nr_vars;
   unsigned loops;
   unsigned push[MID_MAX_PUSH];
   unsigned push_ubo[MID_MAX_PUSH];
   unsigned nr_push;
   /* Pushed uniforms take r23 down: fewer leave more work registers. */
   unsigned max_push;
   unsigned sysval_ubo;
   unsigned nr_tex;
   bool writes_depth;
   unsigned rts_written;
   /* Fixed registers of texture words: inputs (coordinates; LOD/bias in
    * the next one) and results.  r28 for both on T860; the small cores
    * (mid_tex_aliasing) take inputs from r26/r27, results to r0. */
   unsigned tex_in, tex_out;
   /* Scheduling: struct mid_bundle, in program order.  level: how freely
    * the scheduler reorders (0: most; higher levels keep register
    * pressure closer to program order). */
   struct util_dynarray bundles;
   struct mid_bundle scratch; /* filled instead when bundles cannot grow */
   unsigned level;
   /* Set by scheduling: the smallest budget in quarter registers that
    * would not have changed the schedule, under the non-strict [0] and
    * strict [1] counts (mid_sched.c). */
   unsigned sched_peak[2];
   /* Windows from sched_reach to sched_hidden would have seen the same
    * ready groups at each bundle (ranks among the unscheduled groups in
    * program order: the farthest one seen, the nearest one hidden), so
    * they repeat the schedule. */
   unsigned sched_reach, sched_hidden;
   /* Set by the caller: a schedule of sched_cutoff bundles or more cannot
    * win (0: any can).  Scheduling stops (sched_cut) once the bundles
    * that no later pass removes reach it: after the last block, or
    * before it (sched_partial: the facts above are then incomplete) when
    * the caller does not need them (!sched_notes) or the budget has held
    * a group back already. */
   unsigned sched_cutoff;
   /* Set by the caller too: from sched_cut_regs[0] bundles on only a
    * schedule of at most 4 work registers can win, from sched_cut_regs[1]
    * on one of at most 8 (0: from none).  A whole schedule past one whose
    * registers provably exceed it (mid_reg_bound) stops before packing
    * (sched_cut). */
   unsigned sched_cut_regs[2];
   bool sched_notes, sched_cut, sched_partial;
   /* What scheduling derives from the IR alone (dependences, liveness,
    * reader counts): made by the first schedule of an IR and shared by
    * its clones, NULL for one made per schedule. */
   struct mid_sched_cache *sched_cache;
   /* Move varying stores up to their data's producers (mid_opt.c): fewer
    * moves, but r27 held longer, which can cost a register. */
   bool hoist_stores;
   /* T860, extra rounds: lane packing leaves whole the texture result
    * copies that allocation keeps in the second result register
    * (mid_ra.c), so that no other value takes their free lanes. */
   bool keep_tex_copies;
   bool ra_failed;
   /* Register allocation: physical register of each variable. */
   int *reg_of;
   unsigned work_regs;
   struct mid_binary bin;
   char err_buf[256];
   char *err;
   size_t err_size;
   bool failed;
};

#define mid_foreach_block(s, b)                                                \
   list_for_each_entry (struct mid_block, b, &(s)->blocks, link)
#define mid_foreach_instr(b, I)                                                \
   list_for_each_entry (struct mid_instr, I, &(b)->instrs, link)

/* Record the first error (printf-style); returns false. */
bool mid_error(struct mid_shader *s, const char *fmt, ...) PRINTFLIKE(2, 3);

struct mid_block *mid_block_create(struct mid_shader *s);
struct mid_instr *mid_instr_create(struct mid_shader *s, struct mid_block *b,
                                   enum mid_kind kind, const char *op);
/* A copy of the IR (blocks, instructions, shader fields) before
 * scheduling, on its own ralloc context under mem_ctx, so each schedule
 * starts from one front-end run. */
struct mid_shader *mid_shader_clone(const struct mid_shader *s, void *mem_ctx);

/* T720, T820 and T830 have no texture registers: texture words read the
 * load/store registers r26/r27 and write work registers r0/r1. */
static inline bool
mid_tex_aliasing(unsigned gpu_id)
{
   return gpu_id == 0x720 || gpu_id == 0x820 || gpu_id == 0x830;
}

/* Writeout bundles take the upper ALU tags (12-15) from the T820 on; the
 * T720 rejects them as an invalid encoding and takes the plain ones. */
static inline bool
mid_upper_alu_writeout(unsigned gpu_id)
{
   return gpu_id != 0x720;
}

static inline struct mid_ref
mid_var(unsigned i)
{
   return (struct mid_ref){ MID_REF_VAR, i };
}

static inline struct mid_ref
mid_hw(unsigned r)
{
   return (struct mid_ref){ MID_REF_HW, r };
}

/* Whether I writes hardware register r (a store's dst is data it reads). */
static inline bool
mid_writes_hw(const struct mid_instr *I, unsigned r)
{
   return !I->store && I->dst.kind == MID_REF_HW && I->dst.index == r;
}

static inline bool
mid_op_is_int(const char *op)
{
   return op[0] == 'i' || op[0] == 'u';
}

/* An identity-swizzled source. */
struct mid_src mid_src_ref(struct mid_ref r);

void mid_print(const struct mid_shader *s, FILE *fp);

/* imov without modifiers or pairing. */
bool mid_is_plain_move(const struct mid_instr *I);
/* A plain move between variables, each written lane reading itself: a
 * no-op once both share a register. */
bool mid_is_var_copy(const struct mid_instr *I);
/* No instruction in any block. */
bool mid_is_empty(const struct mid_shader *s);
/* Bit r: the instruction reads fixed register r (implicitly included:
 * store data r27, load/store address registers, texture inputs). */
uint32_t mid_hw_reads(const struct mid_instr *I);

/* Whether an ALU op combines lanes (dot products, reductions, all/any
 * compares): every lane of its result depends on several source lanes,
 * read by position whatever its mask. */
bool mid_cross_lane(const struct mid_instr *I);
/* The positions (instruction lanes) at which I reads its sources: its
 * mask for lane-by-lane ALU ops, the lanes a cross-lane op combines
 * (fdot3: 0-2) whatever its mask, all four for other kinds (store data,
 * writeout colour).  Constants are placed for these lanes. */
unsigned mid_read_positions(const struct mid_instr *I);
/* The lanes of src's variable I reads: mid_read_positions through the
 * swizzle.  Liveness, dead code removal and the move passes ask this. */
unsigned mid_src_lanes(const struct mid_instr *I, const struct mid_src *src);

/* Passes, in pipeline order. */
bool mid_from_nir(struct mid_shader *s, nir_shader *nir);
void mid_dce(struct mid_shader *s);
void mid_opt_moves(struct mid_shader *s);
/* Varying stores (with the writes of their data register) moved up to
 * their data's last write (mid_ra_stores.c); true when something moved.
 * pull: with the writes of a variable only the store's move reads, and
 * every computation only the store reads (its loads too). */
bool mid_ra_early_stores(struct mid_shader *s, bool pull);
/* T860, extra rounds: whether a texture result is copied out (sets
 * keep_tex_copies); the result's readers after its copy then read the
 * copy, so that they need not come before the next lookup. */
bool mid_ra_keep_tex_copies(struct mid_shader *s);
/* After scheduling: the variables of the texture results that allocation
 * will keep in r28, appended to vars (unsigned). */
void mid_ra_kept_tex_copies(struct mid_shader *s, struct util_dynarray *vars);
/* Varying loads read only by texture coordinate moves load into the
 * texture input register, the lookups reading it through their swizzle
 * (mid_tex_coords.c); true when one did. */
bool mid_tex_coords(struct mid_shader *s);
/* Texture lookups (with their coordinate writes and result readers)
 * moved down to just before their results' first use (mid_tex_late.c);
 * true when one moved. */
bool mid_tex_late(struct mid_shader *s);
/* Varying, attribute and uniform-buffer loads moved down to just before
 * the first instruction touching their variable (mid_late_loads.c);
 * true when one moved. */
bool mid_late_loads(struct mid_shader *s);
/* Whether a schedule of `fewer` bundles at half the threads of one of
 * `more` bundles is the better one (mid_compile.c). */
bool mid_half_threads_pay(unsigned fewer, unsigned more);
/* The same for a one-thread schedule against a two-thread one. */
bool mid_one_thread_pays(unsigned one, unsigned two);
bool mid_schedule(struct mid_shader *s);
/* How many unscheduled groups, in program order, a level considers. */
unsigned mid_sched_window(unsigned level);
/* The quarter registers a level lets the block keep live (0: any), for
 * this shader, and whether it counts them strictly. */
unsigned mid_sched_limit(const struct mid_shader *s, unsigned level);
bool mid_sched_strict(unsigned level);
/* Whether writes of other lanes of a fixed register keep their order. */
bool mid_sched_ordered(unsigned level);
/* A cache for the schedules of clones of one IR, on mem (the IR's). */
struct mid_sched_cache *mid_sched_cache_create(void *mem);
/* Its lanes live into (or out of) each block by index and variable,
 * made before the first schedule and handed to lane packing (scheduling
 * keeps them); NULL before. */
const uint8_t *mid_sched_cache_live(const struct mid_sched_cache *c,
                                    bool out);
bool mid_ra(struct mid_shader *s);
void mid_drop_self_moves(struct mid_shader *s);
/* Per block (by index) and variable, the lanes live into the block, in
 * the current instruction order; successors are recomputed. */
uint8_t *mid_live_in(struct mid_shader *s, void *mem);
/* The lanes live out of b, per variable, into live[nr_vars]. */
void mid_live_out(const struct mid_shader *s, const uint8_t *live_in,
                  const struct mid_block *b, uint8_t *live);
bool mid_emit(struct mid_shader *s, struct mid_binary *out);

#endif
