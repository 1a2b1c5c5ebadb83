//go:build !wasm

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/backoff-playground/playground/app"
)

// contentSecurityPolicy allows only what go-app's page needs: its own scripts
// (wasm_exec.js, app.js; the generated page has no inline script), compiling
// WebAssembly ('wasm-unsafe-eval', not 'unsafe-eval'), fetches of app.wasm
// and the worker's cache fill ('self'), the service worker, the manifest, and
// local style sheets and icons. No inline styles: go-app's Style() sets a
// style attribute, which this blocks; the browser tests report any violation
// (use a class instead, or add "style-src-attr 'unsafe-inline'" here).
const contentSecurityPolicy = "default-src 'none'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"connect-src 'self'; " +
	"worker-src 'self'; " +
	"manifest-src 'self'; " +
	"img-src 'self'; " +
	"style-src 'self'; " +
	"font-src 'self'; " +
	"base-uri 'none'; " +
	"form-action 'none'; " +
	"frame-ancestors 'none'"

// serverInfo describes what newServer found in the embedded files.
type serverInfo struct {
	version  string // go-app Version: content hash of app.wasm
	hasWasm  bool
	wasmSize int64 // uncompressed bytes
}

// newServer wires the whole HTTP surface: go-app's handler (pages, app.js,
// wasm_exec.js, the worker, the manifest) with /web/ served from the
// embedded files, /healthz, the method filter and the security headers.
// prefix is "" or a cleaned base path such as "/playground"; every URL,
// including /healthz, lives under it.
func newServer(prefix string, webFS, staticFS fs.FS) (http.Handler, serverInfo) {
	info := serverInfo{version: "no-wasm"}
	if wasm, err := fs.ReadFile(webFS, "app.wasm"); err == nil && len(wasm) > 0 {
		sum := sha256.Sum256(wasm)
		info = serverInfo{version: hex.EncodeToString(sum[:8]), hasWasm: true, wasmSize: int64(len(wasm))}
	}

	res := &assets{prefix: prefix, web: webFS, static: staticFS}
	var pages http.Handler = app.NewHandler(info.version, info.wasmSize, res)
	if !info.hasWasm {
		pages = missingWasm(res)
	}

	mux := http.NewServeMux()
	mux.HandleFunc(prefix+"/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if !info.hasWasm {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "not ready: app.wasm is not built\n")
			return
		}
		fmt.Fprintf(w, "ok %s\n", info.version)
	})
	if prefix == "" {
		mux.Handle("/", pages)
	} else {
		mux.Handle(prefix+"/", http.StripPrefix(prefix, pages))
		mux.HandleFunc(prefix, func(w http.ResponseWriter, r *http.Request) {
			u := prefix + "/"
			if r.URL.RawQuery != "" {
				u += "?" + r.URL.RawQuery // a shared link keeps its state
			}
			http.Redirect(w, r, u, http.StatusMovedPermanently)
		})
		mux.Handle("/", http.NotFoundHandler())
	}
	return secure(getOnly(mux)), info
}

// missingWasm answers every page with a clear 503 while still serving the
// static assets, so a server built before the wasm says what to do.
func missingWasm(res *assets) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/web/static/") {
			res.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "Backoff Playground: web/app.wasm is not built into this server.")
		fmt.Fprintln(w, "Build it with `make run` (or `make bin/playground`) and start the new binary.")
	})
}

// getOnly rejects every method but GET and HEAD: the playground has no
// state to change on the server.
func getOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// secure sets the baseline security headers on every response.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
