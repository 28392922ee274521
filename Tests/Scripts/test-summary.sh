#!/bin/sh
# The summary of `make test`, before the runners' closing lines repeated: how many tests were skipped, and how many of them for lack of
# the shared data (real OSM extracts, plus-code reference data), read from the full logs (one per
# `swift test` run: the main package's, then the benchmark package's). Swift Testing reports every
# test of a skipped suite on a line of its own; the suites' own lines are not counted. With
# CI=true, a test skipped for lack of the shared data fails the run.
#   sh Tests/Scripts/test-summary.sh SHARED LOG [LOG…]
set -u
shared=$1
shift
# Lines such as: ➜ Test rebuildIsByteIdentical() skipped: "needs ../shared/data/osm (set PLACEINDEX_SHARED)"
skips=$(cat "$@" | grep -E '^[^ ]+ Test .* skipped(: ".*")?\.?$')
total=$(printf '%s' "$skips" | grep -c . || true)
lacking=$(printf '%s' "$skips" | grep -c -i -E 'skipped: ".*(shared|\.osm|olc|extract)' || true)
if [ -d "$shared/data" ]; then where="found"; else where="not found"; fi
echo "skipped: $lacking tests for lack of $shared/data ($where); $total skipped in all ($* list them)"
if [ "${CI:-}" = true ] && [ "$lacking" -gt 0 ]; then
  echo "CI: $lacking tests were skipped for lack of the shared data"
  exit 1
fi
# Each test runner's own closing line ends the output, as readers of `swift test` expect (a log
# without one, from a run that crashed, says so; the run's exit status fails `make test` then).
for log in "$@"; do
  last=$(grep -E '^[^ ]+ Test run with ' "$log" | tail -1)
  if [ -n "$last" ]; then echo "$last"; else echo "$log: no closing 'Test run with' line"; fi
done
exit 0
