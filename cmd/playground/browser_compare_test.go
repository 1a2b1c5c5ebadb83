//go:build browser && !wasm

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Two policies side by side: the second's table, its bars on the delay
// chart, both herds on one scale and its numbers in the cards.
func TestBrowserCompareTwoPolicies(t *testing.T) {
	tb := newTab(t, 1920, 1080)
	tb.open(t, "preset=aws-standard&b.preset=gax&b.attempts=4&jitter=none&b.jitter=none")
	// gax without jitter: 1ns + min(1s*2^(n-1), 30s) = 1, 2, 4 s (+1 ns).
	got := eval[[]string](t, tb, `[...document.querySelectorAll('#delay-table-b tbody [data-col=nominal]')].map(td => td.dataset.seconds)`)
	if strings.Join(got, " ") != "1.000000001 2.000000001 4.000000001" {
		t.Errorf("#delay-table-b nominal %v, want gax's 1, 2, 4 s (+1 ns)", got)
	}
	if n := len(tb.table(t)); n != 2 {
		t.Errorf("the first table has %d rows, want aws-standard's 2", n)
	}
	if n := eval[int](t, tb, `document.querySelectorAll('#delay-chart .series-b').length`); n < 3 {
		t.Errorf("the delay chart draws %d paths of the second policy", n)
	}
	poll[bool](t, tb, "both herds", `document.querySelectorAll('#herd-chart svg').length === 2`)
	// One scale: the two herd charts share their y tick labels.
	ticks := eval[[]string](t, tb, `[...document.querySelectorAll('#herd-chart svg')].map(s => [...s.querySelectorAll('text.tick')].map(e => e.textContent).join(','))`)
	if len(ticks) != 2 || ticks[0] != ticks[1] {
		t.Errorf("the two herd charts have different axes: %q", ticks)
	}
	poll[bool](t, tb, "the cards to carry B", `document.getElementById('metric-calls').dataset.valueB !== undefined && document.getElementById('metric-calls').dataset.valueB !== ''`)
	a := eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`)
	b := eval[string](t, tb, `document.getElementById('metric-calls').dataset.valueB`)
	// aws-standard makes 3 attempts and gax 4, into a 10 s outage that
	// outlasts both schedules: every client spends every attempt.
	if a != "3000" || b != "4000" {
		t.Errorf("calls A %s, B %s; want 3000 and 4000", a, b)
	}
	if txt := eval[string](t, tb, `document.querySelector('#metric-calls .metric-b').textContent`); !strings.Contains(txt, "+33.3%") {
		t.Errorf("the calls card does not give the difference: %q", txt)
	}
	// Removing the second policy drops every b. key from the address.
	eval[bool](t, tb, `(document.getElementById('b-remove').click(), true)`)
	poll[bool](t, tb, "no b. keys in the URL", `!location.search.includes('b.')`)
	if n := eval[int](t, tb, `document.querySelectorAll('#delay-table-b').length`); n != 0 {
		t.Error("#delay-table-b is still there")
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}

// A typed value of the second policy applies when committed, into b. keys.
func TestBrowserCompareTypedB(t *testing.T) {
	tb := newTab(t, 1280, 800)
	tb.open(t, "")
	eval[bool](t, tb, `(document.getElementById('compare-b').click(), true)`)
	poll[bool](t, tb, "the second table", `!!document.getElementById('delay-table-b')`)
	tb.typeInto(t, "b-attempts-value", "3")
	poll[bool](t, tb, "b.attempts=3 in the URL", `new URLSearchParams(location.search).get('b.attempts') === '3'`)
	if n := eval[int](t, tb, `document.querySelectorAll('#delay-table-b tbody tr').length`); n != 2 {
		t.Errorf("#delay-table-b has %d rows for b.attempts=3", n)
	}
	if n := len(tb.table(t)); n != 5 {
		t.Errorf("the first policy changed: %d rows", n)
	}
}

// Several runs: the status counts them, the chart draws each bucket's
// range, and the cards give mean ± sd.
func TestBrowserRuns(t *testing.T) {
	tb := newTab(t, 1280, 800)
	tb.open(t, "runs=3&clients=200")
	poll[bool](t, tb, "the three runs", `(document.getElementById('herd-status').textContent || '').includes('3 runs')`)
	if n := eval[int](t, tb, `document.querySelectorAll('#herd-chart path.spread').length`); n != 1 {
		t.Errorf("%d spread paths on the herd chart, want 1", n)
	}
	if txt := eval[string](t, tb, `(document.querySelector('#metric-calls .metric-sd') || {}).textContent || ''`); !strings.Contains(txt, "over 3 runs") {
		t.Errorf("the calls card gives no spread: %q", txt)
	}
	// The mean over seeds 1..3 differs from seed 1's own count.
	mean, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`), 64)
	if mean <= 200 {
		t.Errorf("mean calls %v for 200 clients into an outage", mean)
	}
}

// A link asking for hours of simulation stops at the page's bound, says so
// and offers to go further; the compare runs stay within their share
// whatever the link's own max-calls. The bound is checked by the calls
// made, not by the time taken: beside a CPU-bound job on a shared 2-core
// machine the same runs took 23.7 s.
func TestBrowserPageBoundsTheHerd(t *testing.T) {
	tb := newTab(t, 1280, 800)
	start := time.Now()
	tb.open(t, "clients=2000000&attempts=1000&cap=1s&outage-end=8760h&max-calls=3999999")
	poll[bool](t, tb, "the bound in herd-status", `(document.getElementById('herd-status').textContent || '').includes('bound')`)
	poll[bool](t, tb, "the compare runs", `!document.querySelector('#compare .pending') && document.querySelectorAll('#compare svg').length === 8`)
	t.Logf("the bounded herd and its compare runs took %v", time.Since(start))
	calls, _ := strconv.Atoi(eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`))
	if calls <= 0 || calls > 3_000_000 {
		t.Errorf("%d calls, want at most the herd's 3,000,000", calls)
	}
	if !eval[bool](t, tb, `!document.getElementById('herd-more').hidden`) {
		t.Fatal("#herd-more is hidden: nothing offers to run further")
	}
	// Each compare run made at most its share: a quarter of the page's
	// bound over eight runs, one per jitter kind.
	for _, n := range eval[[]int](t, tb, `[...document.querySelectorAll('#compare .cmp-cell')].map(e => +e.dataset.calls)`) {
		if n <= 0 || n > 4_000_000/4/8 {
			t.Errorf("a compare run made %d calls, want 1 to %d", n, 4_000_000/4/8)
		}
	}
	if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("herd-more"))); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, tb, "the run ten times further", `(() => { const v = +document.getElementById('metric-calls').dataset.value; return v > 3000000; })()`)
}
