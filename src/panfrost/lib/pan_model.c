/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_model.h"

#include <errno.h>
#include <stdio.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Tile buffer sizes. Every Midgard part and the first Bifrost (G71) have
 * 8 KiB; later Bifrost parts and the first Valhall doubled it.
 */
#define TIB_8K (8 * 1024)
#define TIB_16K (16 * 1024)

/* GPU_REVISION encodes rNpM as N in bits 15:12 and M in bits 11:4. */
#define REV(major, minor) (((major) << 12) | ((minor) << 4))

#define EXACT PAN_PROD_ID_EXACT_MASK
#define PRODUCT PAN_PROD_ID_PRODUCT_MASK
#define NO_HIER PAN_QUIRK_NO_HIERARCHICAL_TILING

/*
 * Sources for the ids: the kernel panfrost driver's model list (which
 * matches v6+ parts on id & 0xf00f: G71 0x6000, G72 0x6001, G51 0x7000,
 * G76 0x7001, G52 0x7002, G31 0x7003, G57 0x9001) and ids reported by
 * shipping hardware (e.g. G52 as 0x7212 and 0x7402, G57 as 0x9093).
 *
 * Rows are in (arch, id) order; the first matching row wins.
 */
/* clang-format off */
static const struct pan_model models[] = {
   /* prod_id  mask   arch name        code    aniso-rev  tib  quirks sup */
   { 0x0600, EXACT, 4, "Mali-T600", "T60x", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     false },
   { 0x0620, EXACT, 4, "Mali-T620", "T62x", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     true },
   { 0x0720, EXACT, 4, "Mali-T720", "T72x", PAN_MODEL_NO_ANISO, TIB_8K,
     NO_HIER, true },
   { 0x0750, EXACT, 5, "Mali-T760", "T76x", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     true },
   { 0x0820, EXACT, 5, "Mali-T820", "T82x", PAN_MODEL_NO_ANISO, TIB_8K,
     NO_HIER, true },
   { 0x0830, EXACT, 5, "Mali-T830", "T83x", PAN_MODEL_NO_ANISO, TIB_8K,
     NO_HIER, true },
   { 0x0860, EXACT, 5, "Mali-T860", "T86x", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     true },
   { 0x0880, EXACT, 5, "Mali-T880", "T88x", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     true },

   /* G71 is known to the kernel but outside our support table. */
   { 0x6000, PRODUCT, 6, "Mali-G71", "TMIx", PAN_MODEL_NO_ANISO, TIB_8K, 0,
     false },
   { 0x6221, PRODUCT, 6, "Mali-G72", "THEx", REV(0, 3), TIB_16K, 0, true },
   { 0x7090, PRODUCT, 7, "Mali-G51", "TSIx", REV(1, 1), TIB_16K, 0, true },
   { 0x7093, PRODUCT, 7, "Mali-G31", "TDVx", 0, TIB_16K, 0, true },
   { 0x7211, PRODUCT, 7, "Mali-G76", "TNOx", 0, TIB_16K, 0, true },
   { 0x7212, PRODUCT, 7, "Mali-G52", "TGOx", 0, TIB_16K, 0, true },

   /* G57: the kernel's product key is 0x9001; parts reporting 0x9093 carry
    * a different product major, so that id is matched exactly rather than
    * claiming the whole 0x9003 product family.
    */
   { 0x9091, PRODUCT, 9, "Mali-G57", "TNAx", 0, TIB_16K, 0, true },
   { 0x9093, EXACT, 9, "Mali-G57", "TNAx", 0, TIB_16K, 0, true },

   /* Second-generation Valhall (command stream frontend): not driven by
    * this driver yet. Only the ids are recorded; no other figures.
    */
   { 0xa867, EXACT, 10, "Mali-G610", NULL, PAN_MODEL_NO_ANISO, 0, 0, false },
   { 0xac74, EXACT, 10, "Mali-G310", NULL, PAN_MODEL_NO_ANISO, 0, 0, false },
};
/* clang-format on */

unsigned
pan_arch_from_prod_id(uint32_t prod_id)
{
   /* Bifrost onwards carry the architecture in the id itself. */
   if (prod_id & 0xf000)
      return (prod_id >> 12) & 0xf;

   /* Midgard ids carry no architecture: the model table is the only
    * record of which generation each one belongs to. */
   for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); ++i) {
      if (models[i].prod_id == prod_id)
         return models[i].arch;
   }
   return 0;
}

/* Threads per shader core, by architecture; Valhall and later: 1024. */
static const uint16_t max_threads_by_arch[] = {
   [4] = 256, [5] = 256, [6] = 384, [7] = 768,
};

unsigned
pan_arch_max_threads(unsigned arch)
{
   if (arch < sizeof(max_threads_by_arch) / sizeof(max_threads_by_arch[0]) &&
       max_threads_by_arch[arch])
      return max_threads_by_arch[arch];
   return 1024;
}

const struct pan_model *
pan_model_lookup(uint32_t prod_id)
{
   if (prod_id > 0xffff)
      return NULL;

   /* An exact row beats a product-family row (0x9093 vs 0x9091). */
   for (unsigned i = 0; i < ARRAY_LEN(models); i++) {
      if (models[i].prod_id == prod_id)
         return &models[i];
   }

   /* Family matching only makes sense for ids that encode the product. */
   if (!(prod_id & 0xf000))
      return NULL;

   for (unsigned i = 0; i < ARRAY_LEN(models); i++) {
      uint16_t mask = models[i].prod_id_mask;

      if (mask != PAN_PROD_ID_EXACT_MASK &&
          (prod_id & mask) == (models[i].prod_id & mask))
         return &models[i];
   }

   return NULL;
}

int
pan_model_find_supported(uint32_t prod_id, const struct pan_model **out,
                         char *err, size_t err_size)
{
   const struct pan_model *model = pan_model_lookup(prod_id);

   *out = model;

   if (!model) {
      unsigned arch = pan_arch_from_prod_id(prod_id);

      if (err && err_size) {
         if (arch) {
            snprintf(err, err_size,
                     "unknown Mali GPU: product id 0x%04x (architecture v%u) "
                     "is not in the model table",
                     prod_id, arch);
         } else {
            snprintf(err, err_size,
                     "unknown Mali GPU: product id 0x%04x is not in the "
                     "model table",
                     prod_id);
         }
      }
      return -ENODEV;
   }

   if (!model->supported) {
      if (err && err_size) {
         snprintf(err, err_size,
                  "%s (product id 0x%04x, architecture v%u) is recognised "
                  "but not supported by this driver yet",
                  model->name, prod_id, model->arch);
      }
      return -ENOTSUP;
   }

   return 0;
}

const struct pan_model *
pan_model_table(unsigned *count)
{
   *count = ARRAY_LEN(models);
   return models;
}

bool
pan_model_has_anisotropic(const struct pan_model *model, uint32_t gpu_revision)
{
   if (model->min_rev_anisotropic == PAN_MODEL_NO_ANISO)
      return false;

   return gpu_revision >= model->min_rev_anisotropic;
}
