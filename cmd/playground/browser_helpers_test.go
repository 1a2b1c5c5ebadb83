//go:build browser && !wasm

// Real-browser tests and benchmarks: chromedp drives Debian's Chromium
// against the real server (Run on 127.0.0.1:0) with the built app.wasm.
// Run them with `make test-browser` / `make bench-browser`, which build the
// wasm first. Outside CI a missing Chromium skips them with a message; with
// CI=true it fails them.

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/web"
)

// browserEnv is one server and one browser shared by every test of the
// binary; each test opens its own tab.
type browserEnv struct {
	url     string          // the playground's URL, ending in "/"
	browser context.Context // chromedp context holding the started browser
}

var (
	envOnce  sync.Once
	env      browserEnv
	envErr   error
	envSkip  string
	envStops []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(envStops) - 1; i >= 0; i-- {
		envStops[i]()
	}
	os.Exit(code)
}

// chromiumPath finds Debian's Chromium; PLAYGROUND_CHROMIUM overrides.
func chromiumPath() (string, error) {
	if p := os.Getenv("PLAYGROUND_CHROMIUM"); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("PLAYGROUND_CHROMIUM=%s: no such browser: run `make browser-deps` or fix the path", p)
		}
		return p, nil
	}
	if st, err := os.Stat("/usr/bin/chromium"); err == nil && !st.IsDir() {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("Chromium not found (looked for PLAYGROUND_CHROMIUM, /usr/bin/chromium, chromium on PATH): run `make browser-deps` (apt-get install chromium)")
}

// setup starts the shared server and browser, or fails or skips tb.
func setup(tb testing.TB) browserEnv {
	tb.Helper()
	envOnce.Do(func() { envErr = startEnv() })
	if envSkip != "" {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("CI=true: the browser tests must run: %s", envSkip)
		}
		tb.Skip(envSkip)
	}
	if envErr != nil {
		tb.Fatal(envErr)
	}
	return env
}

func startEnv() error {
	if _, err := fs.Stat(web.FS, "app.wasm"); err != nil {
		return errors.New("web/app.wasm is not built into this test binary: run `make test-browser`, which builds it first")
	}
	path, err := chromiumPath()
	if err != nil {
		envSkip = err.Error()
		return nil
	}

	url, stop, err := startServer("--addr", "127.0.0.1:0")
	if err != nil {
		return err
	}
	envStops = append(envStops, stop)
	env.url = url

	dir, err := os.MkdirTemp("", "playground-chromium-")
	if err != nil {
		return err
	}
	envStops = append(envStops, func() { os.RemoveAll(dir) })
	// This closed network refuses Chromium's background hosts: without these
	// flags it keeps retrying them (and slows every start).
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	envStops = append(envStops, cancelAlloc, cancelBrowser)
	if err := chromedp.Do(bctx); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	env.browser = bctx
	return nil
}

// startServer runs the real command with args (which must listen on a free
// loopback port) and returns the URL from its start line.
func startServer(args ...string) (url string, stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, args, pw, os.Stderr)
		pw.Close()
	}()
	stop = func() { cancel(); <-done }
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("server did not start: %v", err)
	}
	go io.Copy(io.Discard, pr)
	_, url, ok := strings.Cut(strings.TrimSpace(line), " serving ")
	if !ok {
		stop()
		return "", nil, fmt.Errorf("server start line %q has no URL", line)
	}
	return url, stop, nil
}

// pageInit runs before any page script: it records CSP violations, the
// moment go-app removes its wasm loader (the app is mounted and handles input
// from then on), and the time of the latest DOM change.
const pageInit = `(() => {
  const pg = window.__pg = {csp: [], mountedAt: null, lastChange: 0};
  document.addEventListener('securitypolicyviolation', e =>
    pg.csp.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + (e.sourceFile || '') + ':' + e.lineNumber));
  let seen = false;
  new MutationObserver(() => {
    pg.lastChange = performance.now();
    if (pg.mountedAt !== null) return;
    if (document.getElementById('app-wasm-loader')) { seen = true; return; }
    if (seen) pg.mountedAt = pg.lastChange;
  }).observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
})()`

// quietFor is how long the DOM must stay unchanged after the mount before a
// test reads it. The browser first renders the component's defaults, then
// OnNav applies the URL on go-app's next frame (8 ms at 120 fps).
const quietFor = 60 * time.Millisecond

// tab is one browser tab and what its pages logged.
type tab struct {
	ctx context.Context
	mu  sync.Mutex
	log []chromedp.ConsoleMessage
}

// newTab opens a tab with a width x height viewport (mobile emulation below
// 600 px) that collects console messages and exceptions. opts may ask for a
// new browser context (an empty cache and no service worker).
func newTab(tb testing.TB, width, height int64, opts ...chromedp.ContextOption) *tab {
	tb.Helper()
	e := setup(tb)
	ctx, cancel := chromedp.NewContext(e.browser, opts...)
	tb.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		tb.Fatal(err)
	}
	t := &tab{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			t.mu.Lock()
			t.log = append(t.log, m)
			t.mu.Unlock()
		}
	}()
	var vp []chromedp.EmulateViewportOption
	if width < 600 {
		vp = append(vp, chromedp.EmulateMobile, chromedp.EmulateScale(2))
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, vp...)); err != nil {
		tb.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: pageInit}); err != nil {
		tb.Fatal(err)
	}
	return t
}

// open navigates to the playground URL plus query and waits until the wasm
// app has mounted; it returns the milliseconds from navigation start.
func (t *tab) open(tb testing.TB, query string) float64 {
	tb.Helper()
	u := env.url
	if query != "" {
		u += "?" + query
	}
	return t.openURL(tb, u)
}

// openURL is open for any URL (another server's).
func (t *tab) openURL(tb testing.TB, u string) float64 {
	tb.Helper()
	if err := chromedp.Do(t.ctx, chromedp.Navigate(u)); err != nil {
		tb.Fatalf("navigate %s: %v", u, err)
	}
	return t.waitMounted(tb)
}

func (t *tab) waitMounted(tb testing.TB) float64 {
	tb.Helper()
	ms, err := pollIn[float64](t.ctx, `window.__pg && window.__pg.mountedAt`, 5*time.Millisecond, 30*time.Second)
	if err != nil {
		label, _ := chromedp.Run(t.ctx, chromedp.Evaluate[string](`(document.getElementById('app-wasm-loader-label') || {}).innerText || ''`))
		tb.Fatalf("the app did not mount: %v (loader says %q)\n%s", err, label, t.messages())
	}
	// The page draws its start in slices, each part's place held by an
	// aria-busy card until it is drawn, and the parts below the first
	// screen wait for the reader (a scroll, a key, a pointer) or four
	// seconds: a wheel event that scrolls nothing asks for them, and a
	// test reads the whole page.
	if _, err := chromedp.Run(t.ctx, chromedp.Evaluate[bool](`window.dispatchEvent(new WheelEvent('wheel'))`)); err != nil {
		tb.Fatalf("a wheel event: %v", err)
	}
	quiet := fmt.Sprintf(`!document.querySelector('section[aria-busy=true]') && performance.now() - window.__pg.lastChange > %d`, quietFor.Milliseconds())
	if _, err := pollIn[bool](t.ctx, quiet, 10*time.Millisecond, 10*time.Second); err != nil {
		tb.Fatalf("the page kept changing after the mount: %v", err)
	}
	return ms
}

// pollIn waits until js, an expression (a promise is awaited), is truthy
// in the tab's page, checking every interval, and returns its value; after
// timeout it fails with errPollTimeout. It evaluates with Runtime.evaluate
// and no context id: the page's own, whichever document the tab shows
// when the command arrives. chromedp's Poll names the context chromedp
// last recorded for the frame, and chromedp records it on another
// goroutine than the one that sees the load event its Navigate waits for:
// right after a Navigate it could still hold the previous document's
// context, and Chromium then answered "Cannot find context with specified
// id" (a document's context ids count up within its renderer). A document
// replaced during the wait fails the call ("Execution context was
// destroyed"): a page that replaces itself is a bug to see.
func pollIn[T any](ctx context.Context, js string, interval, timeout time.Duration) (T, error) {
	var zero T
	wait := fmt.Sprintf(`(async () => {
  const end = performance.now() + %d;
  for (;;) {
    const v = await (%s);
    if (v) return {v};
    if (performance.now() > end) return null;
    await new Promise(r => setTimeout(r, %d));
  }
})()`, timeout.Milliseconds(), js, interval.Milliseconds())
	got, err := chromedp.Run(ctx, chromedp.Evaluate[*polled[T]](wait, chromedp.EvalAwaitPromise))
	switch {
	case err != nil:
		return zero, err
	case got == nil:
		return zero, errPollTimeout
	}
	return got.V, nil
}

// polled is pollIn's value once its condition held.
type polled[T any] struct {
	V T `json:"v"`
}

// errPollTimeout is pollIn's error when its condition never held.
var errPollTimeout = errors.New("timed out: the condition never held")

// messages is the console log so far, one line each.
func (t *tab) messages() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	for _, m := range t.log {
		fmt.Fprintf(&b, "  console.%s %s:%d %s\n", m.Type, m.URL, m.Line+1, m)
	}
	return b.String()
}

// problems lists console errors, exceptions and CSP violations so far.
func (t *tab) problems(tb testing.TB) []string {
	tb.Helper()
	var out []string
	t.mu.Lock()
	for _, m := range t.log {
		if m.IsException() || m.Type == "error" || m.Type == "assert" {
			out = append(out, fmt.Sprintf("console.%s %s:%d %s", m.Type, m.URL, m.Line+1, m))
		}
	}
	t.mu.Unlock()
	csp := eval[[]string](tb, t, `(window.__pg && window.__pg.csp) || []`)
	for _, v := range csp {
		out = append(out, "CSP violation: "+v)
	}
	return out
}

// eval evaluates js in the page (awaiting a promise) and decodes the result.
func eval[T any](tb testing.TB, t *tab, js string) T {
	tb.Helper()
	v, err := chromedp.Run(t.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// poll waits until js is truthy and returns its value.
func poll[T any](tb testing.TB, t *tab, what, js string) T {
	tb.Helper()
	v, err := pollIn[T](t.ctx, js, 10*time.Millisecond, 15*time.Second)
	if err != nil {
		tb.Fatalf("waiting for %s: %v\n%s\n%s", what, err, t.where(), t.messages())
	}
	return v
}

// where says what the tab shows, for a failure's message: the address,
// the element with the focus and the page's h1.
func (t *tab) where() string {
	s, err := chromedp.Run(t.ctx, chromedp.Evaluate[string](`(() => {
	  const a = document.activeElement, h = document.querySelector('h1');
	  return 'at ' + location.href + ', focus on ' + (a ? a.tagName + (a.id ? '#' + a.id : '') : 'nothing') +
	    ', h1 ' + (h ? JSON.stringify(h.textContent) + (h.className ? ' (' + h.className + ')' : '') : 'none');
	})()`))
	if err != nil {
		return "the tab did not answer: " + err.Error()
	}
	return s
}

// tableJS reads the delay table: per row, data-col -> data-seconds.
const tableJS = `[...document.querySelectorAll('#delay-table tbody tr')].map(tr =>
  Object.fromEntries([...tr.querySelectorAll('[data-col]')].map(td => [td.dataset.col, td.dataset.seconds || ''])))`

type row map[string]string

func (t *tab) table(tb testing.TB) []row {
	tb.Helper()
	return eval[[]row](tb, t, tableJS)
}

// column is one column of the table, as strings (exact, for comparisons).
func column(rows []row, col string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[col]
	}
	return out
}

// setRange moves a range input as a user drag does: value, then input and
// change events.
func setRangeJS(id string, value string) string {
	return fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.value = %q;
  el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return el.value; })()`, id, value)
}

// typeInto replaces the text of an input by keystrokes, then commits it with
// Enter and Tab (change fires on blur).
func (t *tab) typeInto(tb testing.TB, id, text string) {
	tb.Helper()
	sel := chromedp.ID(id)
	if err := chromedp.Do(t.ctx,
		chromedp.Focus(sel),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).select()`, id)),
		chromedp.SendKeys(sel, text),
		chromedp.SendKeys(sel, "\t"),
	); err != nil {
		tb.Fatalf("typing %q into #%s: %v", text, id, err)
	}
}

// viewportShot saves what the window shows (the first screen) as a PNG
// under tmp/screenshots/.
func (t *tab) viewportShot(tb testing.TB, name string) string {
	tb.Helper()
	buf, err := chromedp.Run(t.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll("../../tmp/screenshots", 0o755); err != nil {
		tb.Fatal(err)
	}
	path := "../../tmp/screenshots/" + name + ".png"
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// screenshot saves a full-page PNG under tmp/screenshots/ (gitignored) and
// returns its path.
func (t *tab) screenshot(tb testing.TB, name string) string {
	tb.Helper()
	buf, err := chromedp.Run(t.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	dir := "../../tmp/screenshots"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	path := dir + "/" + name + ".png"
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot %s (%d KB)", path, len(buf)/1024)
	return path
}

// docsSite is a docs site on another origin than the playground's, serving
// the pages a test sets on it: the page that embeds the playground.
type docsSite struct {
	*httptest.Server
	mu    sync.Mutex
	pages map[string]string // by path
}

func newDocsSite(tb testing.TB) *docsSite {
	d := &docsSite{pages: map[string]string{}}
	d.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		body, ok := d.pages[r.URL.Path]
		d.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
	tb.Cleanup(d.Close)
	return d
}

// set serves body as the page at path.
func (d *docsSite) set(path, body string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pages[path] = body
}

// holdingProxy serves target through a proxy of its own and gives the
// proxy's address: a request hold says to hold gets no answer until the
// test ends or the browser gives up on it.
func holdingProxy(t *testing.T, target string, hold func(*http.Request) bool) string {
	t.Helper()
	up, err := neturl.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	forward := httputil.NewSingleHostReverseProxy(up)
	release := make(chan struct{})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hold(r) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	t.Cleanup(func() { close(release) })
	return proxy.URL
}
