//go:build browser && !wasm

package main

import (
	"strconv"
	"strings"
	"testing"
)

// Where the page says a cap bounds the delays, no delay in the table or
// among the sampled clients exceeds it; where jitter comes after a cap
// applied before it (cenkalti's MaxInterval), the page says the delay can
// pass the cap and by how much.
func TestBrowserCapsHold(t *testing.T) {
	tb := newTab(t, 1280, 800)
	for _, c := range []struct {
		query string
		capS  float64
	}{
		{"base=1s&factor=2&cap=5s&attempts=10&jitter=full", 5},
		{"base=1s&factor=2&cap=5s&attempts=10&jitter=equal&cap-mode=after", 5},
		{"preset=polly-v2&cap=3s&attempts=12", 3},
		{"preset=azure&attempts=8", 60},
	} {
		tb.open(t, c.query)
		for i, m := range column(tb.table(t), "max") {
			v, err := strconv.ParseFloat(m, 64)
			if err != nil || v > c.capS {
				t.Errorf("%s: retry %d's max delay %s s exceeds the cap %v s", c.query, i+1, m, c.capS)
			}
		}
		if eval[bool](t, tb, `!!document.querySelector('.notes .cap-exceeded')`) {
			t.Errorf("%s: the page says the cap can be exceeded", c.query)
		}
	}
	tb.open(t, "preset=cenkalti&lang=en")
	note := eval[string](t, tb, `(document.querySelector('.notes .cap-exceeded') || {}).textContent || ''`)
	// MaxInterval 60 s before ±50% jitter: delays reach 90 s.
	if !strings.Contains(note, "cap of 1\u00a0min applies") || !strings.Contains(note, "up to 1\u00a0min 30\u00a0s") {
		t.Errorf("cenkalti: the note %q does not say the 60 s cap is passed, up to 90 s", note)
	}
}

// A decorrelated table's percentiles come from every run: p50 and p95 never
// fall from one retry to the next, and the page states their precision.
func TestBrowserPercentiles(t *testing.T) {
	tb := newTab(t, 1280, 800)
	tb.open(t, "preset=aws-blog-decorrelated&attempts=30&lang=en")
	rows := tb.table(t)
	if len(rows) != 29 {
		t.Fatalf("%d rows, want 29", len(rows))
	}
	for _, col := range []string{"p50", "p95"} {
		prev := 0.0
		for i, s := range column(rows, col) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < prev {
				t.Errorf("%s at retry %d is %s s, below retry %d's %v s", col, i+1, s, i, prev)
			}
			prev = v
		}
	}
	// p50 <= mean is not a law, but min <= p50 <= p95 <= max is.
	for i, r := range rows {
		f := func(k string) float64 { v, _ := strconv.ParseFloat(r[k], 64); return v }
		if !(f("min") <= f("p50") && f("p50") <= f("p95") && f("p95") <= f("max") && f("min") <= f("mean") && f("mean") <= f("max")) {
			t.Errorf("retry %d: min %s p50 %s p95 %s mean %s max %s out of order", i+1, r["min"], r["p50"], r["p95"], r["mean"], r["max"])
		}
	}
	note := eval[string](t, tb, `[...document.querySelectorAll('.notes li')].map(li => li.textContent).join(' | ')`)
	if !strings.Contains(note, "percentiles within") {
		t.Errorf("no precision for the percentiles in %q", note)
	}
}
