//go:build !wasm

package main

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/static"
)

// A lesson's or a view's link gets that page from the server, as the app
// will draw it (nothing replaced when it mounts); any other link the whole
// page. Each variant is rendered once.
func TestPageVariants(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), static.FS)
	whole := do(t, h, "GET", "/").body
	// No page preloads app.wasm: app.js's worker fetches and compiles it,
	// and a preload would download it a second time, through the page's
	// thread.
	const preload = `rel="preload"`
	for _, c := range []struct {
		query string
		want  []string // in the page
		whole bool     // the whole page's bytes
	}{
		{"lesson=1", []string{`class="playground lessons"`, `Four knobs and a 31-second worst case</h1>`, `data-key="en/1"`, `id="lesson-source"`}, false},
		{"lesson=1&lang=ru", []string{`<html lang="ru">`, `Четыре ручки и худший случай в 31 секунду</h1>`, `data-key="ru/1"`}, false},
		{"lesson=1&present=1", []string{`class="playground lessons present"`}, false},
		// The lesson's setup applies to a link that names only the lesson:
		// attempts=6, five rows.
		{"lesson=1", []string{`id="total-max"`, `data-seconds="31"`}, false},
		{"view=herd", []string{`class="playground embed view-herd"`, `id="herd-chart"`}, false},
		{"view=herd&clients=5000", []string{`class="playground embed view-herd"`}, false},
		{"lesson=99", nil, true},
		{"view=nonsense", nil, true},
		{"base=2s", nil, true},
	} {
		r := do(t, h, "GET", "/?"+c.query)
		if r.code != 200 {
			t.Errorf("GET /?%s: %d", c.query, r.code)
			continue
		}
		if c.whole != (r.body == whole) {
			t.Errorf("GET /?%s: the whole page %v, want %v", c.query, r.body == whole, c.whole)
		}
		for _, w := range c.want {
			if !strings.Contains(r.body, w) {
				t.Errorf("GET /?%s: page lacks %s", c.query, w)
			}
		}
		if strings.Contains(r.body, preload) {
			t.Errorf("GET /?%s: the page preloads app.wasm", c.query)
		}
	}
	s, err := newSite("", fakeWeb(), static.FS, fakeIconTime)
	if err != nil {
		t.Fatal(err)
	}
	first := s.variants.page("lesson=2", "en")
	if first == nil || s.variants.page("lesson=2", "en") != first {
		t.Error("a variant's page is not kept after its first render")
	}
	for _, v := range app.PageVariants() {
		for _, l := range []string{"en", "ru"} {
			if s.variants.page(v, l) == nil {
				t.Errorf("variant %s in %s did not render", v, l)
			}
		}
	}
	if n, most := len(s.variants.pages), 2*len(app.PageVariants()); n != most {
		t.Errorf("%d variant pages kept, want %d", n, most)
	}
}

// go-app's loader hands app.wasm's response to the streaming compiler as
// it is, under a base path too: no JavaScript stream counting its bytes.
func TestAppJSStreamsWasm(t *testing.T) {
	for _, prefix := range []string{"", "/pg"} {
		h, _ := newServer(serverConfig{prefix: prefix}, fakeWeb(), fakeStatic())
		js := do(t, h, "GET", prefix+"/app.js").body
		if !strings.Contains(js, `sharedWasm("`+prefix+`/web/app.wasm", go.importObject)`) || strings.Contains(js, `fetchWithProgress("`) {
			t.Errorf("prefix %q: app.js does not stream app.wasm to the compiler", prefix)
		}
		if !strings.Contains(js, `await new Promise(r => setTimeout(r)); performance.mark("backoff:run"); go.run(wasm.instance);`) {
			t.Errorf("prefix %q: app.js starts the program in the compile's own task", prefix)
		}
		if strings.Contains(js, `GOAPP_INTERNAL_URLS`) {
			t.Errorf("prefix %q: app.js's environment still lists go-app's internal URLs (null), which it decodes as JSON in the first render's task", prefix)
		}
	}
	if _, err := streamWasm([]byte(`fetch("/web/app.wasm")`)); err == nil {
		t.Error("an app.js without go-app's loader call was accepted")
	}
	const compile = "instantiateStreaming(\n  fetchWithProgress(\"/web/app.wasm\", showProgress),\n  go.importObject\n);\n"
	if _, err := streamWasm([]byte(compile + goRun)); err != nil {
		t.Errorf("go-app's loader was refused: %v", err)
	}
	if _, err := streamWasm([]byte(compile)); err == nil {
		t.Error("an app.js without go-app's go.run was accepted")
	}
}
