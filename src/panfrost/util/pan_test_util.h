/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The one harness of our plain-C unit tests (header-only: each test is one
 * program).
 *
 *    PAN_CHECK(cond, fmt, ...)   a check with a message
 *    PAN_EXPECT(cond)            a check whose message is the condition
 *    PAN_EXPECT_EQ(a, b)         integers, both values printed on failure
 *    PAN_EXPECT_STR_HAS(s, sub)  s contains sub
 *    pan_test_fail(fmt, ...)     a failure found by the test's own compare
 *    PAN_RUN_CASE(fn)            runs void fn(void) as a named case
 *    pan_test_rng64/fill_random  a seeded generator, so failures reproduce
 *    pan_test_f32/u32            float <-> bits for reference computations
 *    pan_test_summary(name)      "name: N checks, N failures" + exit status
 *
 * The first 20 failures are reported; every one is counted.
 */

#ifndef PAN_TEST_UTIL_H
#define PAN_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned pan_test_failures;
static unsigned pan_test_checks;
static unsigned pan_test_cases, pan_test_cases_failed;

#define PAN_TEST_REPORTED_FAILURES 20

static inline void __attribute__((format(printf, 3, 4), unused))
pan_test_fail_at(const char *file, int line, const char *fmt, ...)
{
   va_list ap;

   if (pan_test_failures++ >= PAN_TEST_REPORTED_FAILURES)
      return;
   fprintf(stderr, "FAIL %s:%d: ", file, line);
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
}

#define pan_test_fail(...) pan_test_fail_at(__FILE__, __LINE__, __VA_ARGS__)

#define PAN_CHECK(cond, ...)                                                  \
   do {                                                                       \
      pan_test_checks++;                                                      \
      if (!(cond))                                                            \
         pan_test_fail(__VA_ARGS__);                                          \
   } while (0)

#define PAN_EXPECT(cond) PAN_CHECK(cond, "%s", #cond)

#define PAN_EXPECT_EQ(a, b)                                                   \
   do {                                                                       \
      unsigned long long a_ = (unsigned long long)(a);                        \
      unsigned long long b_ = (unsigned long long)(b);                        \
      PAN_CHECK(a_ == b_, "%s == %s: 0x%llx != 0x%llx", #a, #b, a_, b_);      \
   } while (0)

#define PAN_EXPECT_STR_HAS(haystack, needle)                                  \
   do {                                                                       \
      const char *h_ = (haystack);                                            \
      PAN_CHECK(h_ && strstr(h_, (needle)), "\"%s\" does not contain \"%s\"", \
                h_ ? h_ : "(null)", (needle));                                \
   } while (0)

/* A case fails when it adds a failure; the count is in the summary. */
#define PAN_RUN_CASE(fn)                                                      \
   do {                                                                       \
      unsigned before_ = pan_test_failures;                                   \
      pan_test_cases++;                                                       \
      fn();                                                                   \
      if (pan_test_failures != before_) {                                     \
         pan_test_cases_failed++;                                             \
         fprintf(stderr, "FAILED case %s\n", #fn);                            \
      }                                                                       \
   } while (0)

/* Bit casts for float reference computations. */
static inline float
pan_test_f32(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, 4);
   return f;
}

static inline uint32_t
pan_test_u32(float f)
{
   uint32_t bits;
   memcpy(&bits, &f, 4);
   return bits;
}

/* xorshift64*: never seed with 0. */
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

/* Prints "<name>: N checks, N failures[, N of M cases failed]" and gives
 * the exit status. A test that checked nothing fails: it proved nothing.
 */
static inline int
pan_test_summary(const char *name)
{
   printf("%s: %u checks, %u failures", name, pan_test_checks,
          pan_test_failures);
   if (pan_test_cases)
      printf(", %u of %u cases failed", pan_test_cases_failed,
             pan_test_cases);
   printf("\n");
   if (!pan_test_checks && !pan_test_failures) {
      fprintf(stderr, "%s: no check ran\n", name);
      return 1;
   }
   return pan_test_failures ? 1 : 0;
}

#endif
