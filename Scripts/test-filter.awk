# Filters `swift test` output for `make test`: drops each test's and suite's "started" and
# "passed after N seconds" lines; keeps failures, skips, issues, printed results and the closing
# "Test run with N tests in M suites passed after X seconds." line.
/ (Test|Suite) / && /(started|passed after [0-9.]+ seconds)\.$/ && !/Test run with/ { next }
{ print; fflush() }
