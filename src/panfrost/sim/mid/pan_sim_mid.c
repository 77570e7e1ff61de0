/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Midgard interpreter's main loop: bundles by tag (checking each
 * bundle's lookahead tag against the one that follows), the units of an
 * ALU bundle in pipeline order, branches, discard and writeout.
 */

#include "pan_sim_mid_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool
mid_fault(struct pan_sim_mid_thread *t, const char *fmt, ...)
{
   char msg[PAN_SIM_MID_FAULT_LEN];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   snprintf(t->fault, sizeof(t->fault), "bundle at 0x%x: %s", t->pc, msg);
   return false;
}

uint64_t
mid_f(const struct pan_mid_instr *I, const char *name)
{
   uint64_t v = 0;
   return pan_mid_instr_field(I, name, &v) ? v : 0;
}

const uint32_t *
mid_read_reg(const struct mid_exec *x, unsigned reg)
{
   return x->in[reg & (PAN_SIM_MID_REGS - 1)];
}

uint32_t *
mid_write_reg(struct mid_exec *x, unsigned reg)
{
   reg &= PAN_SIM_MID_REGS - 1;
   if (reg == MID_REG_TEX || reg == MID_REG_TEX + 1)
      return x->t->tex_in[reg - MID_REG_TEX];
   return x->t->r[reg];
}

void
pan_sim_mid_thread_init(struct pan_sim_mid_thread *t)
{
   memset(t, 0, sizeof(*t));
}

enum branch_result { BR_NONE, BR_TAKEN, BR_END };

/* Whether an ALU word of the bundle writes 32-bit lane `lane` of `reg`
 * (the writeout reads r1.z as its render target only then). */
static bool
bundle_writes(const struct mid_exec *x, unsigned reg, unsigned lane)
{
   for (unsigned i = 0; i < x->b->nr_instrs; i++) {
      const struct pan_mid_instr *I = &x->b->instrs[i];
      if (I->slot >= PAN_MID_BR || mid_f(I, "d") != reg)
         continue;
      if (I->slot == PAN_MID_SADD || I->slot == PAN_MID_SMUL) {
         /* In 16-bit halves, whether the write is 32 or 16 bits. */
         if (mid_f(I, "dcomp") >> 1 == lane)
            return true;
      } else if (mid_f(I, "mask") & (3u << (2 * lane))) {
         return true;
      }
   }
   return false;
}

/* Run a branch word; *target is set to the new pc when taken. */
static bool
exec_branch(struct mid_exec *x, const struct pan_mid_instr *I, uint32_t next_pc,
            enum branch_result *res, uint32_t *target, unsigned *target_tag)
{
   unsigned value;
   const char *name = pan_mid_instr_op(I, &value, NULL);
   bool ext = I->slot == PAN_MID_BRX;
   bool cond = x->t->r[MID_REG_COND][3] != 0;
   bool taken;

   if (!name)
      return mid_fault(x->t, "unknown branch operation %u", value);
   if (mid_f(I, "call") > 1)
      return mid_fault(x->t, "%s: calls and returns are not simulated", name);
   if (!strcmp(name, "tilebuf"))
      return mid_fault(x->t, "tilebuf wait is refused: no tile buffer");

   if (ext) {
      /* Truth table indexed by the condition bit (the other inputs of
       * the table are not known; they read as zero). */
      taken = (mid_f(I, "lut") >> (cond ? 1 : 0)) & 1;
   } else if (!strcmp(name, "uncond")) {
      taken = true;
   } else {
      static const bool when[4][2] = {
         { false, false }, { true, false }, { false, true }, { true, true }
      };
      taken = when[mid_f(I, "cond")][cond];
   }

   *res = BR_NONE;
   if (!strcmp(name, "writeout")) {
      /* The colour in r0 goes out; our tile buffer always accepts it, so
       * the retry loop the branch encodes is never taken. */
      if (taken) {
         unsigned rt = bundle_writes(x, 1, 2) ? x->t->r[1][2] >> 8 : 0;
         if (rt >= PAN_SIM_MID_RTS)
            return mid_fault(x->t, "writeout to render target %u", rt);
         memcpy(x->t->colour, x->t->r[0], sizeof(x->t->colour));
         memcpy(x->t->rt_colour[rt], x->t->r[0], sizeof(x->t->colour));
         x->t->rt_written |= 1u << rt;
         x->t->writeouts++;
      }
      return true;
   }
   if (!taken)
      return true;
   if (!strcmp(name, "discard")) {
      x->t->discarded = true;
      *res = BR_END;
      return true;
   }
   int64_t off = (int64_t)mid_f(I, "offset");
   int64_t pc = (int64_t)next_pc + off * 16;
   if (pc < 0 || pc >= (int64_t)x->cfg->program_size)
      return mid_fault(x->t, "branch to 0x%llx outside the program",
                       (long long)pc);
   *target = pc;
   *target_tag = mid_f(I, "target");
   *res = BR_TAKEN;
   return true;
}

static bool
exec_alu_bundle(struct mid_exec *x, uint32_t next_pc, enum branch_result *res,
                uint32_t *target, unsigned *target_tag)
{
   const struct pan_mid_bundle *b = x->b;
   *res = BR_NONE;
   /* Instructions are stored in unit order: vmul, sadd, vadd, smul, lut,
    * then the branch.  The second stage (vadd on) sees every write of the
    * first, the branch every write of the bundle. */
   bool second = false;
   for (unsigned i = 0; i < b->nr_instrs; i++) {
      const struct pan_mid_instr *I = &b->instrs[i];
      if (!second && I->slot >= PAN_MID_VADD) {
         memcpy(x->in, x->t->r, sizeof(x->in));
         second = true;
      }
      bool ok = I->slot < PAN_MID_BR
                   ? mid_exec_alu(x, I)
                   : exec_branch(x, I, next_pc, res, target, target_tag);
      if (!ok)
         return false;
   }
   return true;
}

enum pan_sim_mid_status
pan_sim_mid_run(struct pan_sim_mid_thread *t,
                const struct pan_sim_mid_config *cfg)
{
   struct mid_exec x = { .t = t, .cfg = cfg };
   uint64_t budget = cfg->budget ? cfg->budget : PAN_SIM_MID_DEFAULT_BUDGET;
   int expect_tag = -1; /* tag announced by the previous bundle */

   t->fault[0] = '\0';
   if (!cfg->program || !cfg->program_size || cfg->program_size % 16) {
      mid_fault(t, "program of %u bytes is not whole quadwords",
                cfg->program_size);
      return PAN_SIM_MID_FAULT;
   }
   if (cfg->nr_uniforms > PAN_SIM_MID_UNIFORMS ||
       cfg->nr_ubos > PAN_SIM_MID_MAX_UBOS) {
      mid_fault(t, "too many uniforms or UBOs");
      return PAN_SIM_MID_FAULT;
   }
   for (unsigned i = 0; i < cfg->nr_uniforms; i++)
      memcpy(t->r[23 - i], cfg->uniforms[i], 16);

   for (;;) {
      struct pan_mid_bundle b;
      if (t->pc >= cfg->program_size) {
         mid_fault(t, "ran off the end of the program");
         return PAN_SIM_MID_FAULT;
      }
      if (t->bundles >= budget) {
         mid_fault(t, "budget of %llu bundles exhausted",
                   (unsigned long long)budget);
         return PAN_SIM_MID_FAULT;
      }
      size_t n = pan_mid_decode_bundle(cfg->program + t->pc,
                                       cfg->program_size - t->pc, &b);
      if (!n || b.raw) {
         mid_fault(t, "undecodable bundle (tag %u)", cfg->program[t->pc] & 0xf);
         return PAN_SIM_MID_FAULT;
      }
      if (expect_tag >= 0 && (unsigned)expect_tag != b.tag) {
         mid_fault(t, "tag %u where the lookahead announced %u", b.tag,
                   expect_tag);
         return PAN_SIM_MID_FAULT;
      }
      if (b.next_tag == 0) {
         mid_fault(t, "invalid next tag");
         return PAN_SIM_MID_FAULT;
      }
      t->bundles++;
      x.b = &b;
      memcpy(x.in, t->r, sizeof(x.in));

      uint32_t next_pc = t->pc + n, target = 0;
      unsigned target_tag = 0;
      enum branch_result br = BR_NONE;
      bool ok = true;
      if (b.tag >= 8) {
         ok = exec_alu_bundle(&x, next_pc, &br, &target, &target_tag);
      } else if (b.tag == 5) {
         for (unsigned i = 0; i < b.nr_instrs && ok; i++)
            ok = mid_exec_ldst(&x, &b.instrs[i]);
      } else {
         ok = b.nr_instrs == 1
                 ? mid_exec_tex(&x, &b.instrs[0], b.tag)
                 : mid_fault(t, "texture bundle of %u words", b.nr_instrs);
      }
      if (!ok)
         return PAN_SIM_MID_FAULT;
      if (br == BR_END)
         return PAN_SIM_MID_DONE;
      if (br == BR_TAKEN) {
         t->pc = target;
         expect_tag = target_tag;
         continue;
      }
      if (b.next_tag == 1)
         return PAN_SIM_MID_DONE;
      t->pc = next_pc;
      expect_tag = b.next_tag;
   }
}
