//go:build browser && !wasm

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// The static site has the page, app.wasm in its three forms, the lessons,
// and every file the worker caches on install (it caches all or nothing);
// no computed answers.
func TestBrowserWriteStatic(t *testing.T) {
	setupWasm(t)
	dir := t.TempDir()
	n, err := writeStatic(dir, "/repo", web.FS, static.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "index.html.br", "index.html.gz", "web/app.wasm", "web/app.wasm.br",
		"web/app.wasm.gz", "app-worker.js", "web/static/lessons/ru/01.txt", "web/static/embed.js", "web/static/chart.css"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s", f)
		}
	}
	worker, _ := os.ReadFile(filepath.Join(dir, "app-worker.js"))
	list := regexp.MustCompile(`const resourcesToCache = (\[[^\]]*\])`).FindSubmatch(worker)
	if list == nil {
		t.Fatal("no precache list in the worker")
	}
	for _, m := range regexp.MustCompile(`"([^"]+)"`).FindAllSubmatch(list[1], -1) {
		p := strings.TrimPrefix(string(m[1]), "/repo")
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "/")))); err != nil {
			t.Errorf("the worker caches %s, which the site lacks", m[1])
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if strings.Contains(p, "/svg/") || strings.HasSuffix(p, "/export") || strings.Contains(filepath.Base(p), "screenshot") {
			t.Errorf("%s is in the static site", p)
		}
		return nil
	})
	t.Logf("%d files", n)
}

// setupWasm skips nothing: the static site needs the built wasm, as make
// static builds it first.
func setupWasm(t *testing.T) {
	t.Helper()
	if b, err := web.FS.Open("app.wasm"); err != nil {
		t.Fatal("web/app.wasm is not built: make test builds it (make wasm)")
	} else {
		b.Close()
	}
}
