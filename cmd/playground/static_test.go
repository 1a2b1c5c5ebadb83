//go:build !wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/backoff-playground/playground/static"
)

// writeStaticSite writes the site under prefix (with a stand-in app.wasm
// and the real static/) to a new temporary directory.
func writeStaticSite(t *testing.T, prefix string) (dir string, st staticStats) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "dist")
	st, err := writeStatic(dir, prefix, fakeWeb(), static.FS)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st
}

// siteFiles lists dir's files by slash path below it.
func siteFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The folder holds the page, app.wasm in its three forms, the lessons, the
// scripts, each compressible file with its .br and .gz, a manifest scoped
// to the base path, and no computed answers, under the root and under a
// project's base path alike.
func TestStaticSiteFiles(t *testing.T) {
	for _, prefix := range []string{"", "/repo"} {
		t.Run("base "+prefix+"/", func(t *testing.T) {
			dir, st := writeStaticSite(t, prefix)
			files := siteFiles(t, dir)
			if st.files != len(files) {
				t.Errorf("writeStatic says %d files, the folder has %d", st.files, len(files))
			}
			for _, f := range []string{"index.html", "index.html.br", "index.html.gz",
				"web/app.wasm", "web/app.wasm.br", "web/app.wasm.gz",
				"app.js", "app.js.br", "app-worker.js", "app-worker.js.gz", "wasm_exec.js", "app.css", "manifest.webmanifest",
				"web/static/lessons/ru/01.txt", "web/static/lessons/ru/01.txt.br", "web/static/lessons/en/14.txt",
				"web/static/embed.js", "web/static/embed.js.gz", "web/static/playground.css", "web/static/icon-192.png"} {
				if !slices.Contains(files, f) {
					t.Errorf("no %s in the static site", f)
				}
			}
			for _, f := range files {
				base := baseName(f)
				if strings.HasPrefix(f, "svg/") || base == "export" || base == "healthz" ||
					strings.HasPrefix(base, "screenshot") || strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".md") {
					t.Errorf("%s is in the static site", f)
				}
			}
			if slices.Contains(files, "app.wasm") {
				t.Error("go-app's second name for app.wasm is in the static site (nothing asks for it)")
			}
			var manifest struct {
				Scope    string `json:"scope"`
				StartURL string `json:"start_url"`
			}
			if b, err := os.ReadFile(filepath.Join(dir, "manifest.webmanifest")); err != nil || json.Unmarshal(b, &manifest) != nil {
				t.Fatalf("manifest.webmanifest: %v\n%s", err, b)
			}
			if manifest.Scope != prefix+"/" || manifest.StartURL != prefix+"/" {
				t.Errorf("the manifest's scope %q and start_url %q, want the base path %s/", manifest.Scope, manifest.StartURL, prefix)
			}
		})
	}
}

// baseName is the last element of a slash path.
func baseName(f string) string { return f[strings.LastIndex(f, "/")+1:] }

// Every file in the folder is the server's answer byte for byte: the page
// at the base path for index.html, x.br and x.gz what it sends to a
// browser that accepts only br or only gzip. And every file the server has
// (but go-app's alias) is in the folder.
func TestStaticSiteIsTheServers(t *testing.T) {
	const prefix = "/repo"
	dir, _ := writeStaticSite(t, prefix)
	h, _ := newServer(serverConfig{prefix: prefix}, fakeWeb(), static.FS)
	s, err := newSite(prefix, fakeWeb(), static.FS, fakeIconTime)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for p, a := range s.files {
		if !s.aliases[p] {
			want += len(a.reps)
		}
	}
	files := siteFiles(t, dir)
	if len(files) != want {
		t.Errorf("the folder has %d files, the server %d (with their compressed copies)", len(files), want)
	}
	for _, f := range files {
		urlPath, coding := prefix+"/"+f, "identity"
		switch {
		case strings.HasSuffix(f, ".br"):
			urlPath, coding = strings.TrimSuffix(urlPath, ".br"), "br"
		case strings.HasSuffix(f, ".gz"):
			urlPath, coding = strings.TrimSuffix(urlPath, ".gz"), "gzip"
		}
		urlPath = strings.TrimSuffix(urlPath, "index.html")
		req := httptest.NewRequest(http.MethodGet, urlPath, nil)
		req.Header.Set("Accept-Encoding", coding)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: the server answers GET %s (%s) with %d", f, urlPath, coding, rec.Code)
			continue
		}
		if got := rec.Header().Get("Content-Encoding"); got != strings.TrimPrefix(coding, "identity") {
			t.Errorf("%s: the server sends GET %s (accepting %s) with Content-Encoding %q", f, urlPath, coding, got)
		}
		body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, rec.Body.Bytes()) {
			t.Errorf("%s differs from the server's GET %s (%s): %d bytes, the server %d", f, urlPath, coding, len(body), rec.Body.Len())
		}
	}
}

// precacheList is the list the service worker caches on install, all or
// nothing (cache.addAll).
var precacheList = regexp.MustCompile(`const resourcesToCache = (\[[^\]]*\]);`)

// The worker caches on install only files the folder has: one missing file
// and cache.addAll fails, and the site never works offline.
func TestStaticSiteWorkerCachesOnlyItsFiles(t *testing.T) {
	for _, prefix := range []string{"", "/repo"} {
		t.Run("base "+prefix+"/", func(t *testing.T) {
			dir, _ := writeStaticSite(t, prefix)
			worker, err := os.ReadFile(filepath.Join(dir, "app-worker.js"))
			if err != nil {
				t.Fatal(err)
			}
			m := precacheList.FindSubmatch(worker)
			if m == nil {
				t.Fatalf("no precache list in app-worker.js:\n%s", worker)
			}
			var list []string
			if err := json.Unmarshal(m[1], &list); err != nil {
				t.Fatalf("the precache list %s: %v", m[1], err)
			}
			for _, want := range []string{prefix + "/", prefix + "/web/app.wasm", prefix + "/web/static/lessons/ru/01.txt"} {
				if !slices.Contains(list, want) {
					t.Errorf("the worker does not cache %s: %q", want, list)
				}
			}
			for _, u := range list {
				rel, ok := strings.CutPrefix(u, prefix+"/")
				if !ok {
					t.Errorf("the worker caches %s, outside the base path %s/", u, prefix)
					continue
				}
				if rel == "" || strings.HasSuffix(rel, "/") {
					rel += "index.html"
				}
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
					t.Errorf("the worker caches %s, which the folder lacks", u)
				}
			}
		})
	}
}

// An earlier static site is replaced whole (a file of an older build does
// not stay); a directory holding anything else is refused and left as it
// was.
func TestStaticSiteDirectory(t *testing.T) {
	dir, _ := writeStaticSite(t, "/repo")
	stale := filepath.Join(dir, "web", "static", "lessons", "ru", "99.txt")
	if err := os.WriteFile(stale, []byte("an older build's lesson"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writeStatic(dir, "/repo", fakeWeb(), static.FS); err != nil {
		t.Fatalf("writing over an earlier static site: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a file of the earlier static site stayed")
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Error("no index.html after writing again")
	}

	other := t.TempDir()
	keep := filepath.Join(other, "go.mod")
	os.WriteFile(keep, []byte("module x"), 0o644)
	_, err := writeStatic(other, "/repo", fakeWeb(), static.FS)
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("writing into a directory of other files: %v, want a refusal", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error("the refused directory lost its file")
	}
	if _, err := os.Stat(filepath.Join(other, "index.html")); err == nil {
		t.Error("the refused directory got the site")
	}
}

// Without app.wasm, or with a compressed copy of another build, there is no
// site to write: the command says so and writes nothing.
func TestStaticSiteNeedsTheBuild(t *testing.T) {
	stale := fakeWeb()
	stale["app.wasm.br"] = fakeWeb()["app.wasm.gz"]
	for name, web := range map[string]fstest.MapFS{
		"no app.wasm":     {"README.md": {Data: []byte("readme")}},
		"a stale br copy": stale,
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			var out, errb bytes.Buffer
			err := run(context.Background(), []string{"--write-static", dir}, &out, &errb, web, static.FS)
			if err == nil || !strings.Contains(err.Error(), "app.wasm") {
				t.Errorf("--write-static with %s: %v, want an error naming app.wasm", name, err)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("--write-static with %s made %s", name, dir)
			}
		})
	}
}

// The command line: --write-static writes and exits with one line saying
// where and for which base path.
func TestStaticSiteCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"--write-static", dir, "--base-path", "repo/"}, &out, &errb, fakeWeb(), static.FS); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if line := out.String(); !strings.Contains(line, " to "+dir+" for the base path /repo/\n") || strings.Count(line, "\n") != 1 {
		t.Errorf("the command says %q", line)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`src="/repo/app.js"`)) {
		t.Error("index.html does not load /repo/app.js")
	}
}
