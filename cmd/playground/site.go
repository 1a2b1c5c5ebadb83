//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/app/i18n"
)

// pages are the routes app.Register gives the go-app router. Each is
// rendered once, when the server starts, with an empty query: the page's
// state comes from location.search in the browser (OnNav), so the bytes do
// not depend on the query. Rendering per request would cost about 110 ms of
// CPU and 1.25 MB for one hostile link, and 1.8 GB for 200 of them at once. A
// lesson's or a view's link gets that page instead (variantPages): a
// bounded set, each rendered once.
var pages = []string{"/"}

// goappFiles are the scripts, style sheet and manifest go-app's handler
// makes; versioned ones embed Handler.Version (app.js in its environment, the
// worker in its cache name), so they are made after the version is known.
var (
	goappFiles     = []string{"/wasm_exec.js", "/app.css", "/manifest.webmanifest"}
	versionedFiles = []string{"/app.js", "/app-worker.js"}
)

// staticTypes are the file types served from static/ and its
// subdirectories: style sheets, scripts, icons and the lessons' text, never
// the Go source or README. The README's screenshots (screenshot*.png) are
// not served either.
var staticTypes = map[string]string{
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".webp": "image/webp",
}

// compressible content types get br and gzip copies.
func compressible(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	return strings.HasPrefix(ct, "text/") || ct == "image/svg+xml" || ct == "application/manifest+json" || ct == "application/json"
}

// site is every file the server answers with, made once by newSite: the
// pages rendered by go-app, its scripts and manifest, app.wasm in each
// encoding and the assets of static/. A request only picks bytes from it;
// nothing is rendered, read or compressed again. Safe for concurrent use
// once built (read only).
type site struct {
	files    map[string]*asset // by URL path, base path included
	aliases  map[string]bool   // paths in files that are a second name for another (go-app's /app.wasm)
	version  string            // hash over every served file: go-app's Handler.Version
	hasWasm  bool
	wasmSize int64 // uncompressed bytes of app.wasm
	renders  int   // page renders by go-app's handler: one per page and language when wasm is built
	// ruPages are the pages rendered for ?lang=ru, by the same paths as
	// their English files.
	ruPages map[string]*asset
	// variants are the lesson and view pages, rendered on first request.
	variants *variantPages
	warnings []string
}

// variantPages are the pages of a lesson or a view (app.PageVariant) in
// each language: without them every link got the whole page, which the app
// then replaced with the lesson or the view when it started (the lesson's
// text came last and moved the page). Each is rendered on its first
// request and kept; the set is bounded (app.PageVariants, two languages),
// so no link costs more than those renders, ever. Safe for concurrent use.
type variantPages struct {
	en, ru  http.Handler // go-app's handlers of the whole page's renders
	builtAt time.Time
	mu      sync.Mutex // held while rendering: one render at a time
	pages   map[string]*asset
}

// page is the variant's page in language lang (a code), or nil when it
// could not be rendered (the whole page is sent then).
func (v *variantPages) page(variant, lang string) *asset {
	key := lang + "?" + variant
	v.mu.Lock()
	defer v.mu.Unlock()
	if a, ok := v.pages[key]; ok {
		return a
	}
	h, q := v.en, variant
	if lang == i18n.Ru.Code() {
		h, q = v.ru, q+"&"+langQuery(i18n.Ru)
	}
	var a *asset
	if body, ct, err := render(h, "/?"+q); err == nil {
		a = newAsset(ct, pageHTML(body), v.builtAt)
	}
	v.pages[key] = a
	return a
}

// resolver is go-app's ResourceResolver for a base path: every local path
// gets the prefix, so the page, app.js, the worker and the manifest all point
// under it; go-app's browser side strips it again (GOAPP_ROOT_PREFIX is
// Resolve("/")).
type resolver string

func (prefix resolver) Resolve(location string) string {
	switch {
	case location == "" || location == "/":
		return string(prefix) + "/"
	case strings.HasPrefix(location, "/"):
		return string(prefix) + location
	case location == "web" || strings.HasPrefix(location, "web/"):
		return string(prefix) + "/" + location
	default: // remote URLs, fragments, relative links: unchanged
		return location
	}
}

// placeholderVersion renders the files that do not embed the version; newSite
// checks that none of them does.
const placeholderVersion = "version-placeholder-5d1c0b7e"

// newSite builds the site under prefix from the embedded web/ (app.wasm and
// its .br and .gz copies) and static/ directories. builtAt is the
// Last-Modified of files that carry no time of their own (embedded files
// have none).
func newSite(prefix string, webFS, staticFS fs.FS, builtAt time.Time) (*site, error) {
	s := &site{files: map[string]*asset{}, aliases: map[string]bool{}, ruPages: map[string]*asset{}, version: "no-wasm"}
	plain := map[string][]byte{} // URL path -> identity bytes, for the version

	add := func(urlPath, contentType string, body []byte, mod time.Time, encoded ...rep) {
		if mod.IsZero() {
			mod = builtAt
		}
		a := newAsset(contentType, body, mod, encoded...)
		s.files[prefix+urlPath] = a
		plain[urlPath] = body
	}

	err := fs.WalkDir(staticFS, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ct, ok := staticTypes[path.Ext(name)]
		if !ok || !e.Type().IsRegular() || strings.HasPrefix(path.Base(name), "screenshot") {
			return nil
		}
		body, mod, err := readFile(staticFS, name)
		if err != nil {
			return err
		}
		add("/web/static/"+name, ct, body, mod)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static files: %w", err)
	}

	// wasmFile adds web/NAME and its .br and .gz copies (those that
	// decode to it), and gives its bytes.
	wasmFile := func(name string) []byte {
		wasm, wasmMod, err := readFile(webFS, name)
		if err != nil || len(wasm) == 0 {
			return nil
		}
		var encoded []rep
		for _, enc := range []struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
			body, _, err := readFile(webFS, name+enc.suffix)
			if err != nil {
				continue
			}
			if err := sameContent(enc.coding, body, wasm); err != nil {
				s.warnings = append(s.warnings, fmt.Sprintf("web/%s%s is not %s compressed (%v): not served; rebuild it with `make wasm`", name, enc.suffix, name, err))
				continue
			}
			encoded = append(encoded, newRep(enc.coding, body))
		}
		add("/web/"+name, "application/wasm", wasm, wasmMod, encoded...)
		return wasm
	}
	wasm := wasmFile("app.wasm")
	if wasm == nil {
		return s, nil // pages answer 503 until it is built
	}
	s.hasWasm, s.wasmSize = true, int64(len(wasm))
	s.files[prefix+"/app.wasm"] = s.files[prefix+"/web/app.wasm"] // go-app's short name
	s.aliases[prefix+"/app.wasm"] = true
	// The Import panel's readers; without them the panel says it could
	// not load them, and the rest of the page works.
	if wasmFile("import.wasm") == nil {
		s.warnings = append(s.warnings, warnNoImport)
	}

	h := app.NewHandler(placeholderVersion, s.wasmSize, resolver(prefix))
	for _, p := range pages {
		body, ct, err := render(h, p)
		if err != nil {
			return nil, err
		}
		s.renders++
		add(p, ct, pageHTML(body), time.Time{})
	}
	// The same pages for ?lang=ru: the Russian text and lang="ru" from the
	// first byte, not only once the app has started.
	hru := app.NewHandler(placeholderVersion, s.wasmSize, resolver(prefix))
	hru.Lang, hru.Title = i18n.Ru.Code(), i18n.Ru.T("page.doc-title")
	for _, p := range pages {
		body, ct, err := render(hru, p+"?"+langQuery(i18n.Ru))
		if err != nil {
			return nil, err
		}
		s.renders++
		body = pageHTML(body)
		s.ruPages[prefix+p] = newAsset(ct, body, builtAt)
		plain[p+"?"+langQuery(i18n.Ru)] = body
	}
	s.variants = &variantPages{en: h, ru: hru, builtAt: builtAt, pages: map[string]*asset{}}
	for _, p := range goappFiles {
		body, ct, err := render(h, p)
		if err != nil {
			return nil, err
		}
		if p == "/manifest.webmanifest" {
			if body, err = scopeManifest(body, prefix); err != nil {
				return nil, err
			}
		}
		add(p, ct, body, time.Time{})
	}
	for p, body := range plain {
		if bytes.Contains(body, []byte(placeholderVersion)) {
			return nil, fmt.Errorf("%s embeds go-app's version: render it after the version is known", p)
		}
	}

	s.version = versionOf(plain)
	h = app.NewHandler(s.version, s.wasmSize, resolver(prefix))
	for _, p := range versionedFiles {
		body, ct, err := render(h, p)
		if err != nil {
			return nil, err
		}
		if p == "/app.js" {
			if body, err = streamWasm(body); err != nil {
				return nil, err
			}
		}
		add(p, ct, body, time.Time{})
	}
	return s, nil
}

// wasmFetch is go-app's loader fetching and compiling app.wasm in app.js.
var wasmFetch = regexp.MustCompile(`instantiateStreaming\(\s*fetchWithProgress\(("[^"]*/web/app\.wasm"), showProgress\),\s*go\.importObject\s*\)`)

// streamWasm rewrites go-app's loader in app.js in three ways.
//
// It gives app.wasm's response to the browser's streaming compiler without
// go-app's progress count: go-app reads it through a JavaScript stream that
// sets a progress label on every chunk, which holds the main thread for
// 80-160 ms of CPU while the page is already shown (the handler's loading
// label has no percentage).
//
// It compiles app.wasm once for the frames of one page: a docs page with
// several embeds holds several frames of this origin in one renderer, and
// each would fetch, stream and compile the 9.6 MB module on the same two
// cores as the others' starts (sharedWasm).
//
// It starts the Go program in a task of its own: go-app's loader runs it
// in the promise callback of the compile's end, a task that would hold the
// compile's last steps and the runtime's start together (120-155 ms).
// The instantiation has a task of its own too (sharedWasm), and the start's
// steps are marked on the page's performance timeline.
func streamWasm(appJS []byte) ([]byte, error) {
	if n := len(wasmFetch.FindAllIndex(appJS, -1)); n != 1 {
		return nil, fmt.Errorf("app.js: %d compiles of app.wasm through fetchWithProgress, want 1 (go-app's loader changed: see streamWasm)", n)
	}
	if n := bytes.Count(appJS, []byte(goRun)); n != 1 {
		return nil, fmt.Errorf("app.js: %d calls %s, want 1 (go-app's loader changed: see streamWasm)", n, goRun)
	}
	appJS = bytes.Replace(appJS, []byte(goRun), []byte("await new Promise(r => setTimeout(r)); performance.mark(\""+markRun+"\"); "+goRun), 1)
	// go-app decodes GOAPP_INTERNAL_URLS as JSON on the first navigation,
	// in the first render's task: the program's first use of
	// encoding/json's decoder (4% of that task's profile) to read "null".
	// Left out, the variable reads "", which json.Unmarshal refuses at
	// once, and the list is as empty.
	appJS = bytes.Replace(appJS, []byte(`"GOAPP_INTERNAL_URLS":"null",`), nil, 1)
	appJS = wasmFetch.ReplaceAll(appJS, []byte("sharedWasm($1, go.importObject)"))
	return append(appJS, sharedWasm...), nil
}

// goRun is go-app's loader starting the program once app.wasm is compiled.
const goRun = "go.run(wasm.instance);"

// The start's steps, as marks on the page's performance timeline (a
// browser's performance panel shows them, and the browser tests split the
// start's tasks by them): app.wasm compiled, instantiated, and the Go
// program started (go.run); the wasm main marks its own (main_wasm.go).
const (
	markCompiled     = "backoff:compiled"
	markInstantiated = "backoff:instantiated"
	markRun          = "backoff:run"
)

// sharedWasm compiles app.wasm, or takes the compile a sibling frame of the
// same origin and version has started (the frames of one page run on one
// thread, so the first frame's script has always offered its compile by the
// time the next one looks). A sibling removed before its compile ends is
// noticed (its window closes) and the frame compiles on its own.
//
// On a first visit a worker fetches and compiles the module
// (static/compile-worker.js) and posts it to the page: on the page's own
// thread the bytes' arrival and the compiler's steps were tasks of 10-50 ms
// of CPU each, and its end (wasm.FinishStreaming) 35-50 ms; with the
// browser's developer tools attached, as Lighthouse is, the response's end
// was a task of 80-200 ms more (the network panel keeps a copy of bodies up
// to 20 MB). So the page has no preload of app.wasm either: its download
// would be the page thread's again. Where the worker cannot be had or
// fails, the page compiles the module itself, its bytes given to the
// compiler in slices of 128 KiB, a task each (in a few large chunks from a
// nearby host, each was a task of 50-110 ms). A page the service worker
// controls compiles the cached response as it is, so that the browser can
// use its code cache for app.wasm.
//
// The module is instantiated in a task after the compile's end: the
// browser ran the compile's last steps (wasm.FinishStreaming) and the
// instantiation (which copies the program's data into its memory) in one
// task, 70-90 ms of CPU on a loaded 2-core machine, the start's longest
// before the program's own.
const sharedWasm = `
async function sharedWasm(url, imports) {
  const key = goappEnv.GOAPP_VERSION + " " + url;
  let offered = null, from = null;
  try {
    for (let i = 0; i < parent.length && !offered; i++) {
      try {
        const f = parent[i], o = f !== window && f.backoffWasm;
        if (o && o.key === key) offered = o.module, from = f;
      } catch { /* a frame of another origin */ }
    }
  } catch { /* no parent to ask */ }
  const get = () => fetch(url).then(r => {
    if (!r.ok) throw new Error(url + ": HTTP " + r.status);
    return r;
  });
  const here = () => !WebAssembly.compileStreaming
    ? get().then(r => r.arrayBuffer()).then(b => WebAssembly.compile(b))
    : get().then(r => WebAssembly.compileStreaming(new Response(slices(r.body), {headers: {"Content-Type": "application/wasm"}})));
  const compile = () => navigator.serviceWorker && navigator.serviceWorker.controller && WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(get())
    : inWorker(new URL(url, location.href)).catch(here);
  let module;
  if (offered) {
    module = new Promise((resolve, reject) => {
      const watch = setInterval(() => from.closed && (clearInterval(watch), reject(new Error("the frame compiling app.wasm closed"))), 250);
      offered.then(m => (clearInterval(watch), resolve(m)), e => (clearInterval(watch), reject(e)));
    }).catch(compile);
  } else {
    module = compile();
  }
  window.backoffWasm = {key, module};
  const compiled = await module;
  performance.mark("` + markCompiled + `");
  await nextTask();
  const instance = await WebAssembly.instantiate(compiled, imports);
  performance.mark("` + markInstantiated + `");
  return {instance};
}

// inWorker compiles the module at address url in a worker of its own
// (compile-worker.js, beside the module's folder), which also runs the
// program's start and the page's first render there with the page's query
// and its lesson's text, if it carries one (the functions they call are
// then compiled when the page calls them),
// and resolves to it; it rejects where there are no workers, or the worker
// fails.
function inWorker(url) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("static/compile-worker.js", url));
    const end = (fn, v) => (w.terminate(), fn(v));
    w.onmessage = e => e.data && e.data.module ? (window.backoffWarmed = e.data.warmed, end(resolve, e.data.module)) : end(reject, new Error(e.data && e.data.error));
    w.onerror = e => end(reject, new Error("compile-worker.js: " + e.message));
    w.onmessageerror = () => end(reject, new Error("compile-worker.js: the module could not be passed"));
    const exec = document.querySelector('script[src$="wasm_exec.js"]');
    const ls = document.getElementById("` + app.LessonSourceID + `");
    const lesson = ls ? {id: ls.id, key: ls.dataset.key, body: ls.dataset.body} : null;
    w.postMessage({wasm: url.href, exec: exec && exec.src, query: location.search.slice(1), lesson});
  });
}

// nextTask resolves in a task of the browser's own: a message to itself,
// which the 4 ms clamp of nested timers does not delay.
function nextTask() {
  return new Promise(r => {
    const c = new MessageChannel();
    c.port1.onmessage = () => r();
    c.port2.postMessage(0);
  });
}

function slices(body) {
  const reader = body.getReader(), most = 128 << 10, task = nextTask;
  return new ReadableStream({
    async pull(out) {
      const {done, value} = await reader.read();
      if (done) return out.close();
      for (let i = 0; i < value.length; i += most) {
        await task();
        out.enqueue(value.subarray(i, i + most));
      }
    }
  }, {highWaterMark: 0});
}
`

// scopeManifest sets the manifest's scope to the base path. go-app writes
// "/" whatever the prefix: an installed playground at host/repo/ would then
// claim every page of the host (a code host's pages serve many projects
// from one origin).
func scopeManifest(manifest []byte, prefix string) ([]byte, error) {
	const goapp = `"scope":"/"`
	if bytes.Count(manifest, []byte(goapp)) != 1 {
		return nil, fmt.Errorf("go-app's manifest has no single %s to set the base path in: %s", goapp, manifest)
	}
	return bytes.Replace(manifest, []byte(goapp), []byte(`"scope":`+strconv.Quote(prefix+"/")), 1), nil
}

// versionOf hashes every file by path: any change to a page, script, style
// sheet, icon or app.wasm gives a new version, so go-app's worker (one cache
// per version) fetches everything again. A version from app.wasm alone kept
// a CSS-only change from ever reaching a browser.
func versionOf(files map[string][]byte) string {
	hash := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(hash, "%s\x00%d\x00", p, len(files[p]))
		hash.Write(files[p])
	}
	return hex.EncodeToString(hash.Sum(nil)[:8])
}

// render asks go-app's handler for one file, as a browser would.
func render(h http.Handler, urlPath string) (body []byte, contentType string, err error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, urlPath, nil))
	if rec.Code != http.StatusOK {
		return nil, "", fmt.Errorf("rendering %s: go-app answered %d", urlPath, rec.Code)
	}
	return rec.Body.Bytes(), contentTypeOf(urlPath, rec.Header().Get("Content-Type")), nil
}

// contentTypeOf names the types with their charset, which go-app omits.
func contentTypeOf(urlPath, fromGoApp string) string {
	switch {
	case strings.HasSuffix(urlPath, "/"):
		return "text/html; charset=utf-8"
	case strings.HasSuffix(urlPath, ".js"):
		return "text/javascript; charset=utf-8"
	case strings.HasSuffix(urlPath, ".css"):
		return "text/css; charset=utf-8"
	case strings.HasSuffix(urlPath, ".webmanifest"):
		return "application/manifest+json"
	}
	return fromGoApp
}

// startTag and attribute match go-app's HTML encoding: a tag name, then
// attributes as ` name` or ` name="Go-quoted value"`.
var (
	startTag  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?: [^\s="'<>/]+(?:="(?:[^"\\]|\\.)*")?)+)>`)
	attribute = regexp.MustCompile(` [^\s="'<>/]+(?:="(?:[^"\\]|\\.)*")?`)
)

// pageHTML is a page as go-app rendered it, made fit to send before the
// app starts: canonical, without false boolean attributes and without
// Open Graph URLs that name no host.
func pageHTML(page []byte) []byte {
	return hostlessMeta.ReplaceAll(canonicalHTML(page), nil)
}

// hostlessMeta matches go-app's og:url and og:image when its Handler has
// no Domain: "https://" alone, which a link preview cannot load. The server
// does not know the name it is reached by (a proxy or a CDN may stand in
// front), so it leaves them out.
var hostlessMeta = regexp.MustCompile(`<meta content="https://" property="og:(?:url|image)">`)

// langQuery is the query that asks for language l.
func langQuery(l i18n.Lang) string { return "lang=" + l.Code() }

// booleanAttrs are HTML's boolean attributes that go-app writes as
// name="false" when false: a browser reads any value as true, so with
// scripts off every <option selected="false"> would be selected (the last
// one shown) and every checkbox checked="false" checked.
var booleanAttrs = map[string]bool{
	"allowfullscreen": true, "async": true, "autofocus": true, "autoplay": true, "checked": true,
	"controls": true, "default": true, "defer": true, "disabled": true, "formnovalidate": true,
	"hidden": true, "inert": true, "ismap": true, "loop": true, "multiple": true, "muted": true,
	"nomodule": true, "novalidate": true, "open": true, "playsinline": true, "readonly": true,
	"required": true, "reversed": true, "selected": true,
}

// canonicalHTML sorts each start tag's attributes, drops the boolean
// ones written as ="false" and quotes values as HTML does. go-app writes
// attributes in map order, so two renders of one page differ in bytes (and
// so in ETag and version) though not in meaning; sorted, the page's bytes
// depend on its content alone, across restarts and replicas.
func canonicalHTML(page []byte) []byte {
	return startTag.ReplaceAllFunc(page, func(tag []byte) []byte {
		m := startTag.FindSubmatchIndex(tag)
		attrs := attribute.FindAll(tag[m[4]:m[5]], -1)
		slices.SortStableFunc(attrs, func(a, b []byte) int {
			an, _, _ := bytes.Cut(a, []byte("="))
			bn, _, _ := bytes.Cut(b, []byte("="))
			return bytes.Compare(an, bn)
		})
		out := append([]byte(nil), tag[:m[3]]...)
		for _, a := range attrs {
			name, v, hasValue := bytes.Cut(a[1:], []byte("="))
			if string(v) == `"false"` && booleanAttrs[string(name)] {
				continue
			}
			if !hasValue {
				out = append(out, a...)
				continue
			}
			out = append(append(append(out, ' '), name...), '=')
			out = appendHTMLValue(out, v)
		}
		return append(out, '>')
	})
}

// appendHTMLValue writes a Go-quoted attribute value as HTML quotes it.
// go-app writes values with strconv.Quote: a no-break space (the Russian
// durations') came out as the six characters \u00a0, and a quote inside a
// value as \", which ends the value early in HTML.
func appendHTMLValue(out, quoted []byte) []byte {
	v, err := strconv.Unquote(string(quoted))
	if err != nil {
		return append(out, quoted...)
	}
	out = append(out, '"')
	out = append(out, html.EscapeString(v)...)
	return append(out, '"')
}

// readFile reads name and its modification time (zero for embedded files).
func readFile(fsys fs.FS, name string) ([]byte, time.Time, error) {
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, time.Time{}, err
	}
	var mod time.Time
	if st, err := fs.Stat(fsys, name); err == nil {
		mod = st.ModTime()
	}
	return body, mod, nil
}

// sameContent checks that encoded decodes to plain, without holding the
// decoded copy: a stale app.wasm.br next to a new app.wasm would otherwise
// serve the old build to every browser under the new version.
func sameContent(coding string, encoded, plain []byte) error {
	var r io.Reader
	switch coding {
	case "br":
		r = brotli.NewReader(bytes.NewReader(encoded))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(encoded))
		if err != nil {
			return err
		}
		r = zr
	}
	cmp := &prefixWriter{want: plain}
	if _, err := io.Copy(cmp, r); err != nil {
		return err
	}
	if cmp.n != len(plain) {
		return fmt.Errorf("decodes to %d bytes, app.wasm has %d", cmp.n, len(plain))
	}
	return nil
}

// prefixWriter accepts writes only while they continue want.
type prefixWriter struct {
	want []byte
	n    int
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	if len(p) > len(w.want)-w.n || !bytes.Equal(p, w.want[w.n:w.n+len(p)]) {
		return 0, fmt.Errorf("differs from app.wasm after byte %d", w.n)
	}
	w.n += len(p)
	return len(p), nil
}

// compress makes the br and gzip copies of a text file, each at its
// highest level (once, at start: about 0.1 s for all the text files). The
// brotli window is the smallest that holds the file: quality 11 allocates
// 8 bytes per window byte for its match finder, 32 MB at the default 4 MB
// window, for files of at most 60 KB.
func compress(body []byte) (br, gz []byte) {
	lgwin := 10 // brotli's smallest window
	for lgwin < 24 && 1<<lgwin < len(body) {
		lgwin++
	}
	var b bytes.Buffer
	bw := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: lgwin})
	bw.Write(body)
	bw.Close()
	br = bytes.Clone(b.Bytes())

	b.Reset()
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	return br, bytes.Clone(b.Bytes())
}

// variant is the lesson's or the view's page for a request of the page at
// urlPath with that query and language, or nil (the whole page).
func (s *site) variant(urlPath, rawQuery, lang string) *asset {
	if s.variants == nil || (!strings.Contains(rawQuery, "lesson") && !strings.Contains(rawQuery, "view")) {
		return nil
	}
	if _, isPage := s.ruPages[urlPath]; !isPage {
		return nil
	}
	v := app.PageVariant(rawQuery)
	if v == "" {
		return nil
	}
	return s.variants.page(v, lang)
}

// warnNoImport is the warning of a binary built without web/import.wasm.
const warnNoImport = "web/import.wasm is not built into this binary: the Import panel cannot read; build it with `make wasm`"
