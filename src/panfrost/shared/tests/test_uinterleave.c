/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Checks every flavour of the u-interleaved copies this target built and
 * this CPU runs (portable, SSE2, SSSE3, NEON) against the reference model,
 * byte for byte, for every element size, on plain and block-compressed
 * tiling.  Bytes outside the rectangle must be left untouched in both
 * directions.
 *
 * Usage: test_uinterleave [iterations]   (default 300 random cases per size)
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/pan_test_util.h"
#include "pan_uinterleave.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rng(void)
{
   return (uint32_t)(pan_test_rng64(&rng_state) >> 32);
}

static void
fill_random(uint8_t *p, size_t n)
{
   pan_test_fill_random(&rng_state, p, n);
}

struct tcase {
   unsigned img_w, img_h; /* in elements */
   unsigned x, y, w, h;
   unsigned extra_stride_B; /* linear stride beyond the row */
};

static void
check_case(const struct tcase *c, unsigned B, bool compressed)
{
   unsigned dim = compressed ? 4 : 16;
   unsigned tiles_x = (c->img_w + dim - 1) / dim;
   unsigned tiles_y = (c->img_h + dim - 1) / dim;
   /* Leave some slack between tile rows to catch stride bugs */
   uint32_t tstride = tiles_x * dim * dim * B + (compressed ? 0 : 64);
   size_t tsize = (size_t)tstride * tiles_y;
   uint32_t lstride = c->w * B + c->extra_stride_B;
   size_t lsize = (size_t)lstride * (c->h ? c->h - 1 : 0) + c->w * B;

   /* Exact-size allocations so ASan sees any overrun. */
   uint8_t *lin = malloc(lsize + 1);
   uint8_t *t_fast = malloc(tsize + 1), *t_ref = malloc(tsize + 1);
   uint8_t *l_fast = malloc(lsize + 1), *l_ref = malloc(lsize + 1);

   fill_random(lin, lsize);
   fill_random(t_ref, tsize);
   memcpy(t_fast, t_ref, tsize);

   bool ok = pan_uinterleave_store_el(t_fast, tstride, lin, lstride, c->x,
                                      c->y, c->w, c->h, B, compressed);
   pan_uinterleave_ref_store_el(t_ref, tstride, lin, lstride, c->x, c->y,
                                c->w, c->h, B, compressed);
   PAN_CHECK(ok && !memcmp(t_fast, t_ref, tsize),
             "store mismatch: B=%u%s img %ux%u rect (%u,%u) %ux%u +%u", B,
             compressed ? " compressed" : "", c->img_w, c->img_h, c->x, c->y,
             c->w, c->h, c->extra_stride_B);

   /* Load from a random tiled image into a pre-filled linear buffer. */
   fill_random(t_ref, tsize);
   fill_random(l_ref, lsize);
   memcpy(l_fast, l_ref, lsize);
   ok = pan_uinterleave_load_el(l_fast, lstride, t_ref, tstride, c->x, c->y,
                                c->w, c->h, B, compressed);
   pan_uinterleave_ref_load_el(l_ref, lstride, t_ref, tstride, c->x, c->y,
                               c->w, c->h, B, compressed);
   PAN_CHECK(ok && !memcmp(l_fast, l_ref, lsize),
             "load mismatch: B=%u%s img %ux%u rect (%u,%u) %ux%u +%u", B,
             compressed ? " compressed" : "", c->img_w, c->img_h, c->x, c->y,
             c->w, c->h, c->extra_stride_B);

   free(lin);
   free(t_fast);
   free(t_ref);
   free(l_fast);
   free(l_ref);
}

static unsigned
rand_range(unsigned lo, unsigned hi)
{
   return lo + rng() % (hi - lo + 1);
}

static void
run_size(unsigned B, bool compressed, unsigned iterations)
{
   /* Fixed shapes first: 1x1 at corners, whole images, odd sizes. */
   const struct tcase fixed[] = {
      { 1, 1, 0, 0, 1, 1, 0 },
      { 16, 16, 0, 0, 16, 16, 0 },
      { 16, 16, 15, 15, 1, 1, 0 },
      { 64, 48, 0, 0, 64, 48, 0 },
      { 64, 48, 0, 0, 64, 48, 13 },
      { 37, 23, 0, 0, 37, 23, 0 },
      { 37, 23, 36, 22, 1, 1, 0 },
      { 100, 70, 13, 7, 80, 60, 5 },
      { 50, 50, 16, 16, 32, 32, 0 },
      { 50, 50, 1, 1, 48, 48, 1 },
      { 33, 65, 0, 1, 33, 63, 3 },
      { 256, 20, 3, 2, 250, 17, 100 },
      /* Wide enough for several staged pieces of streamed loads; the
       * second one's rows start at every alignment within a line */
      { 512, 32, 0, 0, 512, 32, 0 },
      { 512, 32, 0, 0, 512, 32, 16 },
   };
   for (unsigned i = 0; i < sizeof(fixed) / sizeof(fixed[0]); ++i)
      check_case(&fixed[i], B, compressed);

   for (unsigned it = 0; it < iterations; ++it) {
      struct tcase c;
      c.img_w = rand_range(1, 130);
      c.img_h = rand_range(1, 90);
      c.x = rand_range(0, c.img_w - 1);
      c.y = rand_range(0, c.img_h - 1);
      c.w = rand_range(1, c.img_w - c.x);
      c.h = rand_range(1, c.img_h - c.y);
      c.extra_stride_B = (rng() & 1) ? rand_range(1, 200) : 0;
      check_case(&c, B, compressed);
   }
}

/* The reference itself must agree with a few hand-worked addresses. */
static void
check_reference(void)
{
   static const struct {
      unsigned x, y, compressed, index;
   } known[] = {
      { 0, 0, 0, 0 },     { 1, 0, 0, 1 },    { 0, 1, 0, 3 },
      { 1, 1, 0, 2 },     { 2, 0, 0, 4 },    { 15, 15, 0, 170 },
      { 15, 0, 0, 85 },   { 0, 15, 0, 255 }, { 8, 8, 0, 128 },
      { 3, 3, 1, 10 },    { 0, 3, 1, 15 },   { 2, 2, 1, 8 },
   };
   for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]); ++i) {
      uint64_t off = pan_uinterleave_ref_offset_B(
         known[i].x, known[i].y, 0, 1, known[i].compressed);
      PAN_CHECK(off == known[i].index,
                "reference index (%u,%u) = %" PRIu64 ", want %u", known[i].x,
                known[i].y, off, known[i].index);
   }
   /* Tile (2,1) of an image with a 4096-byte tile row stride, 4 B/el */
   PAN_CHECK(pan_uinterleave_ref_offset_B(33, 16, 4096, 4, false) ==
                4096 + 2 * 1024 + 4 * 1,
             "reference tile addressing wrong");
}

static void
check_bad_input(void)
{
   uint8_t buf[64] = { 0 };
   struct pan_utile_format fmt = { 4, 4, 4 };

   PAN_EXPECT(!pan_uinterleave_store_el(buf, 64, buf, 4, 0, 0, 1, 1, 5, false));
   PAN_EXPECT(!pan_uinterleave_load_el(buf, 4, buf, 64, 0, 0, 1, 1, 0, false));
   PAN_EXPECT(!pan_uinterleave_store_el(buf, 64, buf, 3, 0, 0, 2, 2, 4, false));
   PAN_EXPECT(!pan_uinterleave_store_px(buf, 64, buf, 16, 2, 0, 4, 4, &fmt));
   PAN_EXPECT(!pan_uinterleave_store_el(buf, 64, buf, 4, UINT32_MAX - 10, 0,
                                        1, 1, 4, false));
   /* Pixel interface: 8x8 px of a 4x4-block 8 B format is 2x2 blocks */
   uint8_t lin[32], tiled[128] = { 0 }, ref[128] = { 0 };
   fmt.el_size_B = 8;
   fill_random(lin, sizeof(lin));
   PAN_CHECK(pan_uinterleave_store_px(tiled, 128, lin, 16, 4, 4, 7, 5, &fmt),
             "pixel interface rejected good input");
   pan_uinterleave_ref_store_el(ref, 128, lin, 16, 1, 1, 2, 2, 8, true);
   PAN_CHECK(!memcmp(tiled, ref, sizeof(ref)), "pixel interface mismatch");
}

/* The flavours this target must have built; the CPU decides the rest. */
static void
check_paths_built(void)
{
   PAN_EXPECT(pan_uinterleave_path_available(PAN_UINTERLEAVE_PORTABLE));
#if defined(__x86_64__)
   PAN_EXPECT(pan_uinterleave_path_available(PAN_UINTERLEAVE_SSE2));
#endif
#if defined(__aarch64__)
   PAN_EXPECT(pan_uinterleave_path_available(PAN_UINTERLEAVE_NEON));
#endif
   PAN_EXPECT(!pan_uinterleave_force_path(PAN_UINTERLEAVE_PATH_COUNT + 1));
   /* Nothing forced: the last available flavour in preference order */
   PAN_EXPECT(pan_uinterleave_path_available(pan_uinterleave_current_path()));
}

static void
run_path(enum pan_uinterleave_path path, unsigned iterations)
{
   static const unsigned sizes_B[] = { 1, 2, 3, 4, 6, 8, 12, 16 };
   const unsigned n_sizes = sizeof(sizes_B) / sizeof(sizes_B[0]);

   PAN_EXPECT(pan_uinterleave_force_path(path));
   PAN_EXPECT(pan_uinterleave_current_path() == path);

   for (unsigned i = 0; i < n_sizes; ++i) {
      run_size(sizes_B[i], false, iterations);
      run_size(sizes_B[i], true, iterations / 4);
   }

   /* Again with streaming stores for every copy (x86 flavours use them) */
   pan_uinterleave_set_stream_min_B(0);
   for (unsigned i = 0; i < n_sizes; ++i)
      run_size(sizes_B[i], false, iterations / 4);
   pan_uinterleave_set_stream_min_B(16u << 20);

   pan_uinterleave_force_path(PAN_UINTERLEAVE_PATH_COUNT);
}

int
main(int argc, char **argv)
{
   unsigned iterations = argc > 1 ? (unsigned)atoi(argv[1]) : 300;
   unsigned n_paths = 0;

   check_reference();
   check_bad_input();
   check_paths_built();

   printf("flavours checked:");
   for (unsigned p = 0; p < PAN_UINTERLEAVE_PATH_COUNT; ++p) {
      if (!pan_uinterleave_path_available(p))
         continue;
      printf(" %s", pan_uinterleave_path_name(p));
      fflush(stdout);
      run_path(p, iterations);
      n_paths++;
   }
   printf("\n");
   PAN_CHECK(n_paths > 0, "no flavour available");

   return pan_test_summary("u-interleave");
}
