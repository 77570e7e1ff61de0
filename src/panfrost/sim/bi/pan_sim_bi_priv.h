/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Internals of the Bifrost interpreter: the decoded instruction, the state
 * of the tuple being executed and the family handlers.
 */

#ifndef PAN_SIM_BI_PRIV_H
#define PAN_SIM_BI_PRIV_H

#include "pan_isa_bi_priv.h"
#include "pan_isa_bi_sem.h"
#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"
#include "pan_sim_memo.h"

struct pan_sim_bi_ins {
   uint32_t word;
   unsigned unit;  /* 0 FMA, 1 ADD */
   unsigned index; /* into bi_ops[] */
   const struct bi_op *op;
   const struct bi_sem *sem;
   struct pan_sim_memo *memo; /* NULL: look up every time */
};

struct pan_sim_bi_ctx {
   struct pan_sim_bi_warp *w;
   const struct pan_sim_bi_config *cfg;
   unsigned lanes;
   uint16_t exec; /* lanes running this clause */
   uint64_t clause_pc;
   const struct bi_clause *clause;
   unsigned tuple;
   struct bi_regblock blk;

   /* Per lane: the ports read at the start of the tuple, the FAU value,
    * the previous tuple's results (t0 FMA, t1 ADD), this tuple's FMA
    * result (t, for the ADD) and the result being produced. */
   uint32_t port[PAN_SIM_BI_MAX_LANES][3];
   uint32_t fau[2][PAN_SIM_BI_MAX_LANES]; /* low, high word */
   uint32_t t0[PAN_SIM_BI_MAX_LANES], t1[PAN_SIM_BI_MAX_LANES];
   uint32_t t[PAN_SIM_BI_MAX_LANES];
   uint32_t res[PAN_SIM_BI_MAX_LANES];

   /* Branch decision of the clause, per lane. */
   uint16_t taken;
   uint64_t target[PAN_SIM_BI_MAX_LANES];
   bool barrier; /* the clause holds a BARRIER */
   /* Lanes whose BLEND calls a blend shader when the clause ends, and
    * where (the full address). */
   uint16_t calls;
   uint64_t call_va[PAN_SIM_BI_MAX_LANES];
};

enum bi_sim_result {
   BI_SIM_OK,
   BI_SIM_FAULT,
   BI_SIM_UNCLAIMED,
};

#define bi_foreach_lane(c, l)                                                  \
   for (unsigned l = 0; l < (c)->lanes; ++l)                                   \
      if ((c)->exec & (1u << l))

/* A fragment helper lane: its writes to memory others see are dropped. */
static inline bool
bi_sim_helper(const struct pan_sim_bi_ctx *c, unsigned lane)
{
   return (c->w->helper >> lane) & 1;
}

/* Faults: "clause 0xPC tuple N fma|add name: message". */
enum bi_sim_result pan_sim_bi_fault(struct pan_sim_bi_ctx *c,
                                    const struct pan_sim_bi_ins *ins,
                                    const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

/* The declared register file (pan_sim_bi_regs.c): the tuple's register
 * block (c->blk) reads and writes, and staging registers sr..sr+n-1
 * (also within r63); fault naming the first register missing. */
enum bi_sim_result pan_sim_bi_block_regs_ok(struct pan_sim_bi_ctx *c);
enum bi_sim_result pan_sim_bi_staging_ok(struct pan_sim_bi_ctx *c,
                                         const struct pan_sim_bi_ins *ins,
                                         unsigned sr, unsigned n);

/* Modifier by name (a string literal, see pan_sim_memo.h): raw value
 * or -1 when the encoding has none. */
int pan_sim_bi_mod(const struct pan_sim_bi_ins *ins, const char *name);
/* Enum value name of a modifier, dflt when absent. */
const char *pan_sim_bi_mod_str(const struct pan_sim_bi_ins *ins,
                               const char *name, const char *dflt);
bool pan_sim_bi_mod_is(const struct pan_sim_bi_ins *ins, const char *name,
                       const char *value);
int pan_sim_bi_imm(const struct pan_sim_bi_ins *ins, const char *name);

/* A value the caller derived from the instruction, remembered under (tag,
 * arg) (string literals) when the instruction is cached: get is false
 * when none was put. */
bool pan_sim_bi_memo_get(const struct pan_sim_bi_ins *ins, const char *tag,
                         const char *arg, int64_t *v);
void pan_sim_bi_memo_put(const struct pan_sim_bi_ins *ins, const char *tag,
                         const char *arg, int64_t v);

/* Per-source modifier names, literals for the lookups above. */
extern const char *const pan_sim_bi_abs_name[4];
extern const char *const pan_sim_bi_neg_name[4];
extern const char *const pan_sim_bi_swz_name[4];
extern const char *const pan_sim_bi_widen_name[4];

/* Where source s (index into op->srcs) is read from: lane l's value is
 * p[l * stride].  Resolved once per instruction so that lane loops only
 * index (stride 0 for the constant zero). */
struct bi_src_ref {
   const uint32_t *p;
   unsigned stride;
};

static inline struct bi_src_ref
pan_sim_bi_src_ref(const struct pan_sim_bi_ctx *c,
                   const struct pan_sim_bi_ins *ins, unsigned s)
{
   static const uint32_t zero;
   unsigned sel = (ins->word >> ins->op->srcs[s]) & 7;
   switch (sel) {
   case 0:
   case 1:
   case 2:
      return (struct bi_src_ref){ &c->port[0][sel], 3 };
   case 3:
      /* FMA: the constant zero; ADD: this tuple's FMA result. */
      return ins->unit ? (struct bi_src_ref){ c->t, 1 }
                       : (struct bi_src_ref){ &zero, 0 };
   case 4:
   case 5:
      return (struct bi_src_ref){ c->fau[sel - 4], 1 };
   case 6:
      return (struct bi_src_ref){ c->t0, 1 };
   default:
      return (struct bi_src_ref){ c->t1, 1 };
   }
}

static inline uint32_t
bi_src_at(struct bi_src_ref r, unsigned lane)
{
   return r.p[lane * r.stride];
}

/* 32-bit value of source s for a lane (lane loops of hot handlers take a
 * pan_sim_bi_src_ref first). */
static inline uint32_t
pan_sim_bi_src(const struct pan_sim_bi_ctx *c,
               const struct pan_sim_bi_ins *ins, unsigned s, unsigned lane)
{
   return bi_src_at(pan_sim_bi_src_ref(c, ins, s), lane);
}

/* The family groups in turn: UNCLAIMED when none claims ins.  With c NULL
 * only whether ins is executed; the one dispatch of execution and of
 * pan_sim_bi_implemented(). */
enum bi_sim_result pan_sim_bi_dispatch(struct pan_sim_bi_ctx *c,
                                       const struct pan_sim_bi_ins *ins);

/* Family groups; UNCLAIMED when the family is not theirs.  With c NULL,
 * they only say whether they execute the instruction (BI_SIM_OK) or
 * refuse it (UNCLAIMED); every refusal must be decided there, from the
 * instruction word alone. */
enum bi_sim_result pan_sim_bi_exec_falu(struct pan_sim_bi_ctx *c,
                                        const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_ialu(struct pan_sim_bi_ctx *c,
                                        const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_sfu(struct pan_sim_bi_ctx *c,
                                       const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_flow(struct pan_sim_bi_ctx *c,
                                        const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_msg_gfx(struct pan_sim_bi_ctx *c,
                                           const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_msg(struct pan_sim_bi_ctx *c,
                                       const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_msg_tex(struct pan_sim_bi_ctx *c,
                                           const struct pan_sim_bi_ins *ins);
enum bi_sim_result pan_sim_bi_exec_msg_image(struct pan_sim_bi_ctx *c,
                                             const struct pan_sim_bi_ins *ins);

/* Run the blend shaders the clause's BLEND called (pan_sim_bi_call.c):
 * their lanes go on where the shader returns, or end. */
enum bi_sim_result pan_sim_bi_call(struct pan_sim_bi_ctx *c);

static inline uint32_t
bi_sim_sext(uint32_t v, unsigned bits)
{
   uint32_t m = 1u << (bits - 1);
   v &= bits >= 32 ? ~0u : (1u << bits) - 1;
   return (v ^ m) - m;
}

#endif
