/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan-clear: the smallest frame an application can ask for, a clear.
 *
 *   pan-clear [--size WxH] [--format F] [--color R,G,B,A] [--depth D]
 *             [--stencil S] [--zs none|d16|d24s8|d32f] [--frames N]
 *             [--readback]
 *
 * It brings up an EGL surfaceless display and a GLES context (3.x when the
 * driver offers it, else 2.0), renders into a framebuffer object made of a
 * colour renderbuffer of format F and an optional depth/stencil one, clears
 * it N times (one flush per frame, so each frame is its own submit) and
 * waits for the GPU. With --readback it reads the colour buffer back,
 * prints the four corners and the centre and says whether the whole buffer
 * holds one value. bgra8 is a texture rather than a renderbuffer (see
 * make_color_buffer). Integer formats (rgba8ui) take the colour as integers
 * and are cleared with glClearBufferuiv, since glClear leaves integer
 * buffers undefined.
 *
 * Exit status: 0 on success, 1 when GL/EGL refused something, 2 on bad
 * arguments. */

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

enum pan_clear_kind {
   KIND_UNORM, /* read back as GL_RGBA / GL_UNSIGNED_BYTE */
   KIND_FLOAT,
   KIND_UINT,
};

struct color_format {
   const char *name;
   GLenum internal;
   enum pan_clear_kind kind;
   bool es2;     /* renderable in a 2.0 context (core or a common extension) */
   bool texture; /* only reachable as a texture (see make_color_buffer) */
};

static const struct color_format color_formats[] = {
   { "rgba8", GL_RGBA8, KIND_UNORM, true, false }, /* OES_rgb8_rgba8 on 2.0 */
   { "bgra8", GL_BGRA8_EXT, KIND_UNORM, true, true },
   { "rgb565", GL_RGB565, KIND_UNORM, true, false },
   { "rgba4", GL_RGBA4, KIND_UNORM, true, false },
   { "rgb5a1", GL_RGB5_A1, KIND_UNORM, true, false },
   { "rgb10a2", GL_RGB10_A2, KIND_UNORM, false, false },
   { "r8", GL_R8, KIND_UNORM, false, false },
   { "rg8", GL_RG8, KIND_UNORM, false, false },
   { "rgba16f", GL_RGBA16F, KIND_FLOAT, false, false },
   { "r32f", GL_R32F, KIND_FLOAT, false, false },
   { "rgba32f", GL_RGBA32F, KIND_FLOAT, false, false },
   { "rgba8ui", GL_RGBA8UI, KIND_UINT, false, false },
};

struct zs_format {
   const char *name;
   GLenum internal; /* GL_NONE: no depth/stencil buffer */
   bool stencil;
   bool es2;
};

static const struct zs_format zs_formats[] = {
   { "none", GL_NONE, false, true },
   { "d16", GL_DEPTH_COMPONENT16, false, true },
   { "d24s8", GL_DEPTH24_STENCIL8, true, true }, /* OES_packed_depth_stencil */
   { "d32f", GL_DEPTH_COMPONENT32F, false, false },
};

struct options {
   unsigned width, height;
   const struct color_format *color_fmt;
   const struct zs_format *zs_fmt;
   float color[4];
   float depth;
   int stencil;
   unsigned frames;
   bool readback;
};

struct gl_state {
   EGLDisplay dpy;
   EGLContext ctx;
   int es_major;
   GLuint fbo, color_rb, color_tex, zs_rb;
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static const char *
gl_enum_name(GLenum e)
{
   switch (e) {
   case GL_NO_ERROR:
      return "GL_NO_ERROR";
   case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
   case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
   case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
   case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
   case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
   case GL_FRAMEBUFFER_COMPLETE:
      return "GL_FRAMEBUFFER_COMPLETE";
   case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT:
      return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
   case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
      return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
   case GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS:
      return "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS";
   case GL_FRAMEBUFFER_UNSUPPORTED:
      return "GL_FRAMEBUFFER_UNSUPPORTED";
   case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE:
      return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
   default:
      return NULL;
   }
}

static void
print_enum(FILE *f, GLenum e)
{
   const char *name = gl_enum_name(e);
   if (name)
      fputs(name, f);
   else
      fprintf(f, "0x%04x", e);
}

/* Reports every pending GL error; returns true when there was one. */
static bool
gl_failed(const char *where)
{
   bool failed = false;
   GLenum e;

   while ((e = glGetError()) != GL_NO_ERROR) {
      fprintf(stderr, "pan-clear: %s: ", where);
      print_enum(stderr, e);
      fputc('\n', stderr);
      failed = true;
   }
   return failed;
}

static int
egl_fail(const char *what)
{
   fprintf(stderr, "pan-clear: %s failed (EGL error 0x%x)\n", what,
           eglGetError());
   return 1;
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */
/* ------------------------------------------------------------------ */

static void
usage(FILE *f)
{
   fputs("usage: pan-clear [--size WxH] [--format F] [--color R,G,B,A]\n"
         "                 [--depth D] [--stencil S] "
         "[--zs none|d16|d24s8|d32f]\n"
         "                 [--frames N] [--readback]\n"
         "formats:",
         f);
   for (size_t i = 0; i < sizeof(color_formats) / sizeof(color_formats[0]); ++i)
      fprintf(f, " %s", color_formats[i].name);
   fputc('\n', f);
}

static bool
parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
   char *end;
   unsigned long v = strtoul(s, &end, 10);

   if (end == s || *end || s[0] == '-' || v < min || v > max)
      return false;
   *out = (unsigned)v;
   return true;
}

static bool
parse_size(const char *s, unsigned *w, unsigned *h)
{
   char *end;
   unsigned long x = strtoul(s, &end, 10);

   if (end == s || *end != 'x' || s[0] == '-' || x < 1 || x > 65536)
      return false;
   *w = (unsigned)x;
   return parse_uint(end + 1, 1, 65536, h);
}

static bool
parse_color(const char *s, float rgba[4])
{
   for (int i = 0; i < 4; ++i) {
      char *end;
      rgba[i] = strtof(s, &end);
      if (end == s || *end != (i == 3 ? '\0' : ','))
         return false;
      s = end + 1;
   }
   return true;
}

static bool
parse_float(const char *s, float *out)
{
   char *end;
   *out = strtof(s, &end);
   return end != s && !*end;
}

static const struct color_format *
find_color_format(const char *name)
{
   for (size_t i = 0; i < sizeof(color_formats) / sizeof(color_formats[0]);
        ++i) {
      if (!strcmp(color_formats[i].name, name))
         return &color_formats[i];
   }
   return NULL;
}

static const struct zs_format *
find_zs_format(const char *name)
{
   for (size_t i = 0; i < sizeof(zs_formats) / sizeof(zs_formats[0]); ++i) {
      if (!strcmp(zs_formats[i].name, name))
         return &zs_formats[i];
   }
   return NULL;
}

/* Returns false (after saying why) on anything it cannot use. */
static bool
parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){
      .width = 64,
      .height = 64,
      .color_fmt = &color_formats[0],
      .zs_fmt = &zs_formats[0],
      .color = { 0.0f, 0.0f, 0.0f, 1.0f },
      .depth = 1.0f,
      .stencil = 0,
      .frames = 1,
   };

   for (int i = 1; i < argc; ++i) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool ok = true;

      if (!strcmp(a, "--readback")) {
         o->readback = true;
         continue;
      } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
         usage(stdout);
         exit(0);
      } else if (!v) {
         ok = false;
      } else if (!strcmp(a, "--size")) {
         ok = parse_size(v, &o->width, &o->height);
      } else if (!strcmp(a, "--format")) {
         ok = (o->color_fmt = find_color_format(v)) != NULL;
      } else if (!strcmp(a, "--zs")) {
         ok = (o->zs_fmt = find_zs_format(v)) != NULL;
      } else if (!strcmp(a, "--color")) {
         ok = parse_color(v, o->color);
      } else if (!strcmp(a, "--depth")) {
         ok = parse_float(v, &o->depth);
      } else if (!strcmp(a, "--stencil")) {
         unsigned s;
         ok = parse_uint(v, 0, 255, &s);
         o->stencil = (int)s;
      } else if (!strcmp(a, "--frames")) {
         ok = parse_uint(v, 1, 100000, &o->frames);
      } else {
         ok = false;
      }

      if (!ok) {
         fprintf(stderr, "pan-clear: bad argument '%s%s%s'\n", a, v ? " " : "",
                 v ? v : "");
         usage(stderr);
         return false;
      }
      ++i;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* EGL and the framebuffer object                                      */
/* ------------------------------------------------------------------ */

static int
bring_up_egl(struct gl_state *s)
{
   PFNEGLGETPLATFORMDISPLAYEXTPROC get =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
         "eglGetPlatformDisplayEXT");
   EGLint major, minor;

   s->dpy = get ? get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                : EGL_NO_DISPLAY;
   if (s->dpy == EGL_NO_DISPLAY || !eglInitialize(s->dpy, &major, &minor))
      return egl_fail("eglInitialize (surfaceless)");
   if (!eglBindAPI(EGL_OPENGL_ES_API))
      return egl_fail("eglBindAPI");

   /* Prefer 3.x for its formats; a 2.0-only driver still gets tested. */
   for (s->es_major = 3; s->es_major >= 2; --s->es_major) {
      EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, s->es_major, EGL_NONE };
      s->ctx =
         eglCreateContext(s->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
      if (s->ctx != EGL_NO_CONTEXT)
         break;
   }
   if (s->ctx == EGL_NO_CONTEXT)
      return egl_fail("eglCreateContext (GLES 3 and 2)");
   if (!eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, s->ctx))
      return egl_fail("eglMakeCurrent");

   printf("GL_RENDERER: %s\n", (const char *)glGetString(GL_RENDERER));
   printf("GL_VERSION: %s\n", (const char *)glGetString(GL_VERSION));
   return 0;
}

static GLuint
make_renderbuffer(GLenum internal, const struct options *o)
{
   GLuint rb;

   glGenRenderbuffers(1, &rb);
   glBindRenderbuffer(GL_RENDERBUFFER, rb);
   glRenderbufferStorage(GL_RENDERBUFFER, internal, (GLsizei)o->width,
                         (GLsizei)o->height);
   return rb;
}

/* EXT_texture_format_BGRA8888 makes BGRA colour-renderable, but Mesa's
 * GLES accepts GL_BGRA8_EXT only for textures, not for renderbuffers, so
 * the BGRA buffer is a one-level texture. */
static void
make_color_buffer(struct gl_state *s, const struct options *o)
{
   if (!o->color_fmt->texture) {
      s->color_rb = make_renderbuffer(o->color_fmt->internal, o);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                GL_RENDERBUFFER, s->color_rb);
      return;
   }

   glGenTextures(1, &s->color_tex);
   glBindTexture(GL_TEXTURE_2D, s->color_tex);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, (GLsizei)o->width,
                (GLsizei)o->height, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, NULL);
   glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                          s->color_tex, 0);
}

static int
make_framebuffer(struct gl_state *s, const struct options *o)
{
   const struct zs_format *zs = o->zs_fmt;
   GLint max_size = 0;

   if (s->es_major < 3 && (!o->color_fmt->es2 || !zs->es2)) {
      fprintf(stderr,
              "pan-clear: format %s/%s needs GLES 3, the driver "
              "only offers GLES 2\n",
              o->color_fmt->name, zs->name);
      return 1;
   }
   glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
   if (o->width > (unsigned)max_size || o->height > (unsigned)max_size) {
      fprintf(stderr,
              "pan-clear: %ux%u exceeds GL_MAX_RENDERBUFFER_SIZE "
              "%d\n",
              o->width, o->height, max_size);
      return 1;
   }

   glGenFramebuffers(1, &s->fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);

   make_color_buffer(s, o);
   if (gl_failed(o->color_fmt->name))
      return 1;

   if (zs->internal != GL_NONE) {
      s->zs_rb = make_renderbuffer(zs->internal, o);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                GL_RENDERBUFFER, s->zs_rb);
      /* GL_DEPTH_STENCIL_ATTACHMENT is 3.0 only; two attachments of the
       * same renderbuffer mean the same thing and work on 2.0 too. */
      if (zs->stencil)
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                                   GL_RENDERBUFFER, s->zs_rb);
      if (gl_failed(zs->name))
         return 1;
   }

   GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
   if (status != GL_FRAMEBUFFER_COMPLETE) {
      fprintf(stderr, "pan-clear: framebuffer %s + %s is not complete: ",
              o->color_fmt->name, zs->name);
      print_enum(stderr, status);
      fputc('\n', stderr);
      return 1;
   }
   return 0;
}

/* ------------------------------------------------------------------ */
/* Clearing                                                            */
/* ------------------------------------------------------------------ */

static GLuint
to_uint(float f)
{
   return f <= 0.0f            ? 0u
          : f >= 4294967295.0f ? 0xffffffffu
                               : (GLuint)(f + 0.5f);
}

static int
clear_frames(const struct options *o)
{
   const bool integer = o->color_fmt->kind == KIND_UINT;
   GLbitfield mask = integer ? 0 : GL_COLOR_BUFFER_BIT;
   const GLuint ucolor[4] = { to_uint(o->color[0]), to_uint(o->color[1]),
                              to_uint(o->color[2]), to_uint(o->color[3]) };

   if (o->zs_fmt->internal != GL_NONE)
      mask |= GL_DEPTH_BUFFER_BIT;
   if (o->zs_fmt->stencil)
      mask |= GL_STENCIL_BUFFER_BIT;

   glViewport(0, 0, (GLsizei)o->width, (GLsizei)o->height);
   glClearColor(o->color[0], o->color[1], o->color[2], o->color[3]);
   glClearDepthf(o->depth);
   glClearStencil(o->stencil);

   for (unsigned f = 0; f < o->frames; ++f) {
      if (integer)
         glClearBufferuiv(GL_COLOR, 0, ucolor);
      if (mask)
         glClear(mask);
      /* One submit per frame: without a flush the driver may fold every
       * clear of the loop into one. */
      glFlush();
      if (gl_failed("glClear"))
         return 1;
   }
   glFinish();
   if (gl_failed("glFinish"))
      return 1;

   printf("cleared %u frame(s): %ux%u %s + %s, colour %g,%g,%g,%g, "
          "depth %g, stencil %d\n",
          o->frames, o->width, o->height, o->color_fmt->name, o->zs_fmt->name,
          o->color[0], o->color[1], o->color[2], o->color[3], o->depth,
          o->stencil);
   return 0;
}

/* ------------------------------------------------------------------ */
/* Readback                                                            */
/* ------------------------------------------------------------------ */

struct read_layout {
   GLenum format, type;
   bool packed;    /* all channels in one 16/32-bit word */
   unsigned comps; /* components in memory (packed types: 1) */
   unsigned pixel_B;
};

static unsigned
format_comps(GLenum format)
{
   switch (format) {
   case GL_RED:
   case GL_RED_INTEGER:
   case GL_ALPHA:
   case GL_LUMINANCE:
      return 1;
   case GL_RG:
   case GL_RG_INTEGER:
   case GL_LUMINANCE_ALPHA:
      return 2;
   case GL_RGB:
   case GL_RGB_INTEGER:
      return 3;
   case GL_RGBA:
   case GL_RGBA_INTEGER:
   case GL_BGRA_EXT:
      return 4;
   default:
      return 0;
   }
}

static unsigned
type_size_B(GLenum type)
{
   switch (type) {
   case GL_UNSIGNED_BYTE:
   case GL_BYTE:
      return 1;
   case GL_UNSIGNED_SHORT:
   case GL_SHORT:
   case GL_HALF_FLOAT:
   case GL_HALF_FLOAT_OES:
      return 2;
   case GL_UNSIGNED_INT:
   case GL_INT:
   case GL_FLOAT:
      return 4;
   default:
      return 0;
   }
}

static bool
type_is_packed(GLenum type, unsigned *size_B)
{
   switch (type) {
   case GL_UNSIGNED_SHORT_5_6_5:
   case GL_UNSIGNED_SHORT_4_4_4_4:
   case GL_UNSIGNED_SHORT_5_5_5_1:
      *size_B = 2;
      return true;
   case GL_UNSIGNED_INT_2_10_10_10_REV:
   case GL_UNSIGNED_INT_10F_11F_11F_REV:
      *size_B = 4;
      return true;
   default:
      return false;
   }
}

/* Normalised buffers always read as RGBA8, which every GLES allows;
 * others use the implementation's preferred format. */
static bool
choose_read_layout(const struct options *o, struct read_layout *l)
{
   GLint format = GL_RGBA, type = GL_UNSIGNED_BYTE;

   if (o->color_fmt->kind != KIND_UNORM) {
      glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
      glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
      if (gl_failed("implementation read format"))
         return false;
   }
   l->format = (GLenum)format;
   l->type = (GLenum)type;

   unsigned packed_B;
   l->packed = type_is_packed(l->type, &packed_B);
   if (l->packed) {
      l->comps = 1;
      l->pixel_B = packed_B;
   } else {
      l->comps = format_comps(l->format);
      l->pixel_B = l->comps * type_size_B(l->type);
   }
   if (!l->pixel_B) {
      fprintf(stderr,
              "pan-clear: cannot read back format 0x%04x type "
              "0x%04x\n",
              l->format, l->type);
      return false;
   }
   return true;
}

static float
half_to_float(uint16_t h)
{
   int exp = (h >> 10) & 0x1f;
   float mant = (float)(h & 0x3ff);
   float v;

   if (exp == 0)
      v = mant / 1024.0f / 16384.0f;
   else if (exp == 31)
      v = mant ? NAN : INFINITY;
   else
      v = (1.0f + mant / 1024.0f) * (float)(1u << exp) / 32768.0f;
   return (h & 0x8000) ? -v : v;
}

/* Prints one pixel as "r g b a"; channels the format lacks are shown with
 * GL's defaults (0 for colour, 1 for alpha). */
static void
print_pixel(const struct read_layout *l, const uint8_t *p, unsigned x,
            unsigned y)
{
   printf("pixel[%u,%u] =", x, y);

   if (l->packed) {
      uint32_t v =
         l->pixel_B == 2 ? *(const uint16_t *)p : *(const uint32_t *)p;
      switch (l->type) {
      case GL_UNSIGNED_SHORT_5_6_5:
         printf(" %u %u %u 1\n", v >> 11, (v >> 5) & 63, v & 31);
         return;
      case GL_UNSIGNED_SHORT_4_4_4_4:
         printf(" %u %u %u %u\n", v >> 12, (v >> 8) & 15, (v >> 4) & 15,
                v & 15);
         return;
      case GL_UNSIGNED_SHORT_5_5_5_1:
         printf(" %u %u %u %u\n", v >> 11, (v >> 6) & 31, (v >> 1) & 31, v & 1);
         return;
      case GL_UNSIGNED_INT_2_10_10_10_REV:
         printf(" %u %u %u %u\n", v & 1023, (v >> 10) & 1023, (v >> 20) & 1023,
                v >> 30);
         return;
      default:
         printf(" 0x%08x (packed)\n", v);
         return;
      }
   }

   for (unsigned c = 0; c < 4; ++c) {
      if (c >= l->comps) {
         fputs(c == 3 ? " 1" : " 0", stdout);
         continue;
      }
      const uint8_t *e = p + c * type_size_B(l->type);
      switch (l->type) {
      case GL_UNSIGNED_BYTE:
         printf(" %u", *e);
         break;
      case GL_BYTE:
         printf(" %d", *(const int8_t *)e);
         break;
      case GL_UNSIGNED_SHORT:
         printf(" %u", *(const uint16_t *)e);
         break;
      case GL_SHORT:
         printf(" %d", *(const int16_t *)e);
         break;
      case GL_UNSIGNED_INT:
         printf(" %u", *(const uint32_t *)e);
         break;
      case GL_INT:
         printf(" %d", *(const int32_t *)e);
         break;
      case GL_FLOAT:
         printf(" %g", *(const float *)e);
         break;
      default:
         printf(" %g", half_to_float(*(const uint16_t *)e));
         break;
      }
   }
   putchar('\n');
}

static int
read_back(const struct options *o)
{
   struct read_layout l;

   if (!choose_read_layout(o, &l))
      return 1;

   size_t row_B = (size_t)o->width * l.pixel_B;
   uint8_t *pixels = calloc(o->height, row_B);
   if (!pixels) {
      fprintf(stderr, "pan-clear: out of memory for the readback\n");
      return 1;
   }

   glPixelStorei(GL_PACK_ALIGNMENT, 1);
   glReadPixels(0, 0, (GLsizei)o->width, (GLsizei)o->height, l.format, l.type,
                pixels);
   if (gl_failed("glReadPixels")) {
      free(pixels);
      return 1;
   }

   const unsigned xs[5] = { 0, o->width - 1, 0, o->width - 1, o->width / 2 };
   const unsigned ys[5] = { 0, 0, o->height - 1, o->height - 1, o->height / 2 };
   for (unsigned i = 0; i < 5; ++i)
      print_pixel(&l, pixels + ys[i] * row_B + (size_t)xs[i] * l.pixel_B, xs[i],
                  ys[i]);

   bool uniform = true;
   size_t total = (size_t)o->width * o->height;
   for (size_t i = 1; i < total && uniform; ++i)
      uniform = !memcmp(pixels, pixels + i * l.pixel_B, l.pixel_B);
   printf("readback: %s\n", uniform ? "uniform" : "mixed");

   free(pixels);
   return 0;
}

/* ------------------------------------------------------------------ */

static void
tear_down(struct gl_state *s)
{
   if (s->ctx != EGL_NO_CONTEXT) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glDeleteFramebuffers(1, &s->fbo);
      glDeleteRenderbuffers(1, &s->color_rb);
      glDeleteTextures(1, &s->color_tex);
      glDeleteRenderbuffers(1, &s->zs_rb);
      eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(s->dpy, s->ctx);
   }
   if (s->dpy != EGL_NO_DISPLAY)
      eglTerminate(s->dpy);
   eglReleaseThread();
}

int
main(int argc, char **argv)
{
   struct options o;
   struct gl_state s = { .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT };

   if (!parse_options(argc, argv, &o))
      return 2;

   int ret = bring_up_egl(&s);
   if (!ret)
      ret = make_framebuffer(&s, &o);
   if (!ret)
      ret = clear_frames(&o);
   if (!ret && o.readback)
      ret = read_back(&o);

   tear_down(&s);
   return ret;
}
