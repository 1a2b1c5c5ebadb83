//go:build !wasm

package main

import (
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// assets is go-app's ResourceResolver for the embedded files, and the
// http.Handler the go-app handler delegates /web/ requests to.
//
//   - /web/app.wasm comes from web/ (embedded), as app.wasm.br or app.wasm.gz
//     when the client accepts them (Vary: Accept-Encoding).
//   - /web/static/NAME comes from static/ (embedded), asset types only.
//
// Resolve prepends prefix to every local path so the page, app.js, the
// worker and the manifest all point under the base path; go-app's browser
// side strips it again (GOAPP_ROOT_PREFIX is Resolve("/")).
type assets struct {
	prefix string // "" or "/base", no trailing slash
	web    fs.FS
	static fs.FS
}

// Resolve implements go-app's ResourceResolver.
func (a *assets) Resolve(location string) string {
	switch {
	case location == "" || location == "/":
		return a.prefix + "/"
	case strings.HasPrefix(location, "/"):
		return a.prefix + location
	case location == "web" || strings.HasPrefix(location, "web/"):
		return a.prefix + "/" + location
	default: // remote URLs, fragments, relative links: unchanged
		return location
	}
}

// staticTypes are the file types served from static/: the style sheet and
// icons, never the Go source or README that sit in the same directory.
var staticTypes = map[string]bool{".css": true, ".svg": true, ".png": true, ".ico": true, ".webp": true}

// ServeHTTP serves /web/ paths. The go-app handler passes requests for
// /app.wasm with the path already resolved, so the prefix may be present.
func (a *assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if a.prefix != "" {
		p = strings.TrimPrefix(p, a.prefix)
	}
	switch {
	case p == "/web/app.wasm":
		a.serveWasm(w, r)
	case strings.HasPrefix(p, "/web/static/"):
		name := strings.TrimPrefix(p, "/web/static/")
		if !fs.ValidPath(name) || strings.Contains(name, "/") || !staticTypes[path.Ext(name)] {
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, a.static, name, name)
	default:
		http.NotFound(w, r)
	}
}

// serveWasm picks the smallest encoding the client accepts. Chromium sends
// "br" even over plain http://localhost. No range requests: the loader always
// fetches the whole file, and a range of an encoded variant is rarely what a
// client means.
func (a *assets) serveWasm(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Encoding")
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	name, encoding := "app.wasm", ""
	for _, enc := range []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if _, err := fs.Stat(a.web, "app.wasm"+enc.suffix); err == nil && accepted[enc.token] {
			name, encoding = "app.wasm"+enc.suffix, enc.token
			break
		}
	}
	f, err := a.web.Open(name)
	if err != nil {
		http.Error(w, "app.wasm is not built into this server: run `make run`", http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "stat failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	if encoding != "" {
		w.Header().Set("Content-Encoding", encoding)
	}
	w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		io.Copy(w, f) // an error here is the client going away
	}
}

// serveFile serves name from fsys; typeName's extension sets Content-Type
// unless it is already set.
func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name, typeName string) {
	f, err := fsys.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(w, r)
		return
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok { // embed.FS files are seekable; keep other file systems working
		b, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "read failed", http.StatusInternalServerError)
			return
		}
		rs = strings.NewReader(string(b))
	}
	// Embedded files have no modification time; go-app's handler already set
	// the ETag (the version) and Cache-Control: no-cache.
	http.ServeContent(w, r, typeName, time.Time{}, rs)
}

// acceptedEncodings parses an Accept-Encoding header into the codings it
// accepts (q > 0). "*" stands for any coding not listed.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	star, starSet := false, false
	explicit := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token == "" {
			continue
		}
		ok := true
		for _, param := range strings.Split(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(param), "=")
			if found && strings.EqualFold(strings.TrimSpace(k), "q") {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q <= 0 {
					ok = false
				}
			}
		}
		if token == "*" {
			star, starSet = ok, true
			continue
		}
		explicit[token] = true
		out[token] = ok
	}
	if starSet {
		for _, t := range []string{"br", "gzip"} {
			if !explicit[t] {
				out[t] = star
			}
		}
	}
	return out
}
