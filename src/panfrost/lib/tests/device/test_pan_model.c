/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The GPU model table against known answers and its own invariants. */

#include <errno.h>

#include "util/pan_test_util.h"
#include "pan_model.h"

struct known {
   uint32_t prod_id;
   unsigned arch;
   const char *name;
};

/* Every GPU of the support table, by the ids real parts report. */
static const struct known supported[] = {
   { 0x0620, 4, "Mali-T620" },
   { 0x0720, 4, "Mali-T720" },
   { 0x0750, 5, "Mali-T760" },
   { 0x0820, 5, "Mali-T820" },
   { 0x0830, 5, "Mali-T830" },
   { 0x0860, 5, "Mali-T860" },
   { 0x0880, 5, "Mali-T880" },
   { 0x6221, 6, "Mali-G72" },
   { 0x7090, 7, "Mali-G51" },
   { 0x7093, 7, "Mali-G31" },
   { 0x7211, 7, "Mali-G76" },
   { 0x7212, 7, "Mali-G52" },
   { 0x7402, 7, "Mali-G52" },
   { 0x9091, 9, "Mali-G57" },
   { 0x9093, 9, "Mali-G57" },
   /* The kernel's own product keys (arch major, product major). */
   { 0x6001, 6, "Mali-G72" },
   { 0x7000, 7, "Mali-G51" },
   { 0x7001, 7, "Mali-G76" },
   { 0x7002, 7, "Mali-G52" },
   { 0x7003, 7, "Mali-G31" },
   { 0x9001, 9, "Mali-G57" },
};

static const struct known unsupported[] = {
   { 0x0600, 4, "Mali-T600" },
   { 0x6000, 6, "Mali-G71" },
   { 0xa867, 10, "Mali-G610" },
   { 0xac74, 10, "Mali-G310" },
};

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static void
test_supported_ids(void)
{
   for (unsigned i = 0; i < LEN(supported); i++) {
      const struct known *k = &supported[i];
      const struct pan_model *m = NULL;
      char err[256] = "";

      PAN_EXPECT_EQ(pan_model_find_supported(k->prod_id, &m, err, sizeof(err)),
                    0);
      PAN_EXPECT(m != NULL);
      if (!m)
         continue;
      PAN_EXPECT_EQ(m->arch, k->arch);
      PAN_EXPECT_EQ(pan_arch_from_prod_id(k->prod_id), k->arch);
      PAN_EXPECT(strcmp(m->name, k->name) == 0);
      PAN_EXPECT(m->supported);
      PAN_EXPECT(m->codename != NULL);
      PAN_EXPECT_EQ(err[0], 0);
   }
}

static void
test_unsupported_ids(void)
{
   for (unsigned i = 0; i < LEN(unsupported); i++) {
      const struct known *k = &unsupported[i];
      const struct pan_model *m = NULL;
      char err[256] = "", id[16];

      PAN_EXPECT_EQ(pan_model_find_supported(k->prod_id, &m, err, sizeof(err)),
                    -ENOTSUP);
      PAN_EXPECT(m != NULL && !m->supported);
      PAN_EXPECT(m && m->arch == k->arch);
      PAN_EXPECT_STR_HAS(err, k->name);
      snprintf(id, sizeof(id), "0x%04x", k->prod_id);
      PAN_EXPECT_STR_HAS(err, id);
      PAN_EXPECT_STR_HAS(err, "not supported");
   }
}

static void
test_unknown_ids(void)
{
   static const uint32_t ids[] = { 0x0000, 0x0999, 0x1234,  0x8000,    0x9003,
                                   0xb002, 0xffff, 0x10000, 0xffffffff };

   for (unsigned i = 0; i < LEN(ids); i++) {
      const struct pan_model *m = (const void *)&m; /* must be cleared */
      char err[256] = "", id[24];

      PAN_EXPECT_EQ(pan_model_find_supported(ids[i], &m, err, sizeof(err)),
                    -ENODEV);
      PAN_EXPECT(m == NULL);
      PAN_EXPECT(pan_model_lookup(ids[i]) == NULL);
      snprintf(id, sizeof(id), "0x%04x", ids[i]);
      PAN_EXPECT_STR_HAS(err, id);
      PAN_EXPECT_STR_HAS(err, "unknown");
   }

   /* A NULL or empty message buffer is fine. */
   const struct pan_model *m;
   PAN_EXPECT_EQ(pan_model_find_supported(0x1234, &m, NULL, 0), -ENODEV);
}

/* Over the whole 16-bit id space: a match is consistent with its row. */
static void
test_lookup_invariants(void)
{
   for (uint32_t id = 0; id <= 0xffff; id++) {
      const struct pan_model *m = pan_model_lookup(id);
      unsigned arch = pan_arch_from_prod_id(id);

      if (id & 0xf000)
         PAN_EXPECT_EQ(arch, id >> 12);

      if (!m)
         continue;

      PAN_EXPECT_EQ(m->arch, arch);
      PAN_EXPECT_EQ(id & m->prod_id_mask, m->prod_id & m->prod_id_mask);
      if (!(id & 0xf000))
         PAN_EXPECT_EQ(id, m->prod_id); /* Midgard ids match exactly */
   }
}

static void
test_table_rows(void)
{
   unsigned count;
   const struct pan_model *t = pan_model_table(&count);

   PAN_EXPECT(count >= LEN(unsupported) + 13);
   for (unsigned i = 0; i < count; i++) {
      PAN_EXPECT(pan_model_lookup(t[i].prod_id) == &t[i]);
      PAN_EXPECT_EQ(pan_arch_from_prod_id(t[i].prod_id), t[i].arch);
      PAN_EXPECT(strncmp(t[i].name, "Mali-", 5) == 0);
      for (unsigned j = i + 1; j < count; j++)
         PAN_EXPECT(t[i].prod_id != t[j].prod_id);
      if (t[i].supported) {
         /* The driver needs a tile buffer size for every supported GPU. */
         PAN_EXPECT(t[i].tile_buffer_size_B >= 8192);
         PAN_EXPECT(
            (t[i].tile_buffer_size_B & (t[i].tile_buffer_size_B - 1)) == 0);
      }
   }
}

static void
test_quirks(void)
{
   unsigned count;
   const struct pan_model *t = pan_model_table(&count);

   for (unsigned i = 0; i < count; i++) {
      bool expect = t[i].prod_id == 0x720 || t[i].prod_id == 0x820 ||
                    t[i].prod_id == 0x830;
      PAN_EXPECT_EQ(
         pan_model_has_quirk(&t[i], PAN_QUIRK_NO_HIERARCHICAL_TILING), expect);
   }

   PAN_EXPECT_EQ(pan_model_lookup(0x860)->tile_buffer_size_B, 8192);
   PAN_EXPECT_EQ(pan_model_lookup(0x7212)->tile_buffer_size_B, 16384);
   PAN_EXPECT_EQ(pan_model_lookup(0x9093)->tile_buffer_size_B, 16384);
}

static void
test_anisotropic(void)
{
   const struct pan_model *g72 = pan_model_lookup(0x6221);
   const struct pan_model *g51 = pan_model_lookup(0x7090);
   const struct pan_model *g52 = pan_model_lookup(0x7212);
   const struct pan_model *t860 = pan_model_lookup(0x860);

   /* G72 from r0p3, G51 from r1p1, later Bifrost always, Midgard never. */
   PAN_EXPECT(!pan_model_has_anisotropic(g72, 0x0020));
   PAN_EXPECT(pan_model_has_anisotropic(g72, 0x0030));
   PAN_EXPECT(!pan_model_has_anisotropic(g51, 0x1000));
   PAN_EXPECT(pan_model_has_anisotropic(g51, 0x1010));
   PAN_EXPECT(pan_model_has_anisotropic(g52, 0));
   PAN_EXPECT(!pan_model_has_anisotropic(t860, 0xffff));
}

static void
test_arch_max_threads(void)
{
   PAN_EXPECT_EQ(pan_arch_max_threads(4), 256);
   PAN_EXPECT_EQ(pan_arch_max_threads(5), 256);
   PAN_EXPECT_EQ(pan_arch_max_threads(6), 384);
   PAN_EXPECT_EQ(pan_arch_max_threads(7), 768);
   PAN_EXPECT_EQ(pan_arch_max_threads(9), 1024);
   PAN_EXPECT_EQ(pan_arch_max_threads(10), 1024);
}

int
main(void)
{
   PAN_RUN_CASE(test_supported_ids);
   PAN_RUN_CASE(test_unsupported_ids);
   PAN_RUN_CASE(test_unknown_ids);
   PAN_RUN_CASE(test_lookup_invariants);
   PAN_RUN_CASE(test_table_rows);
   PAN_RUN_CASE(test_quirks);
   PAN_RUN_CASE(test_anisotropic);
   PAN_RUN_CASE(test_arch_max_threads);
   return pan_test_summary("pan_model");
}
