//go:build browser && !wasm

package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Each embed view in an iframe of another origin: just its widget, sized to
// its content by the host's embed.js (the page posts its height), in the
// theme the link asks for.
func TestBrowserEmbedViews(t *testing.T) {
	setup(t)
	script, err := os.ReadFile("../../static/embed.js")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		inner string
	)
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		src := inner
		mu.Unlock()
		if r.URL.Path == "/embed.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(script)
			return
		}
		// The host's own strict policy: its scripts only, no inline code.
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; frame-src "+src)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>docs</title><p>Our retry policy:</p>
<iframe id="pg" class="backoff-playground" src="%s?%s" width="600" height="150"></iframe>
<script src="/embed.js" defer></script>`, src, r.URL.RawQuery)
	}))
	t.Cleanup(outer.Close)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", outer.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	mu.Lock()
	inner = url
	mu.Unlock()

	for _, c := range []struct {
		view, widget, theme string
	}{
		{"table", "delay-table", "dark"},
		{"herd", "herd-chart", "light"},
		{"classify", "classify-verdict", "dark"},
	} {
		t.Run(c.view, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			q := "preset=aws-standard&lang=en&view=" + c.view + "&theme=" + c.theme
			if err := chromedp.Do(tb.ctx, chromedp.Navigate(outer.URL+"/?"+q)); err != nil {
				t.Fatal(err)
			}
			tree, err := chromedp.Call(tb.ctx, page.GetFrameTree, cdp.Empty{})
			if err != nil || tree.FrameTree == nil || len(tree.FrameTree.ChildFrames) != 1 {
				t.Fatalf("frame tree: %v", err)
			}
			world, err := chromedp.Call(tb.ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: tree.FrameTree.ChildFrames[0].Frame.ID, WorldName: "embed"})
			if err != nil {
				t.Fatal(err)
			}
			ctx := world.ExecutionContextID
			exFramePoll[bool](t, tb, ctx, "the view to mount", `!document.getElementById('app-wasm-loader') && !!document.getElementById('`+c.widget+`')`)
			if n := exFrameEval[int](t, tb, ctx, `document.querySelectorAll('#preset, #copy-link, .controls').length`); n != 0 {
				t.Errorf("the view shows %d pieces of the page's chrome", n)
			}
			if got := exFrameEval[string](t, tb, ctx, `document.documentElement.dataset.theme || ''`); got != c.theme {
				t.Errorf("data-theme %q, want %q", got, c.theme)
			}
			href := exFrameEval[string](t, tb, ctx, `document.getElementById('open-full').href`)
			if strings.Contains(href, "view=") || !strings.Contains(href, "preset=aws-standard") {
				t.Errorf("open in the playground: %s", href)
			}
			// The host sized the iframe to the page: no scrollbar inside.
			h := poll[string](t, tb, "the iframe to be sized", `(() => { const f = document.getElementById('pg'); return f.height !== '150' ? f.height : ''; })()`)
			inner := exFrameEval[int](t, tb, ctx, `document.documentElement.scrollHeight`)
			got, _ := strconv.Atoi(h)
			if got < inner || got > inner+2 {
				t.Errorf("iframe height %s for a page %d px tall", h, inner)
			}
			if scroll := exFrameEval[bool](t, tb, ctx, `document.documentElement.scrollHeight > window.innerHeight + 1`); scroll {
				t.Error("the framed view still scrolls")
			}
		})
	}
}

// The frames of one docs page compile app.wasm once between them (the
// server's app.js offers a frame's compile to its siblings), and no page
// preloads the module, which every frame then downloaded for nothing. When the frame compiling it is removed before the compile ends,
// a sibling waiting for it compiles on its own instead of waiting forever.
func TestBrowserEmbedsCompileOnce(t *testing.T) {
	setup(t)
	var (
		mu    sync.Mutex
		n     int  // requests for app.wasm
		stall bool // the first request's body stops after its first bytes
	)
	docs := newDocsSite(t)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", docs.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	up, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	// The frames load the playground through a proxy that counts the
	// requests for app.wasm and can stall one.
	forward := httputil.NewSingleHostReverseProxy(up)
	release := make(chan struct{})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/app-worker.js":
			// No service worker: it fetches app.wasm too, and would serve
			// the frames from its cache.
			http.NotFound(w, r)
			return
		case "/web/app.wasm":
			mu.Lock()
			n++
			held := n == 1 && stall
			mu.Unlock()
			if held {
				stalled(t, w, r, up, release)
				return
			}
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	t.Cleanup(func() { close(release) })
	requests := func() int { mu.Lock(); defer mu.Unlock(); return n }
	src := func(view string) string { return proxy.URL + "/?view=" + view + "&lang=en" }
	// The docs page counts the frames that have mounted (each posts its
	// height once mounted).
	const watch = `<script>window.__mounted = new Set(); addEventListener('message', e => {
  if (e.data && e.data.type === 'backoff-playground:height') window.__mounted.add(e.source);
});</script>`
	docs.set("/three", "<!doctype html><title>docs</title>"+watch+fmt.Sprintf(
		`<iframe src="%s" width="600" height="300"></iframe><iframe src="%s" width="600" height="300"></iframe><iframe src="%s" width="600" height="300"></iframe>`,
		src("table"), src("herd"), src("delays")))
	// Frame a first, b once a's compile is under way (its request for
	// app.wasm has come: the test adds b then, addB); the test removes a
	// once b has run its scripts. (Added at a's load event instead, b
	// sometimes ran before a's worker had asked for the module.)
	docs.set("/gone", "<!doctype html><title>docs</title>"+watch+fmt.Sprintf(`<script>
const a = document.createElement('iframe'); a.id = 'a'; a.src = %q;
window.addB = () => {
  const b = document.createElement('iframe'); b.src = %q;
  b.onload = () => { window.__loaded = true; };
  document.body.append(b);
  return true;
};
addEventListener('DOMContentLoaded', () => document.body.append(a));
</script>`, src("table"), src("herd")))
	// A first visit (no cache) of a docs page, its frames allowed by the
	// playground's frame-ancestors (the docs origin, as the proxy forwards
	// the playground's headers).
	open := func(path string, stallFirst bool) *tab {
		mu.Lock()
		n, stall = 0, stallFirst
		mu.Unlock()
		tb := newTab(t, 1280, 1200, chromedp.WithNewBrowserContext())
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(docs.URL+path)); err != nil {
			t.Fatal(err)
		}
		return tb
	}

	t.Run("three frames", func(t *testing.T) {
		tb := open("/three", false)
		poll[bool](t, tb, "three frames mounted", `window.__mounted.size === 3`)
		if got := requests(); got != 1 {
			t.Errorf("three frames of one docs page requested app.wasm %d times, want once", got)
		}
	})
	t.Run("the compiling frame removed", func(t *testing.T) {
		tb := open("/gone", true)
		for deadline := time.Now().Add(30 * time.Second); requests() == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("frame a never asked for app.wasm")
			}
		}
		eval[bool](t, tb, `addB()`)
		poll[bool](t, tb, "frame b loaded", `!!window.__loaded`)
		// Had b not taken a's compile, it would ask for the module as soon
		// as its scripts ran, and mount (a's never ends).
		eval[bool](t, tb, `new Promise(r => setTimeout(() => r(true), 500))`)
		if m := eval[int](t, tb, `window.__mounted.size`); m != 0 {
			t.Errorf("%d frames mounted while a's compile was stalled, want none: b did not wait for a's compile", m)
		}
		if got := requests(); got != 1 {
			t.Errorf("frame b requested app.wasm itself while a compiled it (%d requests): it did not take a's compile", got)
		}
		eval[bool](t, tb, `(document.getElementById('a').remove(), true)`)
		poll[bool](t, tb, "frame b mounted after a was removed", `window.__mounted.size === 1`)
		if got := requests(); got != 2 {
			t.Errorf("%d requests for app.wasm, want a's (stalled) and b's own", got)
		}
	})
}

// stalled answers a request for app.wasm with the playground's headers and
// the first 256 KiB of its body, then nothing more until the browser gives
// the request up or the test ends: a compile under way that never ends.
func stalled(t *testing.T, w http.ResponseWriter, r *http.Request, up *neturl.URL, release <-chan struct{}) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, up.JoinPath(r.URL.Path).String(), nil)
	if err != nil {
		t.Error(err)
		return
	}
	req.Header = r.Header.Clone()
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Error(err)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	io.CopyN(w, res.Body, 256<<10)
	w.(http.Flusher).Flush()
	select {
	case <-r.Context().Done():
	case <-release:
	}
}

// TestBrowserEmbedSnippet puts the Embed panel's snippet, as a docs author
// copies it, on a page of another origin whose Content-Security-Policy has
// no 'unsafe-inline' for styles (the playground's origin allowed for
// frames and scripts): the page reports no violation, the frame has no
// border, and embed.js fits the frame to its content, smaller than the
// snippet's 480 px too. The snippet's style="border:0" was blocked there
// (the frame kept its border), and the table's frame stayed 480 px for
// 410 px of content (its page posted the document's scrollHeight, never
// less than the frame's own height).
func TestBrowserEmbedSnippet(t *testing.T) {
	setup(t)
	var (
		mu      sync.Mutex
		snippet string
		pg      string // the playground's origin
	)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src "+pg+"; frame-src "+pg)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html lang=en><title>docs</title><h1>Our retry policy</h1>\n%s\n<p>The end.</p>", snippet)
	}))
	t.Cleanup(docs.Close)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", docs.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)

	tb := newTab(t, 1280, 900)
	tb.openURL(t, url+"?preset=aws-standard&lang=en&embed=table")
	code := poll[string](t, tb, "the Embed snippet", `(document.getElementById('embed-code') || {}).value`)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	snippet, pg = code, u.Scheme+"://"+u.Host
	mu.Unlock()

	if err := chromedp.Do(tb.ctx, chromedp.Navigate(docs.URL+"/")); err != nil {
		t.Fatal(err)
	}
	// The frame is lazy: the docs page's load does not wait for it, and a
	// world made in its first, empty document ends when the playground's
	// replaces it ("Cannot find context"). Wait for the playground's.
	tree, err := chromedp.Call(tb.ctx, page.GetFrameTree, cdp.Empty{})
	for end := time.Now().Add(20 * time.Second); err == nil && time.Now().Before(end); {
		if tree.FrameTree != nil && len(tree.FrameTree.ChildFrames) == 1 && strings.HasPrefix(tree.FrameTree.ChildFrames[0].Frame.URL, pg) {
			break
		}
		time.Sleep(20 * time.Millisecond)
		tree, err = chromedp.Call(tb.ctx, page.GetFrameTree, cdp.Empty{})
	}
	if err != nil || tree.FrameTree == nil || len(tree.FrameTree.ChildFrames) != 1 || !strings.HasPrefix(tree.FrameTree.ChildFrames[0].Frame.URL, pg) {
		t.Fatalf("frame tree: %v", err)
	}
	world, err := chromedp.Call(tb.ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: tree.FrameTree.ChildFrames[0].Frame.ID, WorldName: "embed"})
	if err != nil {
		t.Fatal(err)
	}
	frame := world.ExecutionContextID
	// Mounted: the document parsed and go-app's loader gone. While the
	// document is parsed the loader, its last element, is not there yet,
	// and the server's copy of the page, table and all, already is: beside
	// a CPU hog the wait once ended there, in the whole playground the
	// service worker then answered with, and measured it (4373 px). The
	// table alone: the whole playground has a table too.
	exFramePoll[bool](t, tb, frame, "the table to mount", `document.readyState !== 'loading' && !document.getElementById('app-wasm-loader') && !!document.getElementById('delay-table') && !document.getElementById('preset')`)
	// The content's height once it holds for 300 ms (this world is the
	// test's own: the page's variables are not in it, its DOM is).
	content := exFramePoll[int](t, tb, frame, "the frame's content", `new Promise(done => {
	  const height = () => Math.ceil(document.documentElement.getBoundingClientRect().height);
	  const h = height();
	  setTimeout(() => done(height() === h && !document.querySelector('section[aria-busy=true]') ? h : 0), 300); })`)
	if content >= 480 {
		// Seen when the wait ended in the document being parsed (4373 px,
		// the whole playground): say what the frame showed.
		t.Fatalf("the table's page is %d px tall: the test needs one under the snippet's 480 px\nthe snippet: %s\nthe frame: %s", content, code,
			exFrameEval[string](t, tb, frame, `location.href + ' · h1 ' + ((document.querySelector('h1') || {}).textContent || 'none') + ' · preset control ' + !!document.getElementById('preset')`))
	}
	h := poll[string](t, tb, "the frame fitted to its content", fmt.Sprintf(`(() => { const f = document.querySelector('iframe'); return f.height === '%d' ? f.height : ''; })()`, content))
	t.Logf("the frame: %s px for %d px of content", h, content)
	if scroll := exFrameEval[bool](t, tb, frame, `document.documentElement.scrollHeight > window.innerHeight`); scroll {
		t.Error("the framed table scrolls")
	}
	border := eval[string](t, tb, `(() => { const s = getComputedStyle(document.querySelector('iframe'));
	  return [s.borderTopWidth, s.borderRightWidth, s.borderBottomWidth, s.borderLeftWidth].join(' '); })()`)
	if border != "0px 0px 0px 0px" {
		t.Errorf("the frame's border is %s, want none", border)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems on the docs page:\n  %s", strings.Join(p, "\n  "))
	}
	tb.viewportShot(t, "embed-snippet-strict-csp")
}
