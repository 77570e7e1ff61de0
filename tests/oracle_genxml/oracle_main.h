/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * main() of the generated cross-checks: runs every struct pair, then
 * reports the disagreements, the fields and structs found on one side only
 * and a one-line summary.  Included at the end of oracle_vN.c.
 */

static unsigned
oracle_list(const char *title, const char *const *items)
{
   unsigned n = 0;
   while (items[n])
      n++;
   printf("%s: %u\n", title, n);
   for (unsigned i = 0; i < n; ++i)
      printf("   %s\n", items[i]);
   return n;
}

int
main(void)
{
   const unsigned npairs = sizeof(oracle_pairs) / sizeof(oracle_pairs[0]);
   const unsigned nstructs = sizeof(oracle_checks) / sizeof(oracle_checks[0]);
   unsigned checks = 0, xxx_total = 0;

   oracle_err_capture();
   for (unsigned i = 0; i < nstructs; ++i) {
      unsigned xxx = 0;
      oracle_checks[i].fn(oracle_pairs);
      if (oracle_err_tmp)
         oracle_err_flush(&xxx);
      if (xxx)
         printf("stock unpack of %s: %u warnings about bits outside its "
                "fields\n", oracle_checks[i].name, xxx);
      xxx_total += xxx;
   }

   for (unsigned i = 0; i < npairs; ++i) {
      const struct oracle_pair *p = &oracle_pairs[i];
      checks += p->checks;
      if (!p->diffs)
         continue;
      printf("%s v%d %s.%s vs stock %s.%s: %u/%u differ, e.g. ours %lld "
             "(0x%llx) stock %lld (0x%llx)%s%s\n",
             p->known ? "KNOWN" : "DIFF", ORACLE_ARCH, p->ours_struct,
             p->ours_path, p->stock_struct, p->stock_path, p->diffs,
             p->checks, (long long)p->first_ours,
             (unsigned long long)p->first_ours, (long long)p->first_stock,
             (unsigned long long)p->first_stock,
             p->known ? " -- stock wrong: " : "", p->known ? p->known : "");
      if (p->known)
         oracle_known++;
      else
         oracle_fails++;
   }

   oracle_list("structs only in ours", oracle_structs_ours_only);
   oracle_list("structs only in stock", oracle_structs_stock_only);
   oracle_list("our fields without a stock field at the same bits",
               oracle_ours_only);
   oracle_list("stock fields without one of ours (no overlap)",
               oracle_stock_only);
   unsigned unexplained = oracle_list(
      "stock fields overlapping ours with other bounds, NOT investigated",
      oracle_layout);
   oracle_list("stock fields overlapping ours with other bounds, "
               "investigated", oracle_layout_explained);
   oracle_list("enum values on one side only", oracle_enum_diffs);

   printf("v%d: %u struct pairs, %u field pairs, %u checks, %u "
          "disagreements (%u known stock-side), %u our round-trip "
          "failures, %u stock invalid-bit warnings\n",
          ORACLE_ARCH, nstructs, npairs, checks,
          oracle_fails + oracle_known, oracle_known, oracle_roundtrip_fails,
          xxx_total);
   return (oracle_fails || oracle_roundtrip_fails || unexplained) ? 1 : 0;
}
