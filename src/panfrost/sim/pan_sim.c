/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Arch-neutral core of the job executor: address checks, fault reports and
 * the one loop that walks a chain and dispatches jobs by type.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pan_shim_exec_priv.h"

static const struct pan_sx_arch *
arch_ops(unsigned arch)
{
   switch (arch) {
#ifdef PAN_SHIM_EXEC_HAVE_V4
   case 4: return &pan_v4_shim_exec_arch;
#endif
#ifdef PAN_SHIM_EXEC_HAVE_V5
   case 5: return &pan_v5_shim_exec_arch;
#endif
#ifdef PAN_SHIM_EXEC_HAVE_V6
   case 6: return &pan_v6_shim_exec_arch;
#endif
#ifdef PAN_SHIM_EXEC_HAVE_V7
   case 7: return &pan_v7_shim_exec_arch;
#endif
#ifdef PAN_SHIM_EXEC_HAVE_V9
   case 9: return &pan_v9_shim_exec_arch;
#endif
   default: return NULL;
   }
}

bool
pan_shim_exec_supports_arch(unsigned arch)
{
   return arch_ops(arch) != NULL;
}

bool
pan_sx_fault(struct pan_sx_ctx *ctx, uint32_t status, uint64_t va,
             const char *fmt, ...)
{
   va_list ap;

   fprintf(ctx->log, "pan shim: v%u job %u (%s) @ 0x%" PRIx64 ": ", ctx->arch,
           ctx->job_index, ctx->job_name ? ctx->job_name : "?", ctx->job_va);
   va_start(ap, fmt);
   vfprintf(ctx->log, fmt, ap);
   va_end(ap);
   fputc('\n', ctx->log);

   if (!ctx->faulted) {
      ctx->faulted = true;
      ctx->fault_status = status;
      ctx->fault_va = va;
   }
   return false;
}

void *
pan_sx_map(struct pan_sx_ctx *ctx, uint64_t va, uint64_t size_B, bool write,
           const char *what)
{
   const struct pan_shim_exec_space *s = ctx->space;
   uint32_t status =
      write ? PAN_SHIM_EXEC_WRITE_FAULT : PAN_SHIM_EXEC_READ_FAULT;

   for (unsigned i = 0; i < s->count; ++i) {
      const struct pan_shim_exec_region *r = &s->regions[i];

      if (va < r->gpu_va || va - r->gpu_va >= r->size_B)
         continue;
      /* Inside this region: the end must be too (no spilling into a
       * neighbour, which need not be adjacent in CPU memory).
       */
      if (size_B > r->size_B - (va - r->gpu_va)) {
         pan_sx_fault(ctx, status, va,
                      "%s at 0x%" PRIx64 " (%" PRIu64 " bytes) runs past the "
                      "end of its buffer [0x%" PRIx64 ", 0x%" PRIx64 ")",
                      what, va, size_B, r->gpu_va, r->gpu_va + r->size_B);
         return NULL;
      }
      return (uint8_t *)r->cpu + (va - r->gpu_va);
   }
   pan_sx_fault(ctx, status, va,
                "%s at 0x%" PRIx64 " is not mapped by any buffer of the job",
                what, va);
   return NULL;
}

static atomic_bool warned[PAN_SX_ONCE_KEYS];

void
pan_sx_warn_once(struct pan_sx_ctx *ctx, unsigned key, const char *fmt, ...)
{
   va_list ap;

   if (key >= PAN_SX_ONCE_KEYS || atomic_exchange(&warned[key], true))
      return;
   fputs("pan shim: ", ctx->log);
   va_start(ap, fmt);
   vfprintf(ctx->log, fmt, ap);
   va_end(ap);
   fputc('\n', ctx->log);
}

/* ---- cycle detection: an open-addressing set of job addresses ---- */

struct va_set {
   uint64_t *slots; /* 0 = empty; job addresses are never 0 */
   unsigned cap, count;
};

static bool
va_set_insert(struct va_set *s, uint64_t va)
{
   if (2 * (s->count + 1) > s->cap) {
      unsigned cap = s->cap ? 2 * s->cap : 64;
      uint64_t *slots = calloc(cap, sizeof(*slots));
      if (!slots)
         return true; /* no memory: the job count still bounds the walk */
      for (unsigned i = 0; i < s->cap; ++i) {
         if (!s->slots[i])
            continue;
         unsigned h = (unsigned)((s->slots[i] >> 6) * 2654435761u) & (cap - 1);
         while (slots[h])
            h = (h + 1) & (cap - 1);
         slots[h] = s->slots[i];
      }
      free(s->slots);
      s->slots = slots;
      s->cap = cap;
   }
   unsigned h = (unsigned)((va >> 6) * 2654435761u) & (s->cap - 1);
   while (s->slots[h]) {
      if (s->slots[h] == va)
         return false;
      h = (h + 1) & (s->cap - 1);
   }
   s->slots[h] = va;
   s->count++;
   return true;
}

/* ---- the walk ---- */

/* Run one job whose header is already read; the status is written back. */
static void
run_job(struct pan_sx_ctx *ctx, const struct pan_sx_arch *ops, void *hdr_cpu,
        const struct pan_sx_job_header *hdr, struct pan_shim_exec_stats *st)
{
   pan_sx_exec_fn fn = hdr->type < PAN_SX_JOB_TYPES ? ops->exec[hdr->type]
                                                    : NULL;
   uint32_t status = PAN_SHIM_EXEC_DONE;

   if (!ctx->job_name || hdr->type == 0) {
      pan_sx_fault(ctx, PAN_SHIM_EXEC_CONFIG_FAULT, ctx->job_va,
                   "job type %u is not a job type of v%u", hdr->type,
                   ctx->arch);
   } else if (ctx->arch <= 7 && !hdr->is_64b) {
      pan_sx_fault(ctx, PAN_SHIM_EXEC_CONFIG_FAULT, ctx->job_va,
                   "32-bit job descriptors are not supported");
   } else if (!fn) {
      pan_sx_warn_once(ctx, hdr->type, "%s jobs are not executed yet",
                       ctx->job_name);
      st->jobs_skipped++;
   } else if (fn(ctx, ctx->job_va)) {
      st->jobs_run++;
   }
   if (ctx->faulted)
      status = ctx->fault_status;
   ops->write_status(hdr_cpu, status,
                     ctx->faulted && status != PAN_SHIM_EXEC_DONE
                        ? ctx->fault_va
                        : 0);
}

int
pan_shim_exec_chain(unsigned arch, const struct pan_shim_exec_space *space,
                    uint64_t jc_va, FILE *log,
                    struct pan_shim_exec_stats *stats)
{
   const struct pan_sx_arch *ops = arch_ops(arch);
   struct pan_shim_exec_stats dummy;
   struct pan_shim_exec_stats *st = stats ? stats : &dummy;
   struct pan_sx_ctx ctx = {
      .space = space,
      .log = log ? log : stderr,
      .arch = arch,
   };
   struct va_set seen = {0};
   unsigned jobs = 0;

   memset(st, 0, sizeof(*st));
   if (!ops)
      return -2;

   for (uint64_t va = jc_va; va && !ctx.faulted; ++jobs) {
      struct pan_sx_job_header hdr;

      ctx.job_va = va;
      ctx.job_index = 0;
      ctx.job_name = "job header";
      if (jobs == PAN_SHIM_EXEC_MAX_JOBS) {
         pan_sx_fault(&ctx, PAN_SHIM_EXEC_CONFIG_FAULT, va,
                      "chain longer than %u jobs", PAN_SHIM_EXEC_MAX_JOBS);
         break;
      }
      if (va & (ops->header_align_B - 1)) {
         pan_sx_fault(&ctx, PAN_SHIM_EXEC_CONFIG_FAULT, va,
                      "job is not %u-byte aligned", ops->header_align_B);
         break;
      }
      void *cpu = pan_sx_map(&ctx, va, ops->header_size_B, false,
                             "job header");
      if (!cpu)
         break;
      if (!va_set_insert(&seen, va)) {
         /* A real GPU would spin forever; report instead. The header was
          * already written when the job first ran.
          */
         pan_sx_fault(&ctx, PAN_SHIM_EXEC_CONFIG_FAULT, va,
                      "the chain loops back to this job");
         break;
      }

      ops->unpack_header(cpu, &hdr);
      ctx.job_index = hdr.index;
      ctx.job_name = ops->type_name(hdr.type);
      run_job(&ctx, ops, cpu, &hdr, st);
      va = hdr.next;
   }

   free(seen.slots);
   st->faulted = ctx.faulted;
   st->fault_status = ctx.faulted ? ctx.fault_status : 0;
   st->fault_job_va = ctx.faulted ? ctx.job_va : 0;
   return ctx.faulted ? -1 : 0;
}
