/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Internals of the Valhall interpreter: the decoded instruction, operand
 * access and the family handlers (one file per family group).
 */

#ifndef PAN_SIM_VA_PRIV_H
#define PAN_SIM_VA_PRIV_H

#include "pan_isa_va_priv.h"
#include "pan_isa_va_sem.h"
#include "pan_sim_memo.h"
#include "pan_sim_va.h"

#define VA_SIM_MAX_SRC 4

struct pan_sim_va_ins {
   uint64_t word;
   unsigned index; /* into va_ops[] */
   const struct va_op *op;
   const struct va_sem *sem;
   unsigned page;
   const char *flow; /* flow enum name */
   unsigned nr_src;
   const struct va_operand *src[VA_SIM_MAX_SRC];
   bool has_dest;
   unsigned dest_reg, dest_mask; /* mask bit 0: low half, bit 1: high */
   unsigned nr_staging;
   const struct va_operand *staging[2];
   struct pan_sim_memo *memo; /* cached instructions: lookups by name */
};

struct pan_sim_va_ctx {
   struct pan_sim_va_warp *w;
   const struct pan_sim_va_config *cfg;
   uint16_t exec; /* lanes running this instruction */
   unsigned pc;
   uint32_t next[PAN_SIM_VA_LANES]; /* next pc per lane, pc + 1 unless set */
   bool lane_id_entry[4][16], pc_entry[4][16];
   bool barrier; /* this instruction was a workgroup barrier */
   const char *refused; /* why the last refusal happened, or NULL */
   /* Lanes an "end" flow does not end: a BLEND whose descriptor asks for
    * a blend shader goes on into the call that follows it. */
   uint16_t keep;
};

/* Handler result: done, fault set, or the family is not this group's. */
enum va_sim_result {
   VA_SIM_OK,
   VA_SIM_FAULT,
   VA_SIM_UNCLAIMED,
   VA_SIM_BARRIER, /* scheduler only: the warp stops at a barrier */
};

#define foreach_lane(c, l)                                                     \
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l)                             \
      if ((c)->exec & (1u << l))

/* A fragment helper lane: its writes to memory others see are dropped. */
static inline bool
va_sim_helper(const struct pan_sim_va_ctx *c, unsigned lane)
{
   return (c->w->helper >> lane) & 1;
}

/* Faults: "pc N: name: message".  Both return VA_SIM_FAULT. */
enum va_sim_result pan_sim_va_fault(struct pan_sim_va_ctx *c,
                                    const struct pan_sim_va_ins *ins,
                                    const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));
/* An instruction or form the interpreter does not model. */
enum va_sim_result pan_sim_va_refuse(struct pan_sim_va_ctx *c,
                                     const struct pan_sim_va_ins *ins,
                                     const char *why);

/* Runs the code at va on `lanes` as a call and sets where each goes next
 * (pan_sim_va_call.c). */
enum va_sim_result pan_sim_va_call(struct pan_sim_va_ctx *c,
                                   const struct pan_sim_va_ins *ins,
                                   uint64_t va, uint16_t lanes);

/* Decode (pan_sim_va_operand.c).  Faults on malformed words. */
enum va_sim_result pan_sim_va_decode(struct pan_sim_va_ctx *c, uint64_t word,
                                     struct pan_sim_va_ins *ins);

/* Instruction modifiers by name: raw value, or -1 when absent. */
/* Modifiers and immediates by name: name and dflt must be string literals
 * (see pan_sim_memo.h). */
int pan_sim_va_mod(const struct pan_sim_va_ins *ins, const char *name);
/* Enum modifier value name, or dflt when absent. */
const char *pan_sim_va_mod_str(const struct pan_sim_va_ins *ins,
                               const char *name, const char *dflt);
/* Source modifiers by name, the same way. */
int pan_sim_va_src_mod(const struct pan_sim_va_ins *ins, unsigned s,
                       const char *name);
const char *pan_sim_va_src_mod_str(const struct pan_sim_va_ins *ins, unsigned s,
                                   const char *name, const char *dflt);
/* Immediate by name, sign-extended when signed.  Asserts it exists. */
int64_t pan_sim_va_imm(const struct pan_sim_va_ins *ins, const char *name);

uint32_t pan_sim_va_src32(const struct pan_sim_va_ctx *c,
                          const struct pan_sim_va_ins *ins, unsigned s,
                          unsigned lane);
uint64_t pan_sim_va_src64(const struct pan_sim_va_ctx *c,
                          const struct pan_sim_va_ins *ins, unsigned s,
                          unsigned lane);
void pan_sim_va_dest32(struct pan_sim_va_ctx *c,
                       const struct pan_sim_va_ins *ins, unsigned lane,
                       uint32_t v);
void pan_sim_va_dest64(struct pan_sim_va_ctx *c,
                       const struct pan_sim_va_ins *ins, unsigned lane,
                       uint64_t v);
/* Staging vector k: base register and length. */
void pan_sim_va_staging(const struct pan_sim_va_ins *ins, unsigned k,
                        unsigned *reg, unsigned *count);

/*
 * Element k of a source word under a lane swizzle given by its enum value
 * name (NULL: the natural element of a `bits` wide lane).  Returns the
 * element's width in *width (8, 16, 32 or 64).
 */
uint64_t pan_sim_va_element(uint64_t v, unsigned bits, unsigned k,
                            const char *swz, unsigned *width);

/* Float source s (binary32, or lane k of a v2f16) after its swizzle and
 * abs/neg modifiers, exactly as a double (pan_sim_va_falu.c). */
double pan_sim_va_fsrc(const struct pan_sim_va_ctx *c,
                       const struct pan_sim_va_ins *ins, unsigned s,
                       unsigned lane, unsigned k, unsigned bits);

/* Runs ins on the lanes of c->exec through the family groups; the one
 * dispatch of both execution and pan_sim_va_implemented(). */
enum va_sim_result pan_sim_va_dispatch(struct pan_sim_va_ctx *c,
                                       const struct pan_sim_va_ins *ins);

/* Family groups. */
enum va_sim_result pan_sim_va_exec_flow(struct pan_sim_va_ctx *c,
                                        const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_falu(struct pan_sim_va_ctx *c,
                                        const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_ialu(struct pan_sim_va_ctx *c,
                                        const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_cvt(struct pan_sim_va_ctx *c,
                                       const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_cmp(struct pan_sim_va_ctx *c,
                                       const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_sfu(struct pan_sim_va_ctx *c,
                                       const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_msg(struct pan_sim_va_ctx *c,
                                       const struct pan_sim_va_ins *ins);
/* Graphics messages (pan_sim_va_msg_gfx.c), reached from the message
 * group. */
enum va_sim_result pan_sim_va_exec_msg_gfx(struct pan_sim_va_ctx *c,
                                           const struct pan_sim_va_ins *ins);
/* Texture messages (pan_sim_va_msg_tex.c), reached the same way. */
enum va_sim_result pan_sim_va_exec_msg_tex(struct pan_sim_va_ctx *c,
                                           const struct pan_sim_va_ins *ins);
enum va_sim_result pan_sim_va_exec_msg_image(struct pan_sim_va_ctx *c,
                                             const struct pan_sim_va_ins *ins);
/* The descriptor table and index an attribute-style message names: its
 * immediates, or (register forms) the resource handle in source 2. */
void pan_sim_va_table_index(const struct pan_sim_va_ctx *c,
                            const struct pan_sim_va_ins *ins, bool imm,
                            unsigned lane, unsigned *table, unsigned *index);

static inline uint64_t
va_sim_sext(uint64_t v, unsigned bits)
{
   if (bits >= 64)
      return v;
   uint64_t m = 1ull << (bits - 1);
   v &= (1ull << bits) - 1;
   return (v ^ m) - m;
}

static inline uint64_t
va_sim_mask(unsigned bits)
{
   return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

#endif
