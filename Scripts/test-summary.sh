#!/bin/sh
# The closing lines of `make test`: how many tests were skipped, and how many of them for lack
# of the shared data (real OSM extracts, plus-code reference data). A suite skipped as a whole
# is reported by Swift Testing as one line; its tests are counted from `swift test list`.
# With CI=true, a test skipped for lack of the shared data fails the run.
#   sh Scripts/test-summary.sh LOG SHARED
set -u
log=$1
shared=$2
list=$(dirname "$log")/test-list.txt
${SWIFT:-swift} test list -c release --skip-build --disable-xctest >"$list" 2>/dev/null || : >"$list"
total=0
lacking=0
# Lines such as: ➜ Suite RealDataTests skipped: "needs ../shared/data/osm (set PLACEINDEX_SHARED)"
skips=$(grep -E '^[^ ]+ (Test|Suite) .* skipped(: ".*")?\.?$' "$log" || true)
[ -n "$skips" ] && {
  printf '%s\n' "$skips" | while IFS= read -r line; do
    kind=$(printf '%s' "$line" | awk '{print $2}')
    name=$(printf '%s' "$line" | sed -E 's/^[^ ]+ (Test|Suite) (.*) skipped.*$/\2/')
    n=1
    if [ "$kind" = Suite ]; then
      n=$(grep -c -E "[./]$name/" "$list" || true)
      [ "$n" -gt 0 ] || n=1
    fi
    if printf '%s' "$line" | grep -q -i -E 'shared|\.osm|olc|extract'; then echo "$n shared"; else echo "$n other"; fi
  done
} >"$log.skips"
[ -f "$log.skips" ] || : >"$log.skips"
total=$(awk '{s += $1} END {print s + 0}' "$log.skips")
lacking=$(awk '$2 == "shared" {s += $1} END {print s + 0}' "$log.skips")
rm -f "$log.skips"
if [ -d "$shared/data" ]; then where="$shared/data found"; else where="$shared/data not found"; fi
echo "skipped: $lacking tests for lack of $shared/data ($where), $total skipped in all (full log: $log)"
if [ "${CI:-}" = true ] && [ "$lacking" -gt 0 ]; then
  echo "CI: tests were skipped for lack of the shared data"
  exit 1
fi
exit 0
