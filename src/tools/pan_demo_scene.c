/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan-demo-scene: one real frame through the loader path, written as PNG.
 *
 *   pan-demo-scene [--out FILE.png] [--size WxH] [--no-png]
 *
 * It brings up an EGL surfaceless display and the newest GLES context the
 * driver offers (3.1, 3.0, then 2.0), renders into a framebuffer object
 * (RGBA8 colour renderbuffer, 16-bit depth renderbuffer) a lit, textured,
 * depth-tested scene: a checkered floor, three cubes and a sphere, each its
 * own indexed draw. The checker texture is written by a compute pass when
 * the context is GLES 3.1, else it and its mipmap levels are made on the
 * CPU and uploaded with glTexImage2D. Lighting is per pixel:
 * ambient + Lambert diffuse + Blinn-Phong specular from one directional
 * light. The shaders are GLSL ES 1.00 so that a 2.0 context runs them too.
 *
 * It prints the GPU, each draw, whether a compute pass ran, and the time
 * of the GL calls: wall time and CPU time of this thread, for the draw
 * calls and for glFinish + glReadPixels. On the drm-shim the simulator runs
 * the jobs inside the submit, on this thread, so those figures include it;
 * PAN_SHIM_EXEC=0 gives the driver's own share (bin/pan-demo does both).
 *
 * Exit status: 0 on success, 1 when EGL/GL refused something, 2 on bad
 * arguments. */

#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include "pan_demo_compute.h"
#include "pan_demo_mesh.h"
#include "pan_png.h"

#define TEX_SIZE 64

struct options {
   const char *out;
   unsigned width, height;
   bool png;
};

struct demo_object {
   struct demo_mesh mesh;
   GLuint vbo, ibo;
   float model[16];
   float tint[3];
};

enum { OBJ_FLOOR, OBJ_CUBE0, OBJ_CUBE1, OBJ_CUBE2, OBJ_SPHERE, OBJ_COUNT };

struct demo {
   EGLDisplay dpy;
   EGLContext ctx;
   int gl_major, gl_minor;
   GLuint fbo, color_rb, depth_rb, tex, prog;
   GLint u_mvp, u_model, u_tint, u_light, u_eye, u_tex;
   struct demo_object obj[OBJ_COUNT];
};

struct clock_pair {
   struct timespec wall, cpu;
};

static void
clock_now(struct clock_pair *c)
{
   clock_gettime(CLOCK_MONOTONIC, &c->wall);
   clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c->cpu);
}

static double
ms_between(const struct timespec *a, const struct timespec *b)
{
   return (double)(b->tv_sec - a->tv_sec) * 1e3 +
          (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static void
print_span(const char *what, const struct clock_pair *a,
           const struct clock_pair *b)
{
   printf("time: %-22s wall %8.2f ms, cpu %8.2f ms\n", what,
          ms_between(&a->wall, &b->wall), ms_between(&a->cpu, &b->cpu));
}

static bool
gl_failed(const char *where)
{
   bool failed = false;
   GLenum e;

   while ((e = glGetError()) != GL_NO_ERROR) {
      fprintf(stderr, "pan-demo: %s: GL error 0x%04x\n", where, e);
      failed = true;
   }
   return failed;
}

static int
egl_fail(const char *what)
{
   fprintf(stderr, "pan-demo: %s failed (EGL error 0x%x)\n", what,
           eglGetError());
   return 1;
}

/* ------------------------------------------------------------------ */
/* EGL                                                                 */
/* ------------------------------------------------------------------ */

static int
bring_up_egl(struct demo *d)
{
   static const EGLint versions[][2] = { { 3, 1 }, { 3, 0 }, { 2, 0 } };
   PFNEGLGETPLATFORMDISPLAYEXTPROC get =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
         "eglGetPlatformDisplayEXT");
   EGLint major, minor;

   d->dpy = get ? get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                : EGL_NO_DISPLAY;
   if (d->dpy == EGL_NO_DISPLAY || !eglInitialize(d->dpy, &major, &minor))
      return egl_fail("eglInitialize (surfaceless)");
   if (!eglBindAPI(EGL_OPENGL_ES_API))
      return egl_fail("eglBindAPI");

   d->ctx = EGL_NO_CONTEXT;
   for (unsigned i = 0; i < 3 && d->ctx == EGL_NO_CONTEXT; ++i) {
      EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, versions[i][0],
                           EGL_CONTEXT_MINOR_VERSION, versions[i][1],
                           EGL_NONE };
      d->ctx =
         eglCreateContext(d->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
      d->gl_major = versions[i][0];
      d->gl_minor = versions[i][1];
   }
   if (d->ctx == EGL_NO_CONTEXT)
      return egl_fail("eglCreateContext (GLES 3.1, 3.0 and 2.0)");
   if (!eglMakeCurrent(d->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, d->ctx))
      return egl_fail("eglMakeCurrent");

   printf("GL_RENDERER: %s\n", (const char *)glGetString(GL_RENDERER));
   printf("GL_VERSION: %s\n", (const char *)glGetString(GL_VERSION));
   printf("context: GLES %d.%d (the newest of 3.1, 3.0, 2.0 offered)\n",
          d->gl_major, d->gl_minor);
   return 0;
}

/* ------------------------------------------------------------------ */
/* Resources                                                           */
/* ------------------------------------------------------------------ */

static const char vs_src[] =
   "attribute vec3 a_pos;\n"
   "attribute vec3 a_nrm;\n"
   "attribute vec2 a_uv;\n"
   "uniform mat4 u_mvp;\n"
   "uniform mat4 u_model;\n"
   "varying vec3 v_world;\n"
   "varying vec3 v_nrm;\n"
   "varying vec2 v_uv;\n"
   "void main() {\n"
   "   v_world = (u_model * vec4(a_pos, 1.0)).xyz;\n"
   "   v_nrm = mat3(u_model) * a_nrm;\n"
   "   v_uv = a_uv;\n"
   "   gl_Position = u_mvp * vec4(a_pos, 1.0);\n"
   "}\n";

static const char fs_src[] =
   /* highp where offered: pow(x, 32) in fp16 moves the highlight. */
   "#ifdef GL_FRAGMENT_PRECISION_HIGH\n"
   "precision highp float;\n"
   "#else\n"
   "precision mediump float;\n"
   "#endif\n"
   "uniform sampler2D u_tex;\n"
   "uniform vec3 u_tint;\n"
   "uniform vec3 u_light;\n" /* towards the light, normalised */
   "uniform vec3 u_eye;\n"
   "varying vec3 v_world;\n"
   "varying vec3 v_nrm;\n"
   "varying vec2 v_uv;\n"
   "void main() {\n"
   "   vec3 n = normalize(v_nrm);\n"
   "   vec3 h = normalize(u_light + normalize(u_eye - v_world));\n"
   "   float diff = max(dot(n, u_light), 0.0);\n"
   "   float spec = diff > 0.0 ? pow(max(dot(n, h), 0.0), 32.0) : 0.0;\n"
   "   vec3 albedo = texture2D(u_tex, v_uv).rgb * u_tint;\n"
   "   gl_FragColor = vec4(albedo * (0.2 + 0.8 * diff) + 0.5 * spec, 1.0);\n"
   "}\n";

static GLuint
compile(GLenum stage, const char *src)
{
   GLuint s = glCreateShader(stage);
   GLint ok = 0;

   glShaderSource(s, 1, &src, NULL);
   glCompileShader(s);
   glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      char log[1024] = "";
      glGetShaderInfoLog(s, sizeof(log), NULL, log);
      fprintf(stderr, "pan-demo: %s shader failed to compile: %s\n",
              stage == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
      glDeleteShader(s);
      return 0;
   }
   return s;
}

static int
make_program(struct demo *d)
{
   GLuint vs = compile(GL_VERTEX_SHADER, vs_src);
   GLuint fs = compile(GL_FRAGMENT_SHADER, fs_src);
   GLint ok = 0;

   if (!vs || !fs)
      return 1;
   d->prog = glCreateProgram();
   glAttachShader(d->prog, vs);
   glAttachShader(d->prog, fs);
   glBindAttribLocation(d->prog, 0, "a_pos");
   glBindAttribLocation(d->prog, 1, "a_nrm");
   glBindAttribLocation(d->prog, 2, "a_uv");
   glLinkProgram(d->prog);
   glDeleteShader(vs);
   glDeleteShader(fs);
   glGetProgramiv(d->prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      char log[1024] = "";
      glGetProgramInfoLog(d->prog, sizeof(log), NULL, log);
      fprintf(stderr, "pan-demo: program failed to link: %s\n", log);
      return 1;
   }
   d->u_mvp = glGetUniformLocation(d->prog, "u_mvp");
   d->u_model = glGetUniformLocation(d->prog, "u_model");
   d->u_tint = glGetUniformLocation(d->prog, "u_tint");
   d->u_light = glGetUniformLocation(d->prog, "u_light");
   d->u_eye = glGetUniformLocation(d->prog, "u_eye");
   d->u_tex = glGetUniformLocation(d->prog, "u_tex");
   return gl_failed("program") ? 1 : 0;
}

static bool
set_sampling(void)
{
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                   GL_LINEAR_MIPMAP_LINEAR);
   return gl_failed("texture parameters");
}

/* Halves a square RGBA8 level with a 2x2 box filter. */
static void
downsample(uint8_t *dst, const uint8_t *src, unsigned dst_size)
{
   unsigned src_size = dst_size * 2;

   for (unsigned y = 0; y < dst_size; ++y) {
      for (unsigned x = 0; x < dst_size; ++x) {
         for (unsigned c = 0; c < 4; ++c) {
            unsigned sum = 0;
            for (unsigned k = 0; k < 4; ++k) {
               unsigned sx = 2 * x + (k & 1), sy = 2 * y + (k >> 1);
               sum += src[(sy * src_size + sx) * 4 + c];
            }
            dst[(y * dst_size + x) * 4 + c] = (uint8_t)((sum + 2) / 4);
         }
      }
   }
}

/* An 8x8 checker of two warm greys with a thin dark grout line, so that
 * filtering shows in the picture. With GLES 3.1 a compute pass writes it
 * (pan_demo_compute.c); otherwise the CPU makes it and its mipmap levels:
 * glGenerateMipmap is a blit, which the driver does not do yet (it drops
 * it and says so), so generated levels would stay black. */
static int
make_texture(struct demo *d)
{
   static uint8_t levels[2][TEX_SIZE * TEX_SIZE * 4];
   const unsigned cell = TEX_SIZE / 8;
   unsigned nr_levels = 0, groups;

   if (d->gl_major > 3 || (d->gl_major == 3 && d->gl_minor >= 1)) {
      d->tex = demo_compute_checker(TEX_SIZE, &groups);
      if (d->tex) {
         printf("compute: %ux%u workgroups of 8x8 wrote the %ux%u checker "
                "texture (imageStore); mipmaps by glGenerateMipmap\n",
                groups, groups, TEX_SIZE, TEX_SIZE);
         return set_sampling() ? 1 : 0;
      }
      printf("compute: refused (see above): texture made on the CPU\n");
   } else {
      /* The driver runs compute jobs internally but does not expose
       * compute shaders to GL yet (draw-path.rst). */
      printf("compute: skipped (compute shaders need GLES 3.1; the driver "
             "offers GLES %d.%d on this GPU): texture made on the CPU\n",
             d->gl_major, d->gl_minor);
   }

   for (unsigned y = 0; y < TEX_SIZE; ++y) {
      for (unsigned x = 0; x < TEX_SIZE; ++x) {
         uint8_t *p = &levels[0][(y * TEX_SIZE + x) * 4];
         bool odd = ((x / cell) ^ (y / cell)) & 1;
         bool grout = x % cell == 0 || y % cell == 0;
         uint8_t v = grout ? 60 : odd ? 235 : 140;
         p[0] = v;
         p[1] = (uint8_t)(v * 0.95f);
         p[2] = (uint8_t)(v * 0.85f);
         p[3] = 255;
      }
   }
   glGenTextures(1, &d->tex);
   glBindTexture(GL_TEXTURE_2D, d->tex);
   for (unsigned size = TEX_SIZE; size; size /= 2, ++nr_levels) {
      const uint8_t *src = levels[nr_levels & 1];
      glTexImage2D(GL_TEXTURE_2D, (GLint)nr_levels, GL_RGBA, (GLsizei)size,
                   (GLsizei)size, 0, GL_RGBA, GL_UNSIGNED_BYTE, src);
      if (size > 1)
         downsample(levels[(nr_levels + 1) & 1], src, size / 2);
   }
   printf("texture: %ux%u checker, %u mip levels uploaded with "
          "glTexImage2D, trilinear\n",
          TEX_SIZE, TEX_SIZE, nr_levels);
   return gl_failed("texture upload") || set_sampling() ? 1 : 0;
}

static int
make_framebuffer(struct demo *d, const struct options *o)
{
   bool es3 = d->gl_major >= 3;

   glGenFramebuffers(1, &d->fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, d->fbo);
   glGenRenderbuffers(1, &d->color_rb);
   glBindRenderbuffer(GL_RENDERBUFFER, d->color_rb);
   /* RGBA8 is core in 3.0 and OES_rgb8_rgba8 in 2.0; RGBA4 is the 2.0
    * format every driver has. */
   glRenderbufferStorage(GL_RENDERBUFFER,
                         es3 || strstr((const char *)glGetString(GL_EXTENSIONS),
                                       "GL_OES_rgb8_rgba8")
                            ? GL_RGBA8
                            : GL_RGBA4,
                         (GLsizei)o->width, (GLsizei)o->height);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                             GL_RENDERBUFFER, d->color_rb);
   glGenRenderbuffers(1, &d->depth_rb);
   glBindRenderbuffer(GL_RENDERBUFFER, d->depth_rb);
   glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16,
                         (GLsizei)o->width, (GLsizei)o->height);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                             GL_RENDERBUFFER, d->depth_rb);

   GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
   if (status != GL_FRAMEBUFFER_COMPLETE) {
      fprintf(stderr, "pan-demo: framebuffer incomplete (0x%04x)\n", status);
      return 1;
   }
   return gl_failed("framebuffer") ? 1 : 0;
}

static int
upload_object(struct demo_object *ob)
{
   glGenBuffers(1, &ob->vbo);
   glBindBuffer(GL_ARRAY_BUFFER, ob->vbo);
   glBufferData(GL_ARRAY_BUFFER,
                (GLsizeiptr)(ob->mesh.nr_verts * sizeof(struct demo_vertex)),
                ob->mesh.verts, GL_STATIC_DRAW);
   glGenBuffers(1, &ob->ibo);
   glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ob->ibo);
   glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                (GLsizeiptr)(ob->mesh.nr_idx * sizeof(uint16_t)), ob->mesh.idx,
                GL_STATIC_DRAW);
   return gl_failed("buffer upload") ? 1 : 0;
}

/* The scene: where each object sits and its colour. */
static int
make_objects(struct demo *d)
{
   static const struct {
      float pos[3], scale, yaw_deg, tint[3];
   } place[OBJ_COUNT] = {
      [OBJ_FLOOR] = { { 0, 0, 0 }, 1, 0, { 1.0f, 1.0f, 1.0f } },
      [OBJ_CUBE0] = { { -1.9f, 0.6f, 0.2f }, 0.6f, 30, { 0.95f, 0.35f, 0.3f } },
      [OBJ_CUBE1] = { { 1.8f, 0.45f, 0.6f }, 0.45f, -20, { 0.3f, 0.55f, 1.0f } },
      [OBJ_CUBE2] = { { 1.3f, 0.35f, -1.3f }, 0.35f, 50, { 0.4f, 0.9f, 0.35f } },
      [OBJ_SPHERE] = { { -0.1f, 0.9f, 0.3f }, 0.9f, 0, { 1.0f, 0.85f, 0.4f } },
   };
   int err = 0;

   err |= demo_mesh_plane(&d->obj[OBJ_FLOOR].mesh, 4.0f, 4.0f);
   for (unsigned i = OBJ_CUBE0; i <= OBJ_CUBE2; ++i)
      err |= demo_mesh_cube(&d->obj[i].mesh, 1.0f);
   err |= demo_mesh_sphere(&d->obj[OBJ_SPHERE].mesh, 1.0f, 32, 16);
   if (err) {
      fprintf(stderr, "pan-demo: out of memory building meshes\n");
      return 1;
   }
   for (unsigned i = 0; i < OBJ_COUNT; ++i) {
      struct demo_object *ob = &d->obj[i];
      demo_mat_model(ob->model, place[i].scale,
                     place[i].yaw_deg * 3.14159265f / 180.0f, place[i].pos);
      memcpy(ob->tint, place[i].tint, sizeof(ob->tint));
      if (upload_object(ob))
         return 1;
   }
   return 0;
}

/* ------------------------------------------------------------------ */
/* The frame                                                           */
/* ------------------------------------------------------------------ */

static int
draw_frame(struct demo *d, const struct options *o)
{
   static const float eye[3] = { 0.0f, 3.2f, 6.5f };
   static const float at[3] = { 0.0f, 0.5f, 0.0f };
   static const float up[3] = { 0.0f, 1.0f, 0.0f };
   static const float light[3] = { -0.408f, 0.816f, 0.408f };
   float proj[16], view[16], vp[16];

   demo_mat_perspective(proj, 0.8f, (float)o->width / (float)o->height, 0.5f,
                        30.0f);
   demo_mat_look_at(view, eye, at, up);
   demo_mat_mul(vp, proj, view);

   glViewport(0, 0, (GLsizei)o->width, (GLsizei)o->height);
   glEnable(GL_DEPTH_TEST);
   glDepthFunc(GL_LESS);
   glClearColor(0.45f, 0.62f, 0.85f, 1.0f);
   glClearDepthf(1.0f);
   glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

   glUseProgram(d->prog);
   glActiveTexture(GL_TEXTURE0);
   glBindTexture(GL_TEXTURE_2D, d->tex);
   glUniform1i(d->u_tex, 0);
   glUniform3fv(d->u_light, 1, light);
   glUniform3fv(d->u_eye, 1, eye);
   for (GLuint a = 0; a < 3; ++a)
      glEnableVertexAttribArray(a);

   for (unsigned i = 0; i < OBJ_COUNT; ++i) {
      struct demo_object *ob = &d->obj[i];
      float mvp[16];

      demo_mat_mul(mvp, vp, ob->model);
      glUniformMatrix4fv(d->u_mvp, 1, GL_FALSE, mvp);
      glUniformMatrix4fv(d->u_model, 1, GL_FALSE, ob->model);
      glUniform3fv(d->u_tint, 1, ob->tint);
      glBindBuffer(GL_ARRAY_BUFFER, ob->vbo);
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ob->ibo);
      glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE,
                            sizeof(struct demo_vertex),
                            (const void *)offsetof(struct demo_vertex, pos));
      glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE,
                            sizeof(struct demo_vertex),
                            (const void *)offsetof(struct demo_vertex, nrm));
      glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE,
                            sizeof(struct demo_vertex),
                            (const void *)offsetof(struct demo_vertex, uv));
      glDrawElements(GL_TRIANGLES, (GLsizei)ob->mesh.nr_idx,
                     GL_UNSIGNED_SHORT, NULL);
      printf("draw %u: %-6s %4u vertices, %4u indices (%u triangles)\n", i,
             ob->mesh.name, ob->mesh.nr_verts, ob->mesh.nr_idx,
             ob->mesh.nr_idx / 3);
   }
   return gl_failed("draws") ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Arguments and main                                                  */
/* ------------------------------------------------------------------ */

static void
usage(FILE *f)
{
   fputs("usage: pan-demo-scene [--out FILE.png] [--size WxH] [--no-png]\n",
         f);
}

static bool
parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){ .out = "pan-demo.png", .width = 480, .height = 320,
                          .png = true };

   for (int i = 1; i < argc; ++i) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = false;

      if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
         usage(stdout);
         exit(0);
      } else if (!strcmp(a, "--no-png")) {
         o->png = false;
         continue;
      } else if (v && !strcmp(a, "--out")) {
         o->out = v;
         ok = true;
      } else if (v && !strcmp(a, "--size")) {
         char *end;
         unsigned long w = strtoul(v, &end, 10), h = 0;
         if (end != v && *end == 'x' && v[0] != '-')
            h = strtoul(end + 1, &end, 10);
         ok = !*end && w >= 16 && w <= 4096 && h >= 16 && h <= 4096;
         o->width = (unsigned)w;
         o->height = (unsigned)h;
      }
      if (!ok) {
         fprintf(stderr, "pan-demo: bad argument '%s%s%s'\n", a, v ? " " : "",
                 v ? v : "");
         usage(stderr);
         return false;
      }
      ++i;
   }
   return true;
}

/* Reads the frame back (GL rows go bottom up, PNG rows top down). */
static uint8_t *
read_back(const struct options *o)
{
   size_t row = (size_t)o->width * 4;
   uint8_t *px = malloc(row * o->height * 2);

   if (!px) {
      fprintf(stderr, "pan-demo: out of memory\n");
      return NULL;
   }
   uint8_t *flipped = px + row * o->height;
   glPixelStorei(GL_PACK_ALIGNMENT, 1);
   glReadPixels(0, 0, (GLsizei)o->width, (GLsizei)o->height, GL_RGBA,
                GL_UNSIGNED_BYTE, px);
   if (gl_failed("glReadPixels")) {
      free(px);
      return NULL;
   }
   for (unsigned y = 0; y < o->height; ++y)
      memcpy(flipped + row * y, px + row * (o->height - 1 - y), row);
   memmove(px, flipped, row * o->height);
   return px;
}

static void
tear_down(struct demo *d)
{
   for (unsigned i = 0; i < OBJ_COUNT; ++i)
      demo_mesh_free(&d->obj[i].mesh);
   if (d->dpy != EGL_NO_DISPLAY) {
      eglMakeCurrent(d->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (d->ctx != EGL_NO_CONTEXT)
         eglDestroyContext(d->dpy, d->ctx);
      eglTerminate(d->dpy);
   }
}

int
main(int argc, char **argv)
{
   struct demo d = { .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT };
   struct clock_pair t0, t1, t2, t3;
   struct options o;
   uint8_t *px = NULL;
   int ret = 1;

   if (!parse_options(argc, argv, &o))
      return 2;
   setvbuf(stdout, NULL, _IOLBF, 0);

   clock_now(&t0);
   if (bring_up_egl(&d) || make_framebuffer(&d, &o) || make_program(&d) ||
       make_texture(&d) || make_objects(&d))
      goto out;

   clock_now(&t1);
   if (draw_frame(&d, &o))
      goto out;
   clock_now(&t2);
   glFinish();
   px = read_back(&o);
   clock_now(&t3);
   if (!px)
      goto out;

   printf("frame: %ux%u RGBA8 + 16-bit depth, %d draws\n", o.width, o.height,
          OBJ_COUNT);
   print_span("setup (EGL..uploads)", &t0, &t1);
   print_span("draw calls", &t1, &t2);
   print_span("glFinish + readback", &t2, &t3);
   print_span("first draw..readback", &t1, &t3);

   if (o.png) {
      char err[256];
      if (pan_png_write_rgba8(o.out, px, o.width, o.height, err,
                              sizeof(err))) {
         fprintf(stderr, "pan-demo: %s\n", err);
         goto out;
      }
      printf("wrote %s\n", o.out);
   }
   ret = 0;
out:
   free(px);
   tear_down(&d);
   return ret;
}
