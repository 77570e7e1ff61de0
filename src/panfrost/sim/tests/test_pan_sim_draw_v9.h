/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The Valhall (v9) cases of test_pan_sim_draw.c, included by it for
 * PAN_ARCH 9 (they share its memory, frames, fragment job and reference
 * coverage).  A draw is one MALLOC_VERTEX job packed with the genxml
 * packers: position and varying shader environments (shader program
 * descriptors, FAU, resource tables with attribute and buffer
 * descriptors), the draw descriptor with its depth/stencil and blend
 * descriptors and fragment shader environment.  The shaders are the
 * stock compiler's output for G57, as our disassembler prints it.
 */

/* gl_Position = pos, viewport-transformed with u0..u5; stored through the
 * packet address LEA_BUF_IMM gives for r59. */
static const char va_vs_pos[] =
   "ld_attr_imm.v4.f32.slot0.wait0 {r0:4}, ^r60, ^r61, index:0, table:1\n"
   "frcp.f32 r3, ^r3\n"
   "fma.f32 r0, ^r0, r3, #0x0.neg\n"
   "fma.f32 r1, ^r1, r3, #0x0.neg\n"
   "fma.f32 r2, ^r2, r3, #0x0.neg\n"
   "fma.f32 r0, ^r0, u0, u1\n"
   "fma.f32 r1, ^r1, u2, u3\n"
   "fma.f32 r2, ^r2, u4, u5\n"
   "lea_buf_imm.slot1.wait1 {r4:2}, ^r59, table:13, index:0\n"
   "store.i128.istream.slot2.end {r0:4}, ^r4, offset:0\n";

/* Prepended to va_vs_pos: gl_PointSize = 3.0 (binary16), stored at
 * r59 + 4. */
static const char va_vs_psiz[] =
   "iadd_imm.i32 r0, r59, constant:4\n"
   "lea_buf_imm.slot0 {r0:2}, ^r0, table:13, index:0\n"
   "iadd_imm.i32.wait0 r2, #0x0, constant:16896\n"
   "store.i16.istream.slot1 {r2:1}, ^r0, offset:0\n";

/* The varying shader of "v = col": varying bytes 0..15 of the packet. */
static const char va_vs_vary[] =
   "ld_attr_imm.v4.f32.slot0 {r0:4}, ^r60, ^r61, index:1, table:1\n"
   "lea_buf_imm.slot1.wait01 {r4:2}, ^r59, table:13, index:0\n"
   "store.i128.estream.slot2.end {r0:4}, ^r4, offset:0\n";

/* gl_FragColor = v (highp), blended as binary32. */
static const char va_fs_vary[] =
   "ld_var_buf_imm.f32.slot0.v4.src_f32.center.store.wait0 {r0:4}, ^r61, "
   "index:0\n"
   "atest.wait {r60:1}, ^r60, r3, atest_datum.w0\n"
   "blend.slot2.v4.f32.end {r0:4}, blend_descriptor_0.w0, r60, target:0\n"
   "iadd_imm.i32 r48, #0x0, constant:0\n"
   "branchzi.eq.absolute #0x0, blend_descriptor_0.w1\n";

/* gl_FragColor = k (u0..u3).  The fixed-function BLEND branches past the
 * blend-shader call (which would jump to the descriptor's garbage
 * address), then a second BLEND ends the shader. */
static const char va_fs_const[] =
   "mov.i32 r0, u0\n"
   "mov.i32 r1, u1\n"
   "mov.i32 r2, u2\n"
   "mov.i32 r3, u3\n"
   "atest.wait {r60:1}, ^r60, r3, atest_datum.w0\n"
   "blend.slot0.v4.f32 {r0:4}, blend_descriptor_0.w0, r60, target:2\n"
   "iadd_imm.i32 r48, program_counter.w0, constant:8\n"
   "branchzi.eq.absolute #0x0, blend_descriptor_0.w1\n"
   "blend.slot1.v4.f32.end {r0:4}, blend_descriptor_1.w0, r60, target:0\n"
   "iadd_imm.i32 r48, #0x0, constant:0\n"
   "branchzi.eq.absolute #0x0, blend_descriptor_1.w1\n";

static uint64_t va_pos, va_pos_psiz, va_vary, va_fvary, va_fconst,
   va_fconst_auto;

static void
setup_v9(void)
{
   mem_reset();
   va_pos = assemble(va_vs_pos);
   char text[sizeof(va_vs_psiz) + sizeof(va_vs_pos)];
   snprintf(text, sizeof(text), "%s%s", va_vs_psiz, va_vs_pos);
   va_pos_psiz = assemble(text);
   va_vary = assemble(va_vs_vary);
   va_fvary = assemble(va_fs_vary);
   va_fconst = assemble(va_fs_const);
   /* The constant shader as the stock compiler emits it for untyped
    * (TGSI) colour outputs, e.g. the gallium blitter's: BLEND.auto. */
   char fauto[sizeof(va_fs_const) + 8];
   const char *from = va_fs_const, *at;
   size_t n = 0;
   while ((at = strstr(from, ".v4.f32")) != NULL) {
      n += (size_t)snprintf(fauto + n, sizeof(fauto) - n, "%.*s.v4.auto",
                            (int)(at - from), from);
      from = at + 7;
   }
   snprintf(fauto + n, sizeof(fauto) - n, "%s", from);
   va_fconst_auto = assemble(fauto);
}

struct vdraw {
   unsigned mode;
   unsigned nr; /* vertices */
   const float (*pos)[4];
   const float (*col)[4]; /* NULL: the constant shader */
   float color[4];
   const uint8_t *indices; /* 8-bit, restart 0xff */
   unsigned nr_indices, instances;
   int base_vertex;
   bool blend_add, depth_less, cull_back, first_provoking;
   bool point_size; /* the shader writes 3.0 */
   float line_width; /* lines: the primitive_size constant (0: 1) */
   /* BLEND.auto, and the conversion's register format left F16 (0) as
    * the stock v9 driver leaves it. */
   bool auto_regfmt;
   /* Multisampled rasterisation and the static sample mask (0: all). */
   bool msaa;
   uint16_t sample_mask;
};

static uint64_t
spd(uint64_t binary, unsigned stage, uint32_t preload)
{
   void *p;
   uint64_t va = alloc(pan_size(shader_program), 64, &p);
   pan_pack(p, shader_program, cfg)
   {
      cfg.stage = stage;
      cfg.register_allocation = MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
      cfg.preload.r48_r63 = preload;
      cfg.binary = binary;
   }
   return va;
}

/* A resource table of 12 entries, `count` descriptors of table `t` each. */
static uint64_t
resources(const uint64_t *tables, const unsigned *counts)
{
   uint8_t *p;
   uint64_t va = alloc(12 * pan_size(resource), 64, (void **)&p);
   memset(p, 0, 12 * pan_size(resource));
   for (unsigned t = 0; t < 12; ++t) {
      if (!counts[t])
         continue;
      pan_pack(p + t * pan_size(resource), resource, cfg)
      {
         cfg.address = tables[t];
         cfg.size = counts[t] * pan_size(buffer);
      }
   }
   return va | 12;
}

#define PRELOAD(r) (1u << ((r)-48))

static void
env(void *out, uint64_t shader, uint64_t res, uint64_t fau, unsigned fau_count)
{
   pan_pack(out, shader_environment, cfg)
   {
      cfg.shader = shader;
      cfg.resources = res;
      cfg.fau = fau;
      cfg.fau_count = fau_count;
   }
}

static uint64_t
emit_vdraw(const struct frame *f, const struct vdraw *d, unsigned index,
           uint64_t next)
{
   /* Attributes 0 (pos) and 1 (col), RGBA32F, buffers 0 and 1. */
   uint8_t *at, *bufs;
   uint64_t at_va = alloc(2 * pan_size(attribute), 64, (void **)&at);
   uint64_t buf_va = alloc(2 * pan_size(buffer), 64, (void **)&bufs);
   const void *data[2] = { d->pos, d->col ? d->col : d->pos };
   for (unsigned i = 0; i < 2; ++i) {
      pan_pack(at + i * pan_size(attribute), attribute, cfg)
      {
         cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D;
         cfg.frequency = MALI_ATTRIBUTE_FREQUENCY_VERTEX;
         cfg.format = pixel_format(MALI_FORMAT_RGBA32F);
         cfg.table = 2;
         cfg.buffer_index = i;
         cfg.strided.stride = 16;
         cfg.offset_enable = true;
      }
      pan_pack(bufs + i * pan_size(buffer), buffer, cfg)
      {
         cfg.address = buffer(data[i], 16 * d->nr);
         cfg.size = 16 * d->nr;
      }
   }
   uint64_t vres = resources((const uint64_t[12]){ 0, at_va, buf_va },
                             (const unsigned[12]){ 0, 2, 2 });
   const float vp_u[6] = { W / 2.0f, W / 2.0f, H / 2.0f, H / 2.0f, 0.5f, 0.5f };
   uint64_t vfau = buffer(vp_u, sizeof(vp_u));
   uint32_t vs_pre = PRELOAD(59) | PRELOAD(60) | PRELOAD(61);
   uint64_t pos_spd = spd(d->point_size ? va_pos_psiz : va_pos,
                          MALI_SHADER_STAGE_VERTEX, vs_pre);
   uint64_t vary_spd = spd(va_vary, MALI_SHADER_STAGE_VERTEX, vs_pre);

   /* Fragment state. */
   uint64_t ffau = buffer(d->color, 16);
   uint64_t fs_spd =
      spd(d->col           ? va_fvary
          : d->auto_regfmt ? va_fconst_auto
                           : va_fconst,
          MALI_SHADER_STAGE_FRAGMENT,
          PRELOAD(58) | PRELOAD(59) | PRELOAD(60) | PRELOAD(61));
   uint64_t fres = resources((const uint64_t[12]){ 0 },
                             (const unsigned[12]){ 0 });
   uint8_t *bl;
   uint64_t blend_va = alloc(2 * pan_size(blend), 64, (void **)&bl);
   for (unsigned rt = 0; rt < 2; ++rt) {
      pan_pack(bl + rt * pan_size(blend), blend, cfg)
      {
         cfg.enable = true;
         cfg.equation.rgb.a =
            d->blend_add ? MALI_BLEND_OPERAND_A_SRC : MALI_BLEND_OPERAND_A_ZERO;
         cfg.equation.rgb.b =
            d->blend_add ? MALI_BLEND_OPERAND_B_DEST : MALI_BLEND_OPERAND_B_SRC;
         cfg.equation.rgb.c = MALI_BLEND_OPERAND_C_ZERO;
         cfg.equation.rgb.invert_c = true;
         cfg.equation.alpha = cfg.equation.rgb;
         cfg.equation.color_mask = 0xf;
         /* Render target 1 does not exist: its BLEND stores nothing. */
         cfg.internal.mode = MALI_BLEND_MODE_FIXED_FUNCTION;
         cfg.internal.fixed_function.num_comps = 4;
         cfg.internal.fixed_function.rt = rt;
         cfg.internal.fixed_function.conversion.memory_format =
            pixel_format(MALI_FORMAT_RGBA8_UNORM);
         cfg.internal.fixed_function.conversion.register_format =
            d->auto_regfmt ? MALI_REGISTER_FILE_FORMAT_F16
                           : MALI_REGISTER_FILE_FORMAT_F32;
      }
      /* What a blend shader call would jump to: never taken. */
      ((uint32_t *)(bl + rt * pan_size(blend)))[3] |= 0x7f0;
   }
   void *ds;
   uint64_t ds_va = alloc(pan_size(depth_stencil), 64, &ds);
   pan_pack(ds, depth_stencil, cfg)
   {
      cfg.depth_function = d->depth_less ? MALI_FUNC_LESS : MALI_FUNC_ALWAYS;
      cfg.depth_write_enable = d->depth_less;
   }

   uint8_t *job;
   uint64_t va = alloc(pan_size(malloc_vertex_job), 128, (void **)&job);
   header(job, MALI_JOB_TYPE_MALLOC_VERTEX, index, next);
   unsigned count = d->indices ? d->nr_indices : d->nr;
   pan_section_pack(job, malloc_vertex_job, primitive, cfg)
   {
      cfg.draw_mode = d->mode;
      cfg.index_type = d->indices ? MALI_INDEX_TYPE_UINT8 : MALI_INDEX_TYPE_NONE;
      cfg.index_count = count;
      cfg.base_vertex_offset = (uint32_t)d->base_vertex;
      cfg.secondary_shader = d->col != NULL;
      cfg.restart.primitive_restart = d->indices
                                         ? MALI_PRIMITIVE_RESTART_IMPLICIT
                                         : MALI_PRIMITIVE_RESTART_NONE;
      if (d->point_size)
         cfg.point_size_array_format = MALI_POINT_SIZE_ARRAY_FORMAT_FP16;
   }
   pan_section_pack(job, malloc_vertex_job, instance_count, cfg)
      cfg.count = d->instances ? d->instances : 1;
   pan_section_pack(job, malloc_vertex_job, allocation, cfg)
   {
      cfg.vertex_packet_stride = d->col ? 32 : 16;
      cfg.vertex_attribute_stride = d->col ? 16 : 0;
   }
   pan_section_pack(job, malloc_vertex_job, tiler, cfg) cfg.address = f->tiler;
   pan_section_pack(job, malloc_vertex_job, scissor, cfg)
   {
      cfg.scissor_maximum_x = W - 1;
      cfg.scissor_maximum_y = H - 1;
   }
   pan_section_pack(job, malloc_vertex_job, primitive_size, cfg)
      cfg.fixed.constant = d->line_width ? d->line_width : 1.0f;
   pan_section_pack(job, malloc_vertex_job, indices, cfg)
      cfg.address = d->indices ? buffer(d->indices, d->nr_indices) : 0;
   pan_section_pack(job, malloc_vertex_job, draw, cfg)
   {
      cfg.front_face_ccw = true;
      cfg.cull_back_face = d->cull_back;
      cfg.minimum_z = 0.0f;
      cfg.maximum_z = 1.0f;
      cfg.depth_stencil = ds_va;
      cfg.blend = blend_va;
      cfg.blend_count = 2;
      cfg.sample_mask = d->sample_mask ? d->sample_mask : 0xffff;
      cfg.multisample_enable = d->msaa;
      cfg.render_target_mask = 1;
   }
   env(pan_section_ptr(job, malloc_vertex_job, draw) + pan_size(draw) - 64,
       fs_spd, fres, ffau, 2);
   env(pan_section_ptr(job, malloc_vertex_job, position), pos_spd, vres, vfau,
       3);
   env(pan_section_ptr(job, malloc_vertex_job, varying), vary_spd, vres, vfau,
       3);
   pan_pack(cpu_of(f->tiler), tiler_context, cfg)
   {
      cfg.fb_width = W;
      cfg.fb_height = H;
      cfg.first_provoking_vertex = d->first_provoking;
   }
   return va;
}

static bool
render_v9(const struct frame *f, const struct vdraw *d, unsigned count)
{
   uint64_t jc = 0;
   for (unsigned i = count; i-- > 0;)
      jc = emit_vdraw(f, &d[i], 1 + i, jc);
   return run_draws(f, jc);
}

/* Exact coverage of two triangles with edges through pixel centres; the
 * constant shader's first BLEND branches past the blend-shader call. */
static void
test_v9_coverage(void)
{
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES,
                      .nr = 6,
                      .pos = cover_pos,
                      .color = { 1.0f, 0.5f, 0.25f, 1.0f } };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0x11223344, false);
   if (render_v9(&f, &d, 1))
      check_cover(&f, rgba8(d.color), 0x11223344u);
}

/* 4x multisampling, as test_msaa on v7: resolved, then a layer a sample
 * with all samples and with the static mask 0x5. */
static void
test_v9_msaa(void)
{
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES,
                      .nr = 3,
                      .pos = cover_pos,
                      .color = { 1, 1, 1, 1 },
                      .msaa = true };
   struct frame f;

   setup_v9();
   frame_msaa = MALI_MSAA_AVERAGE;
   emit_frame(&f, 0, false);
   frame_msaa = 0;
   if (!render_v9(&f, &d, 1))
      return;
   check_ms_resolved(&f);
   for (unsigned pass = 0; pass < 2; ++pass) {
      d.sample_mask = pass ? 0x5 : 0;
      setup_v9();
      frame_msaa = MALI_MSAA_LAYERED;
      emit_frame(&f, 0, false);
      frame_msaa = 0;
      if (!render_v9(&f, &d, 1))
         return;
      check_ms_layers(&f, pass ? 0x5 : 0xf);
   }
}

/* BLEND.auto (the stock blitter's shaders) takes binary32 registers for
 * a unorm target whatever the conversion's register format field says:
 * reading them as binary16 made glReadPixels of AFBC targets black. */
static void
test_v9_blend_auto(void)
{
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES,
                      .nr = 6,
                      .pos = cover_pos,
                      .color = { 0.0f, 1.0f, 0.0f, 1.0f },
                      .auto_regfmt = true };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0x11223344, false);
   if (render_v9(&f, &d, 1))
      check_cover(&f, rgba8(d.color), 0x11223344u);
}

/* Perspective-correct colours from the varying shader's packets (w 1, 2,
 * 4), within one 8-bit step of the reference. */
static void
test_v9_varyings(void)
{
   float pos[3][4];
   persp_pos(pos);
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES,
                      .nr = 3,
                      .pos = (const float(*)[4])pos,
                      .col = persp_col };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0, false);
   if (render_v9(&f, &d, 1))
      check_perspective(&f, (const float(*)[4])pos);
}

/* An 8-bit indexed strip with a restart and a base vertex, two instances
 * (the second fully covering the first), flat colour from the provoking
 * vertex's packet through the varying shader. */
static void
test_v9_indexed_instances(void)
{
   /* Vertices 2.. are the quad; 0, 1 are never referenced (garbage). */
   const float pos[6][4] = {
      { 9, 9, 9, 0 },  { 9, 9, 9, 0 },
      { NX(4), NY(4), 0, 1 },  { NX(28), NY(4), 0, 1 },
      { NX(4), NY(28), 0, 1 }, { NX(28), NY(28), 0, 1 },
   };
   const float col[6][4] = { { 0 },          { 0 },
                             { 0.5f, 0, 0, 1 }, { 0.5f, 0, 0, 1 },
                             { 0.5f, 0, 0, 1 }, { 0.5f, 0, 0, 1 } };
   /* Two triangles (0 1 2) and (2 1 3) of the quad, split by a restart. */
   const uint8_t idx[7] = { 0, 1, 2, 0xff, 2, 1, 3 };
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLE_STRIP,
                      .nr = 6,
                      .pos = pos,
                      .col = col,
                      .indices = idx,
                      .nr_indices = 7,
                      .base_vertex = 2,
                      .instances = 2,
                      .blend_add = true };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0, false);
   if (!render_v9(&f, &d, 1))
      return;
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         bool in = x >= 4 && x < 28 && y >= 4 && y < 28;
         inside += in;
         /* Drawn once per instance: 0.5 + 0.5 red, alpha saturated. */
         bad += f.rt[y * W + x] != (in ? 0xff0000ffu : 0);
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ (each should be drawn twice)", bad);
   PAN_EXPECT_EQ(inside, 24 * 24);
}

/* Depth test: a far triangle drawn after a near one loses where they
 * overlap; the depth buffer holds the near depth. */
static void
test_v9_depth_blend(void)
{
   const float near[3][4] = { { NX(2), NY(2), -0.5f, 1 },
                              { NX(30), NY(2), -0.5f, 1 },
                              { NX(2), NY(30), -0.5f, 1 } };
   const float far[3][4] = { { NX(30), NY(30), 0.5f, 1 },
                             { NX(2), NY(30), 0.5f, 1 },
                             { NX(30), NY(2), 0.5f, 1 } };
   struct vdraw d[2] = {
      { .mode = MALI_DRAW_MODE_TRIANGLES, .nr = 3, .pos = near,
        .color = { 1, 0, 0, 1 }, .depth_less = true },
      { .mode = MALI_DRAW_MODE_TRIANGLES, .nr = 3, .pos = far,
        .color = { 0, 0, 1, 1 }, .depth_less = true },
   };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0, true);
   if (!render_v9(&f, d, 2))
      return;
   unsigned bad = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         double b[3];
         bool n = tri_covers(near, (const unsigned[]){ 0, 1, 2 }, x, y, b);
         bool fa = tri_covers(far, (const unsigned[]){ 0, 1, 2 }, x, y, b);
         uint32_t want = n ? 0xff0000ffu : fa ? 0xffff0000u : 0;
         float z = n ? 0.25f : fa ? 0.75f : 1.0f;
         bad += f.rt[y * W + x] != want || f.zs[y * W + x] != z;
      }
   }
   PAN_CHECK(bad == 0, "%u pixels with the wrong winner or depth", bad);
}

/* Points whose size the position shader writes (3.0 as binary16). */
static void
test_v9_points(void)
{
   const float win[2][2] = { { 6, 6 }, { 12.5f, 20.5f } };
   float pos[2][4];
   window_points(pos, win, 2);
   struct vdraw d = { .mode = MALI_DRAW_MODE_POINTS,
                      .nr = 2,
                      .pos = (const float(*)[4])pos,
                      .color = { 1, 1, 0, 1 },
                      .point_size = true };
   struct frame f;

   setup_v9();
   emit_frame(&f, 0, false);
   if (!render_v9(&f, &d, 1))
      return;
   unsigned inside = check_squares(&f, win, 2, 0xff00ffffu);
   PAN_EXPECT_EQ(inside, 18);
}

/* The pre-frame shader as the stock driver builds it (a shader without
 * IDVS): table varying 0, the frame's rectangle corners as four vertices,
 * interpolated and written as the colour.  Here red = x / W, green =
 * y / H, blue 0.25, alpha 1. */
static const char va_fs_preframe[] =
   "ld_var_imm.slot0.v4.f32.center.store.wait0 {r0:4}, ^r61, table:1, "
   "index:0\n"
   "atest.wait {r60:1}, ^r60, r3, atest_datum.w0\n"
   "blend.slot2.v4.f32.end {r0:4}, blend_descriptor_0.w0, r60, target:0\n"
   "iadd_imm.i32 r48, #0x0, constant:0\n"
   "branchzi.eq.absolute #0x0, blend_descriptor_0.w1\n";

static uint64_t
emit_preframe_v9(void)
{
   static const float coord[4][4] = {
      { 0, 0, 0.25f, 1 }, { 1, 0, 0.25f, 1 }, { 0, 1, 0.25f, 1 },
      { 1, 1, 0.25f, 1 }
   };
   uint8_t *at, *bufp, *bl, *dcds;
   uint64_t at_va = alloc(pan_size(attribute), 64, (void **)&at);
   uint64_t buf_va = alloc(pan_size(buffer), 64, (void **)&bufp);
   pan_pack(at, attribute, cfg)
   {
      cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D;
      cfg.frequency = MALI_ATTRIBUTE_FREQUENCY_VERTEX;
      cfg.format = pixel_format(MALI_FORMAT_RGBA32F);
      cfg.table = 2;
      cfg.strided.stride = 16;
   }
   pan_pack(bufp, buffer, cfg)
   {
      cfg.address = buffer(coord, sizeof(coord));
      cfg.size = sizeof(coord);
   }
   uint64_t res = resources((const uint64_t[12]){ 0, at_va, buf_va },
                            (const unsigned[12]){ 0, 1, 1 });
   uint64_t blend_va = alloc(pan_size(blend), 64, (void **)&bl);
   pan_pack(bl, blend, cfg)
   {
      cfg.enable = true;
      cfg.equation.rgb.a = MALI_BLEND_OPERAND_A_ZERO;
      cfg.equation.rgb.b = MALI_BLEND_OPERAND_B_SRC;
      cfg.equation.rgb.c = MALI_BLEND_OPERAND_C_ZERO;
      cfg.equation.rgb.invert_c = true;
      cfg.equation.alpha = cfg.equation.rgb;
      cfg.equation.color_mask = 0xf;
      cfg.internal.mode = MALI_BLEND_MODE_FIXED_FUNCTION;
      cfg.internal.fixed_function.num_comps = 4;
      cfg.internal.fixed_function.conversion.memory_format =
         pixel_format(MALI_FORMAT_RGBA8_UNORM);
      cfg.internal.fixed_function.conversion.register_format =
         MALI_REGISTER_FILE_FORMAT_F32;
   }
   uint64_t va = alloc(3 * pan_size(draw), 64, (void **)&dcds);
   memset(dcds, 0, 3 * pan_size(draw));
   pan_pack(dcds, draw, cfg)
   {
      cfg.blend = blend_va;
      cfg.blend_count = 1;
      cfg.render_target_mask = 1;
      cfg.sample_mask = 0xffff;
      cfg.maximum_z = 1.0f;
      cfg.shader.shader =
         spd(assemble(va_fs_preframe), MALI_SHADER_STAGE_FRAGMENT,
             PRELOAD(60) | PRELOAD(61));
      cfg.shader.resources = res;
   }
   return va;
}

/* A loaded frame whose pre-frame shader runs always (the stock driver's
 * table-varying shader over the frame's rectangle), then an additive
 * triangle over it. */
static void
test_v9_preframe(void)
{
   const float win[3][2] = { { 3, 3 }, { 29, 5 }, { 7, 27 } };
   float pos[3][4];
   window_points(pos, win, 3);
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES,
                      .nr = 3,
                      .pos = (const float(*)[4])pos,
                      .color = { 0.25f, 0.25f, 0.25f, 0.25f },
                      .blend_add = true };
   struct frame f;

   setup_v9();
   frame_preload = true;
   emit_frame(&f, 0xdeadbeef, false);
   frame_preload = false;
   for (unsigned i = 0; i < W * H; ++i)
      f.rt[i] = 0x10203040u + i;
   if (!render_v9(&f, &d, 1))
      return;
   unsigned bad = 0, inside = 0;
   for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
         uint32_t c[4] = { (uint32_t)lround((x + 0.5) * 255 / W),
                           (uint32_t)lround((y + 0.5) * 255 / H), 64, 255 };
         uint32_t add = 0;
         double b[3];
         if (tri_covers((const float(*)[4])pos, (const unsigned[]){ 0, 1, 2 },
                        x, y, b)) {
            inside++;
            add = 64;
         }
         uint32_t want = 0;
         for (unsigned k = 0; k < 4; ++k)
            want |= (c[k] + add > 255 ? 255 : c[k] + add) << (8 * k);
         bad += f.rt[y * W + x] != want;
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ from the pre-frame gradient (+ the "
                       "blend)", bad);
   PAN_CHECK(inside > 100, "only %u pixels inside", inside);
}

/* Lists, strips and loops of width 1 and 3 blended additively against
 * the reference lines, and a colour read from the packets along a
 * segment. */
static void
test_v9_lines(void)
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
         struct vdraw d = { .mode = modes[m],
                            .nr = n,
                            .pos = (const float(*)[4])pos,
                            .color = { 0.25f, 0.25f, 0.25f, 0.25f },
                            .blend_add = true,
                            .line_width = wi ? 3.0f : 1.0f };
         setup_v9();
         emit_frame(&f, 0, false);
         if (!render_v9(&f, &d, 1))
            return;
         unsigned drawn = check_lines(&f, win, modes[m], n, d.line_width);
         PAN_CHECK(drawn > (wi ? 150u : 50u), "only %u pixels drawn", drawn);
      }
   }

   const float col[2][4] = { { 1, 0, 0, 1 }, { 0, 0, 1, 0.5f } };
   window_points(pos, &line_list_win[4], 2);
   struct vdraw d = { .mode = MALI_DRAW_MODE_LINES,
                      .nr = 2,
                      .pos = (const float(*)[4])pos,
                      .col = col };
   setup_v9();
   emit_frame(&f, 0, false);
   if (render_v9(&f, &d, 1))
      check_line_colours(&f, &line_list_win[4], col, 0, 1);
}

/* A shader storing outside its packet faults naming the access. */
static void
test_v9_refusals(void)
{
   const float pos[3][4] = { { -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0, 1 } };
   char buf[2048];
   struct frame f;
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLES, .nr = 3, .pos = pos };
   uint64_t jc;

   /* The varying shader stores past the 16 varying bytes allocated. */
   d.col = pos;
   setup_v9();
   char text[sizeof(va_vs_vary) + 8];
   snprintf(text, sizeof(text), "%s", va_vs_vary);
   char *o = strstr(text, "offset:0");
   o[7] = '8';
   va_vary = assemble(text);
   emit_frame(&f, 0, false);
   jc = emit_vdraw(&f, &d, 1, 0);
   PAN_EXPECT_EQ(run_captured(jc, buf, sizeof(buf)), -1);
   PAN_EXPECT_STR_HAS(buf, "outside its vertex packet");
}
