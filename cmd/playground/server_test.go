//go:build !wasm

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/backoff-playground/playground/app"
)

func init() { app.Register() } // the go-app handler serves only routed pages

// fakeWeb is a built web/ directory: distinct bytes per encoding so a test
// can tell which one was served.
func fakeWeb() fstest.MapFS {
	return fstest.MapFS{
		"README.md":   {Data: []byte("readme")},
		"app.wasm":    {Data: []byte("\x00asm raw wasm bytes, uncompressed")},
		"app.wasm.br": {Data: []byte("brotli bytes")},
		"app.wasm.gz": {Data: []byte("gzip bytes")},
		"web.go":      {Data: []byte("package web")},
	}
}

func fakeStatic() fstest.MapFS {
	return fstest.MapFS{
		"playground.css": {Data: []byte("body{}")},
		"icon.svg":       {Data: []byte("<svg/>")},
		"icon-192.png":   {Data: []byte("png")},
		"static.go":      {Data: []byte("package static")},
		"README.md":      {Data: []byte("readme")},
	}
}

type resp struct {
	code int
	hdr  http.Header
	body string
}

func do(t *testing.T, h http.Handler, method, target string, hdr ...string) resp {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return resp{rec.Code, rec.Result().Header, rec.Body.String()}
}

func TestPage(t *testing.T) {
	h, info := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	r := do(t, h, "GET", "/")
	if r.code != 200 || !strings.HasPrefix(r.hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %q", r.code, r.hdr.Get("Content-Type"))
	}
	for _, want := range []string{
		`href="/web/static/playground.css"`,
		`href="/web/static/icon.svg"`,
		`src="/wasm_exec.js"`,
		`src="/app.js"`,
		`<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(r.body, "githubusercontent") {
		t.Error("page links a remote icon: the worker's cache.addAll fails offline")
	}
	if strings.Contains(r.body, "<script>") {
		t.Error("page has an inline script: the CSP would block it")
	}
	if got := r.hdr.Get("Etag"); got != `"`+info.version+`"` {
		t.Errorf("ETag %q, want the version %q", got, info.version)
	}

	js := do(t, h, "GET", "/app.js").body
	for _, want := range []string{`"/web/app.wasm"`, `const goappWasmContentLength = "33"`, info.version} {
		if !strings.Contains(js, want) {
			t.Errorf("app.js lacks %s", want)
		}
	}
	if r := do(t, h, "GET", "/wasm_exec.js"); r.code != 200 || !strings.Contains(r.body, "Go") {
		t.Errorf("wasm_exec.js: %d", r.code)
	}
	man := do(t, h, "GET", "/manifest.webmanifest").body
	if strings.Contains(man, "http") || !strings.Contains(man, "/web/static/icon-512.png") {
		t.Errorf("manifest icons are not local: %s", man)
	}
	if r := do(t, h, "GET", "/no-such-page"); r.code != 404 {
		t.Errorf("GET /no-such-page: %d, want 404", r.code)
	}
}

func TestSecurityHeaders(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for _, path := range []string{"/", "/app.js", "/web/app.wasm", "/web/static/icon.svg", "/healthz", "/nope"} {
		r := do(t, h, "GET", path)
		if got := r.hdr.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", path, got)
		}
		csp := r.hdr.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "'unsafe-eval'") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
			t.Errorf("%s: CSP allows eval or inline scripts: %q", path, csp)
		}
	}
}

func TestWasmEncoding(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for _, tc := range []struct {
		accept, encoding, body string
	}{
		{"gzip, deflate, br, zstd", "br", "brotli bytes"}, // Chromium
		{"br", "br", "brotli bytes"},
		{"gzip", "gzip", "gzip bytes"},
		{"br;q=0, gzip", "gzip", "gzip bytes"},
		{"BR;Q=0.5", "br", "brotli bytes"},
		{"*", "br", "brotli bytes"},
		{"*;q=0, gzip", "gzip", "gzip bytes"},
		{"", "", "\x00asm raw wasm bytes, uncompressed"},
		{"identity", "", "\x00asm raw wasm bytes, uncompressed"},
		{"gzip;q=0, br;q=0", "", "\x00asm raw wasm bytes, uncompressed"},
	} {
		for _, path := range []string{"/web/app.wasm", "/app.wasm"} {
			r := do(t, h, "GET", path, "Accept-Encoding", tc.accept)
			if r.code != 200 || r.body != tc.body || r.hdr.Get("Content-Encoding") != tc.encoding {
				t.Errorf("%s Accept-Encoding %q: %d %q encoding %q; want %q encoding %q",
					path, tc.accept, r.code, r.body, r.hdr.Get("Content-Encoding"), tc.body, tc.encoding)
			}
			if got := r.hdr.Get("Content-Type"); got != "application/wasm" {
				t.Errorf("%s: Content-Type %q", path, got)
			}
			if got := r.hdr.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("%s: Vary %q", path, got)
			}
		}
	}
	r := do(t, h, "HEAD", "/web/app.wasm", "Accept-Encoding", "br")
	if r.code != 200 || r.body != "" || r.hdr.Get("Content-Length") != "12" {
		t.Errorf("HEAD: %d body %q length %q", r.code, r.body, r.hdr.Get("Content-Length"))
	}
}

func TestStaticFiles(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for path, want := range map[string]string{
		"/web/static/playground.css": "text/css; charset=utf-8",
		"/web/static/icon.svg":       "image/svg+xml",
		"/web/static/icon-192.png":   "image/png",
	} {
		if r := do(t, h, "GET", path); r.code != 200 || r.hdr.Get("Content-Type") != want {
			t.Errorf("GET %s: %d %q, want 200 %q", path, r.code, r.hdr.Get("Content-Type"), want)
		}
	}
	for _, path := range []string{
		"/web/static/static.go", "/web/static/README.md", "/web/static/", "/web/static/..%2fweb.go",
		"/web/web.go", "/web/README.md", "/web/app.wasm.br", "/web/static/nope.css",
	} {
		if r := do(t, h, "GET", path); r.code != 404 {
			t.Errorf("GET %s: %d, want 404", path, r.code)
		}
	}
}

func TestMethods(t *testing.T) {
	h, _ := newServer(serverConfig{prefix: "/pg"}, fakeWeb(), fakeStatic())
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"} {
		for _, path := range []string{"/pg/", "/pg/web/app.wasm", "/pg/healthz", "/pg/app.js"} {
			r := do(t, h, m, path)
			if r.code != 405 || r.hdr.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d Allow %q, want 405", m, path, r.code, r.hdr.Get("Allow"))
			}
		}
	}
	if r := do(t, h, "HEAD", "/pg/"); r.code != 200 { // net/http drops a HEAD body; TestRun checks that end to end
		t.Errorf("HEAD /pg/: %d", r.code)
	}
	if r := do(t, h, "GET", "/web/static/../web.go"); r.code == 200 {
		t.Errorf("GET /web/static/../web.go: %d", r.code)
	}
}

func TestHealthz(t *testing.T) {
	h, info := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	r := do(t, h, "GET", "/healthz")
	if r.code != 200 || r.body != "ok "+info.version+"\n" {
		t.Errorf("healthz: %d %q", r.code, r.body)
	}
	if r.hdr.Get("Cache-Control") != "no-store" {
		t.Errorf("healthz Cache-Control %q", r.hdr.Get("Cache-Control"))
	}
}

func TestBasePath(t *testing.T) {
	h, _ := newServer(serverConfig{prefix: "/pg"}, fakeWeb(), fakeStatic())
	page := do(t, h, "GET", "/pg/")
	if page.code != 200 {
		t.Fatalf("GET /pg/: %d", page.code)
	}
	for _, want := range []string{`src="/pg/app.js"`, `src="/pg/wasm_exec.js"`, `href="/pg/web/static/playground.css"`, `href="/pg/manifest.webmanifest"`, `rel="preload" href="/pg/web/app.wasm"`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("page under /pg lacks %s", want)
		}
	}
	js := do(t, h, "GET", "/pg/app.js").body
	for _, want := range []string{`"/pg/web/app.wasm"`, `"/pg/app-worker.js"`, `"GOAPP_ROOT_PREFIX":"/pg/"`} {
		if !strings.Contains(js, want) {
			t.Errorf("app.js under /pg lacks %s", want)
		}
	}
	for path, code := range map[string]int{
		"/pg/web/app.wasm": 200, "/pg/app.wasm": 200, "/pg/web/static/icon.svg": 200, "/pg/healthz": 200,
		"/pg/app-worker.js": 200, "/pg/manifest.webmanifest": 200,
		"/": 404, "/web/app.wasm": 404, "/healthz": 404, "/pgx/": 404,
	} {
		if r := do(t, h, "GET", path, "Accept-Encoding", "br"); r.code != code {
			t.Errorf("GET %s: %d, want %d", path, r.code, code)
		}
	}
	if r := do(t, h, "GET", "/pg/web/app.wasm", "Accept-Encoding", "br"); r.body != "brotli bytes" {
		t.Errorf("GET /pg/web/app.wasm: %q", r.body)
	}
	if r := do(t, h, "GET", "/pg"); r.code != 301 || r.hdr.Get("Location") != "/pg/" {
		t.Errorf("GET /pg: %d Location %q, want 301 to /pg/", r.code, r.hdr.Get("Location"))
	}
	if r := do(t, h, "GET", "/pg?base=2s&seed=3"); r.code != 301 || r.hdr.Get("Location") != "/pg/?base=2s&seed=3" {
		t.Errorf("GET /pg?query: %d Location %q, want the query kept", r.code, r.hdr.Get("Location"))
	}
}

func TestMissingWasm(t *testing.T) {
	h, info := newServer(serverConfig{}, fstest.MapFS{"README.md": {Data: []byte("readme")}}, fakeStatic())
	if info.hasWasm {
		t.Fatal("hasWasm with no app.wasm")
	}
	for _, path := range []string{"/", "/app.js", "/web/app.wasm"} {
		r := do(t, h, "GET", path)
		if r.code != 503 || !strings.Contains(r.body, "make run") {
			t.Errorf("GET %s without wasm: %d %q, want 503 naming make run", path, r.code, r.body)
		}
	}
	if r := do(t, h, "GET", "/healthz"); r.code != 503 || !strings.Contains(r.body, "app.wasm") {
		t.Errorf("healthz without wasm: %d %q", r.code, r.body)
	}
	if r := do(t, h, "GET", "/web/static/icon.svg"); r.code != 200 {
		t.Errorf("static without wasm: %d", r.code)
	}
}

func TestVersionFollowsWasm(t *testing.T) {
	a, b := fakeWeb(), fakeWeb()
	b["app.wasm"] = &fstest.MapFile{Data: []byte("\x00asm a newer build")}
	ha, ia := newServer(serverConfig{}, a, fakeStatic())
	_, ib := newServer(serverConfig{}, b, fakeStatic())
	_, ia2 := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	if ia.version == ib.version || ia.version != ia2.version {
		t.Errorf("versions %q %q %q: want a content hash", ia.version, ib.version, ia2.version)
	}
	if w := do(t, ha, "GET", "/app-worker.js").body; !strings.Contains(w, `"app-" + "`+ia.version+`"`) {
		t.Error("service worker cache is not named after the version")
	}
	if r := do(t, ha, "GET", "/", "If-None-Match", `"`+ia.version+`"`); r.code != 304 {
		t.Errorf("If-None-Match the version: %d, want 304", r.code)
	}
}

func TestCleanBasePath(t *testing.T) {
	for in, want := range map[string]string{"": "", "/": "", "pg": "/pg", "/pg/": "/pg", "/a/b": "/a/b"} {
		if got, err := cleanBasePath(in); err != nil || got != want {
			t.Errorf("cleanBasePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"/a/../b", "/a//b", "/a?b", "/a b", "/%2e"} {
		if _, err := cleanBasePath(in); err == nil {
			t.Errorf("cleanBasePath(%q): no error", in)
		}
	}
}

// TestRun starts the real command on a free port and stops it with ctx.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"--addr", "127.0.0.1:0", "--base-path", "/pg/"}, pw, &stderr)
		pw.Close()
	}()

	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v (stderr %q)", err, stderr.String())
	}
	_, url, ok := strings.Cut(strings.TrimSpace(line), " serving ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/pg/") {
		t.Fatalf("start line %q: want the URL", line)
	}
	go io.Copy(io.Discard, pr)
	res, err := http.Get(url + "web/static/icon.svg")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET icon: %d", res.StatusCode)
	}
	res, err = http.Head(url + "web/static/icon.svg")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD icon: %d with %d body bytes", res.StatusCode, len(body))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after cancel: %v", err)
		}
	case <-time.After(shutdownTimeout + time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--base-path", "/a/../b"}} {
		var out, errb bytes.Buffer
		if err := Run(context.Background(), args, &out, &errb); err != errUsage {
			t.Errorf("Run(%q) = %v, want errUsage", args, err)
		}
	}
}

func TestAcceptedEncodings(t *testing.T) {
	for _, tc := range []struct {
		in       string
		br, gzip bool
	}{
		{"", false, false},
		{"gzip, deflate, br", true, true},
		{"br;q=0", false, false},
		{"br; q=0.001", true, false},
		{"*", true, true},
		{"*;q=0, br", true, false},
		{"gzip;q=0, *", true, false},
		{" GZIP ", false, true},
	} {
		got := acceptedEncodings(tc.in)
		if got["br"] != tc.br || got["gzip"] != tc.gzip {
			t.Errorf("acceptedEncodings(%q) = %v; want br %v gzip %v", tc.in, got, tc.br, tc.gzip)
		}
	}
}

// Teams embed the playground in their docs: --frame-ancestors lets named
// origins frame it, and nothing else.
func TestFrameAncestors(t *testing.T) {
	r := do(t, mustServer(t, serverConfig{}), "GET", "/")
	if r.hdr.Get("X-Frame-Options") != "DENY" || !strings.Contains(r.hdr.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("default framing headers: XFO %q, CSP %q", r.hdr.Get("X-Frame-Options"), r.hdr.Get("Content-Security-Policy"))
	}
	fa, err := parseFrameAncestors("https://docs.example.com, 'self' http://localhost:3000/")
	if err != nil {
		t.Fatal(err)
	}
	r = do(t, mustServer(t, serverConfig{frameAncestors: fa}), "GET", "/")
	csp := r.hdr.Get("Content-Security-Policy")
	if r.hdr.Get("X-Frame-Options") != "" || !strings.HasSuffix(csp, "frame-ancestors https://docs.example.com 'self' http://localhost:3000") {
		t.Errorf("embedding headers: XFO %q, CSP %q", r.hdr.Get("X-Frame-Options"), csp)
	}
	for _, bad := range []string{"docs.example.com", "javascript:alert(1)", "https://a.com/path", "https://a.com;script-src *", "https://u@a.com", "'unsafe-inline'", "ftp://a.com"} {
		if _, err := parseFrameAncestors(bad); err == nil || !strings.Contains(err.Error(), "--frame-ancestors") {
			t.Errorf("parseFrameAncestors(%q) = %v, want an error naming the flag", bad, err)
		}
	}
}

func mustServer(t *testing.T, cfg serverConfig) http.Handler {
	t.Helper()
	h, _ := newServer(cfg, fakeWeb(), fakeStatic())
	return h
}

// FuzzServerFlags: the two flags that reach headers and routes never yield
// a value that could break a header or escape the prefix.
func FuzzServerFlags(f *testing.F) {
	for _, s := range []string{"https://docs.example.com", "'self',http://localhost:3000", "/pg", "a/../b", "https://a.com;x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if fa, err := parseFrameAncestors(s); err == nil {
			for _, o := range fa {
				if strings.ContainsAny(o, ";,\"\r\n ") || (o != "'self'" && strings.Contains(o, "'")) {
					t.Fatalf("parseFrameAncestors(%q) gave %q", s, o)
				}
			}
		}
		if p, err := cleanBasePath(s); err == nil && p != "" {
			if !strings.HasPrefix(p, "/") || strings.Contains(p, "..") && strings.Contains("/"+p+"/", "/../") || strings.ContainsAny(p, "?#\r\n") {
				t.Fatalf("cleanBasePath(%q) = %q", s, p)
			}
		}
	})
}
