/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws on the simulator, Bifrost v6/v7 and Valhall v9 (compiled with
 * -DPAN_ARCH=N; the v9 cases are in test_pan_sim_draw_v9.h): vertex job +
 * tiler job (v9: one malloc-vertex job) + fragment job packed with the
 * genxml packers,
 * shaders assembled from the text the stock compiler's binaries
 * disassemble to (a viewport-transforming vertex shader, a constant-colour
 * and a message-preloaded varying fragment shader).  Every pixel is
 * compared with a reference computed here: coverage from edge functions
 * in double precision with the fill rule stated through the edge's
 * gradient, perspective-correct colours, depth-test winners.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if PAN_ARCH >= 9
#include "isa/pan_isa_va.h"
#else
#include "isa/pan_isa_bi.h"
#endif
#include "pan_genxml.h"
#include "pan_sim.h"
#include "pan_sim_line_ref.h"
#include "util/pan_test_util.h"

#define MEM_VA 0x30000000ull
#define MEM_B (1u << 20)
#define W 32
#define H 32

static uint8_t *mem;
static uint64_t used;
static uint64_t rng = 0xd7a3ull;
static struct pan_sim_region region;

static void
mem_reset(void)
{
   if (!mem)
      mem = malloc(MEM_B);
   pan_test_fill_random(&rng, mem, MEM_B);
   used = 0;
   region = (struct pan_sim_region){ MEM_VA, MEM_B, mem, "test", true };
}

static uint64_t
alloc(unsigned size_B, unsigned align_B, void **cpu)
{
   used = (used + align_B - 1) & ~(uint64_t)(align_B - 1);
   uint64_t va = MEM_VA + used;
   if (cpu)
      *cpu = mem + used;
   used += size_B;
   if (used > MEM_B)
      abort();
   return va;
}

static void *
cpu_of(uint64_t va)
{
   return mem + (va - MEM_VA);
}

static uint64_t
assemble(const char *text)
{
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";

#if PAN_ARCH >= 9
   int bad = pan_va_assemble(text, strlen(text), &out, err, sizeof(err));
#else
   int bad = pan_bi_assemble(text, strlen(text), &out, err, sizeof(err));
#endif
   if (bad) {
      pan_test_fail("cannot assemble (%s):\n%s", err, text);
      pan_isa_bytes_free(&out);
      return 0;
   }
   void *cpu;
   uint64_t va = alloc((unsigned)out.size_B + 64, 128, &cpu);
   memcpy(cpu, out.data, out.size_B);
   memset((uint8_t *)cpu + out.size_B, 0, 64);
   pan_isa_bytes_free(&out);
   return va;
}

#if PAN_ARCH <= 7
/* The stock compiler's vertex shader for "gl_Position = pos; v = col":
 * position divided by w and viewport-transformed with u0..u2 (scale,
 * offset), 1/w in w, stored at r58:r59; the colour stored to varying 1. */
static const char vs_text[] =
   "clause flow=nbtb prefetch wait=1 msg=attribute next_msg=store\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:0 | p0=r61 "
   "p1=r62\n"
   "clause msg=store flow=nbtb\n"
   "    nop t0 | frcp.f32.widen0=none r3, r3 | p0=r3\n"
   "    fma.f32.neg r0, r0, t1, #0 | nop t1 | p0=r0\n"
   "    fma.f32.neg r1, r1, r3, #0 | nop t1 | p0=r1 p1=r3\n"
   "    fma.f32.neg r2, r2, r3, #0 | nop t1 | p0=r2 p1=r3\n"
   "    fma.f32 r0, r0, u0.w0, u0.w1 | nop t1 | p0=r0 fau=u0\n"
   "    fma.f32 r1, r1, u1.w0, u1.w1 | nop t1 | p0=r1 fau=u1\n"
   "    fma.f32 r2, r2, u2.w0, u2.w1 | nop t1 | p0=r2 fau=u2\n"
   "    nop t0 | st_cvt.v4 t1, r58, r59, #0x0105e000 | p0=r58 p1=r59 fau=c0\n"
   "    const 0x0105e00000000000\n"
   "clause flow=nbtb prefetch msg=attribute next_msg=attribute\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:1 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch sr=4 wait=1 msg=attribute next_msg=store\n"
   "    nop t0 | lea_attr_imm t1, r61, r62, attribute_index:1 | p0=r61 "
   "p1=r62\n"
   "clause msg=store\n"
   "    nop t0 | st_cvt.v4 t1, r4, r5, r6 | p0=r4 p1=r5 p2=r6\n";

/* The same position part, then a = col, b = pos, c = col: varyings 1, 2,
 * 3 (different values, so that misplaced varyings show). */
static const char vs3_varyings_text[] =
   "clause flow=nbtb prefetch msg=attribute next_msg=attribute\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:1 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch sr=4 wait=1 msg=attribute next_msg=store\n"
   "    nop t0 | lea_attr_imm t1, r61, r62, attribute_index:1 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch msg=store next_msg=attribute\n"
   "    nop t0 | st_cvt.v4 t1, r4, r5, r6 | p0=r4 p1=r5 p2=r6\n"
   "clause flow=nbtb prefetch msg=attribute next_msg=attribute\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:0 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch sr=4 wait=1 msg=attribute next_msg=store\n"
   "    nop t0 | lea_attr_imm t1, r61, r62, attribute_index:2 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch msg=store next_msg=attribute\n"
   "    nop t0 | st_cvt.v4 t1, r4, r5, r6 | p0=r4 p1=r5 p2=r6\n"
   "clause flow=nbtb prefetch msg=attribute next_msg=attribute\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:1 | p0=r61 "
   "p1=r62\n"
   "clause flow=nbtb prefetch sr=4 wait=1 msg=attribute next_msg=store\n"
   "    nop t0 | lea_attr_imm t1, r61, r62, attribute_index:3 | p0=r61 "
   "p1=r62\n"
   "clause msg=store\n"
   "    nop t0 | st_cvt.v4 t1, r4, r5, r6 | p0=r4 p1=r5 p2=r6\n";

/* The stock compiler's "color = a * b.x + c" (highp): b.x by LD_VAR_IMM,
 * c and a by the two message preloads (r0-r3, r4-r7). */
static const char fs3_text[] =
   "clause flow=nbtb td prefetch sr=8 wait=65 msg=varying next_msg=atest\n"
   "    nop t0 | ld_var_imm.f32 t1, special0.w1, index:1\n"
   "clause flow=nbtb td prefetch sr=60 wait=193 msg=atest next_msg=blend\n"
   "    fma.f32 r3, r7, r8, r3 | nop t1 | p0=r7 p1=r8 p2=r3\n"
   "    nop t0 | atest r60, r60, t0 | p0=r60 fau=atest_datum\n"
   "clause td msg=blend\n"
   "    fma.f32 r0, r4, r8, r0 | nop t1 | p0=r4 p1=r8 p2=r0\n"
   "    fma.f32 r1, r5, r8, r1 | nop t1 | p0=r5 p1=r8 p2=r1\n"
   "    fma.f32 r2, r6, r8, r2 | nop t1 | p0=r6 p1=r8 p2=r2\n"
   "    nop t0 | blend r48, r60, blend_descriptor_0.w0, "
   "blend_descriptor_0.w1 | p0=r60 fau=blend_descriptor_0\n";

/* "color = c" with c in u0, u1 (binary32). */
static const char fs_const_text[] =
   "clause flow=nbtb td prefetch sr=60 wait=193 msg=atest next_msg=blend\n"
   "    nop t0 | mov.i32 r3, u1.w1 | fau=u1\n"
   "    nop t0 | atest r60, r60, t1 | p0=r60 fau=atest_datum\n"
   "clause td msg=blend\n"
   "    nop t0 | mov.i32 r2, u1.w0 | fau=u1\n"
   "    mov.i32 r0, u0.w0 | mov.i32 r1, u0.w1 | fau=u0\n"
   "    nop t0 | blend r48, r60, blend_descriptor_0.w0, "
   "blend_descriptor_0.w1 | p0=r60 fau=blend_descriptor_0\n"
   "    const 0x0000000000000000\n";

/* "color = v" (mediump): v arrives in r0, r1 as four fp16 by the
 * renderer state's message preload. */
static const char fs_vary_text[] =
   "clause flow=nbtb td prefetch sr=60 wait=193 msg=atest next_msg=blend\n"
   "    nop t0 | atest.h1 r60, r60, r1 | p0=r1 p1=r60 fau=atest_datum\n"
   "clause td msg=blend\n"
   "    nop t0 | blend r48, r60, blend_descriptor_0.w0, "
   "blend_descriptor_0.w1 | p0=r60 fau=blend_descriptor_0\n";

/* Flat varying 0 (the provoking vertex's); discards when its w < 0.5;
 * the colour is the 16 bytes at byte offset u0.w0 of uniform buffer
 * u0.w1.  The first two clauses are the stock compiler's. */
static const char fs_flat_ubo_text[] =
   "clause flow=nbtb td prefetch wait=1 msg=varying\n"
   "    nop t0 | ld_var_flat_imm.v4.d10=1 t1, index:0\n"
   "clause flow=nbtb td prefetch wait=1 next_msg=attribute\n"
   "    nop t0 | discard.f32.lt.d8=4 t1, r3, #0x3f000000 | p0=r3 fau=c0\n"
   "    const 0x3f00000000000000\n"
   "    const 0x3000000000000000\n"
   "clause flow=nbtb td prefetch wait=65 msg=attribute next_msg=atest\n"
   "    nop t0 | load.i128.ubo t1, u0.w0, u0.w1 | fau=u0\n"
   "clause flow=nbtb td prefetch sr=60 wait=193 msg=atest next_msg=blend\n"
   "    nop t0 | atest r60, r60, r3 | p0=r3 p1=r60 fau=atest_datum\n"
   "clause td msg=blend\n"
   "    nop t0 | blend r48, r60, blend_descriptor_0.w0, "
   "blend_descriptor_0.w1 | p0=r60 fau=blend_descriptor_0\n";

#endif

/* ---- frames and draws ---- */

struct frame {
   uint64_t fbd, tiler;
   uint32_t *rt; /* RGBA8 pixels */
   float *zs;    /* D32, NULL without depth */
};

static void
header(void *job, unsigned type, unsigned index, uint64_t next)
{
   pan_pack(job, job_header, cfg)
   {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = index;
      cfg.next = next;
   }
}

static unsigned
job_status(uint64_t job_va)
{
   pan_unpack(cpu_of(job_va), job_header, h);
   return h.exception_status;
}

/* Frames whose colour a pre-frame shader loads (the stock driver's way to
 * keep what is in memory) instead of clearing. */
static bool frame_preload;
#if PAN_ARCH <= 7
static uint64_t emit_preframe(void);
/* The pre-frame draw's descriptors outside the mapped memory (a frame the
 * simulator falls back to loading from memory). */
static bool frame_preframe_unmapped;
/* The pre-frame draw's blend descriptor disabled and OFF: it writes no
 * target, which then starts from its clear. */
static bool frame_preframe_off;
#endif
#if PAN_ARCH >= 9
static uint64_t emit_preframe_v9(void);
#endif
/* Frames whose depth/stencil buffer is D24S8 (depth frames only). */
static bool frame_d24s8;
/* Multisampled frames: 4 samples at the rotated-grid positions, the
 * colour target resolved (MALI_MSAA_AVERAGE) or kept a layer a sample
 * (MALI_MSAA_LAYERED, layers W * H * 4 bytes apart); 0: single sample. */
static unsigned frame_msaa;
#define MS_SAMPLES 4
/* The rotated 4x grid: sample positions in 1/256 pixel from the pixel's
 * top-left corner, as the sample location table holds them. */
static const uint16_t ms_pos[MS_SAMPLES][2] = {
   { 96, 32 }, { 224, 96 }, { 32, 160 }, { 160, 224 }
};

static void
emit_frame(struct frame *f, uint32_t clear, bool depth)
{
   uint8_t *p;
   unsigned size_B = pan_size(framebuffer) +
                     (depth ? pan_size(zs_crc_extension) : 0) +
                     pan_size(render_target);
   uint64_t va = alloc(size_B, 64, (void **)&p);
   uint8_t *next = p + pan_size(framebuffer);
   void *tc;

   f->tiler = alloc(pan_size(tiler_context), 64, &tc);
   memset(tc, 0, pan_size(tiler_context));
   unsigned layers = frame_msaa == MALI_MSAA_LAYERED ? MS_SAMPLES : 1;
   uint64_t rt_va = alloc(W * H * 4 * layers, 64, (void **)&f->rt);
   uint64_t locations = 0;
   if (frame_msaa) {
      void *table;
      locations = alloc(sizeof(ms_pos), 64, &table);
      memcpy(table, ms_pos, sizeof(ms_pos));
   }
   f->zs = NULL;
   pan_section_pack(p, framebuffer, parameters, cfg)
   {
      cfg.width = W;
      cfg.height = H;
      cfg.bound_max_x = W - 1;
      cfg.bound_max_y = H - 1;
      cfg.sample_count = frame_msaa ? MS_SAMPLES : 1;
      cfg.sample_pattern = frame_msaa ? MALI_SAMPLE_PATTERN_ROTATED_4X_GRID
                                      : MALI_SAMPLE_PATTERN_SINGLE_SAMPLED;
      cfg.sample_locations = locations;
      cfg.effective_tile_size = 256;
      cfg.color_buffer_allocation = 1024;
      cfg.render_target_count = 1;
      cfg.has_zs_crc_extension = depth;
      cfg.z_write_enable = depth;
      cfg.s_write_enable = depth && frame_d24s8;
      cfg.z_clear = 1.0f;
      cfg.tiler = f->tiler;
      if (frame_preload)
         cfg.pre_frame_0 = MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS;
#if PAN_ARCH <= 7
      if (frame_preload)
         cfg.frame_shader_dcds =
            frame_preframe_unmapped ? MEM_VA + MEM_B : emit_preframe();
#endif
#if PAN_ARCH >= 9
      if (frame_preload)
         cfg.frame_shader_dcds = emit_preframe_v9();
#endif
   }
   if (depth) {
      uint64_t zs_va = alloc(W * H * 4, 64, (void **)&f->zs);
      pan_pack(next, zs_crc_extension, cfg)
      {
         cfg.zs_write_format =
            frame_d24s8 ? MALI_ZS_FORMAT_D24S8 : MALI_ZS_FORMAT_D32;
         cfg.zs_block_format = MALI_BLOCK_FORMAT_LINEAR;
#if PAN_ARCH >= 9
         cfg.zs_writeback_base = zs_va;
         cfg.zs_writeback_row_stride = W * 4;
#else
         cfg.linear.zs_writeback_base = zs_va;
         cfg.linear.zs_writeback_row_stride = W * 4;
#endif
      }
      next += pan_size(zs_crc_extension);
   }
   pan_pack(next, render_target, cfg)
   {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.write_enable = true;
      cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.writeback_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9;
      cfg.rgb.base = rt_va;
      cfg.rgb.row_stride_B = W * 4;
      cfg.clear.color_0 = clear;
      if (frame_msaa) {
         cfg.writeback_msaa = frame_msaa;
         cfg.rgb.surface_stride_B = layers > 1 ? W * H * 4 : 0;
      }
   }
   f->fbd = va | MALI_FBD_TAG_IS_MFBD | (depth ? MALI_FBD_TAG_HAS_ZS_RT : 0);
}

static uint64_t
emit_fragment(const struct frame *f)
{
   void *job;
   uint64_t va = alloc(pan_size(fragment_job), 128, &job);

   header(job, MALI_JOB_TYPE_FRAGMENT, 1, 0);
   pan_section_pack(job, fragment_job, payload, cfg)
   {
      cfg.bound_max_x = (W - 1) / 16;
      cfg.bound_max_y = (H - 1) / 16;
      cfg.framebuffer = f->fbd;
   }
   return va;
}

static uint32_t
pixel_format(unsigned format)
{
   uint32_t w;
   pan_pack(&w, pixel_format, cfg)
   {
      cfg.format = format;
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
   }
   return w;
}

static uint64_t
buffer(const void *data, unsigned size_B)
{
   void *cpu;
   uint64_t va = alloc(size_B, 64, &cpu);
   memcpy(cpu, data, size_B);
   return va;
}

#if PAN_ARCH <= 7
enum blend_kind { BLEND_REPLACE, BLEND_ADD, BLEND_OPAQUE };

struct draw {
   unsigned mode; /* MALI_DRAW_MODE_* */
   unsigned nr;   /* vertices */
   const float (*pos)[4];
   const float (*col)[4];
   const uint16_t *indices; /* NULL: not indexed */
   unsigned nr_indices;
   bool varying_fs; /* the preloaded-varying shader */
   float color[4];  /* the constant shader's colour */
   enum blend_kind blend;
   unsigned depth_func; /* 0: always */
   bool depth_write;
   bool cull_back, front_ccw;
   unsigned attr_format; /* 0: RGBA32F */
   /* The flat/discard/UBO shader: uniform buffer 0 (16 vec4) and the byte
    * offset it reads. */
   const float (*ubo)[4];
   uint32_t ubo_offset;
   /* Three varyings a, b, c interleaved in one buffer (stride 48, offsets
    * 0, 16, 32) and the a * b.x + c shader. */
   bool three;
   /* Stencil test (func 0: off), both faces alike. */
   unsigned stencil_func, stencil_ref, stencil_pass_op;
   float point_size; /* points: the primitive_size constant; lines: width */
   bool line_first;  /* lines: flat_shading_vertex (the first provokes) */
   bool size_array;  /* an fp32 size array named (refused for lines) */
   /* Varying 1 has the constant format: the driver's output that no
    * stage reads, whose stores are dropped. */
   bool unread_varying;
   /* Multisampled rasterisation (at the sample positions) and the static
    * sample mask (0: all). */
   bool msaa;
   uint16_t sample_mask;
   /* The zs update operation is force early (GL's early fragment tests);
    * otherwise strong early, late for the discarding shader. */
   bool zs_early;
};

static unsigned
bits_for(unsigned v)
{
   unsigned b = 0;
   while ((1u << b) < v)
      b++;
   return b;
}

/* Workgroups (1, n, 1) of 1x1x1: n vertices, one instance.  Each field
 * holds its value minus one in as many bits as the value needs, so the
 * sizes and the x count (all 1) take none and the z count starts after
 * the vertex count. */
static void
pack_invocation(void *dst, unsigned n)
{
   pan_pack(dst, invocation, cfg)
   {
      cfg.invocations = n - 1;
      cfg.workgroups_z_shift = bits_for(n);
      cfg.thread_group_split = MALI_SPLIT_MIN_EFFICIENT;
   }
}

/* attribute_buffer[i]: 1D, stride 16 (buffer 1: buffer1_stride when
 * set), n elements. */
static unsigned buffer1_stride;

static uint64_t
buffers(const uint64_t *vas, unsigned count, unsigned n)
{
   uint8_t *p;
   uint64_t va = alloc(count * pan_size(attribute_buffer), 64, (void **)&p);
   for (unsigned i = 0; i < count; ++i) {
      pan_pack(p + i * pan_size(attribute_buffer), attribute_buffer, cfg)
      {
         cfg.type = MALI_ATTRIBUTE_TYPE_1D;
         unsigned stride = i == 1 && buffer1_stride ? buffer1_stride : 16;
         cfg.address = vas[i];
         cfg.stride = stride;
         cfg.size = stride * n;
      }
   }
   return va;
}

/* Attributes, or varyings (offsets given) packed as the stock driver does
 * on v6+: offset_enable clear, the offset used all the same. */
static uint64_t
attributes_at(const unsigned *buffer_index, const unsigned *offsets,
              unsigned count, unsigned format)
{
   uint8_t *p;
   uint64_t va = alloc(count * pan_size(attribute), 8, (void **)&p);
   for (unsigned i = 0; i < count; ++i) {
      pan_pack(p + i * pan_size(attribute), attribute, cfg)
      {
         cfg.buffer_index = buffer_index[i];
         cfg.format = pixel_format(format);
         if (offsets) {
            cfg.offset_enable = false;
            cfg.offset = offsets[i];
         }
      }
   }
   return va;
}

static uint64_t
attributes(const unsigned *buffer_index, unsigned count, unsigned format)
{
   return attributes_at(buffer_index, NULL, count, format);
}

static uint64_t vs_shader, vs3_shader, fs_const, fs_vary, fs_flat_ubo, fs3;

/* Vertex and tiler jobs of one draw, chained after `next`. */
/* Render target 0's blend descriptor, RGBA8: replace is
 * 0 + src * (1 - 0), add src + dest * (1 - 0); f16: the shader's colour
 * register format. */
static void
pack_blend(void *dst, enum blend_kind kind, bool f16)
{
   pan_pack(dst, blend, cfg)
   {
      cfg.enable = true;
      cfg.equation.rgb.a = kind == BLEND_ADD ? MALI_BLEND_OPERAND_A_SRC
                                             : MALI_BLEND_OPERAND_A_ZERO;
      cfg.equation.rgb.b = kind == BLEND_ADD ? MALI_BLEND_OPERAND_B_DEST
                                             : MALI_BLEND_OPERAND_B_SRC;
      cfg.equation.rgb.c = MALI_BLEND_OPERAND_C_ZERO;
      cfg.equation.rgb.invert_c = true;
      cfg.equation.alpha = cfg.equation.rgb;
      cfg.equation.color_mask = 0xf;
      cfg.internal.mode = kind == BLEND_OPAQUE ? MALI_BLEND_MODE_OPAQUE
                                               : MALI_BLEND_MODE_FIXED_FUNCTION;
      cfg.internal.fixed_function.num_comps = 4;
      cfg.internal.fixed_function.rt = 0;
      cfg.internal.fixed_function.conversion.memory_format =
         pixel_format(MALI_FORMAT_RGBA8_UNORM);
      cfg.internal.fixed_function.conversion.register_format =
         f16 ? MALI_REGISTER_FILE_FORMAT_F16 : MALI_REGISTER_FILE_FORMAT_F32;
   }
}

/* The whole frame as scissor. */
static uint64_t
emit_viewport(void)
{
   void *vp;
   uint64_t va = alloc(pan_size(viewport), 32, &vp);
   pan_pack(vp, viewport, cfg)
   {
      cfg.scissor_maximum_x = W - 1;
      cfg.scissor_maximum_y = H - 1;
   }
   return va;
}

static uint64_t
emit_draw(const struct frame *f, const struct draw *d, unsigned index,
          uint64_t next)
{
   const unsigned n = d->nr;
   unsigned afmt = d->attr_format ? d->attr_format : MALI_FORMAT_RGBA32F;

   /* Vertex inputs and outputs. */
   uint64_t in[2] = { buffer(d->pos, 16 * n), buffer(d->col, 16 * n) };
   uint64_t out[2] = { alloc(16 * n, 64, NULL), alloc(48 * n, 64, NULL) };
   uint64_t attr_bufs = buffers(in, 2, n);
   uint64_t attrs = attributes((const unsigned[]){ 0, 1 }, 2, afmt);
   buffer1_stride = d->three ? 48 : 16;
   uint64_t vary_bufs = buffers(out, 2, n);
   buffer1_stride = 0;
   uint64_t vs_varys =
      attributes((const unsigned[]){ 0, 1 }, 2, MALI_FORMAT_RGBA32F);
   uint64_t fs_varys =
      attributes((const unsigned[]){ 1 }, 1, MALI_FORMAT_RGBA32F);
   if (d->unread_varying) {
      pan_pack((uint8_t *)cpu_of(vs_varys) + pan_size(attribute), attribute,
               cfg)
      {
         cfg.buffer_index = 1;
         cfg.format = pixel_format(MALI_FORMAT_CONSTANT);
      }
   }
   if (d->three) {
      vs_varys = attributes_at((const unsigned[]){ 0, 1, 1, 1 },
                               (const unsigned[]){ 0, 0, 16, 32 }, 4,
                               MALI_FORMAT_RGBA32F);
      fs_varys =
         attributes_at((const unsigned[]){ 1, 1, 1 },
                       (const unsigned[]){ 0, 16, 32 }, 3, MALI_FORMAT_RGBA32F);
   }

   /* Viewport transform of the vertex shader: 32x32 pixels, depth [0, 1]. */
   const float vp_u[6] = { W / 2.0f, W / 2.0f, H / 2.0f, H / 2.0f, 0.5f, 0.5f };
   uint64_t vs_uniforms = buffer(vp_u, sizeof(vp_u));
   uint64_t fs_uniforms = buffer(d->color, 16);
   uint64_t ubos = 0;
   if (d->ubo) {
      const uint32_t u[4] = { d->ubo_offset, 0, 0, 0 };
      fs_uniforms = buffer(u, 16);
      uint64_t data = buffer(d->ubo, 16 * 16);
      void *desc;
      ubos = alloc(pan_size(uniform_buffer), 8, &desc);
      pan_pack(desc, uniform_buffer, cfg)
      {
         cfg.entries = 16;
         cfg.address = data;
      }
   }

   void *rsd;
   uint64_t vs_rsd = alloc(pan_size(renderer_state), 64, &rsd);
   pan_pack(rsd, renderer_state, cfg)
   {
      cfg.shader.shader = d->three ? vs3_shader : vs_shader;
      cfg.preload.vertex.vertex_id = true;
      cfg.preload.vertex.instance_id = true;
      cfg.preload.vertex.position_result_address_lo = true;
      cfg.preload.vertex.position_result_address_hi = true;
      cfg.preload.uniform_count = 3;
   }

   uint8_t *fs_state;
   uint64_t fs_rsd =
      alloc(pan_size(renderer_state) + pan_size(blend), 64, (void **)&fs_state);
   pan_pack(fs_state, renderer_state, cfg)
   {
      cfg.shader.shader = d->three        ? fs3
                          : d->ubo        ? fs_flat_ubo
                          : d->varying_fs ? fs_vary
                                          : fs_const;
      cfg.preload.fragment.coverage = true;
      cfg.preload.uniform_count = 2;
      cfg.properties.zs_update_operation =
         d->zs_early ? MALI_PIXEL_KILL_FORCE_EARLY
         : d->ubo    ? MALI_PIXEL_KILL_FORCE_LATE
                     : MALI_PIXEL_KILL_STRONG_EARLY;
      cfg.multisample_misc.depth_function =
         d->depth_func ? d->depth_func : MALI_FUNC_ALWAYS;
      cfg.multisample_misc.depth_write_mask = d->depth_write;
      cfg.multisample_misc.sample_mask =
         d->sample_mask ? d->sample_mask : 0xffff;
      cfg.multisample_misc.multisample_enable = d->msaa;
      if (d->stencil_func) {
         cfg.stencil_mask_misc.stencil_enable = true;
         cfg.stencil_mask_misc.stencil_mask_front = 0xff;
         cfg.stencil_mask_misc.stencil_mask_back = 0xff;
         cfg.stencil_front.reference_value = d->stencil_ref;
         cfg.stencil_front.mask = 0xff;
         cfg.stencil_front.compare_function = d->stencil_func;
         cfg.stencil_front.stencil_fail = MALI_STENCIL_OP_KEEP;
         cfg.stencil_front.depth_fail = MALI_STENCIL_OP_KEEP;
         cfg.stencil_front.depth_pass = d->stencil_pass_op;
         cfg.stencil_back = cfg.stencil_front;
      }
      if (d->three) {
         /* c into r0-r3, a into r4-r7 */
         cfg.fragment_messages.message_preload_1.type =
            MALI_MESSAGE_TYPE_LD_VAR;
         cfg.fragment_messages.message_preload_1.ld_var.varying_index = 2;
         cfg.fragment_messages.message_preload_1.ld_var.num_components = 4;
         cfg.fragment_messages.message_preload_2.type =
            MALI_MESSAGE_TYPE_LD_VAR;
         cfg.fragment_messages.message_preload_2.ld_var.varying_index = 0;
         cfg.fragment_messages.message_preload_2.ld_var.num_components = 4;
      } else if (d->varying_fs) {
         cfg.fragment_messages.message_preload_1.type =
            MALI_MESSAGE_TYPE_LD_VAR;
         cfg.fragment_messages.message_preload_1.ld_var.varying_index = 0;
         cfg.fragment_messages.message_preload_1.ld_var.register_format =
            MALI_MESSAGE_PRELOAD_REGISTER_FORMAT_F16;
         cfg.fragment_messages.message_preload_1.ld_var.num_components = 4;
      }
   }
   pack_blend(fs_state + pan_size(renderer_state), d->blend, d->varying_fs);
   uint64_t vp_va = emit_viewport();

   uint64_t idx_va = 0;
   if (d->indices)
      idx_va = buffer(d->indices, 2 * d->nr_indices);

   void *job;
   uint64_t tiler_va = alloc(pan_size(tiler_job), 64, &job);
   header(job, MALI_JOB_TYPE_TILER, index + 1, next);
   pack_invocation(pan_section_ptr(job, tiler_job, invocation), n);
   pan_section_pack(job, tiler_job, primitive, cfg)
   {
      cfg.draw_mode = d->mode;
      cfg.index_type =
         d->indices ? MALI_INDEX_TYPE_UINT16 : MALI_INDEX_TYPE_NONE;
      cfg.index_count = d->indices ? d->nr_indices : n;
      cfg.indices = idx_va;
      cfg.primitive_restart = d->indices ? MALI_PRIMITIVE_RESTART_IMPLICIT
                                         : MALI_PRIMITIVE_RESTART_NONE;
      if (d->size_array)
         cfg.point_size_array_format = MALI_POINT_SIZE_ARRAY_FORMAT_FP32;
   }
   pan_section_pack(job, tiler_job, primitive_size, cfg)
   {
      cfg.fixed.constant = d->point_size;
   }
   pan_section_pack(job, tiler_job, tiler, cfg) { cfg.address = f->tiler; }
   pan_section_pack(job, tiler_job, draw, cfg)
   {
      cfg.flat_shading_vertex = d->line_first;
      cfg.position = out[0];
      cfg.state = fs_rsd;
      cfg.push_uniforms = fs_uniforms;
      cfg.uniform_buffers = ubos;
      cfg.varyings = fs_varys;
      cfg.varying_buffers = vary_bufs;
      cfg.viewport = vp_va;
      cfg.front_face_ccw = d->front_ccw;
      cfg.cull_back_face = d->cull_back;
   }

   uint64_t vertex_va = alloc(pan_size(compute_job), 64, &job);
   header(job, MALI_JOB_TYPE_VERTEX, index, tiler_va);
   pack_invocation(pan_section_ptr(job, compute_job, invocation), n);
   pan_section_pack(job, compute_job, parameters, cfg) {}
   pan_section_pack(job, compute_job, draw, cfg)
   {
      cfg.state = vs_rsd;
      cfg.push_uniforms = vs_uniforms;
      cfg.attributes = attrs;
      cfg.attribute_buffers = attr_bufs;
      cfg.varyings = vs_varys;
      cfg.varying_buffers = vary_bufs;
      cfg.position = out[0];
   }
   return vertex_va;
}

/* The colour pre-frame draw: the constant shader writing grey 0.25 (RGBA8
 * 0x40404040) over the frame's rectangle (four window-space vertices, a
 * strip, as the stock driver's). */
static uint64_t
emit_preframe(void)
{
   static const float rect[4][4] = {
      { 0, 0, 0, 1 }, { W, 0, 0, 1 }, { 0, H, 0, 1 }, { W, H, 0, 1 }
   };
   static const float grey[4] = { 0.25f, 0.25f, 0.25f, 0.25f };
   uint8_t *fs_state;
   uint64_t rsd =
      alloc(pan_size(renderer_state) + pan_size(blend), 64, (void **)&fs_state);
   pan_pack(fs_state, renderer_state, cfg)
   {
      cfg.shader.shader = fs_const;
      cfg.preload.fragment.coverage = true;
      cfg.preload.uniform_count = 2;
      cfg.multisample_misc.depth_function = MALI_FUNC_ALWAYS;
      cfg.multisample_misc.sample_mask = 0xffff;
   }
   pack_blend(fs_state + pan_size(renderer_state), BLEND_REPLACE, false);
   if (frame_preframe_off) {
      pan_pack(fs_state + pan_size(renderer_state), blend, cfg)
      {
         cfg.enable = false;
         cfg.internal.mode = MALI_BLEND_MODE_OFF;
      }
   }
   uint8_t *dcds;
   uint64_t va = alloc(3 * pan_size(draw), 64, (void **)&dcds);
   memset(dcds, 0, 3 * pan_size(draw));
   pan_pack(dcds, draw, cfg)
   {
      cfg.position = buffer(rect, sizeof(rect));
      cfg.state = rsd;
      cfg.push_uniforms = buffer(grey, sizeof(grey));
      cfg.viewport = emit_viewport();
   }
   return va;
}

#endif

static int
run(uint64_t jc, FILE *log)
{
   struct pan_sim_space space = { &region, 1 };
   return pan_sim_run_chain(PAN_ARCH, &space, jc, log, NULL);
}

/* run() with the simulator's messages into buf (NUL-terminated). */
static int
run_captured(uint64_t jc, char *buf, unsigned size)
{
   memset(buf, 0, size);
   FILE *log = fmemopen(buf, size - 1, "w");
   int r = run(jc, log);
   fclose(log);
   return r;
}

/* Run the draws' chain jc then the fragment job (another chain), as a
 * driver submits them. */
static bool
run_draws(const struct frame *f, uint64_t jc)
{
   FILE *log = fopen("/dev/null", "w");
   int r1 = run(jc, log);
   int r2 = run(emit_fragment(f), log);
   fclose(log);
   PAN_EXPECT_EQ(r1, 0);
   PAN_EXPECT_EQ(r2, 0);
   return r1 == 0 && r2 == 0;
}

#if PAN_ARCH <= 7
static void
setup(void)
{
   mem_reset();
   vs_shader = assemble(vs_text);
   fs_const = assemble(fs_const_text);
   fs_vary = assemble(fs_vary_text);
   fs_flat_ubo = assemble(fs_flat_ubo_text);
   fs3 = assemble(fs3_text);
   /* The position part of vs_text, then three varyings. */
   char text[sizeof(vs_text) + sizeof(vs3_varyings_text)];
   const char *cut = strstr(vs_text, "clause flow=nbtb prefetch msg=attribute "
                                     "next_msg=attribute");
   snprintf(text, sizeof(text), "%.*s%s", (int)(cut - vs_text), vs_text,
            vs3_varyings_text);
   vs3_shader = assemble(text);
}

/* Emit the draws and run them. */
static bool
render(const struct frame *f, const struct draw *d, unsigned count)
{
   uint64_t jc = 0;
   for (unsigned i = count; i-- > 0;)
      jc = emit_draw(f, &d[i], 1 + 2 * i, jc);
   return run_draws(f, jc);
}

#endif

/* ---- references ---- */

/* Window coordinates of a clip-space position, rounded as the vertex
 * shader does (multiply by 1/w, then one fused multiply-add). */
static void
window(const float p[4], double *x, double *y, float *z, float *inv_w)
{
   float rw = 1.0f / p[3];
   *x = fmaf(p[0] * rw, W / 2.0f, W / 2.0f);
   *y = fmaf(p[1] * rw, H / 2.0f, H / 2.0f);
   *z = fmaf(p[2] * rw, 0.5f, 0.5f);
   *inv_w = rw;
}

/*
 * Whether pixel (px, py)'s centre is inside the triangle; then its
 * screen-space barycentrics.  A centre on an edge counts when the
 * interior grows towards +x from it, or, along a horizontal edge,
 * towards +y.
 */
static bool
ref_covers_at(const double x[3], const double y[3], double cx, double cy,
              double b[3])
{
   double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
   double s = area > 0 ? 1 : -1;

   if (area == 0)
      return false;
   for (unsigned i = 0; i < 3; ++i) {
      unsigned a = (i + 1) % 3, c = (i + 2) % 3;
      double e =
         s * ((x[c] - x[a]) * (cy - y[a]) - (y[c] - y[a]) * (cx - x[a]));
      double ddx = -s * (y[c] - y[a]), ddy = s * (x[c] - x[a]);
      if (e < 0 || (e == 0 && !(ddx > 0 || (ddx == 0 && ddy > 0))))
         return false;
      b[i] = e / (s * area);
   }
   return true;
}

static bool
ref_covers(const double x[3], const double y[3], int px, int py, double b[3])
{
   return ref_covers_at(x, y, px + 0.5, py + 0.5, b);
}

static uint32_t
rgba8(const float c[4])
{
   uint32_t v = 0;
   for (unsigned i = 0; i < 4; ++i) {
      float x = c[i] < 0 ? 0 : c[i] > 1 ? 1 : c[i];
      v |= (uint32_t)lrintf(x * 255.0f) << (8 * i);
   }
   return v;
}

static bool
tri_covers(const float (*pos)[4], const unsigned v[3], int px, int py,
           double b[3])
{
   double x[3], y[3];
   float z, iw;
   for (unsigned i = 0; i < 3; ++i)
      window(pos[v[i]], &x[i], &y[i], &z, &iw);
   return ref_covers(x, y, px, py, b);
}

/* How many of pixel (px, py)'s samples (ms_pos) the triangle covers: bit
 * i for sample i. */
static unsigned
ref_samples(const float (*pos)[4], const unsigned v[3], int px, int py)
{
   double x[3], y[3], b[3];
   float z, iw;
   unsigned mask = 0;
   for (unsigned i = 0; i < 3; ++i)
      window(pos[v[i]], &x[i], &y[i], &z, &iw);
   for (unsigned i = 0; i < MS_SAMPLES; ++i) {
      if (ref_covers_at(x, y, px + ms_pos[i][0] / 256.0,
                        py + ms_pos[i][1] / 256.0, b))
         mask |= 1u << i;
   }
   return mask;
}

/* ---- cases ---- */

/* NDC of a window coordinate (exact for multiples of 1/16). */
#define NX(x) (((x)-W / 2.0f) / (W / 2.0f))
#define NY(y) (((y)-H / 2.0f) / (H / 2.0f))

/* The two triangles of the coverage cases, one with edges through pixel
 * centres (fill rule). */
static const float cover_pos[6][4] = {
   { NX(2.25f), NY(3.5f), 0, 1 },  { NX(29.75f), NY(9.125f), 0, 1 },
   { NX(11.5f), NY(28.0f), 0, 1 }, { NX(4.5f), NY(20.5f), 0, 1 },
   { NX(20.5f), NY(20.5f), 0, 1 }, { NX(4.5f), NY(30.5f), 0, 1 },
};

/* Every pixel: `want` inside cover_pos's triangles, `clear` outside. */
static void
check_cover(const struct frame *f, uint32_t want, uint32_t clear)
{
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         bool in =
            tri_covers(cover_pos, (const unsigned[]){ 0, 1, 2 }, x, y, b) ||
            tri_covers(cover_pos, (const unsigned[]){ 3, 4, 5 }, x, y, b);
         inside += in;
         bad += f->rt[y * W + x] != (in ? want : clear);
      }
   }
   PAN_CHECK(bad == 0, "%u of %u pixels differ from the reference coverage",
             bad, W * H);
   PAN_CHECK(inside > 200, "only %u pixels inside", inside);
}

/* A 4x frame with cover_pos's first triangle in white over black,
 * resolved: every pixel is the mean of its samples (k of 4 covered:
 * k * 255 / 4 rounded). */
static void
check_ms_resolved(const struct frame *f)
{
   const unsigned tri[3] = { 0, 1, 2 };
   unsigned bad = 0, partial = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         unsigned k =
            (unsigned)__builtin_popcount(ref_samples(cover_pos, tri, x, y));
         uint32_t v = (uint32_t)lrint(k * 255 / 4.0);
         partial += k > 0 && k < MS_SAMPLES;
         bad += f->rt[y * W + x] != (v | v << 8 | v << 16 | v << 24);
      }
   }
   PAN_CHECK(bad == 0, "%u resolved pixels differ from the sample mean", bad);
   PAN_CHECK(partial > 20, "only %u partly covered pixels", partial);
}

/* The same kept a layer a sample: white exactly on the covered samples
 * the sample mask lets through. */
static void
check_ms_layers(const struct frame *f, unsigned mask)
{
   const unsigned tri[3] = { 0, 1, 2 };
   unsigned bad = 0, written = 0;
   for (unsigned s = 0; s < MS_SAMPLES; ++s) {
      for (int y = 0; y < H; ++y) {
         for (int x = 0; x < W; ++x) {
            unsigned m = ref_samples(cover_pos, tri, x, y) & mask;
            bool in = (m >> s) & 1;
            written += in;
            bad += f->rt[s * W * H + y * W + x] != (in ? 0xffffffffu : 0);
         }
      }
   }
   PAN_CHECK(bad == 0, "sample mask 0x%x: %u samples differ", mask, bad);
   PAN_CHECK(written > 400, "only %u samples written", written);
}

/* Clip-space positions (z 0, w 1) of the window points win[0..n). */
static void
window_points(float (*pos)[4], const float (*win)[2], unsigned n)
{
   for (unsigned i = 0; i < n; ++i) {
      pos[i][0] = NX(win[i][0]);
      pos[i][1] = NY(win[i][1]);
      pos[i][2] = 0;
      pos[i][3] = 1;
   }
}

/* Every pixel: `want` inside the 3x3 squares centred on win[0..n), 0
 * outside; returns how many are inside. */
static unsigned
check_squares(const struct frame *f, const float (*win)[2], unsigned n,
              uint32_t want)
{
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         bool in = false;
         for (unsigned i = 0; i < n; ++i) {
            /* Distance of the centre from the point, in half pixels. */
            int dx = 2 * x + 1 - (int)(2 * win[i][0]);
            int dy = 2 * y + 1 - (int)(2 * win[i][1]);
            in |= dx >= -3 && dx < 3 && dy >= -3 && dy < 3;
         }
         inside += in;
         bad += f->rt[y * W + x] != (in ? want : 0);
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ from the squares", bad);
   return inside;
}

/* ---- lines ---- */

/* Window points of the line cases: a strip or loop through the first
 * four; three separate segments (a horizontal through pixel centres, a
 * steep one, a shallow one) as a list of six.  Multiples of 1/4 pixel. */
static const float line_strip_win[4][2] = {
   { 2.25f, 3.5f }, { 28.75f, 9.25f }, { 20.5f, 27.75f }, { 5.5f, 18.25f }
};
static const float line_list_win[6][2] = {
   { 1.5f, 1.5f },   { 30.5f, 1.5f },  { 3.25f, 30.0f },
   { 9.75f, 4.5f },  { 12.0f, 20.0f }, { 30.0f, 29.0f },
};

/* The segments a draw of n vertices makes in `mode` (vertex pairs). */
static unsigned
line_segments(unsigned mode, unsigned n, unsigned seg[][2])
{
   unsigned k = 0;
   if (mode == MALI_DRAW_MODE_LINES) {
      for (unsigned i = 0; i + 1 < n; i += 2, ++k)
         seg[k][0] = i, seg[k][1] = i + 1;
      return k;
   }
   for (unsigned i = 0; i + 1 < n; ++i, ++k)
      seg[k][0] = i, seg[k][1] = i + 1;
   if (mode == MALI_DRAW_MODE_LINE_LOOP)
      seg[k][0] = n - 1, seg[k][1] = 0, ++k;
   return k;
}

/* Every pixel drawn additively with (0.25, 0.25, 0.25, 0.25) as many
 * times as the reference rasteriser's segments cover it; returns how many
 * pixels are drawn. */
static unsigned
check_lines(const struct frame *f, const float (*win)[2], unsigned mode,
            unsigned n, float width)
{
   unsigned seg[8][2], nr = line_segments(mode, n, seg);
   unsigned bad = 0, close = 0, drawn = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         unsigned count = 0;
         for (unsigned s = 0; s < nr; ++s) {
            const float *a = win[seg[s][0]], *b = win[seg[s][1]];
            enum ref_line_verdict v = ref_line_covers(
               a[0], a[1], b[0], b[1], width, x + 0.5, y + 0.5);
            close += v == REF_LINE_CLOSE;
            count += v == REF_LINE_IN;
         }
         drawn += count > 0;
         uint32_t got = f->rt[y * W + x];
         int want = (int)lrint(count * 0.25 * 255);
         for (unsigned c = 0; c < 4; ++c)
            bad += abs((int)((got >> (8 * c)) & 0xff) - want) > 1;
      }
   }
   PAN_CHECK(close == 0, "%u centres too close to call", close);
   PAN_CHECK(bad == 0, "mode %u width %g: %u channels differ from the "
             "reference lines", mode, width, bad);
   return drawn;
}

/* Colours interpolated along segment a -> b (w = 1): every drawn pixel
 * holds col[a] + t * (col[b] - col[a]) within one 8-bit step. */
static void
check_line_colours(const struct frame *f, const float (*win)[2],
                   const float (*col)[4], unsigned a, unsigned b)
{
   unsigned bad = 0, drawn = 0, worst = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         uint32_t got = f->rt[y * W + x];
         enum ref_line_verdict v =
            ref_line_covers(win[a][0], win[a][1], win[b][0], win[b][1], 1,
                            x + 0.5, y + 0.5);
         if (v != REF_LINE_IN) {
            bad += got != 0;
            continue;
         }
         drawn++;
         double t = ref_line_t(win[a][0], win[a][1], win[b][0], win[b][1],
                               x + 0.5, y + 0.5);
         for (unsigned c = 0; c < 4; ++c) {
            double want = col[a][c] + t * (col[b][c] - col[a][c]);
            unsigned d = (unsigned)abs((int)lrint(want * 255) -
                                       (int)((got >> (8 * c)) & 0xff));
            worst = d > worst ? d : worst;
         }
      }
   }
   PAN_CHECK(bad == 0, "%u pixels off the line written", bad);
   PAN_CHECK(drawn >= 18, "only %u pixels drawn", drawn);
   PAN_CHECK(worst <= 1, "colour off by %u / 255 along the line", worst);
}

/* The perspective case: a triangle at w = 1, 2, 4 with a colour a
 * vertex. */
static const float persp_w[3] = { 1.0f, 2.0f, 4.0f };
static const float persp_col[3][4] = { { 1, 0, 0, 1 },
                                       { 0, 1, 0, 0.5f },
                                       { 0, 0, 1, 0 } };

static void
persp_pos(float pos[3][4])
{
   static const float win[3][2] = { { 3.0f, 2.5f },
                                    { 30.0f, 12.0f },
                                    { 9.0f, 30.0f } };
   for (unsigned i = 0; i < 3; ++i) {
      pos[i][0] = NX(win[i][0]) * persp_w[i];
      pos[i][1] = NY(win[i][1]) * persp_w[i];
      pos[i][2] = 0;
      pos[i][3] = persp_w[i];
   }
}

/* Every pixel: nothing outside the triangle, the perspective-correct
 * colour within one 8-bit step inside. */
static void
check_perspective(const struct frame *f, const float (*pos)[4])
{
   unsigned bad = 0, inside = 0, worst = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         uint32_t got = f->rt[y * W + x];
         if (!tri_covers(pos, (const unsigned[]){ 0, 1, 2 }, x, y, b)) {
            bad += got != 0;
            continue;
         }
         inside++;
         double wt[3], sum = 0;
         for (unsigned i = 0; i < 3; ++i)
            sum += wt[i] = b[i] / persp_w[i];
         for (unsigned c = 0; c < 4; ++c) {
            double v = 0;
            for (unsigned i = 0; i < 3; ++i)
               v += wt[i] / sum * persp_col[i][c];
            int want = (int)lrint(v * 255.0);
            int have = (int)((got >> (8 * c)) & 0xff);
            unsigned diff = (unsigned)abs(want - have);
            worst = diff > worst ? diff : worst;
         }
      }
   }
   PAN_CHECK(bad == 0, "%u pixels outside the triangle written", bad);
   PAN_CHECK(inside > 200, "only %u pixels inside", inside);
   PAN_CHECK(worst <= 1,
             "colour off by %u / 255 from the perspective-correct "
             "reference",
             worst);
}

#if PAN_ARCH <= 7
static const float zero_col[8][4];

/* Constant colour: exact coverage of two triangles, one of them with
 * edges through pixel centres (fill rule). */
static void
test_coverage(void)
{
   const float col[6][4] = { 0 };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 6,
      .pos = cover_pos,
      .col = col,
      .color = { 1.0f, 0.5f, 0.25f, 1.0f },
   };
   struct frame f;

   setup();
   emit_frame(&f, 0x11223344, false);
   if (!render(&f, &d, 1))
      return;
   uint32_t want_in = rgba8(d.color);
   check_cover(&f, want_in, 0x11223344u);
   /* The fill rule at work on the second triangle: centres on its top edge
    * (row 20) and its left edge (column 4) are in, the row above and the
    * column left of it out. */
   PAN_EXPECT_EQ(f.rt[20 * W + 4], want_in);
   PAN_EXPECT_EQ(f.rt[20 * W + 6], want_in);
   PAN_EXPECT_EQ(f.rt[25 * W + 4], want_in);
   PAN_EXPECT_EQ(f.rt[19 * W + 6], 0x11223344u);
   PAN_EXPECT_EQ(f.rt[25 * W + 3], 0x11223344u);
}

/* The same draw with the varying the vertex shader stores given the
 * constant format: the store is dropped, the draw renders, and the
 * varying buffer keeps its contents. */
static void
test_unread_varying(void)
{
   const float col[6][4] = { { 1234.5f, 2, 3, 4 } };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 6,
      .pos = cover_pos,
      .col = col,
      .color = { 0.25f, 0.5f, 1.0f, 1.0f },
      .unread_varying = true,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0x11223344, false);
   uint64_t before = used;
   if (!render(&f, &d, 1))
      return;
   check_cover(&f, rgba8(d.color), 0x11223344u);
   /* col[0].x (1234.5f) is in the attribute buffer only. */
   unsigned found = 0;
   for (uint64_t o = before; o + 4 <= used; o += 4) {
      uint32_t v;
      memcpy(&v, mem + o, 4);
      found += v == 0x449a5000u;
   }
   PAN_EXPECT_EQ(found, 1); /* the attribute buffer's own copy */
}

/* A strip of two triangles sharing a diagonal through pixel centres (or
 * the same square as one quad, vertices 0 1 3 2), blended additively:
 * every pixel of the square is drawn exactly once. */
static void
shared_edge(bool quad)
{
   static const uint16_t quad_order[4] = { 0, 1, 3, 2 };
   const float pos[4][4] = {
      { NX(4.5f), NY(4.5f), 0, 1 },
      { NX(28.5f), NY(4.5f), 0, 1 },
      { NX(4.5f), NY(28.5f), 0, 1 },
      { NX(28.5f), NY(28.5f), 0, 1 },
   };
   struct draw d = {
      .mode = quad ? MALI_DRAW_MODE_QUADS : MALI_DRAW_MODE_TRIANGLE_STRIP,
      .nr = 4,
      .pos = pos,
      .col = zero_col,
      .color = { 0.25f, 0.25f, 0.25f, 0.25f },
      .blend = BLEND_ADD,
      .indices = quad ? quad_order : NULL,
      .nr_indices = quad ? 4 : 0,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (!render(&f, &d, 1))
      return;
   unsigned bad = 0, once = 0, ref_twice = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         bool t0 = tri_covers(pos, (const unsigned[]){ 0, 1, 2 }, x, y, b);
         bool t1 = tri_covers(pos, (const unsigned[]){ 2, 1, 3 }, x, y, b);
         ref_twice += t0 && t1;
         uint32_t want = (t0 || t1) ? 0x40404040u : 0;
         once += f.rt[y * W + x] == 0x40404040u;
         bad += f.rt[y * W + x] != want;
      }
   }
   PAN_EXPECT_EQ(ref_twice, 0);
   PAN_CHECK(bad == 0, "%u pixels drawn twice, never or outside", bad);
   PAN_EXPECT_EQ(once, 24 * 24);
}

static void
test_shared_edge(void)
{
   shared_edge(false);
}

static void
test_quad(void)
{
   shared_edge(true);
}

/* Perspective-correct interpolation of a colour varying (w = 1, 2, 4),
 * through the fp16 message preload. */
static void
test_varyings(void)
{
   float pos[3][4];
   persp_pos(pos);
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 3,
      .pos = (const float(*)[4])pos,
      .col = persp_col,
      .varying_fs = true,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (render(&f, &d, 1))
      check_perspective(&f, (const float(*)[4])pos);
}

/* Three varyings interleaved in one buffer (offsets with offset_enable
 * clear, as the stock driver packs them), two message preloads and an
 * LD_VAR_IMM: colour = a * b.x + c with a = c the interpolated vertex
 * colour and b the interpolated clip-space position. */
static void
test_three_varyings(void)
{
   const float pos[3][4] = { { NX(18) * 2, NY(2) * 2, 0, 2 },
                             { NX(30), NY(10), 0, 1 },
                             { NX(20) * 4, NY(30) * 4, 0, 4 } };
   const float col[3][4] = { { 0.5f, 0.25f, 0, 0.5f },
                             { 0, 0.5f, 0.25f, 0.25f },
                             { 0.25f, 0, 0.5f, 0 } };
   const float w[3] = { 2, 1, 4 };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 3,
      .pos = pos,
      .col = col,
      .three = true,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (!render(&f, &d, 1))
      return;
   unsigned bad = 0, inside = 0, worst = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         uint32_t got = f.rt[y * W + x];
         if (!tri_covers(pos, (const unsigned[]){ 0, 1, 2 }, x, y, b)) {
            bad += got != 0;
            continue;
         }
         inside++;
         double wt[3], sum = 0, v[4] = { 0 }, bx = 0;
         for (unsigned i = 0; i < 3; ++i)
            sum += wt[i] = b[i] / w[i];
         for (unsigned i = 0; i < 3; ++i) {
            bx += wt[i] / sum * pos[i][0];
            for (unsigned c = 0; c < 4; ++c)
               v[c] += wt[i] / sum * col[i][c];
         }
         for (unsigned c = 0; c < 4; ++c) {
            double r = v[c] * bx + v[c];
            int want = (int)lrint((r > 1 ? 1 : r) * 255.0);
            int have = (int)((got >> (8 * c)) & 0xff);
            unsigned diff = (unsigned)abs(want - have);
            worst = diff > worst ? diff : worst;
         }
      }
   }
   PAN_CHECK(bad == 0, "%u pixels outside the triangle written", bad);
   PAN_CHECK(inside > 100, "only %u pixels inside", inside);
   PAN_CHECK(worst <= 1, "colour off by %u / 255", worst);
}

/* Two overlapping triangles at depths 0.75 and 0.25 with LESS: the near
 * one wins in either order; the depth buffer keeps the nearest depth. */
static void
test_depth(void)
{
   const float far_pos[3][4] = { { NX(2), NY(2), 0.5f, 1 },
                                 { NX(30), NY(2), 0.5f, 1 },
                                 { NX(2), NY(30), 0.5f, 1 } };
   const float near_pos[3][4] = { { NX(4), NY(8), -0.5f, 1 },
                                  { NX(30), NY(8), -0.5f, 1 },
                                  { NX(16), NY(30), -0.5f, 1 } };
   const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };

   for (unsigned order = 0; order < 2; ++order) {
      struct draw d[2] = {
         { .mode = MALI_DRAW_MODE_TRIANGLES,
           .nr = 3,
           .pos = far_pos,
           .col = zero_col,
           .depth_func = MALI_FUNC_LESS,
           .depth_write = true },
         { .mode = MALI_DRAW_MODE_TRIANGLES,
           .nr = 3,
           .pos = near_pos,
           .col = zero_col,
           .depth_func = MALI_FUNC_LESS,
           .depth_write = true },
      };
      memcpy(d[0].color, red, 16);
      memcpy(d[1].color, green, 16);
      if (order) {
         struct draw t = d[0];
         d[0] = d[1];
         d[1] = t;
      }
      struct frame f;
      setup();
      emit_frame(&f, 0, true);
      if (!render(&f, d, 2))
         return;
      unsigned bad = 0, overlap = 0;
      for (int y = 0; y < H; ++y) {
         for (int x = 0; x < W; ++x) {
            double b[3];
            bool in_far =
               tri_covers(far_pos, (const unsigned[]){ 0, 1, 2 }, x, y, b);
            bool in_near =
               tri_covers(near_pos, (const unsigned[]){ 0, 1, 2 }, x, y, b);
            overlap += in_far && in_near;
            uint32_t want = in_near ? rgba8(green) : in_far ? rgba8(red) : 0;
            float want_z = in_near ? 0.25f : in_far ? 0.75f : 1.0f;
            bad += f.rt[y * W + x] != want || f.zs[y * W + x] != want_z;
         }
      }
      PAN_CHECK(bad == 0, "order %u: %u pixels with a wrong colour or depth",
                order, bad);
      PAN_CHECK(overlap > 50, "only %u pixels overlap", overlap);
   }
}

/* Stencil: a first triangle writes 1 (ALWAYS, REPLACE), a larger second
 * one draws only where the stencil equals 1 and increments it there. */
static void
test_stencil(void)
{
   const float small[3][4] = { { NX(4), NY(4), 0, 1 },
                               { NX(20), NY(6), 0, 1 },
                               { NX(8), NY(22), 0, 1 } };
   const float big[3][4] = { { NX(1), NY(1), 0, 1 },
                             { NX(31), NY(1), 0, 1 },
                             { NX(1), NY(31), 0, 1 } };
   struct draw d[2] = {
      { .mode = MALI_DRAW_MODE_TRIANGLES,
        .nr = 3,
        .pos = small,
        .col = zero_col,
        .color = { 1, 0, 0, 1 },
        .stencil_func = MALI_FUNC_ALWAYS,
        .stencil_ref = 1,
        .stencil_pass_op = MALI_STENCIL_OP_REPLACE },
      { .mode = MALI_DRAW_MODE_TRIANGLES,
        .nr = 3,
        .pos = big,
        .col = zero_col,
        .color = { 0, 1, 0, 1 },
        .stencil_func = MALI_FUNC_EQUAL,
        .stencil_ref = 1,
        .stencil_pass_op = MALI_STENCIL_OP_INCR_SAT },
   };
   struct frame f;

   setup();
   frame_d24s8 = true;
   emit_frame(&f, 0, true);
   frame_d24s8 = false;
   if (!render(&f, d, 2))
      return;
   unsigned bad = 0, inside = 0;
   const uint32_t *zs = (const uint32_t *)f.zs;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         bool in = tri_covers(small, (const unsigned[]){ 0, 1, 2 }, x, y, b);
         inside += in;
         bad += f.rt[y * W + x] != (in ? 0xff00ff00u : 0) ||
                zs[y * W + x] != ((in ? 2u : 0u) << 24 | 0xffffffu);
      }
   }
   PAN_CHECK(bad == 0, "%u pixels with a wrong colour or stencil", bad);
   PAN_CHECK(inside > 100, "only %u pixels inside", inside);
}

/* Back faces culled: of two triangles of opposite winding only the
 * counter-clockwise one (front with front_face_ccw) is drawn. */
static void
test_culling(void)
{
   const float pos[6][4] = {
      { NX(2), NY(2), 0, 1 },   { NX(14), NY(2), 0, 1 },
      { NX(2), NY(14), 0, 1 },  { NX(18), NY(18), 0, 1 },
      { NX(18), NY(30), 0, 1 }, { NX(30), NY(18), 0, 1 },
   };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 6,
      .pos = pos,
      .col = zero_col,
      .color = { 1, 1, 1, 1 },
      .blend = BLEND_OPAQUE,
      .cull_back = true,
      .front_ccw = true,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (!render(&f, &d, 1))
      return;
   /* Seen with rows growing downwards, as the hardware and Gallium count
    * windings, the first is clockwise (a back face), the second
    * counter-clockwise. */
   PAN_EXPECT_EQ(f.rt[4 * W + 4], 0);
   PAN_EXPECT_EQ(f.rt[20 * W + 20], 0xffffffffu);
}

/* An indexed strip with a restart: two separate quads. */
static void
test_indexed_restart(void)
{
   const float pos[8][4] = {
      { NX(2), NY(2), 0, 1 },   { NX(12), NY(2), 0, 1 },
      { NX(2), NY(12), 0, 1 },  { NX(12), NY(12), 0, 1 },
      { NX(18), NY(18), 0, 1 }, { NX(28), NY(18), 0, 1 },
      { NX(18), NY(28), 0, 1 }, { NX(28), NY(28), 0, 1 },
   };
   const uint16_t idx[9] = { 0, 1, 2, 3, 0xffff, 4, 5, 6, 7 };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLE_STRIP,
      .nr = 8,
      .pos = pos,
      .col = zero_col,
      .indices = idx,
      .nr_indices = 9,
      .color = { 0, 0, 1, 1 },
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (!render(&f, &d, 1))
      return;
   unsigned bad = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         bool in = (x >= 2 && x < 12 && y >= 2 && y < 12) ||
                   (x >= 18 && x < 28 && y >= 18 && y < 28);
         bad += f.rt[y * W + x] != (in ? 0xffff0000u : 0);
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ from the two squares", bad);
}

/* A loaded (not cleared) frame, the additive blend adding to it inside
 * the triangle.  On v6/v7 its pre-frame shader (a constant colour, run
 * always) is shaded: every pixel starts from that colour, whatever memory
 * held.  On v9 the pre-frame shader is taken as a load of memory. */
enum preload_start { START_MEMORY, START_SHADED, START_CLEAR };

static void
check_preload(enum preload_start start)
{
   const float pos[3][4] = { { NX(3), NY(3), 0, 1 },
                             { NX(29), NY(5), 0, 1 },
                             { NX(7), NY(27), 0, 1 } };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 3,
      .pos = pos,
      .col = zero_col,
      .color = { 0.25f, 0.25f, 0.25f, 0.25f },
      .blend = BLEND_ADD,
   };
   struct frame f;

   setup();
   frame_preload = true;
   emit_frame(&f, 0xdeadbeef, false);
   frame_preload = false;
   for (unsigned i = 0; i < W * H; ++i)
      f.rt[i] = 0x10203040u + i;
   if (!render(&f, &d, 1))
      return;
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         uint32_t old = start == START_SHADED  ? 0x40404040u
                        : start == START_CLEAR ? 0xdeadbeefu
                                               : 0x10203040u + (uint32_t)(y * W + x);
         uint32_t want = old;
         if (tri_covers(pos, (const unsigned[]){ 0, 1, 2 }, x, y, b)) {
            inside++;
            want = 0;
            for (unsigned c = 0; c < 4; ++c) {
               unsigned v = ((old >> (8 * c)) & 0xff) + 64;
               want |= (v > 255 ? 255 : v) << (8 * c);
            }
         }
         bad += f.rt[y * W + x] != want;
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ from memory (+ the blend)", bad);
   PAN_CHECK(inside > 100, "only %u pixels inside", inside);
}

static void
test_preload(void)
{
   check_preload(PAN_ARCH <= 7 ? START_SHADED : START_MEMORY);
}

#if PAN_ARCH <= 7
/* Fallback: a pre-frame draw the simulator cannot read loads memory. */
static void
test_preload_unmapped(void)
{
   frame_preframe_unmapped = true;
   check_preload(START_MEMORY);
   frame_preframe_unmapped = false;
}

/* A pre-frame draw whose blend descriptor is OFF leaves its target to the
 * clear. */
static void
test_preload_off(void)
{
   frame_preframe_off = true;
   check_preload(START_CLEAR);
   frame_preframe_off = false;
}
#endif

/* Flat varyings from the provoking vertex, discard (no colour, no depth
 * write) and a uniform-buffer colour: a near triangle whose first vertex
 * says discard, then a far one drawn over the whole of it.  With the near
 * draw's depth/stencil update forced early, its depth is written before
 * the shader discards, and hides the far one. */
static void
flat_discard_ubo(bool zs_early)
{
   const float pos[3][4] = { { NX(2), NY(2), -0.5f, 1 },
                             { NX(30), NY(4), -0.5f, 1 },
                             { NX(6), NY(30), -0.5f, 1 } };
   float far_pos[3][4];
   /* w of the first (provoking) vertex decides; the others would keep. */
   const float discard_col[3][4] = { { 0, 0, 0, 0.25f },
                                     { 0, 0, 0, 1 },
                                     { 0, 0, 0, 1 } };
   const float keep_col[3][4] = { { 0, 0, 0, 1 },
                                  { 0, 0, 0, 0.25f },
                                  { 0, 0, 0, 0.25f } };
   float ubo[16][4];
   for (unsigned i = 0; i < 16; ++i)
      for (unsigned c = 0; c < 4; ++c)
         ubo[i][c] = (float)((i * 4 + c) % 5) / 4.0f;
   memcpy(far_pos, pos, sizeof(pos));
   for (unsigned i = 0; i < 3; ++i)
      far_pos[i][2] = 0.5f;
   struct draw d[2] = {
      { .mode = MALI_DRAW_MODE_TRIANGLES,
        .nr = 3,
        .pos = pos,
        .col = discard_col,
        .ubo = (const float(*)[4])ubo,
        .ubo_offset = 16,
        .depth_func = MALI_FUNC_LESS,
        .depth_write = true,
        .zs_early = zs_early },
      { .mode = MALI_DRAW_MODE_TRIANGLES,
        .nr = 3,
        .pos = (const float(*)[4])far_pos,
        .col = keep_col,
        .ubo = (const float(*)[4])ubo,
        .ubo_offset = 16 * 7,
        .depth_func = MALI_FUNC_LESS,
        .depth_write = true },
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, true);
   if (!render(&f, d, 2))
      return;
   uint32_t want_in = rgba8(ubo[7]);
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         bool in = tri_covers(pos, (const unsigned[]){ 0, 1, 2 }, x, y, b);
         inside += in;
         bad += f.rt[y * W + x] != (in && !zs_early ? want_in : 0) ||
                f.zs[y * W + x] != (!in ? 1.0f : zs_early ? 0.25f : 0.75f);
      }
   }
   PAN_CHECK(bad == 0,
             "%u pixels differ (discarded colour or depth "
             "written, wrong uniform)",
             bad);
   PAN_CHECK(inside > 200, "only %u pixels inside", inside);
   PAN_CHECK(want_in != 0 && want_in != rgba8(ubo[1]), "weak reference");
}

static void
test_flat_discard_ubo(void)
{
   flat_discard_ubo(false);
}

static void
test_discard_after_early_zs(void)
{
   flat_discard_ubo(true);
}

/* Points of a constant size: squares centred on the vertices, left and
 * top edges in; one at a pixel corner, one at a pixel centre, one
 * straddling the frame's edge. */
static void
test_points(void)
{
   const float win[3][2] = { { 6, 6 }, { 12.5f, 20.5f }, { 32, 2 } };
   float pos[3][4];
   window_points(pos, win, 3);
   struct draw d = {
      .mode = MALI_DRAW_MODE_POINTS,
      .nr = 3,
      .pos = (const float(*)[4])pos,
      .col = zero_col,
      .color = { 1, 1, 0, 1 },
      .point_size = 3.0f,
   };
   struct frame f;

   setup();
   emit_frame(&f, 0, false);
   if (!render(&f, &d, 1))
      return;
   unsigned inside = check_squares(&f, win, 3, 0xff00ffffu);
   /* Two full 3x3 squares and the one cut by the right edge (x 30, 31). */
   PAN_EXPECT_EQ(inside, 9 + 9 + 2 * 3);
}

/* Lists, strips and loops of width 1 and 3, blended additively: every
 * pixel as many times as the reference's segments cover it (joints of
 * strips and loops once); a colour interpolated along a segment; flat
 * varyings from the segment's first vertex or its last as
 * flat_shading_vertex says. */
static void
test_lines(void)
{
   static const unsigned modes[3] = { MALI_DRAW_MODE_LINES,
                                      MALI_DRAW_MODE_LINE_STRIP,
                                      MALI_DRAW_MODE_LINE_LOOP };
   float pos[6][4];
   struct frame f;

   for (unsigned m = 0; m < 3; ++m) {
      for (unsigned wi = 0; wi < 2; ++wi) {
         const float(*win)[2] = m ? line_strip_win : line_list_win;
         unsigned n = m ? 4 : 6;
         window_points(pos, win, n);
         struct draw d = {
            .mode = modes[m],
            .nr = n,
            .pos = (const float(*)[4])pos,
            .col = zero_col,
            .color = { 0.25f, 0.25f, 0.25f, 0.25f },
            .blend = BLEND_ADD,
            .point_size = wi ? 3.0f : 1.0f,
         };
         setup();
         emit_frame(&f, 0, false);
         if (!render(&f, &d, 1))
            return;
         unsigned drawn = check_lines(&f, win, modes[m], n, d.point_size);
         PAN_CHECK(drawn > (wi ? 150u : 50u), "only %u pixels drawn", drawn);
      }
   }

   /* Interpolated: one shallow segment, red to blue. */
   const float col[2][4] = { { 1, 0, 0, 1 }, { 0, 0, 1, 0.5f } };
   window_points(pos, &line_list_win[4], 2);
   struct draw d = {
      .mode = MALI_DRAW_MODE_LINES,
      .nr = 2,
      .pos = (const float(*)[4])pos,
      .col = col,
      .varying_fs = true,
   };
   setup();
   emit_frame(&f, 0, false);
   if (render(&f, &d, 1))
      check_line_colours(&f, &line_list_win[4], col, 0, 1);

   /* Flat: the shader discards when the provoking vertex's w is below
    * 0.5, here the first vertex's. */
   const float flat_col[2][4] = { { 0, 0, 0, 0.25f }, { 0, 0, 0, 1 } };
   float ubo[16][4] = { { 1, 1, 1, 1 } };
   for (unsigned first = 0; first < 2; ++first) {
      struct draw fd = {
         .mode = MALI_DRAW_MODE_LINES,
         .nr = 2,
         .pos = (const float(*)[4])pos,
         .col = flat_col,
         .ubo = (const float(*)[4])ubo,
         .line_first = first,
      };
      setup();
      emit_frame(&f, 0, false);
      if (!render(&f, &fd, 1))
         return;
      unsigned drawn = 0;
      for (unsigned i = 0; i < W * H; ++i)
         drawn += f.rt[i] == 0xffffffffu;
      if (first)
         PAN_CHECK(drawn == 0, "first vertex provoking: %u pixels drawn",
                   drawn);
      else
         PAN_CHECK(drawn > 15, "last vertex provoking: %u pixels drawn",
                   drawn);
   }
}

/* What is not modelled faults with a message naming it. */
static void
test_refusals(void)
{
   const float pos[3][4] = { { -1, -1, 0, 1 },
                             { 1, -1, 0, 1 },
                             { -1, 1, 0, 1 } };
   char buf[2048];
   struct frame f;

   /* An attribute format the simulator does not convert. */
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES, .nr = 3, .pos = pos, .col = zero_col
   };
   d.attr_format = MALI_FORMAT_R11F_G11F_B10F;
   setup();
   emit_frame(&f, 0, false);
   uint64_t jc = emit_draw(&f, &d, 1, 0);
   PAN_EXPECT_EQ(run_captured(jc, buf, sizeof(buf)), -1);
   PAN_EXPECT_EQ(job_status(jc), MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC);
   PAN_EXPECT_STR_HAS(buf, "r11f_g11f_b10f");
   PAN_EXPECT_STR_HAS(buf, "ld_attr_imm");

   /* Lines whose primitive names a size array: their width is only the
    * constant. */
   d = (struct draw){ .mode = MALI_DRAW_MODE_LINES, .nr = 2, .pos = pos,
                      .col = zero_col, .size_array = true };
   setup();
   emit_frame(&f, 0, false);
   jc = emit_draw(&f, &d, 1, 0);
   PAN_EXPECT_EQ(run_captured(jc, buf, sizeof(buf)), -1);
   PAN_EXPECT_STR_HAS(buf, "lines with a per-vertex size array");
}

#endif

#if PAN_ARCH >= 9
#include "test_pan_sim_draw_v9.h"
#endif

#if PAN_ARCH <= 7
/* 4x multisampling, the first triangle of cover_pos in white over black:
 * resolved, every pixel is the mean of its samples (k of 4 covered:
 * k * 255 / 4 rounded); kept a layer a sample, every sample is white
 * exactly where the reference covers it; with the static sample mask
 * 0x5 only samples 0 and 2 are written. */
static void
test_msaa(void)
{
   const float col[3][4] = { 0 };
   struct draw d = {
      .mode = MALI_DRAW_MODE_TRIANGLES,
      .nr = 3,
      .pos = cover_pos,
      .col = col,
      .color = { 1, 1, 1, 1 },
      .msaa = true,
   };
   struct frame f;

   setup();
   frame_msaa = MALI_MSAA_AVERAGE;
   emit_frame(&f, 0, false);
   frame_msaa = 0;
   if (!render(&f, &d, 1))
      return;
   check_ms_resolved(&f);

   for (unsigned pass = 0; pass < 2; ++pass) {
      d.sample_mask = pass ? 0x5 : 0;
      setup();
      frame_msaa = MALI_MSAA_LAYERED;
      emit_frame(&f, 0, false);
      frame_msaa = 0;
      if (!render(&f, &d, 1))
         return;
      check_ms_layers(&f, pass ? 0x5 : 0xf);
   }
}
#endif

int
main(void)
{
#if PAN_ARCH >= 9
   PAN_RUN_CASE(test_v9_coverage);
   PAN_RUN_CASE(test_v9_blend_auto);
   PAN_RUN_CASE(test_v9_varyings);
   PAN_RUN_CASE(test_v9_indexed_instances);
   PAN_RUN_CASE(test_v9_depth_blend);
   PAN_RUN_CASE(test_v9_points);
   PAN_RUN_CASE(test_v9_lines);
   PAN_RUN_CASE(test_v9_preframe);
   PAN_RUN_CASE(test_v9_refusals);
   PAN_RUN_CASE(test_v9_msaa);
#else
   PAN_RUN_CASE(test_coverage);
   PAN_RUN_CASE(test_unread_varying);
   PAN_RUN_CASE(test_shared_edge);
   PAN_RUN_CASE(test_quad);
   PAN_RUN_CASE(test_varyings);
   PAN_RUN_CASE(test_three_varyings);
   PAN_RUN_CASE(test_depth);
   PAN_RUN_CASE(test_culling);
   PAN_RUN_CASE(test_stencil);
   PAN_RUN_CASE(test_points);
   PAN_RUN_CASE(test_lines);
   PAN_RUN_CASE(test_indexed_restart);
   PAN_RUN_CASE(test_preload);
#if PAN_ARCH <= 7
   PAN_RUN_CASE(test_preload_unmapped);
   PAN_RUN_CASE(test_preload_off);
#endif
   PAN_RUN_CASE(test_flat_discard_ubo);
   PAN_RUN_CASE(test_discard_after_early_zs);
   PAN_RUN_CASE(test_refusals);
#if PAN_ARCH <= 7
   PAN_RUN_CASE(test_msaa);
#endif
#endif
   free(mem);
   return pan_test_summary("pan_sim_draw");
}
