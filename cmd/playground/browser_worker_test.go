//go:build browser && !wasm

package main

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// workerControlsJS is true once the service worker is active and controls
// the page.
const workerControlsJS = `navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === 'activated' && navigator.serviceWorker.controller))`

// A link to a view, a lesson or the Russian page, opened where the service
// worker is installed, gets the page the server sends for it (drawn as the
// app will draw it), not the worker's cached whole English page: a docs
// page's frame of ?view=table showed the whole playground, 4373 px of it,
// until app.wasm had started, seconds on a busy machine. ?wasm=false keeps
// the app from starting: the page read is the one the worker answered with.
func TestBrowserWorkerSendsLinkedPage(t *testing.T) {
	setup(t)
	tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
	tb.open(t, "lang=en")
	poll[bool](t, tb, "the worker to control the page", workerControlsJS)
	for _, c := range []struct{ query, read, want string }{
		{"view=table&lang=en", `document.querySelector('main').className + (document.getElementById('preset') ? ' with the policy controls' : '')`, "playground embed view-table"},
		{"lesson=1&lang=en", `document.getElementById('lesson-title') ? 'lesson' : document.querySelector('h1').textContent`, "lesson"},
		{"lang=ru", `document.documentElement.lang`, "ru"},
	} {
		u := env.url + "?" + c.query + "&wasm=false"
		// The server renders a lesson's or a view's page on its first
		// request: rendered now, it answers the worker at once, well within
		// the worker's wait, however busy the machine.
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(u)); err != nil {
			t.Fatal(err)
		}
		if !eval[bool](t, tb, `!!navigator.serviceWorker.controller`) {
			t.Fatalf("?%s: the worker does not control the page", c.query)
		}
		if got := eval[string](t, tb, c.read); got != c.want {
			t.Errorf("?%s: the page sent reads %q, want %q", c.query, got, c.want)
		}
	}
}

// When the server does not answer a navigation (a venue's wifi losing
// packets fails no request, it only never answers), the worker's cached
// page stands in after serverWait (3 s), whatever the query.
func TestBrowserWorkerServerLate(t *testing.T) {
	setup(t)
	url, stop, err := startServer("--addr", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	var (
		hold atomic.Bool  // pages with a query get no answer
		held atomic.Int32 // the requests not answered
	)
	proxy := holdingProxy(t, url, func(r *http.Request) bool {
		if hold.Load() && r.URL.Path == "/" && r.URL.RawQuery != "" {
			held.Add(1)
			return true
		}
		return false
	})

	tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
	tb.openURL(t, proxy+"/?lang=en")
	poll[bool](t, tb, "the worker to control the page", workerControlsJS)
	hold.Store(true)
	start := time.Now()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(proxy+"/?lesson=1&lang=en&wasm=false")); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if held.Load() == 0 {
		t.Error("the worker did not ask the server for the lesson's page")
	}
	if !eval[bool](t, tb, `!!document.getElementById('preset')`) {
		t.Errorf("the page the worker answered with is not its cached page: %s", eval[string](t, tb, `document.title`))
	}
	if took > 15*time.Second {
		t.Errorf("the cached page came %v after the navigation, want soon after the worker's 3 s wait", took.Round(time.Millisecond))
	}
	t.Logf("the cached page came %v after the navigation", took.Round(time.Millisecond))
}
