/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Arch-neutral core of the simulator: checked memory access for the
 * executors, fault reports, and the job callback of the shared chain
 * walker, which dispatches jobs by type and writes their status back.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

#include "pan_sim_priv.h"

static const struct pan_sim_executors *
executors(unsigned arch)
{
   switch (arch) {
#ifdef PAN_SIM_HAVE_V4
   case 4:
      return &pan_v4_sim_executors;
#endif
#ifdef PAN_SIM_HAVE_V5
   case 5:
      return &pan_v5_sim_executors;
#endif
#ifdef PAN_SIM_HAVE_V6
   case 6:
      return &pan_v6_sim_executors;
#endif
#ifdef PAN_SIM_HAVE_V7
   case 7:
      return &pan_v7_sim_executors;
#endif
#ifdef PAN_SIM_HAVE_V9
   case 9:
      return &pan_v9_sim_executors;
#endif
   default:
      return NULL;
   }
}

bool
pan_sim_supports_arch(unsigned arch)
{
   return executors(arch) && pan_sim_chain_supports_arch(arch);
}

bool
pan_sim_fault(struct pan_sim_ctx *ctx, uint32_t status, uint64_t va,
              const char *fmt, ...)
{
   va_list ap;

   fprintf(ctx->log, "pan sim: v%u job %u (%s) @ 0x%" PRIx64 ": ", ctx->arch,
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

/* A failed access as a fault: misalignment is a malformed descriptor,
 * everything else an access outside the memory the job may use. */
static void
access_fault(struct pan_sim_ctx *ctx, const struct pan_sim_access *acc,
             uint32_t status)
{
   if (acc->status == PAN_SIM_ACCESS_MISALIGNED)
      status = PAN_SIM_CONFIG_FAULT;
   pan_sim_fault(ctx, status, acc->va, "%s", acc->message);
}

const void *
pan_sim_ctx_read(struct pan_sim_ctx *ctx, uint64_t va, uint64_t size_B,
                 const char *what)
{
   struct pan_sim_access acc;
   const void *p = pan_sim_read(ctx->space, va, size_B, 0, what, &acc);

   if (!p)
      access_fault(ctx, &acc, PAN_SIM_READ_FAULT);
   return p;
}

void *
pan_sim_ctx_write(struct pan_sim_ctx *ctx, uint64_t va, uint64_t size_B,
                  const char *what)
{
   struct pan_sim_access acc;
   void *p = pan_sim_write(ctx->space, va, size_B, 0, what, &acc);

   if (!p)
      access_fault(ctx, &acc, PAN_SIM_WRITE_FAULT);
   return p;
}

static atomic_bool warned[PAN_SIM_ONCE_KEYS];

void
pan_sim_warn_once(struct pan_sim_ctx *ctx, unsigned key, const char *fmt, ...)
{
   va_list ap;

   if (key >= PAN_SIM_ONCE_KEYS || atomic_exchange(&warned[key], true))
      return;
   fputs("pan sim: ", ctx->log);
   va_start(ap, fmt);
   vfprintf(ctx->log, fmt, ap);
   va_end(ap);
   fputc('\n', ctx->log);
}

/* ---- the run: callbacks of the chain walker ---- */

struct run {
   struct pan_sim_ctx ctx;
   const struct pan_sim_executors *exec;
   const struct pan_sim_header_layout *layout;
   struct pan_sim_stats *st;
};

static void
set_job(struct pan_sim_ctx *ctx, uint64_t va, const struct pan_sim_job *job)
{
   ctx->job_va = va;
   ctx->job_index = job ? job->index : 0;
   ctx->job_name = job ? job->type_name : "job header";
}

/* Structural problems of the chain. A real GPU would spin forever on a
 * loop or on a dependency that never completes; here they fault. A zero
 * or reused index only weakens later dependencies, which are checked. */
static bool
on_problem(void *data, const struct pan_sim_chain_report *r)
{
   struct run *run = data;
   uint32_t status = PAN_SIM_CONFIG_FAULT;

   switch (r->problem) {
   case PAN_SIM_CHAIN_INDEX_ZERO:
   case PAN_SIM_CHAIN_INDEX_REUSED:
      return true;
   case PAN_SIM_CHAIN_BAD_HEADER:
      if (r->access.status != PAN_SIM_ACCESS_MISALIGNED)
         status = PAN_SIM_READ_FAULT;
      break;
   default:
      break;
   }
   set_job(&run->ctx, r->job_va, r->job);
   pan_sim_fault(&run->ctx, status, r->job_va, "%s", r->message);
   /* A job that will not run still gets its status. */
   if (r->job)
      return true;
   return false;
}

/* Run one job and write its status back; false stops the chain. */
static bool
on_job(void *data, const struct pan_sim_job *job)
{
   struct run *run = data;
   struct pan_sim_ctx *ctx = &run->ctx;
   pan_sim_exec_fn fn =
      job->type < PAN_SIM_JOB_TYPES ? run->exec->exec[job->type] : NULL;

   if (!ctx->faulted)
      set_job(ctx, job->va, job);
   if (ctx->faulted) {
      /* on_problem already reported this job. */
   } else if (!job->type_name || job->type == 0) {
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job->va,
                    "job type %u is not a job type of v%u", job->type,
                    ctx->arch);
   } else if (!job->is_64b) {
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job->va,
                    "32-bit job descriptors are not supported");
   } else if (!fn) {
      pan_sim_warn_once(ctx, job->type, "%s jobs are not executed yet",
                        job->type_name);
      run->st->jobs_skipped++;
   } else if (fn(ctx, job->va)) {
      run->st->jobs_run++;
   }
   unsigned done = run->st->jobs_run + run->st->jobs_skipped;
   if (!ctx->faulted && ctx->opts->on_job)
      ctx->opts->on_job(ctx->opts->data, job->index, job->va,
                        job->type_name);

   /* The header was readable; write the status as the GPU does. */
   void *hdr = pan_sim_write(ctx->space, job->va, run->layout->size_B, 0,
                             "job header", NULL);
   if (hdr) {
      uint64_t fault_va = ctx->fault_va;
      run->layout->write_status(
         hdr, ctx->faulted ? ctx->fault_status : PAN_SIM_STATUS_DONE,
         ctx->faulted ? &fault_va : NULL);
   }
   return !ctx->faulted &&
          (!ctx->opts->max_jobs || done < ctx->opts->max_jobs);
}

int
pan_sim_run_chain(unsigned arch, const struct pan_sim_space *space,
                  uint64_t jc_va, FILE *log, struct pan_sim_stats *stats)
{
   const struct pan_sim_run_opts opts = {.log = log};

   return pan_sim_run_chain_opts(arch, space, jc_va, &opts, stats);
}

int
pan_sim_run_chain_opts(unsigned arch, const struct pan_sim_space *space,
                       uint64_t jc_va, const struct pan_sim_run_opts *opts,
                       struct pan_sim_stats *stats)
{
   static const struct pan_sim_run_opts no_opts;
   struct pan_sim_stats dummy;
   if (!opts)
      opts = &no_opts;
   struct run run = {
      .ctx = { .space = space, .log = opts->log ? opts->log : stderr,
               .arch = arch, .opts = opts },
      .exec = executors(arch),
      .layout = pan_sim_header_layout(arch),
      .st = stats ? stats : &dummy,
   };
   const struct pan_sim_chain_ops ops = {
      .problem = on_problem,
      .job = on_job,
      .data = &run,
   };

   memset(run.st, 0, sizeof(*run.st));
   if (!run.exec || !run.layout)
      return -2;

   if (pan_sim_walk_chain(arch, space, jc_va, PAN_SIM_CHAIN_MAX_JOBS, &ops,
                          NULL) < 0) {
      set_job(&run.ctx, jc_va, NULL);
      pan_sim_fault(&run.ctx, PAN_SIM_CONFIG_FAULT, jc_va,
                    "out of memory walking the chain");
   }

   run.st->faulted = run.ctx.faulted;
   run.st->fault_status = run.ctx.faulted ? run.ctx.fault_status : 0;
   run.st->fault_job_va = run.ctx.faulted ? run.ctx.job_va : 0;
   return run.ctx.faulted ? -1 : 0;
}
