/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Integer, compare and select families of the Valhall interpreter against
 * C references on seeded random inputs.
 */

#include <stdio.h>

#include "pan_sim_va_test_run.h"

static uint64_t seed = 0x1a7e9e4ull;

typedef uint32_t (*ref_fn)(const uint32_t *in);

/* One instruction writing r4 from r0..r3, checked on 16 x 200 inputs. */
static void
check_op(const char *text, ref_fn ref)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   char prog[160];

   snprintf(prog, sizeof(prog), "%s\nnop.end\n", text);
   if (!test_kernel_init(&k, prog))
      return;
   for (unsigned it = 0; it < 200; ++it) {
      for (unsigned l = 0; l < 16; ++l) {
         for (unsigned i = 0; i < 4; ++i) {
            uint64_t r = pan_test_rng64(&seed);
            /* Small values and extremes now and then. */
            in[l][i] = (r & 3) == 0   ? (uint32_t)(r >> 60)
                       : (r & 3) == 1 ? 0xffffffffu - (uint32_t)(r >> 61)
                                      : (uint32_t)(r >> 16);
         }
      }
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         uint32_t want = ref(in[l]);
         PAN_CHECK(out[l][0] == want, "%s on %08x %08x %08x: %08x, not %08x",
                   text, in[l][0], in[l][1], in[l][2], out[l][0], want);
      }
   }
   test_prog_free(&k.p);
}

static uint32_t
h(uint32_t v, unsigned k)
{
   return (v >> (16 * k)) & 0xffff;
}

static uint32_t
b(uint32_t v, unsigned k)
{
   return (v >> (8 * k)) & 0xff;
}

static uint32_t
ref_iadd_sat_v2u16(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 2; ++k) {
      uint32_t s = h(in[0], k) + h(in[1], k);
      r |= (s > 0xffff ? 0xffff : s) << (16 * k);
   }
   return r;
}

static uint32_t
ref_isub_sat_s32(const uint32_t *in)
{
   int64_t d = (int64_t)(int32_t)in[0] - (int32_t)in[1];
   return d > INT32_MAX   ? INT32_MAX
          : d < INT32_MIN ? (uint32_t)INT32_MIN
                          : (uint32_t)d;
}

static uint32_t
ref_isub_v4u8(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 4; ++k)
      r |= ((b(in[0], k) - b(in[1], k)) & 0xff) << (8 * k);
   return r;
}

static uint32_t
ref_iadd_h1(const uint32_t *in)
{
   /* .h1 on a signed 32-bit source sign-extends the high half. */
   return in[0] + (uint32_t)(int32_t)(int16_t)h(in[1], 1);
}

static uint32_t
ref_imul(const uint32_t *in)
{
   return in[0] * in[1];
}

static uint32_t
ref_hadd_s32(const uint32_t *in)
{
   return (uint32_t)(((int64_t)(int32_t)in[0] + (int32_t)in[1] + 1) >> 1);
}

static uint32_t
ref_lshift_or(const uint32_t *in)
{
   return (in[0] << (b(in[1], 0) & 31)) | ~in[2];
}

static uint32_t
ref_rshift_and_signed(const uint32_t *in)
{
   return ~((uint32_t)((int32_t)in[0] >> (b(in[1], 2) & 31)) & in[2]);
}

static uint32_t
ref_rshift_xor_v2i16(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 2; ++k)
      r |= (((h(in[0], k) >> (b(in[1], 2 * k) & 15)) ^ h(in[2], k)) & 0xffff)
           << (16 * k);
   return r;
}

static uint32_t
ref_csel_lt_s32(const uint32_t *in)
{
   return (int32_t)in[0] < (int32_t)in[1] ? in[2] : in[3];
}

static uint32_t
ref_csel_ge_v2u16(const uint32_t *in)
{
   return (h(in[0], 0) >= h(in[1], 0) ? h(in[2], 0) : h(in[3], 0)) |
          (h(in[0], 1) >= h(in[1], 1) ? h(in[2], 1) : h(in[3], 1)) << 16;
}

static uint32_t
ref_icmp_m1_v4s8(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 4; ++k) {
      bool c = (int8_t)b(in[0], k) > (int8_t)b(in[1], k) || b(in[2], k);
      r |= (c ? 0xffu : 0) << (8 * k);
   }
   return r;
}

static uint32_t
ref_icmp_and_i1(const uint32_t *in)
{
   return in[0] != in[1] && in[2];
}

static uint32_t
ref_mux_bit(const uint32_t *in)
{
   return (in[0] & in[2]) | (in[1] & ~in[2]);
}

static uint32_t
ref_mux_neg(const uint32_t *in)
{
   return (in[2] & 0x80000000u) ? in[0] : in[1];
}

static uint32_t
ref_clz(const uint32_t *in)
{
   return in[0] ? __builtin_clz(in[0]) : 32;
}

static uint32_t
ref_popcount(const uint32_t *in)
{
   return __builtin_popcount(in[0]);
}

static uint32_t
ref_bitrev(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned i = 0; i < 32; ++i)
      r |= ((in[0] >> i) & 1) << (31 - i);
   return r;
}

static uint32_t
ref_iabs_v2s16(const uint32_t *in)
{
   int16_t a = h(in[0], 0), c = h(in[0], 1);
   return (uint16_t)(a < 0 ? -a : a) | (uint32_t)(uint16_t)(c < 0 ? -c : c)
                                          << 16;
}

static uint32_t
ref_mkvec(const uint32_t *in)
{
   return h(in[0], 1) | h(in[1], 0) << 16;
}

static uint32_t
ref_iadd_imm_v4i8(const uint32_t *in)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 4; ++k)
      r |= ((b(in[0], k) + b(0x807f01ff, k)) & 0xff) << (8 * k);
   return r;
}

static uint32_t
ref_s8_to_s32(const uint32_t *in)
{
   return (uint32_t)(int32_t)(int8_t)b(in[0], 2);
}

static uint32_t
ref_v2u8_to_v2u16(const uint32_t *in)
{
   return b(in[0], 3) | b(in[0], 1) << 16;
}

static void
test_integer(void)
{
   check_op("iadd.v2u16.saturate r4, r0, r1", ref_iadd_sat_v2u16);
   check_op("isub.s32.saturate r4, r0, r1", ref_isub_sat_s32);
   check_op("isub.v4u8 r4, r0, r1", ref_isub_v4u8);
   check_op("iadd.s32 r4, r0, r1.h1", ref_iadd_h1);
   check_op("imul.i32 r4, r0, r1", ref_imul);
   check_op("hadd.s32.rhadd r4, r0, r1", ref_hadd_s32);
   check_op("iadd_imm.v4i8 r4, r0, constant:0x807f01ff", ref_iadd_imm_v4i8);
   check_op("clz.u32 r4, r0", ref_clz);
   check_op("popcount.i32 r4, r0", ref_popcount);
   check_op("bitrev.i32 r4, r0", ref_bitrev);
   check_op("iabs.v2s16 r4, r0", ref_iabs_v2s16);
   check_op("mkvec.v2i16 r4, r0.h11, r1", ref_mkvec);
   check_op("s8_to_s32 r4, r0.b2", ref_s8_to_s32);
   check_op("v2u8_to_v2u16 r4, r0.b31", ref_v2u8_to_v2u16);
}

static void
test_shift(void)
{
   check_op("lshift_or.i32 r4, r0, r1.b00, r2.not", ref_lshift_or);
   check_op("rshift_and.i32.signed.not_result r4, r0, r1.b22, r2",
            ref_rshift_and_signed);
   check_op("rshift_xor.v2i16 r4, r0, r1.b02, r2", ref_rshift_xor_v2i16);
}

static void
test_select(void)
{
   check_op("csel.s32.lt r4, r0, r1, r2, r3", ref_csel_lt_s32);
   check_op("csel.v2u16.ge r4, r0, r1, r2, r3", ref_csel_ge_v2u16);
   check_op("icmp_or.v4s8.gt.m1 r4, r0, r1, r2", ref_icmp_m1_v4s8);
   check_op("icmp_and.u32.ne.i1 r4, r0, r1, r2", ref_icmp_and_i1);
   check_op("mux.i32.bit r4, r0, r1, r2", ref_mux_bit);
   check_op("mux.i32.neg r4, r0, r1, r2", ref_mux_neg);
}

int
main(void)
{
   PAN_RUN_CASE(test_integer);
   PAN_RUN_CASE(test_shift);
   PAN_RUN_CASE(test_select);
   return pan_test_summary("pan_sim_va_int");
}
