#!/bin/sh
# clear-dump-test.sh SRC BUILD PAN_CLEAR PAN_DECODE GPU_ID
# Clears a 64x32 RGBA8 + D24S8 framebuffer with pan-clear on the noop
# drm-shim mocking GPU_ID, with every submit dumped (PAN_MESA_DEBUG=dump),
# then decodes the dumps with pan-decode and checks that they hold a clean
# fragment job for a 64x32 framebuffer cleared to 0.2,0.4,0.6,1.0.
# Unless PAN_SHIM_EXEC=0, the shim is expected to execute the jobs, so the
# readback must also be the cleared colour everywhere.
set -u
if [ $# -ne 5 ]; then
   echo "usage: $0 SRC BUILD PAN_CLEAR PAN_DECODE GPU_ID" >&2
   exit 2
fi
src=$1 build=$2 tool=$3 decode=$4 id=$5

# 0.2,0.4,0.6,1.0 in RGBA8 is 0x33,0x66,0x99,0xff; the tile-buffer word
# holds R in bits 0-7 up to A in bits 24-31. pan-decode prints clear words
# in decimal; accept hex too.
clear_dec=4288243251 clear_hex=0xff996633

fail() {
   echo "FAIL: $*"
   exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clear-dump-$id.XXXXXX") ||
   fail "cannot create a temporary directory"
trap 'rm -rf "$tmp"' 0
trap 'exit 130' INT TERM
mkdir "$tmp/dumps" || fail "cannot create $tmp/dumps"

# The driver environment only for pan-clear: pan-decode runs without the
# shim preloaded.
out=$(
   eval "$(PAN_FORCE_SHIM=1 "$src/bin/pan-env" "$build")"
   export PAN_GPU_ID="$id" PAN_MESA_DEBUG=dump PAN_DUMP_DIR="$tmp/dumps"
   # PAN_EXE_WRAPPER: bin/pan-qemu ARCH in a cross build (tests/meson.build)
   ${PAN_EXE_WRAPPER:-} "$tool" --size 64x32 --format rgba8 \
           --color 0.2,0.4,0.6,1.0 --zs d24s8 --readback 2>&1
)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "pan-clear exited with $rc"
echo "ok: pan-clear exited with 0"

# Decode every dump; the frame's checks run on all of them together since
# the fragment job need not be in the first submit.
. "$(dirname "$0")/dump-decode.sh"
decode_dumps "$tmp/dumps"
echo "ok: pan-decode decoded every dump with exit 0 and no ERROR line"

# The fragment job with everything it reaches, up to the next job or the
# end of its chain.
awk '/^job [0-9]+ @ 0x[0-9a-f]+: fragment$/ { on = 1; print; next }
     /^job |^end of chain/ { on = 0 }
     on' "$all" >"$tmp/fragment.txt"
[ -s "$tmp/fragment.txt" ] || fail "no fragment job in the decoded dumps"
echo "ok: fragment job present"

has() {
   grep -Eq "^ *($1)\$" "$tmp/fragment.txt"
}

arch=$(sed -n 's/^dump .*: GPU 0x[0-9a-f]*, v\([0-9]*\),.*/\1/p' "$all" |
       head -n 1)
# Midgard v4's single-target framebuffer has no width/height fields, only
# the inclusive pixel bounds; later ones have both.
if [ "$arch" != 4 ]; then
   has 'width: 64' && has 'height: 32' ||
      fail "fragment framebuffer is not width 64 / height 32 (v$arch)"
fi
has 'bound_max_x: 63' && has 'bound_max_y: 31' ||
   fail "fragment framebuffer bounds are not 63,31 (v$arch)"
echo "ok: framebuffer 64x32 (v$arch)"

has "color_0: ($clear_dec|$clear_hex)" ||
   fail "no render target cleared to $clear_hex (color_0: $clear_dec)"
echo "ok: clear colour $clear_hex"

if [ "${PAN_SHIM_EXEC:-}" != 0 ]; then
   n=$(echo "$out" | grep -c '^pixel\[[0-9]*,[0-9]*\] = 51 102 153 255$')
   [ "$n" -eq 5 ] || fail "readback pixels are not 51 102 153 255"
   echo "$out" | grep -qx 'readback: uniform' ||
      fail "readback is not uniform"
   echo "ok: readback uniform 51 102 153 255"
else
   echo "skip: readback (PAN_SHIM_EXEC=0)"
fi
echo "PASS: clear-dump $id"
