#!/bin/sh
# gallium-test.sh SRC BUILD TEST GPU_ID [ARGS...]
# Runs a Gallium-level test program of the driver (it opens the render
# node and creates our pipe_screen itself) on the noop drm-shim mocking
# GPU_ID, whose simulator executes the submitted jobs.
set -u
if [ $# -lt 4 ]; then
   echo "usage: $0 SRC BUILD TEST GPU_ID [ARGS...]" >&2
   exit 2
fi
src=$1 build=$2 prog=$3 id=$4
shift 4

eval "$(PAN_FORCE_SHIM=1 "$src/bin/pan-env" "$build")"
export PAN_GPU_ID="$id" PAN_MESA_DEBUG=sync
# Every run compiles (pan_shader_cache_test turns the cache on itself).
export MESA_SHADER_CACHE_DISABLE=true
# In a sanitizer build the shim is preloaded ahead of the ASan runtime,
# which ASan refuses by default; the order does not matter to it here.
export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# PAN_EXE_WRAPPER: bin/pan-qemu ARCH in a cross build (tests/meson.build)
exec ${PAN_EXE_WRAPPER:-} "$prog" "$@"
