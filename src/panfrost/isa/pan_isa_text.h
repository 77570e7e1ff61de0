/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Small text and byte-buffer helpers shared by the Bifrost and Valhall
 * assemblers and disassemblers.  Everything is bounds-checked: a full
 * output buffer truncates, it never overflows.
 */

#ifndef PAN_ISA_TEXT_H
#define PAN_ISA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Appending writer into a caller-owned character buffer. */
struct pan_isa_str {
   char *buf;
   size_t size;
   size_t len; /* may exceed size - 1 when truncated */
};

void pan_isa_str_init(struct pan_isa_str *s, char *buf, size_t size);
void pan_isa_str_printf(struct pan_isa_str *s, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

/* Growable byte array owned by the caller (free data when done). */
struct pan_isa_bytes {
   uint8_t *data;
   size_t size_B;
   size_t capacity_B;
};

bool pan_isa_bytes_append(struct pan_isa_bytes *b, const void *data,
                          size_t size_B);
void pan_isa_bytes_free(struct pan_isa_bytes *b);

/* Error message sink: printf into err (may be NULL), returns -1. */
int pan_isa_fail(char *err, size_t err_size, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

/* Parse a whole string as a decimal or 0x-hex integer in [min, max]. */
bool pan_isa_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

/* Parse a whole string as an unsigned 64-bit decimal or 0x-hex value. */
bool pan_isa_parse_u64(const char *s, uint64_t *out);

/* Trim leading and trailing blanks in place; returns the new start. */
char *pan_isa_trim(char *s);

/*
 * Split s in place at every `sep`, storing up to max pieces (trimmed).
 * Returns the number of pieces, or -1 when there are more than max.
 */
int pan_isa_split(char *s, char sep, char **pieces, int max);

/* Copy one line of text (comment after ';' removed) into buf. */
bool pan_isa_copy_line(const char *line, size_t len, char *buf,
                       size_t size);

/* Convert hex text ("0a 1b ..", "0x..", whitespace) to bytes.  */
/* Told of each piece of a program that is no valid instruction: its byte
 * offset and why (see pan_bi_validate, pan_va_validate). */
typedef void (*pan_isa_invalid_fn)(size_t offset_B, const char *why,
                                   void *user);

bool pan_isa_hex_to_bytes(const char *text, size_t len,
                          struct pan_isa_bytes *out, char *err,
                          size_t err_size);

#endif
