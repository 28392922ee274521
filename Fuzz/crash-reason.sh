#!/bin/sh
# Usage: crash-reason.sh FUZZ_BINARY INPUT
# Replays one crashing input and prints one line: what failed (a fatal error, a runtime failure,
# a sanitizer report, a timeout) and the first frame in the project's sources, with numbers in
# messages replaced by N so that `make fuzz` can group crashes of the same cause.
bin=$1
input=$2
out=$(SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 timeout 60 "$bin" "$input" 2>&1)
what=""
for pattern in 'Fatal error: .*' 'runtime failure: [^/]*[a-z]' 'ERROR: AddressSanitizer: [a-z-]+' \
  'ERROR: libFuzzer: [a-z-]+( [a-z]+)?'; do
  what=$(printf '%s\n' "$out" | grep -m1 -oE "$pattern")
  [ -n "$what" ] && break
done
what=$(printf '%s\n' "$what" | sed -e 's|/dev/shm/[^:]*||g' -e 's|/tmp/[^:]*||g' -e 's/[0-9][0-9]*/N/g')
where=$(printf '%s\n' "$out" \
  | grep -oE '/Sources/(PlaceCore|PlaceIndex|PlaceIndexFormat|PlaceIndexBuilder|OSMReader|placeidx)/[^ ]*:[0-9]+' \
  | head -1 | sed 's|^/||')
echo "${what:-no crash on replay}${where:+ at $where}"
