# PlaceIndex: offline place autocomplete.
#   make                  check system packages, build, compile the default pipeline, run a sample query
#   make test             build and run the whole test suite (release mode: the real-data tests are heavy)
#   make index PIPELINE=x build build/indexes/x.placeidx from Pipelines/x.pipeline
#   make indexes          every pipeline whose extract is present
#   make format           format the sources with swift format

SWIFT     ?= swift
PIPELINE  ?= sample
BIN       := .build/release/placeidx
PACKAGES  := pkg-config libxml2-dev zlib1g-dev libbz2-dev libxml2-utils
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

indexes: $(BIN)
	@for p in Pipelines/*.pipeline; do \
	  n=$$(basename $$p .pipeline); x=$$(sed -n 's/^extract *= *//p' $$p); \
	  if [ -f "$$x" ]; then $(MAKE) --no-print-directory index PIPELINE=$$n; else echo "skipping $$n: $$x not found"; fi; \
	done

sample-query: index
	$(BIN) query --index build/indexes/$(PIPELINE).placeidx "apotheke"
	$(BIN) query --index build/indexes/$(PIPELINE).placeidx "hauptstr 1"

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
