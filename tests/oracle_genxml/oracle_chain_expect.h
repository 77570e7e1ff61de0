/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Descriptor fields the chain oracle expects the stock decoder to print.
 * One walker per architecture (oracle_chain_expect.c built with PAN_ARCH)
 * reads the synthetic frame back with OUR unpackers and records, for each
 * field, the stock text location and the value in the stock spelling.
 */
#ifndef ORACLE_CHAIN_EXPECT_H
#define ORACLE_CHAIN_EXPECT_H

#include <stdint.h>

#include "pan_dump.h"

#define ORACLE_MAX_EXPECTS 512

/* path: stock headings from the outside in, '/'-separated; a heading
 * ending in '*' matches by prefix ("Textures *" for "Textures 2001c0:").
 * field: the stock label printed as "field: value" right under the last
 * heading. */
struct oracle_expect {
   const char *path;
   const char *field;
   char value[96];
};

struct oracle_expects {
   unsigned count;
   bool overflow;
   struct oracle_expect e[ORACLE_MAX_EXPECTS];
};

void oracle_expect(struct oracle_expects *x, const char *path,
                   const char *field, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

/* CPU pointer to size_B bytes at va inside a captured mapping, or NULL. */
const void *oracle_dump_cpu(const struct pan_dump *d, uint64_t va,
                            uint64_t size_B);

void pan_v4_oracle_chain_expect(const struct pan_dump *d,
                                struct oracle_expects *x);
void pan_v5_oracle_chain_expect(const struct pan_dump *d,
                                struct oracle_expects *x);
void pan_v6_oracle_chain_expect(const struct pan_dump *d,
                                struct oracle_expects *x);
void pan_v7_oracle_chain_expect(const struct pan_dump *d,
                                struct oracle_expects *x);
void pan_v9_oracle_chain_expect(const struct pan_dump *d,
                                struct oracle_expects *x);

#endif /* ORACLE_CHAIN_EXPECT_H */
