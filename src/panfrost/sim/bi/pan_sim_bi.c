/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Clause execution of the Bifrost interpreter.
 *
 * Lanes keep their own clause address.  Each step runs the clause at the
 * lowest address among the live lanes for every lane waiting there, so
 * lanes that diverged on a forward branch meet again at the first clause
 * both reach and a loop runs until its last lane leaves it.
 *
 * Within a tuple the register block reads its ports first and then writes
 * the previous tuple's results, so a tuple sees the registers as they were
 * before that write (the hardware's t0/t1 pass-through is how a tuple gets
 * the previous results).  The first block's writes are those of the last
 * tuple: they land when the clause ends.
 */

#include <string.h>

#include "pan_sim_bi_cache.h"

static const int8_t fau_const_slot[8] = { -1, -1, 4, 5, 0, 1, 2, 3 };

void
pan_sim_bi_warp_init(struct pan_sim_bi_warp *w, uint16_t exec_mask)
{
   memset(w, 0, sizeof(*w));
   w->live = exec_mask;
}

static enum bi_sim_result (*const groups[])(struct pan_sim_bi_ctx *,
                                            const struct pan_sim_bi_ins *) = {
   pan_sim_bi_exec_falu, pan_sim_bi_exec_ialu,    pan_sim_bi_exec_sfu,
   pan_sim_bi_exec_flow, pan_sim_bi_exec_msg,     pan_sim_bi_exec_msg_gfx,
   pan_sim_bi_exec_msg_tex,
};

enum bi_sim_result
pan_sim_bi_dispatch(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   /* A cached instruction remembers the group that claimed it. */
   if (c && ins->memo && ins->memo->group >= 0)
      return groups[ins->memo->group](c, ins);
   for (unsigned i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
      enum bi_sim_result r = groups[i](c, ins);
      if (r != BI_SIM_UNCLAIMED) {
         if (c && ins->memo)
            ins->memo->group = (int8_t)i;
         return r;
      }
   }
   return BI_SIM_UNCLAIMED;
}

const char *
pan_sim_bi_refusal(unsigned index)
{
   struct pan_sim_bi_ins ins = { .index = index,
                                 .op = &bi_ops[index],
                                 .sem = &bi_sems[index],
                                 .unit = bi_ops[index].unit,
                                 .word = bi_ops[index].exact };
   return pan_sim_bi_dispatch(NULL, &ins) == BI_SIM_OK ? NULL : "not modelled";
}

/*
 * The clause-address modifier M of constant k, applied as the hardware
 * reads it.  M is the layout's M field for the constant packed in the
 * tuple words (none in the layouts of 5 and 8 tuples) and (top(first) -
 * top(second)) mod 16 of the 4 top stored bits of a pair.  0 and 8-15
 * leave the constants alone; 1 and 6 add the clause address to the first
 * (sign-extended from 60 bits), 2 to both; 4 adds its low word to the
 * first's high word (sign-extended from 28 bits), 5 to both high words.
 * 3 is reserved; 7 (per-word forms chosen by a second difference) is not
 * modelled.
 */
static enum bi_sim_result
const_modifier(struct pan_sim_bi_ctx *c, unsigned k, uint64_t *v)
{
   const struct bi_clause *cl = c->clause;
   unsigned n = cl->nr_tuples, packed = bi_ec0_packed(n), m;
   bool second = false;
   if (packed && k == 0) {
      m = n == 5 || n == 8 ? 0 : cl->m & 0xf;
   } else {
      unsigned first = k - ((k - packed) & 1);
      if (first + 1 >= cl->nr_consts)
         return BI_SIM_OK;
      uint64_t a = cl->consts[first] >> 56, b = cl->consts[first + 1] >> 56;
      m = (unsigned)(a - b) & 0xf;
      second = k != first;
   }
   if (m == 0 || m >= 8 || (second && m != 2 && m != 5))
      return BI_SIM_OK;
   if (m == 3 || m == 7)
      return pan_sim_bi_fault(c, NULL, "constant c%u: modifier M=%u %s", k, m,
                              m == 3 ? "is reserved" : "not modelled");
   uint64_t addr = c->cfg->program_va + c->clause_pc;
   if (m == 4 || m == 5) {
      uint32_t hi = bi_sim_sext((uint32_t)(*v >> 32), 28) + (uint32_t)addr;
      *v = (*v & 0xffffffffull) | (uint64_t)hi << 32;
   } else {
      *v = (uint64_t)((int64_t)(*v << 4) >> 4) + addr;
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
read_fau(struct pan_sim_bi_ctx *c, unsigned fau, unsigned lane, uint64_t *v)
{
   const struct pan_sim_bi_config *cfg = c->cfg;
   if (fau & 0x80) {
      unsigned u = (fau & 0x7f) * 2;
      if (u >= cfg->uniform_words || !cfg->uniforms)
         return pan_sim_bi_fault(c, NULL, "uniform u%u beyond the %u words",
                                 fau & 0x7f, cfg->uniform_words);
      *v = cfg->uniforms[u];
      if (u + 1 < cfg->uniform_words)
         *v |= (uint64_t)cfg->uniforms[u + 1] << 32;
      return BI_SIM_OK;
   }
   int k = fau_const_slot[fau >> 4];
   if (k >= 0) {
      if ((unsigned)k >= c->clause->nr_consts)
         return pan_sim_bi_fault(c, NULL, "constant c%d of %u", k,
                                 c->clause->nr_consts);
      *v = c->clause->consts[k] << 4 | (fau & 15);
      return const_modifier(c, (unsigned)k, v);
   }
   if (fau >= 16)
      return pan_sim_bi_fault(c, NULL, "FAU index 0x%x not modelled", fau);
   *v = fau == 1 ? lane : cfg->special[fau];
   return BI_SIM_OK;
}

static void
write_dest(struct pan_sim_bi_ctx *c, const struct bi_dest *d,
           const uint32_t *val)
{
   if (d->reg < 0)
      return;
   bi_foreach_lane(c, l)
   {
      uint32_t *r = &c->w->r[l][d->reg];
      if (d->half == BI_HALF_LO)
         *r = (*r & 0xffff0000u) | (val[l] & 0xffff);
      else if (d->half == BI_HALF_HI)
         *r = (*r & 0xffffu) | val[l] << 16;
      else
         *r = val[l];
   }
}

static enum bi_sim_result
decode(struct pan_sim_bi_ctx *c, uint32_t word, unsigned unit,
       struct pan_sim_bi_ins *ins)
{
   if (!pan_sim_bi_identify(word, unit, ins)) {
      const char *why = bi_instr_problem(word, unit);
      return pan_sim_bi_fault(c, NULL, "tuple %u %s word 0x%x: %s", c->tuple,
                              unit ? "add" : "fma", word,
                              why ? why : "unknown encoding");
   }
   /* A source selecting a port that reads nothing is a malformed tuple. */
   for (unsigned s = 0; s < ins->op->nr_srcs; s++) {
      unsigned sel = (word >> ins->op->srcs[s]) & 7;
      if (sel < 3 && c->blk.read[sel] < 0)
         return pan_sim_bi_fault(c, ins,
                                 "source %u reads port %u, which "
                                 "reads no register",
                                 s, sel);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_ins(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   bi_foreach_lane(c, l) c->res[l] = 0;
   enum bi_sim_result r = pan_sim_bi_dispatch(c, ins);
   if (r == BI_SIM_UNCLAIMED)
      return pan_sim_bi_fault(c, ins, "not modelled (family %s)",
                              bi_family_names[ins->sem->family]);
   return r;
}

/* Unit of a tuple: from the decoded tuple d when it decoded, else decoded
 * here (which reports the fault). */
static enum bi_sim_result
exec_unit(struct pan_sim_bi_ctx *c, const struct bi_sim_tuple *d,
          uint32_t word, unsigned unit)
{
   if (d)
      return exec_ins(c, &d->ins[unit]);
   struct pan_sim_bi_ins ins;
   if (decode(c, word, unit, &ins))
      return BI_SIM_FAULT;
   return exec_ins(c, &ins);
}

static enum bi_sim_result
exec_tuple(struct pan_sim_bi_ctx *c, const struct bi_tuple *t,
           const struct bi_sim_tuple *d)
{
   if (d)
      c->blk = d->blk;
   else if (!bi_regs_decode(t->regs, c->tuple == 0, &c->blk))
      return pan_sim_bi_fault(c, NULL, "tuple %u: reserved register block",
                              c->tuple);
   if (pan_sim_bi_block_regs_ok(c))
      return BI_SIM_FAULT;
   for (unsigned p = 0; p < 3; p++) {
      int reg = c->blk.read[p];
      bi_foreach_lane(c, l) c->port[l][p] = reg >= 0 ? c->w->r[l][reg] : 0;
   }
   /* The FAU value is the same for every lane but lane_id (index 1). */
   uint64_t fau = 0;
   if (read_fau(c, c->blk.fau, 0, &fau))
      return BI_SIM_FAULT;
   bool lane_id = c->blk.fau == 1;
   bi_foreach_lane(c, l)
   {
      uint64_t v = lane_id ? l : fau;
      c->fau[0][l] = (uint32_t)v;
      c->fau[1][l] = (uint32_t)(v >> 32);
   }
   if (c->tuple > 0) {
      write_dest(c, &c->blk.fma, c->t0);
      write_dest(c, &c->blk.add, c->t1);
   }
   if (exec_unit(c, d, t->fma, 0))
      return BI_SIM_FAULT;
   memcpy(c->t, c->res, sizeof(c->t));
   if (exec_unit(c, d, t->add, 1))
      return BI_SIM_FAULT;
   memcpy(c->t0, c->t, sizeof(c->t0));
   memcpy(c->t1, c->res, sizeof(c->t1));
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_clause(struct pan_sim_bi_ctx *c, unsigned quads,
            const struct bi_sim_clause *dc)
{
   const struct bi_clause *cl = c->clause;
   c->taken = 0;
   c->calls = 0;
   c->barrier = false;
   for (c->tuple = 0; c->tuple < cl->nr_tuples; c->tuple++) {
      if (++c->w->tuples >
          (c->cfg->budget ? c->cfg->budget : PAN_SIM_BI_DEFAULT_BUDGET))
         return pan_sim_bi_fault(c, NULL,
                                 "instruction budget of %llu "
                                 "tuples exhausted",
                                 (unsigned long long)c->w->tuples - 1);
      const struct bi_sim_tuple *d =
         dc && dc->t[c->tuple].ok ? &dc->t[c->tuple] : NULL;
      if (exec_tuple(c, &cl->tuples[c->tuple], d))
         return BI_SIM_FAULT;
   }
   /* The last tuple's results go where the first block says. */
   struct bi_regblock first;
   if (dc)
      first = dc->first;
   else
      bi_regs_decode(cl->tuples[0].regs, true, &first);
   write_dest(c, &first.fma, c->t0);
   write_dest(c, &first.add, c->t1);

   bool end = ((cl->header >> 11) & 7) == 0;
   uint64_t size_B = c->cfg->program_quads * 16ull;
   bi_foreach_lane(c, l)
   {
      if ((c->taken & (1u << l)) && c->cfg->returns &&
          c->target[l] >= size_B) {
         /* Out of called code: back to the caller (pan_sim_bi_call.c). */
         c->w->exited |= 1u << l;
         c->w->exit_va[l] = c->cfg->program_va + c->target[l];
         c->w->live &= ~(1u << l);
      } else if (c->taken & (1u << l))
         c->w->pc[l] = c->target[l];
      else if (end)
         c->w->live &= ~(1u << l);
      else
         c->w->pc[l] = c->clause_pc + quads * 16ull;
   }
   /* A BLEND's call runs once the clause is done (its return value is in
    * its destination register by then). */
   return c->calls ? pan_sim_bi_call(c) : BI_SIM_OK;
}

static enum pan_sim_bi_status
run_warp(struct pan_sim_bi_warp *w, const struct pan_sim_bi_config *cfg)
{
   struct pan_sim_bi_ctx c = { .w = w, .cfg = cfg };
   struct bi_clause clause;
   c.clause = &clause;
   c.lanes = cfg->lanes ? cfg->lanes : PAN_SIM_BI_LANES_G52;
   if (c.lanes > PAN_SIM_BI_MAX_LANES) {
      pan_sim_bi_fault(&c, NULL, "warp of %u lanes, at most %u", c.lanes,
                       PAN_SIM_BI_MAX_LANES);
      return PAN_SIM_BI_FAULT;
   }
   w->live &= (uint16_t)((1u << c.lanes) - 1);

   while (w->live) {
      uint64_t pc = UINT64_MAX;
      for (unsigned l = 0; l < c.lanes; l++) {
         if ((w->live & (1u << l)) && w->pc[l] < pc)
            pc = w->pc[l];
      }
      c.exec = 0;
      for (unsigned l = 0; l < c.lanes; l++) {
         if ((w->live & (1u << l)) && w->pc[l] == pc)
            c.exec |= 1u << l;
      }
      c.clause_pc = pc;
      c.tuple = 0;
      if (pc % 16 || pc / 16 >= cfg->program_quads) {
         pan_sim_bi_fault(&c, NULL,
                          "program counter outside the %u-quadword "
                          "program",
                          cfg->program_quads);
         return PAN_SIM_BI_FAULT;
      }
      const struct bi_sim_clause *dc = pan_sim_bi_cache_get(cfg, pc);
      unsigned quads;
      if (dc) {
         c.clause = &dc->clause;
         quads = dc->quads;
      } else {
         unsigned avail = cfg->program_quads - (unsigned)(pc / 16);
         c.clause = &clause;
         quads = bi_unpack_clause(cfg->program + pc / 8, avail, &clause);
      }
      if (!quads) {
         pan_sim_bi_fault(&c, NULL, "malformed clause");
         return PAN_SIM_BI_FAULT;
      }
      w->clauses++;
      memset(c.t0, 0, sizeof(c.t0));
      memset(c.t1, 0, sizeof(c.t1));
      uint16_t waiting = w->live & ~c.exec;
      if (exec_clause(&c, quads, dc))
         return PAN_SIM_BI_FAULT;
      if (c.barrier && waiting) {
         /* Lanes elsewhere would wait at another barrier or never: the
          * hardware's behaviour is undefined, say so. */
         pan_sim_bi_fault(&c, NULL,
                          "barrier reached by lanes 0x%x while lanes 0x%x "
                          "are elsewhere (divergent control flow)",
                          c.exec, waiting);
         return PAN_SIM_BI_FAULT;
      }
      if (c.barrier)
         return PAN_SIM_BI_BARRIER;
   }
   return PAN_SIM_BI_DONE;
}

enum pan_sim_bi_status
pan_sim_bi_run(struct pan_sim_bi_warp *w, const struct pan_sim_bi_config *cfg)
{
   pan_sim_bi_cache_enter();
   enum pan_sim_bi_status st = run_warp(w, cfg);
   pan_sim_bi_cache_leave();
   return st;
}
