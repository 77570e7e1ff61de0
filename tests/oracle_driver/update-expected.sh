#!/usr/bin/env bash
# Regenerate expected.txt and expected-ours.txt: the runs of the CI list
# that agree today, on the stock driver and on ours, on the G52, G57
# and G72 (ci.sh checks the G72 on part of the list).
# Run it after simulator work makes more tests agree (ci.sh reports them
# as improvements), check the diff and commit it with that work.
#   tests/oracle_driver/update-expected.sh [BUILD_DIR]
set -euo pipefail
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
"$here/build-stock.sh"
exec /usr/bin/python3 "$here/run_piglit.py" --build "${1:-$top/build}" \
   --list "$here/ci-tests.txt" \
   --write-expected "$here/expected.txt" \
   --driver both --gpus G52,G57,G72 --ours-gpus G52,G57,G72 \
   --write-expected-ours "$here/expected-ours.txt"
