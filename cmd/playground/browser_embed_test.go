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
