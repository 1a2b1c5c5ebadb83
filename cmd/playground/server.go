//go:build !wasm

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
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
	"frame-ancestors "

// serverConfig is what the flags decide about the HTTP surface.
type serverConfig struct {
	prefix string // "" or a cleaned base path such as "/playground"
	// frameAncestors are the origins allowed to embed the page in an
	// iframe (team docs, workshop slides); empty means none may.
	frameAncestors []string
}

// serverInfo describes what newServer found in the embedded files.
type serverInfo struct {
	version  string // go-app Version: content hash of app.wasm
	hasWasm  bool
	wasmSize int64 // uncompressed bytes
}

// newServer wires the whole HTTP surface: go-app's handler (pages, app.js,
// wasm_exec.js, the worker, the manifest) with /web/ served from the
// embedded files, /healthz, the method filter and the security headers.
// Every URL, including /healthz, lives under cfg.prefix.
func newServer(cfg serverConfig, webFS, staticFS fs.FS) (http.Handler, serverInfo) {
	prefix := cfg.prefix
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
	return secure(getOnly(mux), cfg.frameAncestors), info
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

// secure sets the baseline security headers on every response. Framing is
// refused unless origins are allowed to embed the page; X-Frame-Options has
// no allow list, so it is sent only when none are.
func secure(next http.Handler, frameAncestors []string) http.Handler {
	csp := contentSecurityPolicy + "'none'"
	if len(frameAncestors) > 0 {
		csp = contentSecurityPolicy + strings.Join(frameAncestors, " ")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", csp)
		if len(frameAncestors) == 0 {
			h.Set("X-Frame-Options", "DENY")
		}
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// parseFrameAncestors reads --frame-ancestors: a comma or space separated
// list of origins (https://docs.example.com, http://localhost:3000) or
// 'self'. Anything else is refused, so the value cannot break the header.
func parseFrameAncestors(v string) ([]string, error) {
	var out []string
	for _, o := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if o == "'self'" || o == "self" {
			out = append(out, "'self'")
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(o, "';\"") {
			return nil, fmt.Errorf("--frame-ancestors %q: want origins such as https://docs.example.com or 'self', comma separated", o)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out, nil
}
