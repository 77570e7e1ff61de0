/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The few helpers our plain-C unit tests share: a failure counter with a
 * capped report, a deterministic random generator (so a failure reproduces
 * from its seed) and the closing summary line. Header-only: each test is
 * one program. */

#ifndef PAN_TEST_UTIL_H
#define PAN_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static unsigned pan_test_failures;
static unsigned pan_test_checks;

/* Reports the first 20 failures; every failure is counted. */
#define PAN_CHECK(cond, ...)                                                  \
   do {                                                                       \
      pan_test_checks++;                                                      \
      if (!(cond) && pan_test_failures++ < 20) {                              \
         fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                 \
         fprintf(stderr, __VA_ARGS__);                                        \
         fprintf(stderr, "\n");                                               \
      }                                                                       \
   } while (0)

/* xorshift64* */
static inline uint64_t
pan_test_rng64(uint64_t *state)
{
   *state ^= *state >> 12;
   *state ^= *state << 25;
   *state ^= *state >> 27;
   return *state * 0x2545f4914f6cdd1dull;
}

static inline void
pan_test_fill_random(uint64_t *state, uint8_t *p, size_t n)
{
   for (size_t i = 0; i < n; ++i)
      p[i] = (uint8_t)(pan_test_rng64(state) >> 56);
}

/* Prints "<name>: N checks, N failures" and gives the exit status. */
static inline int
pan_test_summary(const char *name)
{
   printf("%s: %u checks, %u failures\n", name, pan_test_checks,
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}

#endif
