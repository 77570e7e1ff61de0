#!/usr/bin/env bash
# Build the pristine Mesa base (_base/src) with its stock Panfrost driver and
# softpipe into build-stock/: the reference drivers of the piglit oracle
# (run_piglit.py). Nothing of this folder goes into our product.
#   tests/oracle_driver/build-stock.sh [BUILD_DIR]
# Quick when the folder is already built. The base must be unpacked
# (bin/pan-base). Runs niced with two jobs, outside the shared ninja lock:
# it is a folder of its own.
set -euo pipefail
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-stock}
src=$top/_base/src
jobs=${PAN_STOCK_JOBS:-2}

[ -f "$src/meson.build" ] || "$top/bin/pan-base"

if [ ! -f "$build/build.ninja" ]; then
   # What the oracle needs and no more: the Gallium DRI megadriver with
   # panfrost and swrast (softpipe: no LLVM), EGL without window systems
   # (surfaceless and device), GBM, GLES, and the glvnd vendor library the
   # system loaders (libEGL, libGLESv2 from libglvnd) dispatch to.
   # -O1 keeps the clean build short; softpipe is fast enough with it.
   meson setup --native-file "$top/bin/debian-python.ini" "$build" "$src" \
      -Dbuildtype=release -Doptimization=1 -Db_ndebug=true \
      -Dgallium-drivers=panfrost,swrast -Dvulkan-drivers= \
      -Dllvm=disabled -Dshared-llvm=disabled -Ddraw-use-llvm=false \
      -Dplatforms= -Dglx=disabled -Ddri3=disabled \
      -Degl=enabled -Dgbm=enabled -Dglvnd=true \
      -Dgles1=disabled -Dgles2=enabled -Dopengl=true -Dshared-glapi=enabled \
      -Dgallium-vdpau=disabled -Dgallium-va=disabled -Dgallium-xa=disabled \
      -Dgallium-omx=disabled -Dgallium-nine=false -Dgallium-opencl=disabled \
      -Dgallium-rusticl=false -Dvalgrind=disabled -Dlibunwind=disabled \
      -Dlmsensors=disabled -Dzstd=enabled -Dbuild-tests=false -Dtools= \
      -Dvideo-codecs=
fi
# A separate folder: it does not need the lock that serialises builds of
# the shared tree (bin/pan-build).
PAN_NINJA_LOCKED=1 nice -n 10 ninja -C "$build" -j "$jobs"
