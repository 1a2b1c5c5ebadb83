//go:build browser && !wasm

package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// The static site under a base path, served by a plain file server (no
// compression, no server of ours): the page mounts, a link's state, a
// lesson and an embed view work, and the worker registers under the path.
func TestBrowserStaticSite(t *testing.T) {
	setup(t)
	dir := t.TempDir()
	if _, err := writeStatic(dir, "/repo", web.FS, static.FS); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/repo/", http.StripPrefix("/repo", http.FileServer(http.Dir(dir))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	tb := newTab(t, 1280, 800)
	tb.openURL(t, srv.URL+"/repo/?lang=ru&attempts=4")
	poll[bool](t, tb, "Russian and 3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3 &&
	  [...document.querySelectorAll('h2')].some(h => h.textContent === 'Политика повторов')`)
	poll[bool](t, tb, "the worker under /repo/", `navigator.serviceWorker.ready.then(r => r.active && r.scope.endsWith('/repo/'))`)
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
	tb.openURL(t, srv.URL+"/repo/?lesson=1&lang=en")
	poll[bool](t, tb, "lesson 1", `(document.getElementById('lesson-title') || {}).textContent > ''`)
	tb.openURL(t, srv.URL+"/repo/?view=table&attempts=3&jitter=none")
	poll[bool](t, tb, "the table alone", `document.querySelectorAll('#delay-table tbody tr').length === 2 && !document.getElementById('preset')`)
}
