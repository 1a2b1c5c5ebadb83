//go:build !wasm

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// writeStatic writes the site the server would serve to dir, for a static
// host or CDN: every file at its path below the base path (the page as
// index.html), and its .br and .gz beside it, the very bytes the server
// sends. Only the computed answers are missing (/svg/ images, /export):
// the page draws its own downloads and says to use the CLI for exports. It
// returns how many files it wrote.
func writeStatic(dir, prefix string, webFS, staticFS fs.FS) (int, error) {
	s, err := newSite(prefix, webFS, staticFS, time.Now())
	if err != nil {
		return 0, err
	}
	if !s.hasWasm {
		return 0, errors.New("web/app.wasm is not built: run `make wasm` first")
	}
	n := 0
	for urlPath, a := range s.files {
		rel, ok := strings.CutPrefix(urlPath, prefix)
		if !ok || !strings.HasPrefix(rel, "/") || strings.Contains(rel, "..") {
			continue
		}
		if strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		name := filepath.Join(dir, filepath.FromSlash(rel[1:]))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return n, err
		}
		for _, r := range a.reps {
			out := name
			switch r.coding {
			case "br":
				out += ".br"
			case "gzip":
				out += ".gz"
			}
			if err := os.WriteFile(out, r.body, 0o644); err != nil {
				return n, fmt.Errorf("writing %s: %w", out, err)
			}
			n++
		}
	}
	return n, nil
}
