//go:build browser && !wasm

package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/app/i18n"
)

// TestBrowserServerQueryLink: the server sends one static page per
// language whatever else the query holds; the app reads the query itself. A
// share link in Russian with four attempts shows Russian and three rows.
func TestBrowserServerQueryLink(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=ru&attempts=4")
	poll[bool](t, tb, "3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	if lang := eval[string](t, tb, `document.documentElement.lang`); lang != "ru" {
		t.Errorf("<html lang=%q>, want ru", lang)
	}
	if title, want := eval[string](t, tb, `document.title`), i18n.Ru.T("page.doc-title"); title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	same := eval[bool](t, tb, `Promise.all([fetch(location.href, {cache: 'no-store'}), fetch('/?lang=ru', {cache: 'no-store'}),
	  fetch('/?attempts=4', {cache: 'no-store'}), fetch('/', {cache: 'no-store'})]
  .map(p => p.then(r => r.text()))).then(([a, b, c, d]) => a === b && c === d && a !== d && a.length > 1000 && a.includes('<html lang="ru">'))`)
	if !same {
		t.Error("the server did not send the Russian page for the Russian links and the English one for the others")
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems:\n  %s", strings.Join(p, "\n  "))
	}
}

// TestBrowserServerBasePathWeb: --base-path /web, a prefix that looks like
// go-app's own /web/ resources, serves a working app: every resource loads,
// the link's state applies, the worker's scope is the prefix.
func TestBrowserServerBasePathWeb(t *testing.T) {
	setup(t)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--base-path", "/web")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if !strings.HasSuffix(url, "/web/") {
		t.Fatalf("URL %q, want the base path", url)
	}
	tb := newTab(t, 1280, 900)
	tb.openURL(t, url+"?attempts=4")
	poll[bool](t, tb, "3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	if path := eval[string](t, tb, `location.pathname`); path != "/web/" {
		t.Errorf("location.pathname %q, want /web/", path)
	}
	failed := eval[[]string](t, tb, `performance.getEntriesByType('resource')
  .filter(e => e.responseStatus && e.responseStatus >= 400).map(e => e.name + ' ' + e.responseStatus)`)
	if len(failed) > 0 {
		t.Errorf("resources that failed under /web: %v", failed)
	}
	// app.wasm itself is fetched by the compile worker, whose requests the
	// page's timeline does not list: the table drawn says it loaded.
	loaded := eval[[]string](t, tb, `performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)`)
	for _, want := range []string{"/web/web/static/compile-worker.js", "/web/app.js", "/web/wasm_exec.js", "/web/web/static/playground.css"} {
		found := false
		for _, p := range loaded {
			found = found || p == want
		}
		if !found {
			t.Errorf("the page did not load %s (loaded %v)", want, loaded)
		}
	}
	scope := poll[string](t, tb, "the service worker", `navigator.serviceWorker.getRegistration().then(r => r && r.active && r.scope)`)
	if !strings.HasSuffix(scope, "/web/") {
		t.Errorf("service worker scope %q, want /web/", scope)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems under /web:\n  %s", strings.Join(p, "\n  "))
	}
}

// TestBrowserServerPermissionsPolicy: Chromium knows every feature the
// header names (an unknown one is logged as an error) and applies it: the
// camera is refused, writing to the clipboard allowed.
func TestBrowserServerPermissionsPolicy(t *testing.T) {
	tb := newTab(t, 1280, 900)
	var mu sync.Mutex
	var logged []string
	if err := chromedp.Listen(tb.ctx, func(ev any) {
		if e, ok := ev.(*log.EventEntryAdded); ok && e.Entry != nil {
			mu.Lock()
			logged = append(logged, string(e.Entry.Level)+": "+e.Entry.Text)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	tb.open(t, "")
	time.Sleep(200 * time.Millisecond) // log entries arrive on their own
	mu.Lock()
	for _, l := range logged {
		if strings.Contains(l, "Permissions-Policy") || strings.Contains(l, "Permissions Policy") || strings.Contains(l, "Feature Policy") {
			t.Errorf("Chromium: %s", l)
		}
	}
	mu.Unlock()
	allowed := eval[map[string]bool](t, tb, `(() => {
  const fp = document.featurePolicy;
  if (!fp) return {};
  return Object.fromEntries(['camera', 'microphone', 'geolocation', 'usb', 'fullscreen', 'clipboard-read', 'clipboard-write'].map(f => [f, fp.allowsFeature(f)]));
})()`)
	if len(allowed) == 0 {
		t.Skip("this Chromium has no document.featurePolicy to read the policy back")
	}
	for f, ok := range allowed {
		if ok != (f == "clipboard-write") {
			t.Errorf("%s allowed: %v", f, ok)
		}
	}
}
