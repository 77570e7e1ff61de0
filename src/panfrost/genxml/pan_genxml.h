/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Umbrella header for per-architecture code (compiled with -DPAN_ARCH=N).
 *
 * It includes the generated pan_vN_pack.h of the architecture and provides
 * the packing macros.  Struct names are the lowercase XML names:
 *
 *    pan_pack(job_ptr, job_header, cfg) {
 *       cfg.type = MALI_JOB_TYPE_FRAGMENT;
 *       cfg.index = 1;
 *    }
 *
 * The body fills a C struct that starts out with the XML defaults; the
 * struct is packed into dst when the body ends (so "break" or "return" inside
 * the body skips packing, as with any for-loop based macro).
 */

#ifndef PAN_GENXML_H
#define PAN_GENXML_H

#include "pan_genxml_arch.h"

#if PAN_ARCH == 4
#include "pan_v4_pack.h"
#elif PAN_ARCH == 5
#include "pan_v5_pack.h"
#elif PAN_ARCH == 6
#include "pan_v6_pack.h"
#elif PAN_ARCH == 7
#include "pan_v7_pack.h"
#elif PAN_ARCH == 9
#include "pan_v9_pack.h"
#endif

/* Fill and pack one struct.  dst: pointer to at least pan_size(T) bytes. */
#define pan_pack(dst, T, name)                                                \
   for (struct PAN_GENX(T) name = PAN_GENX(T##_defaults)(),                   \
                           *name##_pending_ = &name;                           \
        name##_pending_ != NULL;                                              \
        PAN_GENX(T##_pack)((dst), &name), name##_pending_ = NULL)

/* Declare "name" and unpack src into it. */
#define pan_unpack(src, T, name)                                              \
   struct PAN_GENX(T) name;                                                   \
   PAN_GENX(T##_unpack)((src), &name)

#define pan_print(fp, T, var, indent) PAN_GENX(T##_print)((fp), &(var), (indent))

#define pan_size(T)     ((unsigned)PAN_GENX(T##_size_B))
#define pan_alignment(T) ((unsigned)PAN_GENX(T##_align_B))

/* Byte offset of a whole-byte field of 8 to 64 bits, for code that
 * patches a few words of a packed struct instead of packing it again. */
#define pan_field_offset(T, F) ((unsigned)PAN_GENX(T##_##F##_offset_B))

/* Sections of descriptors (e.g. the header of a compute job). */
#define pan_section_offset(D, S) ((unsigned)PAN_GENX(D##_##S##_offset_B))
#define pan_section_ptr(base, D, S)                                           \
   ((void *)((uint8_t *)(base) + pan_section_offset(D, S)))

/* The extra level lets PAN_GENX(D##_##S##_type) expand to the struct name
 * before pan_pack pastes it. */
#define pan_pack_expanded_(dst, T, name)   pan_pack(dst, T, name)
#define pan_unpack_expanded_(src, T, name) pan_unpack(src, T, name)
#define pan_section_pack(dst, D, S, name)                                     \
   pan_pack_expanded_(pan_section_ptr(dst, D, S), PAN_GENX(D##_##S##_type),   \
                      name)
#define pan_section_unpack(src, D, S, name)                                   \
   pan_unpack_expanded_(pan_section_ptr(src, D, S),                           \
                        PAN_GENX(D##_##S##_type), name)

/* OR two packed copies of the same struct, for descriptors whose fields are
 * filled in two places (e.g. a template plus per-draw state).  Each field must
 * be set in at most one of them. */
static inline void
pan_merge_words(uint32_t *dst, const uint32_t *src, unsigned size_B)
{
   for (unsigned i = 0; i < size_B / 4; ++i)
      dst[i] |= src[i];
}

#define pan_merge(dst_packed, src_packed, T)                                  \
   pan_merge_words((dst_packed).opaque, (src_packed).opaque, pan_size(T))

#endif /* PAN_GENXML_H */
