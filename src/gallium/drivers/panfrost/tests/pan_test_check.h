/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The check counter every Gallium-level test prints at its end.  Tests
 * linking pan_test_screen.c get the counters from it; the others define
 * them.
 */

#ifndef PAN_TEST_CHECK_H
#define PAN_TEST_CHECK_H

#include <stdio.h>

extern unsigned pan_test_failures, pan_test_checks;

#define CHECK(cond, ...)                                                       \
   do {                                                                        \
      pan_test_checks++;                                                       \
      if (!(cond)) {                                                           \
         pan_test_failures++;                                                  \
         printf("FAIL %s:%d: ", __FILE__, __LINE__);                           \
         printf(__VA_ARGS__);                                                  \
         printf("\n");                                                         \
      }                                                                        \
   } while (0)

#endif
