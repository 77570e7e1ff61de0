/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan-eglinfo: bring up the driver the way applications do, through the
 * system libEGL (glvnd), and print what the GL implementation reports.
 *
 *   pan-eglinfo [--api gles2|gles3|gl] [--extensions] [--no-gbm]
 *
 * It initialises an EGL surfaceless display, creates a context of the
 * chosen API, makes it current without a surface and prints the vendor,
 * renderer, version and (optionally) extension strings. Unless --no-gbm is
 * given it also opens the Mali render node through GBM, allocates a buffer,
 * initialises an EGL display on it, clears a GBM window surface, swaps it
 * and reads the front buffer back. Exit status 0 only when all of that
 * worked. */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <gbm.h>
#include <xf86drm.h>

struct options {
   const char *api;
   bool extensions;
   bool gbm;
};

static int
fail(const char *what)
{
   fprintf(stderr, "pan-eglinfo: %s failed (EGL error 0x%x)\n", what,
           eglGetError());
   return 1;
}

static EGLDisplay
get_display(EGLenum platform, void *native)
{
   PFNEGLGETPLATFORMDISPLAYEXTPROC get =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
         "eglGetPlatformDisplayEXT");

   return get ? get(platform, native, NULL) : EGL_NO_DISPLAY;
}

static int
print_context(EGLDisplay dpy, const struct options *o)
{
   EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE };
   EGLenum api = EGL_OPENGL_ES_API;

   if (!strcmp(o->api, "gles3")) {
      attribs[1] = 3;
   } else if (!strcmp(o->api, "gl")) {
      api = EGL_OPENGL_API;
      attribs[0] = EGL_NONE;
   }

   if (!eglBindAPI(api))
      return fail("eglBindAPI");

   EGLContext ctx =
      eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
   if (ctx == EGL_NO_CONTEXT)
      return fail("eglCreateContext");
   if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
      return fail("eglMakeCurrent");

   printf("GL_VENDOR: %s\n", (const char *)glGetString(GL_VENDOR));
   printf("GL_RENDERER: %s\n", (const char *)glGetString(GL_RENDERER));
   printf("GL_VERSION: %s\n", (const char *)glGetString(GL_VERSION));
   printf("GL_SHADING_LANGUAGE_VERSION: %s\n",
          (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
   if (o->extensions)
      printf("GL_EXTENSIONS: %s\n", (const char *)glGetString(GL_EXTENSIONS));

   eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   eglDestroyContext(dpy, ctx);
   return 0;
}

static int
open_mali_node(void)
{
   for (int minor = 128; minor < 192; ++minor) {
      char path[64];
      snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);

      int fd = open(path, O_RDWR | O_CLOEXEC);
      if (fd < 0)
         continue;

      drmVersionPtr v = drmGetVersion(fd);
      bool mali = v && !strcmp(v->name, "panfrost");
      drmFreeVersion(v);
      if (mali)
         return fd;
      close(fd);
   }
   return -1;
}

/* The display path of a kmsro compositor: a GBM surface as an EGL window,
 * a clear, eglSwapBuffers, then the front buffer read back on the CPU as
 * the display would scan it out.
 */
static int
check_gbm_swap(struct gbm_device *gbm, EGLDisplay dpy)
{
   const EGLint config_attribs[] = {
      EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE,
   };
   const EGLint ctx_attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE };
   EGLConfig configs[64];
   EGLint n = 0;
   int ret = 1;

   if (!eglBindAPI(EGL_OPENGL_ES_API) ||
       !eglChooseConfig(dpy, config_attribs, configs, 64, &n) || !n)
      return fail("eglChooseConfig on GBM");

   /* The config whose visual is the surface's format. */
   EGLConfig config = NULL;
   for (EGLint i = 0; i < n && !config; ++i) {
      EGLint id;
      if (eglGetConfigAttrib(dpy, configs[i], EGL_NATIVE_VISUAL_ID, &id) &&
          id == GBM_FORMAT_XRGB8888)
         config = configs[i];
   }
   if (!config) {
      fprintf(stderr, "pan-eglinfo: no EGL config for XRGB8888 on GBM\n");
      return 1;
   }

   struct gbm_surface *gs = gbm_surface_create(
      gbm, 64, 64, GBM_FORMAT_XRGB8888,
      GBM_BO_USE_RENDERING | GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR);
   if (!gs) {
      fprintf(stderr, "pan-eglinfo: gbm_surface_create failed\n");
      return 1;
   }
   EGLSurface surf = eglCreateWindowSurface(
      dpy, config, (EGLNativeWindowType)gs, NULL);
   EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
   if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
       !eglMakeCurrent(dpy, surf, surf, ctx)) {
      ret = fail("a GBM window surface");
      goto out;
   }

   glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
   glClear(GL_COLOR_BUFFER_BIT);
   if (!eglSwapBuffers(dpy, surf)) {
      ret = fail("eglSwapBuffers on GBM");
      goto out;
   }

   struct gbm_bo *front = gbm_surface_lock_front_buffer(gs);
   if (!front) {
      fprintf(stderr, "pan-eglinfo: no front buffer after the swap\n");
      goto out;
   }
   uint32_t stride;
   void *map_data = NULL;
   const uint32_t *px = gbm_bo_map(front, 0, 0, 64, 64, GBM_BO_TRANSFER_READ,
                                   &stride, &map_data);
   if (px) {
      printf("GBM swap: 64x64 XRGB8888 front buffer, pixel 0x%08x\n",
             px[0] | 0xff000000u);
      gbm_bo_unmap(front, map_data);
      ret = 0;
   } else {
      fprintf(stderr, "pan-eglinfo: gbm_bo_map of the front buffer failed\n");
   }
   gbm_surface_release_buffer(gs, front);

out:
   eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   if (ctx != EGL_NO_CONTEXT)
      eglDestroyContext(dpy, ctx);
   if (surf != EGL_NO_SURFACE)
      eglDestroySurface(dpy, surf);
   gbm_surface_destroy(gs);
   return ret;
}

static int
check_gbm(void)
{
   int fd = open_mali_node();
   if (fd < 0) {
      fprintf(stderr, "pan-eglinfo: no panfrost render node found\n");
      return 1;
   }

   int ret = 1;
   struct gbm_device *gbm = gbm_create_device(fd);
   if (!gbm) {
      fprintf(stderr, "pan-eglinfo: gbm_create_device failed\n");
      goto out_fd;
   }
   printf("GBM backend: %s\n", gbm_device_get_backend_name(gbm));

   struct gbm_bo *bo = gbm_bo_create(gbm, 64, 64, GBM_FORMAT_ARGB8888,
                                     GBM_BO_USE_RENDERING | GBM_BO_USE_LINEAR);
   if (!bo) {
      fprintf(stderr, "pan-eglinfo: gbm_bo_create failed\n");
      goto out_gbm;
   }
   printf("GBM buffer: 64x64 ARGB8888, stride %u\n", gbm_bo_get_stride(bo));
   gbm_bo_destroy(bo);

   EGLDisplay dpy = get_display(EGL_PLATFORM_GBM_KHR, gbm);
   EGLint major, minor;
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
      ret = fail("eglInitialize on GBM");
      goto out_gbm;
   }
   printf("EGL on GBM: %d.%d, %s\n", major, minor,
          eglQueryString(dpy, EGL_VENDOR));
   ret = check_gbm_swap(gbm, dpy);
   eglTerminate(dpy);

out_gbm:
   gbm_device_destroy(gbm);
out_fd:
   close(fd);
   return ret;
}

int
main(int argc, char **argv)
{
   struct options o = { .api = "gles2", .gbm = true };

   for (int i = 1; i < argc; ++i) {
      if (!strcmp(argv[i], "--api") && i + 1 < argc &&
          (!strcmp(argv[i + 1], "gles2") || !strcmp(argv[i + 1], "gles3") ||
           !strcmp(argv[i + 1], "gl"))) {
         o.api = argv[++i];
      } else if (!strcmp(argv[i], "--extensions")) {
         o.extensions = true;
      } else if (!strcmp(argv[i], "--no-gbm")) {
         o.gbm = false;
      } else {
         bool help = !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");
         fprintf(help ? stdout : stderr,
                 "usage: pan-eglinfo [--api gles2|gles3|gl] [--extensions] "
                 "[--no-gbm]\n");
         return help ? 0 : 2;
      }
   }

   EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
   EGLint major, minor;
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
      return fail("eglInitialize (surfaceless)");

   printf("EGL: %d.%d, vendor %s\n", major, minor,
          eglQueryString(dpy, EGL_VENDOR));

   int ret = print_context(dpy, &o);
   eglTerminate(dpy);
   eglReleaseThread();

   if (!ret && o.gbm)
      ret = check_gbm();
   return ret;
}
