/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* What the Gallium-level tests share: a check counter and our screen and
 * context on the drm-shim's render node, with the debug callback kept.
 */

#ifndef PAN_TEST_SCREEN_H
#define PAN_TEST_SCREEN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "compiler/nir/nir_builder.h"
#include "pan_test_check.h"
#include "pipe/p_defines.h"
#include "util/u_debug.h"

struct pipe_screen;
struct pipe_context;
struct pipe_resource;
struct pipe_surface;
struct pipe_rasterizer_state;


/* The identity swizzle, for sampler view templates. */
#define PAN_TEST_IDENTITY_SWIZZLE                                              \
   .swizzle_r = PIPE_SWIZZLE_X, .swizzle_g = PIPE_SWIZZLE_Y,                   \
   .swizzle_b = PIPE_SWIZZLE_Z, .swizzle_a = PIPE_SWIZZLE_W

/* The last message the driver sent through the debug callback, and the
 * last shader-db report of a compiler (sent there too). */
extern char pan_test_debug_msg[512];
extern char pan_test_shaderdb_msg[512];

/* The debug callback that fills them. */
void pan_test_debug_message(void *data, unsigned *id,
                            enum util_debug_type type, const char *fmt,
                            va_list args);

/* Opens the render node and creates the screen and a context with the
 * debug callback set and the GLSL types referenced; false after a message.
 */
bool pan_test_open(struct pipe_screen **screen, struct pipe_context **ctx);

/* A builder of a new shader of the stage with the screen's NIR options. */
nir_builder pan_test_shader(struct pipe_screen *screen, gl_shader_stage stage,
                            const char *name);

/* A vec4 input or output of s at a location and driver location. */
nir_variable *pan_test_io_var(nir_shader *s, nir_variable_mode mode,
                              unsigned location, unsigned driver_location,
                              const char *name);

/* The gl_Position output (driver location 0) and VAR0 output (driver
 * location 1) of a vertex shader, as most draw tests' shaders write. */
void pan_test_vs_outputs(nir_shader *s, nir_variable **pos, nir_variable **v0);

/* The CSO of b's vertex or fragment shader, for the context to bind and
 * delete. */
void *pan_test_create_shader(struct pipe_context *ctx, nir_builder *b);

/* Shaders most draw tests share: gl_Position = attribute 0 and VAR0 =
 * attribute 1 (vec4s of any vertex format); DATA0 = VAR0, flat or smoothly
 * interpolated.  The compiled CSOs, for the context to bind and delete.
 */
void *pan_test_pass_through_vs(struct pipe_screen *screen,
                               struct pipe_context *ctx, const char *name);
void *pan_test_colour_fs(struct pipe_screen *screen, struct pipe_context *ctx,
                         const char *name, bool flat);

/* gl_Position = attribute 0 alone, for fragment shaders that take no
 * varying. */
void *pan_test_position_vs(struct pipe_screen *screen, struct pipe_context *ctx,
                           const char *name);

/* DATA0 = texelFetch(texture 0, ivec2(gl_FragCoord.xy), index): the index
 * the constant sample, or with uniform word 0 of constant buffer 0.
 */
void *pan_test_fetch_sample_fs(struct pipe_screen *screen,
                               struct pipe_context *ctx, bool uniform,
                               unsigned sample);

/* DATA0 = texelFetch(2D texture 0, ivec2(gl_FragCoord.xy), lod). */
void *pan_test_fetch_fs(struct pipe_screen *screen, struct pipe_context *ctx,
                        unsigned lod);

/* Draws level lod of the 2D texture tex, fetched texel by texel
 * (pan_test_fetch_fs), into a w x h RGBA8 target and returns how many
 * pixels have a channel more than tolerance away from want (w x h RGBA8),
 * printing the first one under what. */
unsigned pan_test_fetch_compare(struct pipe_screen *screen,
                                struct pipe_context *ctx,
                                struct pipe_resource *tex, unsigned lod,
                                unsigned w, unsigned h, const uint8_t *want,
                                unsigned tolerance, const char *what);

/* Pixel centre p as a clip-space coordinate of a size-pixel-wide target. */
static inline float
pan_test_ndc(float p, unsigned size)
{
   return (p + 0.5f) / (size / 2.0f) - 1.0f;
}

/* A size x size 2D resource of samples samples (0: single-sampled). */
struct pipe_resource *pan_test_texture(struct pipe_screen *screen,
                                       enum pipe_format format, unsigned size,
                                       unsigned samples, unsigned bind);

/* A w x h RGBA8 render target bound as the only colour buffer of the
 * framebuffer; its resource in *tex, its surface returned (NULL on
 * failure, which the tests' pixel checks then report). */
struct pipe_surface *pan_test_bind_target(struct pipe_screen *screen,
                                          struct pipe_context *ctx,
                                          unsigned w, unsigned h,
                                          struct pipe_resource **tex);

/* A storage buffer of size_B bytes, filled from data unless NULL; NULL
 * when out of memory. */
struct pipe_resource *pan_test_storage_buffer(struct pipe_screen *screen,
                                              struct pipe_context *ctx,
                                              unsigned size_B,
                                              const void *data);

/* Uploads n vertices of 8 floats (clip-space position, colour) as vertex
 * buffer 0; returns the buffer, whose reference the caller owns. */
struct pipe_resource *pan_test_bind_vertices(struct pipe_screen *screen,
                                             struct pipe_context *ctx,
                                             const float *data, unsigned n);

/* pan_test_bind_vertices, then a draw of the n vertices in mode (or a
 * triangle list); returns the buffer, whose reference the caller owns. */
struct pipe_resource *pan_test_draw_vertices(struct pipe_screen *screen,
                                             struct pipe_context *ctx,
                                             enum pipe_prim_type mode,
                                             const float *data, unsigned n);
struct pipe_resource *pan_test_draw_triangles(struct pipe_screen *screen,
                                              struct pipe_context *ctx,
                                              const float *data, unsigned n);

/* A w x h RGBA8 target bound as the only colour buffer, states that
 * write every channel with no depth test, and vertex buffer 0 holding
 * one vec4-position triangle that covers the whole target (draw it with
 * three vertices). */
struct pan_test_fullscreen {
   struct pipe_resource *tex, *vbuf;
   struct pipe_surface *surf;
   void *cso[4]; /* blend, rasterizer, depth/stencil, vertex elements */
};

void pan_test_fullscreen_setup(struct pipe_screen *screen,
                               struct pipe_context *ctx, unsigned w,
                               unsigned h, struct pan_test_fullscreen *f);

/* pan_test_open, then pan_test_fullscreen_setup; false after a message. */
bool pan_test_open_fullscreen(struct pipe_screen **screen,
                              struct pipe_context **ctx, unsigned w, unsigned h,
                              struct pan_test_fullscreen *f);

/* Unbinds and frees what pan_test_fullscreen_setup made. */
void pan_test_fullscreen_teardown(struct pipe_context *ctx,
                                  struct pan_test_fullscreen *f);

/* A rasterizer template: GL pixel centres, depth clipping, 1-pixel lines
 * and points, both faces drawn in the PIPE_POLYGON_MODE_* fill. */
struct pipe_rasterizer_state pan_test_rasterizer(unsigned fill);

/* The pass-through vertex shader, the colour fragment shader (flat or
 * smooth) and position and colour vec4 attributes at bytes 0 and 16 of a
 * vertex, created and bound. */
struct pan_test_colour_draw {
   void *vs, *fs, *ves;
};

void pan_test_colour_draw_setup(struct pipe_screen *screen,
                                struct pipe_context *ctx, const char *name,
                                bool flat, struct pan_test_colour_draw *d);

/* Unbinds and deletes what pan_test_colour_draw_setup made, binding the
 * vertex elements ves in their place. */
void pan_test_colour_draw_teardown(struct pipe_context *ctx, void *ves,
                                   struct pan_test_colour_draw *d);

/* The states of the 4x draw tests, bound: the pass-through vertex shader
 * and flat colour fragment shader, position and colour vec4 attributes,
 * a size x size viewport, a multisampling rasterizer, no depth test and
 * a blend state writing every channel (opaque, left bound). */
struct pan_test_msaa_draw {
   void *vs, *fs, *opaque, *rast, *zsa, *ves;
};

void pan_test_msaa_draw_setup(struct pipe_screen *screen,
                              struct pipe_context *ctx, const char *name,
                              unsigned size, struct pan_test_msaa_draw *d);

/* Unbinds and deletes what pan_test_msaa_draw_setup made. */
void pan_test_msaa_draw_teardown(struct pipe_context *ctx,
                                 struct pan_test_msaa_draw *d);

/* Whether the pixel at p differs from want, describing it ("is ..., want
 * ...") in msg when it does. */
typedef bool (*pan_test_pixel_differs)(const uint8_t *p, const void *want,
                                       char *msg, size_t msg_size);

/* Checks every pixel of the w x h level 0 of tex with differs: the first
 * two that differ and their count are reported under what. */
void pan_test_check_pixels(struct pipe_context *ctx, const char *what,
                           struct pipe_resource *tex, unsigned w, unsigned h,
                           pan_test_pixel_differs differs, const void *want);

/* The RGBA8 pixel (x, y) of level 0 of tex as a word in memory order
 * (0 when the map fails). */
uint32_t pan_test_pixel(struct pipe_context *ctx, struct pipe_resource *tex,
                        unsigned x, unsigned y);

/* The rectangle of pixel centres x0 to x1, y0 to y1 of a size x size
 * target as four vec4 clip-space positions in out: corner order[i] at i,
 * the corners counted counter-clockwise from (x0, y0). */
void pan_test_quad(float (*out)[4], unsigned x0, unsigned y0, unsigned x1,
                   unsigned y1, unsigned size, const unsigned order[4]);

/* Uploads n vec4 positions as vertex buffer 0 (in place of the
 * fullscreen triangle); returns the buffer, whose reference the caller
 * owns. */
struct pipe_resource *pan_test_bind_positions(struct pipe_screen *screen,
                                              struct pipe_context *ctx,
                                              const float *data, unsigned n);

/* The two quads of the polygon tests as vertices 0-3 and 4-7 of vertex
 * buffer 0 (pan_test_bind_positions): pixel centres x 4 to 12 and 20 to
 * 28, y 4 to 12 of a size x size target, quad 0 counter-clockwise from
 * its bottom-left corner, quad 1 in the corner order order1. */
struct pipe_resource *pan_test_bind_two_quads(struct pipe_screen *screen,
                                              struct pipe_context *ctx,
                                              unsigned size,
                                              const unsigned order1[4]);

/* Binds f's triangle and rasterizer again and drops *vbuf. */
void pan_test_fullscreen_restore(struct pipe_context *ctx,
                                 struct pan_test_fullscreen *f,
                                 struct pipe_resource **vbuf);

/* Unbinds and deletes a vertex and a fragment shader. */
void pan_test_delete_shaders(struct pipe_context *ctx, void *vs, void *fs);

/* Destroys both, prints the counts and returns the exit status. */
int pan_test_close(struct pipe_screen *screen, struct pipe_context *ctx);

#endif
