/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * File helpers for the pan-asm / pan-disasm command line tools.
 */

#ifndef PAN_ISA_TOOL_IO_H
#define PAN_ISA_TOOL_IO_H

#include "pan_isa_text.h"

/* Read a file ("-" is stdin); with hex, decode hex text into bytes. */
int pan_isa_tool_read(const char *path, bool hex, struct pan_isa_bytes *out,
                      char *err, size_t err_size);

/* Write bytes to a file (NULL is stdout), raw or as hex text. */
int pan_isa_tool_write(const char *path, bool hex,
                       const struct pan_isa_bytes *data, char *err,
                       size_t err_size);

#endif
