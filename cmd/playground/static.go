//go:build !wasm

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// staticMarker is the file that makes a directory an earlier static site,
// which writeStatic may empty and write again.
const staticMarker = "app-worker.js"

// staticStats is what writeStatic wrote.
type staticStats struct {
	files int
	bytes int64
}

// writeStatic writes the site the server would serve under prefix to dir,
// for a static host or CDN (`playground --write-static DIR --base-path
// /repo`): every file at its path below the base path, a page route as
// index.html in its folder, and each compressed copy the server keeps beside
// it (x.br, x.gz), the very bytes the server sends. Only the computed
// answers are missing (/svg/ images, /export): the page draws its own
// downloads and its Export panel names the CLI on a 404. go-app's second
// name for app.wasm (/app.wasm) is left out: nothing asks for it.
//
// dir must be absent, empty, or an earlier static site (it holds
// app-worker.js): that one is emptied first, so no file of an older build
// stays; anything else is refused, so a mistyped directory is never wiped.
func writeStatic(dir, prefix string, webFS, staticFS fs.FS) (staticStats, error) {
	var st staticStats
	s, err := newSite(prefix, webFS, staticFS, time.Now())
	if err != nil {
		return st, err
	}
	if !s.hasWasm {
		return st, errors.New("web/app.wasm is not built into this binary: `make static` builds it first")
	}
	if len(s.warnings) > 0 { // a stale app.wasm.br would leave the site without one
		return st, errors.New(strings.Join(s.warnings, "; "))
	}
	if err := emptyStaticDir(dir); err != nil {
		return st, err
	}
	for _, urlPath := range slices.Sorted(maps.Keys(s.files)) {
		if s.aliases[urlPath] {
			continue
		}
		rel, ok := strings.CutPrefix(urlPath, prefix)
		inner := strings.Trim(rel, "/")
		if !ok || !strings.HasPrefix(rel, "/") || inner != "" && !fs.ValidPath(inner) {
			return st, fmt.Errorf("%s is not a file below the base path %q", urlPath, prefix+"/")
		}
		if strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		name := filepath.Join(dir, filepath.FromSlash(rel[1:]))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return st, err
		}
		for _, r := range s.files[urlPath].reps {
			out := name + codingSuffix[r.coding]
			if err := os.WriteFile(out, r.body, 0o644); err != nil {
				return st, err
			}
			st.files++
			st.bytes += int64(len(r.body))
		}
	}
	return st, nil
}

// codingSuffix names a compressed copy beside its file, as nginx's
// gzip_static and brotli_static look for it.
var codingSuffix = map[string]string{"": "", "br": ".br", "gzip": ".gz"}

// emptyStaticDir makes dir an empty directory, refusing one that holds
// anything but an earlier static site.
func emptyStaticDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if st, err := os.Stat(filepath.Join(dir, staticMarker)); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not empty and holds no %s (not a static site written before): refusing to empty it; name a new directory", dir, staticMarker)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
