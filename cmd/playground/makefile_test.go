//go:build !wasm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMakeBrotliOnce: after make compressed app.wasm, a second make with
// nothing changed compresses nothing. brotli dates its output with the
// input's time cut to whole seconds, older than app.wasm's own time, and make
// then compressed it again (13-26 s) on every make run and make static.
func TestMakeBrotliOnce(t *testing.T) {
	for _, tool := range []string{"make", "brotli"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The prerequisites of web/app.wasm, older than it, and app.wasm with
	// a time that is not a whole second, as a build leaves it.
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	files := []struct {
		name string
		age  time.Duration
	}{
		{"Makefile", 0},
		{"go.mod", 0},
		{"go.sum", 0},
		{"cmd/playground/_wasm/resource.go", 0},
		{"cmd/playground/_wasm/wasm.go", 0},
		{"tmp/wasm-mod/go.mod", time.Second},
		{"web/app.wasm", 2*time.Second + 437*time.Millisecond},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := []byte("package x\n")
		switch f.name {
		case "Makefile":
			body = mk
		case "web/app.wasm":
			body = []byte(strings.Repeat("\x00asm wasm bytes ", 4096))
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, base.Add(f.age), base.Add(f.age)); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("make", append([]string{"-C", dir}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run("web/app.wasm.br"); !strings.Contains(out, "brotli -q") {
		t.Fatalf("the first make did not compress app.wasm:\n%s", out)
	}
	if out := run("-n", "web/app.wasm.br"); strings.Contains(out, "brotli -q") {
		t.Errorf("a second make with nothing changed compresses app.wasm again:\n%s", out)
	}
}
