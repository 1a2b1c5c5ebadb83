//go:build !wasm

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goAppVersion is the go-app release that _wasm/'s files were made from.
const goAppVersion = "v10.1.11"

// TestWasmGoAppCopy guards the WebAssembly build's copy of go-app (the
// Makefile's $(WASM_MOD)): it is go-app as go.mod requires it, less its
// server files, so the files in _wasm/ must be that release's, line for
// line, and go.mod must still require that release.
func TestWasmGoAppCopy(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "github.com/maxence-charriere/go-app/v10 "+goAppVersion+"\n") {
		t.Fatalf("go.mod no longer requires go-app %s: remake cmd/playground/_wasm/ from the new release's pkg/app "+
			"(resource.go without LocalDir and the other server resolvers, wasm.go without GenerateStaticWebsite) "+
			"and check that app.wasm links no net/http", goAppVersion)
	}
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/maxence-charriere/go-app/v10").Output()
	if err != nil {
		t.Fatalf("go mod download: %v (the module cache holds the release to compare with)", err)
	}
	dir := ""
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ": "); ok && k == `"Dir"` {
			dir = strings.Trim(v, `",`)
		}
	}
	if dir == "" {
		t.Fatalf("no Dir in go mod download's answer:\n%s", out)
	}
	for _, name := range []string{"resource.go", "wasm.go"} {
		orig := codeLines(t, filepath.Join(dir, "pkg", "app", name))
		ours := codeLines(t, filepath.Join("_wasm", name))
		// Ours must be the original with lines removed: a subsequence.
		i := 0
		for _, l := range ours {
			for i < len(orig) && orig[i] != l {
				i++
			}
			if i == len(orig) {
				t.Errorf("_wasm/%s: line %q is not in go-app %s's pkg/app/%s (in order)", name, l, goAppVersion, name)
				break
			}
			i++
		}
		for _, l := range ours {
			if strings.Contains(l, `"net/http"`) {
				t.Errorf("_wasm/%s imports net/http", name)
			}
		}
	}
	// route.go and crypto.go are rewritten, not cut: the same
	// declarations, without regexp (RouteWithRegexp takes ^PREFIX only)
	// and crypto (encryption reports it is not in the build).
	decl := regexp.MustCompile(`^(?:func (?:\([^)]*\) )?(\w+)|type (\w+))`)
	decls := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if m := decl.FindStringSubmatch(l); m != nil {
				out = append(out, m[1]+m[2])
			}
		}
		return out
	}
	for _, f := range []struct {
		name, without string
		least         int
	}{{"route.go", `"regexp"`, 6}, {"crypto.go", `"crypto/`, 2}} {
		orig, ours := codeLines(t, filepath.Join(dir, "pkg", "app", f.name)), codeLines(t, filepath.Join("_wasm", f.name))
		if o, w := decls(orig), decls(ours); len(o) < f.least || !slices.Equal(o, w) {
			t.Errorf("_wasm/%s declares %q, go-app %s's %q", f.name, w, goAppVersion, o)
		}
		for _, l := range ours {
			if strings.Contains(l, f.without) {
				t.Errorf("_wasm/%s imports %s", f.name, f.without)
			}
		}
	}
	// go-app asks github.com/google/uuid for NewString only, all that
	// _wasm/uuid has.
	calls := regexp.MustCompile(`uuid\.(\w+)`)
	files, _ := filepath.Glob(filepath.Join(dir, "pkg", "app", "*.go"))
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range calls.FindAllStringSubmatch(string(b), -1) {
			if m[1] != "NewString" {
				t.Errorf("go-app %s's %s calls uuid.%s, which _wasm/uuid lacks", goAppVersion, filepath.Base(name), m[1])
			}
		}
	}
	for _, name := range []string{"http.go", "static.go"} {
		if _, err := os.Stat(filepath.Join(dir, "pkg", "app", name)); err != nil {
			t.Errorf("go-app %s has no pkg/app/%s, which the wasm build removes: %v", goAppVersion, name, err)
		}
	}
}

// codeLines is a Go file's lines with its leading comment block (ours
// explain the copy) and blank lines dropped.
func codeLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	head := true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if head && (strings.HasPrefix(l, "//") || l == "") {
			if strings.HasPrefix(l, "//go:build") || strings.HasPrefix(l, "// +build") {
				lines = append(lines, l)
			}
			continue
		}
		head = false
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
