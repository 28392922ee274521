# PlaceIndex: offline place autocomplete.
#   make                  check system packages, build, compile the default pipeline, run a sample query
#   make test             build and run the whole test suite (release mode: the real-data tests are heavy)
#   make index PIPELINE=x build build/indexes/x.placeidx from Pipelines/x.pipeline
#   make indexes          every pipeline whose extract is present
#   make dist PIPELINE=x  pack x's index, manifest and attribution into build/dist/x-f….placeidx.tar
#   make format           format the sources with swift format

SWIFT     ?= swift
PIPELINE  ?= sample
BIN       := .build/release/placeidx
PACKAGES  := pkg-config libxml2-dev zlib1g-dev libbz2-dev libxml2-utils libsqlite3-dev
TABLES    := $(wildcard Data/*.tsv)
SOURCES   := $(shell find Sources -name '*.swift' -o -name '*.h' -o -name '*.modulemap') Package.swift
SHARED    ?= ../shared

.PHONY: all deps build index indexes sample-query test format lint clean
.SECONDEXPANSION:

all: deps build index sample-query

# Installs missing Debian packages when run as root; otherwise prints the one command to run.
deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing; \
	  else \
	    echo "missing system packages; run:  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: $(BIN)

$(BIN): $(SOURCES)
	$(SWIFT) build -c release --product placeidx
	@touch $@

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

test: deps
	@if [ -d "$(SHARED)/data" ]; then echo "real-data tests use $(SHARED)/data"; \
	 else echo "NOTE: $(SHARED)/data not found: the tests that read real extracts and the plus-code reference data are skipped (listed as skipped below)"; fi
	$(SWIFT) build -c release --product placeidx
	$(SWIFT) test -c release

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests Package.swift

clean:
	rm -rf .build build

# Benchmarks (Benchmarks/README.md): PlaceIndex beside an SQLite FTS5 + R*Tree peer, in one run.
#   make bench         every extract in $(SHARED)/data/osm; writes Benchmarks/results.md and .json
#   make bench-quick   a minute-long subset; writes build/bench/quick/results.md and .json
#   make bench-scale   growth with input size (a tiled extract); writes Benchmarks/scale.md, .svg
BENCH_BIN           := .build/release/placeidx-bench
BENCH_PACKAGES      := libsqlite3-dev libxml2-utils time gzip bzip2
BENCH_EXTRACTS      ?= $(SHARED)/data/osm
BENCH_SCALE_EXTRACT ?= $(SHARED)/data/osm/liechtenstein-autauga-2021.osm.gz
BENCH_SCALE_FACTORS ?= 1,10,50,200

.PHONY: bench bench-quick bench-scale bench-deps bench-build

# deps, for what the benchmark needs (bench-scale adds gnuplot for its plot).
bench-deps:
	@$(MAKE) --no-print-directory deps PACKAGES="$(BENCH_PACKAGES) $(BENCH_EXTRA_PACKAGES)"

bench-build: deps bench-deps
	$(SWIFT) build -c release --product placeidx
	$(SWIFT) build -c release --product placeidx-bench

bench: bench-build
	$(BENCH_BIN) run --placeidx $(BIN) --extracts $(BENCH_EXTRACTS)

bench-quick: bench-build
	$(BENCH_BIN) run --quick --placeidx $(BIN) --extracts $(BENCH_EXTRACTS) --out build/bench/quick

bench-scale: BENCH_EXTRA_PACKAGES := gnuplot-nox
bench-scale: bench-build
	$(BENCH_BIN) scale --placeidx $(BIN) --extract $(BENCH_SCALE_EXTRACT) --factors $(BENCH_SCALE_FACTORS)

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
FUZZ_TARGETS    ?= FuzzIndexReader FuzzOSMExtract FuzzRequest
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
	  case $$t in FuzzIndexReader) c=index;; FuzzOSMExtract) c=osm;; *) c=request;; esac; \
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
