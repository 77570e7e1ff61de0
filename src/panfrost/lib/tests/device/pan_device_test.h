/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Minimal test harness for the device-layer tests: CHECK marks the running
 * test case failed and keeps going; RUN_TEST runs one case; test_summary
 * prints "<program>: N passed, M failed" (test cases) and gives the exit
 * status.
 */

#ifndef PAN_DEVICE_TEST_H
#define PAN_DEVICE_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static unsigned test_passed, test_failed;
static bool test_ok;

#define CHECK(cond)                                                            \
   do {                                                                        \
      if (!(cond)) {                                                           \
         test_ok = false;                                                      \
         fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__,    \
                 #cond);                                                       \
      }                                                                        \
   } while (0)

#define CHECK_EQ(a, b)                                                         \
   do {                                                                        \
      unsigned long long a_ = (unsigned long long)(a);                         \
      unsigned long long b_ = (unsigned long long)(b);                         \
      if (a_ != b_) {                                                          \
         test_ok = false;                                                      \
         fprintf(stderr, "  %s:%d: %s == %s failed: 0x%llx != 0x%llx\n",       \
                 __FILE__, __LINE__, #a, #b, a_, b_);                          \
      }                                                                        \
   } while (0)

#define CHECK_STR_HAS(haystack, needle)                                        \
   do {                                                                        \
      const char *h_ = (haystack);                                             \
      if (!h_ || !strstr(h_, (needle))) {                                      \
         test_ok = false;                                                      \
         fprintf(stderr, "  %s:%d: \"%s\" does not contain \"%s\"\n",          \
                 __FILE__, __LINE__, h_ ? h_ : "(null)", (needle));            \
      }                                                                        \
   } while (0)

#define RUN_TEST(fn)                                                           \
   do {                                                                        \
      test_ok = true;                                                          \
      fn();                                                                    \
      if (test_ok) {                                                           \
         test_passed++;                                                        \
      } else {                                                                 \
         test_failed++;                                                        \
         fprintf(stderr, "FAIL %s\n", #fn);                                    \
      }                                                                        \
   } while (0)

static inline int
test_summary(const char *program)
{
   printf("%s: %u passed, %u failed\n", program, test_passed, test_failed);
   return test_failed ? 1 : 0;
}

#endif /* PAN_DEVICE_TEST_H */
