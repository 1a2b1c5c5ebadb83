//go:build !wasm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeGo stands in for the go command in a copy of the Makefile: go list
// names the wasm build's one input (app/ui.go), go build writes
// $FAKE_WASM's bytes to its -o file and logs "build" to $FAKE_LOG.
const fakeGo = `#!/bin/sh
case "$1" in
env) echo /nonexistent-goroot ;;
list) echo "$(pwd)/app/ui.go" ;;
build)
  while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
  cat "$FAKE_WASM" > "$out" && echo build >> "$FAKE_LOG" ;;
*) echo "fake go: $*" >&2; exit 1 ;;
esac
`

// TestMakeWasm: make rebuilds app.wasm only for a change to what its build
// compiles, and compresses it only when its bytes changed. Touching a
// server-only file rebuilt the same app.wasm and recompressed it (29 s);
// a rebuild that changes nothing recompressed it too (26 s of brotli);
// and brotli dates its output with the input's time cut to whole seconds,
// older than app.wasm's, so make compressed it again on every run.
func TestMakeWasm(t *testing.T) {
	for _, tool := range []string{"make", "brotli", "gzip", "cmp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string, mode os.FileMode) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goCmd := write("fake-go", fakeGo, 0o755)
	// The data segments' merge (WASMDATA) leaves the fake module as it is.
	mergeCmd := write("fake-wasmdata", "#!/bin/sh\n", 0o755)
	wasm := write("fake.wasm", strings.Repeat("\x00asm wasm bytes ", 1024), 0o644)
	buildLog := filepath.Join(dir, "builds.log")
	// The inputs, an hour old; the wasm module file newer than its own.
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"Makefile", "go.mod", "go.sum", "app/ui.go", "cmd/playground/server.go",
		"cmd/playground/_wasm/resource.go", "cmd/playground/_wasm/wasm.go", "cmd/playground/_wasm/route.go",
		"cmd/playground/_wasm/crypto.go", "cmd/playground/_wasm/uuid/go.mod", "cmd/playground/internal/wasmdata/main.go", "cmd/playground/_wasm/uuid/uuid.go", "cmd/playground/default.pgo",
		"tmp/wasm-mod/go.mod", "web/web.go"} {
		body := "package x\n"
		if f == "Makefile" {
			body = string(mk)
		}
		p := write(f, body, 0o644)
		mod := old
		if f == "tmp/wasm-mod/go.mod" {
			mod = old.Add(time.Second)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	touch := func(name string) {
		t.Helper()
		now := time.Now()
		if err := os.Chtimes(filepath.Join(dir, name), now, now); err != nil {
			t.Fatal(err)
		}
	}
	builds := func() int {
		b, _ := os.ReadFile(buildLog)
		return strings.Count(string(b), "build\n")
	}
	modTime := func(name string) time.Time {
		t.Helper()
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return st.ModTime()
	}
	// make makes app.wasm's copies and says whether it built app.wasm
	// and compressed it.
	make := func() (built, compressed bool, out string) {
		t.Helper()
		before := builds()
		cmd := exec.Command("make", "-C", dir, "GO="+goCmd, "WASMDATA="+mergeCmd, "web/app.wasm.br", "web/app.wasm.gz")
		cmd.Env = append(os.Environ(), "FAKE_WASM="+wasm, "FAKE_LOG="+buildLog)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make: %v\n%s", err, b)
		}
		out = string(b)
		return builds() > before, strings.Contains(out, "brotli -q") || strings.Contains(out, "gzip -9"), out
	}

	if built, compressed, out := make(); !built || !compressed {
		t.Fatalf("the first make built %v and compressed %v:\n%s", built, compressed, out)
	}
	if built, compressed, out := make(); built || compressed {
		t.Errorf("a second make with nothing changed built %v and compressed %v:\n%s", built, compressed, out)
	}

	touch("cmd/playground/server.go")
	if built, compressed, out := make(); built || compressed {
		t.Errorf("after a server-only file changed, make built %v and compressed %v:\n%s", built, compressed, out)
	}

	// A new profile (make pgo) changes how the code is compiled.
	touch("cmd/playground/default.pgo")
	if built, _, out := make(); !built {
		t.Errorf("after the profile changed, make did not build app.wasm:\n%s", out)
	}

	wasmTime := modTime("web/app.wasm")
	touch("app/ui.go")
	if built, compressed, out := make(); !built || compressed {
		t.Errorf("after an input changed but not app.wasm's bytes, make built %v (want true) and compressed %v (want false):\n%s", built, compressed, out)
	}
	if got := modTime("web/app.wasm"); !got.Equal(wasmTime) {
		t.Errorf("a build of the same bytes dated app.wasm %s, was %s", got, wasmTime)
	}
	if built, compressed, out := make(); built || compressed {
		t.Errorf("a make after that built %v and compressed %v:\n%s", built, compressed, out)
	}

	write("fake.wasm", strings.Repeat("\x00asm new wasm bytes ", 1024), 0o644)
	touch("app/ui.go")
	if built, compressed, out := make(); !built || !compressed {
		t.Errorf("after app.wasm's bytes changed, make built %v and compressed %v:\n%s", built, compressed, out)
	}

	if err := os.Remove(filepath.Join(dir, "web/app.wasm")); err != nil {
		t.Fatal(err)
	}
	if built, _, out := make(); !built {
		t.Errorf("with app.wasm gone, make did not build it:\n%s", out)
	}
}

// TestMakeWasmInputs: the Makefile's inputs of app.wasm are the files the
// wasm build compiles, and the profile it is optimised by: the wasm main
// but not the server's files.
func TestMakeWasmInputs(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command("make", "-s", "--no-print-directory", "-C", "../..",
		"--eval", "wasm-srcs: ; @echo $(WASM_SRCS)", "wasm-srcs").CombinedOutput()
	if err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, f := range strings.Fields(string(out)) {
		if rel, err := filepath.Rel(root, f); err == nil && filepath.IsAbs(f) {
			f = filepath.ToSlash(rel)
		}
		srcs = append(srcs, f)
	}
	var own []string
	for _, f := range srcs {
		// The start's helper packages under internal/ are the page's too.
		if strings.HasPrefix(f, "cmd/playground/") && !strings.HasPrefix(f, "cmd/playground/internal/") {
			own = append(own, f)
		}
	}
	if !slices.Equal(own, []string{"cmd/playground/main_wasm.go", "cmd/playground/default.pgo"}) {
		t.Errorf("app.wasm's inputs in cmd/playground are %q, want only main_wasm.go and default.pgo", own)
	}
	for _, want := range []string{"app/playground.go", "app/i18n/catalog.go", "sim/sim.go", "backoff/policy.go", "go.mod", "go.sum"} {
		if !slices.Contains(srcs, want) {
			t.Errorf("app.wasm's inputs lack %s: %q", want, srcs)
		}
	}
	if slices.Contains(srcs, "app/handler.go") {
		t.Error("app.wasm's inputs hold app/handler.go, a server-only file")
	}
}
