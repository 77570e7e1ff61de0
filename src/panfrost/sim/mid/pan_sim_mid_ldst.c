/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard load/store words: global memory loads and stores and uniform
 * buffer loads; attributes and varyings go to pan_sim_mid_msg.c.  Images,
 * special registers, the tile buffer, atomics and the register-to-register
 * ops are refused by name.
 */

#include "pan_sim_mid_priv.h"

#include <string.h>

/* Registers the 3-bit address operands name (0/1: r26/r27, 2: r31);
 * -1 for the thread/group identifiers we do not model, 7 reads zero. */
static const int addr_regs[8] = { 26, 27, 31, -1, -1, -1, -1, -2 };

static bool
addr_operand(struct mid_exec *x, const char *op, unsigned sel, unsigned comp,
             bool wide, uint64_t *out)
{
   int reg = addr_regs[sel & 7];
   if (reg == -2) {
      *out = 0;
      return true;
   }
   if (reg < 0)
      return mid_fault(x->t,
                       "%s: address operand %u (thread/group "
                       "identifiers) is not simulated",
                       op, sel);
   const uint32_t *r = mid_read_reg(x, reg);
   if (wide && comp == 3)
      return mid_fault(x->t, "%s: 64-bit operand at component w", op);
   *out = r[comp] | (wide ? (uint64_t)r[comp + 1] << 32 : 0);
   return true;
}

/* Index operand by the index format (none/u64/u32/s32), shifted. */
static bool
index_operand(struct mid_exec *x, const struct pan_mid_instr *I, const char *op,
              uint64_t *out)
{
   unsigned fmt = mid_f(I, "ifmt");
   uint64_t v;
   if (!addr_operand(x, op, mid_f(I, "ireg"), mid_f(I, "icomp"), fmt == 1, &v))
      return false;
   if (fmt == 3)
      v = (uint64_t)(int64_t)(int32_t)v;
   else if (fmt != 1)
      v = (uint32_t)v;
   *out = v << mid_f(I, "ishift");
   return true;
}

/* Bytes moved by the ld_, st_ and ld_ubo_ ops of a size suffix; 0: not
 * simulated. */
static unsigned
mem_size(const char *sfx, bool *sign)
{
   *sign = sfx[0] == 'i';
   if (strstr(sfx, "_be") || strstr(sfx, "bswap"))
      return 0;
   if (!strcmp(sfx, "u8") || !strcmp(sfx, "i8"))
      return 1;
   if (!strcmp(sfx, "u16") || !strcmp(sfx, "i16"))
      return 2;
   if (!strcmp(sfx, "32"))
      return 4;
   if (!strcmp(sfx, "64"))
      return 8;
   if (!strcmp(sfx, "128"))
      return 16;
   return 0;
}

static bool
do_load(struct mid_exec *x, const struct pan_mid_instr *I, const char *op,
        uint64_t addr, unsigned size, bool sign)
{
   uint32_t tmp[4] = { 0 };
   if (!x->cfg->mem.read ||
       !x->cfg->mem.read(x->cfg->mem.user, addr, tmp, size))
      return mid_fault(x->t, "%s: read of %u bytes at 0x%llx failed", op, size,
                       (unsigned long long)addr);
   if (size < 4 && sign) /* sub-word loads extend into component x */
      tmp[0] = (uint32_t)(size == 1 ? (int32_t)(int8_t)tmp[0]
                                    : (int32_t)(int16_t)tmp[0]);
   /* The swizzle picks loaded words for the written components. */
   uint32_t *d = mid_write_reg(x, mid_f(I, "reg"));
   unsigned mask = mid_f(I, "mask"), swz = mid_f(I, "swz");
   for (unsigned c = 0; c < 4; c++) {
      if (mask & (1u << c))
         d[c] = tmp[(swz >> (2 * c)) & 3];
   }
   return true;
}

bool
mid_exec_ldst(struct mid_exec *x, const struct pan_mid_instr *I)
{
   unsigned value;
   const char *op = pan_mid_instr_op(I, &value, NULL);
   bool sign;

   if (!op)
      return mid_fault(x->t, "unknown load/store opcode 0x%x", value);
   if (!strcmp(op, "nop"))
      return true;

   if (!strncmp(op, "ld_attr_", 8) || !strncmp(op, "ld_vary_", 8) ||
       !strncmp(op, "st_vary_", 8))
      return mid_exec_attr(x, I, op);

   if (!strncmp(op, "ld_ubo_", 7)) {
      unsigned size = mem_size(op + 7, &sign);
      if (!size)
         return mid_fault(x->t,
                          "%s is refused: byte-swapped loads are "
                          "not simulated",
                          op);
      int64_t off = (int64_t)mid_f(I, "offset");
      unsigned index;
      if (off & 1) {
         /* Immediate buffer index spread over the address fields. */
         index = mid_f(I, "acomp") | mid_f(I, "areg") << 2 |
                 mid_f(I, "wide") << 5 | mid_f(I, "ifmt") << 6;
      } else {
         uint64_t v;
         if (!addr_operand(x, op, mid_f(I, "areg"), mid_f(I, "acomp"), false,
                           &v))
            return false;
         index = v;
      }
      uint64_t idx;
      if (!addr_operand(x, op, mid_f(I, "ireg"), mid_f(I, "icomp"), false,
                        &idx))
         return false;
      int64_t byte = (int64_t)(idx << mid_f(I, "ishift")) + (off >> 2);
      if (index >= x->cfg->nr_ubos)
         return mid_fault(x->t, "%s: UBO %u not bound", op, index);
      const struct pan_sim_mid_ubo *u = &x->cfg->ubos[index];
      if (byte < 0 || (uint64_t)byte + size > u->size)
         return mid_fault(x->t,
                          "%s: bytes %lld..+%u outside UBO %u (%u "
                          "bytes)",
                          op, (long long)byte, size, index, u->size);
      return do_load(x, I, op, u->va + byte, size, sign);
   }

   bool load = !strncmp(op, "ld_", 3) && mem_size(op + 3, &sign);
   bool store = !strncmp(op, "st_", 3) && mem_size(op + 3, &sign);
   if (!load && !store)
      return mid_fault(
         x->t,
         "%s is refused: not simulated (images, special registers, tile "
         "buffer, atomics, byte swaps and register ops)",
         op);

   unsigned size = mem_size(op + 3, &sign);
   if (!size)
      return mid_fault(x->t, "%s is refused: not simulated", op);
   uint64_t base, index;
   if (!addr_operand(x, op, mid_f(I, "areg"), mid_f(I, "acomp"),
                     mid_f(I, "wide"), &base) ||
       !index_operand(x, I, op, &index))
      return false;
   uint64_t addr = base + index + (uint64_t)(int64_t)mid_f(I, "offset");

   if (load)
      return do_load(x, I, op, addr, size, sign);

   /* Stores read r26 or r27 (reg 0/1); the swizzle gathers the words and
    * the mask says which 32-bit words of the access are written. */
   unsigned reg = mid_f(I, "reg");
   if (reg > 1)
      return mid_fault(x->t, "%s: data register %u is not r26/r27", op, reg);
   const uint32_t *s = mid_read_reg(x, 26 + reg);
   unsigned mask = mid_f(I, "mask"), swz = mid_f(I, "swz");
   uint32_t tmp[4];
   for (unsigned c = 0; c < 4; c++)
      tmp[c] = s[(swz >> (2 * c)) & 3];
   for (unsigned c = 0; c < (size + 3) / 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      unsigned n = size < 4 ? size : 4;
      if (!x->cfg->mem.write ||
          !x->cfg->mem.write(x->cfg->mem.user, addr + 4 * c, &tmp[c], n))
         return mid_fault(x->t, "%s: write of %u bytes at 0x%llx failed", op, n,
                          (unsigned long long)(addr + 4 * c));
   }
   return true;
}
