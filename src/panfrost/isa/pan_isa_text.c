/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_isa_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
pan_isa_str_init(struct pan_isa_str *s, char *buf, size_t size)
{
   s->buf = buf;
   s->size = size;
   s->len = 0;
   if (size)
      buf[0] = '\0';
}

void
pan_isa_str_printf(struct pan_isa_str *s, const char *fmt, ...)
{
   size_t room = s->len < s->size ? s->size - s->len : 0;
   va_list ap;

   va_start(ap, fmt);
   int n = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
   va_end(ap);
   if (n > 0)
      s->len += (size_t)n;
}

bool
pan_isa_bytes_append(struct pan_isa_bytes *b, const void *data,
                     size_t size_B)
{
   if (b->size_B + size_B > b->capacity_B) {
      size_t cap = b->capacity_B ? b->capacity_B * 2 : 256;
      while (cap < b->size_B + size_B)
         cap *= 2;
      uint8_t *n = realloc(b->data, cap);
      if (!n)
         return false;
      b->data = n;
      b->capacity_B = cap;
   }
   memcpy(b->data + b->size_B, data, size_B);
   b->size_B += size_B;
   return true;
}

void
pan_isa_bytes_free(struct pan_isa_bytes *b)
{
   free(b->data);
   b->data = NULL;
   b->size_B = b->capacity_B = 0;
}

int
pan_isa_fail(char *err, size_t err_size, const char *fmt, ...)
{
   if (err && err_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, err_size, fmt, ap);
      va_end(ap);
   }
   return -1;
}

bool
pan_isa_parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
   bool neg = false;
   const char *p = s;

   if (*p == '-') {
      neg = true;
      p++;
   }
   /* strtoull would accept blanks and signs of its own: reject those. */
   if (!isdigit((unsigned char)*p))
      return false;

   errno = 0;
   char *end;
   unsigned long long v = strtoull(p, &end, 0);
   if (errno || *end || end == p)
      return false;
   if (!neg && v > (unsigned long long)INT64_MAX)
      return false;
   if (neg && v > (1ull << 63))
      return false;

   int64_t r = neg ? (int64_t)(0 - v) : (int64_t)v;
   if (r < min || r > max)
      return false;
   *out = r;
   return true;
}

bool
pan_isa_parse_u64(const char *s, uint64_t *out)
{
   if (!isdigit((unsigned char)*s))
      return false;
   errno = 0;
   char *end;
   unsigned long long v = strtoull(s, &end, 0);
   if (errno || *end)
      return false;
   *out = v;
   return true;
}

char *
pan_isa_trim(char *s)
{
   while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
      s++;
   size_t n = strlen(s);
   while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                s[n - 1] == '\n'))
      s[--n] = '\0';
   return s;
}

int
pan_isa_split(char *s, char sep, char **pieces, int max)
{
   int n = 0;

   for (;;) {
      char *next = strchr(s, sep);
      if (next)
         *next = '\0';
      if (n == max)
         return -1;
      pieces[n++] = pan_isa_trim(s);
      if (!next)
         return n;
      s = next + 1;
   }
}

bool
pan_isa_copy_line(const char *line, size_t len, char *buf, size_t size)
{
   size_t n = 0;

   for (size_t i = 0; i < len && line[i] != ';' && line[i] != '\n'; i++) {
      if (line[i] == '\0' || n + 1 >= size)
         return false;
      buf[n++] = line[i];
   }
   buf[n] = '\0';
   return true;
}

static int
hex_digit(char c)
{
   if (c >= '0' && c <= '9')
      return c - '0';
   if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return -1;
}

bool
pan_isa_hex_to_bytes(const char *text, size_t len, struct pan_isa_bytes *out,
                     char *err, size_t err_size)
{
   int hi = -1;

   for (size_t i = 0; i < len; i++) {
      char c = text[i];
      if (c == '0' && i + 1 < len && (text[i + 1] == 'x' || text[i + 1] == 'X')
          && hi < 0) {
         i++;
         continue;
      }
      if (isspace((unsigned char)c) || c == ',')
         continue;
      int d = hex_digit(c);
      if (d < 0) {
         pan_isa_fail(err, err_size, "hex input: unexpected character at "
                      "offset %zu", i);
         return false;
      }
      if (hi < 0) {
         hi = d;
      } else {
         uint8_t byte = (uint8_t)(hi << 4 | d);
         if (!pan_isa_bytes_append(out, &byte, 1)) {
            pan_isa_fail(err, err_size, "out of memory");
            return false;
         }
         hi = -1;
      }
   }
   if (hi >= 0) {
      pan_isa_fail(err, err_size, "hex input: odd number of digits");
      return false;
   }
   return true;
}
