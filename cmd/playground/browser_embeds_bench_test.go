//go:build browser && !wasm

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// embedViewsBench are the four views of the docs page with four embeds.
var embedViewsBench = []string{"table", "delays", "herd", "compare"}

// BenchmarkBrowserEmbeds loads a docs page (another origin, as a docs site
// is) holding the Embed panel's iframe snippet for one view, then for four
// views, in a fresh browser context each time (a first visit), alternately,
// and reports the time from navigation start until every embed has
// started: its first height message, which the app posts once mounted.
// Same-site iframes share one renderer's main thread, so four embeds pay
// four starts there (one compile: the frames share it); the goal is four
// within 2x of one.
func BenchmarkBrowserEmbeds(b *testing.B) {
	setup(b)
	// The snippets, as the Embed panel gives them for each view.
	tb := newTab(b, 1280, 900)
	snippets := map[string]string{}
	for _, v := range embedViewsBench {
		tb.open(b, "embed="+v)
		snippets[v] = poll[string](b, tb, "the "+v+" snippet", `(document.getElementById('embed-code') || {}).value || ''`)
	}
	docs := newDocsSite(b)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", docs.URL)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	// The docs page records when each embed first reports its height.
	const watch = `<script>window.__embeds = []; addEventListener('message', e => {
  if (e.data && e.data.type === 'backoff-playground:height' && !window.__embeds.some(x => x.source === e.source))
    window.__embeds.push({source: e.source, at: performance.now()});
});</script>`
	page := func(views []string) string {
		var s strings.Builder
		s.WriteString("<!doctype html><title>docs</title>" + watch + "<h1>Retries</h1>\n")
		for _, v := range views {
			// The snippet names the playground it was copied from; this
			// server is another one, for the docs page's origin.
			sn := strings.ReplaceAll(snippets[v], env.url, url)
			fmt.Fprintf(&s, "<p>The %s view:</p>\n%s\n", v, sn)
		}
		return s.String()
	}
	docs.set("/one", page(embedViewsBench[:1]))
	docs.set("/four", page(embedViewsBench))

	load := func(path string, n int) float64 {
		// Tall enough to show all four: the snippet's iframes load lazily,
		// when near the screen.
		t := newTab(b, 1280, 2400, chromedp.WithNewBrowserContext())
		if err := chromedp.Do(t.ctx, chromedp.Navigate(docs.URL+path)); err != nil {
			b.Fatal(err)
		}
		v, err := pollIn[float64](t.ctx, fmt.Sprintf(`window.__embeds.length >= %d && Math.max(...window.__embeds.map(x => x.at))`, n),
			10*time.Millisecond, 60*time.Second)
		if err != nil {
			got, _ := chromedp.Run(t.ctx, chromedp.Evaluate[string](`JSON.stringify({started: window.__embeds.length, frames: [...document.querySelectorAll('iframe')].map(f => f.src)})`))
			b.Fatalf("%s: not every embed started: %v (%s)", path, err, got)
		}
		return v
	}
	const samples = 5
	var one, four []float64
	for range samples {
		one = append(one, load("/one", 1))
		four = append(four, load("/four", len(embedViewsBench)))
	}
	for range b.N {
	}
	slices.Sort(one)
	slices.Sort(four)
	m1, m4 := one[len(one)/2], four[len(four)/2]
	b.ReportMetric(m1, "one-median-ms")
	b.ReportMetric(m4, "four-median-ms")
	b.ReportMetric(m4/m1, "four-over-one")
	fmt.Printf("docs page with embeds (the Embed panel's snippets), first visits, %d loads each, alternated: one embed (%s) started at median %.0f ms, four (%s) at %.0f ms: %.2fx (goal <= 2x)\n",
		samples, embedViewsBench[0], m1, strings.Join(embedViewsBench, ", "), m4, m4/m1)
}
