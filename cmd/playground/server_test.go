//go:build !wasm

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/static"
)

func init() { app.Register() } // the go-app handler serves only routed pages

// fakeWasm stands for app.wasm: compressible, so br and gzip copies are
// smaller and kept.
var fakeWasm = bytes.Repeat([]byte("\x00asm raw wasm bytes, uncompressed; "), 64)

// fakeImportWasm stands for web/import.wasm, the Import panel's readers.
var fakeImportWasm = bytes.Repeat([]byte("\x00asm the readers, uncompressed; "), 48)

// fakeWeb is a built web/ directory with real br and gzip copies.
func fakeWeb() fstest.MapFS {
	br, gz := compress(fakeWasm)
	ibr, igz := compress(fakeImportWasm)
	return fstest.MapFS{
		"README.md":      {Data: []byte("readme")},
		"app.wasm":       {Data: fakeWasm},
		"app.wasm.br":    {Data: br},
		"app.wasm.gz":    {Data: gz},
		"import.wasm":    {Data: fakeImportWasm},
		"import.wasm.br": {Data: ibr},
		"import.wasm.gz": {Data: igz},
		"web.go":         {Data: []byte("package web")},
	}
}

// fakeIconTime is icon.svg's own modification time (embedded files have
// none; a MapFS can).
var fakeIconTime = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func fakeStatic() fstest.MapFS {
	return fstest.MapFS{
		"playground.css":          {Data: bytes.Repeat([]byte("body { margin: 0 auto; }\n"), 40)},
		"icon.svg":                {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` + strings.Repeat(`<rect width="8" height="8"/>`, 10) + `</svg>`), ModTime: fakeIconTime},
		"chart.css":               {Data: []byte(".chart { fill: none; }")},
		"icon-192.png":            {Data: []byte("png")},
		"icon-512.png":            {Data: []byte("large png")},
		"embed.js":                {Data: []byte("document.currentScript;")},
		"lessons/en/01.txt":       {Data: []byte("Lesson 1")},
		"lessons/ru/01.txt":       {Data: []byte("Урок 1")},
		"shots/screenshot-ru.png": {Data: []byte("another screenshot")},
		"screenshot.png":          {Data: []byte("a screenshot for the README")},
		"static.go":               {Data: []byte("package static")},
		"README.md":               {Data: []byte("readme")},
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
	if r.code != 200 || r.hdr.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /: %d %q", r.code, r.hdr.Get("Content-Type"))
	}
	for _, want := range []string{
		`href="/web/static/playground.css"`,
		`href="/web/static/icon.svg"`,
		`src="/wasm_exec.js"`,
		`src="/app.js"`,
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

	js := do(t, h, "GET", "/app.js")
	for _, want := range []string{`"/web/app.wasm"`, `const goappWasmContentLength = "` + strconv.Itoa(len(fakeWasm)) + `"`, `"GOAPP_VERSION":"` + info.version + `"`} {
		if !strings.Contains(js.body, want) {
			t.Errorf("app.js lacks %s", want)
		}
	}
	if js.hdr.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("app.js Content-Type %q", js.hdr.Get("Content-Type"))
	}
	if js.hdr.Get("Etag") == r.hdr.Get("Etag") {
		t.Errorf("app.js and the page share the ETag %s: each file needs its own", js.hdr.Get("Etag"))
	}
	if r := do(t, h, "GET", "/wasm_exec.js"); r.code != 200 || !strings.Contains(r.body, "Go") {
		t.Errorf("wasm_exec.js: %d", r.code)
	}
	man := do(t, h, "GET", "/manifest.webmanifest").body
	if strings.Contains(man, "http") || !strings.Contains(man, "/web/static/icon-512.png") {
		t.Errorf("manifest icons are not local: %s", man)
	}
	for _, path := range []string{"/no-such-page", "/index.html", "/robots.txt", "/" + info.version + "/app.js"} {
		if r := do(t, h, "GET", path); r.code != 404 {
			t.Errorf("GET %s: %d, want 404", path, r.code)
		}
	}
}

// TestPagesAreAllRoutes: the server renders the pages listed in pages; go-app's
// own static site generator renders every route app.Register made, so a new
// route that pages lacks shows here.
func TestPagesAreAllRoutes(t *testing.T) {
	dir := t.TempDir()
	if err := goapp.GenerateStaticWebsite(dir, app.NewHandler("test", 0, nil)); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, "/"+strings.TrimSuffix(strings.TrimSuffix(rel, ".html"), "index"))
		}
		return nil
	})
	if !slices.Equal(got, pages) {
		t.Errorf("go-app renders the routes %q, the server the pages %q: add them to pages", got, pages)
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
		if got := r.hdr.Get("Permissions-Policy"); got != permissionsPolicy {
			t.Errorf("%s: Permissions-Policy %q", path, got)
		}
	}
	// 304s carry them too.
	r := do(t, h, "GET", "/")
	if nm := do(t, h, "GET", "/", "If-None-Match", r.hdr.Get("Etag")); nm.code != 304 || nm.hdr.Get("Permissions-Policy") == "" {
		t.Errorf("304: %d, Permissions-Policy %q", nm.code, nm.hdr.Get("Permissions-Policy"))
	}
}

// TestPermissionsPolicy: every feature is denied but writing the share
// link to the clipboard from the page's own origin.
func TestPermissionsPolicy(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range strings.Split(permissionsPolicy, ", ") {
		feature, allow, ok := strings.Cut(d, "=")
		if !ok || seen[feature] {
			t.Errorf("directive %q: want feature=(...) once per feature", d)
		}
		seen[feature] = true
		want := "()"
		if feature == "clipboard-write" {
			want = "(self)"
		}
		if allow != want {
			t.Errorf("%s=%s, want %s", feature, allow, want)
		}
	}
	for _, f := range []string{"camera", "microphone", "geolocation", "usb", "payment", "clipboard-read", "fullscreen", "sync-xhr"} {
		if !seen[f] {
			t.Errorf("Permissions-Policy does not deny %s", f)
		}
	}
}

func TestWasmEncoding(t *testing.T) {
	web := fakeWeb()
	br, gz, raw := string(web["app.wasm.br"].Data), string(web["app.wasm.gz"].Data), string(fakeWasm)
	h, _ := newServer(serverConfig{}, web, fakeStatic())
	for _, tc := range []struct {
		accept, encoding, body string
	}{
		{"gzip, deflate, br, zstd", "br", br}, // Chromium
		{"br", "br", br},
		{"gzip", "gzip", gz},
		{"br;q=0, gzip", "gzip", gz},
		{"BR;Q=0.5", "br", br},
		{"*", "br", br},
		{"*;q=0, gzip", "gzip", gz},
		{"", "", raw},
		{"identity", "", raw},
		{"gzip;q=0, br;q=0", "", raw},
	} {
		for _, path := range []string{"/web/app.wasm", "/app.wasm"} {
			r := do(t, h, "GET", path, "Accept-Encoding", tc.accept)
			if r.code != 200 || r.body != tc.body || r.hdr.Get("Content-Encoding") != tc.encoding {
				t.Errorf("%s Accept-Encoding %q: %d %d bytes encoding %q; want %d bytes encoding %q",
					path, tc.accept, r.code, len(r.body), r.hdr.Get("Content-Encoding"), len(tc.body), tc.encoding)
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
	if r.code != 200 || r.body != "" || r.hdr.Get("Content-Length") != strconv.Itoa(len(br)) {
		t.Errorf("HEAD: %d body %q length %q", r.code, r.body, r.hdr.Get("Content-Length"))
	} // The Import panel's readers, a program of their own, as app.wasm.
	for accept, want := range map[string]string{"br": string(web["import.wasm.br"].Data), "gzip": string(web["import.wasm.gz"].Data), "": string(fakeImportWasm)} {
		r := do(t, h, "GET", "/web/import.wasm", "Accept-Encoding", accept)
		if r.code != 200 || r.body != want || r.hdr.Get("Content-Type") != "application/wasm" {
			t.Errorf("/web/import.wasm Accept-Encoding %q: %d %d bytes %q", accept, r.code, len(r.body), r.hdr.Get("Content-Type"))
		}
	}
}

// TestStaleCompressedWasm: a .br or .gz that is not app.wasm compressed
// (an older build) is never served.
func TestStaleCompressedWasm(t *testing.T) {
	web := fakeWeb()
	oldBr, oldGz := compress([]byte("\x00asm an older build"))
	web["app.wasm.gz"] = &fstest.MapFile{Data: oldGz}
	web["app.wasm.br"] = &fstest.MapFile{Data: oldBr}
	h, info := newServer(serverConfig{}, web, fakeStatic())
	if len(info.warnings) != 2 || !strings.Contains(info.warnings[0], "app.wasm.br") {
		t.Errorf("warnings %q, want one for each stale copy", info.warnings)
	}
	if r := do(t, h, "GET", "/web/app.wasm", "Accept-Encoding", "br, gzip"); r.body != string(fakeWasm) || r.hdr.Get("Content-Encoding") != "" {
		t.Errorf("with stale copies: encoding %q, %d bytes; want app.wasm itself", r.hdr.Get("Content-Encoding"), len(r.body))
	}
}

func TestStaticFiles(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for path, want := range map[string]string{
		"/web/static/playground.css":    "text/css; charset=utf-8",
		"/web/static/icon.svg":          "image/svg+xml",
		"/web/static/icon-192.png":      "image/png",
		"/web/static/embed.js":          "text/javascript; charset=utf-8",
		"/web/static/lessons/ru/01.txt": "text/plain; charset=utf-8",
	} {
		if r := do(t, h, "GET", path); r.code != 200 || r.hdr.Get("Content-Type") != want {
			t.Errorf("GET %s: %d %q, want 200 %q", path, r.code, r.hdr.Get("Content-Type"), want)
		}
	}
	for _, path := range []string{
		"/web/static/static.go", "/web/static/README.md", "/web/static/", "/web/static/..%2fweb.go",
		"/web/web.go", "/web/README.md", "/web/app.wasm.br", "/web/static/nope.css",
		"/web/static/screenshot.png", "/web/static/shots/screenshot-ru.png", // the README's, not the page's
		"/web/static/lessons/", "/web/static/lessons/en", "/web/static/lessons/en/../../static.go",
		"/web//static/icon.svg", "/web/static/./icon.svg", "//web/static/icon.svg",
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

// TestBasePaths serves under each prefix, including those that look like
// go-app's own /web/ resources, and follows every URL the page, app.js, the
// worker and the manifest name: each must answer under the prefix. It uses
// the real static/ files, so a file the page or the worker names (the
// worker caches its list all or nothing) and static/ lacks shows here.
func TestBasePaths(t *testing.T) {
	for _, prefix := range []string{"", "/pg", "/web", "/w", "/we", "/web/static", "/a/b"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			h, info := newServer(serverConfig{prefix: prefix}, fakeWeb(), static.FS)
			page := do(t, h, "GET", prefix+"/")
			if page.code != 200 || !strings.HasPrefix(page.hdr.Get("Content-Type"), "text/html") {
				t.Fatalf("GET %s/: %d %q", prefix, page.code, page.hdr.Get("Content-Type"))
			}
			urls := map[string]string{}
			for _, m := range regexp.MustCompile(`(?:href|src)="([^"]*)"`).FindAllStringSubmatch(page.body, -1) {
				u := m[1]
				if strings.HasPrefix(u, "?") {
					u = prefix + "/" + u // a link to the page itself, as the browser resolves it
				}
				urls[u] = "the page"
			}
			js := do(t, h, "GET", prefix+"/app.js").body
			for _, want := range []string{`"GOAPP_ROOT_PREFIX":"` + prefix + `/"`, `"GOAPP_STATIC_RESOURCES_URL":"` + prefix + `/web"`} {
				if !strings.Contains(js, want) {
					t.Errorf("app.js lacks %s", want)
				}
			}
			for _, m := range regexp.MustCompile(`"(/[^"]*\.(?:wasm|js))"`).FindAllStringSubmatch(js, -1) {
				urls[m[1]] = "app.js"
			}
			worker := do(t, h, "GET", prefix+"/app-worker.js").body
			_, list, _ := strings.Cut(worker, "const resourcesToCache = ")
			list, _, _ = strings.Cut(list, ";")
			var cached []string
			if err := json.Unmarshal([]byte(list), &cached); err != nil || len(cached) < 8 {
				t.Fatalf("the worker's resources %q: %v", list, err)
			}
			for _, u := range cached {
				urls[u] = "the worker"
			}
			var man struct {
				StartURL string `json:"start_url"`
				Icons    []struct{ Src string }
			}
			json.Unmarshal([]byte(do(t, h, "GET", prefix+"/manifest.webmanifest").body), &man)
			urls[man.StartURL] = "the manifest"
			for _, icon := range man.Icons {
				urls[icon.Src] = "the manifest"
			}
			if len(urls) < 10 {
				t.Errorf("only %d URLs found: %v", len(urls), urls)
			}
			for u, from := range urls {
				if !strings.HasPrefix(u, prefix+"/") {
					t.Errorf("%s names %s, outside %s/", from, u, prefix)
				}
				if r := do(t, h, "GET", u, "Accept-Encoding", "br"); r.code != 200 {
					t.Errorf("%s names %s: %d", from, u, r.code)
				}
			}
			if r := do(t, h, "GET", prefix+"/web/app.wasm", "Accept-Encoding", "br"); r.hdr.Get("Content-Type") != "application/wasm" || r.body != string(fakeWeb()["app.wasm.br"].Data) {
				t.Errorf("GET %s/web/app.wasm: %q", prefix, r.hdr.Get("Content-Type"))
			}
			if r := do(t, h, "GET", prefix+"/healthz"); r.code != 200 || r.body != "ok "+info.version+"\n" {
				t.Errorf("GET %s/healthz: %d %q", prefix, r.code, r.body)
			}
			if prefix == "" {
				return
			}
			for _, path := range []string{"/", "/healthz", "/app.js", prefix + "x/", prefix + "/web/static/static.go"} {
				if r := do(t, h, "GET", path); r.code != 404 {
					t.Errorf("GET %s: %d, want 404", path, r.code)
				}
			}
			if r := do(t, h, "GET", prefix); r.code != 301 || r.hdr.Get("Location") != prefix+"/" {
				t.Errorf("GET %s: %d Location %q, want 301 to %s/", prefix, r.code, r.hdr.Get("Location"), prefix)
			}
			if r := do(t, h, "GET", prefix+"?base=2s&seed=3"); r.code != 301 || r.hdr.Get("Location") != prefix+"/?base=2s&seed=3" {
				t.Errorf("GET %s?query: %d Location %q, want the query kept", prefix, r.code, r.hdr.Get("Location"))
			}
		})
	}
}

func TestMissingWasm(t *testing.T) {
	h, info := newServer(serverConfig{}, fstest.MapFS{"README.md": {Data: []byte("readme")}}, fakeStatic())
	if info.hasWasm || info.renders != 0 {
		t.Fatalf("hasWasm %v, %d renders with no app.wasm", info.hasWasm, info.renders)
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

// TestVersionFollowsEveryAsset: go-app's version (the worker's cache name)
// and each file's ETag follow content; a CSS-only change reaches browsers.
func TestVersionFollowsEveryAsset(t *testing.T) {
	base, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	_, same := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	_, info := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	if info.version != same.version {
		t.Fatalf("versions %q, %q of the same files: want a content hash", info.version, same.version)
	}
	newWasm := fakeWeb()
	newWasm["app.wasm"] = &fstest.MapFile{Data: []byte("\x00asm a newer build")}
	delete(newWasm, "app.wasm.br")
	delete(newWasm, "app.wasm.gz")
	newCSS := fakeStatic()
	newCSS["playground.css"] = &fstest.MapFile{Data: []byte("body { margin: 1px; }")}
	newIcon := fakeStatic()
	newIcon["icon-192.png"] = &fstest.MapFile{Data: []byte("png 2")}
	for name, c := range map[string]struct{ web, static fstest.MapFS }{
		"app.wasm": {newWasm, fakeStatic()}, "CSS": {fakeWeb(), newCSS}, "icon": {fakeWeb(), newIcon},
	} {
		h, got := newServer(serverConfig{}, c.web, c.static)
		if got.version == info.version {
			t.Errorf("a new %s keeps the version %s", name, got.version)
		}
		if w := do(t, h, "GET", "/app-worker.js").body; !strings.Contains(w, `"app-" + "`+got.version+`"`) {
			t.Errorf("new %s: the service worker's cache is not named after the version", name)
		}
		if w := do(t, h, "GET", "/app-worker.js"); w.hdr.Get("Etag") == do(t, base, "GET", "/app-worker.js").hdr.Get("Etag") {
			t.Errorf("new %s: app-worker.js keeps its ETag: the browser would not update the worker", name)
		}
	}
	h, _ := newServer(serverConfig{}, fakeWeb(), newCSS)
	for path, changed := range map[string]bool{"/web/static/playground.css": true, "/web/app.wasm": false, "/web/static/icon.svg": false, "/": false} {
		a, b := do(t, base, "GET", path).hdr.Get("Etag"), do(t, h, "GET", path).hdr.Get("Etag")
		if (a != b) != changed {
			t.Errorf("CSS change: %s ETag %s -> %s, want changed %v", path, a, b, changed)
		}
	}
}

func TestCleanBasePath(t *testing.T) {
	for in, want := range map[string]string{"": "", "/": "", "pg": "/pg", "/pg/": "/pg", "/a/b": "/a/b", "/web": "/web"} {
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
	for _, logged := range []bool{false, true} {
		args := []string{"--addr", "127.0.0.1:0", "--base-path", "/pg/"}
		if logged {
			args = append(args, "--log")
		}
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		var stderr syncBuffer
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, args, pw, &stderr)
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
		res, err = http.Get(url + "?c.body=" + strings.Repeat("a", maxHeaderBytes))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("GET of a 64 KB link: %d", res.StatusCode)
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
		if got := strings.Count(stderr.String(), `"/pg/web/static/icon.svg"`); logged && got != 2 || !logged && got != 0 {
			t.Errorf("--log %v: %d log lines for the icon in stderr %q", logged, got, stderr.String())
		}
		if got := strings.Count(stderr.String(), `GET "/pg/" 431 `); logged && got != 1 || !logged && got != 0 {
			t.Errorf("--log %v: %d log lines for the 64 KB link in stderr %q", logged, got, stderr.String())
		}
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--base-path", "/a/../b"}, {"--log=maybe"}} {
		var out, errb bytes.Buffer
		if err := Run(context.Background(), args, &out, &errb); err != errUsage {
			t.Errorf("Run(%q) = %v, want errUsage", args, err)
		}
	}
}

// TestPickEncoding: the representation is the one the client weighs
// highest (RFC 9110 12.5.3), br on a tie; an entry with a q that is not a
// qvalue counts for nothing.
func TestPickEncoding(t *testing.T) {
	a := newAsset("text/css; charset=utf-8", bytes.Repeat([]byte("body { margin: 0 auto; }\n"), 40), time.Time{})
	if len(a.reps) != 3 {
		t.Fatalf("%d representations, want identity, br, gzip", len(a.reps))
	}
	for _, tc := range []struct{ in, want, gzipOnly string }{
		{"", "", ""},
		{"gzip, deflate, br, zstd", "br", "gzip"},
		{"br;q=0", "", ""},
		{"br; q=0.001", "br", ""},
		{"*", "br", "gzip"},
		{"*;q=0, br", "br", ""},
		{"gzip;q=0, *", "br", ""},
		{" GZIP ", "gzip", "gzip"},
		{"gzip;q=0.000", "", ""},
		{"x-gzip, brotli", "", ""},
		{"br;q=0.5, gzip;q=1", "gzip", "gzip"},
		{"br;q=0.5, gzip;q=0.8, identity", "", ""},
		{"br;q=1.0, gzip;Q=0.9", "br", "gzip"},
		{"br;q=abc, gzip;q=0.1", "gzip", "gzip"},
		{"br;q=abc", "", ""},
		{"br;q=2", "", ""},
		{"br;q=1.001, gzip", "gzip", "gzip"},
		{"br;q=0.0001, gzip", "gzip", "gzip"},
		{"br;q=.5", "", ""},
		{"br;q=0.5, identity;q=0.6", "", ""},
		{"identity;q=0, br;q=0.2", "br", ""},
		{"br, br;q=0", "br", ""},
	} {
		if got := a.pick(tc.in).coding; got != tc.want {
			t.Errorf("Accept-Encoding %q: %q, want %q", tc.in, got, tc.want)
		}
		gz := ""
		if codingQ(tc.in, "gzip", 0) > 0 && codingQ(tc.in, "gzip", 0) >= identityQ(tc.in) {
			gz = "gzip"
		}
		if gz != tc.gzipOnly {
			t.Errorf("Accept-Encoding %q, gzip or nothing: %q, want %q", tc.in, gz, tc.gzipOnly)
		}
	}
}

func TestParseQValue(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "1": 1000, "0.5": 500, "0.125": 125, "1.000": 1000, "0.": 0, "1.": 1000, "0.05": 50} {
		if q, ok := parseQValue(in); !ok || q != want {
			t.Errorf("parseQValue(%q) = %d, %v; want %d", in, q, ok, want)
		}
	}
	for _, in := range []string{"", "abc", "2", "1.5", "1.001", "0.0001", ".5", "-0", "0,5", "1e0", "01", "0.5x"} {
		if q, ok := parseQValue(in); ok {
			t.Errorf("parseQValue(%q) = %d, want refused", in, q)
		}
	}
}

func FuzzCodingQ(f *testing.F) {
	for _, s := range []string{"gzip, br;q=0.5", "*;q=0", "br;q=abc", "identity;q=0.001, *;q=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		for _, c := range []string{"br", "gzip", "identity"} {
			if q := codingQ(h, c, -7); q != -7 && (q < 0 || q > 1000) {
				t.Fatalf("codingQ(%q, %s) = %d, outside 0..1000", h, c, q)
			}
		}
	})
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
	for _, bad := range []string{"docs.example.com", "javascript:alert(1)", "https://a.com/path", "https://a.com;script-src *", "https://u@a.com", "'unsafe-inline'", "ftp://a.com",
		"https://a.com:99999", "https://a.com:0", "https://a.com:", "http://localhost:65536", "https://[::1]:70000"} {
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

// FuzzServerFlags: the flags that reach headers and routes never yield a
// value that could break a header or escape the prefix, and a command line
// of any words parses or is refused, never panics.
func FuzzServerFlags(f *testing.F) {
	for _, s := range []string{"https://docs.example.com", "'self',http://localhost:3000", "/pg", "a/../b", "https://a.com;x",
		"--log", "--log=false --base-path /web", "--frame-ancestors https://a.com --log=true --addr 127.0.0.1:0", "--base-path /web/static -log"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAncestors := func(fa []string) {
			for _, o := range fa {
				if strings.ContainsAny(o, ";,\"\r\n ") || (o != "'self'" && strings.Contains(o, "'")) {
					t.Fatalf("%q gave the origin %q", s, o)
				}
			}
		}
		checkPrefix := func(p string) {
			if p != "" && (!strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains("/"+p+"/", "/../") || strings.ContainsAny(p, "?#\r\n")) {
				t.Fatalf("%q gave the base path %q", s, p)
			}
		}
		if fa, err := parseFrameAncestors(s); err == nil {
			checkAncestors(fa)
		}
		if p, err := cleanBasePath(s); err == nil {
			checkPrefix(p)
		}
		if o, err := parseFlags(strings.Fields(s), io.Discard); err == nil {
			checkAncestors(o.cfg.frameAncestors)
			checkPrefix(o.cfg.prefix)
		}
	})
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
