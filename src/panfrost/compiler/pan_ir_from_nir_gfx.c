/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: the intrinsics of vertex and fragment shaders, in the forms
 * the v9 driver expects (docs/drivers/panfrost/compiler.rst, "Driver
 * interface").  Preloaded registers:
 *   vertex    r59 IDVS output index, r60 vertex id, r61 instance id
 *   fragment  r60 coverage mask, r61 varying interpolation source
 * Attributes come from resource table 1, entry = driver location.
 * Varyings live 16 bytes per slot (VAR0 at byte 0, fixed-function ones
 * after VAR31: pan_va_varying_slot) in the IDVS varying buffer;
 * positions in the position buffer (table 13, entry 0).
 * Uniforms of UBOs at constant offsets are pushed: each distinct word
 * gets the next FAU word, and the push table says where it comes from;
 * other UBO reads are LD_BUFFER of resource table 0, entry = UBO index.
 */

#include "util/u_math.h"

#include "pan_ir_from_nir_priv.h"

#define PAN_IR_REG_IDVS_INDEX 59
#define PAN_IR_REG_VERTEX_ID 60
#define PAN_IR_REG_INSTANCE_ID 61
#define PAN_IR_REG_COVERAGE 60
/* The samples covered in bits 0-15, the sample shaded in bits 16-23. */
#define PAN_IR_REG_SAMPLE 61
#define PAN_IR_REG_VARYING_SRC 61
#define PAN_IR_REG_PIXEL_POS 59
#define PAN_IR_REG_FACING 58

/* ld_var_special's names of the fragment depth and 1/w. */
#define PAN_IR_SPECIAL_VARYING_FRAG_W 2
#define PAN_IR_SPECIAL_VARYING_FRAG_Z 3

/*
 * gl_FragCoord words [first, first + n): x and y are the pixel's integer
 * position (halves of r59) plus 0.5 (the pixel centre), z and w come from
 * the special varyings.
 */
static pan_ir_index
frag_coord(struct pan_ir_from_nir *ctx, unsigned first, unsigned n)
{
   pan_ir_builder *b = &ctx->b;
   pan_ir_index w[4];
   for (unsigned i = 0; i < n; ++i) {
      unsigned c = first + i;
      if (c < 2) {
         pan_ir_index pos = pan_ir_preload(b, PAN_IR_REG_PIXEL_POS);
         pan_ir_index f =
            c ? pan_ir_u16hi_to_f32(b, pos) : pan_ir_u16lo_to_f32(b, pos);
         w[i] = pan_ir_fadd(b, f, pan_ir_imm(0x3f000000));
      } else {
         w[i] = pan_ir_ld_var_special(b,
                                      c == 2 ? PAN_IR_SPECIAL_VARYING_FRAG_Z
                                             : PAN_IR_SPECIAL_VARYING_FRAG_W,
                                      pan_ir_imm(0));
      }
   }
   return n == 1 ? w[0] : pan_ir_collect(b, n, w);
}

/* gl_FrontFacing as a 0 / 1 boolean: the preloaded r58 is 0 for a
 * front-facing primitive (there is no special varying for it). */
static pan_ir_index
front_facing(struct pan_ir_from_nir *ctx)
{
   return pan_ir_icmp(&ctx->b, PAN_IR_TYPE_U32, PAN_IR_CMP_EQ,
                      pan_ir_preload(&ctx->b, PAN_IR_REG_FACING),
                      pan_ir_imm(0));
}

/* gl_PointCoord from the rasterizer's special varying; its origin (top or
 * bottom of the point) is the framebuffer descriptor's, not the shader's. */
static pan_ir_index
point_coord(struct pan_ir_from_nir *ctx)
{
   return pan_ir_ld_var_point(&ctx->b, pan_ir_imm(0));
}

/* FAU words kept for pushes that cannot fall back to a buffer load. */
#define PAN_VA_PUSH_RESERVE 8

static int
find_push_word(const struct pan_va_binary *bin, enum pan_va_push_source source,
               unsigned ubo, unsigned offset_B)
{
   for (unsigned i = 0; i < bin->nr_push; ++i) {
      const struct pan_va_push_word *p = &bin->push[i];
      if (p->source == source && p->ubo == ubo && p->offset_B == offset_B)
         return i;
   }
   return -1;
}

/* The size of the table once n words from offset_B are pushed. */
static unsigned
push_room(const struct pan_va_binary *bin, enum pan_va_push_source source,
          unsigned ubo, unsigned offset_B, unsigned n)
{
   unsigned size = bin->nr_push;
   for (unsigned i = 0; i < n; ++i)
      size += find_push_word(bin, source, ubo, offset_B + 4 * i) < 0;
   return size;
}

/* The FAU word holding (source, ubo, offset), added when new. */
static bool
push_word(struct pan_ir_from_nir *ctx, enum pan_va_push_source source,
          unsigned ubo, unsigned offset_B, unsigned *word)
{
   struct pan_va_binary *bin = ctx->bin;
   int found = find_push_word(bin, source, ubo, offset_B);
   if (found >= 0) {
      *word = found;
      return true;
   }
   if (bin->nr_push == PAN_VA_MAX_PUSH_WORDS) {
      pan_ir_from_nir_error(ctx, "more than %u pushed uniform words",
                            PAN_VA_MAX_PUSH_WORDS);
      return false;
   }
   bin->push[bin->nr_push] = (struct pan_va_push_word){ .source = source,
                                                        .ubo = ubo,
                                                        .offset_B = offset_B };
   *word = bin->nr_push++;
   return true;
}

pan_ir_index
pan_ir_from_nir_pushed_vec(struct pan_ir_from_nir *ctx,
                           enum pan_va_push_source source, unsigned ubo,
                           unsigned offset_B, unsigned n)
{
   pan_ir_index w[4];
   for (unsigned i = 0; i < n; ++i) {
      unsigned word;
      if (!push_word(ctx, source, ubo, offset_B + 4 * i, &word))
         return pan_ir_null();
      w[i] = pan_ir_mov(&ctx->b, pan_ir_uniform(word));
   }
   return n == 1 ? w[0] : pan_ir_collect(&ctx->b, n, w);
}

/*
 * The viewport transform is x * scale + offset per component: scale and
 * offset of a component share one 64-bit FAU slot (scale in the low word),
 * so that one FMA reads both (an instruction reads one slot only).  A
 * padding word (the constant 0) aligns the first pair.
 */
static bool
push_viewport(struct pan_ir_from_nir *ctx)
{
   struct pan_va_binary *bin = ctx->bin;
   if (find_push_word(bin, PAN_VA_PUSH_VIEWPORT_SCALE, 0, 0) >= 0)
      return true;
   if (bin->nr_push + (bin->nr_push & 1) + 6 > PAN_VA_MAX_PUSH_WORDS) {
      pan_ir_from_nir_error(ctx, "more than %u pushed uniform words",
                            PAN_VA_MAX_PUSH_WORDS);
      return false;
   }
   if (bin->nr_push & 1) {
      bin->push[bin->nr_push++] =
         (struct pan_va_push_word){ .source = PAN_VA_PUSH_CONSTANT };
   }
   for (unsigned c = 0; c < 3; ++c) {
      for (unsigned k = 0; k < 2; ++k) {
         bin->push[bin->nr_push++] = (struct pan_va_push_word){
            .source =
               k ? PAN_VA_PUSH_VIEWPORT_OFFSET : PAN_VA_PUSH_VIEWPORT_SCALE,
            .offset_B = 4 * c,
         };
      }
   }
   return true;
}

static pan_ir_index
load_ubo(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   if (nir_dest_bit_size(intr->dest) != 32) {
      pan_ir_from_nir_error(ctx, "load_ubo of %u-bit data is unsupported",
                            nir_dest_bit_size(intr->dest));
      return pan_ir_null();
   }
   /* Dynamic offsets (array indexing) read the buffer: LD_BUFFER. */
   if (!nir_src_is_const(intr->src[0]) || !nir_src_is_const(intr->src[1])) {
      return pan_ir_ld_ubo(
         &ctx->b, nir_dest_num_components(intr->dest),
         pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[1]), 0),
         pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[0]), 0));
   }
   unsigned ubo = nir_src_as_uint(intr->src[0]);
   unsigned offset_B = nir_src_as_uint(intr->src[1]);
   if (ubo > 255 || offset_B % 4) {
      pan_ir_from_nir_error(ctx, "load_ubo of UBO %u at byte %u", ubo,
                            offset_B);
      return pan_ir_null();
   }
   unsigned n = nir_dest_num_components(intr->dest);
   /* Uniforms past what the FAU table holds (keeping a few words for
    * system values and texture sizes) are read from the buffer. */
   if (push_room(ctx->bin, PAN_VA_PUSH_UBO, ubo, offset_B, n) >
       PAN_VA_MAX_PUSH_WORDS - PAN_VA_PUSH_RESERVE) {
      return pan_ir_ld_ubo(&ctx->b, n, pan_ir_imm(offset_B), pan_ir_imm(ubo));
   }
   return pan_ir_from_nir_pushed_vec(ctx, PAN_VA_PUSH_UBO, ubo, offset_B, n);
}

/* The fixed-function varyings, in the order they take the slots after the
 * generic ones: the likeliest first. */
static const gl_varying_slot ff_varyings[] = {
   VARYING_SLOT_COL0, VARYING_SLOT_TEX0,       VARYING_SLOT_COL1,
   VARYING_SLOT_TEX1, VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CLIP_DIST1,
   VARYING_SLOT_FOGC, VARYING_SLOT_TEX2,       VARYING_SLOT_TEX3,
   VARYING_SLOT_BFC0, VARYING_SLOT_BFC1,       VARYING_SLOT_TEX4,
   VARYING_SLOT_TEX5, VARYING_SLOT_TEX6,       VARYING_SLOT_TEX7,
   /* What a geometry shader's final draw passes on (pan_gs.h). */
   VARYING_SLOT_PRIMITIVE_ID,
};

static_assert(PAN_VA_GENERIC_SLOTS + ARRAY_SIZE(ff_varyings) ==
                 PAN_VA_VARYING_SLOTS,
              "every fixed-function varying has a slot");

int
pan_va_varying_slot(unsigned location)
{
   if (location >= VARYING_SLOT_VAR0 &&
       location < VARYING_SLOT_VAR0 + PAN_VA_GENERIC_SLOTS)
      return location - VARYING_SLOT_VAR0;
   for (unsigned i = 0; i < ARRAY_SIZE(ff_varyings); ++i) {
      if (ff_varyings[i] == location)
         return PAN_VA_GENERIC_SLOTS + i;
   }
   return -1;
}

unsigned
pan_va_varying_slots(uint64_t locations)
{
   unsigned n = 0;
   u_foreach_bit64 (loc, locations) {
      int slot = pan_va_varying_slot(loc);
      n = MAX2(n, (unsigned)(slot + 1));
   }
   return n;
}

/* Byte offset of a varying's slot, or false with an error. */
static bool
varying_offset(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
               unsigned *offset_B)
{
   nir_io_semantics sem = nir_intrinsic_io_semantics(intr);
   nir_src *off = nir_get_io_offset_src(intr);
   if (!nir_src_is_const(*off)) {
      pan_ir_from_nir_error(ctx, "varying at a non-constant slot");
      return false;
   }
   unsigned loc = sem.location + nir_src_as_uint(*off);
   int slot = pan_va_varying_slot(loc);
   if (slot < 0) {
      pan_ir_from_nir_error(ctx, "varying slot %s is unsupported",
                            gl_varying_slot_name_for_stage(loc, ctx->stage));
      return false;
   }
   *offset_B = 16 * slot;
   return true;
}

/* Words [first, first + n) of v as a value. */
static pan_ir_index
sub_vec(struct pan_ir_from_nir *ctx, pan_ir_index v, unsigned first, unsigned n)
{
   if (first == 0 && n == v.comps)
      return v;
   pan_ir_index w[4];
   for (unsigned i = 0; i < n; ++i)
      w[i] = pan_ir_mov(&ctx->b, pan_ir_word(v, first + i));
   return n == 1 ? w[0] : pan_ir_collect(&ctx->b, n, w);
}

/* noperspective varyings (pan_va_noperspective.c): the fragment shader
 * multiplies the perspective-correct value by gl_FragCoord.w.
 */
static bool
output_noperspective(nir_intrinsic_instr *intr)
{
   nir_shader *nir =
      nir_cf_node_get_function(&intr->instr.block->cf_node)->function->shader;
   unsigned location = nir_intrinsic_io_semantics(intr).location;

   nir_foreach_shader_out_variable(var, nir) {
      if (var->data.location == location)
         return var->data.interpolation == INTERP_MODE_NOPERSPECTIVE;
   }
   return false;
}

/* Each word of v (n words) times f. */
static pan_ir_index
scale_words(struct pan_ir_from_nir *ctx, pan_ir_index v, unsigned n,
            pan_ir_index f)
{
   pan_ir_index w[4];
   for (unsigned i = 0; i < n; ++i)
      w[i] = pan_ir_fma(&ctx->b, pan_ir_word(v, i), f,
                        pan_ir_imm(0x80000000 /* -0: a * b exactly */));
   return n == 1 ? w[0] : pan_ir_collect(&ctx->b, n, w);
}

static pan_ir_index
load_attribute(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   unsigned n = nir_dest_num_components(intr->dest);
   unsigned comp = nir_intrinsic_component(intr);
   nir_alu_type t = nir_intrinsic_dest_type(intr);
   enum pan_ir_type type = PAN_IR_TYPE_F32;

   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_dest_bit_size(intr->dest)))
      return pan_ir_null();
   if (!nir_src_is_const(intr->src[0])) {
      pan_ir_from_nir_error(ctx, "attribute at a non-constant slot");
      return pan_ir_null();
   }
   if (nir_alu_type_get_base_type(t) == nir_type_int)
      type = PAN_IR_TYPE_S32;
   else if (nir_alu_type_get_base_type(t) == nir_type_uint)
      type = PAN_IR_TYPE_U32;
   unsigned index = nir_intrinsic_base(intr) + nir_src_as_uint(intr->src[0]);
   if (index > 15) {
      pan_ir_from_nir_error(ctx, "attribute %u beyond the immediate form",
                            index);
      return pan_ir_null();
   }
   pan_ir_index v =
      pan_ir_ld_attr(&ctx->b, n + comp, type, index,
                     pan_ir_preload(&ctx->b, PAN_IR_REG_VERTEX_ID),
                     pan_ir_preload(&ctx->b, PAN_IR_REG_INSTANCE_ID));
   return sub_vec(ctx, v, comp, n);
}

static pan_ir_index
load_varying(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr, bool flat)
{
   unsigned n = nir_dest_num_components(intr->dest);
   unsigned comp = nir_intrinsic_component(intr);
   unsigned offset_B;

   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_dest_bit_size(intr->dest)))
      return pan_ir_null();
   if (nir_intrinsic_io_semantics(intr).location == VARYING_SLOT_POS &&
       nir_src_is_const(*nir_get_io_offset_src(intr)) &&
       !nir_src_as_uint(*nir_get_io_offset_src(intr)))
      return frag_coord(ctx, comp, n);
   if (nir_intrinsic_io_semantics(intr).location == VARYING_SLOT_PNTC)
      return sub_vec(ctx, point_coord(ctx), comp, n);
   /* A bool input read as a 32-bit word: GL's 0 / ~0. */
   if (nir_intrinsic_io_semantics(intr).location == VARYING_SLOT_FACE)
      return pan_ir_isub(&ctx->b, pan_ir_imm(0), front_facing(ctx));
   if (!varying_offset(ctx, intr, &offset_B))
      return pan_ir_null();
   bool noperspective = false;
   if (!flat) {
      nir_intrinsic_instr *bary = nir_src_as_intrinsic(intr->src[0]);
      if (!bary || bary->intrinsic != nir_intrinsic_load_barycentric_pixel) {
         pan_ir_from_nir_error(ctx, "interpolation %s is unsupported",
                               bary ? nir_intrinsic_infos[bary->intrinsic].name
                                    : "(unknown)");
         return pan_ir_null();
      }
      noperspective =
         nir_intrinsic_interp_mode(bary) == INTERP_MODE_NOPERSPECTIVE;
   }
   pan_ir_index src = pan_ir_preload(&ctx->b, PAN_IR_REG_VARYING_SRC);
   pan_ir_index v;
   if (offset_B < 256) {
      v = flat ? pan_ir_ld_var_flat(&ctx->b, n + comp, offset_B, src)
               : pan_ir_ld_var(&ctx->b, n + comp, offset_B, src);
   } else {
      pan_ir_index at = pan_ir_mov(&ctx->b, pan_ir_imm(offset_B));
      v = flat ? pan_ir_ld_var_flat_far(&ctx->b, n + comp, offset_B, src, at)
               : pan_ir_ld_var_far(&ctx->b, n + comp, offset_B, src, at);
   }
   v = sub_vec(ctx, v, comp, n);
   if (noperspective) {
      pan_ir_index inv_w = pan_ir_ld_var_special(
         &ctx->b, PAN_IR_SPECIAL_VARYING_FRAG_W, pan_ir_imm(0));
      v = scale_words(ctx, v, n, inv_w);
   }
   return v;
}

/* Store data (a vector of the written components) as `words` words. */
static pan_ir_index
store_data(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
           unsigned words, pan_ir_index fill)
{
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[0]);
   unsigned n = nir_src_num_components(intr->src[0]);
   pan_ir_index w[4];
   for (unsigned i = 0; i < words; ++i)
      w[i] = i < n ? pan_ir_word(data, i) : fill;
   return pan_ir_collect(&ctx->b, words, w);
}

static void
store_vertex_output(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   nir_io_semantics sem = nir_intrinsic_io_semantics(intr);
   unsigned comp = nir_intrinsic_component(intr);
   unsigned n = util_last_bit(nir_intrinsic_write_mask(intr));

   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_src_bit_size(intr->src[0])))
      return;
   /* Only user clip planes read it, and the state tracker turns them into
    * gl_ClipDistance writes when any is enabled. */
   if (sem.location == VARYING_SLOT_CLIP_VERTEX)
      return;
   if (sem.location == VARYING_SLOT_PSIZ) {
      /* Sub-slot 4 of the vertex's output index names its point size. */
      pan_ir_index index =
         pan_ir_iadd(&ctx->b, pan_ir_preload(&ctx->b, PAN_IR_REG_IDVS_INDEX),
                     pan_ir_imm(4));
      pan_ir_store_psiz(&ctx->b,
                        pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[0]), 0),
                        pan_ir_lea_vary(&ctx->b, index));
      return;
   }
   if (ctx->vary_addr_block != ctx->b.block) {
      ctx->vary_addr = pan_ir_lea_vary(
         &ctx->b, pan_ir_preload(&ctx->b, PAN_IR_REG_IDVS_INDEX));
      ctx->vary_addr_block = ctx->b.block;
   }
   pan_ir_index addr = ctx->vary_addr;
   if (sem.location == VARYING_SLOT_POS) {
      pan_ir_store_pos(&ctx->b, 0, store_data(ctx, intr, 4, pan_ir_imm(0)),
                       addr);
      return;
   }
   unsigned offset_B;
   if (!varying_offset(ctx, intr, &offset_B))
      return;
   pan_ir_index data = store_data(ctx, intr, n, pan_ir_imm(0));
   /* pan_va_lower_noperspective scaled those it could. */
   if (output_noperspective(intr)) {
      pan_ir_from_nir_error(ctx, "noperspective varying written where "
                                 "gl_Position is not computed yet");
      return;
   }
   nir_alu_type base = nir_alu_type_get_base_type(nir_intrinsic_src_type(intr));
   pan_ir_store_vary(&ctx->b, offset_B + 4 * comp, data, addr)->type =
      base == nir_type_int || base == nir_type_uint ? PAN_IR_TYPE_U32
                                                    : PAN_IR_TYPE_F32;
}

static void
store_fragment_output(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   nir_io_semantics sem = nir_intrinsic_io_semantics(intr);
   nir_alu_type t = nir_intrinsic_src_type(intr);
   nir_alu_type base = nir_alu_type_get_base_type(t);
   /* gl_FragData[i] is one output array: the element is the (constant,
    * after nir_lower_indirect_derefs) slot offset from its location. */
   int rt = sem.location == FRAG_RESULT_COLOR
               ? 0
               : (int)sem.location - FRAG_RESULT_DATA0 +
                    (int)nir_src_as_uint(intr->src[1]);

   if (sem.location == FRAG_RESULT_DEPTH && t == nir_type_float32) {
      ctx->depth = pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[0]), 0);
      return;
   }
   if (sem.location == FRAG_RESULT_STENCIL &&
       nir_alu_type_get_type_size(t) == 32) {
      ctx->stencil = pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[0]), 0);
      return;
   }
   if (rt < 0 || rt >= 8) {
      pan_ir_from_nir_error(ctx, "fragment output %s is unsupported",
                            gl_frag_result_name(sem.location));
      return;
   }
   if (nir_alu_type_get_type_size(t) != 32 || nir_intrinsic_component(intr) ||
       (sem.dual_source_blend_index && (rt || ctx->blend))) {
      pan_ir_from_nir_error(
         ctx, "fragment output of %u-bit %s%s",
         nir_alu_type_get_type_size(t),
         base == nir_type_float ? "float" : "int",
         sem.dual_source_blend_index ? " (dual source)" : "");
      return;
   }
   /* Missing components: 0, alpha 1 (of the output's type). */
   enum pan_ir_type type = base == nir_type_float ? PAN_IR_TYPE_F32
                           : base == nir_type_uint ? PAN_IR_TYPE_U32
                                                   : PAN_IR_TYPE_S32;
   pan_ir_index c = store_data(ctx, intr, 3, pan_ir_imm(0));
   unsigned n = nir_src_num_components(intr->src[0]);
   pan_ir_index w[4] = {
      pan_ir_word(c, 0),
      pan_ir_word(c, 1),
      pan_ir_word(c, 2),
      n == 4 ? pan_ir_word(pan_ir_from_nir_src(ctx, intr->src[0]), 3)
      : type == PAN_IR_TYPE_F32 ? pan_ir_imm(0x3f800000)
                                : pan_ir_imm(1),
   };
   pan_ir_index v = pan_ir_collect(&ctx->b, 4, w);
   /* The second colour goes to the blend shader only (BLEND's s3). */
   if (sem.dual_source_blend_index) {
      ctx->colour1 = v;
      return;
   }
   ctx->colour[rt] = v;
   ctx->colour_type[rt] = type;
}

/* discard_if of a float comparison tests it directly; any other condition
 * is made a float 1.0 / 0.0 first (a 0 / 1 integer would be a denormal). */
static void
discard(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   pan_ir_builder *b = &ctx->b;
   if (intr->intrinsic == nir_intrinsic_discard ||
       intr->intrinsic == nir_intrinsic_terminate ||
       intr->intrinsic == nir_intrinsic_demote) {
      pan_ir_discard(b, PAN_IR_CMP_EQ, pan_ir_imm(0), pan_ir_imm(0));
      return;
   }
   nir_alu_instr *alu = nir_src_as_alu_instr(intr->src[0]);
   static const struct {
      nir_op op;
      enum pan_ir_cmp cmp;
   } fcmps[] = {
      { nir_op_flt, PAN_IR_CMP_LT },
      { nir_op_fge, PAN_IR_CMP_GE },
      { nir_op_feq, PAN_IR_CMP_EQ },
      { nir_op_fneu, PAN_IR_CMP_NE },
   };
   for (unsigned i = 0; alu && i < ARRAY_SIZE(fcmps); ++i) {
      if (alu->op != fcmps[i].op || nir_src_bit_size(alu->src[0].src) != 32)
         continue;
      pan_ir_index a = pan_ir_word(pan_ir_from_nir_src(ctx, alu->src[0].src),
                                   alu->src[0].swizzle[0]);
      pan_ir_index c = pan_ir_word(pan_ir_from_nir_src(ctx, alu->src[1].src),
                                   alu->src[1].swizzle[0]);
      pan_ir_discard(b, fcmps[i].cmp, a, c);
      return;
   }
   pan_ir_index cond = pan_ir_from_nir_src(ctx, intr->src[0]);
   pan_ir_index f =
      pan_ir_csel(b, PAN_IR_TYPE_U32, PAN_IR_CMP_NE, cond, pan_ir_imm(0),
                  pan_ir_imm(0x3f800000), pan_ir_imm(0));
   pan_ir_discard(b, PAN_IR_CMP_NE, f, pan_ir_imm(0));
}

/* The draw parameter (pan_va_draw_param) a system value intrinsic reads. */
static enum pan_va_draw_param
draw_param(nir_intrinsic_op op)
{
   switch (op) {
   case nir_intrinsic_load_first_vertex:
      return PAN_VA_DRAW_FIRST_VERTEX;
   case nir_intrinsic_load_base_vertex:
      return PAN_VA_DRAW_BASE_VERTEX;
   case nir_intrinsic_load_base_instance:
      return PAN_VA_DRAW_BASE_INSTANCE;
   default:
      return PAN_VA_DRAW_ID;
   }
}

/* LD_TILE's pixel indices in a blend shader: the render target in bits
 * 8-15, the sample in bits 0-7.  On a multisampled target the driver has
 * the draw shaded once a sample, so the caller's coverage holds that
 * sample's bit alone (or none: nothing will be stored); its index is read
 * off the bit, one comparison per bit of the index.  The hardware also
 * puts the index in r61, but the caller may have reused that register. */
static pan_ir_index
blend_pixel_indices(struct pan_ir_from_nir *ctx)
{
   static const uint32_t index_bit[4] = { 0xaaaa, 0xcccc, 0xf0f0, 0xff00 };
   pan_ir_builder *b = &ctx->b;
   pan_ir_index pixel = pan_ir_imm(ctx->blend->rt << 8);
   unsigned bits = util_logbase2(MAX2(ctx->blend->nr_samples, 1));

   for (unsigned i = 0; i < bits && i < 4; ++i) {
      pan_ir_index set = pan_ir_icmp(
         b, PAN_IR_TYPE_U32, PAN_IR_CMP_NE,
         pan_ir_lshift_and(b, pan_ir_preload(b, ctx->blend->coverage_reg),
                           pan_ir_imm(0), pan_ir_imm(index_bit[i])),
         pan_ir_imm(0));
      pixel = pan_ir_lshift_or(b, set, pan_ir_imm(i), pixel);
   }
   return pixel;
}

/* In a blend shader (pan_compile.h): the colour the calling BLEND has,
 * the destination read from the tile buffer, the result; nothing else. */
static void
blend_intrinsic(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   pan_ir_builder *b = &ctx->b;
   pan_ir_index v = pan_ir_null();

   switch (intr->intrinsic) {
   case nir_intrinsic_load_input:
   case nir_intrinsic_load_output: {
      unsigned n = nir_dest_num_components(intr->dest);
      unsigned comp = nir_intrinsic_component(intr);
      nir_src *offset = nir_get_io_offset_src(intr);
      if (!pan_ir_from_nir_check_32bit(ctx, intr,
                                       nir_dest_bit_size(intr->dest)))
         return;
      if (!nir_src_is_const(*offset) || nir_src_as_uint(*offset) ||
          comp + n > 4) {
         pan_ir_from_nir_error(ctx, "indexed %s in a blend shader",
                               nir_intrinsic_infos[intr->intrinsic].name);
         return;
      }
      if (intr->intrinsic == nir_intrinsic_load_input) {
         unsigned loc = nir_intrinsic_io_semantics(intr).location;
         if (loc != VARYING_SLOT_VAR0 && loc != VARYING_SLOT_VAR1) {
            pan_ir_from_nir_error(ctx, "blend shader input %s",
                                  gl_varying_slot_name_for_stage(
                                     nir_intrinsic_io_semantics(intr).location,
                                     MESA_SHADER_FRAGMENT));
            return;
         }
         unsigned reg = loc == VARYING_SLOT_VAR1 ? ctx->blend->colour1_reg
                                                 : ctx->blend->colour_reg;
         pan_ir_index w[4];
         for (unsigned i = 0; i < n; ++i)
            w[i] = pan_ir_preload(b, reg + comp + i);
         v = n == 1 ? w[0] : pan_ir_collect(b, n, w);
         break;
      }
      nir_alu_type t = nir_alu_type_get_base_type(nir_intrinsic_dest_type(intr));
      enum pan_ir_type type = t == nir_type_float ? PAN_IR_TYPE_F32
                              : t == nir_type_uint ? PAN_IR_TYPE_U32
                                                   : PAN_IR_TYPE_S32;
      pan_ir_index dst = pan_ir_ld_tile(
         b, type, blend_pixel_indices(ctx),
         pan_ir_preload(b, ctx->blend->coverage_reg),
         pan_ir_imm(ctx->blend->conversion));
      v = sub_vec(ctx, dst, comp, n);
      break;
   }
   case nir_intrinsic_store_output:
      store_fragment_output(ctx, intr);
      return;
   default:
      pan_ir_from_nir_error(ctx, "%s in a blend shader",
                            nir_intrinsic_infos[intr->intrinsic].name);
      return;
   }
   ctx->values[intr->dest.ssa.index] = v;
}

bool
pan_ir_from_nir_gfx_intrinsic(struct pan_ir_from_nir *ctx,
                              nir_intrinsic_instr *intr)
{
   pan_ir_index v = pan_ir_null();
   if (ctx->blend) {
      blend_intrinsic(ctx, intr);
      return true;
   }
   bool vs = ctx->stage == MESA_SHADER_VERTEX;
   bool fs = ctx->stage == MESA_SHADER_FRAGMENT;

   switch (intr->intrinsic) {
   case nir_intrinsic_load_ubo:
      v = load_ubo(ctx, intr);
      break;
   case nir_intrinsic_load_viewport_scale:
   case nir_intrinsic_load_viewport_offset:
      if (!push_viewport(ctx))
         break;
      v = pan_ir_from_nir_pushed_vec(
         ctx,
         intr->intrinsic == nir_intrinsic_load_viewport_scale
            ? PAN_VA_PUSH_VIEWPORT_SCALE
            : PAN_VA_PUSH_VIEWPORT_OFFSET,
         0, 0, nir_dest_num_components(intr->dest));
      break;
   case nir_intrinsic_load_input:
      if (vs)
         v = load_attribute(ctx, intr);
      else if (fs)
         v = load_varying(ctx, intr, true);
      else
         return false;
      break;
   case nir_intrinsic_load_interpolated_input:
      if (!fs)
         return false;
      v = load_varying(ctx, intr, false);
      break;
   case nir_intrinsic_load_frag_coord:
      if (!fs || !pan_ir_from_nir_check_32bit(ctx, intr, nir_dest_bit_size(intr->dest)))
         return false;
      v = frag_coord(ctx, 0, nir_dest_num_components(intr->dest));
      break;
   case nir_intrinsic_load_point_coord:
      if (!fs)
         return false;
      v = point_coord(ctx);
      break;
   case nir_intrinsic_load_front_face:
      if (!fs)
         return false;
      v = front_facing(ctx);
      break;
   case nir_intrinsic_load_sample_mask_in:
      /* The preloaded coverage: 0 in helper lanes. */
      if (!fs)
         return false;
      v = pan_ir_preload(&ctx->b, PAN_IR_REG_COVERAGE);
      break;
   case nir_intrinsic_load_sample_id:
      /* Meaningful when the draw shades once a sample. */
      if (!fs)
         return false;
      v = pan_ir_lshift_and(
         &ctx->b,
         pan_ir_rshift_or(&ctx->b, PAN_IR_TYPE_U32,
                          pan_ir_preload(&ctx->b, PAN_IR_REG_SAMPLE),
                          pan_ir_imm(16), pan_ir_imm(0)),
         pan_ir_imm(0), pan_ir_imm(0xff));
      break;
   case nir_intrinsic_load_barycentric_pixel:
   case nir_intrinsic_load_barycentric_centroid:
   case nir_intrinsic_load_barycentric_sample:
      /* Read by the load_interpolated_input that uses it. */
      ctx->values[intr->dest.ssa.index] = pan_ir_imm(0);
      return true;
   case nir_intrinsic_store_output:
      if (vs)
         store_vertex_output(ctx, intr);
      else if (fs)
         store_fragment_output(ctx, intr);
      else
         return false;
      return true;
   case nir_intrinsic_discard:
   case nir_intrinsic_discard_if:
   case nir_intrinsic_terminate:
   case nir_intrinsic_terminate_if:
   case nir_intrinsic_demote:
   case nir_intrinsic_demote_if:
      if (!fs)
         return false;
      discard(ctx, intr);
      return true;
   case nir_intrinsic_load_vertex_id:
   case nir_intrinsic_load_vertex_id_zero_base:
   case nir_intrinsic_load_instance_id:
      if (!vs)
         return false;
      v = pan_ir_preload(&ctx->b,
                         intr->intrinsic == nir_intrinsic_load_instance_id
                            ? PAN_IR_REG_INSTANCE_ID
                            : PAN_IR_REG_VERTEX_ID);
      break;
   case nir_intrinsic_load_first_vertex:
   case nir_intrinsic_load_base_vertex:
   case nir_intrinsic_load_base_instance:
   case nir_intrinsic_load_draw_id:
      /* Pushed by the driver per draw. */
      if (!vs)
         return false;
      v = pan_ir_from_nir_pushed_vec(ctx, PAN_VA_PUSH_DRAW, 0,
                                     4 * draw_param(intr->intrinsic), 1);
      break;
   default:
      return false;
   }
   if (v.kind != PAN_IR_NULL)
      ctx->values[intr->dest.ssa.index] = v;
   return true;
}

void
pan_ir_from_nir_gfx_finish(struct pan_ir_from_nir *ctx)
{
   int last = -1;
   for (unsigned rt = 0; rt < 8; ++rt) {
      if (ctx->colour[rt].kind != PAN_IR_NULL)
         last = rt;
   }
   bool z = ctx->depth.kind != PAN_IR_NULL;
   bool s = ctx->stencil.kind != PAN_IR_NULL;
   if (ctx->blend) {
      /* The result through the store descriptor, a 64-bit register pair
       * (a blend shader pushes nothing), then back to the caller. */
      if (last != 0 || z || s) {
         pan_ir_from_nir_error(ctx, "a blend shader writes its render "
                                    "target's colour only");
         return;
      }
      pan_ir_index desc[2] = {
         pan_ir_imm((uint32_t)ctx->blend->store),
         pan_ir_imm((uint32_t)(ctx->blend->store >> 32)),
      };
      pan_ir_blend(&ctx->b, ctx->colour_type[0], 0x200 | 0x100, ctx->colour[0],
                   pan_ir_collect(&ctx->b, 2, desc),
                   pan_ir_preload(&ctx->b, ctx->blend->coverage_reg),
                   ctx->colour[0]);
      return;
   }
   if (ctx->stage != MESA_SHADER_FRAGMENT || (last < 0 && !z && !s))
      return;

   /* The alpha test reads render target 0's alpha (the first written when
    * there is none; 1.0 for an integer one), and gives the coverage the
    * depth write and the blends use. */
   pan_ir_builder *b = &ctx->b;
   pan_ir_index cov = pan_ir_preload(b, PAN_IR_REG_COVERAGE);
   if (last >= 0) {
      unsigned first = 0;
      while (ctx->colour[first].kind == PAN_IR_NULL)
         first++;
      pan_ir_index alpha = ctx->colour_type[first] == PAN_IR_TYPE_F32
                              ? pan_ir_word(ctx->colour[first], 3)
                              : pan_ir_imm(0x3f800000);
      cov = pan_ir_atest(b, cov, alpha,
                         pan_ir_special(PAN_IR_SPECIAL_ATEST_DATUM));
   }
   pan_ir_index zv = z ? ctx->depth : pan_ir_imm(0);
   pan_ir_index sv = s ? ctx->stencil : pan_ir_imm(0);
   if (z && s)
      cov = pan_ir_zs_emit_zs(b, zv, sv, cov);
   else if (z)
      cov = pan_ir_zs_emit(b, zv, sv, cov);
   else if (s)
      cov = pan_ir_zs_emit_s(b, zv, sv, cov);
   for (int rt = 0; rt <= last; ++rt) {
      if (ctx->colour[rt].kind == PAN_IR_NULL)
         continue;
      pan_ir_blend(b, ctx->colour_type[rt], rt | (rt == last ? 0x100 : 0),
                   ctx->colour[rt],
                   pan_ir_special(PAN_IR_SPECIAL_BLEND_DESC_0 + rt), cov,
                   rt == 0 && ctx->colour1.kind != PAN_IR_NULL ? ctx->colour1
                                                              : ctx->colour[rt]);
   }
}
