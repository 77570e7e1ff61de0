/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Runtime helpers shared by the generated per-architecture cross-checks
 * (oracle_vN.c, written by oracle_gen.py): a fixed-seed generator of raw
 * field bits, the comparison bookkeeping and the report.
 */
#ifndef ORACLE_COMMON_H
#define ORACLE_COMMON_H

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One compared (our field, stock field) pair. */
struct oracle_pair {
   const char *ours_struct, *ours_path;
   const char *stock_struct, *stock_path;
   const char *known; /* non-NULL: investigated, stock side wrong */
   unsigned checks, diffs;
   int64_t first_ours, first_stock;
};

static uint64_t oracle_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t
oracle_rnd(void)
{
   /* xorshift64*: deterministic across libcs, unlike rand(). */
   oracle_state ^= oracle_state >> 12;
   oracle_state ^= oracle_state << 25;
   oracle_state ^= oracle_state >> 27;
   return oracle_state * 0x2545f4914f6cdd1dull;
}

static inline uint64_t
oracle_mask(unsigned width)
{
   return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* Raw bits for a plain field, biased towards the edges (0, 1, all ones)
 * where off-by-one and truncation mistakes show. */
static inline uint64_t
oracle_bits(unsigned width)
{
   uint64_t r = oracle_rnd();
   switch (r & 7) {
   case 0: return 0;
   case 1: return 1 & oracle_mask(width);
   case 2: return oracle_mask(width);
   default: return (r >> 3 | oracle_rnd() << 61) & oracle_mask(width);
   }
}

/* minus-one fields: the stored all-ones of a 32-bit field would not fit
 * a 32-bit C member once one is added back, on either side. */
static inline uint64_t
oracle_bits_minus1(unsigned width)
{
   uint64_t r = oracle_bits(width);
   if (width >= 32 && r == oracle_mask(width))
      r--;
   return r;
}

/* log2 fields: exponents whose power still fits 32 bits. */
static inline uint64_t
oracle_bits_log2(unsigned width)
{
   uint64_t lim = width >= 5 ? 32 : (1ull << width);
   return oracle_rnd() % lim;
}

/* "padded" counts: shift in bits 0-4, odd part in 5-7; keep the decoded
 * (2n + 1) << s within 32 bits. */
static inline uint64_t
oracle_bits_padded(void)
{
   unsigned s = oracle_rnd() % 32, n = oracle_rnd() % 8;
   while (n && ((2ull * n + 1) << s) >> 32)
      n >>= 1;
   return s | n << 5;
}

/* Floats: any sign/mantissa, exponent never all ones (no NaN/Inf). */
static inline uint64_t
oracle_bits_float(void)
{
   uint32_t r = (uint32_t)oracle_rnd();
   if (((r >> 23) & 0xff) == 0xff)
      r &= ~(1u << 30);
   return r;
}

static inline int64_t
oracle_fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline int64_t
oracle_fixed(float f, unsigned frac)
{
   return llround(ldexp(f, frac));
}

static inline int64_t
oracle_log2(uint64_t v)
{
   int64_t l = 0;
   while (v > 1) {
      v >>= 1;
      l++;
   }
   return l;
}

static unsigned oracle_fails, oracle_known, oracle_roundtrip_fails;

static inline void
oracle_cmp(struct oracle_pair *p, int64_t ours, int64_t stock)
{
   p->checks++;
   if (ours == stock)
      return;
   if (!p->diffs) {
      p->first_ours = ours;
      p->first_stock = stock;
   }
   p->diffs++;
}

static inline void
oracle_roundtrip(const char *s, const uint32_t *w0, const uint32_t *w1,
                 unsigned nw)
{
   if (memcmp(w0, w1, nw * 4) == 0)
      return;
   if (oracle_roundtrip_fails++ < 5) {
      printf("OURS-ROUNDTRIP %s:", s);
      for (unsigned i = 0; i < nw; ++i)
         printf(" %08x/%08x", w0[i], w1[i]);
      printf("\n");
   }
}

/* The stock unpackers complain on stderr about bits set outside their
 * fields.  Those lines are captured per struct and counted; anything else
 * written to stderr is passed through. */
static FILE *oracle_err_tmp;
static int oracle_err_saved = -1;
static long oracle_err_pos;

static void
oracle_err_flush(unsigned *xxx_lines)
{
   char line[512];

   fflush(stderr);
   fseek(oracle_err_tmp, oracle_err_pos, SEEK_SET);
   while (fgets(line, sizeof(line), oracle_err_tmp)) {
      if (strncmp(line, "XXX:", 4) == 0) {
         if (xxx_lines)
            (*xxx_lines)++;
      } else if (oracle_err_saved >= 0) {
         ssize_t ignored = write(oracle_err_saved, line, strlen(line));
         (void)ignored;
      }
   }
   oracle_err_pos = ftell(oracle_err_tmp);
}

static void
oracle_on_abort(int sig)
{
   (void)sig;
   oracle_err_flush(NULL);
   signal(SIGABRT, SIG_DFL);
}

static inline void
oracle_err_capture(void)
{
   fflush(stderr);
   oracle_err_tmp = tmpfile();
   if (!oracle_err_tmp)
      return;
   oracle_err_saved = dup(2);
   dup2(fileno(oracle_err_tmp), 2);
   signal(SIGABRT, oracle_on_abort);
}

#endif
