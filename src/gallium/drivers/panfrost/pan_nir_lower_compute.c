/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The driver's half of the compute interface: our compiler reads push
 * constants (FAU uniform words) and global memory, so buffer accesses are
 * rewritten into 64-bit global addresses taken from push words, and the
 * launch-time values into push words of their own.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"

#include "pan_compute.h"
#include "pan_ssbo.h"

struct lower_state {
   struct panfrost_push_layout *layout;
   char *err;
   size_t err_size;
   bool failed;
};

static bool
fail(struct lower_state *s, const char *msg, unsigned arg)
{
   if (!s->failed)
      snprintf(s->err, s->err_size, msg, arg);
   s->failed = true;
   return false;
}

/* The first word of an entry, shared by every reader of the same value.
 * Two-word entries sit at even words: the compiler reads them as one
 * 64-bit uniform.
 */
static bool
push_word(struct lower_state *s, enum panfrost_push_source source,
          unsigned index, unsigned offset_B, unsigned words, unsigned *out)
{
   struct panfrost_push_layout *l = s->layout;

   for (unsigned i = 0; i < l->count; ++i) {
      const struct panfrost_push_entry *e = &l->entries[i];
      if (e->source == source && e->index == index && e->offset_B == offset_B) {
         *out = e->first_word;
         return true;
      }
   }

   unsigned first = ALIGN_POT(l->nr_words, words);
   if (l->count == PANFROST_MAX_PUSH_ENTRIES ||
       first + words > PANFROST_MAX_PUSH_WORDS)
      return fail(s, "more than %u push words needed", PANFROST_MAX_PUSH_WORDS);

   l->entries[l->count++] = (struct panfrost_push_entry){
      .source = source,
      .words = words,
      .index = index,
      .offset_B = offset_B,
      .first_word = first,
   };
   l->nr_words = first + words;
   *out = first;
   return true;
}

static nir_ssa_def *
load_push(nir_builder *b, unsigned word, unsigned bits)
{
   return nir_load_push_constant(b, 1, bits, nir_imm_int(b, 0),
                                 .base = word * 4, .range = bits / 8);
}

/* A constant buffer index in [0, max), or fail. */
static bool
const_index(struct lower_state *s, nir_src src, unsigned max, const char *what,
            unsigned *out)
{
   if (!nir_src_is_const(src))
      return fail(s, what, 0);
   *out = nir_src_as_uint(src);
   if (*out >= max)
      return fail(s, "buffer slot %u out of range", *out);
   return true;
}

/* The address of constant buffer `index` plus offset. */
static nir_ssa_def *
ubo_address(nir_builder *b, struct lower_state *s, nir_src index,
            nir_ssa_def *offset)
{
   unsigned slot, word;

   /* A uniform block chosen at run time: its address from the table of
    * addresses (the index clamped to the table, as robust access would). */
   if (!nir_src_is_const(index)) {
      if (!push_word(s, PANFROST_PUSH_UBO_TABLE, 0, 0, 2, &word))
         return NULL;
      nir_ssa_def *i =
         nir_umin(b, index.ssa, nir_imm_int(b, PANFROST_MAX_CONST_BUFFERS - 1));
      nir_ssa_def *entry = nir_iadd(b, load_push(b, word, 64),
                                    nir_u2u64(b, nir_imul_imm(b, i, 8)));
      nir_ssa_def *w = nir_load_global(b, entry, 8, 2, 32);
      nir_ssa_def *base = nir_pack_64_2x32_split(b, nir_channel(b, w, 0),
                                                 nir_channel(b, w, 1));
      return nir_iadd(b, base, nir_u2u64(b, offset));
   }
   if (!const_index(s, index, PANFROST_MAX_CONST_BUFFERS,
                    "constant buffer index is not constant", &slot) ||
       !push_word(s, PANFROST_PUSH_UBO_ADDR, slot, 0, 2, &word))
      return NULL;
   return nir_iadd(b, load_push(b, word, 64), nir_u2u64(b, offset));
}

/* Storage buffer slots for pan_nir_lower_ssbo.c: push words of their
 * address and size, filled at dispatch.  A block chosen at run time
 * (arrays of blocks) reads both from a table of the slots' words laid out
 * as the draws' PANFROST_SSBO_CBUF, the index clamped to the slots.
 */
static nir_ssa_def *
ssbo_word(nir_builder *b, nir_src *index, bool size, void *data, char *err,
          size_t err_size)
{
   struct lower_state *s = data;
   unsigned slot, word;

   if (!nir_src_is_const(*index)) {
      if (!push_word(s, PANFROST_PUSH_SSBO_TABLE, 0, 0, 2, &word))
         return NULL;
      nir_ssa_def *i =
         nir_umin(b, index->ssa, nir_imm_int(b, PANFROST_MAX_SSBOS - 1));
      nir_ssa_def *entry = nir_iadd(
         b, load_push(b, word, 64),
         nir_u2u64(b, nir_iadd_imm(b,
                                   nir_imul_imm(b, i,
                                                PANFROST_SSBO_SLOT_WORDS * 4),
                                   size ? 8 : 0)));
      if (size)
         return nir_load_global(b, entry, 4, 1, 32);
      nir_ssa_def *w = nir_load_global(b, entry, 8, 2, 32);
      return nir_pack_64_2x32_split(b, nir_channel(b, w, 0),
                                    nir_channel(b, w, 1));
   }
   if (!const_index(s, *index, PANFROST_MAX_SSBOS,
                    "shader storage block index is not constant", &slot) ||
       !push_word(s,
                  size ? PANFROST_PUSH_SSBO_SIZE : PANFROST_PUSH_SSBO_ADDR,
                  slot, 0, size ? 1 : 2, &word))
      return NULL;
   return load_push(b, word, size ? 32 : 64);
}

/* gl_LocalInvocationIndex from the preloaded local id and the workgroup
 * size: (z * size_y + y) * size_x + x.  The size is lowered afterwards
 * (a constant, or push words when variable).
 */
static bool
lower_local_index(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (intr->intrinsic != nir_intrinsic_load_local_invocation_index)
      return false;

   b->cursor = nir_before_instr(instr);
   nir_ssa_def *id = nir_load_local_invocation_id(b);
   nir_ssa_def *size = nir_load_workgroup_size(b);
   nir_ssa_def *yz = nir_iadd(
      b, nir_imul(b, nir_channel(b, id, 2), nir_channel(b, size, 1)),
      nir_channel(b, id, 1));
   nir_ssa_def *index = nir_iadd(b, nir_imul(b, yz, nir_channel(b, size, 0)),
                                 nir_channel(b, id, 0));
   nir_ssa_def_rewrite_uses(&intr->dest.ssa,
                            nir_u2u(b, index, intr->dest.ssa.bit_size));
   nir_instr_remove(instr);
   return true;
}

static nir_ssa_def *
push_vec(nir_builder *b, struct lower_state *s,
         enum panfrost_push_source source, unsigned comps)
{
   nir_ssa_def *c[3];
   unsigned word;

   for (unsigned i = 0; i < comps; ++i) {
      if (!push_word(s, source, i, 0, 1, &word))
         return NULL;
      c[i] = load_push(b, word, 32);
   }
   return nir_vec(b, c, comps);
}

/* textureSize() from the pushed size of the view's first level; another
 * level minifies the components that are not layers.
 */
static bool
lower_txs(nir_builder *b, struct lower_state *s, nir_tex_instr *tex)
{
   unsigned n = nir_dest_num_components(tex->dest), word;
   int lod_src = nir_tex_instr_src_index(tex, nir_tex_src_lod);
   nir_ssa_def *c[4];

   if (tex->texture_index >= PIPE_MAX_SAMPLERS ||
       tex->num_srcs != (lod_src >= 0))
      return fail(s, "textureSize of texture %u with a run-time index",
                  tex->texture_index);
   b->cursor = nir_before_instr(&tex->instr);
   nir_ssa_def *lod = NULL;
   if (lod_src >= 0 && !(nir_src_is_const(tex->src[lod_src].src) &&
                         nir_src_as_uint(tex->src[lod_src].src) == 0))
      lod = tex->src[lod_src].src.ssa;
   /* An array's last component counts its layers (cubes for a cube map
    * array), which no level divides. */
   unsigned minified = tex->is_array ? n - 1 : n;
   for (unsigned i = 0; i < n; ++i) {
      if (!push_word(s, PANFROST_PUSH_TEXTURE_SIZE, tex->texture_index * 4 + i,
                     0, 1, &word))
         return false;
      c[i] = load_push(b, word, 32);
      if (lod && i < minified)
         c[i] = nir_umax(b, nir_ushr(b, c[i], lod), nir_imm_int(b, 1));
   }
   nir_ssa_def_rewrite_uses(&tex->dest.ssa, nir_vec(b, c, n));
   nir_instr_remove(&tex->instr);
   return true;
}

/* textureQueryLevels(): component 3 of the pushed size words. */
static bool
lower_query_levels(nir_builder *b, struct lower_state *s, nir_tex_instr *tex)
{
   unsigned word;

   if (tex->texture_index >= PIPE_MAX_SAMPLERS ||
       nir_tex_instr_src_index(tex, nir_tex_src_texture_offset) >= 0 ||
       nir_tex_instr_src_index(tex, nir_tex_src_texture_handle) >= 0)
      return fail(s, "level count of texture %u with a run-time index",
                  tex->texture_index);
   if (!push_word(s, PANFROST_PUSH_TEXTURE_SIZE, tex->texture_index * 4 + 3,
                  0, 1, &word))
      return false;
   b->cursor = nir_before_instr(&tex->instr);
   nir_ssa_def_rewrite_uses(&tex->dest.ssa, load_push(b, word, 32));
   nir_instr_remove(&tex->instr);
   return true;
}

static bool
lower_instr(nir_builder *b, nir_instr *instr, void *data)
{
   struct lower_state *s = data;

   if (s->failed)
      return false;
   if (instr->type == nir_instr_type_tex &&
       nir_instr_as_tex(instr)->op == nir_texop_txs)
      return lower_txs(b, s, nir_instr_as_tex(instr));
   if (instr->type == nir_instr_type_tex &&
       nir_instr_as_tex(instr)->op == nir_texop_query_levels)
      return lower_query_levels(b, s, nir_instr_as_tex(instr));
   if (instr->type != nir_instr_type_intrinsic)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   nir_ssa_def *repl = NULL;
   unsigned word;

   b->cursor = nir_before_instr(instr);
   switch (intr->intrinsic) {
   case nir_intrinsic_load_ubo: {
      nir_ssa_def *addr =
         ubo_address(b, s, intr->src[0], intr->src[1].ssa);
      if (!addr)
         return false;
      repl = nir_load_global(b, addr, nir_intrinsic_align(intr),
                             intr->dest.ssa.num_components,
                             intr->dest.ssa.bit_size);
      break;
   }
   case nir_intrinsic_load_num_workgroups:
      repl = push_vec(b, s, PANFROST_PUSH_NUM_WORKGROUPS,
                      intr->dest.ssa.num_components);
      break;
   case nir_intrinsic_load_workgroup_size:
      if (b->shader->info.workgroup_size_variable) {
         repl = push_vec(b, s, PANFROST_PUSH_WORKGROUP_SIZE,
                         intr->dest.ssa.num_components);
      } else {
         const uint16_t *ws = b->shader->info.workgroup_size;
         repl = nir_imm_ivec3(b, ws[0], ws[1], ws[2]);
      }
      break;
   case nir_intrinsic_image_size: {
      unsigned image, n = intr->dest.ssa.num_components;
      if (!const_index(s, intr->src[0], PANFROST_MAX_IMAGES,
                       "image index is not constant", &image))
         return false;
      if (!nir_src_is_const(intr->src[1]) || nir_src_as_uint(intr->src[1]))
         return fail(s, "imageSize of a level other than 0", 0);
      nir_ssa_def *c[3];
      for (unsigned i = 0; i < n; ++i) {
         if (!push_word(s, PANFROST_PUSH_IMAGE_SIZE, image * 4 + i, 0, 1,
                        &word))
            return false;
         c[i] = load_push(b, word, 32);
      }
      repl = nir_vec(b, c, n);
      break;
   }
   /* Multisampled images are refused: every image has one sample. */
   case nir_intrinsic_image_samples:
      repl = nir_imm_int(b, 1);
      break;
   case nir_intrinsic_load_kernel_input: {
      if (!nir_src_is_const(intr->src[0]) || intr->dest.ssa.bit_size != 32)
         return fail(s, "kernel input at a non-constant offset or not 32-bit",
                     0);
      unsigned base = nir_intrinsic_base(intr) + nir_src_as_uint(intr->src[0]);
      nir_ssa_def *c[NIR_MAX_VEC_COMPONENTS];
      for (unsigned i = 0; i < intr->dest.ssa.num_components; ++i) {
         if (!push_word(s, PANFROST_PUSH_INPUT, 0, base + 4 * i, 1, &word))
            return false;
         c[i] = load_push(b, word, 32);
      }
      repl = nir_vec(b, c, intr->dest.ssa.num_components);
      break;
   }
   default:
      return false;
   }

   if (!repl)
      return false;
   nir_ssa_def_rewrite_uses(&intr->dest.ssa, repl);
   nir_instr_remove(instr);
   return true;
}

bool
panfrost_nir_lower_compute(nir_shader *nir, struct panfrost_push_layout *layout,
                           char *err, size_t err_size)
{
   struct lower_state s = {
      .layout = layout,
      .err = err,
      .err_size = err_size,
   };

   memset(layout, 0, sizeof(*layout));

   /* Storage buffers first, through the same push words. */
   if (!panfrost_nir_lower_ssbo(nir, ssbo_word, &s, err, err_size))
      return false;
   NIR_PASS_V(nir, nir_lower_system_values);
   nir_shader_instructions_pass(nir, lower_local_index,
                                nir_metadata_block_index |
                                   nir_metadata_dominance,
                                NULL);
   nir_shader_instructions_pass(
      nir, lower_instr, nir_metadata_block_index | nir_metadata_dominance, &s);
   return !s.failed;
}

unsigned
panfrost_nir_image_count(nir_shader *nir)
{
   unsigned n = 0;

   /* The state tracker's indices are sums of constants until folded. */
   NIR_PASS_V(nir, nir_opt_constant_folding);
   NIR_PASS_V(nir, nir_copy_prop);

   nir_foreach_function (f, nir) {
      if (!f->impl)
         continue;
      nir_foreach_block (blk, f->impl) {
         nir_foreach_instr (instr, blk) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
            const char *name = nir_intrinsic_infos[intr->intrinsic].name;
            if (strncmp(name, "image_", 6) || !strncmp(name, "image_deref", 11))
               continue;
            /* Non-constant indices are the compiler's to refuse. */
            n = nir_src_is_const(intr->src[0])
                   ? MAX2(n, nir_src_as_uint(intr->src[0]) + 1)
                   : PANFROST_MAX_IMAGES;
         }
      }
   }
   return MIN2(n, PANFROST_MAX_IMAGES);
}
