# Backoff Playground. `make test` and `make run` do all set-up on a fresh
# machine; see README.md.

GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
BIN       := bin
# Pure packages: tested natively and as WebAssembly under Node.
CORE_PKGS := ./backoff/... ./sim/...
FUZZTIME  ?= 8s

.PHONY: all test bench build pgo run vet fmt-check test-native test-wasm fuzz FORCE \
        test-browser browser-deps node-check clean \
        wasm brotli-dep bench-wasm bench-browser bench-server bench-server-deps bench-lighthouse bench-start floor static

all: build

## test: vet, gofmt, native tests, the core under WebAssembly, fuzz seeds and
## short fuzz runs, and the real-browser tests.
test: vet fmt-check test-native test-wasm fuzz test-browser

# The benchmarks' and browser tests' files are vetted too: built only under
# their tags, they would otherwise rot unseen until someone runs make bench.
vet:
	$(GO) vet ./...
	$(GO) vet -tags browser ./...
	$(GO) vet -tags benchserver ./...

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
# Go 1.26's fuzz coordinator can end a time-bounded run with a bare "context
# deadline exceeded" on a loaded machine (a bug of Go 1.26's fuzzing, fixed in 1.27): a
# run fails here only when it wrote a failing input or failed otherwise.
FUZZ_TARGETS := $(shell grep -ho '^func Fuzz[A-Za-z0-9_]*' $$(find backoff sim cmd app -name '*_test.go' 2>/dev/null) 2>/dev/null | sed 's/func //')
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$$(grep -l "^func $$t(" $$(find backoff sim cmd app -name '*_test.go') | head -1 | xargs dirname); \
	  echo "fuzz $$t in ./$$pkg for $(FUZZTIME)"; \
	  log=$$(mktemp); \
	  if $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) ./$$pkg >$$log 2>&1; then tail -n 2 $$log; \
	  elif grep -q 'context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log && \
	       [ $$(grep -c -e '--- FAIL' $$log) -le 1 ]; then \
	    tail -n 4 $$log; echo "fuzz $$t: the run's own deadline ended it (Go 1.26's fuzzing bug), no failing input: not a failure"; \
	  else cat $$log; rm -f $$log; exit 1; fi; \
	  rm -f $$log; \
	done

## bench: Go benchmarks with allocations, the simulator as WebAssembly
## against native, the page in Chromium, the server against nginx and
## Lighthouse's figures of a first load.
bench: bench-wasm bench-browser bench-server bench-lighthouse bench-start
	$(GO) test -run='^$$' -bench=. -benchmem ./backoff/... ./sim/...

## bench-wasm: the simulator's largest runs natively and as WebAssembly,
## in Chromium (as the page runs them) and under Node, WASM_BENCH_ROUNDS
## rounds (default 5) of each engine in turn. Each process runs a benchmark
## three times: the first run pays for compiling and growing memory, as a
## page's first simulation does; the later two are a run after the engine
## has warmed up, as every drag of a slider after it. Printed: medians of
## each, and the ratios WebAssembly over native (goal: under 2).
WASM_BENCH        := MillionClients OpenMillion
WASM_BENCH_RE     := ^Benchmark($(subst $(eval) ,|,$(WASM_BENCH)))$$
WASM_BENCH_ROUNDS ?= 5
# NS_OP,ENGINE: a benchmark's lines as "ENGINE Benchmark ns/op".
NS_OP = sed -n 's/^\(Benchmark[A-Za-z]*\)[-0-9]*[[:space:]].*[[:space:]]\([0-9.]*\) ns\/op.*/$(1) \1 \2/p'
bench-wasm: node-check browser-deps
	@mkdir -p tmp
	GOOS=js GOARCH=wasm $(GO) test -c -pgo=$(PGO) -o tmp/sim-wasm.test ./sim
	$(GO) test -c -pgo=$(PGO) -o tmp/sim-native.test ./sim
	$(GO) test -c -tags benchserver -o tmp/bench-chromium.test ./cmd/playground
	@cd sim && for r in $$(seq $(WASM_BENCH_ROUNDS)); do for b in $(WASM_BENCH); do \
	  args="-test.run ^$$ -test.bench ^Benchmark$$b$$ -test.benchtime 1x -test.count 3"; \
	  ../tmp/sim-native.test $$args | $(call NS_OP,native); \
	  $(WASM_EXEC) ../tmp/sim-wasm.test $$args | $(call NS_OP,node); \
	  SIM_WASM_TEST=$(abspath tmp/sim-wasm.test) WASM_EXEC_JS=$(GOROOT)/lib/wasm/wasm_exec.js SIM_WASM_ARGS="$$args" CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	    ../tmp/bench-chromium.test -test.run '^$$' -test.bench '^BenchmarkSimWasmChromium$$' -test.benchtime 1x \
	    | sed -n 's/^chromium: //p' | $(call NS_OP,chromium); \
	done; done | awk '{ n[$$1 " " $$2]++; print $$1, $$2, (n[$$1 " " $$2] % 3 == 1 ? "first" : "later"), $$3; fflush() }' \
	  | tee /dev/stderr | awk '{ v[$$2 " " $$3 " " $$1] = v[$$2 " " $$3 " " $$1] " " $$4; names[$$2] = 1 } \
	  function median(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t } \
	    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 } \
	  function row(b, when, e,   n, w) { n = median(v[b " " when " native"]); w = median(v[b " " when " " e]); \
	    printf "  %-24s %-6s %-9s native %7.1f ms  wasm %7.1f ms  %.2fx %s\n", b, when, e, n / 1e6, w / 1e6, w / n, (w / n < 2 ? "met" : "MISSED") } \
	  END { print "\nWebAssembly over native, medians of $(WASM_BENCH_ROUNDS) rounds (goal: under 2x); first: a process'"'"'s first run, later: its next two;"; \
	    print "chromium: " chromium ", node: Node " node; \
	    for (b in names) { row(b, "first", "chromium"); row(b, "later", "chromium"); row(b, "first", "node"); row(b, "later", "node") } }' \
	  node="$$(node --version)" chromium="$$($${CHROME_PATH:-/usr/bin/chromium} --version 2>/dev/null)"

## pgo: remake the profile the builds are optimised by (profile-guided
## optimisation): a CPU profile of the runs bench-wasm times. Go inlines
## the simulator's hot calls by it, which WebAssembly gains most from (a
## call there saves and restores the caller's state through memory).
## go build reads it by itself for cmd/playground (the page and the
## server); the CLI and bench-wasm name it. Commit the new file.
PGO := cmd/playground/default.pgo
pgo:
	@mkdir -p tmp
	$(GO) test -count=1 -run '^$$' -bench '$(WASM_BENCH_RE)' -benchtime 10x -pgo=off -o tmp/pgo-sim.test -cpuprofile $(abspath $(PGO)) ./sim

build: $(BIN)/backoff

$(BIN)/backoff: $(shell find backoff sim cmd/backoff app/chart app/export app/i18n -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod $(PGO)
	@mkdir -p $(BIN)
	$(GO) build -trimpath -pgo=$(PGO) -o $@ ./cmd/backoff

## run: build the WebAssembly app (cached), compress it, build the server
## with everything embedded, start it and print the URL. RUN_ARGS passes
## flags, e.g. make run RUN_ARGS='--addr 127.0.0.1:9000 --base-path /pg'.
run: $(BIN)/playground
	$(BIN)/playground $(RUN_ARGS)

# The WebAssembly app, from the wasm-tagged main (no server code inside).
# Its inputs are the files its build compiles, as go list names them for
# GOOS=js GOARCH=wasm (the UI, the core and main_wasm.go, not the server's
# files, whose change would rebuild and recompress the same app.wasm: 29 s),
# listed only when make looks at app.wasm. A build takes about 40 s
# on 2 cores. A build whose bytes equal app.wasm's keeps the old file and
# its time, and a stamp records the build: the .br and .gz (26 s of
# brotli) are remade only for a new app.wasm. Outputs go to web/, which the
# server embeds; temporary names start with a dot so a broken build is never
# embedded, and carry the shell's PID so two makes in one tree do not
# collide.
WASM       := web/app.wasm
WASM_STAMP := tmp/app.wasm.stamp
WASM_LIST  := {{if and .Module .Module.Main}}{{range .GoFiles}}{{$$.Dir}}/{{.}} {{end}}{{range .EmbedFiles}}{{$$.Dir}}/{{.}} {{end}}{{end}}
WASM_SRCS   = $(or $(shell GOOS=js GOARCH=wasm $(GO) list -e -deps -f '$(WASM_LIST)' ./cmd/playground 2>/dev/null), \
                   $(shell find app backoff sim cmd/playground -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*' 2>/dev/null)) go.mod go.sum $(PGO)
SERVE_SRCS := $(shell find app backoff sim cmd/playground static web -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*' 2>/dev/null) \
              $(shell find static -type f -not -name '*.go' -not -name README.md 2>/dev/null) go.mod go.sum $(PGO)

# go-app and the UI (app and its packages: chart, i18n) compile without
# inlining: about 20 KB less over the wire (brotli), room in app.wasm's
# 1.75 MB budget, while the core (backoff, sim), whose hot loops need
# inlining, keeps it. So do the standard packages the page calls a few
# times a render or less (JSON for the Export panel, fmt for an SVG's
# header and error texts, regexp, net/url, text): 36 KB less. So do
# strconv, strings, slices and time, which no hot loop of the simulator
# calls (its events touch none of them): 22 KB less, measured 2026-12-05.
WASM_GCFLAGS := -gcflags='github.com/maxence-charriere/go-app/v10/...=-l' \
                -gcflags='github.com/backoff-playground/playground/app/...=-l' \
                -gcflags='encoding/...=-l' -gcflags='fmt=-l' -gcflags='regexp/...=-l' \
                -gcflags='net/url=-l' -gcflags='text/...=-l' \
                -gcflags='strconv=-l' -gcflags='strings=-l' -gcflags='slices=-l' -gcflags='time=-l'

# go-app's pkg/app imports net/http for its server (http.go, static.go and
# LocalDir in resource.go), and net/http's crypto/tls brings ECDSA, RSA,
# ML-KEM and math/big along: 340 KB of app.wasm over the wire. The wasm
# build uses a copy of go-app's packages without those server files
# (resource.go and wasm.go replaced by cmd/playground/_wasm/'s, made from
# v10.1.11; a test fails when go.mod moves to another version), and with
# a router (route.go) that matches the page's one ^PREFIX route without
# package regexp (83 KB less over the wire), no encryption (crypto.go: the
# page never encrypts) and a uuid package of go-app's one call, NewString,
# on the runtime's random source (_wasm/uuid): no crypto at all, 58 KB
# less, through a
# go.mod of its own (-modfile) that replaces go-app with the copy. The
# server build and the tests use go-app as it is.
GOAPP_MOD := github.com/maxence-charriere/go-app/v10
OVERLAY   := cmd/playground/_wasm
WASM_MOD  := tmp/wasm-mod/go.mod

$(WASM_MOD): go.mod go.sum $(OVERLAY)/resource.go $(OVERLAY)/wasm.go $(OVERLAY)/route.go $(OVERLAY)/crypto.go \
              $(OVERLAY)/uuid/go.mod $(OVERLAY)/uuid/uuid.go
	@d=$$($(GO) mod download -json $(GOAPP_MOD) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	if [ -z "$$d" ] || [ ! -f "$$d/pkg/app/http.go" ]; then echo "go-app's module directory not found (go mod download $(GOAPP_MOD))"; exit 1; fi; \
	rm -rf tmp/wasm-mod && mkdir -p tmp/wasm-mod/go-app && cp -R "$$d/go.mod" "$$d/pkg" tmp/wasm-mod/go-app/ && \
	if [ -f "$$d/go.sum" ]; then cp "$$d/go.sum" tmp/wasm-mod/go-app/; fi && chmod -R u+w tmp/wasm-mod && \
	rm tmp/wasm-mod/go-app/pkg/app/http.go tmp/wasm-mod/go-app/pkg/app/static.go && \
	cp $(OVERLAY)/resource.go $(OVERLAY)/wasm.go $(OVERLAY)/route.go $(OVERLAY)/crypto.go tmp/wasm-mod/go-app/pkg/app/ && \
	cp go.sum tmp/wasm-mod/go.sum && cp go.mod $@.tmp && \
	printf '\nreplace $(GOAPP_MOD) => %s\n' "$(CURDIR)/tmp/wasm-mod/go-app" >> $@.tmp && \
	printf 'replace github.com/google/uuid => %s\n' "$(CURDIR)/$(OVERLAY)/uuid" >> $@.tmp && mv $@.tmp $@

IMPORT_WASM    := web/import.wasm
IMPORT_STAMP   := tmp/import.wasm.stamp
IMPORT_PKG     := ./cmd/playground/importer
IMPORT_SRCS     = $(or $(shell GOOS=js GOARCH=wasm $(GO) list -e -deps -f '$(WASM_LIST)' $(IMPORT_PKG) 2>/dev/null), \
                       $(shell find backoff cmd/playground/importer -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*' 2>/dev/null)) go.mod go.sum
IMPORT_GCFLAGS := -gcflags='github.com/backoff-playground/playground/backoff/...=-l' -gcflags='go.yaml.in/yaml/v3=-l' \
                  -gcflags='encoding/...=-l' -gcflags='fmt=-l' -gcflags='regexp/...=-l' -gcflags='net/url=-l' -gcflags='text/...=-l'

wasm: $(WASM) $(WASM).br $(WASM).gz $(IMPORT_WASM) $(IMPORT_WASM).br $(IMPORT_WASM).gz

# Each program of web/ (and the slim floor) has its data segments merged
# (cmd/playground/internal/wasmdata): Go's linker splits a program's data
# at every run of zeros, up to 100,000 segments whose headers brotli
# cannot compress; merged, app.wasm is 123 KB less over the wire (1.74 MB
# to 1.61 MB), its memory the same after instantiation.
WASMDATA := tmp/wasmdata
$(WASMDATA): cmd/playground/internal/wasmdata/main.go
	@mkdir -p $(@D)
	$(GO) build -o $@ ./cmd/playground/internal/wasmdata

# The stamp is remade when an input changed or app.wasm is missing.
.SECONDEXPANSION:
$(WASM_STAMP): $$(WASM_SRCS) $(WASM_MOD) $(WASMDATA) $$(if $$(wildcard $(WASM)),,FORCE)
	@mkdir -p $(@D)
	t=web/.tmp.$$$$.app.wasm; GOOS=js GOARCH=wasm $(GO) build -modfile=$(WASM_MOD) -trimpath -ldflags='-s -w' $(WASM_GCFLAGS) -o $$t ./cmd/playground && \
	$(WASMDATA) $$t && \
	if cmp -s $$t $(WASM); then rm $$t; echo "$(WASM): the same bytes, kept"; else mv $$t $(WASM); fi && touch $@

$(WASM): $(WASM_STAMP) ;

FORCE:

# brotli gives its output the input's modification time cut to whole
# seconds, older than app.wasm's: make would see the .br as stale and spend
# 13-26 s compressing it again on every make run, so touch dates it.
# The same for each program of web/ (app.wasm, import.wasm).
web/%.wasm.br: web/%.wasm | brotli-dep
	t=web/.tmp.$$$$.$*.wasm.br; brotli -q 11 --lgwin=22 -f -o $$t $< && touch $$t && mv $$t $@

web/%.wasm.gz: web/%.wasm
	t=web/.tmp.$$$$.$*.wasm.gz; gzip -9 -n -c $< > $$t && mv $$t $@

# The page's config reader, a program of its own that the page loads when
# its Import panel is first used (cmd/playground/importer): the readers and
# their YAML parser stay out of app.wasm. Built and kept as app.wasm is.
$(IMPORT_STAMP): $$(IMPORT_SRCS) $(WASMDATA) $$(if $$(wildcard $(IMPORT_WASM)),,FORCE)
	@mkdir -p $(@D)
	t=web/.tmp.$$$$.import.wasm; GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' $(IMPORT_GCFLAGS) -o $$t $(IMPORT_PKG) && \
	$(WASMDATA) $$t && \
	if cmp -s $$t $(IMPORT_WASM); then rm $$t; echo "$(IMPORT_WASM): the same bytes, kept"; else mv $$t $(IMPORT_WASM); fi && touch $@

$(IMPORT_WASM): $(IMPORT_STAMP) ;

$(BIN)/playground: $(WASM) $(WASM).br $(WASM).gz $(IMPORT_WASM) $(IMPORT_WASM).br $(IMPORT_WASM).gz $(SERVE_SRCS)
	@mkdir -p $(BIN)
	$(GO) build -trimpath -o $@ ./cmd/playground

# Debian packages, installed with apt-get only when missing.
APT_INSTALL = { command -v apt-get >/dev/null || { echo "$(1) is missing and apt-get is not available: install $(2)"; exit 1; }; \
	SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $(2); }

brotli-dep:
	@command -v brotli >/dev/null || $(call APT_INSTALL,brotli,brotli)

## browser-deps: Debian's Chromium (and brotli) for the browser tests,
## installed when missing.
browser-deps: brotli-dep
	@command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || $(call APT_INSTALL,chromium,chromium)

# axe-core, pinned, for the browser tests' accessibility checks (npm).
AXE_VERSION := 4.14.1
AXE         := tmp/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null || $(call APT_INSTALL,npm,npm)
	npm install --prefix tmp --no-save --no-audit --no-fund axe-core@$(AXE_VERSION)
	@grep -q "axe v$(AXE_VERSION)" $@ || { echo "$@ is not axe-core $(AXE_VERSION)"; exit 1; }

## test-browser: real-browser end-to-end tests (chromedp + Debian's Chromium)
## against the real server and the built wasm, with axe-core's accessibility
## checks. Screenshots go to tmp/screenshots/. The timeout only catches a
## hang: the suite takes about 14 min alone on two cores, 25 min beside a
## CPU-bound job, and ran past 30 min on a machine loaded three times over.
test-browser: wasm browser-deps $(AXE)
	$(GO) test -count=1 -tags browser -run '^TestBrowser' -timeout 50m ./cmd/playground

## bench-browser: app.wasm sizes, time to interactive and slider-to-repaint
## latency in Chromium (printed as benchmark metrics).
bench-browser: wasm browser-deps
	$(GO) test -count=1 -tags browser -run '^$$' -bench '^BenchmarkBrowser' -benchtime 1x -timeout 20m ./cmd/playground

## bench-server: the server against nginx on loopback (wrk, 50 connections,
## / and /web/app.wasm; both send the same gzip files, as nginx-light has no
## brotli_static), and the server's peak RSS and CPU under 200 concurrent
## hostile links. Installs Debian's nginx-light and wrk when missing; where
## systemd runs, Debian also starts nginx's own service on port 80
## (`systemctl disable --now nginx`): the benchmark runs its own, on a free
## loopback port, and stops it.
bench-server: $(BIN)/playground bench-server-deps
	PLAYGROUND_BIN=$(abspath $(BIN)/playground) $(GO) test -count=1 -tags benchserver -run '^$$' -bench '^BenchmarkServer' -benchtime 1x -timeout 10m ./cmd/playground

bench-server-deps:
	@command -v wrk >/dev/null || $(call APT_INSTALL,wrk,wrk)
	@command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || $(call APT_INSTALL,nginx,nginx-light)

## static: the site for a static host or CDN, the very files the server
## sends (each with .br and .gz beside it), in STATIC_DIR for the URL prefix
## STATIC_BASE: make static STATIC_BASE=/repo for a project's pages site.
## STATIC_DIR is emptied first only when it holds an earlier static site; any
## other non-empty folder is refused. (A phony target: static/ is the assets'
## folder.)
STATIC_DIR  ?= dist
STATIC_BASE ?= /
static: $(BIN)/playground
	$(BIN)/playground --write-static '$(STATIC_DIR)' --base-path '$(STATIC_BASE)'

# Lighthouse, pinned (12.x runs on Node 20; 13 needs Node 22), in a folder
# of its own: an npm install without a package.json removes what the same
# folder holds besides (axe-core).
LIGHTHOUSE_VERSION := 12.2.3
LIGHTHOUSE         := tmp/lighthouse/node_modules/lighthouse/cli/index.js
$(LIGHTHOUSE):
	@command -v node >/dev/null || { echo "node is missing: install Node.js 20 (apt-get install nodejs npm) to run Lighthouse"; exit 1; }
	@command -v npm >/dev/null || $(call APT_INSTALL,npm,npm)
	@mkdir -p tmp/lighthouse
	npm install --prefix tmp/lighthouse --no-save --no-audit --no-fund lighthouse@$(LIGHTHOUSE_VERSION) || \
	  { echo "could not install lighthouse@$(LIGHTHOUSE_VERSION) from npm (network? Node 20 or later?)"; exit 1; }
	@grep -q '"version": "$(LIGHTHOUSE_VERSION)"' tmp/lighthouse/node_modules/lighthouse/package.json || \
	  { echo "tmp/lighthouse holds a Lighthouse other than $(LIGHTHOUSE_VERSION): rm -rf tmp/lighthouse"; exit 1; }

# go-app's smallest program (cmd/playground/testdata/minimal), the floor
# bench-lighthouse measures the pages against, built twice: plainly, as
# go-app's docs build it (one main for the browser and the server, no
# flags; go-app's Handler serves ./web/app.wasm from the working
# directory), and the playground's way (the browser main alone, with the
# go-app copy and the flags of app.wasm, compressed as app.wasm is; the
# benchmark serves it with the server's own code). Not shipped.
FLOOR      := tmp/floor
FLOOR_PKG  := ./cmd/playground/testdata/minimal
FLOOR_SRCS := $(shell find cmd/playground/testdata/minimal -name '*.go' 2>/dev/null) go.mod go.sum

$(FLOOR)/plain/web/app.wasm: $(FLOOR_SRCS)
	@mkdir -p $(@D)
	GOOS=js GOARCH=wasm $(GO) build -o $@ $(FLOOR_PKG)

$(FLOOR)/plain/minimal: $(FLOOR_SRCS)
	@mkdir -p $(@D)
	$(GO) build -o $@ $(FLOOR_PKG)

$(FLOOR)/slim/app.wasm: $(FLOOR_SRCS) $(WASM_MOD) $(WASMDATA)
	@mkdir -p $(@D)
	GOOS=js GOARCH=wasm $(GO) build -modfile=$(WASM_MOD) -trimpath -ldflags='-s -w' $(WASM_GCFLAGS) -o $@ $(FLOOR_PKG)/slim
	$(WASMDATA) $@

$(FLOOR)/slim/app.wasm.br: $(FLOOR)/slim/app.wasm | brotli-dep
	brotli -q 11 --lgwin=22 -f -o $@ $< && touch $@

$(FLOOR)/slim/app.wasm.gz: $(FLOOR)/slim/app.wasm
	gzip -9 -n -c $< > $@

floor: $(FLOOR)/plain/web/app.wasm $(FLOOR)/plain/minimal $(FLOOR)/slim/app.wasm $(FLOOR)/slim/app.wasm.br $(FLOOR)/slim/app.wasm.gz

## bench-lighthouse: Lighthouse's performance figures of a first load (score,
## total blocking time, largest paint, layout shift, longest task) for /,
## /?lesson=1 and /?view=herd, and for go-app's smallest program built
## plainly and the playground's way (the floors), interleaved, with its
## desktop preset and its default mobile settings, against the server and
## Debian's Chromium; LH_RUNS loads each (default 3), medians printed beside
## the goals, each page's against the floors'.
## LH_BASE=rev also loads the pages of the server built at git revision
## rev, in the same rounds, and prints each page against its old copy.
LH_BASE ?=
LH_BASE_BIN := $(if $(LH_BASE),tmp/base/$(shell git rev-parse --short $(LH_BASE) 2>/dev/null || echo unknown)/$(BIN)/playground)
bench-lighthouse: $(BIN)/playground floor browser-deps $(LIGHTHOUSE) $(LH_BASE_BIN)
	PLAYGROUND_BIN=$(abspath $(BIN)/playground) FLOOR_DIR=$(abspath $(FLOOR)) LIGHTHOUSE=$(abspath $(LIGHTHOUSE)) CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	  $(if $(LH_BASE),PLAYGROUND_BASE_BIN=$(abspath $(LH_BASE_BIN)) LH_BASE=$(LH_BASE)) \
	  $(GO) test -count=1 -tags benchserver -run '^$$' -bench '^BenchmarkLighthouse' -benchtime 1x -timeout 60m ./cmd/playground

## bench-start: the start's main-thread work in CPU time (Chromium's trace)
## for /, /?lesson=1 and /?view=herd against go-app's smallest program
## built the playground's way (the slim floor), interleaved, on a laptop's
## and a phone's screen: blocking time and the longest task, medians of
## START_RUNS cold loads (default 5), and what each page's longest task is
## made of. CPU time holds on a shared machine where Lighthouse's wall
## times move with the neighbours. LH_BASE=rev loads the server built at
## rev in the same rounds.
bench-start: $(BIN)/playground floor browser-deps $(LH_BASE_BIN)
	PLAYGROUND_BIN=$(abspath $(BIN)/playground) FLOOR_DIR=$(abspath $(FLOOR)) CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} \
	  $(if $(LH_BASE),PLAYGROUND_BASE_BIN=$(abspath $(LH_BASE_BIN)) LH_BASE=$(LH_BASE)) \
	  $(GO) test -count=1 -tags benchserver -run '^$$' -bench '^BenchmarkStartCPU$$' -benchtime 1x -timeout 30m ./cmd/playground

# The older server is built in a worktree of its own, by its own Makefile.
tmp/base/%/$(BIN)/playground:
	rm -rf tmp/base/$*
	git worktree prune
	git worktree add --detach tmp/base/$* $*
	$(MAKE) -C tmp/base/$* $(BIN)/playground

clean:
	rm -rf $(BIN) tmp/wasm-mod
