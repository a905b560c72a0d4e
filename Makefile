# Barkeep's build. `make run` and `make test` do all the set-up a fresh Debian machine with Swift 6 needs.
SHELL := /bin/bash
SWIFT ?= swift
# Where `make run` keeps the daemon's files (its embedded PostgreSQL among them).
DATA_DIR ?= ./.barkeep
# Extra arguments for barkeepd, e.g. `make run ARGS='--listen 127.0.0.1:7790 --log-level debug'`.
ARGS ?=
# Compiler warnings fail the build: the project keeps zero.
STRICT := -Xswiftc -warnings-as-errors

.PHONY: all deps build run test bench fuzz lint format docs clean

all: build

## deps: install missing system packages (PostgreSQL server, libpq and OpenSSL headers, openssl, pkg-config)
deps:
	@scripts/install-deps.sh

## build: compile barkeepd and barkeep (debug)
build: deps
	$(SWIFT) build $(STRICT)

## run: build, then run barkeepd in the foreground on its embedded PostgreSQL in $(DATA_DIR) (HTTP on 127.0.0.1:7781)
run: build
	exec $$($(SWIFT) build --show-bin-path)/barkeepd --data-dir $(DATA_DIR) $(ARGS)

## test: build and run every test, the PostgreSQL ones against a throwaway server the tests start (the export
## tests' Python packages go into .build/python-tools; on a failure the failing tests are repeated at the end)
test: deps
	@scripts/python-test-tools.sh >/dev/null
	$(SWIFT) build --build-tests $(STRICT)
	SWIFT=$(SWIFT) scripts/run-tests.sh

## bench: every benchmark, each against a baseline of the same run (see docs/performance.md); BENCH="web status"
##        runs only those parts (ping, sync, check, sync-cli, status, load, web, history, replica)
bench: deps
	scripts/bench.sh $(BENCH)

## fuzz: build the libFuzzer targets of Fuzz/ and run each FUZZ_SECONDS (60); FUZZ_TARGETS="duoscan sarif" picks some
fuzz:
	scripts/fuzz.sh

## docs: regenerate docs/openapi.json (the HTTP API's OpenAPI document) from the command spec; a test checks it
docs: deps
	@scripts/python-test-tools.sh >/dev/null
	$(SWIFT) build --build-tests $(STRICT)
	BARKEEP_UPDATE_DOCS=1 $(SWIFT) test --skip-build --filter OpenAPITests

## lint: check formatting and style (swift format, strict)
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Plugins Fuzz

## format: rewrite sources in the project's format
format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests Plugins Fuzz

clean:
	rm -rf .build
