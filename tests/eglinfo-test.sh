#!/bin/sh
# eglinfo-test.sh SRC BUILD PAN_EGLINFO GPU_ID EXPECTED_NAME
# Runs pan-eglinfo on the noop drm-shim mocking GPU_ID. EXPECTED_NAME '-'
# means the GPU must be refused: a clean failure with a message, no crash.
set -u
src=$1 build=$2 tool=$3 id=$4 want=$5

eval "$(PAN_FORCE_SHIM=1 "$src/bin/pan-env" "$build")"
export PAN_GPU_ID=$id
# PAN_EXE_WRAPPER: bin/pan-qemu ARCH in a cross build (tests/meson.build)
out=$(${PAN_EXE_WRAPPER:-} "$tool" 2>&1)
rc=$?
echo "$out"

if [ "$want" = "-" ]; then
   [ $rc -ge 1 ] && [ $rc -lt 128 ] || { echo "FAIL: exit $rc"; exit 1; }
   echo "$out" | grep -qi "$id" || { echo "FAIL: no message naming $id"; exit 1; }
   exit 0
fi

[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
echo "$out" | grep -qx "GL_RENDERER: $want (Panfrost)" ||
   { echo "FAIL: renderer is not '$want (Panfrost)'"; exit 1; }
echo "$out" | grep -q "^GBM backend: drm" ||
   { echo "FAIL: GBM did not come up"; exit 1; }
echo "$out" | grep -q "^GBM swap: 64x64 XRGB8888 front buffer, pixel 0xff00ff00$" ||
   { echo "FAIL: the swapped GBM front buffer is not the green clear"; exit 1; }
