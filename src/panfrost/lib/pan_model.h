/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The table of Mali GPUs the project knows about, keyed by the product id
 * the panfrost kernel driver reports (DRM_PANFROST_PARAM_GPU_PROD_ID, which
 * is the upper 16 bits of the GPU_ID register).
 *
 * Product id layout:
 *  - Midgard (v4/v5): a legacy 12-bit id such as 0x0860; bits 15:12 are zero
 *    and the architecture is not encoded, so it comes from a small list.
 *  - Bifrost and later (v6+): bits 15:12 arch major, 11:8 arch minor,
 *    7:4 arch revision, 3:0 product major. The pair (arch major, product
 *    major), i.e. id & 0xf00f, names the product; the kernel matches its own
 *    table that way, so we accept other arch minors/revisions of a product.
 *
 * Pure data and lookups: no Mesa or libdrm dependencies.
 */

#ifndef PAN_MODEL_H
#define PAN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mask selecting (arch major, product major) in a v6+ product id. */
#define PAN_PROD_ID_PRODUCT_MASK 0xf00fu
/* Mask for rows that must match the whole id. */
#define PAN_PROD_ID_EXACT_MASK 0xffffu

/* The anisotropic filtering revision value meaning "no revision has it". */
#define PAN_MODEL_NO_ANISO UINT32_MAX

enum pan_model_quirk {
   /* The tiler cannot use hierarchical binning: program a single level
    * (T720, T820, T830).
    */
   PAN_QUIRK_NO_HIERARCHICAL_TILING = 1u << 0,
};

struct pan_model {
   /* Canonical product id as reported by the kernel. */
   uint16_t prod_id;
   /* Bits of the reported id that must equal prod_id for a match. */
   uint16_t prod_id_mask;
   /* Architecture major version: 4, 5 Midgard; 6, 7 Bifrost; 9, 10
    * Valhall.
    */
   uint8_t arch;
   /* Marketing name, e.g. "Mali-G52". */
   const char *name;
   /* Arm's internal product code, also the name of its performance counter
    * set, e.g. "TGOx".
    */
   const char *codename;
   /* First GPU_REVISION value (r<major>p<minor> as 0xMmm0) with working
    * anisotropic filtering, 0 for all, PAN_MODEL_NO_ANISO for none.
    */
   uint32_t min_rev_anisotropic;
   /* Tile buffer size in bytes; 0 where we have no verified figure. */
   uint32_t tile_buffer_size_B;
   /* PAN_QUIRK_* */
   uint32_t quirks;
   /* False for GPUs we recognise but cannot drive yet. */
   bool supported;
};

/* Architecture major for a product id, 0 if it cannot be derived (an
 * unknown Midgard-style id).
 */
unsigned pan_arch_from_prod_id(uint32_t prod_id);

/* Architectural maximum of threads per shader core, the fallback when the
 * kernel does not report THREAD_MAX_THREADS. Smaller parts may have fewer
 * (G31: 512 rather than 768).
 */
unsigned pan_arch_max_threads(unsigned arch);

/* Model for a product id, or NULL if unknown. Supported and unsupported
 * models are returned alike: check model->supported.
 */
const struct pan_model *pan_model_lookup(uint32_t prod_id);

/* Lookup that explains failure: returns 0 and sets *out for a supported
 * model, -ENODEV for an unknown id and -ENOTSUP for a known but unsupported
 * one (*out is then set too), with a message written to err.
 */
int pan_model_find_supported(uint32_t prod_id, const struct pan_model **out,
                             char *err, size_t err_size);

/* The whole table, for tests and tools. */
const struct pan_model *pan_model_table(unsigned *count);

/* Whether anisotropic filtering works on this model at this revision. */
bool pan_model_has_anisotropic(const struct pan_model *model,
                               uint32_t gpu_revision);

static inline bool
pan_model_has_quirk(const struct pan_model *model, enum pan_model_quirk q)
{
   return (model->quirks & q) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* PAN_MODEL_H */
