/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Whole-chain oracle (never linked into the product): feeds a submit dump
 * written by our synthetic-chain generator to the base's stock decoder and
 * checks its text.
 *
 *    oracle_chain DUMP OUT_BASE
 *
 * Every mapping of the dump is injected with pandecode_inject_mmap, every
 * chain decoded with pandecode_jc.  The test fails if
 *  - the stock decoder prints an error marker ("XXX", in its text or on
 *    stderr) that is not one of the few explained in DISAGREEMENTS.rst
 *    (TOLERATED below, each bound to the context that explains it);
 *  - the job headers it prints (index, dependencies, next) differ from what
 *    we packed, read back by walking the chain with our own unpackers;
 *  - key descriptor fields it prints differ from what we packed
 *    (oracle_chain_expect.c lists them per architecture).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "oracle_chain_expect.h"
#include "pan_dump.h"
#include "pan_v4_pack.h"
#include "pan_v5_pack.h"
#include "pan_v6_pack.h"
#include "pan_v7_pack.h"
#include "pan_v9_pack.h"

/* The stock decoder's entry points (lib/wrap.h of the base), declared
 * here so that this file does not mix the two genxml namespaces. */
void pandecode_initialize(bool to_stderr);
void pandecode_next_frame(void);
void pandecode_close(void);
void pandecode_inject_mmap(uint64_t gpu_va, void *cpu, unsigned sz,
                           const char *name);
void pandecode_jc(uint64_t jc_gpu_va, unsigned gpu_id);

struct job_fields {
   uint64_t va, next;
   unsigned type, index, dep1, dep2, barrier;
};

#define MAX_JOBS 64

/* Job headers are the same 32 bytes on every architecture we support. */
#define UNPACK_HEADER(N, src, j)                                              \
   do {                                                                       \
      struct pan_v##N##_job_header h;                                         \
      pan_v##N##_job_header_unpack(src, &h);                                  \
      (j)->next = h.next;                                                     \
      (j)->type = h.type;                                                     \
      (j)->index = h.index;                                                   \
      (j)->dep1 = h.dependency_1;                                             \
      (j)->dep2 = h.dependency_2;                                             \
      (j)->barrier = h.barrier;                                               \
   } while (0)

const void *
oracle_dump_cpu(const struct pan_dump *d, uint64_t va, uint64_t size_B)
{
   for (unsigned i = 0; i < d->map_count; ++i) {
      const struct pan_decode_mapping *m = &d->maps[i];
      if (m->cpu && va >= m->gpu_va && va + size_B <= m->gpu_va + m->size_B)
         return (const uint8_t *)m->cpu + (va - m->gpu_va);
   }
   return NULL;
}

static unsigned
walk(const struct pan_dump *d, struct job_fields *jobs)
{
   unsigned n = 0;
   for (unsigned c = 0; c < d->chain_count; ++c) {
      for (uint64_t va = d->chains[c]; va && n < MAX_JOBS;) {
         const void *src = oracle_dump_cpu(d, va, 32);
         struct job_fields *j = &jobs[n++];
         if (!src) {
            fprintf(stderr, "chain leaves the dump at 0x%llx\n",
                    (unsigned long long)va);
            exit(2);
         }
         j->va = va;
         switch (d->arch) {
         case 4: UNPACK_HEADER(4, src, j); break;
         case 5: UNPACK_HEADER(5, src, j); break;
         case 6: UNPACK_HEADER(6, src, j); break;
         case 7: UNPACK_HEADER(7, src, j); break;
         default: UNPACK_HEADER(9, src, j); break;
         }
         va = j->next;
      }
   }
   return n;
}

/* Value of "Name: value" inside the i-th "Job Header:" block. */
static bool
header_field(char **lines, unsigned nlines, unsigned job, const char *name,
             unsigned long long *out)
{
   unsigned seen = 0;
   for (unsigned i = 0; i < nlines; ++i) {
      if (strncmp(lines[i], "Job Header (", 12) != 0)
         continue;
      if (seen++ != job)
         continue;
      for (unsigned k = i + 1; k < nlines && k < i + 16; ++k) {
         const char *p = lines[k];
         while (*p == ' ')
            p++;
         size_t len = strlen(name);
         if (strncmp(p, name, len) == 0 && p[len] == ':') {
            *out = strtoull(p + len + 1, NULL, 0);
            return true;
         }
      }
   }
   return false;
}

void
oracle_expect(struct oracle_expects *x, const char *path, const char *field,
              const char *fmt, ...)
{
   if (x->count == ORACLE_MAX_EXPECTS) {
      x->overflow = true;
      return;
   }
   struct oracle_expect *e = &x->e[x->count++];
   va_list ap;
   e->path = path;
   e->field = field;
   va_start(ap, fmt);
   vsnprintf(e->value, sizeof(e->value), fmt, ap);
   va_end(ap);
}

/* Error markers of the stock decoder that our frames legitimately trigger.
 * Each is accepted only on the listed architectures and only when the
 * context line (which carries the explanation) is within `window` lines;
 * DISAGREEMENTS.rst ("stock decoder too strict") has the evidence. */
struct tolerated {
   unsigned arch_mask;
   const char *line;
   const char *context;
   int window;
};

#define A(n) (1u << (n))
static const struct tolerated tolerated[] = {
   /* v4/v5 attribute buffers: the 8-bit "Special" view of an ordinary
    * (typed) buffer is its type plus pointer bits. */
   {A(4) | A(5), "Special: XXX: INVALID", "Type: 1D", 1},
   /* v4 SFBD: no separate stencil format when stencil writes are off. */
   {A(4), "S Format: XXX: INVALID", "S Write Enable: false", 1},
   /* v5+: no separate stencil write format with a combined D24S8 buffer. */
   {A(5) | A(6) | A(7) | A(9), "S Write Format: XXX: INVALID",
    "ZS Write Format: D24S8", 6},
   /* v5: the preload format is never written by the stock driver. */
   {A(5), "ZS Preload Format: XXX: INVALID", "ZS Write Format: D24S8", 9},
};
#undef A

static const char *
trim(const char *l)
{
   while (*l == ' ')
      l++;
   return l;
}

/* Line equality ignoring indentation and the trailing newline. */
static bool
line_is(const char *l, const char *want)
{
   l = trim(l);
   size_t n = strlen(want);
   return strncmp(l, want, n) == 0 && (l[n] == '\n' || l[n] == '\0');
}

static bool
is_tolerated(unsigned arch, char **lines, unsigned nlines, unsigned i)
{
   for (unsigned t = 0; t < sizeof(tolerated) / sizeof(tolerated[0]); ++t) {
      const struct tolerated *r = &tolerated[t];
      if (!(r->arch_mask & (1u << arch)) || !line_is(lines[i], r->line))
         continue;
      for (int k = -r->window; k <= r->window; ++k) {
         long j = (long)i + k;
         if (k && j >= 0 && j < (long)nlines && line_is(lines[j], r->context))
            return true;
      }
   }
   return false;
}

static unsigned
indent_of(const char *l)
{
   return (unsigned)(trim(l) - l);
}

/* "Name:" heading; a heading ending in '*' matches by prefix. */
static bool
heading_is(const char *l, const char *h, size_t len)
{
   l = trim(l);
   if (len && h[len - 1] == '*')
      return strncmp(l, h, len - 1) == 0;
   return strncmp(l, h, len) == 0 && (l[len] == '\n' || l[len] == '\0');
}

/* Canonical form for comparison: integers in decimal, everything else
 * lowercase without spaces, '_' and '-' (stock "Tiled U-Interleaved" is
 * our "tiled_u_interleaved"). */
static void
canon(const char *in, char *out, size_t n)
{
   char *end;
   unsigned long long v = strtoull(in, &end, 0);
   if (end != in && (*end == '\0' || *end == '\n') && isdigit(*in)) {
      snprintf(out, n, "%llu", v);
      return;
   }
   size_t o = 0;
   for (; *in && *in != '\n' && o + 1 < n; ++in) {
      if (*in != ' ' && *in != '_' && *in != '-')
         out[o++] = (char)tolower((unsigned char)*in);
   }
   out[o] = '\0';
}

#define MAX_VALUES 32
struct value_set {
   unsigned n;
   char v[MAX_VALUES][96];
};

static void
set_add(struct value_set *s, const char *raw)
{
   char c[96];
   canon(raw, c, sizeof(c));
   for (unsigned i = 0; i < s->n; ++i)
      if (!strcmp(s->v[i], c))
         return;
   if (s->n < MAX_VALUES)
      strcpy(s->v[s->n++], c);
}

static bool
set_has(const struct value_set *s, const char *c)
{
   for (unsigned i = 0; i < s->n; ++i)
      if (!strcmp(s->v[i], c))
         return true;
   return false;
}

/* Values of "field: value" lines directly under every block matching
 * path (headings anywhere inside the enclosing block). */
static void
stock_values(char **lines, unsigned lo, unsigned hi, int parent_indent,
             const char *path, const char *field, struct value_set *out)
{
   const char *slash = strchr(path, '/');
   size_t hlen = slash ? (size_t)(slash - path) : strlen(path);
   for (unsigned i = lo; i < hi; ++i) {
      if ((int)indent_of(lines[i]) <= parent_indent ||
          !heading_is(lines[i], path, hlen))
         continue;
      unsigned ind = indent_of(lines[i]), end = i + 1;
      while (end < hi && (indent_of(lines[end]) > ind ||
                          trim(lines[end])[0] == '\n'))
         end++;
      if (slash) {
         stock_values(lines, i + 1, end, ind, slash + 1, field, out);
         continue;
      }
      size_t flen = strlen(field);
      for (unsigned k = i + 1; k < end; ++k) {
         const char *l = trim(lines[k]);
         if (indent_of(lines[k]) == ind + 2 &&
             strncasecmp(l, field, flen) == 0 && l[flen] == ':' &&
             l[flen + 1] == ' ')
            set_add(out, l + flen + 2);
      }
   }
}

/* Every distinct (path, field) expected: the set of values the stock
 * decoder prints there must equal the set we packed. */
static unsigned
compare_fields(const struct oracle_expects *x, char **lines, unsigned nlines,
               unsigned *checks)
{
   unsigned fails = 0;
   for (unsigned i = 0; i < x->count; ++i) {
      const struct oracle_expect *e = &x->e[i];
      bool seen = false;
      for (unsigned j = 0; j < i && !seen; ++j)
         seen = !strcmp(x->e[j].path, e->path) &&
                !strcmp(x->e[j].field, e->field);
      if (seen)
         continue;
      struct value_set want = {0}, got = {0};
      for (unsigned j = i; j < x->count; ++j)
         if (!strcmp(x->e[j].path, e->path) &&
             !strcmp(x->e[j].field, e->field))
            set_add(&want, x->e[j].value);
      stock_values(lines, 0, nlines, -1, e->path, e->field, &got);
      (*checks)++;
      if (got.n == 0) {
         printf("%s %s: not printed by the stock decoder (ours %s)\n",
                e->path, e->field, want.v[0]);
         fails++;
         continue;
      }
      for (unsigned k = 0; k < got.n; ++k)
         if (!set_has(&want, got.v[k])) {
            printf("%s %s: stock prints %s, we packed %s%s\n", e->path,
                   e->field, got.v[k], want.v[0], want.n > 1 ? ", ..." : "");
            fails++;
         }
      for (unsigned k = 0; k < want.n; ++k)
         if (!set_has(&got, want.v[k])) {
            printf("%s %s: we packed %s, the stock decoder never prints "
                   "it\n", e->path, e->field, want.v[k]);
            fails++;
         }
   }
   return fails;
}

static unsigned
read_lines(const char *path, char ***out)
{
   FILE *f = fopen(path, "r");
   char buf[1024];
   unsigned n = 0, cap = 0;
   char **lines = NULL;
   if (!f) {
      fprintf(stderr, "cannot read the stock decoder's output %s\n", path);
      exit(2);
   }
   while (fgets(buf, sizeof(buf), f)) {
      if (n == cap) {
         cap = cap ? cap * 2 : 256;
         lines = realloc(lines, cap * sizeof(*lines));
      }
      lines[n++] = strdup(buf);
   }
   fclose(f);
   *out = lines;
   return n;
}

int
main(int argc, char **argv)
{
   struct pan_dump d;
   char err[256], path[1024];
   struct job_fields jobs[MAX_JOBS];
   char **lines, **errlines;
   unsigned fails = 0, checks = 0, errors = 0, tolerated_n = 0;

   if (argc != 3) {
      fprintf(stderr, "usage: %s DUMP OUT_BASE\n", argv[0]);
      return 2;
   }
   if (pan_dump_read_file(argv[1], &d, err, sizeof(err))) {
      fprintf(stderr, "%s: %s\n", argv[1], err);
      return 2;
   }

   /* The stock unpackers report set reserved bits on stderr ("XXX: Invalid
    * field ..."): capture it to scan it like the text. */
   snprintf(path, sizeof(path), "%s.stderr", argv[2]);
   fflush(stderr);
   int saved_stderr = dup(2);
   if (saved_stderr < 0 || !freopen(path, "w", stderr)) {
      fprintf(stdout, "cannot capture stderr to %s\n", path);
      return 2;
   }

   setenv("PANDECODE_DUMP_FILE", argv[2], 1);
   pandecode_initialize(false);
   for (unsigned i = 0; i < d.map_count; ++i) {
      if (d.maps[i].cpu)
         pandecode_inject_mmap(d.maps[i].gpu_va, (void *)d.maps[i].cpu,
                               d.maps[i].size_B, d.maps[i].name);
   }
   /* Our synthetic frames leave optional pointers (v6+ sample locations)
    * at zero; the stock decoder dereferences them unconditionally, so give
    * it a page of zeros at address 0 instead of letting it abort. */
   static uint8_t zeros[4096];
   pandecode_inject_mmap(0, zeros, sizeof(zeros), "oracle null page");
   for (unsigned c = 0; c < d.chain_count; ++c)
      pandecode_jc(d.chains[c], d.gpu_id);
   pandecode_next_frame();
   pandecode_close();
   fflush(stderr);
   dup2(saved_stderr, 2);
   close(saved_stderr);

   unsigned nerr = read_lines(path, &errlines);
   snprintf(path, sizeof(path), "%s.0000", argv[2]);
   unsigned nlines = read_lines(path, &lines);
   /* The stock decoder marks problems with "XXX" (bad bits, unknown
    * memory, unexpected values, enum values without a name). */
   for (unsigned i = 0; i < nlines; ++i) {
      if (!strstr(lines[i], "XXX"))
         continue;
      if (is_tolerated(d.arch, lines, nlines, i)) {
         tolerated_n++;
      } else if (errors++ < 20) {
         printf("stock decoder, line %u: %s", i + 1, lines[i]);
      }
   }
   for (unsigned i = 0; i < nerr; ++i) {
      if (strstr(errlines[i], "XXX") && errors++ < 20)
         printf("stock decoder (stderr): %s", errlines[i]);
   }

   unsigned njobs = walk(&d, jobs);
   static const char *names[] = {"Type", "Index", "Dependency 1",
                                 "Dependency 2", "Barrier", "Next"};
   for (unsigned j = 0; j < njobs; ++j) {
      unsigned long long want[] = {jobs[j].type, jobs[j].index, jobs[j].dep1,
                                   jobs[j].dep2, jobs[j].barrier,
                                   jobs[j].next};
      for (unsigned f = 0; f < 6; ++f) {
         unsigned long long got;
         if (f == 0 || f == 4)
            continue; /* printed as names, not numbers */
         checks++;
         if (!header_field(lines, nlines, j, names[f], &got)) {
            printf("job %u: stock output has no \"%s\"\n", j, names[f]);
            fails++;
         } else if (got != want[f]) {
            printf("job %u: %s stock %llu ours %llu\n", j, names[f], got,
                   want[f]);
            fails++;
         }
      }
   }

   unsigned header_checks = checks;
   static struct oracle_expects x;
   switch (d.arch) {
   case 4: pan_v4_oracle_chain_expect(&d, &x); break;
   case 5: pan_v5_oracle_chain_expect(&d, &x); break;
   case 6: pan_v6_oracle_chain_expect(&d, &x); break;
   case 7: pan_v7_oracle_chain_expect(&d, &x); break;
   default: pan_v9_oracle_chain_expect(&d, &x); break;
   }
   if (x.overflow) {
      printf("too many expected fields\n");
      fails++;
   }
   unsigned field_checks = 0;
   fails += compare_fields(&x, lines, nlines, &field_checks);

   printf("v%u chain: %u jobs, %u stock lines, %u header checks, %u field "
          "checks (%u values), %u mismatches, %u stock error lines "
          "(+%u explained)\n",
          d.arch, njobs, nlines, header_checks, field_checks, x.count, fails,
          errors, tolerated_n);
   pan_dump_fini(&d);
   for (unsigned i = 0; i < nlines; ++i)
      free(lines[i]);
   free(lines);
   for (unsigned i = 0; i < nerr; ++i)
      free(errlines[i]);
   free(errlines);
   return (fails || errors || njobs == 0 || field_checks == 0) ? 1 : 0;
}
