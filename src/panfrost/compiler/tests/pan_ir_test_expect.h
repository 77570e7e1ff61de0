/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Checks of the hand-written IR pass tests: the printed shader after a
 * pass, and the validator's verdict.
 */

#ifndef PAN_IR_TEST_EXPECT_H
#define PAN_IR_TEST_EXPECT_H

#include <string.h>

#include "pan_ir_builder.h"
#include "util/pan_test_util.h"

static inline void
expect_ir(pan_ir_shader *s, const char *expected, const char *what)
{
   char *got = pan_ir_shader_to_string(s, s);
   PAN_CHECK(!strcmp(got, expected), "%s:\n--- got\n%s--- expected\n%s", what,
             got, expected);
}

static inline void
expect_valid(pan_ir_shader *s, const char *what)
{
   char err[256];
   PAN_CHECK(pan_ir_validate(s, err, sizeof(err)), "%s: %s", what, err);
}

#endif
