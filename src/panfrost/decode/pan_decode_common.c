/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Arch-neutral part of the decoder: memory access through the shared
 * address-space view, output, budgets, the callbacks of the shared chain
 * walker, table-driven checks, shaders. */

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pan_decode_priv.h"
#include "pan_isa_bi.h"
#include "pan_isa_va.h"

void
pan_decode_default_limits(struct pan_decode_limits *lim)
{
   lim->max_jobs = 1024;
   lim->max_depth = 12;
   lim->max_bytes = 16u << 20;
   lim->max_array = 256;
   lim->max_shader_B = 4096;
}

typedef void (*pan_decode_job_fn)(struct pan_decode_ctx *ctx, uint64_t va,
                                  unsigned type);

/* The one place that maps an architecture to its decoder. */
static pan_decode_job_fn
job_decoder(unsigned arch)
{
   switch (arch) {
#ifdef PAN_DECODE_HAVE_V4
   case 4: return pan_v4_decode_job;
#endif
#ifdef PAN_DECODE_HAVE_V5
   case 5: return pan_v5_decode_job;
#endif
#ifdef PAN_DECODE_HAVE_V6
   case 6: return pan_v6_decode_job;
#endif
#ifdef PAN_DECODE_HAVE_V7
   case 7: return pan_v7_decode_job;
#endif
#ifdef PAN_DECODE_HAVE_V9
   case 9: return pan_v9_decode_job;
#endif
   default: return NULL;
   }
}

bool
pan_decode_supports_arch(unsigned arch)
{
   return job_decoder(arch) != NULL;
}

static void
vlog(struct pan_decode_ctx *ctx, const char *prefix, const char *fmt,
     va_list ap)
{
   fprintf(ctx->fp, "%*s%s", ctx->indent, "", prefix);
   vfprintf(ctx->fp, fmt, ap);
   fputc('\n', ctx->fp);
}

void
pan_decode_log(struct pan_decode_ctx *ctx, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vlog(ctx, "", fmt, ap);
   va_end(ap);
}

void
pan_decode_error(struct pan_decode_ctx *ctx, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vlog(ctx, "ERROR: ", fmt, ap);
   va_end(ap);
   ctx->stats.errors++;
}

uint64_t
pan_decode_avail(struct pan_decode_ctx *ctx, uint64_t va)
{
   return pan_sim_space_avail(ctx->space, va);
}

bool
pan_decode_check_range(struct pan_decode_ctx *ctx, uint64_t va, uint64_t size_B,
                       const char *what)
{
   struct pan_sim_access acc;

   if (pan_sim_probe(ctx->space, va, size_B, what, &acc))
      return true;
   pan_decode_error(ctx, "%s", acc.message);
   return false;
}

/* The descriptor byte budget; false (once, with an ERROR) when spent. */
static bool
spend(struct pan_decode_ctx *ctx, uint64_t size_B)
{
   if (ctx->stats.bytes + size_B > ctx->lim.max_bytes) {
      pan_decode_error(ctx, "byte budget of %" PRIu64 " exhausted, stopping",
                       ctx->lim.max_bytes);
      ctx->exhausted = true;
      return false;
   }
   ctx->stats.bytes += size_B;
   ctx->stats.descriptors++;
   return true;
}

const void *
pan_decode_fetch(struct pan_decode_ctx *ctx, uint64_t va, uint64_t size_B,
                 unsigned align_B, const char *what)
{
   struct pan_sim_access acc;

   if (ctx->exhausted)
      return NULL;
   const void *p = pan_sim_read(ctx->space, va, size_B, align_B, what, &acc);
   if (!p) {
      pan_decode_error(ctx, "%s", acc.message);
      return NULL;
   }
   return spend(ctx, size_B) ? p : NULL;
}

void
pan_decode_hexdump(struct pan_decode_ctx *ctx, const void *data,
                   uint64_t size_B)
{
   const uint8_t *p = data;

   for (uint64_t off = 0; off < size_B; off += 16) {
      fprintf(ctx->fp, "%*s%04" PRIx64 ":", ctx->indent, "", off);
      for (uint64_t i = off; i < off + 16 && i < size_B; ++i)
         fprintf(ctx->fp, " %02x", p[i]);
      fputc('\n', ctx->fp);
   }
}

bool
pan_decode_push(struct pan_decode_ctx *ctx, const char *what)
{
   if (ctx->depth >= ctx->lim.max_depth) {
      pan_decode_error(ctx, "%s: pointer depth limit %u reached", what,
                       ctx->lim.max_depth);
      return false;
   }
   ctx->depth++;
   ctx->indent += 2;
   return true;
}

void
pan_decode_pop(struct pan_decode_ctx *ctx)
{
   ctx->depth--;
   ctx->indent -= 2;
}

static bool
enum_has(const struct pan_gx_enum_desc *e, uint64_t v)
{
   for (unsigned i = 0; i < e->count; ++i) {
      if (e->values[i].value == v)
         return true;
   }
   return false;
}

void
pan_decode_check_struct(struct pan_decode_ctx *ctx,
                        const struct pan_gx_struct_desc *desc,
                        const void *packed, const char *what)
{
   uint32_t w[64];
   unsigned n = desc->size_words < 64 ? desc->size_words : 64;

   memcpy(w, packed, n * 4);
   for (unsigned i = 0; i < desc->field_count; ++i) {
      const struct pan_gx_field_desc *f = &desc->fields[i];
      if (!f->path || f->condition || !f->enumeration || f->word >= n)
         continue;
      uint64_t raw = pan_gx_field_raw(w, f);
      /* Zero is what packers leave in fields of unused features, so only
       * nonzero undefined values are reported. */
      if (raw != 0 && !enum_has(f->enumeration, raw)) {
         pan_decode_error(ctx, "%s.%s: %" PRIu64 " is not a valid %s", what,
                          f->path, raw, f->enumeration->name);
      }
   }
   for (unsigned i = 0; i < n; ++i) {
      uint32_t stray = w[i] & ~desc->used_mask[i];
      if (stray) {
         pan_decode_error(ctx, "%s: reserved bits 0x%08x set in word %u", what,
                          stray, i);
      }
   }
}

/* Re-emit text line by line at the current indentation. */
static void
print_indented(struct pan_decode_ctx *ctx, const char *text, size_t len)
{
   size_t start = 0;
   for (size_t i = 0; i < len; ++i) {
      if (text[i] == '\n' || i + 1 == len) {
         size_t end = text[i] == '\n' ? i : i + 1;
         fprintf(ctx->fp, "%*s%.*s\n", ctx->indent + 2, "", (int)(end - start),
                 text + start);
         start = i + 1;
      }
   }
}

void
pan_decode_shader(struct pan_decode_ctx *ctx, uint64_t va, const char *what)
{
   char err[128] = "";
   /* Midgard bundles and Bifrost clauses are 16-byte units, Valhall
    * instructions 8 bytes. */
   uint64_t unit = ctx->arch >= 9 ? 8 : 16;
   uint64_t avail = pan_decode_avail(ctx, va);
   uint64_t size_B =
      avail < ctx->lim.max_shader_B ? avail : ctx->lim.max_shader_B;

   size_B &= ~(unit - 1);
   if (size_B == 0) {
      pan_decode_fetch(ctx, va, unit, 0, what);
      return;
   }
   const uint8_t *code = pan_decode_fetch(ctx, va, size_B, 0, what);
   if (!code)
      return;

   /* The size of a program is not recorded anywhere: show up to the end
    * of its buffer (bounded), less the trailing zero padding. */
   while (size_B > unit) {
      uint64_t i;
      for (i = size_B - unit; i < size_B && code[i] == 0; ++i)
         ;
      if (i != size_B)
         break;
      size_B -= unit;
   }
   pan_decode_log(ctx, "%s @ 0x%" PRIx64 " (%" PRIu64 " bytes):", what, va,
                  size_B);

   char *text = NULL;
   size_t len = 0;
   FILE *mem = open_memstream(&text, &len);
   if (!mem) {
      pan_decode_error(ctx, "%s: out of memory", what);
      return;
   }
   int ret = 0;
   if (ctx->arch >= 9)
      ret = pan_va_disassemble(code, size_B, mem, true, err, sizeof(err));
   else if (ctx->arch >= 6)
      ret = pan_bi_disassemble(code, size_B, mem, true, err, sizeof(err));
   fclose(mem);
   if (ctx->arch <= 5) {
      /* Midgard: no disassembler of ours yet; raw bundles. */
      ctx->indent += 2;
      pan_decode_hexdump(ctx, code, size_B);
      ctx->indent -= 2;
   } else {
      print_indented(ctx, text, len);
   }
   free(text);
   if (ret < 0)
      pan_decode_error(ctx, "%s: disassembler: %s", what, err);
}

/* ---- callbacks of the chain walker ---- */

static bool
on_chain_problem(void *data, const struct pan_sim_chain_report *r)
{
   struct pan_decode_ctx *ctx = data;

   /* Past the budget the walk ends quietly, as every fetch does. */
   if (ctx->exhausted)
      return false;
   pan_decode_error(ctx, "%s", r->message);
   return true;
}

static void
decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type)
{
   pan_decode_job_fn fn = job_decoder(ctx->arch);

   if (fn)
      fn(ctx, va, type);
}

static bool
on_chain_job(void *data, const struct pan_sim_job *job)
{
   struct pan_decode_ctx *ctx = data;

   /* The walker read the header: it counts against the budget like any
    * other descriptor. */
   if (ctx->exhausted || !spend(ctx, pan_sim_header_layout(ctx->arch)->size_B))
      return false;
   ctx->stats.jobs++;

   pan_decode_log(ctx, "job %u @ 0x%" PRIx64 ": %s", job->index, job->va,
                  job->type_name ? job->type_name : "?");
   if (!job->is_64b)
      pan_decode_error(ctx, "32-bit job descriptors are not supported");
   ctx->indent += 2;
   ctx->depth = 0;
   decode_job(ctx, job->va, job->type);
   ctx->indent -= 2;
   return !ctx->exhausted;
}

void
pan_decode_print_space(FILE *fp, const struct pan_sim_space *space)
{
   for (unsigned i = 0; i < space->count; ++i) {
      const struct pan_sim_region *m = &space->regions[i];
      fprintf(fp, "mapping %u: 0x%" PRIx64 "-0x%" PRIx64 " %s%s\n", i,
              m->gpu_va, m->gpu_va + m->size_B, m->name ? m->name : "?",
              m->cpu ? "" : " (not captured)");
   }
}

int
pan_decode_chain(FILE *fp, unsigned arch, const struct pan_sim_space *space,
                 uint64_t jc_va, const struct pan_decode_limits *lim,
                 struct pan_decode_stats *stats)
{
   static struct pan_decode_ctx zero;
   struct pan_decode_ctx *ctx = malloc(sizeof(*ctx));

   if (!ctx || !pan_decode_supports_arch(arch) ||
       !pan_sim_chain_supports_arch(arch)) {
      free(ctx);
      return -1;
   }
   *ctx = zero;
   ctx->fp = fp;
   ctx->arch = arch;
   ctx->space = space;
   ctx->rt_count = 1;
   if (lim)
      ctx->lim = *lim;
   else
      pan_decode_default_limits(&ctx->lim);

   fprintf(fp, "job chain @ 0x%" PRIx64 " (v%u)\n", jc_va, arch);
   const struct pan_sim_chain_ops ops = {
      .problem = on_chain_problem,
      .job = on_chain_job,
      .data = ctx,
   };
   if (pan_sim_walk_chain(arch, space, jc_va, ctx->lim.max_jobs, &ops, NULL) <
       0)
      pan_decode_error(ctx, "cannot walk the chain (out of memory)");
   fprintf(fp, "end of chain: %u jobs, %u descriptors, %u errors\n",
           ctx->stats.jobs, ctx->stats.descriptors, ctx->stats.errors);

   int errors = (int)ctx->stats.errors;
   if (stats)
      *stats = ctx->stats;
   free(ctx);
   return errors;
}
