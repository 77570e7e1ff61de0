# Sourced by the dump tests: decode_dumps DIR decodes every .pandump in
# DIR with $decode (under $PAN_EXE_WRAPPER), collecting the text in
# $tmp/decoded.txt for the caller's checks; a dump that exits non-zero or
# prints an ERROR line fails the test through the caller's fail().
decode_dumps() {
   set -- "$1"/*.pandump
   [ -e "$1" ] || fail "no dump written to PAN_DUMP_DIR by PAN_MESA_DEBUG=dump"
   echo "ok: $# dump(s) written"
   all=$tmp/decoded.txt
   : >"$all"
   for f in "$@"; do
      ${PAN_EXE_WRAPPER:-} "$decode" "$f" >"$tmp/one.txt" 2>&1
      rc=$?
      cat "$tmp/one.txt" >>"$all"
      if [ $rc -ne 0 ] || grep -q '^ERROR' "$tmp/one.txt"; then
         grep '^ERROR' "$tmp/one.txt"
         fail "pan-decode $(basename "$f") exited with $rc"
      fi
   done
}
