/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * U-interleaved tiling: argument checks and the choice of flavour.
 *
 * The copies themselves live in one file per flavour, each built with the
 * flags its instructions need and sharing the walk over the rectangle
 * (pan_uinterleave_walk.h):
 *
 *    pan_uinterleave_portable.c   plain C, every target
 *    pan_uinterleave_sse2.c       x86-64 baseline
 *    pan_uinterleave_ssse3.c      x86-64, -mssse3, if the CPU has it
 *    pan_uinterleave_neon.c       arm64; armhf with -mfpu=neon, if the CPU
 *                                 has it
 *
 * The build says which exist (PAN_UIL_HAVE_*); uil_pick() below is the one
 * place that chooses among them.  docs/drivers/panfrost/tiling.rst
 * explains the kernels.
 */

#include "pan_cpu.h"
#include "pan_uinterleave_priv.h"


static const char *const uil_path_names[PAN_UINTERLEAVE_PATH_COUNT] = {
   [PAN_UINTERLEAVE_PORTABLE] = "portable",
   [PAN_UINTERLEAVE_SSE2] = "sse2",
   [PAN_UINTERLEAVE_SSSE3] = "ssse3",
   [PAN_UINTERLEAVE_NEON] = "neon",
};

const char *
pan_uinterleave_path_name(enum pan_uinterleave_path path)
{
   return path < PAN_UINTERLEAVE_PATH_COUNT ? uil_path_names[path] : "?";
}

/* The flavour's table if it was built and the CPU can run it, else NULL */
static const struct uil_entry *
uil_table(enum pan_uinterleave_path path)
{
   switch (path) {
   case PAN_UINTERLEAVE_PORTABLE:
      return uil_table_portable;
#ifdef PAN_UIL_HAVE_SSE2
   case PAN_UINTERLEAVE_SSE2:
      return uil_table_sse2;
#endif
#ifdef PAN_UIL_HAVE_SSSE3
   case PAN_UINTERLEAVE_SSSE3:
      return pan_cpu_has(PAN_CPU_SSSE3) ? uil_table_ssse3 : NULL;
#endif
#ifdef PAN_UIL_HAVE_NEON
   case PAN_UINTERLEAVE_NEON:
      return pan_cpu_has(PAN_CPU_NEON) ? uil_table_neon : NULL;
#endif
   default:
      return NULL;
   }
}

bool
pan_uinterleave_path_available(enum pan_uinterleave_path path)
{
   return uil_table(path) != NULL;
}

/* Set by tests and benchmarks; PATH_COUNT: not forced */
static enum pan_uinterleave_path uil_forced = PAN_UINTERLEAVE_PATH_COUNT;

bool
pan_uinterleave_force_path(enum pan_uinterleave_path path)
{
   if (path != PAN_UINTERLEAVE_PATH_COUNT &&
       !pan_uinterleave_path_available(path))
      return false;
   uil_forced = path;
   return true;
}

/* The one place that decides which flavour copies: the forced one, else
 * the first available in order of preference. */
static enum pan_uinterleave_path
uil_pick(void)
{
   static const enum pan_uinterleave_path preference[] = {
      PAN_UINTERLEAVE_NEON,
      PAN_UINTERLEAVE_SSSE3,
      PAN_UINTERLEAVE_SSE2,
   };

   if (uil_forced != PAN_UINTERLEAVE_PATH_COUNT)
      return uil_forced;
   for (unsigned i = 0; i < sizeof(preference) / sizeof(preference[0]); ++i) {
      if (pan_uinterleave_path_available(preference[i]))
         return preference[i];
   }
   return PAN_UINTERLEAVE_PORTABLE;
}

enum pan_uinterleave_path
pan_uinterleave_current_path(void)
{
   return uil_pick();
}

bool
pan_utile_el_size_supported(unsigned el_size_B)
{
   return el_size_B < 17 && uil_table_portable[el_size_B].store != NULL;
}

/*
 * Copies bigger than a last-level cache write their destination with
 * streaming stores (x86 flavours only): the data will not be read back by
 * the CPU soon, and skipping the read-for-ownership of every destination
 * line saves up to a third of the memory traffic.  Stores need 16-byte
 * aligned tiles; loads gather whole lines whatever the rows' alignment.
 */
static uint64_t uil_stream_min_B = 16u << 20;

void
pan_uinterleave_set_stream_min_B(uint64_t min_B)
{
   uil_stream_min_B = min_B;
}

static bool
uil_use_streaming(enum pan_uinterleave_path path, const struct uil_job *job,
                  unsigned B, bool store)
{
   if (path != PAN_UINTERLEAVE_SSE2 && path != PAN_UINTERLEAVE_SSSE3)
      return false;
   if ((uint64_t)job->w * job->h * B < uil_stream_min_B)
      return false;

   if (store)
      return ((uintptr_t)job->tiled | job->tiled_stride_B) % 16 == 0;

   /* Loads go through a staging buffer that writes whole cache lines
    * whatever the alignment (uil_band_staged in pan_uinterleave_walk.h) */
   return true;
}

/* Compressed 4x4 tiles stream only with 16-byte blocks, whose tile rows
 * are whole cache lines; both sides must then be 16-aligned. */
static bool
uil_use_streaming_c(enum pan_uinterleave_path path, const struct uil_job *job,
                    unsigned B, bool store)
{
   if (B != 16 || (path != PAN_UINTERLEAVE_SSE2 && path != PAN_UINTERLEAVE_SSSE3))
      return false;
   if ((uint64_t)job->w * job->h * B < uil_stream_min_B)
      return false;
   if (store)
      return ((uintptr_t)job->tiled | job->tiled_stride_B) % 16 == 0;
   return ((uintptr_t)job->linear | job->linear_stride_B) % 16 == 0;
}

static bool
uil_run(void *tiled, uint32_t tiled_stride_B, void *linear,
        uint32_t linear_stride_B, unsigned x, unsigned y, unsigned w,
        unsigned h, unsigned B, bool compressed, bool store)
{
   if (!pan_utile_el_size_supported(B))
      return false;
   if (w == 0 || h == 0)
      return true;
   if (h > 1 && (uint64_t)linear_stride_B < (uint64_t)w * B)
      return false;
   /* Leave room to round the far corner up to a tile boundary */
   if ((uint64_t)x + w > UINT32_MAX - 15 || (uint64_t)y + h > UINT32_MAX - 15)
      return false;

   struct uil_job job = {
      .tiled = tiled,
      .linear = linear,
      .tiled_stride_B = tiled_stride_B,
      .linear_stride_B = linear_stride_B,
      .x = x, .y = y, .w = w, .h = h,
   };
   const enum pan_uinterleave_path path = uil_pick();
   const struct uil_entry *e = &uil_table(path)[B];

   job.nt = compressed ? uil_use_streaming_c(path, &job, B, store)
                       : uil_use_streaming(path, &job, B, store);
   if (compressed)
      (store ? e->store_c : e->load_c)(&job);
   else
      (store ? e->store : e->load)(&job);
   return true;
}

bool
pan_uinterleave_store_el(void *tiled, uint32_t tiled_stride_B,
                         const void *linear, uint32_t linear_stride_B,
                         unsigned x_el, unsigned y_el, unsigned w_el,
                         unsigned h_el, unsigned el_size_B, bool compressed)
{
   return uil_run(tiled, tiled_stride_B, (void *)linear, linear_stride_B,
                  x_el, y_el, w_el, h_el, el_size_B, compressed, true);
}

bool
pan_uinterleave_load_el(void *linear, uint32_t linear_stride_B,
                        const void *tiled, uint32_t tiled_stride_B,
                        unsigned x_el, unsigned y_el, unsigned w_el,
                        unsigned h_el, unsigned el_size_B, bool compressed)
{
   return uil_run((void *)tiled, tiled_stride_B, linear, linear_stride_B,
                  x_el, y_el, w_el, h_el, el_size_B, compressed, false);
}

/* Convert a pixel rectangle to elements; false if the origin is not on a
 * block boundary. */
static bool
uil_px_to_el(const struct pan_utile_format *fmt, unsigned *x, unsigned *y,
             unsigned *w, unsigned *h, bool *compressed)
{
   unsigned bw = fmt->block_w_px, bh = fmt->block_h_px;

   if (bw == 0 || bh == 0 || *x % bw || *y % bh)
      return false;

   *compressed = bw > 1 || bh > 1;
   *x /= bw;
   *y /= bh;
   *w = (unsigned)(((uint64_t)*w + bw - 1) / bw);
   *h = (unsigned)(((uint64_t)*h + bh - 1) / bh);
   return true;
}

bool
pan_uinterleave_store_px(void *tiled, uint32_t tiled_stride_B,
                         const void *linear, uint32_t linear_stride_B,
                         unsigned x_px, unsigned y_px, unsigned w_px,
                         unsigned h_px, const struct pan_utile_format *fmt)
{
   bool compressed;

   if (!uil_px_to_el(fmt, &x_px, &y_px, &w_px, &h_px, &compressed))
      return false;

   return pan_uinterleave_store_el(tiled, tiled_stride_B, linear,
                                   linear_stride_B, x_px, y_px, w_px, h_px,
                                   fmt->el_size_B, compressed);
}

bool
pan_uinterleave_load_px(void *linear, uint32_t linear_stride_B,
                        const void *tiled, uint32_t tiled_stride_B,
                        unsigned x_px, unsigned y_px, unsigned w_px,
                        unsigned h_px, const struct pan_utile_format *fmt)
{
   bool compressed;

   if (!uil_px_to_el(fmt, &x_px, &y_px, &w_px, &h_px, &compressed))
      return false;

   return pan_uinterleave_load_el(linear, linear_stride_B, tiled,
                                  tiled_stride_B, x_px, y_px, w_px, h_px,
                                  fmt->el_size_B, compressed);
}
