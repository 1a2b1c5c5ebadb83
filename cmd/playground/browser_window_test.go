//go:build browser && !wasm

package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// The page says when requests were still going at the end of a window,
// when a run stopped early and why, in both languages; drain=true (its
// checkbox) runs them out, with the same numbers as the core's.
func TestBrowserRunStops(t *testing.T) {
	keys := "attempts=1&traffic=open:300&duration=30s&server=queue&concurrency=10&service=100ms"
	tb := newTab(t, 1280, 900)
	for _, c := range []struct{ query, want, not string }{
		{keys + "&lang=en", "were still queued or in flight when the traffic", "stopped early"},
		{keys + "&lang=ru", "ещё ждали в очереди или были в пути", "остановлен"},
		{keys + "&drain=true&lang=en", "", "in flight when"},
		{"attempts=1&traffic=loop:1:0s&duration=60s&error-rate=1&budget=adaptive&max-calls=3000&lang=en",
			"It stopped early, at", "in flight when"},
		{"attempts=1&traffic=open:100&duration=30s&server=queue&concurrency=5&horizon=20s&lang=ru",
			"Прогон остановлен на горизонте, 20\u00a0с", "ждали"},
	} {
		tb.open(t, c.query)
		poll[bool](t, tb, "the run", reqDoneJS)
		status := eval[string](t, tb, `document.getElementById('herd-status').textContent`)
		if c.want != "" && !strings.Contains(status, c.want) || strings.Contains(status, c.not) {
			t.Errorf("%s: status %q, want %q and not %q", c.query, status, c.want, c.not)
		}
	}
	// The checkbox is drain=, and it changes the run.
	tb.open(t, keys+"&lang=en")
	poll[bool](t, tb, "the run", reqDoneJS)
	click(t, tb, "drain")
	poll[bool](t, tb, "drain in the link", `location.search.includes('drain=true')`)
	poll[bool](t, tb, "the drained run", reqDoneJS+` && !document.getElementById('herd-status').textContent.includes('in flight when')`)
	want := reqRun(t, "attempts", "1", "traffic", "open:300", "duration", "30s", "server", "queue", "concurrency", "10",
		"service", "100ms", "drain", "true")
	if got := metricValue(t, tb, "metric-requests"); got == "" || want.Totals.Unfinished != 0 {
		t.Errorf("drained: requests card %q, native unfinished %d", got, want.Totals.Unfinished)
	}
}

// The fleet scenarios in the page: one click each, a strip per server with
// the crash shaded on server 1's and named in the legend, the verdict the
// core gives, in both languages.
func TestBrowserFleet(t *testing.T) {
	tb := newTab(t, 1280, 1000)
	for _, c := range []struct {
		lang, scenario string
		recovered      bool
	}{{"en", "fleet-crash", false}, {"ru", "fleet-least", true}} {
		tb.open(t, "lang="+c.lang)
		click(t, tb, "scenario-"+c.scenario)
		poll[bool](t, tb, "the fleet's run", reqDoneJS+` && !!document.querySelector('#chart-fleet svg')`)
		strips := eval[int](t, tb, `document.querySelectorAll('#chart-fleet .run-label').length`)
		bands := eval[int](t, tb, `document.querySelectorAll('#chart-fleet path.outage').length`)
		keys := eval[[]string](t, tb, `[...document.querySelectorAll('#chart-fleet .legend-item')].filter(e => e.querySelector('.key-outage')).map(e => e.textContent)`)
		l, _ := i18n.Parse(c.lang)
		if strips != 2 || bands != 1 || len(keys) != 1 || keys[0] != l.T("fault.crash") {
			t.Errorf("%s: %d strips, %d shaded, the legend's faults %q; want 2 strips, the crash on one, named in the legend", c.scenario, strips, bands, keys)
		}
		verdict := eval[string](t, tb, `document.getElementById('herd-verdict').textContent`)
		want := map[string][2]string{"en": {"Did not recover after the crash", "Recovered"}, "ru": {"Не восстановился после падения", "Восстановился"}}[c.lang]
		w := want[0]
		if c.recovered {
			w = want[1]
		}
		if !strings.Contains(verdict, w) {
			t.Errorf("%s (%s): verdict %q, want %q", c.scenario, c.lang, verdict, w)
		}
		tb.screenshot(t, "fleet-"+c.scenario+"-"+c.lang)
	}
	// The knobs are in the link.
	for _, k := range []string{"servers=2", "balance=least", "fault=crash%405s-10s%2F1"} {
		if !eval[bool](t, tb, `location.search.includes(`+strconv.Quote(k)+`)`) {
			t.Errorf("the link %q lacks %s", eval[string](t, tb, `location.search`), k)
		}
	}
}
