#!/bin/sh
# driver-dump-oracle.sh SRC BUILD PAN_CLEAR ORACLE_CHAIN GPU_ID
# The driver's own frame through the stock decoder: pan-clear runs on the
# noop drm-shim with PAN_MESA_DEBUG=dump, and oracle_chain feeds the dump
# to the base's decoder, which must agree with what we packed.
set -u
src=$1 build=$2 clear=$3 oracle=$4 id=$5

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

# PAN_EXE_WRAPPER: bin/pan-qemu ARCH in a cross build (tests/meson.build)
eval "$(PAN_FORCE_SHIM=1 "$src/bin/pan-env" "$build")"
PAN_GPU_ID=$id PAN_MESA_DEBUG=dump PAN_DUMP_DIR=$dir \
   ${PAN_EXE_WRAPPER:-} "$clear" --size 100x40 --color 0.2,0.4,0.6,1.0 --zs d24s8 ||
   { echo "FAIL: pan-clear exited with $?"; exit 1; }

n=0
for dump in "$dir"/*.pandump; do
   [ -e "$dump" ] || break
   n=$((n + 1))
   ${PAN_EXE_WRAPPER:-} "$oracle" "$dump" "$dir/stock" || { echo "FAIL: $dump"; exit 1; }
done
[ $n -gt 0 ] || { echo "FAIL: the driver wrote no dump"; exit 1; }
echo "PASS: $n driver dump(s) read by the stock decoder"
