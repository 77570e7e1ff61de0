#!/usr/bin/env bash
# The piglit oracle pass of bin/pan-test: build the stock drivers
# (build-stock.sh), run the CI list on softpipe and on stock Panfrost over
# our simulator for G52 and G57, and check the runs of expected.txt still
# agree. Ends with "pass piglit: N passed, N failed, N skipped (of N
# declared)": passed = agreeing runs, failed = expected runs that no
# longer agree (or did not run), skipped = runs not agreeing yet.
#   tests/oracle_driver/ci.sh [BUILD_DIR]     (our build, for the drm-shim)
set -uo pipefail
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top/build}
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
work_log=$stock/pan-build-stock.log
start=$(date +%s)
if ! PAN_STOCK_JOBS=${PAN_STOCK_JOBS:-$(nproc)} "$here/build-stock.sh" "$stock" >"$work_log" 2>&1; then
   tail -20 "$work_log"
   echo "pass piglit failed: building the stock drivers in $stock failed"
   echo "pass piglit: 0 passed, 1 failed, 0 skipped (of 0 declared)"
   exit 1
fi
echo "piglit: stock drivers built in $(($(date +%s) - start)) s"
exec /usr/bin/python3 "$here/run_piglit.py" --build "$build" --stock "$stock" \
   --list "$here/ci-tests.txt" --expected "$here/expected.txt" \
   --pass-name piglit
