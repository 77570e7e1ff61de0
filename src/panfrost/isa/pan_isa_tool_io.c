/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_isa_tool_io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int
pan_isa_tool_read(const char *path, bool hex, struct pan_isa_bytes *out,
                  char *err, size_t err_size)
{
   FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
   struct pan_isa_bytes raw = {0};
   uint8_t chunk[4096];
   size_t n;

   if (!f)
      return pan_isa_fail(err, err_size, "%s: %s", path, strerror(errno));
   while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
      if (!pan_isa_bytes_append(&raw, chunk, n)) {
         pan_isa_bytes_free(&raw);
         if (f != stdin)
            fclose(f);
         return pan_isa_fail(err, err_size, "out of memory");
      }
   }
   /* errno from the failed read (EISDIR for a folder, EIO, ...). */
   int read_errno = errno;
   bool failed = ferror(f);
   if (f != stdin)
      fclose(f);
   if (failed) {
      pan_isa_bytes_free(&raw);
      return pan_isa_fail(err, err_size, "%s: %s", path,
                          strerror(read_errno));
   }

   if (!hex) {
      *out = raw;
      return 0;
   }
   char why[192] = "";
   bool ok = pan_isa_hex_to_bytes((const char *)raw.data, raw.size_B, out,
                                  why, sizeof(why));
   pan_isa_bytes_free(&raw);
   if (!ok)
      return pan_isa_fail(err, err_size, "%s: %s", path, why);
   return 0;
}

int
pan_isa_tool_write(const char *path, bool hex,
                   const struct pan_isa_bytes *data, char *err,
                   size_t err_size)
{
   FILE *f = path ? fopen(path, "wb") : stdout;

   if (!f)
      return pan_isa_fail(err, err_size, "%s: %s", path, strerror(errno));
   if (hex) {
      for (size_t i = 0; i < data->size_B; i++)
         fprintf(f, "%02x%s", data->data[i], (i % 16 == 15) ? "\n" : " ");
      if (data->size_B % 16)
         fputc('\n', f);
   } else if (data->size_B) {
      fwrite(data->data, 1, data->size_B, f);
   }
   bool failed = ferror(f);
   if (path)
      failed |= fclose(f) != 0;
   else
      failed |= fflush(f) != 0;
   return failed ? pan_isa_fail(err, err_size, "%s: %s",
                                path ? path : "<stdout>", strerror(errno))
                 : 0;
}
