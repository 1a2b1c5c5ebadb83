//go:build browser && !wasm

package main

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// articleQuery is the article's schedule without jitter: 1, 2, 4, 8, 16 s.
const articleQuery = "base=1s&factor=2&cap=30s&attempts=6&jitter=none"

// settledJS is true once the herd run and the compare runs are finished.
const settledJS = `(() => { const p = document.getElementById('herd-progress');
  return !!document.querySelector('#herd-chart svg') && (!p || p.hidden) && !document.querySelector('#compare .pending'); })()`

func TestBrowserMountsWithoutErrors(t *testing.T) {
	tb := newTab(t, 1280, 900)
	ms := tb.open(t, "")
	t.Logf("mounted %.0f ms after navigation start", ms)
	poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
	time.Sleep(300 * time.Millisecond) // late errors: the worker's install, deferred renders
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("the default page logged problems:\n  %s\nfull log:\n%s", strings.Join(p, "\n  "), tb.messages())
	}
	for _, id := range []string{"preset", "base", "factor", "cap", "attempts", "jitter", "seed",
		"base-value", "factor-value", "cap-value", "attempts-value", "delay-table", "delay-chart",
		"herd-chart", "compare", "metric-calls", "metric-amplification", "metric-p99", "metric-gave-up", "metric-peak"} {
		if !eval[bool](t, tb, `!!document.getElementById('`+id+`')`) {
			t.Errorf("no element #%s", id)
		}
	}
}

func TestBrowserDelayTableFromURL(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, articleQuery)
	rows := tb.table(t)
	if got, want := column(rows, "nominal"), []string{"1", "2", "4", "8", "16"}; !slices.Equal(got, want) {
		t.Errorf("nominal delays %v, want %v", got, want)
	}
	if got := column(rows, "retry"); !slices.Equal(got, []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("retry column %v", got)
	}
	if got := eval[string](t, tb, `document.getElementById('total-max').dataset.seconds`); got != "31" {
		t.Errorf("worst-case total %q s, want 31", got)
	}
	if n := len(rows); n > 0 && rows[n-1]["cum_max"] != "31" {
		t.Errorf("last cumulative worst case %q, want 31", rows[n-1]["cum_max"])
	}
	if got := eval[string](t, tb, `document.getElementById('base-value').value`); got != "1s" {
		t.Errorf("base-value shows %q, want 1s", got)
	}
	// Each slider's thumb must sit at its value: the browser clamps a value
	// set before a larger max, and the thumb then disagrees with the box.
	// Durations are log sliders of two-digit values, 90 a decade from
	// 10 ms: 1s is position 180, 30s is 270 + 20 = 290.
	for id, want := range map[string]string{"base": "180", "factor": "2", "cap": "290", "attempts": "6"} {
		if got := eval[string](t, tb, `document.getElementById('`+id+`').value`); got != want {
			t.Errorf("#%s slider is at %s, want %s (the value box and the thumb disagree)", id, got, want)
		}
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

func TestBrowserTypedBase(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, articleQuery)
	tb.typeInto(t, "base-value", "2s")
	poll[bool](t, tb, "the first row to show 2 s",
		`document.querySelector('#delay-table tbody tr [data-col=nominal]').dataset.seconds === '2'`)
	if got, want := column(tb.table(t), "nominal"), []string{"2", "4", "8", "16", "30"}; !slices.Equal(got, want) {
		t.Errorf("nominal delays after base=2s: %v, want %v (capped at 30)", got, want)
	}
	poll[bool](t, tb, "the URL to say base=2s", `location.search.includes('base=2s')`)
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

// TestBrowserAttemptsAndReload moves the attempts slider, then loads the
// URL the page wrote and expects the same table, samples included.
func TestBrowserAttemptsAndReload(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "base=1s&factor=2&cap=30s&attempts=6&jitter=full&seed=7")
	if n := len(tb.table(t)); n != 5 {
		t.Fatalf("%d rows for attempts=6, want 5", n)
	}
	eval[string](t, tb, setRangeJS("attempts", "9"))
	poll[bool](t, tb, "8 rows", `document.querySelectorAll('#delay-table tbody tr').length === 8`)
	poll[bool](t, tb, "the URL to say attempts=9", `new URLSearchParams(location.search).get('attempts') === '9'`)
	if got := eval[string](t, tb, `document.getElementById('attempts-value').value`); got != "9" {
		t.Errorf("attempts-value shows %q after the slider moved to 9", got)
	}
	eval[string](t, tb, setRangeJS("attempts", "3"))
	poll[bool](t, tb, "2 rows", `document.querySelectorAll('#delay-table tbody tr').length === 2`)
	poll[bool](t, tb, "the URL to say attempts=3", `new URLSearchParams(location.search).get('attempts') === '3'`)
	eval[string](t, tb, setRangeJS("attempts", "8"))
	poll[bool](t, tb, "7 rows", `document.querySelectorAll('#delay-table tbody tr').length === 7`)
	poll[bool](t, tb, "the URL to say attempts=8", `new URLSearchParams(location.search).get('attempts') === '8'`)

	before := tb.table(t)
	link := eval[string](t, tb, `location.href`)
	if h := eval[int](t, tb, `history.length`); h > 2 {
		t.Errorf("history has %d entries: slider moves must replace the URL, not push", h)
	}
	samples := column(before, "sample")
	if slices.Equal(samples, column(before, "nominal")) {
		t.Errorf("samples %v equal the nominal delays: full jitter should draw below them", samples)
	}

	// A new tab, as someone opening a shared link.
	other := newTab(t, 1280, 900)
	_, query, _ := strings.Cut(link, "?")
	other.open(t, query)
	after := other.table(t)
	if !slices.EqualFunc(before, after, func(a, b row) bool { return mapsEqual(a, b) }) {
		t.Errorf("the link %s restored a different table:\nbefore %v\nafter  %v", link, before, after)
	}
	// And a reload of the same tab.
	tb.open(t, query)
	if again := tb.table(t); !slices.EqualFunc(before, again, func(a, b row) bool { return mapsEqual(a, b) }) {
		t.Errorf("reloading %s gave a different table:\nbefore %v\nafter  %v", link, before, again)
	}
	for _, x := range []*tab{tb, other} {
		if p := x.problems(t); len(p) > 0 {
			t.Errorf("problems: %v", p)
		}
	}
}

func mapsEqual(a, b row) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// drawnJS measures what an element's SVG draws: the summed length of its
// paths and polylines, and the number of shapes, in real SVG elements (an
// element without the SVG namespace draws nothing and has no length).
const drawnJS = `((id) => { const c = document.getElementById(id); if (!c) return {len: 0, shapes: 0, w: 0};
  let len = 0, shapes = 0;
  for (const e of c.querySelectorAll('path, polyline, polygon, line, rect, circle')) {
    if (!(e instanceof SVGGeometryElement)) continue;
    shapes++; try { len += e.getTotalLength(); } catch (_) {}
  }
  for (const cv of c.querySelectorAll('canvas')) { shapes++; len += cv.width; }
  const r = c.getBoundingClientRect(); return {len: Math.round(len), shapes, w: Math.round(r.width)}; })`

type drawn struct {
	Len    float64 `json:"len"`
	Shapes int     `json:"shapes"`
	W      float64 `json:"w"`
}

func TestBrowserChartsDrawn(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "")
	poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
	for _, id := range []string{"herd-chart", "delay-chart", "compare"} {
		d := eval[drawn](t, tb, drawnJS+`('`+id+`')`)
		t.Logf("#%s: %d shapes, path length %.0f px, %.0f px wide", id, d.Shapes, d.Len, d.W)
		if d.Shapes == 0 || d.Len < 100 || d.W < 100 {
			t.Errorf("#%s draws nothing visible: %+v", id, d)
		}
	}
	if calls := eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`); calls == "" || calls == "0" {
		t.Errorf("metric-calls data-value %q, want the herd's calls", calls)
	}
}

func TestBrowserInvalidInput(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, articleQuery)
	before := tb.table(t)
	tb.typeInto(t, "base-value", "banana")
	msg := poll[string](t, tb, "an inline error for base-value", `(() => { const e = document.getElementById('base-value-error');
	  return e && !e.hidden && e.textContent.trim(); })()`)
	t.Logf("inline error: %q", msg)
	if got := eval[string](t, tb, `document.getElementById('base-value').getAttribute('aria-invalid')`); got != "true" {
		t.Errorf("base-value aria-invalid %q, want true", got)
	}
	if after := tb.table(t); !slices.EqualFunc(before, after, func(a, b row) bool { return mapsEqual(a, b) }) {
		t.Errorf("an invalid base changed the table:\nbefore %v\nafter  %v", before, after)
	}
	if !eval[bool](t, tb, `new URLSearchParams(location.search).get('base') === '1s'`) {
		t.Errorf("an invalid base reached the URL: %s", eval[string](t, tb, `location.search`))
	}
	// The page keeps working: a slider still updates, a valid value clears the error.
	eval[string](t, tb, setRangeJS("attempts", "4"))
	poll[bool](t, tb, "3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	tb.typeInto(t, "base-value", "500ms")
	poll[bool](t, tb, "the error to clear and the first row to show 0.5 s", `(() => {
	  const e = document.getElementById('base-value-error');
	  return (!e || e.hidden) && document.querySelector('#delay-table tbody tr [data-col=nominal]').dataset.seconds === '0.5'; })()`)
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

// TestBrowserScreenshots saves the default page in both languages on a
// phone, a laptop and a wide desktop (tmp/screenshots/, gitignored) for a
// person to look at.
func TestBrowserScreenshots(t *testing.T) {
	for _, vp := range []struct {
		name          string
		width, height int64
		query         string
	}{
		{"default-desktop", 1280, 800, "lang=en"}, {"default-phone", 390, 844, "lang=en"}, {"default-wide", 1920, 1080, "lang=en"},
		{"ru-desktop", 1280, 800, "lang=ru"}, {"ru-phone", 390, 844, "lang=ru"}, {"ru-wide", 1920, 1080, "lang=ru"},
		{"compare-two", 1920, 1080, "preset=aws-standard&b.preset=gax&b.attempts=4&runs=3&lang=en"},
		{"lesson-ru", 1280, 800, "lesson=3&lang=ru"}, {"present", 1024, 768, "lesson=1&present=1&lang=en"},
		{"lesson16-en", 1280, 800, "lesson=16&lang=en"}, {"lesson16-present-ru", 1024, 768, "lesson=16&present=1&lang=ru"},
		{"cache-flush-ru", 1280, 800, "scenario=cache-flush&discipline=lifo&lang=ru"},
		// The longest select entries, for the clipping check.
		{"knobs-en", 1280, 800, "lang=en&preset=ethernet&arrival=clock:1m&budget=tokens:500:5:1&breaker=ratio:0.5:20:10s:5s&server=collapse&jitter=decorrelated-v2&growth=exp-minus-one&cap-mode=exact&runs=20"},
		{"knobs-ru", 390, 844, "lang=ru&preset=retryablehttp&arrival=clock:1m&budget=ratio:0.2:3&breaker=consecutive:5:5s&server=occ&jitter=proportional&growth=polynomial&cap-mode=after&runs=3"},
		// The request path: a fleet on a desktop, the cache in front of
		// its database on a phone in the dark (their -first shot is the
		// drawing).
		{"topology-en", 1350, 900, "scenario=fleet-crash&lang=en"},
		{"topology-ru", 412, 915, "scenario=cache-flush&lang=ru&theme=dark"},
	} {
		t.Run(vp.name, func(t *testing.T) { screenshotOf(t, vp.name, vp.width, vp.height, vp.query) })
	}
}

// screenshotOf checks the page at one viewport and saves its pictures.
func screenshotOf(t *testing.T, name string, width, height int64, query string) {
	vp := struct {
		name          string
		width, height int64
		query         string
	}{name, width, height, query}
	{
		tb := newTab(t, vp.width, vp.height)
		tb.open(t, vp.query)
		if strings.Contains(vp.query, "lesson=") {
			poll[bool](t, tb, "the lesson", `!!document.getElementById('lesson-title') && (!document.getElementById('herd-progress') || document.getElementById('herd-progress').hidden)`)
		} else {
			poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
		}
		time.Sleep(200 * time.Millisecond)
		if over := eval[int](t, tb, `document.documentElement.scrollWidth - window.innerWidth`); over > 0 {
			t.Errorf("%s: the page is %d px wider than the %d px viewport (horizontal scrolling)", vp.name, over, vp.width)
		}
		// A select cannot wrap: its chosen entry must fit its box (the text's
		// width in the select's own font, against the box less its padding
		// and arrow).
		// Nothing sticks out of the screen, even where the page itself
		// does not scroll sideways.
		if out := eval[[]string](t, tb, `[...document.querySelectorAll('button, select, input')].filter(e => e.offsetParent &&
		  e.getBoundingClientRect().right > innerWidth + 1).map(e => e.id || e.textContent)`); len(out) > 0 {
			t.Errorf("%s: controls past the screen's right edge: %v", vp.name, out)
		}
		// A caption or heading is one line of words that must fit its box.
		if over := eval[[]string](t, tb, `[...document.querySelectorAll('figcaption, h1, h2, h3')].filter(e => e.offsetParent &&
		  e.scrollWidth > e.clientWidth + 1).map(e => e.textContent + ': ' + e.scrollWidth + ' > ' + e.clientWidth + ' px')`); len(over) > 0 {
			t.Errorf("%s: text wider than its box: %v", vp.name, over)
		}
		if clipped := eval[[]string](t, tb, clippedSelectsJS); len(clipped) > 0 {
			t.Errorf("%s: clipped selects: %v", vp.name, clipped)
		}
		if strings.HasPrefix(vp.name, "default-") || strings.HasPrefix(vp.name, "ru-") {
			checkLayout(t, tb, vp.name, vp.width, vp.height)
		}
		tb.screenshot(t, vp.name)
		if strings.HasPrefix(vp.name, "topology-") {
			eval[bool](t, tb, `(document.getElementById('topology').scrollIntoView(), true)`)
			time.Sleep(100 * time.Millisecond)
		}
		tb.viewportShot(t, vp.name+"-first")
		if strings.HasPrefix(vp.name, "topology-") {
			eval[bool](t, tb, `(document.getElementById('topology-controls').scrollIntoView(), true)`)
			time.Sleep(100 * time.Millisecond)
			tb.viewportShot(t, vp.name+"-controls")
		}
	}
}

// boxesJS is the viewport rectangles of the elements the selectors name
// (the first match of each; a zero box when none).
const boxesJS = `((sels) => sels.map(s => { const e = document.querySelector(s);
  const r = e ? e.getBoundingClientRect() : {left: 0, top: 0, right: 0, bottom: 0};
  return {sel: s, found: !!e, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }))`

type box struct {
	Sel                      string
	Found                    bool
	Left, Top, Right, Bottom float64
}

// chartTextJS lists the visible SVG text drawn smaller than 11 px: its font
// size in the chart's units times the chart's scale on screen (its drawn
// width over its viewBox's), and the height of its box on screen.
const chartTextJS = `(() => { const out = [];
  for (const t of document.querySelectorAll('svg text')) {
    const r = t.getBoundingClientRect();
    if (!t.textContent.trim() || r.width === 0) continue;
    const svg = t.ownerSVGElement, vb = svg.viewBox.baseVal;
    const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (px < 11 || r.height < 11) out.push((t.closest('[id]') || {}).id + ' "' + t.textContent.trim() + '": ' +
      px.toFixed(1) + ' px, box ' + r.height.toFixed(1) + ' px high');
  }
  return out; })()`

// checkLayout holds the default page to the layout it promises for a
// screen: a laptop's first screen reaches the herd's chart, a wide screen
// puts one client and the herd side by side, and a phone draws chart text
// of at least 11 px with the herd's chart ahead of its controls.
func checkLayout(t *testing.T, tb *tab, name string, width, height int64) {
	t.Helper()
	bs := eval[[]box](t, tb, boxesJS+`(['.controls', '.delays', '#delay-table', '.herd', '#herd-chart svg',
	  '.delay-charts', '.herd .scenarios', '.herd-controls'])`)
	b := map[string]box{}
	for _, x := range bs {
		if !x.Found {
			t.Errorf("%s: no %s", name, x.Sel)
		}
		b[x.Sel] = x
	}
	vh := float64(height)
	switch {
	case width == 1280:
		// The controls, the whole table and the chart's start (its title
		// and the top of its plot: 100 px) on the first screen.
		if c := b[".controls"]; c.Top >= vh {
			t.Errorf("%s: the controls start at %.0f px, below the %.0f px screen", name, c.Top, vh)
		}
		if tab := b["#delay-table"]; tab.Bottom > vh {
			t.Errorf("%s: the delay table ends at %.0f px, below the %.0f px screen", name, tab.Bottom, vh)
		}
		if c := b["#herd-chart svg"]; c.Top > vh-100 {
			t.Errorf("%s: the herd's chart starts at %.0f px: less than 100 px of it on the %.0f px first screen", name, c.Top, vh)
		}
	case width >= 1600:
		// One row: the table beside the herd, the delay charts under the
		// table and still beside the herd.
		d, h, ch := b[".delays"], b[".herd"], b[".delay-charts"]
		if math.Abs(d.Top-h.Top) > 1 || d.Right > h.Left {
			t.Errorf("%s: one client (%.0f..%.0f px across, top %.0f) and the herd (%.0f..%.0f, top %.0f) are not side by side",
				name, d.Left, d.Right, d.Top, h.Left, h.Right, h.Top)
		}
		if ch.Right > h.Left || ch.Top > h.Bottom || ch.Top < d.Bottom {
			t.Errorf("%s: the delay charts (%.0f..%.0f px across, from %.0f down) are not under the table beside the herd (its top %.0f, its bottom %.0f px)",
				name, ch.Left, ch.Right, ch.Top, h.Top, h.Bottom)
		}
	case width < 600:
		if small := eval[[]string](t, tb, chartTextJS); len(small) > 0 {
			t.Errorf("%s: chart text under 11 px on a %d px screen:\n  %s", name, width, strings.Join(small, "\n  "))
		}
		c := b["#herd-chart svg"]
		for _, k := range []string{".herd .scenarios", ".herd-controls"} {
			if b[k].Top < c.Bottom {
				t.Errorf("%s: %s (from %.0f px) come before the herd's chart (%.0f..%.0f px)", name, k, b[k].Top, c.Top, c.Bottom)
			}
		}
	}
}

// clippedSelectsJS lists the visible selects whose chosen entry is wider
// than the room the select gives it.
const clippedSelectsJS = `(() => { const c = document.createElement('canvas').getContext('2d'); const out = [];
  for (const s of document.querySelectorAll('select')) {
    if (!s.offsetParent || s.selectedIndex < 0) continue;
    const st = getComputedStyle(s); c.font = st.font;
    const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
    const text = s.options[s.selectedIndex].text, w = c.measureText(text).width;
    if (w > room) out.push(s.id + ': ' + text + ' (' + Math.round(w) + ' > ' + Math.round(room) + ' px)');
  }
  return out; })()`

// TestBrowserBasePath serves the playground under a prefix, as behind a
// reverse proxy: every asset, the worker and the URL state stay under it.
func TestBrowserBasePath(t *testing.T) {
	setup(t)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--base-path", "/playground")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	if !strings.HasSuffix(url, "/playground/") {
		t.Fatalf("start line URL %q lacks the base path", url)
	}
	tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
	tb.openURL(t, url+"?"+articleQuery)
	if got := column(tb.table(t), "nominal"); !slices.Equal(got, []string{"1", "2", "4", "8", "16"}) {
		t.Errorf("nominal delays under /playground: %v", got)
	}
	eval[string](t, tb, setRangeJS("attempts", "4"))
	poll[bool](t, tb, "3 rows", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	poll[bool](t, tb, "the URL to keep the prefix and say attempts=4",
		`location.pathname === '/playground/' && new URLSearchParams(location.search).get('attempts') === '4'`)
	scope := poll[string](t, tb, "the service worker", `navigator.serviceWorker.getRegistration().then(r => r && r.active && r.scope)`)
	if !strings.HasSuffix(scope, "/playground/") {
		t.Errorf("service worker scope %q, want the base path", scope)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems under /playground:\n  %s", strings.Join(p, "\n  "))
	}
}

// TestBrowserWasmBudget checks what a browser downloads for app.wasm from
// the real handler: brotli when offered, within the 1.75 MB budget.
// It needs the built wasm, not a browser.
func TestBrowserWasmBudget(t *testing.T) {
	h, info := newServer(serverConfig{}, web.FS, static.FS)
	if !info.hasWasm {
		t.Fatal("web/app.wasm is not built: run `make test-browser`, which builds it first")
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/web/app.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd") // Chromium's
	res, err := http.DefaultTransport.RoundTrip(req)             // no transparent gunzip
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if enc := res.Header.Get("Content-Encoding"); enc != "br" {
		t.Errorf("app.wasm served with Content-Encoding %q, want br", enc)
	}
	t.Logf("app.wasm over the wire: %d bytes (%d uncompressed)", n, info.wasmSize)
	if n > wireLimit {
		t.Errorf("app.wasm is %d bytes over the wire, %d over the %d byte budget", n, n-wireLimit, wireLimit)
	}
	// The Import panel's readers come when it is first used, in brotli too.
	req, _ = http.NewRequest("GET", srv.URL+"/web/import.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	if res, err = http.DefaultTransport.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	n, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "br" {
		t.Errorf("import.wasm: %d, Content-Encoding %q, want 200 and br", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	t.Logf("import.wasm over the wire, on the Import panel's first reading: %d bytes", n)
}

// TestBrowserCSPIsEnforced checks the detector the other tests rely on: an
// inline style the policy forbids is blocked and reported.
func TestBrowserCSPIsEnforced(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "")
	eval[bool](t, tb, `(() => { document.querySelector('h1').setAttribute('style', 'color: red'); return true; })()`)
	got := poll[string](t, tb, "the CSP violation", `(window.__pg.csp || []).join(' | ')`)
	if !strings.Contains(got, "style-src") {
		t.Errorf("violation %q, want style-src", got)
	}
	if color := eval[string](t, tb, `getComputedStyle(document.querySelector('h1')).color`); color == "rgb(255, 0, 0)" {
		t.Error("the inline style was applied: the CSP is not enforced")
	}
}

// TestBrowserUpdateBanner checks the update banner: a first visit in a
// fresh browser, whose worker installs and claims the page, is not an
// update (go-app reports it as one); a worker of another build, which
// deletes this build's cache when it activates, is.
func TestBrowserUpdateBanner(t *testing.T) {
	tb := newTab(t, 1280, 800, chromedp.WithNewBrowserContext())
	tb.open(t, "")
	poll[bool](t, tb, "the worker to control the page", `navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === 'activated' && navigator.serviceWorker.controller))`)
	time.Sleep(time.Second) // the banner's check answers asynchronously
	if eval[bool](t, tb, `!document.getElementById('update').hidden`) {
		t.Fatalf("a first visit shows the update banner: %s", eval[string](t, tb, `document.getElementById('update').textContent`))
	}
	// Another build's activation: this build's cache deleted, then go-app's notice.
	eval[bool](t, tb, `caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k)))).then(() => { goappOnUpdate(); return true; })`)
	poll[bool](t, tb, "the update banner", `!document.getElementById('update').hidden && !!document.getElementById('update-reload')`)
}
