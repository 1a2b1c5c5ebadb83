//go:build !wasm

package app

import (
	"math"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// A link keeps a sweep whole, and a bad sweep key is noted with its
// value and rule, in the page's language, and dropped.
func TestSweepLink(t *testing.T) {
	q := "sweep=clients%3D10%3A30%3A10&sweep-y=p99&sweep-lines=none%2Cfull&sweep-runs=2&sweep-threshold=1"
	s, notes := parseQuery(q)
	if len(notes) > 0 {
		t.Fatalf("notes: %v", notes)
	}
	want := sweepState{Spec: "clients=10:30:10", Y: "p99", Lines: "none,full", Runs: 2, Threshold: true}
	if s.Sweep != want {
		t.Errorf("sweep %+v, want %+v", s.Sweep, want)
	}
	if got := s.query(); !strings.Contains(got, "&"+q) {
		t.Errorf("query %q does not end in %q", got, q)
	}
	if def := defaultState(); strings.Contains(def.query(), "sweep") {
		t.Errorf("no sweep writes no key: %q", def.query())
	}
	for _, c := range []struct{ q, en, ru string }{
		{"sweep=clients%3D0%3A10%3A5", "ignored: Clients (clients): “0” is not valid: want a whole number from 1 to 2,000,000", "Клиенты (clients): «0» не подходит"},
		{"sweep=clients%3D5%3A1%3A1", "want TO at least FROM (1 is below 5)", "нужно ДО не меньше ОТ (1 меньше 5)"},
		{"sweep=clients%3D1%3A10%3A0", "want a STEP above 0 (it is 0)", "нужен ШАГ больше 0 (сейчас 0)"},
		{"sweep=clients%3D1%3A100000%3A1", "want at most 1,000 values (this has 100,000)", "нужно не больше 1000 значений (здесь 100\u202f000)"},
		{"sweep=rate%3D1%2C2", "rate", "rate"},
		{"sweep=nope%3D1", "want a knob a sweep can run: clients, ", "нужен параметр, который можно перебрать: clients, "},
		{"sweep-y=speed", "want one of: goodput, p99, calls, wasted, recovered, recovery-time", "нужно одно из: goodput"},
		{"sweep-lines=ab", "ab needs a second policy", "ab нужна вторая политика"},
		{"sweep-lines=full,wobbly", "wobbly", "wobbly"},
		{"sweep-runs=21", "from 1 to 20", "от 1 до 20"},
	} {
		s, notes := parseQuery(c.q)
		if len(notes) != 1 || s.Sweep != defaultSweep() {
			t.Errorf("%s: sweep %+v, notes %v", c.q, s.Sweep, notes)
			continue
		}
		en, ru := notes[0].text(i18n.En), notes[0].text(i18n.Ru)
		if !strings.Contains(en, c.en) || !strings.Contains(ru, c.ru) || !strings.HasPrefix(en, notes[0].Key) {
			t.Errorf("%s:\n en %q, want %q\n ru %q, want %q", c.q, en, c.en, ru, c.ru)
		}
	}
}

// The page's sweep is the simulator's: each point is RunMany of its
// cell's config with the page's seeds, read by the metric the panel
// shows; the lines are the jitter kinds in order.
func TestSweepJobRows(t *testing.T) {
	s, notes := parseQuery("clients=200&sweep=clients%3D100%2C300&sweep-lines=none%2Cfull&sweep-runs=2&seed=7")
	if len(notes) > 0 {
		t.Fatal(notes)
	}
	j, err := sweepOf(&s)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for !j.Advance(997) {
		n++
	}
	if n < 3 || j.err != nil {
		t.Fatalf("%d slices, err %v", n, j.err)
	}
	if j.metric.Name != "calls" || len(j.lines) != 2 || len(j.run.Rows()) != 4 {
		t.Fatalf("metric %s, lines %v, rows %d", j.metric.Name, j.lines, len(j.run.Rows()))
	}
	for i, r := range j.run.Rows() {
		c := s.Herd.config(s.Policy)
		if err := c.Set(sim.ParamClients, []string{"100", "300"}[i/2]); err != nil {
			t.Fatal(err)
		}
		if err := sim.ApplyJitter(&c, []string{"none", "full"}[i%2]); err != nil {
			t.Fatal(err)
		}
		want, err := sim.RunMany(c, 7, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := j.metric.Read(&r.Mean)
		if got != want.Mean.Amplification || r.Value != []string{"100", "300"}[i/2] {
			t.Errorf("row %d (%s %s): calls per client %g, RunMany %g", i, r.Value, r.Jitter, got, want.Mean.Amplification)
		}
	}
	csv := j.csv()
	if !strings.HasPrefix(csv, "clients,line,runs,goodput,goodput_sd,p99,p99_sd,calls,calls_sd,") || strings.Count(csv, "\n") != 5 {
		t.Errorf("csv:\n%s", csv)
	}
}

// The threshold: open traffic into a stalled queue recovers below a rate
// and not above; each line's search narrows to an eighth of the sweep's
// step, between values that recover and do not.
func TestSweepJobThreshold(t *testing.T) {
	q := "traffic=open%3A100&duration=60s&server=queue&concurrency=30&service=100ms&timeout=1s&attempts=2&fault=stall%4020s-30s" +
		"&sweep=rate%3D60%3A180%3A40&sweep-runs=1&sweep-threshold=1&sweep-y=recovered"
	s, notes := parseQuery(q)
	if len(notes) > 0 {
		t.Fatal(notes)
	}
	j, err := sweepOf(&s)
	if err != nil {
		t.Fatal(err)
	}
	for !j.Advance(1 << 20) {
	}
	if j.err != nil || len(j.thr) != 1 || j.thr[0].err != nil {
		t.Fatalf("err %v, thresholds %+v", j.err, j.thr)
	}
	b := j.thr[0].b
	if !(b.Lo >= 100 && b.Hi <= 140 && b.Hi-b.Lo <= 40.0/8) {
		t.Errorf("threshold [%g, %g], want within [100, 140] and 5 apart: %+v", b.Lo, b.Hi, b.Tried)
	}
	if got := j.thresholdText(i18n.En, 0); !strings.HasPrefix(got, "this policy: recovers at ") {
		t.Errorf("text %q", got)
	}
	svg := j.picture(i18n.Ru)
	if !strings.Contains(svg, `class="threshold"`) || !strings.Contains(svg, "восстанавливается до") {
		t.Errorf("picture: %s", svg)
	}
	// A herd has nothing to recover from: said, not guessed.
	h, _ := parseQuery("sweep=clients%3D100%2C200&sweep-threshold=1&sweep-runs=1")
	hj, err := sweepOf(&h)
	if err != nil {
		t.Fatal(err)
	}
	for !hj.Advance(1 << 20) {
	}
	if got := hj.thresholdText(i18n.En, 0); !strings.Contains(got, "no threshold: these runs cannot recover") {
		t.Errorf("herd: %q", got)
	}
}

// What the page will not run it says, in its language: more work than a
// sweep may make, a jitter sweep with lines of jitter kinds, a threshold
// over names.
func TestSweepJobRefusals(t *testing.T) {
	for _, c := range []struct{ q, en, ru string }{
		{"clients=200000&sweep=clients%3D100000%3A200000%3A10000&sweep-runs=20", "This sweep would make about ", "Этот перебор сделал бы слишком много вызовов (около "},
		{"sweep=jitter%3Dnone%2Cfull", "", ""},
		{"sweep=jitter%3Dnone%2Cfull&sweep-threshold=1", "needs a knob with numbers", "нужен числовой параметр"},
	} {
		s, notes := parseQuery(c.q)
		if len(notes) > 0 {
			t.Fatal(notes)
		}
		_, err := sweepOf(&s)
		if c.en == "" {
			if err != nil {
				t.Errorf("%s: %v", c.q, err)
			}
			continue
		}
		if err == nil || !strings.Contains(sweepErrText(i18n.En, err), c.en) || !strings.Contains(sweepErrText(i18n.Ru, err), c.ru) {
			t.Errorf("%s: %v", c.q, err)
		}
	}
	s, _ := parseQuery("sweep=jitter%3Dnone%2Cfull")
	s.Sweep.Lines = "full"
	if _, err := sweepOf(&s); err == nil || !strings.Contains(sweepErrText(i18n.En, err), "one line per policy") {
		t.Errorf("jitter sweep with jitter lines: %v", err)
	}
	// A duration knob is in seconds on its axis.
	d, _ := parseQuery("sweep=timeout%3D0.5%2C1s&traffic=open%3A50&duration=10s")
	j, err := sweepOf(&d)
	if err != nil || !j.dur || j.xs[1] != 1 || j.xText(i18n.En, 0.5) != "500ms" || math.IsNaN(j.xs[0]) {
		t.Errorf("timeout: %v %+v", err, j)
	}
}

// The server draws the view's picture from a link, as the page does.
func TestSweepServerImage(t *testing.T) {
	svg, err := ChartSVG("sweep", "sweep=clients%3D100%2C200&sweep-runs=1&lang=ru")
	if err != nil || !strings.Contains(svg, `class="sweep-line s0"`) || !strings.Contains(svg, "Вызовов на запрос") {
		t.Errorf("sweep image: %v %s", err, svg)
	}
	empty, err := ChartSVG("sweep", "")
	if err != nil || !strings.Contains(empty, "No results to plot yet") {
		t.Errorf("no sweep: %v %s", err, empty)
	}
	raw := "clients=200000&sweep=clients%3D100000%3A200000%3A10000&sweep-runs=20&lang=ru"
	if _, err := ChartSVG("sweep", raw); err == nil || !strings.Contains(QueryErrorText(raw, err), "Этот перебор") {
		t.Errorf("too much: %v", err)
	}
}
