//go:build !wasm

package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
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

// permissionsPolicy denies every powerful feature the page does not use; it
// writes share links to the clipboard (Copy link), nothing else. Only names
// Chromium knows: an unknown one is reported on the console (Chromium 156 on
// Linux knows neither bluetooth nor web-share; the browser test checks).
const permissionsPolicy = "accelerometer=(), autoplay=(), camera=(), clipboard-read=(), " +
	"clipboard-write=(self), display-capture=(), encrypted-media=(), fullscreen=(), gamepad=(), " +
	"geolocation=(), gyroscope=(), hid=(), idle-detection=(), local-fonts=(), magnetometer=(), " +
	"microphone=(), midi=(), payment=(), picture-in-picture=(), publickey-credentials-get=(), " +
	"screen-wake-lock=(), serial=(), sync-xhr=(), usb=(), xr-spatial-tracking=()"

// defaultPerWrite bounds a small response and each 64 KB of a large one
// (see writeBody): a client slower than 3.2 KB/s is cut.
const defaultPerWrite = 20 * time.Second

// serverConfig is what the flags decide about the HTTP surface.
type serverConfig struct {
	prefix string // "" or a cleaned base path such as "/playground"
	// frameAncestors are the origins allowed to embed the page in an
	// iframe (team docs, workshop slides); empty means none may.
	frameAncestors []string
	// perWrite is the write deadline of each chunk of a response (0:
	// defaultPerWrite).
	perWrite time.Duration
	// accessLog gets one line per request (--log); nil: none.
	accessLog *accessLog
	// builtAt is the Last-Modified of files with no time of their own
	// (zero: the executable's modification time).
	builtAt time.Time
}

// serverInfo describes what newServer found in the embedded files.
type serverInfo struct {
	version  string // go-app Version: a hash over every served file
	hasWasm  bool
	wasmSize int64 // uncompressed bytes
	renders  int   // page renders at start; none happen per request
	warnings []string
}

// newServer wires the whole HTTP surface: the site built once from the
// embedded files (pages, go-app's scripts, the worker, the manifest,
// app.wasm, static/), /healthz, the method filter, the security headers and
// the optional access log. Serve it with newHTTPServer and the same perWrite. Every URL, including
// /healthz, lives under cfg.prefix. It panics when go-app cannot render a
// page: the binary itself is broken then.
func newServer(cfg serverConfig, webFS, staticFS fs.FS) (http.Handler, serverInfo) {
	if cfg.perWrite <= 0 {
		cfg.perWrite = defaultPerWrite
	}
	if cfg.builtAt.IsZero() {
		cfg.builtAt = executableTime()
	}
	s, err := newSite(cfg.prefix, webFS, staticFS, cfg.builtAt)
	if err != nil {
		panic(err)
	}
	spooled := map[*asset]bool{} // go-app's /app.wasm is /web/app.wasm
	for _, a := range s.files {
		if !spooled[a] {
			a.spoolLarge()
			spooled[a] = true
		}
	}
	info := serverInfo{version: s.version, hasWasm: s.hasWasm, wasmSize: s.wasmSize, renders: s.renders, warnings: s.warnings}
	var h http.Handler = &router{cfg: cfg, site: s, dyn: newDynamic(s.version, cfg.perWrite)}
	h = secure(getOnly(h), cfg.frameAncestors)
	if cfg.accessLog != nil {
		h = logRequests(h, cfg.accessLog)
	}
	return h, info
}

// router answers from the site's table by exact path, then the computed
// answers (/svg/, /export), /healthz and the bare base path. Exact lookups leave no room for a base path such as /web to
// collide with go-app's /web/ resources.
type router struct {
	cfg  serverConfig
	site *site
	dyn  *dynamic // /svg/ images and /export snippets
}

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a, ok := rt.site.files[r.URL.Path]; ok {
		lang := queryLang(r.URL.RawQuery)
		if ru, ok := rt.site.ruPages[r.URL.Path]; ok && lang == i18n.Ru.Code() {
			a = ru
		}
		if va := rt.site.variant(r.URL.Path, r.URL.RawQuery, lang); va != nil {
			a = va
		}
		a.serve(w, r, rt.cfg.perWrite)
		return
	}
	prefix := rt.cfg.prefix
	if rest, ok := strings.CutPrefix(r.URL.Path, prefix); ok && rt.dyn.serve(w, r, rest) {
		return
	}
	switch {
	case r.URL.Path == prefix+"/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if !rt.site.hasWasm {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "not ready: app.wasm is not built\n")
			return
		}
		fmt.Fprintf(w, "ok %s\n", rt.site.version)
	case prefix != "" && r.URL.Path == prefix:
		u := prefix + "/"
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery // a shared link keeps its state
		}
		http.Redirect(w, r, u, http.StatusMovedPermanently)
	case !rt.site.hasWasm && strings.HasPrefix(r.URL.Path, prefix+"/"):
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "Backoff Playground: web/app.wasm is not built into this server.")
		fmt.Fprintln(w, "Build it with `make run` (or `make bin/playground`) and start the new binary.")
	default:
		http.NotFound(w, r)
	}
}

// executableTime is when this binary was written: it carries every file it
// serves, so none of them changed later. Embedded files have no time.
func executableTime() time.Time {
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			return st.ModTime()
		}
	}
	return time.Now()
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
// no allow list, so it is sent only when none are. The values are made once
// and shared: a request allocates nothing for them.
func secure(next http.Handler, frameAncestors []string) http.Handler {
	fixed := securityHeaders(frameAncestors)
	pairs := make([][2][]string, 0, len(fixed)) // a slice walks faster than a map
	for k, v := range fixed {
		pairs = append(pairs, [2][]string{{k}, v})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range pairs {
			h[kv[0][0]] = kv[1]
		}
		next.ServeHTTP(w, r)
	})
}

// securityHeaders are the headers secure sets on every response.
func securityHeaders(frameAncestors []string) http.Header {
	csp := contentSecurityPolicy + "'none'"
	if len(frameAncestors) > 0 {
		csp = contentSecurityPolicy + strings.Join(frameAncestors, " ")
	}
	fixed := http.Header{
		"X-Content-Type-Options":     {"nosniff"},
		"Content-Security-Policy":    {csp},
		"Permissions-Policy":         {permissionsPolicy},
		"Referrer-Policy":            {"no-referrer"},
		"Cross-Origin-Opener-Policy": {"same-origin"},
	}
	if len(frameAncestors) == 0 {
		fixed["X-Frame-Options"] = []string{"DENY"}
	}
	return fixed
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
		if strings.HasSuffix(u.Host, ":") || u.Port() != "" && !validPort(u.Port()) {
			return nil, fmt.Errorf("--frame-ancestors %q: the port must be 1 to 65535", o)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out, nil
}

// queryLang is the language code a page's query asks for, as the app reads
// it (the first lang=, any case and spelling i18n.Parse takes), or "".
// It allocates only for a percent-encoded value.
func queryLang(raw string) string {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		k, v, _ := strings.Cut(pair, "=")
		if k != "lang" {
			continue
		}
		if strings.ContainsAny(v, "%+") {
			var err error
			if v, err = url.QueryUnescape(v); err != nil {
				return ""
			}
		}
		if l, ok := i18n.Parse(v); ok {
			return l.Code()
		}
		return ""
	}
	return ""
}

// validPort reports whether p is a TCP port number, 1 to 65535.
func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}
