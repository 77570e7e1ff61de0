#!/bin/sh
# afbc-dump-test.sh SRC BUILD PAN_AFBC_TEST PAN_DECODE GPU_ID
# Runs gallium-afbc's program on the noop drm-shim mocking GPU_ID (v6, v7
# or v9) with every submit dumped (PAN_MESA_DEBUG=dump), decodes the dumps
# with pan-decode and checks that they decode without errors and that the
# descriptors say AFBC: a render target written back as AFBC, and a
# texture read as AFBC (the v6/v7 texel ordering, or a v9 AFBC plane).
set -u
if [ $# -ne 5 ]; then
   echo "usage: $0 SRC BUILD PAN_AFBC_TEST PAN_DECODE GPU_ID" >&2
   exit 2
fi
src=$1 build=$2 prog=$3 decode=$4 id=$5

fail() {
   echo "FAIL: $*"
   exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/afbc-dump-$id.XXXXXX") ||
   fail "cannot create a temporary directory"
trap 'rm -rf "$tmp"' 0
trap 'exit 130' INT TERM
mkdir "$tmp/dumps" || fail "cannot create $tmp/dumps"

# The driver environment only for the program: pan-decode runs without
# the shim preloaded.
out=$(
   eval "$(PAN_FORCE_SHIM=1 "$src/bin/pan-env" "$build")"
   export PAN_GPU_ID="$id" PAN_MESA_DEBUG=sync,dump PAN_DUMP_DIR="$tmp/dumps"
   export MESA_SHADER_CACHE_DISABLE=true
   ${PAN_EXE_WRAPPER:-} "$prog" 2>&1
)
rc=$?
echo "$out" | grep -v '^pan dump: wrote'
[ $rc -eq 0 ] || fail "pan_afbc_test exited with $rc"

. "$(dirname "$0")/dump-decode.sh"
decode_dumps "$tmp/dumps"
grep 'end of chain' "$all" | grep -qv ' 0 errors' &&
   fail "a chain decoded with errors"
echo "ok: every dump decodes"

grep -q 'writeback_block_format: afbc' "$all" ||
   fail "no render target written back as AFBC"
grep -q 'compression_mode: r8g8b8a8' "$all" || [ "$id" != 9093 ] ||
   fail "no AFBC render target with the RGBA8 compression mode"
grep -Eq 'texel_ordering: afbc|plane_type: afbc' "$all" ||
   fail "no texture read as AFBC"
echo "ok: AFBC render targets and textures in the decoded descriptors"
