/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The v9 draw path end to end, at the Gallium level: our pipe_screen on
 * the drm-shim (a mocked Mali-G57), shaders built with nir_builder and
 * compiled by the driver, an RGBA8 render target cleared and drawn to.
 *
 * Every submitted chain goes through the decoder (PAN_MESA_DEBUG=trace,
 * stderr captured): no decoder error is allowed, and the descriptor
 * fields the test can predict from the state it set are checked in the
 * printed text.  With --pixels the simulator must run the draws too: the
 * pixels are compared with a coverage reference computed here (the GL
 * top-left rule at pixel centres) and a barycentric colour reference.
 * --trace prints every captured trace.
 */

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/half_float.h"
#include "util/u_inlines.h"
#include "util/u_math.h"

#include "pan_test_screen.h"

/* Powers of two: NDC coordinates of vertices on a 1/16 pixel grid are
 * then exact, so the viewport transform lands exactly on the grid.
 */
#define W 64
#define H 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static bool check_pixels, show_trace;
/* --jm: the GPU draws with vertex and tiler jobs (v7), not IDVS. */
static bool jm;
/* The job each draw has one of in the trace. */
#define DRAW_JOB (jm ? "vertex" : "malloc_vertex")

/* A vertex in window coordinates (sixteenths of a pixel) and its colour. */
struct vtx {
   int x16, y16;
   float rgba[4];
};

static const float clear_rgba[4] = { 0.0f, 0.25f, 1.0f, 1.0f };
/* Exact in binary16 and away from the .5 ties of the unorm8 rounding. */
static const float const_rgba[4] = { 0.25f, 0.125f, 0.75f, 1.0f };

static uint8_t
unorm8(float f)
{
   return (uint8_t)(f * 255.0f + 0.5f);
}

/* ------------------------------------------------------------------ */
/* Trace capture                                                       */
/* ------------------------------------------------------------------ */

static char trace_path[64];
static int saved_stderr = -1;

/* Sends stderr (where the decoder prints) to a temporary file. */
static void
trace_begin(void)
{
   fflush(stderr);
   snprintf(trace_path, sizeof(trace_path), "/tmp/pan_draw_trace.XXXXXX");
   int fd = mkstemp(trace_path);
   if (fd < 0) {
      perror("mkstemp");
      exit(1);
   }
   saved_stderr = dup(2);
   dup2(fd, 2);
   close(fd);
}

/* Restores stderr and returns what was printed (to free). */
static char *
trace_end(void)
{
   fflush(stderr);
   dup2(saved_stderr, 2);
   close(saved_stderr);
   FILE *f = fopen(trace_path, "r");
   unlink(trace_path);
   if (!f)
      return strdup("");
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *text = calloc(1, n + 1);
   if (fread(text, 1, n, f) != (size_t)n)
      text[0] = 0;
   fclose(f);
   return text;
}

static unsigned
count(const char *text, const char *needle)
{
   unsigned n = 0;
   for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
      n++;
   return n;
}

/* Whether the trace holds a line that is exactly the text given once its
 * indentation is stripped ("field: value", as the decoder prints).
 */
static bool
has_line(const char *text, const char *want)
{
   size_t n = strlen(want);

   for (const char *p = text; (p = strstr(p, want)); p += n) {
      const char *q = p;
      while (q > text && q[-1] == ' ')
         q--;
      if ((q == text || q[-1] == '\n') && (p[n] == '\n' || !p[n]))
         return true;
   }
   return false;
}

#define CHECK_LINE(what, text, ...)                                            \
   do {                                                                        \
      char want_[128];                                                         \
      snprintf(want_, sizeof(want_), __VA_ARGS__);                             \
      CHECK(has_line(text, want_), "%s: trace has no line '%s'", what, want_); \
   } while (0)

/* Decoder errors in a trace. */
static unsigned
decoder_errors(const char *text)
{
   return count(text, "ERROR");
}

/* The jobs of a type in the trace ("job N @ 0x...: type" lines). */
static unsigned
jobs(const char *text, const char *type)
{
   unsigned n = 0;
   size_t len = strlen(type);

   for (const char *p = text; (p = strstr(p, "\njob ")); p++) {
      const char *end = strchr(p + 1, '\n');
      if (end && end - p > (ptrdiff_t)len + 2 &&
          !strncmp(end - len - 2, ": ", 2) && !strncmp(end - len, type, len))
         n++;
   }
   return n;
}

/* The number after the first "field" following the line that starts with
 * "section"; ~0 when there is none.
 */
static uint64_t
field_after(const char *text, const char *section, const char *field)
{
   const char *p = strstr(text, section);
   p = p ? strstr(p, field) : NULL;
   return p ? strtoull(p + strlen(field), NULL, 0) : ~0ull;
}

/* The address of job n of the trace ("job n @ 0x..."); 0 if absent. */
static uint64_t
job_address(const char *text, unsigned n)
{
   char job[32];
   snprintf(job, sizeof(job), "\njob %u @ ", n);
   const char *p = strstr(text, job);
   return p ? strtoull(p + strlen(job), NULL, 0) : 0;
}

/* The FAU dump line of the given words, as the decoder prints 16 bytes. */
static void
fau_line(char *out, size_t size, unsigned offset, const float *f, unsigned n)
{
   int at = snprintf(out, size, "%04x:", offset);
   const uint8_t *bytes = (const uint8_t *)f;
   for (unsigned i = 0; i < n * 4; ++i)
      at += snprintf(out + at, size - at, " %02x", bytes[i]);
}

/* ------------------------------------------------------------------ */
/* Shaders                                                             */
/* ------------------------------------------------------------------ */

static nir_variable *
io_var(nir_shader *s, nir_variable_mode mode, unsigned location,
       unsigned driver_location, const char *name)
{
   nir_variable *v = nir_variable_create(s, mode, glsl_vec4_type(), name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

static nir_builder
shader(gl_shader_stage stage, const char *name)
{
   enum pipe_shader_type p = stage == MESA_SHADER_VERTEX ? PIPE_SHADER_VERTEX
                             : stage == MESA_SHADER_COMPUTE
                                ? PIPE_SHADER_COMPUTE
                                : PIPE_SHADER_FRAGMENT;
   const nir_shader_compiler_options *opts =
      screen->get_compiler_options(screen, PIPE_SHADER_IR_NIR, p);
   return nir_builder_init_simple_shader(stage, opts, "%s", name);
}

/* A vertex shader's variables: attributes 0 (pos) and 1 (col), outputs
 * gl_Position and VAR0.
 */
struct vs_vars {
   nir_variable *pos, *col, *opos, *ocol;
};

static struct vs_vars
vs_vars(nir_shader *s)
{
   return (struct vs_vars){
      io_var(s, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "pos"),
      io_var(s, nir_var_shader_in, VERT_ATTRIB_GENERIC1, 1, "col"),
      io_var(s, nir_var_shader_out, VARYING_SLOT_POS, 0, "gl_Position"),
      io_var(s, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0"),
   };
}

/* The vertex shader of b: gl_Position = attribute 0 moved by (dx, dy) in
 * clip space (NULL: not moved), VAR0 = attribute 1.
 */
static void *
moved_vs(nir_builder *b, const struct vs_vars *v, nir_ssa_def *dx,
         nir_ssa_def *dy)
{
   nir_ssa_def *p = nir_load_var(b, v->pos);
   if (dx)
      p = nir_vector_insert_imm(b, p, nir_fadd(b, nir_channel(b, p, 0), dx),
                                0);
   if (dy)
      p = nir_vector_insert_imm(b, p, nir_fadd(b, nir_channel(b, p, 1), dy),
                                1);
   nir_store_var(b, v->opos, p, 0xf);
   nir_store_var(b, v->ocol, nir_load_var(b, v->col), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b->shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* gl_Position = attribute 0, VAR0 = attribute 1; instanced: the position
 * moved right by 24 pixels per instance (0.75 in clip space: exact).
 */
static void *
pass_through_vs(bool instanced)
{
   nir_builder b =
      shader(MESA_SHADER_VERTEX, instanced ? "instanced" : "pass-through");
   struct vs_vars v = vs_vars(b.shader);
   nir_ssa_def *dx =
      instanced
         ? nir_fmul_imm(&b, nir_u2f32(&b, nir_load_instance_id(&b)), 0.75)
         : NULL;
   return moved_vs(&b, &v, dx, NULL);
}

/* DATA0 = const_rgba, or the interpolated VAR0. */
static void *
colour_fs(bool interpolated)
{
   nir_builder b =
      shader(MESA_SHADER_FRAGMENT, interpolated ? "interpolated" : "constant");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *c;
   if (interpolated) {
      nir_variable *in =
         io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
      in->data.interpolation = INTERP_MODE_SMOOTH;
      c = nir_load_var(&b, in);
   } else {
      c = nir_imm_vec4(&b, const_rgba[0], const_rgba[1], const_rgba[2],
                       const_rgba[3]);
   }
   nir_store_var(&b, out, c, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* ------------------------------------------------------------------ */
/* References                                                          */
/* ------------------------------------------------------------------ */

/* Twice the signed area of (a, b, p) in 1/16 units; positive inside a
 * triangle whose vertices are ordered so that its own area is positive.
 */
static int64_t
edge(const struct vtx *a, const struct vtx *b, int64_t px, int64_t py)
{
   return (px - a->x16) * (int64_t)(b->y16 - a->y16) -
          (py - a->y16) * (int64_t)(b->x16 - a->x16);
}

/* With y growing downwards and a positive area, the interior of a
 * horizontal edge going left (-x) is below it: a top edge; the interior
 * of an edge going down (+y) is to its right: a left edge.
 */
static bool
top_left(const struct vtx *a, const struct vtx *b)
{
   int dx = b->x16 - a->x16, dy = b->y16 - a->y16;
   return (dy == 0 && dx < 0) || dy > 0;
}

/* Whether the centre of pixel (x, y) is in the triangle (GL rules), and
 * its barycentric weights.
 */
static bool
covers(const struct vtx *t0, const struct vtx *t1, const struct vtx *t2,
       unsigned x, unsigned y, double bary[3])
{
   const struct vtx *v[3] = { t0, t1, t2 };
   int64_t px = x * 16 + 8, py = y * 16 + 8;
   int64_t area = edge(v[0], v[1], v[2]->x16, v[2]->y16);

   if (area == 0)
      return false;
   if (area < 0) {
      v[1] = t2;
      v[2] = t1;
      area = -area;
   }
   int64_t e[3];
   for (unsigned i = 0; i < 3; ++i) {
      const struct vtx *a = v[(i + 1) % 3], *b = v[(i + 2) % 3];
      e[i] = edge(a, b, px, py); /* weight of v[i] */
      if (e[i] < 0 || (e[i] == 0 && !top_left(a, b)))
         return false;
   }
   /* bary[] follows the caller's vertex order. */
   for (unsigned i = 0; i < 3; ++i) {
      unsigned k = v[i] == t0 ? 0 : v[i] == t1 ? 1 : 2;
      bary[k] = (double)e[i] / (double)area;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* The draw                                                            */
/* ------------------------------------------------------------------ */

struct target {
   struct pipe_resource *tex;
   struct pipe_surface *surf;
   unsigned layer; /* of an array target */
};

static struct target
make_target(void)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = W,
      .height0 = H,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW,
   };
   struct target t = { screen->resource_create(screen, &templ) };
   struct pipe_surface st = { .format = templ.format };
   t.surf = ctx->create_surface(ctx, t.tex, &st);

   struct pipe_framebuffer_state fb = {
      .width = W,
      .height = H,
      .nr_cbufs = 1,
      .cbufs = { t.surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   return t;
}

/* Fixed state: replace blending, no culling, no depth, the viewport
 * over the whole target (window y grows with the row index).
 */
static void **
bind_fixed_state(void)
{
   static void *cso[4];
   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_rasterizer_state rast = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .cull_face = PIPE_FACE_NONE,
   };
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   struct pipe_viewport_state vp = {
      .scale = { W / 2.0f, H / 2.0f, 0.5f },
      .translate = { W / 2.0f, H / 2.0f, 0.5f },
   };

   cso[0] = ctx->create_blend_state(ctx, &blend);
   cso[1] = ctx->create_rasterizer_state(ctx, &rast);
   cso[2] = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   cso[3] = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_blend_state(ctx, cso[0]);
   ctx->bind_rasterizer_state(ctx, cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->bind_vertex_elements_state(ctx, cso[3]);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);
   return cso;
}

static void
unbind_fixed_state(void **cso)
{
   ctx->delete_blend_state(ctx, cso[0]);
   ctx->delete_rasterizer_state(ctx, cso[1]);
   ctx->delete_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->delete_vertex_elements_state(ctx, cso[3]);
}

/* Uploads the vertices (NDC position, colour) as vertex buffer 0. */
static struct pipe_resource *
vertex_buffer(const struct vtx *v, unsigned n)
{
   float data[8 * 8];
   for (unsigned i = 0; i < n; ++i) {
      data[i * 8 + 0] = (v[i].x16 / 16.0f - W / 2.0f) / (W / 2.0f);
      data[i * 8 + 1] = (v[i].y16 / 16.0f - H / 2.0f) / (H / 2.0f);
      data[i * 8 + 2] = 0.0f;
      data[i * 8 + 3] = 1.0f;
      memcpy(&data[i * 8 + 4], v[i].rgba, 16);
   }
   struct pipe_resource *r = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                                                PIPE_USAGE_DEFAULT, n * 32);
   pipe_buffer_write(ctx, r, 0, n * 32, data);
   struct pipe_vertex_buffer vb = {
      .stride = 32,
      .buffer.resource = r,
   };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   return r;
}

/* Clears, makes the draws (one draw_vbo call) and submits with the trace
 * captured; returns the trace.
 */
static char *
clear_draw(const struct pipe_draw_info *info, unsigned count, unsigned draws)
{
   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   struct pipe_draw_start_count_bias d[2] = {
      { .start = 0, .count = count },
      { .start = 0, .count = count },
   };
   assert(draws <= ARRAY_SIZE(d));
   trace_begin();
   ctx->draw_vbo(ctx, info, 0, NULL, d, draws);
   ctx->flush(ctx, NULL, 0);
   return trace_end();
}

static void
read_target(struct target *t, uint8_t out[H][W][4])
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, t->tex, 0, t->layer, PIPE_MAP_READ, 0, 0, W, H,
                       &xfer);
   CHECK(map, "render target map failed");
   if (!map) {
      memset(out, 0, H * W * 4);
      return;
   }
   for (unsigned y = 0; y < H; ++y)
      memcpy(out[y], map + y * xfer->stride, W * 4);
   pipe_texture_unmap(ctx, xfer);
}

/* Trace lines every draw of the test has, whatever it draws: one IDVS
 * job with a varying shader and 16-byte vertex packets plus one 16-byte
 * varying; the viewport's scissor from 0 and depth range; no culling; one
 * RGBA8 target with replace blending; two RGBA32F attributes (the second at
 * 16) over 32-byte vertices; no depth test; both shader stages.
 */
static const char *const fixed_lines[] = {
   "base_vertex_offset: 0",
   "secondary_shader: true",
   "vertex_packet_stride: 32",
   "vertex_attribute_stride: 16",
   "scissor_minimum_x: 0",
   "scissor_minimum_y: 0",
   "minimum_z: 0.000000",
   "maximum_z: 1.000000",
   "cull_front_face: false",
   "cull_back_face: false",
   "render_target_mask: 0x1",
   "blend_count: 1",
   "sample_mask: 65535",
   "offset: 16",
   "stride: 32",
   "mode: opaque",
   "color_mask: 15",
   "format: rgba8_tb", /* the blend conversion: the tile-buffer layout */
   "depth_function: always",
   "depth_write_enable: false",
   "stage: vertex",
   "stage: fragment",
   "internal_format: r8g8b8a8",
};

/* The chains decode without an error and hold what the state says:
 * the job, primitive and draw fields, the attribute and vertex buffer
 * descriptors, blending, depth, the viewport in the position shader's
 * push words, the tiler context and the render target of the pass.
 */
static void
check_trace(const char *what, const char *trace, unsigned draws,
            const char *draw_mode, unsigned index_size_B, unsigned count_,
            unsigned nr_vertices, bool restart)
{
   unsigned before = pan_test_failures;

   CHECK(decoder_errors(trace) == 0, "%s: %u decoder errors", what,
         decoder_errors(trace));
   if (jm) {
      /* A vertex and a tiler job per draw, then the pass's fragment job. */
      CHECK(jobs(trace, "vertex") == draws && jobs(trace, "tiler") == draws &&
               jobs(trace, "fragment") == 1,
            "%s: %u vertex, %u tiler and %u fragment jobs, want %u, %u, 1",
            what, jobs(trace, "vertex"), jobs(trace, "tiler"),
            jobs(trace, "fragment"), draws, draws);
      CHECK_LINE(what, trace, "draw_mode: %s", draw_mode);
      CHECK_LINE(what, trace, "index_count: %u", count_);
      if (pan_test_failures != before || show_trace)
         fprintf(stderr, "%s trace:\n%s\n", what, trace);
      return;
   }
   CHECK(jobs(trace, "malloc_vertex") == draws,
         "%s: %u malloc-vertex jobs, want %u", what,
         jobs(trace, "malloc_vertex"), draws);
   /* One chain in API order: job k links to job k + 1, the last to none. */
   for (unsigned k = 1; k <= draws; ++k) {
      char job[32];
      snprintf(job, sizeof(job), "\njob %u @ ", k);
      uint64_t next = field_after(trace, job, "next: ");
      uint64_t want = k < draws ? job_address(trace, k + 1) : 0;
      CHECK(next == want, "%s: job %u links to 0x%llx, want 0x%llx", what, k,
            (unsigned long long)next, (unsigned long long)want);
   }
   CHECK(jobs(trace, "fragment") == 1, "%s: %u fragment jobs, want 1", what,
         jobs(trace, "fragment"));

   CHECK_LINE(what, trace, "draw_mode: %s", draw_mode);
   CHECK_LINE(what, trace, "index_type: %s", index_size_B ? "uint16" : "none");
   CHECK_LINE(what, trace, "index_count: %u", count_);
   CHECK_LINE(what, trace, "primitive_restart: %s",
              restart ? "implicit" : "none");
   for (unsigned i = 0; i < ARRAY_SIZE(fixed_lines); ++i)
      CHECK_LINE(what, trace, "%s", fixed_lines[i]);
   uint64_t indices = field_after(trace, "indices (indices @", "address: ");
   CHECK(!indices == !index_size_B, "%s: index address 0x%llx", what,
         (unsigned long long)indices);
   CHECK_LINE(what, trace, "scissor_maximum_x: %u", W - 1);
   CHECK_LINE(what, trace, "scissor_maximum_y: %u", H - 1);
   /* Two RGBA32F attributes in one buffer of 32-byte vertices. */
   CHECK(count(trace, "format: rgba32f\n") >= 2, "%s: attribute formats", what);
   CHECK_LINE(what, trace, "size: %u", nr_vertices * 32);

   /* Fixed-function blending reads the fragment shader's BLEND staging
    * registers in the descriptor's register format: it must be the type
    * the shader's BLEND instruction gives them.
    */
   const char *blend = strstr(trace, "blend.slot0.v4.");
   char type[8] = "";
   if (blend)
      sscanf(blend + strlen("blend.slot0.v4."), "%7[a-z0-9]", type);
   CHECK(type[0], "%s: no BLEND instruction in the fragment shader", what);
   CHECK_LINE(what, trace, "register_format: %s", type);

   /* The position shader's push words: the viewport's scale and offset
    * of each component in one 64-bit slot, which one FMA reads.
    */
   const float vp[6] = { W / 2.0f, W / 2.0f, H / 2.0f, H / 2.0f, 0.5f, 0.5f };
   char line[128];
   fau_line(line, sizeof(line), 0, vp, 4);
   CHECK(has_line(trace, line), "%s: no FAU line '%s'", what, line);
   fau_line(line, sizeof(line), 16, vp + 4, 2);
   CHECK(has_line(trace, line), "%s: no FAU line '%s'", what, line);

   /* The fragment job covers the whole target (16x16 tiles) and uses the
    * tiler context the draws filled.
    */
   CHECK_LINE(what, trace, "bound_max_x: %u", W / 16 - 1);
   CHECK_LINE(what, trace, "bound_max_y: %u", H / 16 - 1);
   CHECK_LINE(what, trace, "width: %u", W);
   CHECK_LINE(what, trace, "height: %u", H);
   uint64_t tiler = field_after(trace, "tiler (tiler_pointer @", "address: ");
   uint64_t fb_tiler =
      field_after(trace, "(framebuffer_parameters @", " tiler: ");
   CHECK(tiler && tiler != ~0ull && fb_tiler == tiler,
         "%s: the draw tiles into 0x%llx, the pass reads 0x%llx", what,
         (unsigned long long)tiler, (unsigned long long)fb_tiler);

   /* The tiler context and the pass. */
   CHECK_LINE(what, trace, "fb_width: %u", W);
   CHECK_LINE(what, trace, "fb_height: %u", H);
   /* The target, rendered and sampled, is AFBC (pan_resource_layout.c):
    * a row of 16-byte headers, one a 16x16 superblock, then the body.
    */
   CHECK_LINE(what, trace, "writeback_block_format: afbc");
   CHECK_LINE(what, trace, "compression_mode: r8g8b8a8");
   CHECK_LINE(what, trace, "row_stride_B: %u", W / 16 * 16);
   CHECK_LINE(what, trace, "body_offset: %u", W / 16 * H / 16 * 16);
   uint32_t clear = 0;
   for (unsigned c = 0; c < 4; ++c)
      clear |= (uint32_t)unorm8(clear_rgba[c]) << (8 * c);
   CHECK_LINE(what, trace, "color_0: %u", clear);

   if (pan_test_failures != before || show_trace)
      fprintf(stderr, "%s trace:\n%s\n", what, trace);
}

/* Compares the target with the reference of the triangles given (a flat
 * colour, or each triangle's vertex colours interpolated).
 */
static void
check_pixels_against(const char *what, struct target *t,
                     const struct vtx *const (*tris)[3], unsigned ntris,
                     bool interpolated)
{
   static uint8_t got[H][W][4];
   unsigned bad = 0, covered = 0, first_x = 0, first_y = 0;

   read_target(t, got);
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         float ref[4];
         bool in = false;
         memcpy(ref, clear_rgba, sizeof(ref));
         for (unsigned k = 0; k < ntris && !in; ++k) {
            double bary[3];
            if (!covers(tris[k][0], tris[k][1], tris[k][2], x, y, bary))
               continue;
            in = true;
            for (unsigned c = 0; c < 4; ++c) {
               ref[c] = interpolated ? bary[0] * tris[k][0]->rgba[c] +
                                          bary[1] * tris[k][1]->rgba[c] +
                                          bary[2] * tris[k][2]->rgba[c]
                                     : const_rgba[c];
            }
         }
         covered += in;
         bool ok = true;
         for (unsigned c = 0; c < 4; ++c) {
            int d = (int)got[y][x][c] - unorm8(ref[c]);
            /* Flat colours and the clear are exact. */
            ok &= in && interpolated ? abs(d) <= 1 : d == 0;
         }
         if (!ok && !bad++) {
            first_x = x;
            first_y = y;
         }
      }
   }
   CHECK(covered > 0, "%s: the reference covers nothing", what);
   CHECK(!bad,
         "%s: %u of %u pixels wrong (%u covered); first (%u, %u) = "
         "%u %u %u %u",
         what, bad, W * H, covered, first_x, first_y, got[first_y][first_x][0],
         got[first_y][first_x][1], got[first_y][first_x][2],
         got[first_y][first_x][3]);
}

/* What one test draws with: the target bound, the fixed state, the
 * pass-through vertex shader, a fragment shader and the vertices.
 */
struct scene {
   struct target t;
   void **fixed;
   void *vs, *fs;
   struct pipe_resource *vb;
};

static struct scene
scene_begin(bool interpolated, const struct vtx *v, unsigned n)
{
   struct scene sc = { make_target(), bind_fixed_state() };
   sc.vs = pass_through_vs(false);
   sc.fs = colour_fs(interpolated);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = vertex_buffer(v, n);
   return sc;
}

static void
scene_end(struct scene *sc)
{
   struct pipe_framebuffer_state none = { 0 };

   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, sc->vs);
   ctx->delete_fs_state(ctx, sc->fs);
   unbind_fixed_state(sc->fixed);
   pipe_resource_reference(&sc->vb, NULL);
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&sc->t.surf, NULL);
   pipe_resource_reference(&sc->t.tex, NULL);
}

/* One triangle whose first two edges go through pixel centres (x = 8.5
 * and y = 4.5): the top-left rule decides those.
 */
static const struct vtx tri[3] = {
   { 8 * 16 + 8, 4 * 16 + 8, { 1.0f, 0.0f, 0.0f, 1.0f } },
   { 8 * 16 + 8, 28 * 16 + 8, { 0.0f, 1.0f, 0.0f, 1.0f } },
   { 52 * 16 + 3, 4 * 16 + 8, { 0.0f, 0.0f, 1.0f, 0.25f } },
};

/* draws > 1: the same triangle again in the same pass, which must not
 * change the pixels.
 */
static void
test_triangle(bool interpolated, unsigned draws)
{
   const char *what = interpolated ? "interpolated triangle"
                      : draws > 1  ? "triangle twice"
                                   : "triangle";
   struct scene sc = scene_begin(interpolated, tri, 3);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
      .max_index = 2,
   };

   char *trace = clear_draw(&info, 3, draws);
   check_trace(what, trace, draws, "triangles", 0, 3, 3, false);
   free(trace);
   if (check_pixels) {
      const struct vtx *const tris[1][3] = { { &tri[0], &tri[1], &tri[2] } };
      check_pixels_against(what, &sc.t, tris, 1, interpolated);
   }
   scene_end(&sc);
}

/* A quad as two indexed triangles (16-bit indices), or as a strip split
 * by the restart index into two triangles; edges on pixel centres again.
 */
static void
test_indexed_quad(bool restart)
{
   const char *what = restart ? "quad with restart" : "indexed quad";
   static const struct vtx quad[4] = {
      { 10 * 16, 6 * 16 + 8, { 0 } },
      { 40 * 16 + 4, 6 * 16 + 8, { 0 } },
      { 10 * 16, 20 * 16, { 0 } },
      { 40 * 16 + 4, 20 * 16, { 0 } },
   };
   static const uint16_t list[6] = { 0, 1, 2, 2, 1, 3 };
   static const uint16_t strips[7] = { 0, 1, 2, 0xffff, 2, 1, 3 };
   const uint16_t *idx = restart ? strips : list;
   unsigned n = restart ? 7 : 6;
   struct scene sc = scene_begin(false, quad, 4);
   struct pipe_resource *ib = pipe_buffer_create(screen, PIPE_BIND_INDEX_BUFFER,
                                                 PIPE_USAGE_DEFAULT, n * 2);
   pipe_buffer_write(ctx, ib, 0, n * 2, idx);
   struct pipe_draw_info info = {
      .mode = restart ? PIPE_PRIM_TRIANGLE_STRIP : PIPE_PRIM_TRIANGLES,
      .index_size = 2,
      .instance_count = 1,
      .primitive_restart = restart,
      .restart_index = 0xffff,
      .max_index = 3,
      .index.resource = ib,
   };

   char *trace = clear_draw(&info, n, 1);
   check_trace(what, trace, 1, restart ? "triangle_strip" : "triangles", 2, n,
               4, restart);
   free(trace);
   if (check_pixels) {
      const struct vtx *const tris[2][3] = {
         { &quad[0], &quad[1], &quad[2] },
         { &quad[2], &quad[1], &quad[3] },
      };
      check_pixels_against(what, &sc.t, tris, 2, false);
   }
   pipe_resource_reference(&ib, NULL);
   scene_end(&sc);
}

/* Three instances of one small triangle, each moved by its instance id
 * (PIPE_CAP_VS_INSTANCEID): one job with an instance count of three, and
 * three triangles in the pixels.
 */
static void
test_instanced_triangles(void)
{
   const char *what = "instanced triangles";
   enum { N = 3, DX16 = 24 * 16 };
   static const struct vtx small[3] = {
      { 2 * 16 + 3, 3 * 16 + 8, { 0 } },
      { 14 * 16 + 3, 3 * 16 + 8, { 0 } },
      { 2 * 16 + 3, 20 * 16 + 8, { 0 } },
   };
   CHECK(screen->get_param(screen, PIPE_CAP_VS_INSTANCEID),
         "%s: PIPE_CAP_VS_INSTANCEID is off", what);
   struct scene sc = scene_begin(false, small, 3);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, sc.vs);
   sc.vs = pass_through_vs(true);
   ctx->bind_vs_state(ctx, sc.vs);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = N,
      .max_index = 2,
   };

   char *trace = clear_draw(&info, 3, 1);
   CHECK(decoder_errors(trace) == 0, "%s: %u decoder errors", what,
         decoder_errors(trace));
   /* One job for all instances (v7: one vertex and one tiler job). */
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u %s jobs", what,
         jobs(trace, DRAW_JOB), DRAW_JOB);
   if (!jm)
      CHECK_LINE(what, trace, "count: %u", N);
   free(trace);
   if (check_pixels) {
      struct vtx moved[N][3];
      const struct vtx *tris[N][3];
      for (unsigned i = 0; i < N; ++i) {
         for (unsigned v = 0; v < 3; ++v) {
            moved[i][v] = small[v];
            moved[i][v].x16 += i * DX16;
            tris[i][v] = &moved[i][v];
         }
      }
      check_pixels_against(what, &sc.t, (const struct vtx *const(*)[3])tris,
                           N, false);
   }
   scene_end(&sc);
}

/* The colour attribute per instance from base instance 2: the one
 * instance drawn takes vertex 2's colour (the instance index the
 * hardware fetches with counts from 0, so the driver moves the start).
 */
static void
test_base_instance_attribute(void)
{
   const char *what = "per-instance attribute from a base instance";
   struct scene sc = scene_begin(true, tri, 3);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16,
        .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT,
        .instance_divisor = 1 },
   };
   void *elements = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, elements);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
      .start_instance = 2,
      .max_index = 2,
   };
   free(clear_draw(&info, 3, 1));
   if (check_pixels) {
      struct vtx flat[3];
      const struct vtx *tris[1][3];
      for (unsigned v = 0; v < 3; ++v) {
         flat[v] = tri[v];
         memcpy(flat[v].rgba, tri[2].rgba, sizeof(flat[v].rgba));
         tris[0][v] = &flat[v];
      }
      check_pixels_against(what, &sc.t, (const struct vtx *const(*)[3])tris,
                           1, true);
   }
   ctx->bind_vertex_elements_state(ctx, sc.fixed[3]);
   ctx->delete_vertex_elements_state(ctx, elements);
   scene_end(&sc);
}

/* n instances of one triangle in one place, its colour per instance
 * with the given divisor from base instance `base`: the last instance
 * drawn (n - 1) covers the others, so the pixels take the colour of vertex
 * (n - 1) / divisor + base.  Divisors above one are power-of-two or
 * magic-multiplier descriptors (on v6/v7 the padded count multiplies
 * them).  Indexed, the triangle is vertices 3..5 of the buffer, so the
 * draw starts at vertex 3, which per-instance data must not follow; the
 * six vertices' colours all differ.
 */
static void
test_instance_divisor(unsigned divisor, unsigned n, unsigned base,
                      bool indexed)
{
   const char *what = indexed ? "indexed per-instance attribute"
                              : "per-instance attribute with a divisor";
   unsigned elem = (n - 1) / divisor + base;
   struct vtx v[6];
   static const float more[3][4] = {
      { 1.0f, 1.0f, 0.0f, 1.0f },
      { 0.0f, 1.0f, 1.0f, 1.0f },
      { 1.0f, 0.0f, 1.0f, 0.5f },
   };
   for (unsigned i = 0; i < 6; ++i) {
      v[i] = tri[i % 3];
      if (i >= 3)
         memcpy(v[i].rgba, more[i - 3], sizeof(v[i].rgba));
   }
   assert(elem < 6);
   CHECK(screen->get_param(screen, PIPE_CAP_VERTEX_ELEMENT_INSTANCE_DIVISOR),
         "%s: PIPE_CAP_VERTEX_ELEMENT_INSTANCE_DIVISOR is off", what);
   struct scene sc = scene_begin(true, v, 6);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16,
        .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT,
        .instance_divisor = divisor },
   };
   static const uint16_t idx[3] = { 3, 4, 5 };
   struct pipe_resource *ib = NULL;
   void *elements = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, elements);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = n,
      .start_instance = base,
      .max_index = indexed ? 5 : 2,
   };
   if (indexed) {
      ib = pipe_buffer_create(screen, PIPE_BIND_INDEX_BUFFER,
                              PIPE_USAGE_DEFAULT, sizeof(idx));
      pipe_buffer_write(ctx, ib, 0, sizeof(idx), idx);
      info.index_size = 2;
      info.min_index = 3;
      info.index.resource = ib;
   }
   char *trace = clear_draw(&info, 3, 1);
   CHECK(decoder_errors(trace) == 0, "%s %u: %u decoder errors", what,
         divisor, decoder_errors(trace));
   free(trace);
   if (check_pixels) {
      struct vtx flat[3];
      const struct vtx *tris[1][3];
      for (unsigned i = 0; i < 3; ++i) {
         flat[i] = tri[i];
         memcpy(flat[i].rgba, v[elem].rgba, sizeof(flat[i].rgba));
         tris[0][i] = &flat[i];
      }
      check_pixels_against(what, &sc.t, (const struct vtx *const(*)[3])tris,
                           1, true);
   }
   ctx->bind_vertex_elements_state(ctx, sc.fixed[3]);
   ctx->delete_vertex_elements_state(ctx, elements);
   pipe_resource_reference(&ib, NULL);
   scene_end(&sc);
}

/* gl_Position = attribute 0 moved by the draw parameters: right by
 * 4 pixels per (gl_VertexID - 3), down by 4 pixels per gl_BaseVertex,
 * gl_BaseInstance and gl_DrawID (exact in clip space).
 */
static void *
draw_params_vs(void)
{
   nir_builder b = shader(MESA_SHADER_VERTEX, "draw-params");
   struct vs_vars v = vs_vars(b.shader);
   nir_ssa_def *id = nir_iadd(&b, nir_load_vertex_id_zero_base(&b),
                              nir_load_first_vertex(&b));
   nir_ssa_def *down = nir_iadd(&b, nir_load_base_vertex(&b),
                                nir_load_draw_id(&b));
   down = nir_iadd(&b, down, nir_load_base_instance(&b));
   nir_ssa_def *dx = nir_fmul_imm(&b, nir_i2f32(&b, nir_iadd_imm(&b, id, -3)),
                                  0.125);
   nir_ssa_def *dy = nir_fmul_imm(&b, nir_i2f32(&b, down), 0.25);
   return moved_vs(&b, &v, dx, dy);
}

/* gl_VertexID, gl_BaseVertex, gl_BaseInstance and gl_DrawID of a draw
 * from vertex 3 on (vertices 3..5 of the buffer): non-indexed with start
 * 3 and base instance 2, then indexed 0, 1, 2 with an index bias of 3
 * (the base vertex) and draw ID 1.  A vertex ID counted from 0 moves the
 * triangle 12 pixels left.
 */
static void
test_draw_parameters(bool indexed)
{
   const char *what = indexed ? "vertex id, indexed with a bias"
                              : "vertex id from start 3";
   static const struct vtx v[6] = {
      { 0 },
      { 0 },
      { 0 },
      { 6 * 16 + 3, 2 * 16 + 8, { 1.0f, 0.0f, 0.0f, 1.0f } },
      { 20 * 16 + 3, 2 * 16 + 8, { 1.0f, 0.0f, 0.0f, 1.0f } },
      { 6 * 16 + 3, 12 * 16 + 8, { 1.0f, 0.0f, 0.0f, 1.0f } },
   };
   static const uint16_t idx[3] = { 0, 1, 2 };
   struct scene sc = scene_begin(false, v, 6);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, sc.vs);
   sc.vs = draw_params_vs();
   ctx->bind_vs_state(ctx, sc.vs);
   struct pipe_resource *ib = NULL;
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
      .max_index = indexed ? 2 : 5,
      .start_instance = indexed ? 0 : 2,
   };
   struct pipe_draw_start_count_bias d = { .start = 3, .count = 3 };
   if (indexed) {
      ib = pipe_buffer_create(screen, PIPE_BIND_INDEX_BUFFER,
                              PIPE_USAGE_DEFAULT, sizeof(idx));
      pipe_buffer_write(ctx, ib, 0, sizeof(idx), idx);
      info.index_size = 2;
      info.index.resource = ib;
      d = (struct pipe_draw_start_count_bias){ .count = 3, .index_bias = 3 };
   }

   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   trace_begin();
   ctx->draw_vbo(ctx, &info, indexed, NULL, &d, 1);
   ctx->flush(ctx, NULL, 0);
   char *trace = trace_end();
   CHECK(decoder_errors(trace) == 0, "%s: %u decoder errors", what,
         decoder_errors(trace));
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u %s jobs", what,
         jobs(trace, DRAW_JOB), DRAW_JOB);
   free(trace);
   if (check_pixels) {
      /* Down by base vertex + draw ID (3 + 1) or by base instance 2. */
      int down16 = (indexed ? 4 : 2) * 4 * 16;
      struct vtx moved[3];
      const struct vtx *tris[1][3];
      for (unsigned k = 0; k < 3; ++k) {
         moved[k] = v[3 + k];
         moved[k].x16 += k * 4 * 16;
         moved[k].y16 += down16;
         tris[0][k] = &moved[k];
      }
      check_pixels_against(what, &sc.t, (const struct vtx *const(*)[3])tris,
                           1, false);
   }
   pipe_resource_reference(&ib, NULL);
   scene_end(&sc);
}

/* ------------------------------------------------------------------ */
/* Textures                                                            */
/* ------------------------------------------------------------------ */

#define TEX_W 4
#define TEX_H 4

/* Texel (x, y) of the test texture: every texel different. */
static void
texel(unsigned x, unsigned y, uint8_t out[4])
{
   out[0] = 40 + 60 * x;
   out[1] = 30 + 50 * y;
   out[2] = 200 - 16 * (x + TEX_W * y);
   out[3] = 255 - 10 * x;
}

/* Texture 0 through sampler 0 at VAR0.xy (implicit LOD), as `type`. */
static nir_ssa_def *
sample_var0(nir_builder *b, nir_alu_type type)
{
   nir_variable *in =
      io_var(b->shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *uv = nir_channels(b, nir_load_var(b, in), 0x3);

   nir_tex_instr *tex = nir_tex_instr_create(b->shader, 1);
   tex->op = nir_texop_tex;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->dest_type = type;
   tex->coord_components = 2;
   tex->texture_index = 0;
   tex->sampler_index = 0;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(uv);
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(b, &tex->instr);
   BITSET_SET(b->shader->info.textures_used, 0);
   BITSET_SET(b->shader->info.samplers_used, 0);
   return &tex->dest.ssa;
}

/* DATA0 = texture 0 through sampler 0 at VAR0.xy (implicit LOD). */
static void *
texture_fs(void)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "textured");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, sample_var0(&b, nir_type_float32), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A TEX_W x TEX_H texture of `format`, filled with texel() when RGBA8. */
static struct pipe_resource *
test_texture(enum pipe_format format)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = TEX_W,
      .height0 = TEX_H,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   uint8_t data[TEX_H][TEX_W][4];
   for (unsigned y = 0; y < TEX_H; ++y)
      for (unsigned x = 0; x < TEX_W; ++x)
         texel(x, y, data[y][x]);
   struct pipe_resource *r = screen->resource_create(screen, &templ);
   struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
   if (r && format == PIPE_FORMAT_R8G8B8A8_UNORM)
      ctx->texture_subdata(ctx, r, 0, PIPE_MAP_WRITE, &box, data, TEX_W * 4,
                           sizeof(data));
   return r;
}

/* A scene with the textured fragment shader, a quad over the whole
 * target with texture coordinates from lo to hi, a texture of `format`
 * seen through a view with `swizzle`, and a nearest sampler wrapping
 * with `wrap`, bound to the fragment stage.
 */
/* A 2D view of tex (NULL without one) as format with swizzle. */
static struct pipe_sampler_view *
view_2d(struct pipe_resource *tex, enum pipe_format format,
        const unsigned char swizzle[4])
{
   struct pipe_sampler_view vt = {
      .format = format,
      .target = PIPE_TEXTURE_2D,
      .swizzle_r = swizzle[0],
      .swizzle_g = swizzle[1],
      .swizzle_b = swizzle[2],
      .swizzle_a = swizzle[3],
   };
   return tex ? ctx->create_sampler_view(ctx, tex, &vt) : NULL;
}

/* A sampler of one wrap mode on every axis and one filter, without
 * mipmaps; a compare_func of 0 or more makes it a shadow sampler. */
static void *
make_sampler(unsigned wrap, unsigned filter, int compare_func)
{
   struct pipe_sampler_state st = {
      .wrap_s = wrap,
      .wrap_t = wrap,
      .wrap_r = wrap,
      .min_img_filter = filter,
      .mag_img_filter = filter,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
   };
   if (compare_func >= 0) {
      st.compare_mode = PIPE_TEX_COMPARE_R_TO_TEXTURE;
      st.compare_func = compare_func;
   }
   return ctx->create_sampler_state(ctx, &st);
}

struct tex_scene {
   struct scene sc;
   struct pipe_resource *tex;
   struct pipe_sampler_view *view;
   void *smp;
};

static struct tex_scene
tex_scene_begin(enum pipe_format format, float lo, float hi, unsigned wrap,
                const unsigned char swizzle[4])
{
   const struct vtx quad[4] = {
      { 0, 0, { lo, lo, 0, 0 } },
      { W * 16, 0, { hi, lo, 0, 0 } },
      { 0, H * 16, { lo, hi, 0, 0 } },
      { W * 16, H * 16, { hi, hi, 0, 0 } },
   };
   struct tex_scene ts = { { make_target(), bind_fixed_state() } };
   ts.sc.vs = pass_through_vs(false);
   ts.sc.fs = texture_fs();
   CHECK(ts.sc.fs, "the textured fragment shader was not created");
   ctx->bind_vs_state(ctx, ts.sc.vs);
   ctx->bind_fs_state(ctx, ts.sc.fs);
   ts.sc.vb = vertex_buffer(quad, 4);

   ts.tex = test_texture(format);
   ts.view = view_2d(ts.tex, format, swizzle);
   ts.smp = make_sampler(wrap, PIPE_TEX_FILTER_NEAREST, -1);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &ts.smp);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false,
                          &ts.view);
   return ts;
}

static void
tex_scene_end(struct tex_scene *ts)
{
   void *none = NULL;

   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &none);
   ctx->delete_sampler_state(ctx, ts->smp);
   pipe_sampler_view_reference(&ts->view, NULL);
   pipe_resource_reference(&ts->tex, NULL);
   scene_end(&ts->sc);
}

/* Nearest texel of coordinate u in [0, 1) or, with repeat, anywhere. */
static unsigned
nearest(double u, unsigned size)
{
   double f = u - floor(u);
   return MIN2((unsigned)(f * size), size - 1);
}

/* Clears and draws the quad of tex_scene_begin() as one job. */
static void
draw_textured_quad(const char *what)
{
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = 1,
      .max_index = 3,
   };
   char *trace = clear_draw(&info, 4, 1);
   CHECK(decoder_errors(trace) == 0, "%s: %u decoder errors", what,
         decoder_errors(trace));
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted", what,
         jobs(trace, DRAW_JOB));
   if (show_trace)
      fprintf(stderr, "%s trace:\n%s\n", what, trace);
   free(trace);
}

/* The quad of tex_scene_begin() against the texel a C reference picks at
 * each pixel centre.  It is drawn in two passes, with the view and the
 * sampler unbound and bound again between them: the tables must follow
 * the bindings.
 */
static void
test_textured_quad(const char *what, float lo, float hi, unsigned wrap,
                   const unsigned char swizzle[4])
{
   struct tex_scene ts =
      tex_scene_begin(PIPE_FORMAT_R8G8B8A8_UNORM, lo, hi, wrap, swizzle);
   for (unsigned round = 0; round < 2; ++round) {
      draw_textured_quad(what);
      if (check_pixels) {
         static uint8_t got[H][W][4];
         unsigned bad = 0, bx = 0, by = 0;
         read_target(&ts.sc.t, got);
         for (unsigned y = 0; y < H; ++y) {
            for (unsigned x = 0; x < W; ++x) {
               double u = lo + (hi - lo) * (x + 0.5) / W;
               double v = lo + (hi - lo) * (y + 0.5) / H;
               uint8_t t[4], want[4];
               texel(nearest(u, TEX_W), nearest(v, TEX_H), t);
               for (unsigned c = 0; c < 4; ++c) {
                  unsigned s = swizzle[c];
                  want[c] = s <= PIPE_SWIZZLE_W ? t[s]
                            : s == PIPE_SWIZZLE_1 ? 255 : 0;
               }
               if (memcmp(want, got[y][x], 4) && !bad++) {
                  bx = x;
                  by = y;
               }
            }
         }
         CHECK(!bad, "%s (round %u): %u of %u pixels wrong; first (%u, %u) "
               "= %u %u %u %u", what, round, bad, W * H, bx, by,
               got[by][bx][0], got[by][bx][1], got[by][bx][2],
               got[by][bx][3]);
      }
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &ts.smp);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false,
                             &ts.view);
   }
   tex_scene_end(&ts);
}

/* The stencil of a D24S8 texture through an X24S8_UINT view
 * (ARB_stencil_texturing): an integer lookup whose red, over 255, is
 * drawn, so each pixel shows its texel's stencil byte exactly; the depth
 * bits next to it must not leak in.
 */
static void
test_stencil_texture(void)
{
   const char *what = "stencil texturing";
   const struct vtx quad[4] = {
      { 0, 0, { 0, 0, 0, 0 } },
      { W * 16, 0, { 1, 0, 0, 0 } },
      { 0, H * 16, { 0, 1, 0, 0 } },
      { W * 16, H * 16, { 1, 1, 0, 0 } },
   };
   if (!screen->is_format_supported(screen, PIPE_FORMAT_X24S8_UINT,
                                    PIPE_TEXTURE_2D, 0, 0,
                                    PIPE_BIND_SAMPLER_VIEW)) {
      CHECK(false, "%s: X24S8_UINT views are not supported", what);
      return;
   }
   struct scene sc = { make_target(), bind_fixed_state() };
   sc.vs = pass_through_vs(false);

   nir_builder b = shader(MESA_SHADER_FRAGMENT, "stencil-texture");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *texel = nir_u2f32(&b, sample_var0(&b, nir_type_uint32));
   nir_ssa_def *scale = nir_imm_vec4(&b, 1.0f / 255.0f, 1, 1, 1);
   nir_store_var(&b, out, nir_fmul(&b, texel, scale), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   sc.fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = vertex_buffer(quad, 4);

   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_Z24_UNORM_S8_UINT,
      .width0 = TEX_W,
      .height0 = TEX_H,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL,
   };
   uint32_t data[TEX_H][TEX_W];
   for (unsigned y = 0; y < TEX_H; ++y) {
      for (unsigned x = 0; x < TEX_W; ++x)
         data[y][x] = (uint32_t)(37 * (x + TEX_W * y) + 9) << 24 | 0xabcdef;
   }
   struct pipe_resource *t = screen->resource_create(screen, &templ);
   struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
   if (t)
      ctx->texture_subdata(ctx, t, 0, PIPE_MAP_WRITE, &box, data, TEX_W * 4,
                           sizeof(data));
   static const unsigned char xyzw[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                          PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   struct pipe_sampler_view *view = view_2d(t, PIPE_FORMAT_X24S8_UINT, xyzw);
   void *smp =
      make_sampler(PIPE_TEX_WRAP_CLAMP_TO_EDGE, PIPE_TEX_FILTER_NEAREST, -1);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &smp);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
   CHECK(t && view, "%s: no texture or view", what);

   draw_textured_quad(what);
   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0, bx = 0, by = 0;
      read_target(&sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            unsigned tx = nearest((x + 0.5) / W, TEX_W);
            unsigned ty = nearest((y + 0.5) / H, TEX_H);
            const uint8_t want[4] = { data[ty][tx] >> 24, 0, 0, 255 };
            if (memcmp(want, got[y][x], 4) && !bad++) {
               bx = x;
               by = y;
            }
         }
      }
      CHECK(!bad, "%s: %u of %u pixels wrong; first (%u, %u) = %u %u %u %u",
            what, bad, W * H, bx, by, got[by][bx][0], got[by][bx][1],
            got[by][bx][2], got[by][bx][3]);
   }
   void *none = NULL;
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &none);
   ctx->delete_sampler_state(ctx, smp);
   pipe_sampler_view_reference(&view, NULL);
   pipe_resource_reference(&t, NULL);
   scene_end(&sc);
}

/* A sampler clamping to the edge with `filter` and no mipmaps, bound to
 * slot 0 of the fragment stage.
 */
static void *
clamp_sampler(unsigned filter)
{
   void *smp = make_sampler(PIPE_TEX_WRAP_CLAMP_TO_EDGE, filter, -1);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &smp);
   return smp;
}

/* The TEX_W x TEX_H RGBA16F texture, red ramping over the columns by
 * uneven steps, over the whole target through a bilinear sampler
 * (PIPE_CAP_TEXTURE_HALF_FLOAT_LINEAR): red must blend the two nearest
 * columns, where nearest filtering would step.
 */
static void
test_half_float_linear(void)
{
   const char *what = "half-float bilinear";
   static const float red[TEX_W] = { 0.0f, 0.25f, 0.75f, 1.0f };
   static const unsigned char identity[4] = {
      PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y, PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   CHECK(screen->get_param(screen, PIPE_CAP_TEXTURE_HALF_FLOAT_LINEAR),
         "%s: PIPE_CAP_TEXTURE_HALF_FLOAT_LINEAR is off", what);
   struct tex_scene ts =
      tex_scene_begin(PIPE_FORMAT_R16G16B16A16_FLOAT, 0.0f, 1.0f,
                      PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
   uint16_t data[TEX_H][TEX_W][4];
   for (unsigned y = 0; y < TEX_H; ++y) {
      for (unsigned x = 0; x < TEX_W; ++x) {
         data[y][x][0] = _mesa_float_to_half(red[x]);
         data[y][x][1] = _mesa_float_to_half(0.5f);
         data[y][x][2] = _mesa_float_to_half(0.0f);
         data[y][x][3] = _mesa_float_to_half(1.0f);
      }
   }
   struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
   if (ts.tex)
      ctx->texture_subdata(ctx, ts.tex, 0, PIPE_MAP_WRITE, &box, data,
                           sizeof(data[0]), sizeof(data));
   void *linear = clamp_sampler(PIPE_TEX_FILTER_LINEAR);
   ctx->delete_sampler_state(ctx, ts.smp);
   ts.smp = linear;
   draw_textured_quad(what);
   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0, bx = 0, by = 0;
      read_target(&ts.sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            /* Between the centres of columns i and i + 1 (clamped). */
            double s = (double)TEX_W * (x + 0.5) / W - 0.5;
            int i = (int)floor(s);
            double f = s - i;
            double r0 = red[CLAMP(i, 0, TEX_W - 1)];
            double r1 = red[CLAMP(i + 1, 0, TEX_W - 1)];
            const uint8_t want[4] = { unorm8(r0 + f * (r1 - r0)), unorm8(0.5f),
                                      0, 255 };
            bool ok = true;
            for (unsigned c = 0; c < 4; ++c)
               ok &= abs((int)got[y][x][c] - want[c]) <= 2;
            if (!ok && !bad++) {
               bx = x;
               by = y;
            }
         }
      }
      CHECK(!bad, "%s: %u pixels wrong; first (%u, %u) = %u %u %u %u", what,
            bad, bx, by, got[by][bx][0], got[by][bx][1], got[by][bx][2],
            got[by][bx][3]);
   }
   tex_scene_end(&ts);
}

/* DATA0.x = the depth comparison of texture 0 at VAR0.xy against the
 * reference `ref` (a sampler2DShadow lookup); the other channels fixed.
 */
static void *
shadow_fs(float ref)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "shadow");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *uv = nir_channels(&b, nir_load_var(&b, in), 0x3);

   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
   tex->op = nir_texop_tex;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->is_shadow = true;
   tex->is_new_style_shadow = true; /* one result, as GLSL 1.30 */
   tex->dest_type = nir_type_float32;
   tex->coord_components = 2;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(uv);
   tex->src[1].src_type = nir_tex_src_comparator;
   tex->src[1].src = nir_src_for_ssa(nir_imm_float(&b, ref));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 1, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);

   nir_store_var(&b, out,
                 nir_vec4(&b, &tex->dest.ssa, nir_imm_float(&b, 0.25f),
                          nir_imm_float(&b, 0.0f), nir_imm_float(&b, 1.0f)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* Depth comparisons with every compare function against a C reference of
 * GL's rule, "reference FUNC texel": a Z32F (or Z16) texture whose texels
 * step from 0 to 15/16, one of them equal to the reference 0.5 in Z32F.
 * The sampler compares the other way round ("texel FUNC reference"), so
 * the ordered functions must reach it swapped: unswapped, LESS would pass
 * where GREATER should.  Z16 checks that every architecture samples it
 * (v6 has no Z16 texel format and reads it as R16_UNORM).
 */
static void
test_shadow_compare(enum pipe_format format)
{
   static const unsigned char identity[4] = {
      PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y, PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   const float ref = 0.5f;
   const bool z16 = format == PIPE_FORMAT_Z16_UNORM;
   struct tex_scene ts =
      tex_scene_begin(format, 0.0f, 1.0f, PIPE_TEX_WRAP_CLAMP_TO_EDGE,
                      identity);
   CHECK(ts.view, "shadow compare: no %s view",
         util_format_short_name(format));
   float depth[TEX_H][TEX_W];
   uint16_t depth16[TEX_H][TEX_W];
   for (unsigned y = 0; y < TEX_H; ++y) {
      for (unsigned x = 0; x < TEX_W; ++x) {
         depth16[y][x] = (uint16_t)((x + TEX_W * y) * 65535u / 16u);
         depth[y][x] = z16 ? depth16[y][x] / 65535.0f
                           : (x + TEX_W * y) / 16.0f;
      }
   }
   struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
   if (ts.tex && z16)
      ctx->texture_subdata(ctx, ts.tex, 0, PIPE_MAP_WRITE, &box, depth16,
                           sizeof(depth16[0]), sizeof(depth16));
   else if (ts.tex)
      ctx->texture_subdata(ctx, ts.tex, 0, PIPE_MAP_WRITE, &box, depth,
                           sizeof(depth[0]), sizeof(depth));
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, ts.sc.fs);
   ts.sc.fs = shadow_fs(ref);
   CHECK(ts.sc.fs, "shadow compare: shader not created");
   ctx->bind_fs_state(ctx, ts.sc.fs);

   for (unsigned func = PIPE_FUNC_NEVER; func <= PIPE_FUNC_ALWAYS; ++func) {
      ctx->delete_sampler_state(ctx, ts.smp);
      ts.smp = make_sampler(PIPE_TEX_WRAP_CLAMP_TO_EDGE,
                            PIPE_TEX_FILTER_NEAREST, (int)func);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &ts.smp);
      pan_test_debug_msg[0] = 0;
      draw_textured_quad("shadow compare");
      CHECK(!pan_test_debug_msg[0], "shadow compare: driver said \"%s\"",
            pan_test_debug_msg);
      if (!check_pixels)
         continue;
      static uint8_t got[H][W][4];
      unsigned bad = 0, bx = 0, by = 0;
      read_target(&ts.sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            float d = depth[nearest((y + 0.5) / H, TEX_H)]
                           [nearest((x + 0.5) / W, TEX_W)];
            bool pass = func == PIPE_FUNC_ALWAYS ||
                        (func == PIPE_FUNC_LESS && ref < d) ||
                        (func == PIPE_FUNC_EQUAL && ref == d) ||
                        (func == PIPE_FUNC_LEQUAL && ref <= d) ||
                        (func == PIPE_FUNC_GREATER && ref > d) ||
                        (func == PIPE_FUNC_NOTEQUAL && ref != d) ||
                        (func == PIPE_FUNC_GEQUAL && ref >= d);
            const uint8_t want[4] = { pass ? 255 : 0, unorm8(0.25f), 0, 255 };
            if (memcmp(want, got[y][x], 4) && !bad++) {
               bx = x;
               by = y;
            }
         }
      }
      CHECK(!bad, "shadow compare %s, function %u: %u of %u pixels wrong; "
            "first (%u, %u) = %u %u %u %u", util_format_short_name(format),
            func, bad, W * H, bx, by,
            got[by][bx][0], got[by][bx][1], got[by][bx][2], got[by][bx][3]);
   }
   tex_scene_end(&ts);
}

/* ------------------------------------------------------------------ */
/* Gathers and texel offsets                                           */
/* ------------------------------------------------------------------ */

/* DATA0 = textureGatherOffset(texture 0, VAR0.xy, (dx, dy), comp), with
 * op nir_texop_tex textureOffset(...) (implicit LOD), with nir_texop_txf
 * texelFetchOffset(ivec2(VAR0.xy * size), 0, (dx, dy)). */
static void *
gather_fs(nir_texop op, unsigned comp, int dx, int dy)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "gather");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *uv = nir_channels(&b, nir_load_var(&b, in), 0x3);

   bool fetch = op == nir_texop_txf;
   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2 + fetch);
   tex->op = op;
   tex->component = op == nir_texop_tg4 ? comp : 0;
   if (fetch) {
      uv = nir_f2i32(&b, nir_fmul(&b, uv, nir_imm_vec2(&b, TEX_W, TEX_H)));
      tex->src[2].src_type = nir_tex_src_lod;
      tex->src[2].src = nir_src_for_ssa(nir_imm_int(&b, 0));
   }
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->dest_type = nir_type_float32;
   tex->coord_components = 2;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(uv);
   tex->src[1].src_type = nir_tex_src_offset;
   tex->src[1].src = nir_src_for_ssa(nir_imm_ivec2(&b, dx, dy));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);

   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* GL's wrap of texel index i (repeat or clamp to edge). */
static unsigned
wrap_texel(int i, unsigned size, unsigned wrap)
{
   if (wrap == PIPE_TEX_WRAP_REPEAT)
      return (unsigned)(((i % (int)size) + (int)size) % (int)size);
   return (unsigned)CLAMP(i, 0, (int)size - 1);
}

/* Component c of the texel (x, y) as the view's swizzle shows it. */
static uint8_t
swizzled(unsigned x, unsigned y, const unsigned char swizzle[4], unsigned c)
{
   uint8_t t[4];
   texel(x, y, t);
   unsigned s = swizzle[c];
   return s <= PIPE_SWIZZLE_W ? t[s] : s == PIPE_SWIZZLE_1 ? 255 : 0;
}

/* What GL wants at pixel (x, y): the gather of comp over the bilinear
 * footprint in GL's order (i0, j1), (i1, j1), (i1, j0), (i0, j0), or the
 * nearest texel, the offsets added before the wrap. */
static void
gather_ref(nir_texop op, unsigned comp, int dx, int dy, unsigned wrap,
           const unsigned char swizzle[4], unsigned x, unsigned y,
           uint8_t want[4])
{
   double u = (x + 0.5) / W * TEX_W, v = (y + 0.5) / H * TEX_H;
   if (op == nir_texop_txf) {
      /* Outside the level GL leaves the result undefined: the caller
       * skips those pixels (want[3] = 0 with a texel's alpha above 0). */
      int i = (int)floor(u) + dx, j = (int)floor(v) + dy;
      bool in = i >= 0 && i < TEX_W && j >= 0 && j < TEX_H;
      for (unsigned c = 0; c < 4; ++c)
         want[c] = in ? swizzled((unsigned)i, (unsigned)j, swizzle, c) : 0;
      return;
   }
   if (op != nir_texop_tg4) {
      unsigned i = wrap_texel((int)floor(u) + dx, TEX_W, wrap);
      unsigned j = wrap_texel((int)floor(v) + dy, TEX_H, wrap);
      for (unsigned c = 0; c < 4; ++c)
         want[c] = swizzled(i, j, swizzle, c);
      return;
   }
   int i0 = (int)floor(u - 0.5) + dx, j0 = (int)floor(v - 0.5) + dy;
   static const int corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
   for (unsigned n = 0; n < 4; ++n) {
      unsigned i = wrap_texel(i0 + corner[n][0], TEX_W, wrap);
      unsigned j = wrap_texel(j0 + corner[n][1], TEX_H, wrap);
      want[n] = swizzled(i, j, swizzle, comp);
   }
}

/* textureGather of each component, with and without offsets, a swizzle and
 * both wraps, and textureOffset, over the whole target against
 * gather_ref().  The texture's coordinates run 0 to 1 over the target, so
 * no pixel centre lies on a texel boundary. */
static void
test_gather(void)
{
   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   static const unsigned char bgr1[4] = { PIPE_SWIZZLE_Z, PIPE_SWIZZLE_Y,
                                          PIPE_SWIZZLE_X, PIPE_SWIZZLE_1 };
   static const struct {
      nir_texop op;
      unsigned comp;
      int dx, dy;
      unsigned wrap;
      bool swizzle;
   } cases[] = {
      { nir_texop_tg4, 0, 0, 0, PIPE_TEX_WRAP_CLAMP_TO_EDGE, false },
      { nir_texop_tg4, 1, 0, 0, PIPE_TEX_WRAP_REPEAT, false },
      { nir_texop_tg4, 2, 1, -2, PIPE_TEX_WRAP_REPEAT, false },
      { nir_texop_tg4, 3, -8, 7, PIPE_TEX_WRAP_CLAMP_TO_EDGE, false },
      { nir_texop_tg4, 0, -1, 1, PIPE_TEX_WRAP_REPEAT, true },
      { nir_texop_tg4, 3, 0, 0, PIPE_TEX_WRAP_REPEAT, true },
      { nir_texop_tex, 0, 3, -1, PIPE_TEX_WRAP_REPEAT, false },
      { nir_texop_tex, 0, -2, 2, PIPE_TEX_WRAP_CLAMP_TO_EDGE, true },
      { nir_texop_txf, 0, 1, -1, PIPE_TEX_WRAP_REPEAT, false },
      { nir_texop_txf, 0, -2, 3, PIPE_TEX_WRAP_REPEAT, true },
   };
   for (unsigned k = 0; k < ARRAY_SIZE(cases); ++k) {
      const unsigned char *swz = cases[k].swizzle ? bgr1 : identity;
      struct tex_scene ts = tex_scene_begin(
         PIPE_FORMAT_R8G8B8A8_UNORM, 0.0f, 1.0f, cases[k].wrap, swz);
      ctx->bind_fs_state(ctx, NULL);
      ctx->delete_fs_state(ctx, ts.sc.fs);
      ts.sc.fs =
         gather_fs(cases[k].op, cases[k].comp, cases[k].dx, cases[k].dy);
      CHECK(ts.sc.fs, "gather %u: shader not created", k);
      ctx->bind_fs_state(ctx, ts.sc.fs);
      pan_test_debug_msg[0] = 0;
      draw_textured_quad("gather");
      CHECK(!pan_test_debug_msg[0], "gather %u: driver said \"%s\"", k,
            pan_test_debug_msg);
      if (check_pixels) {
         static uint8_t got[H][W][4];
         unsigned bad = 0, bx = 0, by = 0;
         uint8_t first[4] = { 0 };
         read_target(&ts.sc.t, got);
         for (unsigned y = 0; y < H; ++y) {
            for (unsigned x = 0; x < W; ++x) {
               uint8_t want[4];
               gather_ref(cases[k].op, cases[k].comp, cases[k].dx,
                          cases[k].dy, cases[k].wrap, swz, x, y, want);
               if (cases[k].op == nir_texop_txf && !want[3])
                  continue;
               if (memcmp(want, got[y][x], 4) && !bad++) {
                  bx = x;
                  by = y;
                  memcpy(first, want, 4);
               }
            }
         }
         CHECK(!bad, "gather %u (%s comp %u offset %d %d): %u of %u pixels "
               "wrong; first (%u, %u) = %u %u %u %u, want %u %u %u %u", k,
               cases[k].op == nir_texop_tg4   ? "gather"
               : cases[k].op == nir_texop_txf ? "fetch"
                                              : "offset",
               cases[k].comp, cases[k].dx, cases[k].dy, bad, W * H, bx, by,
               got[by][bx][0], got[by][bx][1], got[by][bx][2], got[by][bx][3],
               first[0], first[1], first[2], first[3]);
      }
      tex_scene_end(&ts);
   }
}

/* DATA0 = textureGather(sampler2DShadow 0, VAR0.xy, ref): the four
 * comparisons of the footprint. */
static void *
shadow_gather_fs(float ref)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "shadow_gather");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *uv = nir_channels(&b, nir_load_var(&b, in), 0x3);

   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
   tex->op = nir_texop_tg4;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->is_shadow = true; /* four results: not a new-style shadow */
   tex->dest_type = nir_type_float32;
   tex->coord_components = 2;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(uv);
   tex->src[1].src_type = nir_tex_src_comparator;
   tex->src[1].src = nir_src_for_ssa(nir_imm_float(&b, ref));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);

   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A shadow gather of a Z32F texture with LESS and GEQUAL: each word is GL's
 * "ref FUNC texel" for the footprint's texels in GL's order. */
static void
test_shadow_gather(void)
{
   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   const float ref = 0.5f;
   static const unsigned funcs[] = { PIPE_FUNC_LESS, PIPE_FUNC_GEQUAL };
   for (unsigned f = 0; f < ARRAY_SIZE(funcs); ++f) {
      struct tex_scene ts =
         tex_scene_begin(PIPE_FORMAT_Z32_FLOAT, 0.0f, 1.0f,
                         PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
      CHECK(ts.view, "shadow gather: no Z32F view");
      float depth[TEX_H][TEX_W];
      for (unsigned y = 0; y < TEX_H; ++y)
         for (unsigned x = 0; x < TEX_W; ++x)
            depth[y][x] = (x + TEX_W * y) / 16.0f;
      struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
      if (ts.tex)
         ctx->texture_subdata(ctx, ts.tex, 0, PIPE_MAP_WRITE, &box, depth,
                              sizeof(depth[0]), sizeof(depth));
      ctx->bind_fs_state(ctx, NULL);
      ctx->delete_fs_state(ctx, ts.sc.fs);
      ts.sc.fs = shadow_gather_fs(ref);
      CHECK(ts.sc.fs, "shadow gather: shader not created");
      ctx->bind_fs_state(ctx, ts.sc.fs);
      ctx->delete_sampler_state(ctx, ts.smp);
      ts.smp = make_sampler(PIPE_TEX_WRAP_CLAMP_TO_EDGE,
                            PIPE_TEX_FILTER_NEAREST, (int)funcs[f]);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &ts.smp);
      pan_test_debug_msg[0] = 0;
      draw_textured_quad("shadow gather");
      CHECK(!pan_test_debug_msg[0], "shadow gather: driver said \"%s\"",
            pan_test_debug_msg);
      if (check_pixels) {
         static uint8_t got[H][W][4];
         unsigned bad = 0, bx = 0, by = 0;
         read_target(&ts.sc.t, got);
         static const int corner[4][2] = {
            { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 }
         };
         for (unsigned y = 0; y < H; ++y) {
            for (unsigned x = 0; x < W; ++x) {
               int i0 = (int)floor((x + 0.5) / W * TEX_W - 0.5);
               int j0 = (int)floor((y + 0.5) / H * TEX_H - 0.5);
               uint8_t want[4];
               for (unsigned n = 0; n < 4; ++n) {
                  float d =
                     depth[wrap_texel(j0 + corner[n][1], TEX_H,
                                      PIPE_TEX_WRAP_CLAMP_TO_EDGE)]
                          [wrap_texel(i0 + corner[n][0], TEX_W,
                                      PIPE_TEX_WRAP_CLAMP_TO_EDGE)];
                  bool pass = funcs[f] == PIPE_FUNC_LESS ? ref < d : ref >= d;
                  want[n] = pass ? 255 : 0;
               }
               if (memcmp(want, got[y][x], 4) && !bad++) {
                  bx = x;
                  by = y;
               }
            }
         }
         CHECK(!bad, "shadow gather, function %u: %u of %u pixels wrong; "
               "first (%u, %u) = %u %u %u %u", funcs[f], bad, W * H, bx, by,
               got[by][bx][0], got[by][bx][1], got[by][bx][2],
               got[by][bx][3]);
      }
      tex_scene_end(&ts);
   }
}

/* DATA0 = (textureSize(texture 0, lod).xy, 0, 255) / 255. */
static void *
size_fs(int lod)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "size");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 1);
   tex->op = nir_texop_txs;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->dest_type = nir_type_int32;
   tex->src[0].src_type = nir_tex_src_lod;
   tex->src[0].src = nir_src_for_ssa(nir_imm_int(&b, lod));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 2, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);

   nir_ssa_def *wh = nir_i2f32(&b, &tex->dest.ssa);
   nir_ssa_def *c = nir_vec4(&b, nir_channel(&b, wh, 0), nir_channel(&b, wh, 1),
                             nir_imm_float(&b, 0), nir_imm_float(&b, 255));
   nir_store_var(&b, out, nir_fmul_imm(&b, c, 1.0 / 255), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* textureSize at LOD 0 to 3 of the TEX_W x TEX_H texture: GL's
 * max(size >> lod, 1) in every pixel. */
static void
test_texture_size_lod(void)
{
   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   for (int lod = 0; lod < 4; ++lod) {
      struct tex_scene ts =
         tex_scene_begin(PIPE_FORMAT_R8G8B8A8_UNORM, 0.0f, 1.0f,
                         PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
      ctx->bind_fs_state(ctx, NULL);
      ctx->delete_fs_state(ctx, ts.sc.fs);
      ts.sc.fs = size_fs(lod);
      CHECK(ts.sc.fs, "texture size at LOD %d: shader not created", lod);
      ctx->bind_fs_state(ctx, ts.sc.fs);
      pan_test_debug_msg[0] = 0;
      draw_textured_quad("texture size");
      CHECK(!pan_test_debug_msg[0], "texture size at LOD %d: driver said "
            "\"%s\"", lod, pan_test_debug_msg);
      if (check_pixels) {
         static uint8_t got[H][W][4];
         const uint8_t want[4] = { MAX2(TEX_W >> lod, 1),
                                   MAX2(TEX_H >> lod, 1), 0, 255 };
         unsigned bad = 0;
         read_target(&ts.sc.t, got);
         for (unsigned y = 0; y < H; ++y)
            for (unsigned x = 0; x < W; ++x)
               bad += memcmp(want, got[y][x], 4) != 0;
         CHECK(!bad, "texture size at LOD %d: %u pixels wrong; (0, 0) = %u "
               "%u %u %u, want %u %u 0 255", lod, bad, got[0][0][0],
               got[0][0][1], got[0][0][2], got[0][0][3], want[0], want[1]);
      }
      tex_scene_end(&ts);
   }
}

/* A view whose format the texture unit cannot sample drops the draw with
 * a message instead of sampling a null descriptor.
 */
static void
test_unsampled_view(void)
{
   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   struct tex_scene ts =
      tex_scene_begin(PIPE_FORMAT_R8G8B8A8_USCALED, 0.0f, 1.0f,
                      PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = 1,
      .max_index = 3,
   };

   CHECK(ts.view, "unsampled view: no view object");
   pan_test_debug_msg[0] = 0;
   char *trace = clear_draw(&info, 4, 1);
   CHECK(jobs(trace, DRAW_JOB) == 0,
         "unsampled view: %u draws submitted, want none",
         jobs(trace, DRAW_JOB));
   CHECK(strstr(pan_test_debug_msg, "cannot be sampled"),
         "unsampled view: message \"%s\"", pan_test_debug_msg);
   free(trace);
   tex_scene_end(&ts);
}

/* ------------------------------------------------------------------ */
/* Uniform blocks and texture arrays (the ES 3.0 building blocks)      */
/* ------------------------------------------------------------------ */

/* A quad over the whole target whose vertices all carry `attr` as their
 * second attribute.
 */
static struct pipe_resource *
flat_quad(const float attr[4])
{
   struct vtx quad[4] = {
      { 0, 0 }, { W * 16, 0 }, { 0, H * 16 }, { W * 16, H * 16 }
   };
   for (unsigned i = 0; i < 4; ++i)
      memcpy(quad[i].rgba, attr, 16);
   return vertex_buffer(quad, 4);
}

/* The vec4 at row f2u(row) of constant buffer f2u(block): both chosen at
 * run time, so the compiler reads them with LD_BUFFER.
 */
static nir_ssa_def *
ubo_row(nir_builder *b, nir_ssa_def *block, nir_ssa_def *row)
{
   return nir_load_ubo(b, 4, 32, nir_f2u32(b, block),
                       nir_imul_imm(b, nir_f2u32(b, row), 16),
                       .align_mul = 16, .range = ~0);
}

/* VS: v0 = cb[col.x][col.y] (flat).  FS: colour = cb[v0.x][v0.y] plus
 * (0, 0, cb0[0].x, 0), cb0 pushed.
 */
static void
ubo_shaders(void **vs, void **fs)
{
   nir_builder b = shader(MESA_SHADER_VERTEX, "ubo-vs");
   struct vs_vars vv = vs_vars(b.shader);
   vv.ocol->data.interpolation = INTERP_MODE_FLAT;
   nir_ssa_def *c = nir_load_var(&b, vv.col);
   nir_store_var(&b, vv.opos, nir_load_var(&b, vv.pos), 0xf);
   nir_store_var(&b, vv.ocol,
                 ubo_row(&b, nir_channel(&b, c, 0), nir_channel(&b, c, 1)),
                 0xf);
   b.shader->info.num_ubos = 6;
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   *vs = ctx->create_vs_state(ctx, &cso);

   b = shader(MESA_SHADER_FRAGMENT, "ubo-fs");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_ssa_def *v = nir_load_var(&b, in);
   nir_ssa_def *u0 = nir_load_ubo(&b, 1, 32, nir_imm_int(&b, 0),
                                  nir_imm_int(&b, 0), .align_mul = 4,
                                  .range = 4);
   nir_ssa_def *rgba =
      ubo_row(&b, nir_channel(&b, v, 0), nir_channel(&b, v, 1));
   rgba = nir_vector_insert_imm(
      &b, rgba, nir_fadd(&b, nir_channel(&b, rgba, 2), u0), 2);
   nir_store_var(&b, out, rgba, 0xf);
   b.shader->info.num_ubos = 13;
   cso.ir.nir = b.shader;
   *fs = ctx->create_fs_state(ctx, &cso);
}

/* Every pixel of the target must be `want` exactly. */
static void
check_flat_target(const char *what, struct target *t, const float want[4])
{
   static uint8_t got[H][W][4];
   unsigned bad = 0, bx = 0, by = 0;

   if (!check_pixels)
      return;
   read_target(t, got);
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         bool ok = true;
         for (unsigned c = 0; c < 4; ++c)
            ok &= got[y][x][c] == unorm8(want[c]);
         if (!ok && !bad++) {
            bx = x;
            by = y;
         }
      }
   }
   CHECK(!bad, "%s: %u of %u pixels wrong; first (%u, %u) = %u %u %u %u",
         what, bad, W * H, bx, by, got[by][bx][0], got[by][bx][1],
         got[by][bx][2], got[by][bx][3]);
}

/* Uniform blocks picked at run time in both stages: vertex buffer 5 a
 * resource bound at an offset, fragment buffer 12 user memory, and each
 * stage's buffer 0.  A second pass rebinds fragment buffer 12: the table
 * must follow.
 */
static void
test_uniform_blocks(void)
{
   const char *what = "uniform blocks";
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                  PIPE_SHADER_CAP_MAX_CONST_BUFFERS) >= 13,
         "%s: fewer than 13 constant buffers", what);
   struct scene sc = { make_target(), bind_fixed_state() };
   ubo_shaders(&sc.vs, &sc.fs);
   CHECK(sc.vs && sc.fs, "%s: shaders not created", what);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = flat_quad((const float[4]){ 5.0f, 2.0f, 0.0f, 0.0f });

   /* Vertex buffer 5: row 2 (after 64 bytes of offset) names row 1 of
    * fragment buffer 12; the other rows name nothing drawable. */
   float vs_rows[16 + 12] = { 0 };
   const float pick[4] = { 12.0f, 1.0f, 0.0f, 0.0f };
   memcpy(&vs_rows[16 + 8], pick, sizeof(pick));
   for (unsigned i = 16; i < 16 + 8; ++i)
      vs_rows[i] = 3.0f;
   struct pipe_resource *vs_buf = pipe_buffer_create(
      screen, PIPE_BIND_CONSTANT_BUFFER, PIPE_USAGE_DEFAULT, sizeof(vs_rows));
   pipe_buffer_write(ctx, vs_buf, 0, sizeof(vs_rows), vs_rows);
   const float zero[4] = { 0 }, blue[4] = { 0.25f };
   float fs_rows[2][8] = {
      { 1, 1, 1, 1, 0.5f, 0.25f, 0.0f, 1.0f },
      { 1, 1, 1, 1, 0.75f, 0.5f, 0.5f, 0.25f },
   };
   struct pipe_constant_buffer cb[] = {
      { .user_buffer = zero, .buffer_size = 16 },
      { .buffer = vs_buf, .buffer_offset = 64, .buffer_size = 48 },
      { .user_buffer = blue, .buffer_size = 16 },
      { .user_buffer = fs_rows[0], .buffer_size = 32 },
   };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, &cb[0]);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 5, false, &cb[1]);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, &cb[2]);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 12, false, &cb[3]);

   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = 1,
      .max_index = 3,
   };
   for (unsigned round = 0; round < 2; ++round) {
      pan_test_debug_msg[0] = 0;
      char *trace = clear_draw(&info, 4, 1);
      CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted (%s)", what,
            jobs(trace, DRAW_JOB), pan_test_debug_msg);
      free(trace);
      float want[4];
      memcpy(want, &fs_rows[round][4], sizeof(want));
      want[2] += blue[0];
      check_flat_target(round ? "uniform blocks, rebound" : what, &sc.t,
                        want);
      cb[3].user_buffer = fs_rows[1];
      ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 12, false, &cb[3]);
   }

   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, NULL);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 5, false, NULL);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, NULL);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 12, false, NULL);
   pipe_resource_reference(&vs_buf, NULL);
   scene_end(&sc);
}

/* GL uniforms are constant buffer 0, whose size the screen reports as
 * GL_MAX_*_UNIFORM_COMPONENTS: piglit's glsl-fs-uniform-array-6 wants
 * more than 4096 components.  The shaders of test_uniform_blocks() read
 * 64000 bytes into the vertex stage's buffer 0 and the last row of 64 KiB
 * of the fragment stage's, which is bound with 80 KiB (more than a v6/v7
 * descriptor can size: it must be clamped, not overflow).
 */
static void
test_large_uniform_buffer(void)
{
   const char *what = "64 KiB uniform buffer";
   const unsigned rows = 80 * 1024 / 16, vs_row = 4000, fs_row = 4095;
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                  PIPE_SHADER_CAP_MAX_CONST_BUFFER0_SIZE) >=
            64 * 1024,
         "%s: constant buffer 0 is smaller than 64 KiB", what);
   struct scene sc = { make_target(), bind_fixed_state() };
   ubo_shaders(&sc.vs, &sc.fs);
   CHECK(sc.vs && sc.fs, "%s: shaders not created", what);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = flat_quad((const float[4]){ 0.0f, vs_row, 0.0f, 0.0f });

   float(*vs_rows)[4] = calloc(rows, 16);
   float(*fs_rows)[4] = calloc(rows, 16);
   CHECK(vs_rows && fs_rows, "%s: out of memory", what);
   if (vs_rows && fs_rows) {
      const float pick[4] = { 0.0f, fs_row, 0.0f, 0.0f };
      const float colour[4] = { 0.5f, 0.25f, 0.0f, 1.0f };
      memcpy(vs_rows[vs_row], pick, 16);
      memcpy(fs_rows[fs_row], colour, 16);
      fs_rows[0][0] = 0.25f; /* pushed: added to blue */
      struct pipe_constant_buffer vcb = { .user_buffer = vs_rows,
                                          .buffer_size = 64 * 1024 };
      struct pipe_constant_buffer fcb = { .user_buffer = fs_rows,
                                          .buffer_size = rows * 16 };
      ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, &vcb);
      ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, &fcb);
      const struct pipe_draw_info info = {
         .mode = PIPE_PRIM_TRIANGLE_STRIP,
         .instance_count = 1,
         .max_index = 3,
      };
      pan_test_debug_msg[0] = 0;
      char *trace = clear_draw(&info, 4, 1);
      CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted (%s)", what,
            jobs(trace, DRAW_JOB), pan_test_debug_msg);
      free(trace);
      check_flat_target(what, &sc.t,
                        (const float[4]){ 0.5f, 0.25f, 0.25f, 1.0f });
      ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, NULL);
      ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, NULL);
   }
   free(vs_rows);
   free(fs_rows);
   scene_end(&sc);
}

/* gl_FragCoord as the state tracker hands it over (a VARYING_SLOT_POS
 * input): the screen claims an upper-left origin with pixel centres at
 * halves, so row y of the target must read (x + 0.5, y + 0.5).  With the
 * origin misreported, the state tracker flipped y in FBOs and piglit's
 * switch/fs-perpixel saw odd rows where even ones were.
 */
static void
test_frag_coord(void)
{
   const char *what = "gl_FragCoord";
   CHECK(screen->get_param(screen, PIPE_CAP_FS_COORD_ORIGIN_UPPER_LEFT) &&
            !screen->get_param(screen, PIPE_CAP_FS_COORD_ORIGIN_LOWER_LEFT) &&
            screen->get_param(screen,
                              PIPE_CAP_FS_COORD_PIXEL_CENTER_HALF_INTEGER),
         "%s: the screen must claim the upper-left origin it has", what);
   struct scene sc = { make_target(), bind_fixed_state() };
   sc.vs = pass_through_vs(false);
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "frag-coord");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *pos =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_POS, 0, "pos");
   nir_ssa_def *p = nir_load_var(&b, pos);
   nir_store_var(&b, out,
                 nir_vec4(&b, nir_fmul_imm(&b, nir_channel(&b, p, 0), 1.0 / W),
                          nir_fmul_imm(&b, nir_channel(&b, p, 1), 1.0 / H),
                          nir_imm_float(&b, 0.0f), nir_imm_float(&b, 1.0f)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   sc.fs = ctx->create_fs_state(ctx, &cso);
   CHECK(sc.vs && sc.fs, "%s: shaders not created", what);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = flat_quad((const float[4]){ 0 });
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = 1,
      .max_index = 3,
   };
   char *trace = clear_draw(&info, 4, 1);
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted", what,
         jobs(trace, DRAW_JOB));
   free(trace);
   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0, bx = 0, by = 0;
      read_target(&sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            int dr = got[y][x][0] - unorm8((x + 0.5f) / W);
            int dg = got[y][x][1] - unorm8((y + 0.5f) / H);
            if ((abs(dr) > 1 || abs(dg) > 1) && !bad++) {
               bx = x;
               by = y;
            }
         }
      }
      CHECK(!bad, "%s: %u pixels wrong; first (%u, %u) = %u %u", what, bad,
            bx, by, got[by][bx][0], got[by][bx][1]);
   }
   scene_end(&sc);
}

#define TEX_LAYERS 3

/* Texel (x, y) of layer l of the array texture. */
static void
layer_texel(unsigned x, unsigned y, unsigned l, uint8_t out[4])
{
   texel(x, y, out);
   out[0] += 5 * l;
   out[3] = 40 + 70 * l;
}

/* DATA0 = 2D array texture 0 at (VAR0.x, VAR0.y, layer VAR0.z), sampled
 * (txl at LOD 0) or fetched (txf at texel (VAR0.x * TEX_W, ...)).
 */
static void *
array_fs(bool fetch)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, fetch ? "array-txf" : "array");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *v = nir_load_var(&b, in);
   nir_ssa_def *coord = nir_channels(&b, v, 0x7);
   if (fetch) {
      nir_ssa_def *scale = nir_imm_vec3(&b, TEX_W, TEX_H, 1.0f);
      coord = nir_f2i32(&b, nir_ffloor(&b, nir_fmul(&b, coord, scale)));
   }

   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
   tex->op = fetch ? nir_texop_txf : nir_texop_txl;
   tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
   tex->is_array = true;
   tex->dest_type = nir_type_float32;
   tex->coord_components = 3;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(coord);
   tex->src[1].src_type = nir_tex_src_lod;
   tex->src[1].src =
      nir_src_for_ssa(fetch ? nir_imm_int(&b, 0) : nir_imm_float(&b, 0.0f));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);
   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A quad with texture coordinates 0 to 1 at layer `layer` over a
 * TEX_W x TEX_H x TEX_LAYERS array texture (every layer uploaded at once),
 * seen through views of layers [first, TEX_LAYERS): each pixel must be
 * the texel of layer first + clamp(round(layer), 0, last - first).
 */
static void
test_texture_array(bool fetch)
{
   static const struct {
      unsigned first;
      float layer;
      unsigned want;
   } cases[] = { { 0, 2.0f, 2 }, { 0, 0.8f, 1 }, { 1, 0.0f, 1 },
                 { 1, 1.0f, 2 }, { 1, 7.0f, 2 } };
   const char *what = fetch ? "texture array, texelFetch" : "texture array";
   CHECK(screen->get_param(screen, PIPE_CAP_MAX_TEXTURE_ARRAY_LAYERS) >= 256,
         "%s: fewer than 256 layers", what);
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D_ARRAY,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = TEX_W,
      .height0 = TEX_H,
      .depth0 = 1,
      .array_size = TEX_LAYERS,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *tex = screen->resource_create(screen, &templ);
   uint8_t data[TEX_LAYERS][TEX_H][TEX_W][4];
   for (unsigned l = 0; l < TEX_LAYERS; ++l)
      for (unsigned y = 0; y < TEX_H; ++y)
         for (unsigned x = 0; x < TEX_W; ++x)
            layer_texel(x, y, l, data[l][y][x]);
   struct pipe_box box = { .width = TEX_W, .height = TEX_H,
                           .depth = TEX_LAYERS };
   ctx->texture_subdata(ctx, tex, 0, PIPE_MAP_WRITE, &box, data, TEX_W * 4,
                        sizeof(data[0]));
   void *smp = clamp_sampler(PIPE_TEX_FILTER_NEAREST);

   struct scene sc = { make_target(), bind_fixed_state() };
   sc.vs = pass_through_vs(false);
   sc.fs = array_fs(fetch);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   for (unsigned k = 0; k < ARRAY_SIZE(cases); ++k) {
      /* texelFetch takes integer layers and is undefined past the end. */
      if (fetch && (cases[k].layer != floorf(cases[k].layer) ||
                    cases[k].first + cases[k].layer >= TEX_LAYERS))
         continue;
      const struct vtx quad[4] = {
         { 0, 0, { 0, 0, cases[k].layer } },
         { W * 16, 0, { 1, 0, cases[k].layer } },
         { 0, H * 16, { 0, 1, cases[k].layer } },
         { W * 16, H * 16, { 1, 1, cases[k].layer } },
      };
      sc.vb = vertex_buffer(quad, 4);
      struct pipe_sampler_view vt = {
         .format = templ.format,
         .target = PIPE_TEXTURE_2D_ARRAY,
         .u.tex = { .first_layer = cases[k].first,
                    .last_layer = TEX_LAYERS - 1 },
         PAN_TEST_IDENTITY_SWIZZLE,
      };
      struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, tex, &vt);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
      draw_textured_quad(what);
      if (check_pixels) {
         static uint8_t got[H][W][4];
         unsigned bad = 0, bx = 0, by = 0;
         read_target(&sc.t, got);
         for (unsigned y = 0; y < H; ++y) {
            for (unsigned x = 0; x < W; ++x) {
               uint8_t want[4];
               layer_texel(x * TEX_W / W, y * TEX_H / H, cases[k].want, want);
               if (memcmp(want, got[y][x], 4) && !bad++) {
                  bx = x;
                  by = y;
               }
            }
         }
         CHECK(!bad, "%s (view from %u, layer %.1f): %u pixels wrong; "
               "first (%u, %u) = %u %u %u %u", what, cases[k].first,
               cases[k].layer, bad, bx, by, got[by][bx][0], got[by][bx][1],
               got[by][bx][2], got[by][bx][3]);
      }
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
      pipe_sampler_view_reference(&view, NULL);
      pipe_resource_reference(&sc.vb, NULL);
   }
   void *none = NULL;
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &none);
   ctx->delete_sampler_state(ctx, smp);
   pipe_resource_reference(&tex, NULL);
   scene_end(&sc);
}

/* Clears, draws tri[] as one job into the bound target and checks the
 * pixels of t against the flat or screen-linear colour reference.
 */
static void
draw_checked_triangle(const char *what, struct target *t, bool interpolated)
{
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
      .max_index = 2,
   };
   pan_test_debug_msg[0] = 0;
   char *trace = clear_draw(&info, 3, 1);
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted (%s)", what,
         jobs(trace, DRAW_JOB), pan_test_debug_msg);
   free(trace);
   if (check_pixels) {
      const struct vtx *const tris[1][3] = { { &tri[0], &tri[1], &tri[2] } };
      check_pixels_against(what, t, tris, 1, interpolated);
   }
}

/* The triangle drawn into layer 1 of a two-layer 2D array target: layer
 * 1 gets the clear and the triangle, layer 0 keeps what was uploaded.
 */
static void
test_layer_target(void)
{
   const char *what = "triangle into layer 1";
   struct scene sc = scene_begin(false, tri, 3);
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D_ARRAY,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = W,
      .height0 = H,
      .depth0 = 1,
      .array_size = 2,
      .bind = PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *arr = screen->resource_create(screen, &templ);
   static uint8_t fill[2][H][W][4];
   memset(fill, 0x5a, sizeof(fill));
   struct pipe_box box = { .width = W, .height = H, .depth = 2 };
   ctx->texture_subdata(ctx, arr, 0, PIPE_MAP_WRITE, &box, fill, W * 4,
                        sizeof(fill[0]));
   struct pipe_surface st = { .format = templ.format,
                              .u.tex = { .first_layer = 1, .last_layer = 1 } };
   struct target layer1 = { arr, ctx->create_surface(ctx, arr, &st), 1 };
   struct pipe_framebuffer_state fb = {
      .width = W,
      .height = H,
      .nr_cbufs = 1,
      .cbufs = { layer1.surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   draw_checked_triangle(what, &layer1, false);
   if (check_pixels) {
      static uint8_t got[H][W][4];
      struct target layer0 = { arr, NULL, 0 };
      read_target(&layer0, got);
      CHECK(!memcmp(got, fill[0], sizeof(got)), "%s: layer 0 changed", what);
   }
   pipe_surface_reference(&layer1.surf, NULL);
   pipe_resource_reference(&arr, NULL);
   scene_end(&sc);
}

/* noperspective: the triangle's vertices scaled by w = 3, 2 and 1 (the
 * same window positions) with the colour noperspective in both stages;
 * the pixels must follow the screen-linear colour reference, which
 * perspective-correct interpolation would miss by far.
 */
static void
test_noperspective(void)
{
   const char *what = "noperspective triangle";
   struct scene sc = scene_begin(true, tri, 3);
   nir_builder b = shader(MESA_SHADER_VERTEX, "scaled-w");
   struct vs_vars v = vs_vars(b.shader);
   v.ocol->data.interpolation = INTERP_MODE_NOPERSPECTIVE;
   nir_ssa_def *c = nir_load_var(&b, v.col);
   nir_ssa_def *k = nir_fadd_imm(
      &b, nir_fadd(&b, nir_fmul_imm(&b, nir_channel(&b, c, 0), 2.0),
                   nir_channel(&b, c, 1)),
      1.0);
   nir_store_var(&b, v.opos, nir_fmul(&b, nir_load_var(&b, v.pos), k), 0xf);
   nir_store_var(&b, v.ocol, c, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   void *vs = ctx->create_vs_state(ctx, &cso);

   b = shader(MESA_SHADER_FRAGMENT, "noperspective");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_NOPERSPECTIVE;
   nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
   cso.ir.nir = b.shader;
   void *fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   draw_checked_triangle(what, &sc.t, true);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   scene_end(&sc);
}

/* Flat shading takes the provoking vertex's colour: two triangles in one
 * pass, the left with the last vertex's (the GL default), the right with
 * the first's (flatshade_first), so the convention changes mid-pass.
 */
static void
test_provoking_vertex(void)
{
   const char *what = "flat provoking vertex";
   static const struct vtx v[6] = {
      { 2 * 16, 2 * 16, { 1.0f, 0.0f, 0.0f, 1.0f } },
      { 2 * 16, 30 * 16, { 0.0f, 1.0f, 0.0f, 1.0f } },
      { 30 * 16, 2 * 16, { 0.0f, 0.0f, 1.0f, 1.0f } },
      { 34 * 16, 2 * 16, { 1.0f, 1.0f, 0.0f, 1.0f } },
      { 34 * 16, 30 * 16, { 0.0f, 1.0f, 1.0f, 1.0f } },
      { 62 * 16, 2 * 16, { 1.0f, 0.0f, 1.0f, 1.0f } },
   };
   struct scene sc = scene_begin(true, v, 6);
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "flat");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   void *fs = ctx->create_fs_state(ctx, &cso);
   struct pipe_rasterizer_state r = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .flatshade_first = 1,
   };
   void *first = ctx->create_rasterizer_state(ctx, &r);
   ctx->bind_fs_state(ctx, fs);

   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
      .max_index = 5,
   };
   const struct pipe_draw_start_count_bias left = { 0, 3 }, right = { 3, 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &left, 1);
   ctx->bind_rasterizer_state(ctx, first);
   ctx->draw_vbo(ctx, &info, 0, NULL, &right, 1);
   ctx->flush(ctx, NULL, 0);

   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0, covered[2] = { 0 };
      read_target(&sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            double bary[3];
            const float *want = clear_rgba;
            for (unsigned k = 0; k < 2; ++k) {
               if (covers(&v[3 * k], &v[3 * k + 1], &v[3 * k + 2], x, y,
                          bary)) {
                  want = v[k ? 3 : 2].rgba;
                  covered[k]++;
               }
            }
            for (unsigned i = 0; i < 4; ++i)
               bad += got[y][x][i] != unorm8(want[i]);
         }
      }
      CHECK(covered[0] && covered[1], "%s: the reference covers nothing",
            what);
      CHECK(!bad, "%s: %u channels wrong", what, bad);
   }
   ctx->bind_rasterizer_state(ctx, sc.fixed[1]);
   ctx->delete_rasterizer_state(ctx, first);
   ctx->bind_fs_state(ctx, sc.fs);
   ctx->delete_fs_state(ctx, fs);
   scene_end(&sc);
}

/* ------------------------------------------------------------------ */
/* State changes between the draws of a pass                           */
/* ------------------------------------------------------------------ */

/* DATA0 = constant buffer 0's first vec4 (pushed). */
static void *
uniform_fs(void)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "uniform-colour");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *c =
      nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                   .align_mul = 16, .range = 16);
   nir_store_var(&b, out, c, 0xf);
   b.shader->info.num_ubos = 1;
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* Strips over the left (vertices 0-3) and right (4-7) halves of the
 * target, or one of them (half 0 left, 1 right), attribute 1 = attr.
 */
static struct pipe_resource *
half_quads(const float attr[4], int half)
{
   struct vtx v[8];
   unsigned n = 0;
   for (unsigned h = 0; h < 2; ++h) {
      if (half >= 0 && h != (unsigned)half)
         continue;
      for (unsigned i = 0; i < 4; ++i) {
         v[n] = (struct vtx){ (h + (i & 1)) * W / 2 * 16, (i >> 1) * H * 16 };
         memcpy(v[n++].rgba, attr, 16);
      }
   }
   return vertex_buffer(v, n);
}

static void
set_colour(const float *rgba)
{
   struct pipe_constant_buffer cb = { .user_buffer = rgba, .buffer_size = 16 };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, &cb);
}

/* What changes between the two draws. */
struct state_change {
   const char *what;
   const float *colour;            /* the uniform, or NULL */
   struct pipe_sampler_view *view; /* the texture, or NULL */
   struct pipe_resource *vb;       /* the vertex buffer, or NULL */
   unsigned second_start;
};

/* Clears, draws a strip of 4 from vertex 0, applies ch, draws another
 * from ch->second_start, all in one pass, and checks the left half of
 * the target is `left` and the right half `right` exactly.
 */
static void
draws_across_change(struct target *t, const struct state_change *ch,
                    const uint8_t left[4], const uint8_t right[4])
{
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = 1,
      .max_index = 7,
   };
   struct pipe_draw_start_count_bias d[2] = {
      { .start = 0, .count = 4 },
      { .start = ch->second_start, .count = 4 },
   };
   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   pan_test_debug_msg[0] = 0;
   trace_begin();
   ctx->draw_vbo(ctx, &info, 0, NULL, &d[0], 1);
   if (ch->colour)
      set_colour(ch->colour);
   if (ch->view)
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false,
                             (struct pipe_sampler_view **)&ch->view);
   if (ch->vb) {
      struct pipe_vertex_buffer vb = { .stride = 32,
                                       .buffer.resource = ch->vb };
      ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   }
   ctx->draw_vbo(ctx, &info, 0, NULL, &d[1], 1);
   ctx->flush(ctx, NULL, 0);
   char *trace = trace_end();
   CHECK(jobs(trace, DRAW_JOB) == 2 && jobs(trace, "fragment") == 1,
         "%s: %u draws in %u passes (%s)", ch->what, jobs(trace, DRAW_JOB),
         jobs(trace, "fragment"), pan_test_debug_msg);
   free(trace);
   if (!check_pixels)
      return;

   static uint8_t got[H][W][4];
   unsigned bad = 0, bx = 0, by = 0;
   read_target(t, got);
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *want = x < W / 2 ? left : right;
         if (memcmp(got[y][x], want, 4) && !bad++) {
            bx = x;
            by = y;
         }
      }
   }
   CHECK(!bad, "%s: %u of %u pixels wrong; first (%u, %u) = %u %u %u %u",
         ch->what, bad, W * H, bx, by, got[by][bx][0], got[by][bx][1],
         got[by][bx][2], got[by][bx][3]);
}

static void
unorm8_rgba(const float *f, uint8_t out[4])
{
   for (unsigned c = 0; c < 4; ++c)
      out[c] = unorm8(f[c]);
}

/* A uniform, a vertex buffer and then a texture change between two draws
 * of one pass: the second draw must see the new state, not descriptors
 * the driver kept from the first.
 */
static void
test_state_changes(void)
{
   static const float a[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
   static const float b[4] = { 1.0f, 0.75f, 0.0f, 0.5f };
   static const float zero[4] = { 0 };
   uint8_t a8[4], b8[4];
   unorm8_rgba(a, a8);
   unorm8_rgba(b, b8);

   struct scene sc = { make_target(), bind_fixed_state() };
   sc.vs = pass_through_vs(false);
   sc.fs = uniform_fs();
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   sc.vb = half_quads(zero, -1);
   set_colour(a);
   struct state_change ch = { "uniform changed in a pass", b,
                              .second_start = 4 };
   draws_across_change(&sc.t, &ch, a8, b8);

   struct pipe_resource *right = half_quads(zero, 1);
   pipe_resource_reference(&sc.vb, NULL);
   sc.vb = half_quads(zero, 0);
   set_colour(a);
   ch = (struct state_change){ "vertex buffer changed in a pass", .vb = right };
   draws_across_change(&sc.t, &ch, a8, a8);
   pipe_resource_reference(&right, NULL);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, NULL);
   scene_end(&sc);

   /* Texel (0, 0) through the identity view, then through a view
    * swapping red and blue.
    */
   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   struct tex_scene ts = tex_scene_begin(PIPE_FORMAT_R8G8B8A8_UNORM, 0.0f, 1.0f,
                                         PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
   pipe_resource_reference(&ts.sc.vb, NULL);
   ts.sc.vb = half_quads((const float[4]){ 0.1f, 0.1f, 0, 0 }, -1);
   static const unsigned char zyxw[4] = { PIPE_SWIZZLE_Z, PIPE_SWIZZLE_Y,
                                          PIPE_SWIZZLE_X, PIPE_SWIZZLE_W };
   struct pipe_sampler_view *swapped =
      view_2d(ts.tex, PIPE_FORMAT_R8G8B8A8_UNORM, zyxw);
   CHECK(ts.view && swapped, "texture change: views not created");
   if (ts.view && swapped) {
      uint8_t t0[4], t1[4];
      texel(0, 0, t0);
      memcpy(t1, (const uint8_t[4]){ t0[2], t0[1], t0[0], t0[3] }, 4);
      ch = (struct state_change){ "texture changed in a pass", .view = swapped,
                                  .second_start = 4 };
      draws_across_change(&ts.sc.t, &ch, t0, t1);
   }
   pipe_sampler_view_reference(&swapped, NULL);
   tex_scene_end(&ts);
}

/* Clears and draws n points of the given rasterizer size, binding (and
 * returning in *rast) a rasterizer the caller deletes; returns the trace.
 */
static char *
draw_sprites(unsigned n, float size, const char *what, void **rast,
             bool lower_left)
{
   struct pipe_rasterizer_state r = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .point_size = size,
      .point_quad_rasterization = lower_left,
      .sprite_coord_mode = lower_left ? PIPE_SPRITE_COORD_LOWER_LEFT
                                      : PIPE_SPRITE_COORD_UPPER_LEFT,
   };
   *rast = ctx->create_rasterizer_state(ctx, &r);
   ctx->bind_rasterizer_state(ctx, *rast);
   const struct pipe_draw_info info = {
      .mode = PIPE_PRIM_POINTS,
      .instance_count = 1,
      .max_index = n - 1,
   };
   pan_test_debug_msg[0] = 0;
   char *trace = clear_draw(&info, n, 1);
   CHECK(jobs(trace, DRAW_JOB) == 1, "%s: %u draws submitted (%s)", what,
         jobs(trace, DRAW_JOB), pan_test_debug_msg);
   return trace;
}

static char *
draw_points(unsigned n, float size, const char *what, void **rast)
{
   return draw_sprites(n, size, what, rast, false);
}

/* A point list with the rasterizer's point size (the shader writes
 * none), or with gl_PointSize from the colour attribute's x (3 and 6):
 * each point is a size x size square centred on its position.
 */
static void
test_points(bool per_vertex)
{
   const char *what = per_vertex ? "gl_PointSize points" : "sized points";
   static const struct vtx v[2] = {
      { 10 * 16, 10 * 16, { 3.0f } },
      { 40 * 16 + 8, 20 * 16 + 8, { 6.0f } },
   };
   const float size = 5.0f;
   struct scene sc = scene_begin(false, v, 2);
   void *vs = NULL;
   if (per_vertex) {
      nir_builder b = shader(MESA_SHADER_VERTEX, "point-size");
      struct vs_vars vv = vs_vars(b.shader);
      nir_variable *psiz = nir_variable_create(
         b.shader, nir_var_shader_out, glsl_float_type(), "gl_PointSize");
      psiz->data.location = VARYING_SLOT_PSIZ;
      psiz->data.driver_location = 2;
      nir_store_var(&b, vv.opos, nir_load_var(&b, vv.pos), 0xf);
      nir_store_var(&b, psiz, nir_channel(&b, nir_load_var(&b, vv.col), 0),
                    0x1);
      struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                       .ir.nir = b.shader };
      vs = ctx->create_vs_state(ctx, &cso);
      ctx->bind_vs_state(ctx, vs);
   }
   void *sized;
   char *trace = draw_points(2, size, what, &sized);
   CHECK(has_line(trace, "constant: 5.000000") ||
            (per_vertex && has_line(trace, "point_size_array_format: fp32")),
         "%s: the draw's point size is not 5 or per vertex", what);
   free(trace);

   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0, covered = 0;
      read_target(&sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            const float *want = clear_rgba;
            for (unsigned k = 0; k < 2; ++k) {
               float dx = x + 0.5f - v[k].x16 / 16.0f;
               float dy = y + 0.5f - v[k].y16 / 16.0f;
               float h = (per_vertex ? v[k].rgba[0] : size) / 2;
               if (dx >= -h && dx < h && dy >= -h && dy < h) {
                  want = const_rgba;
                  covered++;
               }
            }
            for (unsigned i = 0; i < 4; ++i)
               bad += got[y][x][i] != unorm8(want[i]);
         }
      }
      CHECK(covered == (per_vertex ? 9 + 36 : 2 * 25),
            "%s: the reference covers %u pixels", what, covered);
      CHECK(!bad, "%s: %u channels wrong", what, bad);
   }
   ctx->bind_rasterizer_state(ctx, sc.fixed[1]);
   ctx->delete_rasterizer_state(ctx, sized);
   if (vs) {
      ctx->bind_vs_state(ctx, sc.vs);
      ctx->delete_vs_state(ctx, vs);
   }
   scene_end(&sc);
}

/* An 8 x 8 point whose colour is (gl_PointCoord, 0, 1): red grows to the
 * right and green downwards (the upper-left sprite origin), one step of
 * 1/8 per pixel from 1/16 at the pixel centres next to the edges.
 */
static void
test_point_coord(bool lower_left)
{
   const char *what =
      lower_left ? "gl_PointCoord from the lower left" : "gl_PointCoord";
   static const struct vtx v[1] = { { 10 * 16, 10 * 16, { 0 } } };
   struct scene sc = scene_begin(false, v, 1);
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "point-coord");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *pc = nir_variable_create(b.shader, nir_var_shader_in,
                                          glsl_vec_type(2), "gl_PointCoord");
   pc->data.location = VARYING_SLOT_PNTC;
   pc->data.interpolation = INTERP_MODE_SMOOTH;
   nir_ssa_def *c = nir_load_var(&b, pc);
   nir_store_var(&b, out,
                 nir_vec4(&b, nir_channel(&b, c, 0), nir_channel(&b, c, 1),
                          nir_imm_float(&b, 0.0f), nir_imm_float(&b, 1.0f)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   void *fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_fs_state(ctx, fs);
   void *sized;
   /* The lower-left origin is the shader's: the hardware's stays. */
   char *trace = draw_sprites(1, 8.0f, what, &sized, lower_left);
   CHECK(has_line(trace, "point_sprite_coord_origin_max_y: false"),
         "%s: the framebuffer's sprite origin is not upper-left", what);
   free(trace);

   if (check_pixels) {
      static uint8_t got[H][W][4];
      unsigned bad = 0;
      read_target(&sc.t, got);
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x) {
            float want[4] = { clear_rgba[0], clear_rgba[1], clear_rgba[2],
                              clear_rgba[3] };
            if (x >= 6 && x < 14 && y >= 6 && y < 14) {
               want[0] = (x - 6 + 0.5f) / 8;
               want[1] = (y - 6 + 0.5f) / 8;
               if (lower_left)
                  want[1] = 1 - want[1];
               want[2] = 0;
               want[3] = 1;
            }
            for (unsigned i = 0; i < 4; ++i)
               bad += abs(got[y][x][i] - unorm8(want[i])) > 1;
         }
      }
      CHECK(!bad, "%s: %u channels wrong (pixel (6, 13) %u %u)", what, bad,
            got[13][6][0], got[13][6][1]);
   }
   ctx->bind_rasterizer_state(ctx, sc.fixed[1]);
   ctx->delete_rasterizer_state(ctx, sized);
   ctx->bind_fs_state(ctx, sc.fs);
   ctx->delete_fs_state(ctx, fs);
   scene_end(&sc);
}

/* ------------------------------------------------------------------ */
/* Indirect draws                                                      */
/* ------------------------------------------------------------------ */

/* A buffer of n words the GPU writes: the CPU stores want[i] - 1 and a
 * dispatch adds 1 to every word, so the draws reading it see the right
 * arguments only when the dispatch ran before their arguments were read.
 */
static struct pipe_resource *
gpu_written_words(const uint32_t *want, unsigned n)
{
   uint32_t before[32];
   assert(n <= ARRAY_SIZE(before));
   for (unsigned i = 0; i < n; ++i)
      before[i] = want[i] - 1;
   struct pipe_resource *r = pipe_buffer_create(
      screen, PIPE_BIND_SHADER_BUFFER | PIPE_BIND_COMMAND_ARGS_BUFFER,
      PIPE_USAGE_DEFAULT, n * 4);
   pipe_buffer_write(ctx, r, 0, n * 4, before);

   nir_builder b = shader(MESA_SHADER_COMPUTE, "plus1");
   nir_ssa_def *off = nir_imul_imm(
      &b, nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0), 4);
   nir_ssa_def *v = nir_load_ssbo(&b, 1, 32, nir_imm_int(&b, 0), off,
                                  .align_mul = 4);
   nir_store_ssbo(&b, nir_iadd_imm(&b, v, 1), nir_imm_int(&b, 0), off,
                  .write_mask = 1, .align_mul = 4);
   struct pipe_compute_state cso = { .ir_type = PIPE_SHADER_IR_NIR,
                                     .prog = b.shader };
   void *cs = ctx->create_compute_state(ctx, &cso);
   struct pipe_shader_buffer sb = { .buffer = r, .buffer_size = n * 4 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 1);
   struct pipe_grid_info grid = {
      .work_dim = 1,
      .block = { 1, 1, 1 },
      .grid = { n, 1, 1 },
   };
   ctx->bind_compute_state(ctx, cs);
   ctx->launch_grid(ctx, &grid);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, NULL, 0);
   ctx->bind_compute_state(ctx, NULL);
   ctx->delete_compute_state(ctx, cs);
   return r;
}

/* Makes one indirect draw_vbo call and submits it; returns how many draw
 * jobs the submitted chains hold, after checking the decoder's report.
 */
static unsigned
indirect_jobs(const char *what, const struct pipe_draw_info *info,
              const struct pipe_draw_indirect_info *indirect)
{
   trace_begin();
   ctx->draw_vbo(ctx, info, 0, indirect, NULL, 0);
   ctx->flush(ctx, NULL, 0);
   char *trace = trace_end();
   unsigned n = jobs(trace, DRAW_JOB);
   CHECK(decoder_errors(trace) == 0, "%s: %u decoder errors", what,
         decoder_errors(trace));
   free(trace);
   return n;
}

/* Multi-draw indirect from a GPU-written buffer: three non-indexed draws
 * 24 bytes apart, of which the count in the same buffer keeps two (the
 * third would cover the whole target); then one indexed draw with a base
 * vertex.  Both pixel-checked against the triangles they name.
 */
static void
test_indirect(void)
{
   CHECK(screen->get_param(screen, PIPE_CAP_DRAW_INDIRECT) &&
            screen->get_param(screen, PIPE_CAP_MULTI_DRAW_INDIRECT_PARAMS),
         "indirect draws are not advertised");
   static const struct vtx v[8] = {
      /* two triangles, then one over the whole target */
      { 4 * 16, 4 * 16 + 8, { 0 } },
      { 20 * 16 + 4, 4 * 16 + 8, { 0 } },
      { 4 * 16, 24 * 16, { 0 } },
      { 30 * 16, 8 * 16 + 8, { 0 } },
      { 60 * 16 + 4, 8 * 16 + 8, { 0 } },
      { 60 * 16 + 4, 30 * 16, { 0 } },
      { -64 * 16, -64 * 16, { 0 } },
      { 4 * 64 * 16, -64 * 16, { 0 } },
   };
   /* count, instances, first, base instance; the draw count at word 18 */
   const uint32_t args[19] = {
      3, 1, 0, 0, 0, 0, 3, 1, 3, 0, 0, 0, 3, 1, 5, 0, 0, 0, 2,
   };
   struct scene sc = scene_begin(false, v, 8);
   struct pipe_resource *ind = gpu_written_words(args, ARRAY_SIZE(args));
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLES,
      .instance_count = 1,
   };
   struct pipe_draw_indirect_info indirect = {
      .buffer = ind,
      .stride = 24,
      .draw_count = 3,
      .indirect_draw_count = ind,
      .indirect_draw_count_offset = 18 * 4,
   };
   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   unsigned n = indirect_jobs("multi-draw indirect", &info, &indirect);
   CHECK(n == 2, "multi-draw indirect: %u %s jobs", n, DRAW_JOB);
   if (check_pixels) {
      const struct vtx *const tris[2][3] = { { &v[0], &v[1], &v[2] },
                                             { &v[3], &v[4], &v[5] } };
      check_pixels_against("multi-draw indirect", &sc.t, tris, 2, false);
   }
   pipe_resource_reference(&ind, NULL);

   /* Indexed: triangle 2 (vertices 3 to 5) as indices 0-2 with a base
    * vertex of 3, from the second index on.
    */
   static const uint16_t idx[4] = { 7, 0, 1, 2 };
   struct pipe_resource *ib = pipe_buffer_create(screen, PIPE_BIND_INDEX_BUFFER,
                                                 PIPE_USAGE_DEFAULT, 8);
   pipe_buffer_write(ctx, ib, 0, 8, idx);
   /* count, instances, first index, base vertex, base instance */
   const uint32_t iargs[5] = { 3, 1, 1, 3, 0 };
   ind = gpu_written_words(iargs, ARRAY_SIZE(iargs));
   info.index_size = 2;
   info.index.resource = ib;
   indirect = (struct pipe_draw_indirect_info){ .buffer = ind,
                                                .draw_count = 1 };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   n = indirect_jobs("indexed indirect", &info, &indirect);
   CHECK(n == 1, "indexed indirect: %u %s jobs", n, DRAW_JOB);
   if (check_pixels) {
      const struct vtx *const tris[1][3] = { { &v[3], &v[4], &v[5] } };
      check_pixels_against("indexed indirect", &sc.t, tris, 1, false);
   }

   /* Arguments past the end of the buffer: dropped, nothing drawn. */
   indirect.offset = 4;
   n = indirect_jobs("indirect draw past its buffer", &info, &indirect);
   CHECK(n == 0, "indirect draw past its buffer: %u %s jobs", n, DRAW_JOB);
   pipe_resource_reference(&ind, NULL);
   pipe_resource_reference(&ib, NULL);
   scene_end(&sc);
}

int
main(int argc, char **argv)
{
   for (int i = 1; i < argc; ++i) {
      check_pixels |= !strcmp(argv[i], "--pixels");
      show_trace |= !strcmp(argv[i], "--trace");
      jm |= !strcmp(argv[i], "--jm");
   }
   /* Read by the screen at creation: every submit is waited for and its
    * chain decoded to stderr, which the test captures.
    */
   setenv("PAN_MESA_DEBUG", "sync,trace", 1);

   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_triangle(false, 1);
   test_triangle(true, 1);
   test_triangle(false, 2);
   test_indexed_quad(false);
   test_indexed_quad(true);
   test_instanced_triangles();
   test_base_instance_attribute();
   /* 2 and 4 shift; 3, 5 and 7 multiply (elements 1, 2, 2, 2, 1). */
   test_instance_divisor(2, 3, 0, false);
   test_instance_divisor(4, 9, 0, false);
   test_instance_divisor(3, 7, 0, false);
   test_instance_divisor(5, 11, 0, false);
   test_instance_divisor(7, 14, 0, false);
   /* From vertex 3 and base instances: shift, multiply, one instance */
   test_instance_divisor(2, 3, 2, true);
   test_instance_divisor(3, 7, 1, true);
   test_instance_divisor(1, 1, 4, true);
   test_draw_parameters(false);
   test_draw_parameters(true);

   static const unsigned char identity[4] = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y,
                                              PIPE_SWIZZLE_Z, PIPE_SWIZZLE_W };
   static const unsigned char bgr1[4] = { PIPE_SWIZZLE_Z, PIPE_SWIZZLE_Y,
                                          PIPE_SWIZZLE_X, PIPE_SWIZZLE_1 };
   test_stencil_texture();
   test_textured_quad("textured quad", 0.0f, 1.0f,
                      PIPE_TEX_WRAP_CLAMP_TO_EDGE, identity);
   test_textured_quad("textured quad, repeat and swizzle", -1.0f, 2.0f,
                      PIPE_TEX_WRAP_REPEAT, bgr1);
   test_unsampled_view();
   test_half_float_linear();
   test_shadow_compare(PIPE_FORMAT_Z32_FLOAT);
   test_shadow_compare(PIPE_FORMAT_Z16_UNORM);
   test_uniform_blocks();
   test_large_uniform_buffer();
   test_frag_coord();
   test_state_changes();
   test_texture_array(false);
   test_texture_array(true);
   test_gather();
   test_texture_size_lod();
   test_shadow_gather();
   test_layer_target();
   test_noperspective();
   test_provoking_vertex();
   test_points(false);
   test_points(true);
   test_point_coord(false);
   test_point_coord(true);
   test_indirect();
   return pan_test_close(screen, ctx);
}
