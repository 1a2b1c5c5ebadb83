//go:build browser && !wasm

package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// Steady traffic in the page: the scenarios one click away and in the
// URL, the request-level charts, cards and verdict in both languages, the
// new knobs, all with the numbers the simulator gives natively.

// reqRun is the native run of a scenario: its policy and herd keys over
// the defaults, seed 1 (the page's seed).
func reqRun(t *testing.T, kv ...string) *sim.Result {
	t.Helper()
	pol, c := backoff.Default(), sim.DefaultConfig()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "preset" {
			p, err := backoff.LookupPreset(kv[i+1])
			if err != nil {
				t.Fatal(err)
			}
			pol = p.Policy
			continue
		}
		if err := pol.Set(kv[i], kv[i+1]); err == nil {
			continue
		}
		if err := c.Set(kv[i], kv[i+1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[i], kv[i+1], err)
		}
	}
	c.Policy = pol
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var stormKeys = []string{"attempts", "2", "traffic", "open:200", "duration", "2m", "server", "queue", "concurrency", "30",
	"service", "100ms", "timeout", "1s", "fault", "stall@20s-30s"}

// reqDoneJS is true once a request-level run is drawn and its cards hold
// its totals.
const reqDoneJS = `(() => { const p = document.getElementById('herd-progress');
  return !!p && p.hidden && !!document.querySelector('#chart-goodput svg')
    && (document.getElementById('metric-requests') || {getAttribute: () => ''}).getAttribute('data-value') !== ''; })()`

func metricValue(tb testing.TB, t *tab, id string) string {
	tb.Helper()
	return eval[string](tb, t, fmt.Sprintf(`(document.getElementById(%q) || {getAttribute: () => '<none>'}).getAttribute('data-value') ?? '<none>'`, id))
}

func click(tb testing.TB, t *tab, id string) {
	tb.Helper()
	if err := chromedp.Do(t.ctx, chromedp.Click(chromedp.ID(id))); err != nil {
		tb.Fatalf("click #%s: %v", id, err)
	}
}

func TestBrowserMetastableScenario(t *testing.T) {
	storm := reqRun(t, stormKeys...)
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	click(t, tb, "scenario-metastable")
	poll[bool](t, tb, "the storm's run", reqDoneJS)
	// The URL names the scenario and holds its keys.
	exPollParam(t, tb, "scenario", "metastable")
	for _, kv := range [][2]string{{"traffic", "open:200"}, {"server", "queue"}, {"timeout", "1s"}, {"fault", "stall@20s-30s"}, {"attempts", "2"}} {
		if got := exParam(t, tb, kv[0]); got != kv[1] {
			t.Errorf("URL %s=%q, want %q", kv[0], got, kv[1])
		}
	}
	if !eval[bool](t, tb, `document.getElementById('scenario-metastable').getAttribute('aria-pressed') === 'true'`) {
		t.Error("the scenario's button is not pressed")
	}
	// The cards are the native run's totals, exactly.
	tt := storm.Totals
	for id, want := range map[string]float64{"metric-requests": float64(tt.Requests), "metric-calls": float64(tt.Calls),
		"metric-success": float64(tt.Succeeded), "metric-goodput": tt.GoodputPerS, "metric-timeouts": float64(tt.Timeouts),
		"metric-wasted": tt.WastedWork, "metric-latency-p99": tt.Latency.P99} {
		got, err := strconv.ParseFloat(metricValue(t, tb, id), 64)
		if err != nil || math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("#%s data-value %q, want %v (native)", id, metricValue(t, tb, id), want)
		}
	}
	if got := metricValue(t, tb, "metric-hedges"); got != "" {
		t.Errorf("#metric-hedges data-value %q without hedging, want empty", got)
	}
	// The verdict, in words and data.
	v, ok := sim.VerdictOf(sim.Config{Load: sim.Load{Duration: 2 * time.Minute}}, storm)
	if !ok || v.RecoveredAt != nil {
		t.Fatalf("precondition: the native storm recovers: %+v", v)
	}
	want := fmt.Sprintf("Did not recover after the stall: retries hold the offered load at %.1f× capacity.", v.Load)
	if got := exText(t, tb, "herd-verdict"); got != want {
		t.Errorf("verdict %q, want %q", got, want)
	}
	if got := eval[string](t, tb, `document.getElementById('herd-verdict').dataset.recovered`); got != "false" {
		t.Errorf("verdict data-recovered %q, want false", got)
	}
	// The three charts, the stall shaded and named in each.
	for _, id := range []string{"chart-goodput", "chart-queue", "chart-latency"} {
		n := eval[int](t, tb, fmt.Sprintf(`[...document.querySelectorAll('#%s svg text.fault-label')].filter(e => e.textContent === 'stall').length`, id))
		if n != 1 {
			t.Errorf("#%s names the stall %d times, want 1", id, n)
		}
	}
	if n := eval[int](t, tb, `document.querySelectorAll('#chart-goodput path.goodput, #chart-goodput path.calls-line, #chart-goodput path.capacity').length`); n != 3 {
		t.Errorf("goodput chart has %d of goodput, calls and capacity, want 3", n)
	}
	tb.screenshot(t, "metastable-desktop")

	// The same with a budget: it recovers, when the native run does.
	budget := reqRun(t, append(stormKeys, "budget", "tokens:500:5:1")...)
	click(t, tb, "scenario-metastable-budget")
	exPollParam(t, tb, "scenario", "metastable-budget")
	poll[bool](t, tb, "the budget's verdict", `document.getElementById('herd-verdict').dataset.recovered === 'true'`)
	at := budget.Totals.RecoveredAt
	if at == nil {
		t.Fatal("precondition: the native run with a budget does not recover")
	}
	if got := eval[string](t, tb, `document.getElementById('herd-verdict').dataset.recoveredAt`); got != strconv.FormatFloat(*at, 'f', -1, 64) {
		t.Errorf("recovered at %q, want %v", got, *at)
	}
	// Back undoes the scenario: the storm again.
	if err := chromedp.Do(tb.ctx, chromedp.NavigateBack()); err != nil {
		t.Fatal(err)
	}
	exPollParam(t, tb, "scenario", "metastable")
	poll[bool](t, tb, "the storm's verdict after Back", `document.getElementById('herd-verdict').dataset.recovered === 'false'`)
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems:\n  %s", strings.Join(p, "\n  "))
	}
	tb.elementShot(t, "section.herd", "metastable-card") // last: it clears the viewport's emulation
}

func TestBrowserRequestsInRussian(t *testing.T) {
	tb := newTab(t, 390, 844)
	tb.open(t, "scenario=metastable&lang=ru")
	poll[bool](t, tb, "the storm's run", reqDoneJS)
	if got := exText(t, tb, "herd-verdict"); !strings.HasPrefix(got, "Не восстановился после остановки: повторы держат нагрузку на уровне 1,") {
		t.Errorf("Russian verdict %q", got)
	}
	for id, want := range map[string]string{"chart-goodput": "Предложенная нагрузка", "chart-queue": "Очередь сервера"} {
		if got := eval[string](t, tb, fmt.Sprintf(`document.querySelector('#%s figcaption').textContent`, id)); !strings.HasPrefix(got, want) {
			t.Errorf("#%s caption %q, want %q…", id, got, want)
		}
	}
	if got := eval[string](t, tb, `document.querySelector('label[for="timeout-value"]').textContent`); got != "Таймаут клиента" {
		t.Errorf("timeout label %q", got)
	}
	// A duration typed the Russian way is applied in Go's syntax.
	tb.typeInto(t, "timeout-value", "1,5 с")
	exPollParam(t, tb, "timeout", "1.5s")
	tb.screenshot(t, "metastable-phone-ru")
	// Nothing is wider than the phone's screen.
	if w := eval[int](t, tb, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px phone", w)
	}
}

func TestBrowserRequestKnobs(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "scenario=metastable&lang=en")
	poll[bool](t, tb, "the storm's run", reqDoneJS)
	// A typed fault is applied when committed and kept in the URL.
	tb.typeInto(t, "fault-value", "stall@20s-40s")
	exPollParam(t, tb, "fault", "stall@20s-40s")
	if got := exParam(t, tb, "scenario"); got != "" {
		t.Errorf("scenario=%q after a change, want none", got)
	}
	// A fault that ends before it starts is refused under its box, naming
	// it, and the last valid state stays.
	tb.typeInto(t, "fault-value", "stall@40s-20s")
	if msg := exFieldError(t, tb, "fault-value"); !strings.Contains(msg, "fault") || !strings.Contains(msg, "stall@40s-20s") {
		t.Errorf("fault error %q, want one naming the field and the value", msg)
	}
	exPollParam(t, tb, "fault", "stall@20s-40s")
	// The knobs of the queue server and the checkboxes write their keys.
	tb.typeInto(t, "concurrency-value", "40")
	exPollParam(t, tb, "concurrency", "40")
	click(t, tb, "drop-expired")
	exPollParam(t, tb, "drop-expired", "true")
	poll[bool](t, tb, "the run with expired calls dropped", reqDoneJS)
	native := reqRun(t, "attempts", "2", "traffic", "open:200", "duration", "2m", "server", "queue", "concurrency", "40",
		"service", "100ms", "timeout", "1s", "fault", "stall@20s-40s", "drop-expired", "true")
	poll[bool](t, tb, "the cards of the new run", fmt.Sprintf(`document.getElementById('metric-calls').getAttribute('data-value') === '%d'`, native.Totals.Calls))
	// Hedging: the hedge scenario's cards count the hedges and their load.
	hedged := reqRun(t, "attempts", "1", "traffic", "open:200", "duration", "1m", "server", "queue", "concurrency", "100", "service", "10ms",
		"service-dist", "lognormal:1.5", "latency", "1ms", "latency-sd", "0", "hedge", "p95", "hedge-cancel", "true")
	if hedged.Totals.Hedges == 0 {
		t.Fatal("the native hedged run made no hedges")
	}
	click(t, tb, "scenario-hedge")
	// Until the hedged run ends, the cards still hold the last run's
	// numbers (its 0 hedges on a loaded machine): wait for the new ones.
	poll[bool](t, tb, fmt.Sprintf("#metric-hedges to say the native run's %d", hedged.Totals.Hedges),
		fmt.Sprintf(`(document.getElementById('metric-hedges') || {getAttribute: () => ''}).getAttribute('data-value') === '%d'`, hedged.Totals.Hedges))
	if got := exValue(t, tb, "hedge"); got != "p95" {
		t.Errorf("hedge select %q, want p95", got)
	}
	// Back to the herd: its chart and cards come back.
	tb.open(t, "lang=en")
	poll[bool](t, tb, "the herd", exHerdDoneJS)
	// (A herd has a verdict of its own, in words: when its clients gave
	// up or succeeded against the outage's end.)
	if eval[bool](t, tb, `!!document.getElementById('chart-goodput') || !!document.getElementById('chart-fleet')`) {
		t.Error("the herd shows the request-level charts")
	}
}

// elementShot saves the element sel as a PNG under tmp/screenshots/ (the
// README's picture of a card).
func (t *tab) elementShot(tb testing.TB, sel, name string) {
	tb.Helper()
	buf, err := chromedp.Run(t.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		tb.Fatalf("screenshot of %s: %v", sel, err)
	}
	dir := "../../tmp/screenshots"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dir+"/"+name+".png", buf, 0o644); err != nil {
		tb.Fatal(err)
	}
}
