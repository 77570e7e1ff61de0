/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Structured encoder against the text assembler: for every instruction of
 * the description and many random legal operand and modifier choices, the
 * fields are both given to pan_va_encode and written as text for
 * pan_va_assemble_line; the words must agree (or both be rejected), and
 * pan_va_print of the word must read back the same operands and assemble
 * to the same word.  Then the rejected inputs and the table accessors.
 */

#include "pan_isa_va.h"
#include "pan_isa_va_encode.h"
#include "pan_isa_va_priv.h"
#include "util/pan_test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TRIALS 48

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static unsigned ops_encoded, words_compared;

static unsigned
rnd(unsigned n)
{
   return (unsigned)(pan_test_rng64(&rng_state) >> 33) % n;
}

/* Append ".field=value" for a random value of each modifier to text. */
static void
random_mods(const struct va_mod *mods, unsigned nr,
            struct pan_va_mod_value *out, uint8_t *nr_out, unsigned max,
            struct pan_isa_str *s)
{
   unsigned n = 0;

   for (unsigned i = 0; i < nr && n < max; i++) {
      const struct va_mod *m = &mods[i];
      struct pan_va_mod_value *v = &out[n];
      if (m->implied || rnd(4) == 0)
         continue; /* defaults stay, except where there is none */
      v->field = m->name;
      v->value = NULL;
      if (m->enum_id < 0) {
         v->ivalue = rnd(2);
         pan_isa_str_printf(s, ".%s=%u", m->name, v->ivalue);
      } else {
         const struct va_enum *e = &va_enums[m->enum_id];
         unsigned k = rnd(e->count);
         while (!e->values[k])
            k = (k + 1) % e->count;
         if (rnd(2))
            v->value = e->values[k];
         else
            v->ivalue = k;
         pan_isa_str_printf(s, ".%s=%s", m->name, e->values[k]);
      }
      n++;
   }
   /* Enum fields without a default must always be given. */
   for (unsigned i = 0; i < nr && n < max; i++) {
      const struct va_mod *m = &mods[i];
      bool given = false;
      for (unsigned k = 0; k < n; k++)
         given |= out[k].field == m->name;
      if (given || m->implied || m->enum_id < 0 ||
          va_enums[m->enum_id].dflt >= 0)
         continue;
      const struct va_enum *e = &va_enums[m->enum_id];
      unsigned k = 0;
      while (!e->values[k])
         k++;
      out[n++] = (struct pan_va_mod_value){ m->name, e->values[k], 0 };
      pan_isa_str_printf(s, ".%s=%s", m->name, e->values[k]);
   }
   *nr_out = (uint8_t)n;
}

/* A random source on FAU page `page`, written the way pan_va_print does. */
static void
random_src(struct pan_va_src *src, unsigned page, char *base, size_t size)
{
   unsigned kind = rnd(4);
   unsigned named[16], nr_named = 0;

   for (unsigned i = 0; i < 16; i++) {
      if (va_special_names[page][i])
         named[nr_named++] = i;
   }
   if (kind == PAN_VA_SRC_SPECIAL && !nr_named)
      kind = PAN_VA_SRC_LUT;
   memset(src, 0, sizeof(*src));
   src->kind = (uint8_t)kind;
   switch (kind) {
   case PAN_VA_SRC_REG:
      src->value = (uint8_t)rnd(64);
      src->discard = rnd(2);
      snprintf(base, size, "%sr%u", src->discard ? "^" : "", src->value);
      break;
   case PAN_VA_SRC_UNIFORM:
      src->value = (uint8_t)(page * 64 + rnd(64));
      snprintf(base, size, "u%u", src->value);
      break;
   case PAN_VA_SRC_LUT: {
      src->value = (uint8_t)rnd(32);
      uint32_t c = va_immediate_lut[src->value];
      int first = pan_va_lut_index(c);
      if (first == src->value)
         snprintf(base, size, "#0x%" PRIx32, c);
      else
         snprintf(base, size, "#lut%u", src->value);
      break;
   }
   default:
      src->value = (uint8_t)named[rnd(nr_named)];
      src->word = (uint8_t)rnd(2);
      src->special_page = (uint8_t)page;
      snprintf(base, size, "%s.w%u", va_special_names[page][src->value],
               src->word);
      break;
   }
}

/*
 * Fill in one operand; base receives its printed form without source
 * modifiers, s the full text.
 */
static void
random_operand(const struct va_op *op, const struct va_operand *o,
               struct pan_va_operand *v, unsigned page, char *base, size_t size,
               struct pan_isa_str *s)
{
   static const char *const wr[4] = { "", ".h0", ".h1", ".nowrite" };

   memset(v, 0, sizeof(*v));
   switch (o->kind) {
   case VA_OPERAND_STAGING:
      v->reg = (uint8_t)rnd(64);
      if (o->count_fixed >= 0)
         v->count = (uint8_t)o->count_fixed;
      else
         v->count =
            (uint8_t)(o->count_bias + rnd(1u << op->mods[o->count_mod].size));
      snprintf(base, size, "{r%u:%u}", v->reg, v->count);
      break;
   case VA_OPERAND_DEST:
      v->reg = (uint8_t)rnd(64);
      v->write = (uint8_t)rnd(4);
      snprintf(base, size, "r%u%s", v->reg, wr[v->write]);
      break;
   case VA_OPERAND_SRC:
      random_src(&v->src, page, base, size);
      break;
   default: {
      uint64_t raw = pan_test_rng64(&rng_state) & ((1ull << o->size) - 1);
      if (o->is_signed && (raw >> (o->size - 1)))
         v->imm = (int64_t)raw - (int64_t)(1ull << o->size);
      else
         v->imm = (int64_t)raw;
      snprintf(base, size, "%s:%lld", o->name, (long long)v->imm);
      break;
   }
   }
   pan_isa_str_printf(s, "%s", base);
   if (o->kind == VA_OPERAND_SRC)
      random_mods(o->mods, o->nr_mods, v->src.mods, &v->src.nr_mods,
                  PAN_VA_MAX_SRC_MODS, s);
}

/* The printed text has the expected operand k (modifiers aside). */
static bool
printed_operand_is(const char *printed, unsigned k, const char *base)
{
   const char *p = strchr(printed, ' ');
   for (unsigned i = 0; p && i < k; i++)
      p = strstr(p + 1, ", ");
   if (!p)
      return false;
   p += *p == ',' ? 2 : 1;
   size_t n = strlen(base);
   return !strncmp(p, base, n) &&
          (p[n] == '\0' || p[n] == ',' || p[n] == '.' ||
           /* specials print their name then .wN, already in base */
           false);
}

static void
check_trial(unsigned idx)
{
   const struct va_op *op = &va_ops[idx];
   char text[1024], bases[PAN_VA_MAX_OPERANDS][64], err[256], printed[1024];
   struct pan_isa_str s;
   struct pan_va_instr in;
   unsigned page = rnd(4);

   memset(&in, 0, sizeof(in));
   in.op = rnd(2) ? (int)idx : -1;
   in.name = op->name;
   in.page = -1;
   in.nr_operands = op->nr_operands;
   pan_isa_str_init(&s, text, sizeof(text));
   pan_isa_str_printf(&s, "%s", op->name);
   uint8_t nr_mods;
   random_mods(op->mods, op->nr_mods, in.mods, &nr_mods, PAN_VA_MAX_MODS, &s);
   in.nr_mods = nr_mods;
   for (unsigned k = 0; k < op->nr_operands; k++) {
      pan_isa_str_printf(&s, k ? ", " : " ");
      random_operand(op, &op->operands[k], &in.operands[k], page, bases[k],
                     sizeof(bases[k]), &s);
   }

   uint64_t want = 0, got = 0;
   int ra = pan_va_assemble_line(text, &want, err, sizeof(err));
   int re = pan_va_encode(&in, &got, err, sizeof(err));
   if (ra != 1) {
      PAN_CHECK(re < 0, "'%s' is rejected by the assembler but encodes", text);
      return;
   }
   PAN_CHECK(re == 0, "'%s': %s", text, err);
   if (re)
      return;
   words_compared++;
   PAN_CHECK(got == want, "'%s': encoder %016" PRIx64 ", assembler %016" PRIx64,
             text, got, want);

   pan_va_print(got, printed, sizeof(printed));
   uint64_t back = 0;
   PAN_CHECK(pan_va_assemble_line(printed, &back, err, sizeof(err)) == 1 &&
                back == got,
             "printed '%s' does not assemble back", printed);
   PAN_CHECK(!strncmp(printed, op->name, strlen(op->name)),
             "'%s' prints as '%s'", op->name, printed);
   for (unsigned k = 0; k < op->nr_operands; k++) {
      PAN_CHECK(printed_operand_is(printed, k, bases[k]),
                "'%s': operand %u should read %s", printed, k, bases[k]);
   }
}

static void
test_all_ops(void)
{
   for (unsigned i = 0; i < va_nr_ops; i++) {
      unsigned before = words_compared;
      for (unsigned t = 0; t < TRIALS; t++)
         check_trial(i);
      PAN_CHECK(words_compared > before, "%s: no trial encoded",
                va_ops[i].name);
      ops_encoded += words_compared > before;
   }
   printf("encoder: %u of %u instructions, %u words compared\n", ops_encoded,
          va_nr_ops, words_compared);
}

static int
encode_text_pair(struct pan_va_instr *in, const char *text)
{
   uint64_t a, b;
   char err[256];
   if (pan_va_encode(in, &a, err, sizeof(err)))
      return -1;
   if (pan_va_assemble_line(text, &b, err, sizeof(err)) != 1 || a != b)
      return -2;
   return 0;
}

static void
test_known(void)
{
   /* fadd.f32 r1, u70, #lut0 with .end: by name, the flow by name */
   struct pan_va_instr in = {
      .op = -1,
      .name = "fadd.f32",
      .page = -1,
      .nr_operands = 3,
      .nr_mods = 1,
      .mods = { { "flow", "end", 0 } },
      .operands = { { .reg = 1 },
                    { .src = { .kind = PAN_VA_SRC_UNIFORM, .value = 70 } },
                    { .src = { .kind = PAN_VA_SRC_LUT, .value = 0 } } },
   };
   if (pan_va_op_lookup("fadd.f32") >= 0)
      PAN_EXPECT_EQ(encode_text_pair(&in, "fadd.f32.end r1, u70, #0x0"), 0);
   else
      PAN_CHECK(false, "fadd.f32 not in the table");
}

static void
expect_reject(const struct pan_va_instr *in, const char *what)
{
   char err[256] = "";
   uint64_t w = 0x1234;
   PAN_CHECK(pan_va_encode(in, &w, err, sizeof(err)) < 0 && err[0] &&
                w == 0x1234,
             "%s should be rejected", what);
}

static void
test_rejects(void)
{
   int fadd = pan_va_op_lookup("fadd.f32");
   PAN_CHECK(fadd >= 0, "fadd.f32 missing");
   if (fadd < 0)
      return;
   struct pan_va_instr ok = {
      .op = fadd,
      .page = -1,
      .nr_operands = 3,
      .operands = { { .reg = 1 },
                    { .src = { .kind = PAN_VA_SRC_REG, .value = 2 } },
                    { .src = { .kind = PAN_VA_SRC_UNIFORM, .value = 3 } } },
   };
   uint64_t w;
   char err[128];
   PAN_EXPECT_EQ(pan_va_encode(&ok, &w, err, sizeof(err)), 0);

   struct pan_va_instr bad = ok;
   bad.op = -1;
   bad.name = "no_such_op";
   expect_reject(&bad, "unknown name");
   bad = ok;
   bad.op = 100000;
   expect_reject(&bad, "index out of range");
   bad = ok;
   bad.operands[1].src =
      (struct pan_va_src){ .kind = PAN_VA_SRC_UNIFORM, .value = 200 };
   expect_reject(&bad, "two FAU pages");
   bad = ok;
   bad.page = 2;
   expect_reject(&bad, "page against a uniform's page");
   bad = ok;
   bad.operands[1].src.value = 64;
   expect_reject(&bad, "register 64");
   bad = ok;
   bad.operands[2].src =
      (struct pan_va_src){ .kind = PAN_VA_SRC_LUT, .value = 32 };
   expect_reject(&bad, "LUT entry 32");
   bad = ok;
   bad.operands[2].src.kind = 9;
   expect_reject(&bad, "bad source kind");
   bad = ok;
   bad.nr_operands = 2;
   expect_reject(&bad, "operand count");
   bad = ok;
   bad.nr_mods = 1;
   bad.mods[0] = (struct pan_va_mod_value){ "no_such_mod", NULL, 1 };
   expect_reject(&bad, "unknown modifier");
   bad.mods[0] = (struct pan_va_mod_value){ NULL, NULL, 1 };
   expect_reject(&bad, "NULL modifier name");
   bad.mods[0] = (struct pan_va_mod_value){ "flow", "bogus", 0 };
   expect_reject(&bad, "bad enum value");
   bad.mods[0] = (struct pan_va_mod_value){ "flow", NULL, 999 };
   expect_reject(&bad, "enum value out of range");
   bad.nr_mods = 2;
   bad.mods[0] = (struct pan_va_mod_value){ "flow", "end", 0 };
   bad.mods[1] = (struct pan_va_mod_value){ "flow", "end", 0 };
   expect_reject(&bad, "modifier twice");
   bad = ok;
   bad.operands[0].reg = 64;
   expect_reject(&bad, "destination r64");
   bad = ok;
   bad.nr_operands = 99;
   expect_reject(&bad, "too many operands");

   /* Out-of-range immediates, on the first instruction that has one. */
   for (unsigned i = 0; i < va_nr_ops; i++) {
      const struct va_op *op = &va_ops[i];
      for (unsigned k = 0; k < op->nr_operands; k++) {
         if (op->operands[k].kind != VA_OPERAND_IMM)
            continue;
         struct pan_va_instr im = { .op = (int)i,
                                    .page = -1,
                                    .nr_operands = op->nr_operands };
         im.operands[k].imm = op->operands[k].is_signed
                                 ? (1ll << (op->operands[k].size - 1))
                                 : (1ll << op->operands[k].size);
         expect_reject(&im, "immediate out of range");
         return;
      }
   }
}

static void
test_accessors(void)
{
   for (unsigned i = 0; i < va_nr_ops; i++) {
      int found = pan_va_op_lookup(va_ops[i].name);
      PAN_CHECK(found >= 0 && !strcmp(va_ops[found].name, va_ops[i].name),
                "lookup of %s", va_ops[i].name);
      PAN_EXPECT_EQ(pan_va_op_nr_operands(i), va_ops[i].nr_operands);
      for (unsigned k = 0; k < va_ops[i].nr_operands; k++)
         PAN_EXPECT_EQ(pan_va_op_operand_kind(i, k),
                       va_ops[i].operands[k].kind);
      PAN_EXPECT_EQ(pan_va_op_operand_kind(i, va_ops[i].nr_operands), -1);
   }
   PAN_EXPECT_EQ(pan_va_op_lookup("nope"), -1);
   PAN_EXPECT_EQ(pan_va_op_lookup(NULL), -1);
   PAN_EXPECT_EQ(pan_va_op_nr_operands(va_nr_ops), -1);
   for (unsigned i = 0; i < 32; i++) {
      PAN_EXPECT_EQ(pan_va_lut_value(i), va_immediate_lut[i]);
      int j = pan_va_lut_index(va_immediate_lut[i]);
      PAN_CHECK(j >= 0 && j <= (int)i &&
                   va_immediate_lut[j] == va_immediate_lut[i],
                "LUT index of entry %u", i);
   }
   PAN_EXPECT_EQ(pan_va_lut_index(0x12345677), -1);
   uint8_t page = 9, index = 99;
   PAN_EXPECT(pan_va_special_lookup("lane_id", &page, &index));
   PAN_EXPECT(page < 4 && index < 16 &&
              !strcmp(va_special_names[page][index], "lane_id"));
   PAN_EXPECT(!pan_va_special_lookup("no_such_value", &page, &index));
   PAN_EXPECT(!pan_va_special_lookup(NULL, &page, &index));
   PAN_EXPECT_EQ(pan_va_lut_value(32), 0);
}

int
main(void)
{
   PAN_RUN_CASE(test_all_ops);
   PAN_RUN_CASE(test_known);
   PAN_RUN_CASE(test_rejects);
   PAN_RUN_CASE(test_accessors);
   return pan_test_summary("pan_isa_va_encode");
}
