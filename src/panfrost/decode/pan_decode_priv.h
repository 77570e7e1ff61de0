/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* State shared by the arch-neutral helpers and the per-arch decoders. */

#ifndef PAN_DECODE_PRIV_H
#define PAN_DECODE_PRIV_H

#include "pan_decode.h"
#include "pan_genxml_util.h"
#include "pan_sim_chain.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_decode_ctx {
   FILE *fp;
   unsigned arch;
   const struct pan_sim_space *space;
   struct pan_decode_limits lim;
   struct pan_decode_stats stats;
   unsigned indent;
   unsigned depth;
   /* Set once the byte budget is exhausted; everything after is skipped. */
   bool exhausted;

   /* Render targets of the last framebuffer decoded, used to size the
    * blend descriptor arrays of later draws (1 until known). */
   unsigned rt_count;
};

/* Indented line. */
void pan_decode_log(struct pan_decode_ctx *ctx, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

/* "ERROR: ..." line, counted in the stats. */
void pan_decode_error(struct pan_decode_ctx *ctx, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

/*
 * CPU pointer to size_B readable bytes at va, or NULL after printing an
 * ERROR naming "what" (the checked access of pan_sim_space.h, then the
 * byte budget).  align_B may be 0.
 */
const void *pan_decode_fetch(struct pan_decode_ctx *ctx, uint64_t va,
                             uint64_t size_B, unsigned align_B,
                             const char *what);

/* Bytes readable at va inside its mapping (0 when unmapped/uncaptured). */
uint64_t pan_decode_avail(struct pan_decode_ctx *ctx, uint64_t va);

/* Check that [va, va + size_B) is mapped, without reading it. */
bool pan_decode_check_range(struct pan_decode_ctx *ctx, uint64_t va,
                            uint64_t size_B, const char *what);

/* Hex dump of size_B bytes (16 per line). */
void pan_decode_hexdump(struct pan_decode_ctx *ctx, const void *data,
                        uint64_t size_B);

/* Enter/leave one level of pointer following; enter returns false (after
 * an ERROR) when max_depth would be exceeded. */
bool pan_decode_push(struct pan_decode_ctx *ctx, const char *what);
void pan_decode_pop(struct pan_decode_ctx *ctx);

/*
 * Generic checks of a packed struct against its layout table: enum fields
 * holding a nonzero value the enum does not define, and bits set outside any
 * field.  Conditional fields (choice cases) are not checked.
 */
void pan_decode_check_struct(struct pan_decode_ctx *ctx,
                             const struct pan_gx_struct_desc *desc,
                             const void *packed, const char *what);

/* Disassemble a shader with the ISA library of the architecture. */
void pan_decode_shader(struct pan_decode_ctx *ctx, uint64_t va,
                       const char *what);

/* Decode one job whose header the walker has read (pan_vX_decode_jobs.c,
 * compiled with PAN_ARCH=N). */
void pan_v4_decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type);
void pan_v5_decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type);
void pan_v6_decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type);
void pan_v7_decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type);
void pan_v9_decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type);

#ifdef __cplusplus
}
#endif

#endif /* PAN_DECODE_PRIV_H */
