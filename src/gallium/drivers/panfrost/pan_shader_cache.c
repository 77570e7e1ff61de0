/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Compiled shaders through Mesa's disk cache.  The key is the NIR as the
 * driver hands it to the compiler (serialised), the variant and the
 * architecture; the cache itself is named after the GPU and this driver
 * build, so a rebuilt driver never reads an older compiler's binaries.
 * An entry is the panfrost_binary: code words, registers, thread storage,
 * the push table, the shader-db line and where the BLENDs have their
 * colour and coverage.  A damaged entry is ignored (and
 * the shader compiled), never trusted.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_serialize.h"
#include "util/blob.h"
#include "util/disk_cache.h"
#include "util/mesa-sha1.h"
#include "util/ralloc.h"
#include "util/u_atomic.h"

#include "pan_arch.h"
#include "pan_compile.h"
#include "pan_screen.h"
#include "pan_shader_cache.h"

/* Bumped when the entry layout or meaning changes (6: work_regs is the
 * register file needed; 7: int_varyings). */
#define PAN_CACHE_ENTRY_VERSION 7

void
panfrost_shader_cache_init(struct panfrost_screen *screen)
{
   struct mesa_sha1 ctx;
   unsigned char sha1[20];
   char id[41], gpu[32];

   _mesa_sha1_init(&ctx);
   if (!disk_cache_get_function_identifier(panfrost_shader_cache_init, &ctx))
      return;
   _mesa_sha1_final(&ctx, sha1);
   _mesa_sha1_format(id, sha1);
   snprintf(gpu, sizeof(gpu), "panfrost-%04x", screen->dev.gpu_id);
   screen->disk_cache = disk_cache_create(gpu, id, 0);
}

void
panfrost_shader_cache_fini(struct panfrost_screen *screen)
{
   disk_cache_destroy(screen->disk_cache);
   screen->disk_cache = NULL;
}

static void
compute_key(struct disk_cache *cache, const nir_shader *nir, unsigned arch,
            unsigned variant, cache_key key)
{
   struct blob blob;
   blob_init(&blob);
   blob_write_uint32(&blob, arch);
   blob_write_uint32(&blob, variant);
   nir_serialize(&blob, nir, true);
   if (!blob.out_of_memory)
      disk_cache_compute_key(cache, blob.data, blob.size, key);
   else
      memset(key, 0, sizeof(cache_key));
   blob_finish(&blob);
}

static void
store(struct disk_cache *cache, const cache_key key,
      const struct panfrost_binary *bin)
{
   struct blob blob;
   blob_init(&blob);
   blob_write_uint32(&blob, PAN_CACHE_ENTRY_VERSION);
   blob_write_uint32(&blob, bin->nr_words);
   blob_write_uint32(&blob, bin->work_regs);
   blob_write_uint64(&blob, bin->int_varyings);
   blob_write_uint32(&blob, bin->tls_size);
   blob_write_uint32(&blob, bin->nr_push);
   blob_write_bytes(&blob, bin->shaderdb, sizeof(bin->shaderdb));
   blob_write_bytes(&blob, bin->blend_colour, sizeof(bin->blend_colour));
   blob_write_bytes(&blob, bin->blend_colour1, sizeof(bin->blend_colour1));
   blob_write_bytes(&blob, bin->blend_coverage, sizeof(bin->blend_coverage));
   blob_write_bytes(&blob, bin->blend_return, sizeof(bin->blend_return));
   for (unsigned k = 0; k < 2; ++k) {
      const struct panfrost_message_preload *m = &bin->messages[k];
      blob_write_uint8(&blob, m->varying);
      blob_write_uint8(&blob, m->slot);
      blob_write_uint8(&blob, m->comps);
      blob_write_uint8(&blob, m->texture_index);
      blob_write_uint8(&blob, m->texture | m->zero_lod << 1);
   }
   blob_write_bytes(&blob, bin->words, bin->nr_words * sizeof(uint64_t));
   for (unsigned i = 0; i < bin->nr_push; ++i) {
      blob_write_uint8(&blob, bin->push[i].source);
      blob_write_uint8(&blob, bin->push[i].ubo);
      blob_write_uint32(&blob, bin->push[i].offset_B);
   }
   if (!blob.out_of_memory)
      disk_cache_put(cache, key, blob.data, blob.size, NULL);
   blob_finish(&blob);
}

/* Fills out from a cache entry; false for anything malformed. */
static bool
load(const void *data, size_t size, void *mem_ctx,
     struct panfrost_binary *out)
{
   struct blob_reader r;
   blob_reader_init(&r, data, size);
   if (blob_read_uint32(&r) != PAN_CACHE_ENTRY_VERSION)
      return false;
   unsigned nr_words = blob_read_uint32(&r);
   out->work_regs = blob_read_uint32(&r);
   out->int_varyings = blob_read_uint64(&r);
   out->tls_size = blob_read_uint32(&r);
   unsigned nr_push = blob_read_uint32(&r);
   blob_copy_bytes(&r, out->shaderdb, sizeof(out->shaderdb));
   blob_copy_bytes(&r, out->blend_colour, sizeof(out->blend_colour));
   blob_copy_bytes(&r, out->blend_colour1, sizeof(out->blend_colour1));
   blob_copy_bytes(&r, out->blend_coverage, sizeof(out->blend_coverage));
   blob_copy_bytes(&r, out->blend_return, sizeof(out->blend_return));
   for (unsigned k = 0; k < 2; ++k) {
      struct panfrost_message_preload *m = &out->messages[k];
      m->varying = blob_read_uint8(&r);
      m->slot = blob_read_uint8(&r);
      m->comps = blob_read_uint8(&r);
      m->texture_index = blob_read_uint8(&r);
      uint8_t flags = blob_read_uint8(&r);
      m->texture = flags & 1;
      m->zero_lod = flags & 2;
   }
   if (r.overrun || nr_push > PAN_VA_MAX_PUSH_WORDS ||
       nr_words > (r.end - r.current) / sizeof(uint64_t))
      return false;
   out->shaderdb[sizeof(out->shaderdb) - 1] = '\0';

   uint64_t *words = ralloc_array(mem_ctx, uint64_t, MAX2(nr_words, 1));
   struct pan_va_push_word *push =
      ralloc_array(mem_ctx, struct pan_va_push_word, MAX2(nr_push, 1));
   if (!words || !push)
      return false;
   blob_copy_bytes(&r, words, nr_words * sizeof(uint64_t));
   for (unsigned i = 0; i < nr_push; ++i) {
      push[i].source = blob_read_uint8(&r);
      push[i].ubo = blob_read_uint8(&r);
      push[i].offset_B = blob_read_uint32(&r);
   }
   if (r.overrun || r.current != r.end)
      return false;
   out->words = words;
   out->nr_words = nr_words;
   out->push = push;
   out->nr_push = nr_push;
   return true;
}

bool
panfrost_compile_cached(struct panfrost_screen *screen, nir_shader *nir,
                        void *mem_ctx, unsigned variant,
                        struct panfrost_binary *out, char *err,
                        size_t err_size)
{
   struct disk_cache *cache = screen->disk_cache;
   unsigned debug = pan_compiler_debug();
   cache_key key;

   /* BIFROST_MESA_DEBUG=shaders wants to see the compile happen. */
   if (debug & PAN_COMPILER_DEBUG_SHADERS)
      cache = NULL;

   if (cache) {
      compute_key(cache, nir, screen->dev.arch, variant, key);
      size_t size = 0;
      void *data = disk_cache_get(cache, key, &size);
      bool hit = data && load(data, size, mem_ctx, out);
      free(data);
      if (hit) {
         p_atomic_inc(&screen->shader_cache_hits);
         if (debug & PAN_COMPILER_DEBUG_SHADERDB)
            fprintf(stderr, "SHADER-DB: %s\n", out->shaderdb);
         return true;
      }
   }

   if (!screen->arch->compile(nir, mem_ctx, variant, out, err, err_size))
      return false;
   if (debug & PAN_COMPILER_DEBUG_SHADERDB)
      fprintf(stderr, "SHADER-DB: %s\n", out->shaderdb);
   if (cache)
      store(cache, key, out);
   return true;
}
