/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: GLSL images (image_load, image_store, image_atomic_*) of
 * 1D, 2D, 3D and cube images and their arrays, 32-bit texels.  The image
 * is a constant index, or a register (image_load_idx, image_lea_idx) when
 * GLSL indexes an array of images at run time (dynamically uniform, as
 * GL requires; the interpreters take it per lane); the coordinates
 * become the two words the hardware takes, x and y
 * as 16-bit halves and the slice, layer or cube face (the layer times six
 * plus the face for cube arrays) as a word.  A load is one message
 * converting the texel to the register type; a store or an atomic first
 * asks for the texel's address and conversion word (image_lea), then
 * stores through the conversion word (st_cvt) or runs the memory atomic
 * at the address.  imageSize is pushed (PAN_VA_PUSH_IMAGE_SIZE) in
 * graphics stages and the driver's own push word in compute.  A buffer
 * image is addressed as a 1D image (the driver describes it as one linear
 * row of its texels); multisampled images are refused (imageSamples is 1).
 */

#include <string.h>

#include "pan_ir_from_nir_priv.h"

/* The images the instructions' 4-bit index field names. */
#define PAN_IR_MAX_IMAGES 16

static bool
is_image_op(nir_intrinsic_op op)
{
   const char *name = nir_intrinsic_infos[op].name;
   return !strncmp(name, "image_", 6) || !strncmp(name, "bindless_image_", 15);
}

/* The image index, or -1 after an error; -2 (with dynamic) for an index
 * known at run time only, in a register. */
static int
image_index(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
            pan_ir_index *dynamic)
{
   const char *name = nir_intrinsic_infos[intr->intrinsic].name;
   if (!nir_src_is_const(intr->src[0])) {
      if (!dynamic) {
         pan_ir_from_nir_error(ctx, "%s of a non-constant image index", name);
         return -1;
      }
      *dynamic = pan_ir_from_nir_src(ctx, intr->src[0]);
      return -2;
   }
   unsigned i = nir_src_as_uint(intr->src[0]);
   if (i >= PAN_IR_MAX_IMAGES) {
      pan_ir_from_nir_error(ctx, "%s of image %u, past the %u supported", name,
                            i, PAN_IR_MAX_IMAGES);
      return -1;
   }
   return i;
}

/* x | y << 16 in *xy and the slice or layer in *z; false after an error
 * for the dimensions without a texel address of this form. */
static bool
coords(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr, pan_ir_index *xy,
       pan_ir_index *z)
{
   const char *name = nir_intrinsic_infos[intr->intrinsic].name;
   enum glsl_sampler_dim dim = nir_intrinsic_image_dim(intr);
   bool array = nir_intrinsic_image_array(intr);
   pan_ir_builder *b = &ctx->b;

   switch (dim) {
   case GLSL_SAMPLER_DIM_1D:
   case GLSL_SAMPLER_DIM_2D:
   case GLSL_SAMPLER_DIM_RECT:
   case GLSL_SAMPLER_DIM_3D:
   case GLSL_SAMPLER_DIM_CUBE:
   case GLSL_SAMPLER_DIM_BUF:
      break;
   case GLSL_SAMPLER_DIM_MS:
      pan_ir_from_nir_error(ctx, "%s of a multisampled image is unsupported",
                            name);
      return false;
   default:
      pan_ir_from_nir_error(ctx, "%s of image dimension %u is unsupported",
                            name, dim);
      return false;
   }
   if (nir_src_bit_size(intr->src[1]) != 32) {
      pan_ir_from_nir_error(ctx, "%s with %u-bit coordinates", name,
                            nir_src_bit_size(intr->src[1]));
      return false;
   }
   pan_ir_index c = pan_ir_from_nir_src(ctx, intr->src[1]);
   unsigned n = nir_image_intrinsic_coord_components(intr);
   pan_ir_index x = pan_ir_word(c, 0);

   if (dim == GLSL_SAMPLER_DIM_1D || dim == GLSL_SAMPLER_DIM_BUF) {
      *xy = pan_ir_lshift_and(b, x, pan_ir_imm(0), pan_ir_imm(0xffff));
   } else {
      *xy = pan_ir_lshift_or(
         b, pan_ir_word(c, 1), pan_ir_imm(16),
         pan_ir_lshift_and(b, x, pan_ir_imm(0), pan_ir_imm(0xffff)));
   }
   bool has_z =
      array || dim == GLSL_SAMPLER_DIM_3D || dim == GLSL_SAMPLER_DIM_CUBE;
   /* A constant layer stays an immediate: Valhall shifts it at compile
    * time (pan_va_lower_image.c). */
   nir_ssa_scalar zs = nir_ssa_scalar_resolved(intr->src[1].ssa, n - 1);
   if (!has_z)
      *z = pan_ir_imm(0);
   else if (nir_ssa_scalar_is_const(zs))
      *z = pan_ir_imm(nir_ssa_scalar_as_uint(zs));
   else
      *z = pan_ir_mov(b, pan_ir_word(c, n - 1));
   return true;
}

/* The IR type of a 32-bit NIR type, false after an error for others. */
static bool
texel_type(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
           nir_alu_type t, enum pan_ir_type *out)
{
   if (nir_alu_type_get_type_size(t) != 32) {
      pan_ir_from_nir_error(ctx, "%s of %u-bit texels is unsupported",
                            nir_intrinsic_infos[intr->intrinsic].name,
                            nir_alu_type_get_type_size(t));
      return false;
   }
   switch (nir_alu_type_get_base_type(t)) {
   case nir_type_float:
      *out = PAN_IR_TYPE_F32;
      return true;
   case nir_type_int:
      *out = PAN_IR_TYPE_S32;
      return true;
   default:
      *out = PAN_IR_TYPE_U32;
      return true;
   }
}

/* The texel's address (two words) in *addr and conversion word in *cvt. */
static bool
texel_address(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
              pan_ir_index *addr, pan_ir_index *cvt)
{
   pan_ir_index xy, z, dynamic;
   int index = image_index(ctx, intr, &dynamic);
   if (index == -1 || !coords(ctx, intr, &xy, &z))
      return false;
   pan_ir_index lea = index >= 0
                         ? pan_ir_image_lea(&ctx->b, index, xy, z)
                         : pan_ir_image_lea_idx(&ctx->b, xy, z, dynamic);
   pan_ir_index w[2] = { pan_ir_word(lea, 0), pan_ir_word(lea, 1) };
   *addr = pan_ir_collect(&ctx->b, 2, w);
   *cvt = pan_ir_word(lea, 2);
   return true;
}

static void
image_load(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   enum pan_ir_type type;
   pan_ir_index xy, z, dynamic;
   int index = image_index(ctx, intr, &dynamic);
   unsigned n = intr->dest.ssa.num_components;
   if (index == -1 ||
       !texel_type(ctx, intr, nir_intrinsic_dest_type(intr), &type) ||
       !coords(ctx, intr, &xy, &z))
      return;
   ctx->values[intr->dest.ssa.index] =
      index >= 0 ? pan_ir_image_load(&ctx->b, n, type, index, xy, z)
                 : pan_ir_image_load_idx(&ctx->b, n, type, xy, z, dynamic);
}

static void
image_store(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   enum pan_ir_type type;
   pan_ir_index addr, cvt;
   if (!texel_type(ctx, intr, nir_intrinsic_src_type(intr), &type) ||
       !texel_address(ctx, intr, &addr, &cvt))
      return;
   /* The conversion word says how the registers become the texel. */
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[3]);
   if (data.kind != PAN_IR_SSA)
      data = pan_ir_mov(&ctx->b, data);
   pan_ir_st_cvt(&ctx->b, data, addr, cvt);
}

static void
image_atomic(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   pan_ir_index addr, cvt;
   if (intr->dest.ssa.bit_size != 32) {
      pan_ir_from_nir_error(ctx, "%s of %u-bit texels is unsupported",
                            nir_intrinsic_infos[intr->intrinsic].name,
                            intr->dest.ssa.bit_size);
      return;
   }
   if (!texel_address(ctx, intr, &addr, &cvt))
      return;
   /* NIR: the operand (a compare-and-swap's comparand) in src[3], the new
    * value of a compare-and-swap in src[4]. */
   bool cmpxchg = intr->intrinsic == nir_intrinsic_image_atomic_comp_swap;
   pan_ir_from_nir_atomic_at(
      ctx, intr, addr, pan_ir_from_nir_src(ctx, intr->src[3]),
      cmpxchg ? pan_ir_from_nir_src(ctx, intr->src[4]) : pan_ir_null());
}

/* Graphics stages push the size; compute drivers lower image_size into
 * their own push words first. */
static void
image_size(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   /* Sizes are pushed per image: the driver selects among them for an
    * index known at run time (pan_nir_lower_image_bounds.c). */
   int index = image_index(ctx, intr, NULL);
   if (index < 0)
      return;
   if (ctx->stage == MESA_SHADER_COMPUTE) {
      pan_ir_from_nir_error(ctx, "image_size reaches the compiler in a "
                                 "compute shader: the driver pushes image "
                                 "sizes");
      return;
   }
   if (!nir_src_is_const(intr->src[1]) || nir_src_as_uint(intr->src[1])) {
      pan_ir_from_nir_error(ctx, "image_size of a level other than 0");
      return;
   }
   pan_ir_index v = pan_ir_from_nir_pushed_vec(
      ctx, PAN_VA_PUSH_IMAGE_SIZE, index, 0, intr->dest.ssa.num_components);
   if (v.kind != PAN_IR_NULL)
      ctx->values[intr->dest.ssa.index] = v;
}

bool
pan_ir_from_nir_image(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   const char *name = nir_intrinsic_infos[intr->intrinsic].name;
   if (!is_image_op(intr->intrinsic))
      return false;

   switch (intr->intrinsic) {
   case nir_intrinsic_image_load:
      image_load(ctx, intr);
      break;
   case nir_intrinsic_image_store:
      image_store(ctx, intr);
      break;
   case nir_intrinsic_image_size:
      image_size(ctx, intr);
      break;
   case nir_intrinsic_image_samples:
      /* Multisampled images are refused: one sample. */
      ctx->values[intr->dest.ssa.index] = pan_ir_mov(&ctx->b, pan_ir_imm(1));
      break;
   default:
      if (!strncmp(name, "image_deref_", 12) || name[0] == 'b')
         pan_ir_from_nir_error(ctx,
                               "%s is unsupported: images must be "
                               "indices by the time they reach the "
                               "compiler",
                               name);
      else if (pan_ir_from_nir_atomic_op(intr->intrinsic) < 0)
         pan_ir_from_nir_error(ctx, "%s is unsupported", name);
      else
         image_atomic(ctx, intr);
      break;
   }
   return true;
}
