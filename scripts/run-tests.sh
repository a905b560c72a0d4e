#!/usr/bin/env bash
# Runs every test (already built) and, when any fails, repeats the failing tests' issue lines at the very end, so
# that the tail of a CI log (often all a CI keeps) says which test failed and why. The whole output is also kept in
# .build/test-output.log.
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/test-output.log
mkdir -p .build
swift="${SWIFT:-swift}"
"$swift" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "== what failed (the whole output is in $log) =="
    # Swift Testing marks a failed test and each issue it recorded with ✘; XCTest says "error:" and "failed".
    grep -E '✘|error: |Test Case .* failed' "$log" | grep -v '^✘ Test run with' | head -60
    echo "== exit $status =="
fi
exit "$status"
