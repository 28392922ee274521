# Filters `swift test` output for `make test`: drops each test's, test case's and suite's
# "started" and "passed after N seconds" lines (a test case's line runs over several lines when
# its arguments hold line breaks); keeps failures, skips, issues, printed results and the closing
# "Test run with N tests in M suites passed after X seconds." line.
function finished(line) { return line ~ /(started|passed after [0-9.]+ seconds( with [0-9]+ test cases)?)\.$/ }
dropping { if (finished($0)) dropping = 0; next }
/^[^ ]+ Test run with / { print; fflush(); next }
/^[^ ]+ (Test|Suite) / && finished($0) { next }
/^[^ ]+ Test case passing / && !/ failed / { if (!finished($0)) dropping = 1; next }
{ print; fflush() }
