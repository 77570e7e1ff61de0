/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the per-architecture decoder files (pan_vX_decode_*.c, compiled
 * once per PAN_ARCH) share: the fetch-print-check macros and the entry
 * points of each topic. Names carry the architecture (PAN_GENX) because
 * every architecture's copy ends up in one library.
 */

#ifndef PAN_DECODE_ARCH_H
#define PAN_DECODE_ARCH_H

#include <inttypes.h>
#include <string.h>

#include "pan_decode_priv.h"
#include "pan_genxml.h"

/* Table-driven checks of a packed struct / multi-section descriptor by its
 * genxml name (pan_vX_decode_jobs.c). */
void PAN_GENX(decode_check_type)(struct pan_decode_ctx *ctx, const char *type,
                                 const void *p, const char *what);
void PAN_GENX(decode_check_descriptor)(struct pan_decode_ctx *ctx,
                                       const char *type, const void *p);

/* Fetch, print and check one struct; "var" is declared and unpacked. */
#define DECODE(ctx, T, var, va, label)                                         \
   DECODE_ALIGNED(ctx, T, var, va, pan_alignment(T), label)

/* DECODE for a descriptor whose alignment is not the XML's, such as a
 * record inside an array whose base alone carries that alignment. */
#define DECODE_ALIGNED(ctx, T, var, va, align_B, label)                        \
   const void *var##_p_ =                                                      \
      pan_decode_fetch(ctx, va, pan_size(T), align_B, label);                  \
   struct PAN_GENX(T) var;                                                     \
   memset(&var, 0, sizeof(var));                                               \
   if (var##_p_) {                                                             \
      PAN_GENX(T##_unpack)(var##_p_, &var);                                    \
      pan_decode_log(ctx, "%s @ 0x%" PRIx64 ":", label, (uint64_t)(va));       \
      pan_print((ctx)->fp, T, var, (ctx)->indent + 2);                         \
      PAN_GENX(decode_check_type)(ctx, #T, var##_p_, label);                   \
   }                                                                           \
   if (var##_p_)

/* Print a multi-section descriptor already fetched. */
#define PRINT_DESCRIPTOR(ctx, D, p)                                            \
   do {                                                                        \
      PAN_GENX(D##_print)((ctx)->fp, p, (ctx)->indent);                        \
      PAN_GENX(decode_check_descriptor)(ctx, #D, p);                           \
   } while (0)

/* Framebuffers, render targets, tiler contexts (pan_vX_decode_fb.c). */
void PAN_GENX(decode_framebuffer)(struct pan_decode_ctx *ctx, uint64_t tagged);
#if PAN_ARCH >= 6
void PAN_GENX(decode_tiler_context)(struct pan_decode_ctx *ctx, uint64_t va);
#endif

/* Draw state and resources (pan_vX_decode_draw.c). */
void PAN_GENX(decode_local_storage)(struct pan_decode_ctx *ctx, uint64_t va);
#if PAN_ARCH <= 7
void PAN_GENX(decode_draw)(struct pan_decode_ctx *ctx, const void *packed,
                           bool fragment, bool graphics);
#else
void PAN_GENX(decode_shader_env)(struct pan_decode_ctx *ctx, const void *packed,
                                 const char *stage);
void PAN_GENX(decode_v9_draw)(struct pan_decode_ctx *ctx, const void *packed);
#endif

#endif /* PAN_DECODE_ARCH_H */
