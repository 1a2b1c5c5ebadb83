//go:build browser && !wasm

package main

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
)

// The page's take-away buttons, its Embed panel and its Export panel, each
// checked against what the same code gives natively for a known policy:
// the table's Markdown and CSV (app/chart), the server's own images
// (/svg/), the snippets of /export.

// takeAwayQuery is a known state: AWS's standard retryer with 4 attempts,
// a seeded sample column, a small herd.
const takeAwayQuery = "preset=aws-standard&attempts=4&seed=9&clients=300"

// clipboardJS makes the clipboard record what is written and accept it
// (or, with reject, refuse it as a frame without clipboard-write does).
func clipboardJS(reject bool) string {
	answer := "Promise.resolve()"
	if reject {
		answer = "Promise.reject(new DOMException('blocked by the test', 'NotAllowedError'))"
	}
	return `(() => { window.__writes = [];
	  Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {writeText: s => { window.__writes.push(s); return ` + answer + `; }}});
	  return true; })()`
}

// catchDownloadsJS records every download the page starts, its file name,
// type and text, instead of saving it: createObjectURL hands back a
// made-up URL, and a click on a link to it is kept.
const catchDownloadsJS = `(() => { window.__downloads = [];
  URL.createObjectURL = b => { const d = {type: b.type, name: null, text: null}; window.__downloads.push(d);
    b.text().then(t => { d.text = t; }); return 'blob:test/' + (window.__downloads.length - 1); };
  URL.revokeObjectURL = () => {};
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    const h = this.getAttribute('href') || '';
    if (h.startsWith('blob:test/')) { window.__downloads[+h.slice(10)].name = this.download; return; }
    return click.call(this);
  };
  return true; })()`

type download struct {
	Type, Name, Text string
}

// serverText is the body of GET path on the test server, which must be
// 200 with the content type.
func serverText(tb testing.TB, path, contentType string) string {
	tb.Helper()
	res, err := http.Get(env.url + path)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != contentType {
		tb.Fatalf("GET %s: %d %s %v", path, res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	return string(b)
}

// TestBrowserTakeAwayCopy: Copy as Markdown and Copy CSV put exactly
// app/chart's TableMarkdown and TableCSV of the page's table on the
// clipboard and say so; where the clipboard refuses, the same text shows
// selected to copy by hand, and the page does not call it a link.
func TestBrowserTakeAwayCopy(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			q := takeAwayQuery + "&lang=" + lang
			table, l, err := app.QueryTable(q)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"copy-md": chart.TableMarkdown(l, table), "copy-csv": chart.TableCSV(table)}
			done := map[string]string{"copy-md": l.T("copy.md-done"), "copy-csv": l.T("copy.csv-done")}
			if !strings.Contains(want["copy-md"], "| ") || !strings.Contains(want["copy-csv"], ",") || len(table.Rows) != 3 {
				t.Fatalf("precondition: a table of 3 retries as Markdown and CSV:\n%s\n%s", want["copy-md"], want["copy-csv"])
			}
			tb := newTab(t, 1280, 900)
			tb.open(t, q)
			for _, id := range []string{"copy-md", "copy-csv"} {
				eval[bool](t, tb, clipboardJS(false))
				if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
					t.Fatal(err)
				}
				poll[bool](t, tb, "#copy-status to say "+done[id], fmt.Sprintf(`document.getElementById('copy-status').textContent.trim() === %q`, done[id]))
				if got := eval[[]string](t, tb, `window.__writes`); len(got) != 1 || got[0] != want[id] {
					t.Errorf("#%s wrote %q, want exactly\n%s", id, got, want[id])
				}
				if eval[bool](t, tb, exCopyTextShownJS) {
					t.Errorf("#%s: the copy-by-hand box shows after a copy that worked", id)
				}

				eval[bool](t, tb, clipboardJS(true))
				if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
					t.Fatal(err)
				}
				poll[bool](t, tb, "#copy-text to show", exCopyTextShownJS)
				if got := exValue(t, tb, "copy-text"); got != want[id] {
					t.Errorf("#%s refused: #copy-text holds %q, want exactly\n%s", id, got, want[id])
				}
				if got := exText(t, tb, "copy-status"); got != l.T("copy.manual-text") {
					t.Errorf("#%s refused: #copy-status %q, want %q", id, got, l.T("copy.manual-text"))
				}
				if !eval[bool](t, tb, `(() => { const b = document.getElementById('copy-text');
				  return b.readOnly && document.activeElement === b && b.selectionStart === 0 && b.selectionEnd === b.value.length; })()`) {
					t.Errorf("#%s refused: #copy-text is not read-only, focused and selected", id)
				}
			}
			exNoProblems(t, tb)
		})
	}
}

// TestBrowserTakeAwayDownloads: each Download SVG button saves the chart it
// sits under as a named SVG file, the very picture the server draws at
// /svg/<kind>.svg for the same link (same code, same seed), in the link's
// theme.
func TestBrowserTakeAwayDownloads(t *testing.T) {
	q := takeAwayQuery + "&lang=en&theme=dark"
	tb := newTab(t, 1280, 900)
	tb.open(t, q)
	poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
	eval[bool](t, tb, catchDownloadsJS)
	for i, kind := range []string{"table", "delays", "herd", "compare"} {
		id := "download-" + kind
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
			t.Fatal(err)
		}
		got := poll[download](t, tb, "#"+id+"'s file", fmt.Sprintf(`(() => { const d = window.__downloads[%d];
		  return d && d.name !== null && d.text !== null ? {Type: d.type, Name: d.name, Text: d.text} : null; })()`, i))
		if got.Name != "backoff-"+kind+".svg" || got.Type != "image/svg+xml" {
			t.Errorf("#%s saved %q as %q, want backoff-%s.svg as image/svg+xml", id, got.Name, got.Type, kind)
		}
		want := serverText(t, "svg/"+kind+".svg?"+q, "image/svg+xml")
		if got.Text != want {
			t.Errorf("#%s saved %d bytes that differ from the server's /svg/%s.svg (%d bytes):\n%.300s\n---\n%.300s",
				id, len(got.Text), kind, len(want), got.Text, want)
		}
		if !strings.HasPrefix(got.Text, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(got.Text, "--card: #1a1f25") {
			t.Errorf("#%s: not a dark standalone SVG: %.200s", id, got.Text)
		}
	}
	if n := eval[int](t, tb, `window.__downloads.length`); n != 4 {
		t.Errorf("%d downloads for 4 clicks", n)
	}
	// The table's picture is its table: app/chart's, for the page's table.
	table, l, err := app.QueryTable(q)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := eval[string](t, tb, `window.__downloads[0].text`), chart.Standalone(chart.TableSVG(l, table), "dark"); got != want {
		t.Errorf("backoff-table.svg is not app/chart's TableSVG of the page's table")
	}
	exNoProblems(t, tb)
}

// embedWant is the Embed panel's iframe snippet and Markdown for the state
// q (a canonical query), the view and the page at base.
func embedWant(l i18n.Lang, base, q, view string) (iframe, md string) {
	title := l.T("page.title")
	src := base + "?" + q
	if view != "page" {
		title = l.T("view." + view)
		src = base + "?" + app.CanonicalQuery(q+"&view="+view)
	}
	iframe = `<iframe class="backoff-playground" src="` + html.EscapeString(src) + `" title="` + html.EscapeString(title) +
		`" width="100%" height="480" loading="lazy" allow="clipboard-write"></iframe>` + "\n" +
		`<script src="` + base + `web/static/embed.js" defer></script>`
	if view == "page" || view == "classify" {
		return iframe, ""
	}
	return iframe, "[![" + title + "](" + base + "svg/" + view + ".svg?" + q + ")](" + base + "?" + q + ")"
}

// TestBrowserEmbedPanel: the Embed button's iframe snippet and Markdown
// image for the current state and the chosen view, following both; the
// Markdown's image is one the server draws.
func TestBrowserEmbedPanel(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			l, _ := i18n.Parse(lang)
			tb := newTab(t, 1280, 900)
			tb.open(t, takeAwayQuery+"&lang="+lang)
			if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("embed"))); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, tb, "the Embed panel", `!!document.getElementById('embed-code')`)
			check := func(view string) {
				t.Helper()
				q := app.CanonicalQuery(strings.TrimPrefix(eval[string](t, tb, `location.search`), "?"))
				wantFrame, wantMD := embedWant(l, env.url, q, view)
				// A view that is no picture hides the Markdown (its box may
				// keep the last one's text, out of sight).
				js := fmt.Sprintf(`(() => { const c = document.getElementById('embed-code'), m = document.getElementById('embed-markdown');
				  return c.value === %q && m.hidden === %v && (m.hidden || m.value === %q) && m.getClientRects().length === (m.hidden ? 0 : 1); })()`,
					wantFrame, wantMD == "", wantMD)
				if _, err := pollIn[bool](tb.ctx, js, 10*time.Millisecond, 5*time.Second); err != nil {
					t.Errorf("view %s: #embed-code\n%s\nwant\n%s\n#embed-markdown (hidden %v)\n%s\nwant\n%s", view,
						exValue(t, tb, "embed-code"), wantFrame, eval[bool](t, tb, `document.getElementById('embed-markdown').hidden`),
						exValue(t, tb, "embed-markdown"), wantMD)
				}
				if wantMD != "" {
					img := strings.TrimPrefix(wantMD[strings.Index(wantMD, "](")+2:strings.Index(wantMD, ")](")], env.url)
					if svg := serverText(t, img, "image/svg+xml"); !strings.HasPrefix(svg, "<svg") {
						t.Errorf("view %s: the Markdown's image %s is not an SVG", view, img)
					}
				}
			}
			if v := exValue(t, tb, "embed-view"); v != "table" {
				t.Errorf("#embed-view starts at %q, want table", v)
			}
			check("table")
			for _, view := range []string{"herd", "classify", "page", "compare"} {
				exSelect(t, tb, "embed-view", view)
				check(view)
			}
			// The state changes: the snippet follows it.
			eval[string](t, tb, setRangeJS("attempts", "6"))
			exPollParam(t, tb, "attempts", "6")
			check("compare")
			if eval[bool](t, tb, `!document.getElementById('embed-markdown-refused').hidden`) {
				t.Errorf("an image the server draws is said to be refused: %q", exText(t, tb, "embed-markdown-refused"))
			}
			exNoProblems(t, tb)

			// A herd too big for the server's images: the panel says so, in
			// the words the server answers its link with.
			big := newTab(t, 1280, 900)
			big.open(t, strings.Replace(takeAwayQuery, "clients=300", "clients=2000000", 1)+"&lang="+lang)
			if err := chromedp.Do(big.ctx, chromedp.Click(chromedp.ID("embed"))); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, big, "the Embed panel", `!!document.getElementById('embed-code')`)
			exSelect(t, big, "embed-view", "herd")
			q := strings.TrimPrefix(eval[string](t, big, `location.search`), "?")
			want := app.QueryErrorText(q, app.ImageFits("herd", q, app.ImageBudget))
			js := fmt.Sprintf(`(() => { const r = document.getElementById('embed-markdown-refused'); return !r.hidden && r.textContent === %q; })()`, want)
			if _, err := pollIn[bool](big.ctx, js, 10*time.Millisecond, 5*time.Second); err != nil {
				t.Errorf("2M clients: #embed-markdown-refused %q, want %q", exText(t, big, "embed-markdown-refused"), want)
			}
			res, err := http.Get(env.url + "svg/herd.svg?" + q)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || strings.TrimSpace(string(body)) != want {
				t.Errorf("2M clients: the server answers %d %q, want 400 %q", res.StatusCode, body, want)
			}
		})
	}
}

// exportReplyOf is /export's answer for the target and query.
func exportReplyOf(tb testing.TB, to, q string) (snippet string, codes []string) {
	tb.Helper()
	body := serverText(tb, "export?"+url.Values{"to": {to}}.Encode()+"&"+q, "application/json")
	var r struct {
		Snippet  string
		Warnings []struct{ Code string }
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Snippet == "" {
		tb.Fatalf("/export?to=%s: %v %s", to, err, body)
	}
	for _, w := range r.Warnings {
		codes = append(codes, w.Code)
	}
	return r.Snippet, codes
}

// TestBrowserExportPanel: on the real server, the Export panel shows for
// each chosen library exactly /export's snippet for the page's state and
// one warning per code it lists; Copy puts the snippet on the clipboard;
// a change of policy brings the new snippet. A busy server's 503 is said
// as such, and the panel asks again when opened again.
func TestBrowserExportPanel(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, takeAwayQuery+"&lang=en")
	eval[bool](t, tb, `(() => { const real = window.fetch; window.__realFetch = real;
	  window.fetch = (u, o) => String(u).startsWith('export?')
	    ? Promise.resolve(new Response('busy: try again in 5 s', {status: 503, headers: {'Retry-After': '5'}})) : real(u, o);
	  return true; })()`)
	click := func(id string) {
		t.Helper()
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
			t.Fatal(err)
		}
	}
	click("export")
	l, _ := i18n.Parse("en")
	poll[bool](t, tb, "the busy message", fmt.Sprintf(`((document.getElementById('export-status') || {}).textContent || '').trim() === %q`, l.T("export.busy")))
	eval[bool](t, tb, `(window.fetch = window.__realFetch, true)`)
	click("export") // closed
	poll[bool](t, tb, "the panel to close", `document.getElementById('export-panel').hidden`)
	click("export")
	poll[bool](t, tb, "the Export panel", `!!document.getElementById('export-to')`)
	check := func(to string) string {
		t.Helper()
		q := app.CanonicalQuery(strings.TrimPrefix(eval[string](t, tb, `location.search`), "?"))
		snippet, codes := exportReplyOf(t, to, q)
		js := fmt.Sprintf(`(() => { const c = document.getElementById('export-code');
		  return !!c && c.value === %q && document.getElementById('export-to').value === %q; })()`, snippet, to)
		if _, err := pollIn[bool](tb.ctx, js, 10*time.Millisecond, 10*time.Second); err != nil {
			t.Fatalf("%s: #export-code\n%s\nwant /export's\n%s", to, eval[string](t, tb, `(document.getElementById('export-code') || {}).value || ''`), snippet)
		}
		got := eval[[]string](t, tb, `[...document.querySelectorAll('#export-warnings li')].map(li => li.dataset.code)`)
		if strings.Join(got, ",") != strings.Join(codes, ",") {
			t.Errorf("%s: warnings %v, /export's %v", to, got, codes)
		}
		return snippet
	}
	// The preset's own system first: AWS's standard retryer, Go's AWS SDK.
	if v := exValue(t, tb, "export-to"); v != "go-aws" {
		t.Errorf("#export-to starts at %q, want go-aws (the preset's own)", v)
	}
	check("go-aws")
	exSelect(t, tb, "export-to", "go-cenkalti")
	check("go-cenkalti")
	for _, to := range []string{"grpc-json", "tenacity"} {
		exSelect(t, tb, "export-to", to)
		check(to)
	}
	exSelect(t, tb, "export-to", "grpc-json")
	snippet := check("grpc-json")
	if !strings.Contains(snippet, `"_warnings"`) || !strings.Contains(snippet, `"maxAttempts": 4`) {
		t.Errorf("the gRPC snippet of AWS's standard retryer with 4 attempts:\n%s", snippet)
	}
	eval[bool](t, tb, clipboardJS(false))
	if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("export-copy"))); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, tb, "the copied status", `document.getElementById('copy-status').textContent.trim() === 'Snippet copied'`)
	if got := eval[[]string](t, tb, `window.__writes`); len(got) != 1 || got[0] != snippet {
		t.Errorf("Copy wrote %q, want the snippet", got)
	}
	// Another policy, another snippet.
	eval[string](t, tb, setRangeJS("attempts", "7"))
	exPollParam(t, tb, "attempts", "7")
	if s := check("grpc-json"); !strings.Contains(s, `"maxAttempts": 7`) {
		t.Errorf("after attempts=7 the snippet says:\n%s", s)
	}
	exNoProblems(t, tb)
}
