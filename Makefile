# PlaceIndex: offline place autocomplete.
#   make                  check system packages, build, compile the default pipeline, run a sample query
#   make test             build and run the whole test suite (release mode: the real-data tests are heavy),
#                         then the benchmark harness's own tests (Benchmarks/, a package of its own)
#   make index PIPELINE=x build build/indexes/x.placeidx from Pipelines/x.pipeline
#   make indexes          every pipeline whose extract is present
#   make dist PIPELINE=x  pack x's index, manifest and attribution into build/dist/x-f….placeidx.tar
#   make install          a self-contained placeidx (Swift runtime linked in, data tables built in)
#                         in $(PREFIX)/bin, with its man page and bash completion
#   make format           format the sources with swift format

SWIFT     ?= swift
PIPELINE  ?= sample
BIN       := .build/release/placeidx
PACKAGES  := pkg-config libxml2-dev zlib1g-dev libbz2-dev libsqlite3-dev osmium-tool libmicrohttpd-dev
# The widget's browser test runs when chromium is installed (listed as skipped otherwise);
# `make test-deps` installs it (.ci/run does too).
TEST_PACKAGES := chromium
TABLES    := $(wildcard Data/*.tsv)
EMBEDDED  := Sources/PlaceIndexBuilder/Pipeline/EmbeddedTables.swift
SOURCES   := $(shell find Sources -name '*.swift' -o -name '*.h' -o -name '*.modulemap') Package.swift
BENCH_PKG := --package-path Benchmarks
SHARED    ?= $(or $(PLACEINDEX_SHARED),../shared)
# One configuration for every build in .build/release (make, make test, make bench):
# `swift test` compiles every module with -enable-testing, so the other builds do too; with
# different flags each build would recompile everything the other one built.
RELEASE   := -c release -Xswiftc -enable-testing

.PHONY: all deps build tables index indexes sample-query test test-deps format lint clean
.SECONDEXPANSION:

all: deps build index sample-query

# Installs missing Debian packages when run as root (never upgrading what is installed);
# otherwise prints the one command to run.
deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade$$missing; \
	  else \
	    echo "missing system packages; run:  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: $(BIN)

$(BIN): $(SOURCES) $(EMBEDDED)
	$(SWIFT) build $(RELEASE) --product placeidx
	@touch $@

# The data tables compiled into placeidx (Data/embed-tables.sh), regenerated when one changes.
tables: $(EMBEDDED)

$(EMBEDDED): $(TABLES) Data/embed-tables.sh
	sh Data/embed-tables.sh $@

index: build/indexes/$(PIPELINE).placeidx

# An index is rebuilt when its extract, its pipeline definition, a Data/ table or the builder changes.
build/indexes/%.placeidx: Pipelines/%.pipeline $$(shell sed -n 's/^extract *= *//p' Pipelines/$$*.pipeline) $(TABLES) $(BIN)
	$(BIN) build --pipeline $* -o $@

# Every pipeline whose extract is present, as prerequisites: `make -j N indexes` builds N at once.
PIPELINE_NAMES   := $(basename $(notdir $(wildcard Pipelines/*.pipeline)))
PRESENT_INDEXES  := $(foreach n,$(PIPELINE_NAMES),$(if $(wildcard $(shell sed -n 's/^extract *= *//p' Pipelines/$(n).pipeline)),build/indexes/$(n).placeidx))
MISSING_EXTRACTS := $(foreach n,$(PIPELINE_NAMES),$(if $(wildcard $(shell sed -n 's/^extract *= *//p' Pipelines/$(n).pipeline)),,$(n)))

indexes: $(PRESENT_INDEXES)
	@for n in $(MISSING_EXTRACTS); do echo "skipping $$n: its extract is not found"; done

sample-query: index
	$(BIN) query --index build/indexes/$(PIPELINE).placeidx "apotheke"
	$(BIN) query --index build/indexes/$(PIPELINE).placeidx "hauptstr 1"

# One archive to upload or bundle into an app: the index, its manifest and ATTRIBUTION.txt,
# named with the format and data versions (docs/FORMAT.md, "Packed artifact").
.PHONY: dist
dist: index
	$(BIN) dist --index build/indexes/$(PIPELINE).placeidx -o build/dist

# The tests read PLACEINDEX_SHARED (set from SHARED). Their output loses each test's "started" and
# "passed" lines (failures, skips and the closing "Test run with N tests ... passed" line stay);
# build/test.log keeps everything. The last line counts the tests skipped for lack of
# $(SHARED)/data; with CI=true a missing $(SHARED)/data is an error. The example package
# (ExamplePackageTests; SKIP_EXAMPLE_BUILD=1 skips it) is built before the tests run, so that its
# compilation does not compete with the tests' time limits; the test's own build is then a no-op.
# The benchmark harness's tests (BenchmarkTests, in the Benchmarks package) are built beside the
# main ones and run after them, into build/bench-test.log; the run fails when either fails, and
# the summary counts the skips of both and ends with both runs' closing lines.
test: deps tables
	@if [ -d "$(SHARED)/data" ]; then echo "real-data tests use $(SHARED)/data"; \
	 elif [ "$(CI)" = true ]; then echo "CI: $(SHARED)/data not found: the real-data tests cannot be skipped in CI (set SHARED=DIR)"; exit 1; \
	 else echo "NOTE: $(SHARED)/data not found: the tests that read real extracts and the plus-code reference data are skipped (counted at the end)"; fi
	$(SWIFT) build $(RELEASE) --build-tests
	@$(BENCH_REPLAN)
	$(SWIFT) build $(RELEASE) --build-tests $(BENCH_PKG)
	@mkdir -p build; if [ "$(SKIP_EXAMPLE_BUILD)" != 1 ]; then \
	  echo "$(SWIFT) build --package-path Examples/AppExample --scratch-path build/example-app"; \
	  $(SWIFT) build --package-path Examples/AppExample --scratch-path build/example-app >build/example-app.log 2>&1 \
	    || { cat build/example-app.log; exit 1; }; fi
	@mkdir -p build; rm -f build/test.status build/bench-test.status; \
	{ PLACEINDEX_SHARED="$(abspath $(SHARED))" $(SWIFT) test -c release --skip-build --disable-xctest 2>&1; \
	  echo $$? >build/test.status; } | tee build/test.log | awk -f Tests/Scripts/test-filter.awk; \
	echo "$(SWIFT) test -c release --skip-build --disable-xctest $(BENCH_PKG)"; \
	{ PLACEINDEX_SHARED="$(abspath $(SHARED))" $(SWIFT) test -c release --skip-build --disable-xctest $(BENCH_PKG) 2>&1; \
	  echo $$? >build/bench-test.status; } | tee build/bench-test.log | awk -f Tests/Scripts/test-filter.awk; \
	status=$$(cat build/test.status); [ "$$(cat build/bench-test.status)" = 0 ] || status=1; \
	SWIFT="$(SWIFT)" sh Tests/Scripts/test-summary.sh "$(SHARED)" build/test.log build/bench-test.log || status=1; exit $$status

test-deps:
	@$(MAKE) --no-print-directory deps PACKAGES="$(TEST_PACKAGES)"

format:
	$(SWIFT) format -i -r Sources Tests Package.swift Benchmarks/Sources Benchmarks/Tests Benchmarks/Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests Package.swift Benchmarks/Sources Benchmarks/Tests Benchmarks/Package.swift

clean:
	rm -rf .build build Benchmarks/.build

# A self-contained placeidx: the Swift runtime and Foundation linked statically (its own scratch
# path, so that the test build in .build/release is untouched), the data tables built in.
# static-check fails when ldd finds a library from the Swift toolchain.
PREFIX         ?= /usr/local
DESTDIR        ?=
INSTALL_SCRATCH := .build/install
STATIC_BIN     := $(INSTALL_SCRATCH)/release/placeidx

.PHONY: static static-check install uninstall

static: $(STATIC_BIN) static-check

$(STATIC_BIN): $(SOURCES) $(EMBEDDED)
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(INSTALL_SCRATCH) --product placeidx
	@touch $@

static-check: $(STATIC_BIN)
	@if ldd $(STATIC_BIN) | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|/opt/swift|usr/lib/swift'; then \
	  echo "$(STATIC_BIN) links the Swift libraries above dynamically"; exit 1; fi
	@echo "$(STATIC_BIN): no Swift runtime library linked dynamically (ldd: $$(ldd $(STATIC_BIN) | awk '{print $$1}' | tr '\n' ' '))"

install: $(STATIC_BIN) static-check
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -s -m 755 $(STATIC_BIN) $(DESTDIR)$(PREFIX)/bin/placeidx
	install -m 644 docs/placeidx.1 $(DESTDIR)$(PREFIX)/share/man/man1/placeidx.1
	install -m 644 docs/placeidx.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/placeidx
	@echo "installed $(DESTDIR)$(PREFIX)/bin/placeidx ($$($(DESTDIR)$(PREFIX)/bin/placeidx --version | head -1))"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/placeidx $(DESTDIR)$(PREFIX)/share/man/man1/placeidx.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/placeidx

# Benchmarks (Benchmarks/README.md): PlaceIndex beside an SQLite FTS5 + R*Tree peer and a
# Photon-style Tantivy peer, in one run.
#   make bench         every extract in $(SHARED)/data/osm; writes Benchmarks/results.md and .json
#   make bench-quick   a minute-long subset; writes build/bench/quick/results.md and .json
#   make bench-scale   growth with input size (a tiled extract, also as 5 and 20 shards);
#                      writes Benchmarks/scale.md, .json, .svg
# The harness is a package of its own (Benchmarks/Package.swift, depending on this one by path),
# built in Benchmarks/.build with the same flags as `make test` builds it; it runs placeidx from
# .build/release (--placeidx).
BENCH_BIN           := Benchmarks/.build/release/placeidx-bench
# SwiftPM plans a path dependency's files once: a file added to or removed from this package
# leaves the harness's plan stale ("cannot find 'PinyinTable' in scope" in a PlaceCore file), so
# the plan is dropped whenever a source folder changed after it was written.
BENCH_REPLAN        = d=Benchmarks/.build/release/description.json; \
  if [ -f $$d ] && [ -n "$$(find Sources -type d -newer $$d | head -n 1)" ]; then \
    echo "Sources changed since the harness was planned: planning it again"; \
    rm -f $$d Benchmarks/.build/release.yaml; fi
BENCH_PACKAGES      := libxml2-utils time gzip bzip2 wrk python3 python3-venv
# The Tantivy peer (Benchmarks/peers/tantivy_peer.py): Debian's Python with the tantivy package
# (Tantivy's official bindings, from PyPI) in a venv under build/, as Debian wants pip kept off
# the system Python.
BENCH_PYTHON        ?= /usr/bin/python3
BENCH_VENV          := build/bench/venv
BENCH_TANTIVY       := tantivy==0.27.0
BENCH_EXTRACTS      ?= $(SHARED)/data/osm
BENCH_SCALE_EXTRACT ?= $(SHARED)/data/osm/liechtenstein-autauga-2021.osm.gz
BENCH_SCALE_FACTORS ?= 1,10,50,200
# e.g. "--reuse" (keep the factors already in Benchmarks/scale.json), "--shards-up-to 50"
BENCH_SCALE_FLAGS   ?=

.PHONY: bench bench-quick bench-scale bench-deps bench-build

# deps, for what the benchmark needs (bench-scale adds gnuplot for its plot).
bench-deps:
	@$(MAKE) --no-print-directory deps PACKAGES="$(BENCH_PACKAGES) $(BENCH_EXTRA_PACKAGES)"
	@$(BENCH_VENV)/bin/python3 -c 'import tantivy' 2>/dev/null || { \
	  echo "installing $(BENCH_TANTIVY) into $(BENCH_VENV)"; rm -rf $(BENCH_VENV) && \
	  $(BENCH_PYTHON) -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q $(BENCH_TANTIVY); }

bench-build: deps bench-deps
	$(SWIFT) build $(RELEASE) --product placeidx
	@$(BENCH_REPLAN)
	$(SWIFT) build $(RELEASE) $(BENCH_PKG) --product placeidx-bench

bench: bench-build
	$(BENCH_BIN) run --placeidx $(BIN) --extracts $(BENCH_EXTRACTS)

bench-quick: bench-build
	$(BENCH_BIN) run --quick --placeidx $(BIN) --extracts $(BENCH_EXTRACTS) --out build/bench/quick

bench-scale: BENCH_EXTRA_PACKAGES := gnuplot-nox
bench-scale: bench-build
	$(BENCH_BIN) scale --placeidx $(BIN) --extract $(BENCH_SCALE_EXTRACT) --factors $(BENCH_SCALE_FACTORS) $(BENCH_SCALE_FLAGS)

# Reliability: the libFuzzer targets (Fuzz/, a separate package built with libFuzzer and
# AddressSanitizer, so that the main build is untouched) and the concurrency suite under the
# thread sanitizer (its own scratch path, so that it does not clobber the normal build).
#   make fuzz FUZZ_SECONDS=600   each target for FUZZ_SECONDS, in libFuzzer's fork mode so that a
#                                crash does not end the run; prints executions, executions per
#                                second, coverage and crashes per target, the crashes grouped by
#                                cause (Fuzz/crash-reason.sh replays each). Corpus growth goes to
#                                Fuzz/.build/corpus/TARGET, crashing inputs to Fuzz/.build/crashes
#                                (check the ones you fix into Fuzz/Corpus/regressions/<kind>/).
#                                FUZZ_FLAGS= (empty) stops each target at its first crash.
#   make tsan                    ConcurrencyTests (ReliabilityTests) with -sanitize=thread
FUZZ_SECONDS    ?= 60
FUZZ_TARGETS    ?= FuzzIndexReader FuzzOSMExtract FuzzRequest FuzzPBF
FUZZ_FLAGS      ?= -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
FUZZ_DIR        := Fuzz/.build
FUZZ_SWIFTFLAGS := -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
FUZZ_ENV        := SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
TSAN_SCRATCH    ?= .build/tsan

.PHONY: fuzz fuzz-build tsan

# lld links the fuzzers (gold fails on SwiftPM's `--defsym main=...` with libFuzzer).
fuzz-build:
	cd Fuzz && $(SWIFT) build -c release $(FUZZ_SWIFTFLAGS)

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/crashes $(FUZZ_DIR)/logs; status=0; summary=""; \
	for t in $(FUZZ_TARGETS); do \
	  case $$t in FuzzIndexReader) c=index;; FuzzOSMExtract) c=osm;; FuzzPBF) c=pbf;; *) c=request;; esac; \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t; \
	  $(FUZZ_DIR)/release/$$t --write-seeds $(FUZZ_DIR)/seeds/$$t || exit 1; \
	  log=$(FUZZ_DIR)/logs/$$t.log; marker=$(FUZZ_DIR)/logs/$$t.start; touch $$marker; \
	  echo "== $$t for $(FUZZ_SECONDS) s (log: $$log)"; \
	  $(FUZZ_ENV) $(FUZZ_DIR)/release/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -timeout=30 -rss_limit_mb=4096 -detect_leaks=0 -artifact_prefix=$(FUZZ_DIR)/crashes/$$t- \
	    -dict=Fuzz/Corpus/$$c.dict $(FUZZ_FLAGS) \
	    $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds/$$t Fuzz/Corpus/$$c >$$log 2>&1; \
	  rc=$$?; \
	  last=$$(grep -E '^#[0-9]+' $$log | tail -1); \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
	  [ -n "$$execs" ] || execs=$$(echo "$$last" | sed -n 's/^#\([0-9]*\).*/\1/p'); \
	  secs=$$(echo "$$last" | sed -n 's/.* time: \([0-9]*\)s.*/\1/p'); \
	  rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $$log); \
	  [ -n "$$rate" ] || rate=$$(( $${execs:-0} / ($${secs:-$(FUZZ_SECONDS)} + 1) )); \
	  cov=$$(echo "$$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+'); \
	  crashes=$$(find $(FUZZ_DIR)/crashes -name "$$t-*" -newer $$marker | wc -l); \
	  line=$$(printf '%-16s %9s execs %6s exec/s  %s  crashes: %s' $$t "$$execs" "$$rate" "$$cov" $$crashes); \
	  echo "$$line"; summary="$$summary$$line\n"; \
	  for f in $$(find $(FUZZ_DIR)/crashes -name "$$t-*" -newer $$marker); do \
	    echo "$$(sh Fuzz/crash-reason.sh $(FUZZ_DIR)/release/$$t $$f)	$$f"; \
	  done | sort >$(FUZZ_DIR)/logs/$$t.crashes; \
	  for k in $$(cut -f1 $(FUZZ_DIR)/logs/$$t.crashes | uniq | tr ' ' '~'); do \
	    n=$$(grep -c -F "$$(echo $$k | tr '~' ' ')" $(FUZZ_DIR)/logs/$$t.crashes); \
	    ex=$$(grep -m1 -F "$$(echo $$k | tr '~' ' ')" $(FUZZ_DIR)/logs/$$t.crashes | cut -f2); \
	    kind=$$(printf '   %s × %s\n      e.g. %s' $$n "$$(echo $$k | tr '~' ' ')" $$ex); \
	    echo "$$kind"; summary="$$summary$$kind\n"; \
	  done; \
	  if [ $$rc -ne 0 ] || [ $$crashes -ne 0 ]; then status=1; fi; \
	done; \
	echo "== fuzz summary ($(FUZZ_SECONDS) s per target)"; printf '%b' "$$summary"; exit $$status

tsan:
	$(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH) --filter ConcurrencyTests
