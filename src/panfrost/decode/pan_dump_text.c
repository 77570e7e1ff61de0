/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Reader of the stock driver's text dumps (see pan_dump.h). The file is a
 * sequence of submits, each the decoder's trace of the chain followed by
 * the buffer dumps:
 *
 *    Job Header (ADDR):            first job of the chain (hex, no 0x)
 *    ... trace text, ignored ...
 *    Buffer: NAME gpu ADDR
 *                                  (blank)
 *    OFFSET  XX XX ... XX          up to 16 bytes; OFFSET is hex, >= 6 digits
 *    OFFSET  *                     zero bytes from OFFSET up to the next
 *                                  line's (at least 32)
 *                                  (blank: end of this buffer's bytes)
 *
 * A trace line met after buffers starts the next submit. Everything is
 * checked; the first malformed line is the error.
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pan_dump.h"

#define PAGE_B 4096ull
/* All buffers of one file together, so a small file cannot claim
 * unbounded memory. */
#define TEXT_MAX_B (1ull << 30)
#define TEXT_MAX_SUBMITS 65536

struct buf {
   char *name;
   uint64_t va;
   uint8_t *data;
   uint64_t len, cap; /* bytes known, allocated */
   bool zeros;        /* a "*" run is open */
   bool partial;      /* the last line held fewer than 16 bytes */
   bool ended;        /* the blank line after the bytes was seen */
   unsigned line;
};

struct parser {
   const char *file;
   unsigned line;
   char *err;
   size_t err_size;
   uint32_t gpu_id;
   unsigned arch;
   uint64_t total_B;

   struct pan_dump *dumps;
   unsigned count, cap;
   bool submit_has_buffers;
   bool in_buf;
   struct buf buf;
};

static int
fail(struct parser *p, const char *fmt, ...)
{
   va_list ap;
   int n = snprintf(p->err, p->err_size, "%s:%u: ", p->file, p->line);

   va_start(ap, fmt);
   if (n >= 0 && (size_t)n < p->err_size)
      vsnprintf(p->err + n, p->err_size - n, fmt, ap);
   va_end(ap);
   return -1;
}

static int
hexval(char c)
{
   if (!isxdigit((unsigned char)c))
      return -1;
   return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Hex digits [s, end) as a number; false when empty, not all hex or over
 * 64 bits. */
static bool
parse_hex(const char *s, const char *end, uint64_t *out)
{
   uint64_t v = 0;

   if (s == end || end - s > 16)
      return false;
   for (; s < end; ++s) {
      int d = hexval(*s);
      if (d < 0)
         return false;
      v = (v << 4) | (uint64_t)d;
   }
   *out = v;
   return true;
}

static int
new_submit(struct parser *p, uint64_t jc)
{
   if (p->count == p->cap) {
      unsigned cap = p->cap ? 2 * p->cap : 4;
      struct pan_dump *d = realloc(p->dumps, cap * sizeof(*d));
      if (!d)
         return fail(p, "out of memory");
      p->dumps = d;
      p->cap = cap;
   }
   struct pan_dump *d = &p->dumps[p->count++];
   memset(d, 0, sizeof(*d));
   d->gpu_id = p->gpu_id;
   d->arch = p->arch;
   d->chain_count = 1;
   d->chains[0] = jc;
   p->submit_has_buffers = false;
   return 0;
}

static bool
grow(struct buf *b, uint64_t need)
{
   if (need <= b->cap)
      return true;
   uint64_t cap = b->cap ? b->cap : PAGE_B;
   while (cap < need)
      cap *= 2;
   uint8_t *d = realloc(b->data, cap);
   if (!d)
      return false;
   memset(d + b->cap, 0, cap - b->cap);
   b->data = d;
   b->cap = cap;
   return true;
}

/* Append a mapping owning name and data; false when out of memory (they
 * stay the caller's). */
static bool
add_map(struct pan_dump *d, uint64_t va, uint64_t size, char *name,
        uint8_t *data)
{
   unsigned n = d->map_count + 1;
   struct pan_sim_region *maps = realloc(d->maps, n * sizeof(*maps));
   if (maps)
      d->maps = maps;
   char **names = maps ? realloc(d->names, n * sizeof(*names)) : NULL;
   if (names)
      d->names = names;
   uint8_t **datas = names ? realloc(d->data, n * sizeof(*datas)) : NULL;
   if (!datas)
      return false;
   d->data = datas;
   d->names[n - 1] = name;
   d->data[n - 1] = data;
   d->maps[n - 1] = (struct pan_sim_region){
      .gpu_va = va, .size_B = size, .cpu = data, .name = name
   };
   d->map_count = n;
   return true;
}

static int
cmp_va(const void *a, const void *b)
{
   const struct pan_sim_region *x = a, *y = b;
   return x->gpu_va < y->gpu_va ? -1 : x->gpu_va > y->gpu_va;
}

/* Back the unmapped address space around the dumped buffers with zeros:
 * memory the CPU never mapped (the driver's invisible pools: varyings,
 * scratch) is not in the text, and a chain that writes it before reading
 * it replays the same on zeros. Gaps between buffers (up to GAP_MAX_B)
 * and GAP_TAIL_B past the last one are filled, within TEXT_MAX_B. */
#define GAP_MAX_B (256ull << 20)
#define GAP_TAIL_B (32ull << 20)

static int
add_gaps(struct parser *p, struct pan_dump *d)
{
   struct pan_sim_region *sorted = malloc((d->map_count + 1) * sizeof(*sorted));
   unsigned n = d->map_count;
   int ret = 0;

   if (!sorted)
      return fail(p, "out of memory");
   memcpy(sorted, d->maps, n * sizeof(*sorted));
   qsort(sorted, n, sizeof(*sorted), cmp_va);
   for (unsigned i = 0; i < n && !ret; ++i) {
      uint64_t start = sorted[i].gpu_va + sorted[i].size_B;
      uint64_t end = i + 1 < n ? sorted[i + 1].gpu_va : start + GAP_TAIL_B;
      /* Gaps count towards the file's bound; past it they are left
       * unmapped. */
      if (end <= start || end - start > GAP_MAX_B ||
          p->total_B + (end - start) > TEXT_MAX_B)
         continue;
      p->total_B += end - start;
      char *name = strdup("zeros (not in the dump)");
      uint8_t *data = calloc(1, end - start);
      if (!name || !data || !add_map(d, start, end - start, name, data)) {
         free(name);
         free(data);
         ret = fail(p, "out of memory");
      }
   }
   free(sorted);
   return ret;
}

/* Close the open buffer and add it to the current submit. */
static int
end_buffer(struct parser *p)
{
   struct buf *b = &p->buf;
   struct pan_dump *d = &p->dumps[p->count - 1];

   if (!p->in_buf)
      return 0;
   p->in_buf = false;

   /* A final zero run has no end offset: the page-rounded size covers at
    * least the 32 zero bytes it stands for. */
   uint64_t size = b->len + (b->zeros ? 32 : 0);
   if (!size) {
      p->line = b->line;
      return fail(p, "buffer %s has no bytes", b->name);
   }
   size = (size + PAGE_B - 1) & ~(PAGE_B - 1);
   if (b->va + size < b->va) {
      p->line = b->line;
      return fail(p, "buffer %s at 0x%" PRIx64 " wraps the address space",
                  b->name, b->va);
   }
   for (unsigned i = 0; i < d->map_count; ++i) {
      const struct pan_sim_region *m = &d->maps[i];
      if (b->va < m->gpu_va + m->size_B && m->gpu_va < b->va + size) {
         p->line = b->line;
         return fail(p, "buffer %s at 0x%" PRIx64 " overlaps %s at 0x%" PRIx64,
                     b->name, b->va, m->name, m->gpu_va);
      }
   }
   p->total_B += size;
   if (p->total_B > TEXT_MAX_B || !grow(b, size)) {
      p->line = b->line;
      return fail(p, "buffers take more than %llu MiB", TEXT_MAX_B >> 20);
   }

   if (!add_map(d, b->va, size, b->name, b->data))
      return fail(p, "out of memory");
   memset(b, 0, sizeof(*b));
   return 0;
}

static int
start_buffer(struct parser *p, const char *s, const char *end)
{
   const char *rest = s + strlen("Buffer: ");
   const char *g = NULL;

   /* The name may hold spaces: the address follows the last " gpu ". */
   for (const char *q = rest; q + 5 <= end; ++q) {
      if (!memcmp(q, " gpu ", 5))
         g = q;
   }
   uint64_t va;
   if (!g || !parse_hex(g + 5, end, &va))
      return fail(p, "expected \"Buffer: NAME gpu ADDR\" with a hex ADDR");
   if (!p->count)
      return fail(p, "buffer dump before any job chain trace (the chain "
                     "address comes from the trace: use "
                     "PAN_MESA_DEBUG=trace,dump)");
   if (va & (PAGE_B - 1))
      return fail(p, "buffer address 0x%" PRIx64 " is not page aligned", va);
   if (p->dumps[p->count - 1].map_count >= PAN_DUMP_MAX_MAPPINGS)
      return fail(p, "more than %u buffers in one submit",
                  PAN_DUMP_MAX_MAPPINGS);

   size_t n = (size_t)(g - rest);
   if (n > PAN_DUMP_MAX_NAME)
      n = PAN_DUMP_MAX_NAME;
   memset(&p->buf, 0, sizeof(p->buf));
   p->buf.name = malloc(n + 1);
   if (!p->buf.name)
      return fail(p, "out of memory");
   memcpy(p->buf.name, rest, n);
   p->buf.name[n] = 0;
   p->buf.va = va;
   p->buf.line = p->line;
   p->in_buf = true;
   p->submit_has_buffers = true;
   return 0;
}

static int
hex_line(struct parser *p, const char *s, const char *end)
{
   struct buf *b = &p->buf;
   const char *q = s;

   while (q < end && *q != ' ')
      ++q;
   uint64_t off;
   if (q - s < 6 || !parse_hex(s, q, &off) || end - q < 2 || q[1] != ' ')
      return fail(p, "expected a hexdump line (OFFSET  XX XX ... or "
                     "OFFSET  *)");
   if (b->partial)
      return fail(p, "hexdump line after a short line of the same buffer");
   if (off & 15)
      return fail(p, "hexdump offset 0x%" PRIx64 " is not a multiple of 16",
                  off);
   if (off != b->len && !(b->zeros && off > b->len))
      return fail(
         p, "hexdump offset 0x%" PRIx64 " where 0x%" PRIx64 " was expected",
         off, b->len);
   if (off >= PAN_DUMP_MAX_MAPPING_B || p->total_B + off + 16 > TEXT_MAX_B)
      return fail(p, "hexdump offset 0x%" PRIx64 " is too large", off);
   if (!grow(b, off + 16))
      return fail(p, "out of memory");
   b->zeros = false;

   unsigned count = 0;
   q += 2;
   if (end - q == 1 && *q == '*') {
      /* Zero bytes from here up to the next line's offset. */
      if (off != b->len)
         return fail(p, "a zero run must follow the previous bytes");
      b->zeros = true;
      return 0;
   }
   while (q < end) {
      if (q + 2 > end || hexval(q[0]) < 0 || hexval(q[1]) < 0 ||
          (q + 2 < end && q[2] != ' '))
         return fail(p, "malformed byte \"%.*s\" in a hexdump line",
                     (int)(end - q < 8 ? end - q : 8), q);
      if (count == 16)
         return fail(p, "more than 16 bytes in a hexdump line");
      b->data[off + count++] = (uint8_t)(hexval(q[0]) << 4 | hexval(q[1]));
      q += 3;
   }
   if (!count)
      return fail(p, "hexdump line without bytes");
   b->len = off + count;
   b->partial = count < 16;
   return 0;
}

/* Trace text: only the chain's first job header matters. */
static int
trace_line(struct parser *p, const char *s, const char *end)
{
   static const char hdr[] = "Job Header (";

   while (s < end && (*s == ' ' || *s == '\t'))
      ++s;
   if ((size_t)(end - s) < strlen(hdr) || memcmp(s, hdr, strlen(hdr)))
      return 0;
   s += strlen(hdr);
   const char *close = memchr(s, ')', (size_t)(end - s));
   uint64_t jc;
   if (!close || !parse_hex(s, close, &jc) || !jc)
      return fail(p, "expected \"Job Header (ADDR):\" with a hex ADDR");
   /* Later headers of the same trace are the chain's other jobs. */
   if (p->count && !p->submit_has_buffers)
      return 0;
   if (p->count == TEXT_MAX_SUBMITS)
      return fail(p, "too many submits");
   return new_submit(p, jc);
}

static int
parse_line(struct parser *p, const char *s, const char *end)
{
   if (end > s && end[-1] == '\r')
      --end;
   if (end - s >= 8 && !memcmp(s, "Buffer: ", 8)) {
      if (end_buffer(p))
         return -1;
      return start_buffer(p, s, end);
   }
   if (p->in_buf && !p->buf.ended) {
      if (s == end) {
         /* The blank line after the header, or the end of the bytes. */
         if (p->buf.len || p->buf.zeros)
            p->buf.ended = true;
         return 0;
      }
      return hex_line(p, s, end);
   }
   if (s == end)
      return 0;
   if (end_buffer(p))
      return -1;
   return trace_line(p, s, end);
}

void
pan_dump_free_array(struct pan_dump *dumps, unsigned count)
{
   for (unsigned i = 0; i < count; ++i)
      pan_dump_fini(&dumps[i]);
   free(dumps);
}

int
pan_dump_text_parse(const char *text, size_t len, const char *file,
                    uint32_t gpu_id, unsigned arch, struct pan_dump **dumps,
                    unsigned *count, char *err, size_t err_size)
{
   struct parser p = {
      .file = file,
      .err = err,
      .err_size = err_size,
      .gpu_id = gpu_id,
      .arch = arch,
   };
   const char *s = text, *end = text + len;
   int ret = 0;

   *dumps = NULL;
   *count = 0;
   while (s < end && !ret) {
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      const char *e = nl ? nl : end;
      p.line++;
      if (memchr(s, 0, (size_t)(e - s)))
         ret = fail(&p, "NUL byte: not a text dump");
      else
         ret = parse_line(&p, s, e);
      s = nl ? nl + 1 : end;
   }
   p.line++;
   if (!ret)
      ret = end_buffer(&p);
   if (!ret && !p.count)
      ret = fail(&p, "no job chain trace (\"Job Header (ADDR):\") found");
   if (!ret && !p.submit_has_buffers)
      ret = fail(&p,
                 "the chain at 0x%" PRIx64 " has no buffer dump "
                 "(PAN_MESA_DEBUG needs dump as well as trace)",
                 p.dumps[p.count - 1].chains[0]);
   for (unsigned i = 0; i < p.count && !ret; ++i)
      ret = add_gaps(&p, &p.dumps[i]);
   if (ret) {
      free(p.buf.name);
      free(p.buf.data);
      pan_dump_free_array(p.dumps, p.count);
      return -1;
   }
   *dumps = p.dumps;
   *count = p.count;
   return 0;
}

int
pan_dump_text_read_file(const char *path, uint32_t gpu_id, unsigned arch,
                        struct pan_dump **dumps, unsigned *count, char *err,
                        size_t err_size)
{
   size_t len;
   uint8_t *buf = pan_dump_slurp(path, &len, err, err_size);

   *dumps = NULL;
   *count = 0;
   if (!buf)
      return -1;
   int ret = pan_dump_text_parse((const char *)buf, len, path, gpu_id, arch,
                                 dumps, count, err, err_size);
   free(buf);
   return ret;
}
