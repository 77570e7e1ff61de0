#!/usr/bin/env bash
# The piglit oracle pass of bin/pan-test: build the stock drivers
# (build-stock.sh), run the CI list on softpipe and on stock Panfrost over
# our simulator for G52 and G57, and our own driver (build/) on both
# beside them (about two minutes more), and check the runs of expected.txt
# (stock) and expected-ours.txt (ours) still agree, and the G72 on part
# of the list (ci-g72-tests.txt). Ends with "pass
# piglit: N passed, N failed, N skipped (of N declared)": passed =
# agreeing runs plus the replay proof (replay_proof.py), pan-demo's
# scene against softpipe (tests/demo/scene_vs_softpipe.py) and the
# multisampling proofs (msaa_proof.py, stock and ours) and the other
# self-checking programs with ours (programs-ours-tests.txt, and
# programs-ours-g57-tests.txt on the G57 alone), failed =
# expected runs that no longer agree (or did not run), skipped = runs not
# agreeing yet.
#   tests/oracle_driver/ci.sh [BUILD_DIR]     (our build, for the drm-shim)
set -uo pipefail
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
stock=${PAN_STOCK_BUILD_DIR:-$top/build-stock}

export PYTHONDONTWRITEBYTECODE=1

# The runner's own judgement first: a broken one would count wrongly.
if ! out=$(/usr/bin/python3 "$here/test_run_piglit.py" 2>&1); then
   echo "$out"
   echo "pass piglit failed: the runner's self-test (test_run_piglit.py) failed"
   echo "pass piglit: 0 passed, 1 failed, 0 skipped (of 0 declared)"
   exit 1
fi

mkdir -p "$stock"
stock=$(cd "$stock" && pwd)
work_log=$stock/pan-build-stock.log
start=$(date +%s)
if ! PAN_STOCK_JOBS=${PAN_STOCK_JOBS:-$(nproc)} "$here/build-stock.sh" "$stock" >"$work_log" 2>&1; then
   tail -20 "$work_log"
   echo "pass piglit failed: building the stock drivers in $stock failed"
   echo "pass piglit: 0 passed, 1 failed, 0 skipped (of 0 declared)"
   exit 1
fi
echo "piglit: stock drivers built in $(($(date +%s) - start)) s"

# The replay proof needs the stock drivers, which only this pass builds on
# a clean clone (in the main pass it skips): run it here, where a skip is
# a failure, and count it with the piglit runs.
m=$build/subprojects/mesa/src/panfrost
replay_ok=0
if /usr/bin/python3 "$here/replay_proof.py" --stock "$stock" \
      --shim "$m/drm-shim/libpanfrost_noop_drm_shim.so" \
      --replay "$m/replay/pan-replay"; then
   replay_ok=1
   echo "piglit: replay-stock-proof passed"
else
   echo "piglit: replay-stock-proof failed or skipped (exit $?)"
fi

# pan-demo's scene against softpipe needs the stock build as well.
demo_ok=0
if /usr/bin/python3 "$top/tests/demo/scene_vs_softpipe.py" \
      --scene "$build/src/tools/pan-demo-scene" --build "$build" \
      --stock "$stock"; then
   demo_ok=1
   echo "piglit: demo-scene-vs-softpipe passed"
else
   echo "piglit: demo-scene-vs-softpipe failed or skipped (exit $?)"
fi

# Multisampling, which softpipe cannot judge: self-checking piglit tests
# that must pass on the stock driver over the simulator.
msaa_ok=0
if /usr/bin/python3 "$here/msaa_proof.py" --build "$build" --stock "$stock"; then
   msaa_ok=1
   echo "piglit: msaa-proof passed"
else
   echo "piglit: msaa-proof failed (exit $?)"
fi
# The same kind of programs with our driver (msaa-ours-tests.txt).
msaa_ours_ok=0
if /usr/bin/python3 "$here/msaa_proof.py" --build "$build" --stock "$stock" \
      --driver ours --list "$here/msaa-ours-tests.txt"; then
   msaa_ours_ok=1
   echo "piglit: msaa-proof-ours passed"
else
   echo "piglit: msaa-proof-ours failed (exit $?)"
fi
# Other self-checking programs with our driver (programs-ours-tests.txt):
# the desktop GL features softpipe's images cannot judge one by one.
programs_ours_ok=0
if /usr/bin/python3 "$here/msaa_proof.py" --build "$build" --stock "$stock" \
      --driver ours --list "$here/programs-ours-tests.txt"; then
   programs_ours_ok=1
   echo "piglit: programs-ours passed"
else
   echo "piglit: programs-ours failed (exit $?)"
fi
# And those only the G57 has the features for (blend shaders).
programs_ours_g57_ok=0
if /usr/bin/python3 "$here/msaa_proof.py" --build "$build" --stock "$stock" \
      --driver ours --gpus G57 --list "$here/programs-ours-g57-tests.txt"; then
   programs_ours_g57_ok=1
   echo "piglit: programs-ours-g57 passed"
else
   echo "piglit: programs-ours-g57 failed (exit $?)"
fi

out=$stock/pan-piglit-ci.log
/usr/bin/python3 "$here/run_piglit.py" --build "$build" --stock "$stock" \
   --list "$here/ci-tests.txt" --expected "$here/expected.txt" \
   --driver both --ours-gpus G52,G57 --expected-ours "$here/expected-ours.txt" \
   --pass-name piglit-runs 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
# The runs' line, then the pass line with the other proofs counted in.
line=$(grep -E '^pass piglit-runs: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped \(of [0-9]+ declared\)' "$out" | tail -1)
if [ -z "$line" ]; then
   echo "pass piglit: 0 passed, 1 failed, 0 skipped (of 0 declared)"
   exit 1
fi
read -r p f s d <<<"$(echo "$line" | sed -E 's/^pass piglit-runs: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped \(of ([0-9]+) declared\).*/\1 \2 \3 \4/')"
# The G72 on part of the list (ci-g72-tests.txt says how to run it all),
# its runs counted with the others.
out72=$stock/pan-piglit-ci-g72.log
/usr/bin/python3 "$here/run_piglit.py" --build "$build" --stock "$stock" \
   --list "$here/ci-g72-tests.txt" --expected "$here/expected.txt" \
   --driver both --gpus G72 --ours-gpus G72 \
   --expected-ours "$here/expected-ours.txt" --expected-subset \
   --pass-name piglit-runs-g72 2>&1 | tee "$out72"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
line=$(grep -E '^pass piglit-runs-g72: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped \(of [0-9]+ declared\)' "$out72" | tail -1)
if [ -z "$line" ]; then
   f=$((f + 1)); rc=1
else
   read -r p2 f2 s2 d2 <<<"$(echo "$line" | sed -E 's/^pass piglit-runs-g72: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped \(of ([0-9]+) declared\).*/\1 \2 \3 \4/')"
   p=$((p + p2)); f=$((f + f2)); s=$((s + s2)); d=$((d + d2))
fi
if [ "$replay_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
if [ "$demo_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
if [ "$msaa_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
if [ "$msaa_ours_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
if [ "$programs_ours_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
if [ "$programs_ours_g57_ok" = 1 ]; then p=$((p + 1)); else f=$((f + 1)); rc=1; fi
echo "pass piglit: $p passed, $f failed, $s skipped (of $((d + 6)) declared)"
exit "$rc"
