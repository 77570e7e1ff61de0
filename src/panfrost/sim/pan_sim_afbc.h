/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * AFBC (Arm Frame Buffer Compression) surfaces as the simulator reads and
 * writes them: the one implementation behind fragment write-back, preload,
 * image read-back and the texture unit.
 *
 * Public facts used: a surface is an array of 16-byte header blocks, one per
 * superblock (16x16 pixels, or 32x8 "wide"), in rows of row-stride
 * superblocks, or from v7 in tiles of 8x8 superblocks ("tiled headers").
 * Bytes 0-3 of a header are the offset of the superblock's payload from the
 * first header; bits 32-127 hold sixteen 6-bit sizes, one per 4x4 subblock,
 * where 1 means "stored uncompressed" (16 pixels of the memory format).  A
 * header whose first subblock size is 0 is a solid colour held in bytes
 * 8-15 (an all-zero header is transparent black, which drivers rely on).
 *
 * What the simulator writes: every written superblock uncompressed (all
 * sizes 1) at a fixed place, body + index * 256 pixels, the index being the
 * header's; subblocks in raster order inside the superblock and pixels in
 * raster order inside a subblock (the real hardware's orders are not
 * public; only the GPU reads these payloads, and the driver only reads
 * AFBC back through GPU blits).  YTR and split-block are compression
 * options of the payload and change nothing in uncompressed subblocks.
 */

#ifndef PAN_SIM_AFBC_H
#define PAN_SIM_AFBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_AFBC_HEADER_B 16
#define PAN_SIM_AFBC_ERR_LEN  160

struct pan_sim_afbc {
   uint32_t sb_per_row; /* superblocks per header row (tiled: multiple of 8) */
   bool wide;           /* 32x8 superblocks, 16x16 otherwise */
   bool tiled;          /* headers in tiles of 8x8 superblocks */
   uint8_t el_B;        /* bytes per pixel of the memory format */
};

/* Where pixel (x, y) lives: its superblock's header index, its subblock
 * and its place in the subblock. */
struct pan_sim_afbc_pos {
   uint64_t index;
   unsigned sub, in;
};

void pan_sim_afbc_pos(const struct pan_sim_afbc *a, unsigned x, unsigned y,
                      struct pan_sim_afbc_pos *pos);

/* Superblocks per header row from a row stride in header bytes (textures
 * and the layout library: a row of superblocks, of header tiles when
 * tiled). */
uint32_t pan_sim_afbc_sb_per_row(const struct pan_sim_afbc *a,
                                 uint64_t row_stride_B);

/* Uncompressed payload of one superblock. */
static inline uint32_t
pan_sim_afbc_payload_B(const struct pan_sim_afbc *a)
{
   return 256u * a->el_B;
}

/* Offset from the first header of the bytes of pixel pos, as the header
 * hdr says; false with err set for what cannot be decoded. */
bool pan_sim_afbc_locate(const struct pan_sim_afbc *a, const uint8_t *hdr,
                         const struct pan_sim_afbc_pos *pos, uint64_t *off,
                         char *err);

/* A surface mapped at buf, size_B bytes from the first header. */
struct pan_sim_afbc_buf {
   uint8_t *buf;
   uint64_t size_B;
   uint64_t body_off; /* where the simulator puts payloads */
};

/* Pixel (x, y) of the surface, or NULL with err set (malformed header,
 * offsets outside the buffer). */
const uint8_t *pan_sim_afbc_pixel(const struct pan_sim_afbc *a,
                                  const struct pan_sim_afbc_buf *b,
                                  unsigned x, unsigned y, char *err);

/* Store the bits of bytes selected by mask into pixel (x, y): the
 * superblock is first rewritten uncompressed at its fixed place (keeping
 * its pixels) unless it already is.  False with err set. */
bool pan_sim_afbc_store(const struct pan_sim_afbc *a,
                        const struct pan_sim_afbc_buf *b, unsigned x,
                        unsigned y, const uint8_t *bytes, const uint8_t *mask,
                        char *err);

#ifdef __cplusplus
}
#endif

#endif
