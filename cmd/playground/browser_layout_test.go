//go:build browser && !wasm

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// On a 390 px phone the delay table shows its last column (Σ max) whole,
// on the page and in an embedded view, in both languages: it fits, with
// no sideways scrolling to discover.
func TestBrowserPhoneTableFits(t *testing.T) {
	tb := newTab(t, 390, 844)
	for _, q := range []string{"lang=en", "lang=ru", "lang=en&view=table", "lang=ru&view=table", "lang=ru&preset=aws-blog-full"} {
		tb.open(t, q)
		m := eval[map[string]float64](t, tb, `(() => { const w = document.querySelector('.table-wrap'), c = w.querySelector('tbody tr td[data-col="cum_max"]') ||
		    [...w.querySelectorAll('tbody tr:first-child td')].pop();
		  return {scroll: w.scrollWidth, client: w.clientWidth, right: c.getBoundingClientRect().right, wrapRight: w.getBoundingClientRect().right,
		    page: document.documentElement.scrollWidth, vw: innerWidth}; })()`)
		t.Logf("%s: %+v", q, m)
		if m["scroll"] > m["client"]+1 || m["right"] > m["wrapRight"]+1 {
			t.Errorf("%s: the table is %.0f px wide in %.0f px; its last column ends at %.0f px, the box at %.0f px", q, m["scroll"], m["client"], m["right"], m["wrapRight"])
		}
		if m["page"] > m["vw"] {
			t.Errorf("%s: the page is %.0f px wide on a %.0f px screen", q, m["page"], m["vw"])
		}
		eval[bool](t, tb, `(document.querySelector('.table-wrap').scrollIntoView(), true)`)
		tb.viewportShot(t, fmt.Sprintf("phone-table-%d", len(q)))
	}
}

// At 1280×800 the herd's inputs follow its chart closely: a change and
// the chart it redraws fit one screen.
func TestBrowserHerdInputsNearChart(t *testing.T) {
	tb := newTab(t, 1280, 800)
	for _, q := range []string{"lang=en", "lang=ru"} {
		tb.open(t, q)
		poll[bool](t, tb, "the herd run", settledJS)
		m := eval[map[string]float64](t, tb, `(() => { const c = document.querySelector('#herd-chart').getBoundingClientRect(),
		    i = document.querySelector('.herd-controls').getBoundingClientRect();
		  return {chartBottom: c.bottom, inputsTop: i.top, gap: i.top - c.bottom}; })()`)
		t.Logf("%s: %+v", q, m)
		if m["gap"] > 300 {
			t.Errorf("%s: the herd's inputs start %.0f px below its chart, want 300 px or less", q, m["gap"])
		}
		eval[bool](t, tb, `(document.querySelector('#herd-chart').scrollIntoView(), true)`)
		tb.viewportShot(t, "desk-herd-"+q[5:])
	}
}

// Typing into a box replaces its value (30s after 10s was 10s30s, which
// Go reads as 40s); text with a unit twice is refused, never added up.
func TestBrowserBoxReplaces(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&server=outage&outage-end=10s")
	if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("outage-end-value")), chromedp.SendKeys(chromedp.ID("outage-end-value"), "30s\t")); err != nil {
		t.Fatal(err)
	}
	exPollParam(t, tb, "outage-end", "30s")
	if v := exValue(t, tb, "outage-end-value"); v != "30s" {
		t.Errorf("the box says %q after typing 30s into 10s", v)
	}
	eval[bool](t, tb, `(() => { const el = document.getElementById('outage-end-value'); el.focus(); el.value = '10s30s';
	  el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	poll[bool](t, tb, "the box's error", `document.getElementById('outage-end-value').getAttribute('aria-invalid') === 'true'`)
	time.Sleep(300 * time.Millisecond)
	if v := eval[string](t, tb, `new URLSearchParams(location.search).get('outage-end')`); v != "30s" {
		t.Errorf("10s30s applied: outage-end=%s", v)
	}
}

// The Russian faults box says "нет", and reads it back.
func TestBrowserFaultsNoneRussian(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=ru&server=queue&traffic=open:200")
	if v := exValue(t, tb, "fault-value"); v != "нет" {
		t.Errorf("the Russian faults box says %q, want нет", v)
	}
	tb.typeInto(t, "fault-value", "stall@1s-2s")
	exPollParam(t, tb, "fault", "stall@1s-2s")
	tb.typeInto(t, "fault-value", "нет")
	poll[bool](t, tb, "no fault in the link", `!new URLSearchParams(location.search).has('fault')`)
	if e := exFieldError(t, tb, "fault-value"); e != "" {
		t.Errorf("нет is refused: %s", e)
	}
}

// The link keeps the Export panel's library and the Embed panel's view;
// Export opens on the preset's own system; the Embed panel copies, picks
// a theme and shows its snippets whole.
func TestBrowserPanelsInLink(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&preset=grpc-retry")
	click := func(id string) {
		t.Helper()
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
			t.Fatal(err)
		}
	}
	click("export")
	poll[bool](t, tb, "the Export panel", `!!document.getElementById('export-to')`)
	if v := exValue(t, tb, "export-to"); v != "grpc-json" {
		t.Errorf("Export opens on %q for gRPC's preset, want grpc-json", v)
	}
	exPollParam(t, tb, "export", "grpc-json")
	exSelect(t, tb, "export-to", "envoy-yaml")
	exPollParam(t, tb, "export", "envoy-yaml")
	click("embed")
	poll[bool](t, tb, "the Embed panel", `!!document.getElementById('embed-code')`)
	exSelect(t, tb, "embed-view", "herd")
	exPollParam(t, tb, "embed", "herd")

	// The link reopens both panels as they were.
	u := eval[string](t, tb, `location.href`)
	tb.openURL(t, u)
	poll[bool](t, tb, "both panels from the link", `!!document.getElementById('export-code') && !!document.getElementById('embed-code')`)
	if v := exValue(t, tb, "export-to"); v != "envoy-yaml" {
		t.Errorf("reopened, #export-to is %q", v)
	}
	if v := exValue(t, tb, "embed-view"); v != "herd" {
		t.Errorf("reopened, #embed-view is %q", v)
	}
	// The snippets do not carry the panels.
	for _, id := range []string{"embed-code", "embed-markdown"} {
		if v := exValue(t, tb, id); strings.Contains(v, "export=") || strings.Contains(v, "embed=") {
			t.Errorf("#%s carries the panels: %s", id, v)
		}
	}
	// Theme: the snippet asks for it.
	exSelect(t, tb, "embed-theme", "dark")
	poll[bool](t, tb, "the dark snippet", `document.getElementById('embed-code').value.includes('theme=dark')`)
	// Whole: each box shows all its text.
	for _, id := range []string{"embed-code", "embed-markdown"} {
		m := eval[map[string]float64](t, tb, fmt.Sprintf(`(() => { const e = document.getElementById(%q); return {scroll: e.scrollHeight, client: e.clientHeight}; })()`, id))
		if m["scroll"] > m["client"]+1 {
			t.Errorf("#%s shows %.0f px of its %.0f px", id, m["client"], m["scroll"])
		}
	}
	// Copy: the HTML and the Markdown, said in the status.
	eval[bool](t, tb, clipboardJS(false))
	click("embed-copy-html")
	poll[bool](t, tb, "the HTML copied", `window.__writes.length === 1 && window.__writes[0] === document.getElementById('embed-code').value`)
	poll[bool](t, tb, "the status", `document.getElementById('copy-status').textContent === 'HTML copied'`)
	click("embed-copy-md")
	poll[bool](t, tb, "the Markdown copied", `window.__writes.length === 2 && window.__writes[1] === document.getElementById('embed-markdown').value`)
	tb.screenshot(t, "embed-panel-en")
	exNoProblems(t, tb)
}

// An embedded view: one heading (its h1), a copy button's feedback, and
// the manual copy box when the clipboard is refused.
func TestBrowserEmbedViewHeadAndCopy(t *testing.T) {
	tb := newTab(t, 600, 900)
	for _, lang := range []string{"en", "ru"} {
		tb.open(t, "lang="+lang+"&view=table")
		heads := eval[[]string](t, tb, `[...document.querySelectorAll('h1, h2, h3, .embed-title')].map(h => h.tagName + ' ' + h.textContent)`)
		if len(heads) != 1 || !strings.HasPrefix(heads[0], "H1 ") {
			t.Errorf("%s: the view's headings are %q, want one h1", lang, heads)
		}
		eval[bool](t, tb, clipboardJS(false))
		eval[bool](t, tb, `(document.getElementById('copy-csv').click(), true)`)
		poll[bool](t, tb, "the copy's feedback", `document.getElementById('copy-status').textContent.length > 0 && window.__writes.length === 1`)
		eval[bool](t, tb, clipboardJS(true))
		eval[bool](t, tb, `(document.getElementById('copy-md').click(), true)`)
		poll[bool](t, tb, "the copy-by-hand box", `!document.getElementById('copy-text').hidden && document.getElementById('copy-text').value.startsWith('|')`)
		t.Logf("%s: %q", lang, exText(t, tb, "copy-status"))
		tb.viewportShot(t, "embed-view-copy-"+lang)
	}
}

// Words where a number would puzzle: a p99 with no client succeeded says
// why, and so does a peak load of 0× (every call came in the outage).
func TestBrowserNumbersSayWhy(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&clients=300&server=outage&outage-end=1h&attempts=3&base=1s&cap=2s")
	poll[bool](t, tb, "the herd run", settledJS)
	poll[bool](t, tb, "the compare grid", `document.querySelectorAll('#compare .cmp-stats').length > 0 && !document.querySelector('#compare .pending')`)
	if v := eval[string](t, tb, `document.getElementById('metric-peak').dataset.value`); v != "0" {
		t.Fatalf("peak load %q, the test needs 0", v)
	}
	why := eval[string](t, tb, `(document.querySelector('#metric-peak .metric-none') || {}).textContent || ''`)
	if !strings.Contains(why, "outage") {
		t.Errorf("peak 0× says %q, want the outage named in visible text", why)
	}
	stats := eval[string](t, tb, `document.querySelector('#compare .cmp-stats').textContent`)
	if !strings.Contains(stats, "p99 — (no client succeeded)") {
		t.Errorf("compare stats %q: the p99 dash gives no reason", stats)
	}
}

// On a static host (no server) the Embed panel does not offer a Markdown
// image that would answer 404: it says so and offers the view's SVG,
// drawn in the page. So on a host that answers every unknown path with the
// site's page and 200 (Cloudflare Pages without a 404.html), where the
// image's address answered that page and the panel took the host for a
// server.
func TestBrowserEmbedPanelStaticHost(t *testing.T) {
	setup(t)
	dir := t.TempDir()
	if _, err := writeStatic(dir, "/repo", web.FS, static.FS); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/repo/", http.StripPrefix("/repo", http.FileServer(http.Dir(dir))))
	plain := httptest.NewServer(mux)
	t.Cleanup(plain.Close)
	fallback := httptest.NewServer(fallbackHost(dir, "/repo"))
	t.Cleanup(fallback.Close)
	for _, c := range []struct{ host, url, lang string }{
		{"404", plain.URL, "en"}, {"404", plain.URL, "ru"}, {"page for any path", fallback.URL, "ru"},
	} {
		l, _ := i18n.Parse(c.lang)
		tb := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
		start := time.Now()
		tb.openURL(t, c.url+"/repo/?lang="+c.lang+"&embed=herd")
		t.Logf("%s, %s: mounted in %v", c.host, c.lang, time.Since(start))
		poll[bool](t, tb, "the no-server notice", `!!document.getElementById('embed-no-server') && !document.getElementById('embed-no-server').hidden`)
		t.Logf("%s, %s: the notice after %v", c.host, c.lang, time.Since(start))
		if got := exText(t, tb, "embed-no-server"); got != l.T("embed.no-server") {
			t.Errorf("%s, %s: notice %q", c.host, c.lang, got)
		}
		if eval[bool](t, tb, `(() => { const m = document.getElementById('embed-markdown'); return !m.hidden && m.getClientRects().length > 0; })()`) {
			t.Errorf("%s, %s: the Markdown image shows on a static host", c.host, c.lang)
		}
		eval[bool](t, tb, `(() => { window.__downloads = []; const real = HTMLAnchorElement.prototype.click;
		  HTMLAnchorElement.prototype.click = function() { if (this.download) { window.__downloads.push(this.download); return; } real.call(this); }; return true; })()`)
		eval[bool](t, tb, `(document.getElementById('embed-download').click(), true)`)
		poll[bool](t, tb, "the SVG download", `window.__downloads.length === 1 && window.__downloads[0] === 'backoff-herd.svg'`)
		tb.viewportShot(t, "embed-static-"+strings.ReplaceAll(c.host, " ", "-")+"-"+c.lang)
	}
}
