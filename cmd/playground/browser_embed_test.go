//go:build browser && !wasm

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
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
<iframe id="pg" src="%s?%s" width="600" height="150" style="border:0"></iframe>
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
// server's app.js offers a frame's compile to its siblings), and a view's
// page does not preload the module, which every frame then downloaded for
// nothing. When the frame compiling it is removed before the compile ends,
// a sibling waiting for it compiles on its own instead of waiting forever.
func TestBrowserEmbedsCompileOnce(t *testing.T) {
	setup(t)
	var (
		mu    sync.Mutex
		pages = map[string]string{}
	)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, ok := pages[r.URL.Path]
		mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
	t.Cleanup(docs.Close)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", docs.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	src := func(view string) string { return strings.TrimSuffix(url, "/") + "/?view=" + view + "&lang=en" }
	// The docs page counts the frames that have mounted (each posts its
	// height once mounted).
	const watch = `<script>window.__mounted = new Set(); addEventListener('message', e => {
  if (e.data && e.data.type === 'backoff-playground:height') window.__mounted.add(e.source);
});</script>`
	mu.Lock()
	pages["/three"] = "<!doctype html><title>docs</title>" + watch + fmt.Sprintf(
		`<iframe src="%s" width="600" height="300"></iframe><iframe src="%s" width="600" height="300"></iframe><iframe src="%s" width="600" height="300"></iframe>`,
		src("table"), src("herd"), src("delays"))
	// Frame a first; b once a has run its scripts (a's compile is under way
	// and offered); a removed once b has run its scripts (b waits for a's).
	pages["/gone"] = "<!doctype html><title>docs</title>" + watch + fmt.Sprintf(`<script>
const a = document.createElement('iframe'); a.src = %q;
a.onload = () => {
  const b = document.createElement('iframe'); b.src = %q;
  b.onload = () => { a.remove(); window.__removed = true; };
  document.body.append(b);
};
addEventListener('DOMContentLoaded', () => document.body.append(a));
</script>`, src("table"), src("herd"))
	mu.Unlock()

	// open loads a docs page in a first visit's browser, counting the
	// requests for app.wasm; the first is held while hold is true.
	open := func(path string, hold bool) (tb *tab, requests func() int) {
		tb = newTab(t, 1280, 1200, chromedp.WithNewBrowserContext())
		var n int
		if err := chromedp.Listen(tb.ctx, func(ev any) {
			e, ok := ev.(*fetch.EventRequestPaused)
			if !ok {
				return
			}
			mu.Lock()
			n++
			first := n == 1
			mu.Unlock()
			if hold && first {
				return // never answered: the frame is removed while it waits
			}
			go chromedp.Call(tb.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
		}); err != nil {
			t.Fatal(err)
		}
		// The service worker would answer later requests from its cache,
		// out of this count's sight.
		if _, err := chromedp.Call(tb.ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(tb.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/app.wasm"}}}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(docs.URL+path)); err != nil {
			t.Fatal(err)
		}
		return tb, func() int { mu.Lock(); defer mu.Unlock(); return n }
	}

	t.Run("three frames", func(t *testing.T) {
		tb, requests := open("/three", false)
		poll[bool](t, tb, "three frames mounted", `window.__mounted.size === 3`)
		if n := requests(); n != 1 {
			t.Errorf("three frames of one docs page requested app.wasm %d times, want once", n)
		}
	})
	t.Run("the compiling frame removed", func(t *testing.T) {
		tb, requests := open("/gone", true)
		poll[bool](t, tb, "frame a removed", `!!window.__removed`)
		if n := requests(); n != 1 {
			t.Errorf("frame b requested app.wasm itself while a compiled it (%d requests): it did not take a's compile", n)
		}
		poll[bool](t, tb, "frame b mounted after a was removed", `window.__mounted.size === 1`)
		if n := requests(); n != 2 {
			t.Errorf("%d requests for app.wasm, want a's (held) and b's own", n)
		}
	})
}
