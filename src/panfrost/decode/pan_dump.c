/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_dump.h"

#define HEADER_B 32

static void
put32(uint8_t *p, uint32_t v)
{
   for (unsigned i = 0; i < 4; ++i)
      p[i] = (uint8_t)(v >> (8 * i));
}

static void
put64(uint8_t *p, uint64_t v)
{
   for (unsigned i = 0; i < 8; ++i)
      p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t
get32(const uint8_t *p)
{
   uint32_t v = 0;
   for (unsigned i = 0; i < 4; ++i)
      v |= (uint32_t)p[i] << (8 * i);
   return v;
}

static uint64_t
get64(const uint8_t *p)
{
   return get32(p) | ((uint64_t)get32(p + 4) << 32);
}

static size_t
name_len(const struct pan_sim_region *m)
{
   size_t n = m->name ? strlen(m->name) : 0;
   return n > PAN_DUMP_MAX_NAME ? PAN_DUMP_MAX_NAME : n;
}

/* Flags of a mapping as serialized. */
static uint32_t
map_flags(const struct pan_dump *dump, const struct pan_sim_region *m)
{
   if (!m->cpu)
      return PAN_DUMP_MAP_NO_DATA;
   if (dump->zero_fill) {
      const uint8_t *p = m->cpu;
      uint64_t i = 0;
      while (i < m->size_B && !p[i])
         ++i;
      if (i == m->size_B)
         return PAN_DUMP_MAP_ZEROS;
   }
   return 0;
}

uint8_t *
pan_dump_serialize(const struct pan_dump *dump, size_t *size_B)
{
   size_t total = HEADER_B + 8 * (size_t)dump->chain_count;

   if (dump->chain_count > PAN_DUMP_MAX_CHAINS ||
       dump->map_count > PAN_DUMP_MAX_MAPPINGS)
      return NULL;
   for (unsigned i = 0; i < dump->map_count; ++i) {
      const struct pan_sim_region *m = &dump->maps[i];
      total += 24 + name_len(m) + (map_flags(dump, m) ? 0 : m->size_B);
   }

   uint8_t *buf = calloc(1, total), *p = buf;
   if (!buf)
      return NULL;
   memcpy(p, PAN_DUMP_MAGIC, 8);
   put32(p + 8, PAN_DUMP_VERSION);
   put32(p + 12, dump->gpu_id);
   put32(p + 16, dump->arch);
   put32(p + 20, dump->chain_count);
   put32(p + 24, dump->map_count);
   p += HEADER_B;
   for (unsigned i = 0; i < dump->chain_count; ++i, p += 8)
      put64(p, dump->chains[i]);
   for (unsigned i = 0; i < dump->map_count; ++i) {
      const struct pan_sim_region *m = &dump->maps[i];
      size_t n = name_len(m);
      put64(p, m->gpu_va);
      put64(p + 8, m->size_B);
      uint32_t flags = map_flags(dump, m);
      put32(p + 16, flags);
      put32(p + 20, (uint32_t)n);
      p += 24;
      if (n)
         memcpy(p, m->name, n);
      p += n;
      if (!flags) {
         memcpy(p, m->cpu, m->size_B);
         p += m->size_B;
      }
   }
   *size_B = total;
   return buf;
}

int
pan_dump_write_file(const char *path, const struct pan_dump *dump, char *err,
                    size_t err_size)
{
   size_t size_B;
   uint8_t *buf = pan_dump_serialize(dump, &size_B);

   if (!buf) {
      snprintf(err, err_size, "cannot serialize the dump");
      return -1;
   }
   int ret = pan_dump_write_bytes(path, buf, size_B, err, err_size);
   free(buf);
   return ret;
}

int
pan_dump_write_bytes(const char *path, const void *data, size_t size_B,
                     char *err, size_t err_size)
{
   FILE *f = fopen(path, "wb");
   bool ok = f && fwrite(data, 1, size_B, f) == size_B;
   int saved = errno;

   if (f && fclose(f) != 0 && ok) {
      ok = false;
      saved = errno;
   }
   if (!ok) {
      snprintf(err, err_size, "%s: %s", path, strerror(saved));
      return -1;
   }
   return 0;
}

void
pan_dump_fini(struct pan_dump *dump)
{
   for (unsigned i = 0; i < dump->map_count; ++i) {
      if (dump->names)
         free(dump->names[i]);
      if (dump->data)
         free(dump->data[i]);
   }
   free(dump->names);
   free(dump->data);
   free(dump->maps);
   memset(dump, 0, sizeof(*dump));
}

static int
fail(struct pan_dump *dump, char *err, size_t err_size, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(err, err_size, fmt, ap);
   va_end(ap);
   pan_dump_fini(dump);
   return -1;
}

static int
cmp_va(const void *a, const void *b)
{
   const struct pan_sim_region *x = a, *y = b;
   return x->gpu_va < y->gpu_va ? -1 : x->gpu_va > y->gpu_va;
}

int
pan_dump_parse(const uint8_t *buf, size_t size_B, struct pan_dump *dump,
               char *err, size_t err_size)
{
   memset(dump, 0, sizeof(*dump));
   if (size_B < HEADER_B || memcmp(buf, PAN_DUMP_MAGIC, 8))
      return fail(dump, err, err_size, "not a Panfrost dump (bad magic)");
   if (get32(buf + 8) != PAN_DUMP_VERSION)
      return fail(dump, err, err_size, "unsupported dump version %u",
                  get32(buf + 8));

   dump->gpu_id = get32(buf + 12);
   dump->arch = get32(buf + 16);
   uint32_t chains = get32(buf + 20), maps = get32(buf + 24);
   if (chains == 0 || chains > PAN_DUMP_MAX_CHAINS)
      return fail(dump, err, err_size, "bad job chain count %u", chains);
   if (maps > PAN_DUMP_MAX_MAPPINGS)
      return fail(dump, err, err_size, "bad mapping count %u", maps);

   size_t off = HEADER_B;
   uint64_t zero_B = 0;
   if (size_B - off < 8ull * chains)
      return fail(dump, err, err_size, "truncated in the job chain list");
   dump->chain_count = chains;
   for (unsigned i = 0; i < chains; ++i, off += 8)
      dump->chains[i] = get64(buf + off);

   dump->maps = calloc(maps ? maps : 1, sizeof(*dump->maps));
   dump->names = calloc(maps ? maps : 1, sizeof(char *));
   dump->data = calloc(maps ? maps : 1, sizeof(uint8_t *));
   if (!dump->maps || !dump->names || !dump->data)
      return fail(dump, err, err_size, "out of memory");

   for (unsigned i = 0; i < maps; ++i) {
      if (size_B - off < 24)
         return fail(dump, err, err_size, "mapping %u: truncated header", i);
      uint64_t va = get64(buf + off), len = get64(buf + off + 8);
      uint32_t flags = get32(buf + off + 16), n = get32(buf + off + 20);
      off += 24;
      if (len == 0 || len > PAN_DUMP_MAX_MAPPING_B || va + len < va)
         return fail(dump, err, err_size, "mapping %u: bad size %" PRIu64, i,
                     len);
      if ((flags & ~(PAN_DUMP_MAP_NO_DATA | PAN_DUMP_MAP_ZEROS)) ||
          flags == (PAN_DUMP_MAP_NO_DATA | PAN_DUMP_MAP_ZEROS))
         return fail(dump, err, err_size, "mapping %u: unknown flags 0x%x", i,
                     flags);
      if (n > PAN_DUMP_MAX_NAME || size_B - off < n)
         return fail(dump, err, err_size, "mapping %u: bad name", i);

      /* Count the mapping before allocating so pan_dump_fini frees it. */
      dump->map_count = i + 1;
      dump->names[i] = calloc(1, n + 1);
      if (!dump->names[i])
         return fail(dump, err, err_size, "out of memory");
      memcpy(dump->names[i], buf + off, n);
      off += n;

      struct pan_sim_region *m = &dump->maps[i];
      m->gpu_va = va;
      m->size_B = len;
      m->name = dump->names[i];
      if (flags & PAN_DUMP_MAP_ZEROS) {
         /* Bounded, so a small file cannot claim unbounded memory. */
         zero_B += len;
         if (zero_B > PAN_DUMP_MAX_ZERO_B)
            return fail(dump, err, err_size,
                        "mapping %u: more than %llu MiB of zero-filled "
                        "mappings",
                        i, PAN_DUMP_MAX_ZERO_B >> 20);
         dump->data[i] = calloc(1, len);
         if (!dump->data[i])
            return fail(dump, err, err_size, "out of memory");
         m->cpu = dump->data[i];
      } else if (!(flags & PAN_DUMP_MAP_NO_DATA)) {
         if (size_B - off < len)
            return fail(dump, err, err_size,
                        "mapping %u (%s): truncated contents", i, m->name);
         dump->data[i] = malloc(len);
         if (!dump->data[i])
            return fail(dump, err, err_size, "out of memory");
         memcpy(dump->data[i], buf + off, len);
         m->cpu = dump->data[i];
         off += len;
      }
   }
   if (off != size_B)
      return fail(dump, err, err_size, "%zu stray bytes after the last mapping",
                  size_B - off);

   /* Sort a copy to find overlaps; the dump keeps its order. */
   struct pan_sim_region *sorted = malloc(sizeof(*sorted) * (maps + 1));
   if (!sorted)
      return fail(dump, err, err_size, "out of memory");
   memcpy(sorted, dump->maps, sizeof(*sorted) * maps);
   qsort(sorted, maps, sizeof(*sorted), cmp_va);
   for (unsigned i = 1; i < maps; ++i) {
      if (sorted[i - 1].gpu_va + sorted[i - 1].size_B > sorted[i].gpu_va) {
         uint64_t a = sorted[i - 1].gpu_va, b = sorted[i].gpu_va;
         free(sorted);
         return fail(dump, err, err_size,
                     "mappings at 0x%" PRIx64 " and 0x%" PRIx64 " overlap", a,
                     b);
      }
   }
   free(sorted);
   return 0;
}

uint8_t *
pan_dump_slurp(const char *path, size_t *size_B, char *err, size_t err_size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      snprintf(err, err_size, "%s: %s", path, strerror(errno));
      return NULL;
   }

   size_t cap = 1 << 16, len = 0;
   uint8_t *buf = malloc(cap + 1);
   while (buf) {
      len += fread(buf + len, 1, cap - len, f);
      if (len < cap)
         break;
      uint8_t *nbuf = cap < (SIZE_MAX >> 2) ? realloc(buf, cap * 2 + 1) : NULL;
      if (!nbuf) {
         free(buf);
         buf = NULL;
         break;
      }
      buf = nbuf;
      cap *= 2;
   }
   int saved = errno;
   bool io_error = ferror(f);
   fclose(f);
   if (!buf || io_error) {
      free(buf);
      snprintf(err, err_size, "%s: cannot read the file%s%s", path,
               io_error ? ": " : "", io_error ? strerror(saved) : "");
      return NULL;
   }
   buf[len] = 0;
   *size_B = len;
   return buf;
}

int
pan_dump_read_file(const char *path, struct pan_dump *dump, char *err,
                   size_t err_size)
{
   size_t len;
   uint8_t *buf = pan_dump_slurp(path, &len, err, err_size);

   memset(dump, 0, sizeof(*dump));
   if (!buf)
      return -1;
   int ret = pan_dump_parse(buf, len, dump, err, err_size);
   free(buf);
   return ret;
}
