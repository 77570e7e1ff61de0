/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * bench-draws: CPU cost of a draw, as draws per second, through the real
 * loader path (EGL surfaceless, GLES 2.0, a framebuffer object).  Meant
 * for the drm-shim with PAN_SHIM_EXEC=0, where the GPU side costs nothing
 * and what is left is the state tracker plus the driver's draw path.
 *
 *   bench-draws [--seconds S | --frames F] [--batch N] [CASE...]
 *
 * CASE is one of:
 *   same      the same draw again and again
 *   uniform   a uniform changes before each draw
 *   texture   the sampled texture changes (two textures, alternating)
 *   vbuf      the vertex buffer changes (two buffers, alternating)
 *   upload    the vertex buffer's contents change (glBufferSubData of
 *             the first of the two triangles it holds, which the frame's
 *             earlier draws, still pending, read)
 * (all five when none is named).  Each frame clears the target, makes N
 * draws (default 64) and flushes; every 16 frames a glFinish keeps the
 * queue bounded.  Prints one line per case: "CASE DRAWS_PER_S".  A case
 * runs for S seconds (default 1), or exactly F frames after the warm-up:
 * run under valgrind --tool=callgrind with two values of F, the difference
 * of the instruction counts is the cost of the extra draws, free of the
 * noise of a shared machine.
 *
 * Prints figures only; tests/bench_draws/run.py runs it against our
 * driver and the base's stock one and prints the ratios.
 *
 * Exit status: 0 on success, 1 when GL/EGL refused something, 2 on bad
 * arguments.
 */

#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#define TARGET_W 256
#define TARGET_H 256

enum bench_case {
   CASE_SAME,
   CASE_UNIFORM,
   CASE_TEXTURE,
   CASE_VBUF,
   CASE_UPLOAD,
   CASE_N
};

static const char *const case_names[CASE_N] = { "same", "uniform", "texture",
                                                "vbuf", "upload" };

static const char vs_src[] = "attribute vec4 pos;\n"
                             "uniform vec4 offset;\n"
                             "varying vec2 uv;\n"
                             "void main() {\n"
                             "   uv = pos.xy * 0.5 + 0.5;\n"
                             "   gl_Position = pos + offset;\n"
                             "}\n";

static const char fs_color_src[] = "precision mediump float;\n"
                                   "uniform vec4 color;\n"
                                   "varying vec2 uv;\n"
                                   "void main() {\n"
                                   "   gl_FragColor = color * uv.x;\n"
                                   "}\n";

static const char fs_tex_src[] = "precision mediump float;\n"
                                 "uniform sampler2D tex;\n"
                                 "varying vec2 uv;\n"
                                 "void main() {\n"
                                 "   gl_FragColor = texture2D(tex, uv);\n"
                                 "}\n";

struct bench {
   GLuint prog_color, prog_tex;
   GLint offset_color, offset_tex, color;
   GLuint vbo[2], tex[2];
   GLuint vbo_upload; /* both triangles, the first rewritten (upload) */
};

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static GLuint
compile(GLenum kind, const char *src)
{
   GLuint s = glCreateShader(kind);
   GLint ok = 0;
   glShaderSource(s, 1, &src, NULL);
   glCompileShader(s);
   glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      char log[512] = "";
      glGetShaderInfoLog(s, sizeof(log), NULL, log);
      fprintf(stderr, "bench-draws: shader did not compile: %s\n", log);
   }
   return s;
}

static GLuint
link(const char *fs_src)
{
   GLuint p = glCreateProgram();
   GLint ok = 0;
   glAttachShader(p, compile(GL_VERTEX_SHADER, vs_src));
   glAttachShader(p, compile(GL_FRAGMENT_SHADER, fs_src));
   glBindAttribLocation(p, 0, "pos");
   glLinkProgram(p);
   glGetProgramiv(p, GL_LINK_STATUS, &ok);
   if (!ok) {
      fprintf(stderr, "bench-draws: program did not link\n");
      return 0;
   }
   return p;
}

static bool
setup_gl(struct bench *b)
{
   /* The render target: a colour-only framebuffer object, so that every
    * driver takes the same single-target path.
    */
   GLuint fbo, target;
   glGenFramebuffers(1, &fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, fbo);
   /* A texture rather than a renderbuffer: RGBA8 without an extension */
   glGenTextures(1, &target);
   glBindTexture(GL_TEXTURE_2D, target);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TARGET_W, TARGET_H, 0, GL_RGBA,
                GL_UNSIGNED_BYTE, NULL);
   glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                          GL_TEXTURE_2D, target, 0);
   if (glCheckFramebufferStatus(GL_FRAMEBUFFER) !=
       GL_FRAMEBUFFER_COMPLETE) {
      fprintf(stderr, "bench-draws: framebuffer incomplete\n");
      return false;
   }
   glViewport(0, 0, TARGET_W, TARGET_H);

   b->prog_color = link(fs_color_src);
   b->prog_tex = link(fs_tex_src);
   if (!b->prog_color || !b->prog_tex)
      return false;
   b->offset_color = glGetUniformLocation(b->prog_color, "offset");
   b->offset_tex = glGetUniformLocation(b->prog_tex, "offset");
   b->color = glGetUniformLocation(b->prog_color, "color");
   glUseProgram(b->prog_tex);
   glUniform1i(glGetUniformLocation(b->prog_tex, "tex"), 0);

   /* Two small triangles, the second one shifted, in two buffers */
   static const GLfloat tri[2][12] = {
      { -0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1 },
      { -0.4f, -0.6f, 0, 1, 0.6f, -0.6f, 0, 1, 0.1f, 0.4f, 0, 1 },
   };
   glGenBuffers(2, b->vbo);
   for (unsigned i = 0; i < 2; ++i) {
      glBindBuffer(GL_ARRAY_BUFFER, b->vbo[i]);
      glBufferData(GL_ARRAY_BUFFER, sizeof(tri[i]), tri[i], GL_STATIC_DRAW);
   }
   glGenBuffers(1, &b->vbo_upload);
   glBindBuffer(GL_ARRAY_BUFFER, b->vbo_upload);
   glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_DYNAMIC_DRAW);

   /* Two 16x16 textures of different colours */
   glGenTextures(2, b->tex);
   for (unsigned i = 0; i < 2; ++i) {
      GLubyte texels[16 * 16 * 4];
      for (unsigned t = 0; t < sizeof(texels); ++t)
         texels[t] = (GLubyte)(t * (i + 3));
      glBindTexture(GL_TEXTURE_2D, b->tex[i]);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA,
                   GL_UNSIGNED_BYTE, texels);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   }
   glEnableVertexAttribArray(0);
   return glGetError() == GL_NO_ERROR;
}

/* The state every draw of a case starts from. */
static void
bind_case(struct bench *b, enum bench_case c)
{
   GLuint prog = c == CASE_TEXTURE ? b->prog_tex : b->prog_color;
   glUseProgram(prog);
   glUniform4f(c == CASE_TEXTURE ? b->offset_tex : b->offset_color, 0, 0, 0,
               0);
   if (c != CASE_TEXTURE)
      glUniform4f(b->color, 1, 0.5f, 0.25f, 1);
   glBindTexture(GL_TEXTURE_2D, b->tex[0]);
   glBindBuffer(GL_ARRAY_BUFFER, c == CASE_UPLOAD ? b->vbo_upload : b->vbo[0]);
   glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
}

/* The change a case makes before draw number i. */
static void
change(struct bench *b, enum bench_case c, unsigned i)
{
   switch (c) {
   case CASE_SAME:
      break;
   case CASE_UNIFORM:
      glUniform4f(b->offset_color, (float)(i & 7) * 0.01f, 0, 0, 0);
      break;
   case CASE_TEXTURE:
      glBindTexture(GL_TEXTURE_2D, b->tex[i & 1]);
      break;
   case CASE_VBUF:
      glBindBuffer(GL_ARRAY_BUFFER, b->vbo[i & 1]);
      glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
      break;
   case CASE_UPLOAD: {
      /* The first triangle, moved right: part of the buffer the frame's
       * earlier draws, still pending, read. */
      GLfloat tri[12] = {
         -0.5f, -0.5f, 0, 1, 0.5f, -0.5f, 0, 1, 0, 0.5f, 0, 1
      };
      for (unsigned v = 0; v < 3; ++v)
         tri[4 * v] += (float)(i & 7) * 0.01f;
      glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(tri), tri);
      break;
   }
   default:
      break;
   }
}

/* Frames of `batch` draws; returns the number of draws made. */
static unsigned long
run_frames(struct bench *b, enum bench_case c, unsigned batch, unsigned frames)
{
   unsigned long draws = 0;
   for (unsigned f = 0; f < frames; ++f) {
      glClear(GL_COLOR_BUFFER_BIT);
      for (unsigned i = 0; i < batch; ++i, ++draws) {
         change(b, c, i);
         glDrawArrays(GL_TRIANGLES, 0, 3);
      }
      glFlush();
      if ((f & 15) == 15)
         glFinish();
   }
   glFinish();
   return draws;
}

static double
bench_case(struct bench *b, enum bench_case c, unsigned batch, double seconds,
           unsigned fixed_frames)
{
   bind_case(b, c);
   run_frames(b, c, batch, 16); /* warm-up: shader variants, BO caches */

   if (fixed_frames) {
      double t0 = now_s();
      unsigned long n = run_frames(b, c, batch, fixed_frames);
      return n / (now_s() - t0);
   }

   /* Grow the frame count until one run lasts long enough */
   unsigned frames = 16;
   for (;;) {
      double t0 = now_s();
      unsigned long n = run_frames(b, c, batch, frames);
      double t = now_s() - t0;
      if (t >= seconds || frames >= (1u << 24))
         return n / t;
      frames = t > 0.01 ? (unsigned)(frames * seconds / t * 1.1) + 1
                        : frames * 8;
   }
}

static bool
setup_egl(void)
{
   PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
         "eglGetPlatformDisplayEXT");
   EGLDisplay dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA,
                                              EGL_DEFAULT_DISPLAY, NULL)
                                : EGL_NO_DISPLAY;
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
       !eglBindAPI(EGL_OPENGL_ES_API)) {
      fprintf(stderr, "bench-draws: no EGL surfaceless display\n");
      return false;
   }
   static const EGLint ctx_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2,
                                         EGL_NONE };
   EGLContext ctx =
      eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attribs);
   if (ctx == EGL_NO_CONTEXT ||
       !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
      fprintf(stderr, "bench-draws: no GLES 2 context\n");
      return false;
   }
   return true;
}

int
main(int argc, char **argv)
{
   double seconds = 1.0;
   unsigned batch = 64, frames = 0;
   bool run[CASE_N] = { false };
   bool any = false;

   for (int a = 1; a < argc; ++a) {
      if (!strcmp(argv[a], "--seconds") && a + 1 < argc) {
         seconds = atof(argv[++a]);
         continue;
      }
      if (!strcmp(argv[a], "--frames") && a + 1 < argc) {
         frames = (unsigned)atoi(argv[++a]);
         continue;
      }
      if (!strcmp(argv[a], "--batch") && a + 1 < argc) {
         batch = (unsigned)atoi(argv[++a]);
         continue;
      }
      bool known = false;
      for (unsigned c = 0; c < CASE_N; ++c) {
         if (!strcmp(argv[a], case_names[c]))
            run[c] = known = any = true;
      }
      if (!known) {
         fprintf(stderr,
                 "usage: %s [--seconds S | --frames F] [--batch N] "
                 "[same|uniform|texture|vbuf|upload]...\n",
                 argv[0]);
         return 2;
      }
   }
   if (seconds <= 0 || batch == 0) {
      fprintf(stderr, "bench-draws: --seconds and --batch must be > 0\n");
      return 2;
   }

   struct bench b;
   if (!setup_egl() || !setup_gl(&b))
      return 1;
   printf("renderer %s\n", (const char *)glGetString(GL_RENDERER));
   for (unsigned c = 0; c < CASE_N; ++c) {
      if (any && !run[c])
         continue;
      double rate = bench_case(&b, c, batch, seconds, frames);
      printf("%s %.0f\n", case_names[c], rate);
      fflush(stdout);
   }
   return glGetError() == GL_NO_ERROR ? 0 : 1;
}
