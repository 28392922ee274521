#!/bin/sh
# The summary of `make test`, before the runner's closing line repeated: how many tests were skipped, and how many of them for lack of
# the shared data (real OSM extracts, plus-code reference data), read from the full log. Swift
# Testing reports every test of a skipped suite on a line of its own; the suites' own lines are
# not counted. With CI=true, a test skipped for lack of the shared data fails the run.
#   sh Tests/Scripts/test-summary.sh LOG SHARED
set -u
log=$1
shared=$2
# Lines such as: ➜ Test rebuildIsByteIdentical() skipped: "needs ../shared/data/osm (set PLACEINDEX_SHARED)"
skips=$(grep -E '^[^ ]+ Test .* skipped(: ".*")?\.?$' "$log")
total=$(printf '%s' "$skips" | grep -c . || true)
lacking=$(printf '%s' "$skips" | grep -c -i -E 'skipped: ".*(shared|\.osm|olc|extract)' || true)
if [ -d "$shared/data" ]; then where="found"; else where="not found"; fi
echo "skipped: $lacking tests for lack of $shared/data ($where); $total skipped in all (build/test.log lists them)"
if [ "${CI:-}" = true ] && [ "$lacking" -gt 0 ]; then
  echo "CI: $lacking tests were skipped for lack of the shared data"
  exit 1
fi
# The test runner's own closing line ends the output, as readers of `swift test` expect.
grep -E '^[^ ]+ Test run with ' "$log" | tail -1
exit 0
