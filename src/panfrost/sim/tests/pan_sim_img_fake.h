/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A stand-in for the executor's image descriptors in the interpreters'
 * tests: one 4x4 image of 32-bit texels, rows of 16 bytes, in the test's
 * memory, reachable as image `index` of table `table` only.  Everything
 * else fails with a message naming what was asked for, as the real
 * executor's does.
 */

#ifndef PAN_SIM_IMG_FAKE_H
#define PAN_SIM_IMG_FAKE_H

#include <stdio.h>
#include <string.h>

#include "../pan_sim_img.h"

#define IMG_FAKE_CONVERSION 0xc0de0000u

struct img_fake {
   uint8_t *mem;    /* the test's memory */
   uint64_t mem_va; /* its address */
   unsigned offset; /* of the image in it */
   unsigned table, index;
};

static bool
img_fake_texel(struct img_fake *f, unsigned table, unsigned index,
               const uint32_t coord[3], uint64_t *va, char *err)
{
   if (table != f->table || index != f->index) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "no image %u in table %u", index,
               table);
      return false;
   }
   if (coord[0] >= 4 || coord[1] >= 4 || coord[2]) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN,
               "coordinate (%u, %u, %u) outside the 4x4 image", coord[0],
               coord[1], coord[2]);
      return false;
   }
   *va = f->mem_va + f->offset + coord[1] * 16 + coord[0] * 4;
   return true;
}

static bool
img_fake_address(void *user, unsigned table, unsigned index,
                 const uint32_t coord[3], enum pan_sim_regfmt regfmt,
                 uint32_t out[3], char *err)
{
   uint64_t va;
   if (!img_fake_texel(user, table, index, coord, &va, err))
      return false;
   out[0] = (uint32_t)va;
   out[1] = (uint32_t)(va >> 32);
   out[2] = IMG_FAKE_CONVERSION | regfmt;
   return true;
}

/* The texel as (v, 0, 0, 1), 32-bit register formats only. */
static bool
img_fake_load(void *user, unsigned table, unsigned index,
              const uint32_t coord[3], enum pan_sim_regfmt regfmt,
              unsigned comps, uint32_t out[4], char *err)
{
   struct img_fake *f = user;
   uint64_t va;
   if (!img_fake_texel(f, table, index, coord, &va, err))
      return false;
   if (regfmt != PAN_SIM_REG_S32 && regfmt != PAN_SIM_REG_U32) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "register format %u", regfmt);
      return false;
   }
   uint32_t v[4] = { 0, 0, 0, 1 };
   memcpy(&v[0], f->mem + (va - f->mem_va), 4);
   memcpy(out, v, 4 * (comps < 4 ? comps : 4));
   return true;
}

/* A converting store: the conversion word must be the one the address
 * came with; one 32-bit texel inside the image is written. */
static bool
img_fake_store(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
               const uint32_t in[4], char *err)
{
   struct img_fake *f = user;
   uint64_t base = f->mem_va + f->offset;
   if ((conversion & 0xffff0000u) != IMG_FAKE_CONVERSION || comps != 1 ||
       addr < base || addr + 4 > base + 64 || addr % 4) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN,
               "store of %u values at 0x%llx with conversion 0x%x", comps,
               (unsigned long long)addr, conversion);
      return false;
   }
   memcpy(f->mem + (addr - f->mem_va), &in[0], 4);
   return true;
}

#endif
