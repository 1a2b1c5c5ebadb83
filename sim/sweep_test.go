package sim

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseSweep(t *testing.T) {
	for _, c := range []struct {
		sweep       string
		n           int
		first, last string
	}{
		{"clients=1:1000:1", 1000, "1", "1000"},
		{"jitter-lo=0.1:1:0.1", 10, "0.1", "1"},
		{"clients=10:190:10", 19, "10", "190"},
		{"clients=5, 50 ,500", 3, "5", "500"},
		// The core's number reader, as every other flag: a decimal comma.
		{"jitter-lo=0,5:1:0,25", 3, "0.5", "1"},
	} {
		sw, err := ParseSweep(c.sweep, DefaultConfig())
		if err != nil || len(sw.Values) != c.n || sw.Values[0] != c.first || sw.Values[c.n-1] != c.last {
			t.Errorf("%s: %v, %q", c.sweep, err, sw.Values)
		}
	}
	for _, c := range []struct{ sweep, msg string }{
		{"clients=1:10:0", "(STEP is 0)"},
		{"clients=1e300:1e300:1", "(STEP 1 does not change 1e300 in float64)"},
		{"clients=1:1000000:1", "(this range has 1e6)"},
		{"clients=0:10:5", `values each valid (clients: "0" is not valid`},
		{"rate=100:200:50", `values each valid (sweep: "rate=100" is not valid: want rate=... with --traffic open:RATE (the traffic is closed))`},
		{"nonsense=1,2", "NAME=... with NAME one of clients, "},
	} {
		_, err := ParseSweep(c.sweep, DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "sweep: ") {
			t.Errorf("%s: %v, want %q", c.sweep, err, c.msg)
		}
	}
}

// Cells go value by value, each with the jitters in order; no-backoff is
// growth none.
func TestSweepCells(t *testing.T) {
	sw, err := ParseSweep("clients=10,20", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	cells, err := sw.Cells(DefaultConfig(), []string{"full", NoBackoff})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cells {
		got = append(got, c.Value+"/"+c.Jitter+"/"+c.Config.Get(ParamClients)+"/"+c.Config.Get("growth"))
	}
	if want := "10/full/10/exponential 10/no-backoff/10/none 20/full/20/exponential 20/no-backoff/20/none"; strings.Join(got, " ") != want {
		t.Errorf("cells %q, want %q", got, want)
	}
	one, err := Sweep{}.Cells(DefaultConfig(), nil)
	if err != nil || len(one) != 1 || one[0].Jitter != "full" {
		t.Errorf("no sweep: %+v, %v", one, err)
	}
	// A sweep of the jitter kind itself keeps each row's kind.
	sw, err = ParseSweep("jitter=none,equal", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := sw.Cells(DefaultConfig(), nil)
	if err != nil || len(kinds) != 2 || kinds[0].Jitter != "none" || kinds[1].Config.Policy.Jitter.String() != "equal" {
		t.Errorf("jitter=none,equal: %+v, %v", kinds, err)
	}
}

// The bisection narrows to the step around a known change, and says
// when the change is outside the range.
func TestThresholdBisects(t *testing.T) {
	at := func(x float64) func(float64) (bool, error) {
		return func(v float64) (bool, error) { return v <= x, nil }
	}
	b, err := Threshold(0, 1000, 1, at(137.5))
	if err != nil || !(b.Lo <= 137.5 && 137.5 < b.Hi && b.Hi-b.Lo <= 1) || b.Below || b.Above {
		t.Errorf("137.5 in [0, 1000]: %+v, %v", b, err)
	}
	// 2 ends and ceil(log2(1000/1)) = 10 halvings.
	if len(b.Tried) != 12 {
		t.Errorf("%d values tried, want 12: %+v", len(b.Tried), b.Tried)
	}
	for _, s := range b.Tried {
		if s.Recovered != (s.Value <= 137.5) {
			t.Errorf("step %+v", s)
		}
	}
	if b, _ := Threshold(200, 300, 1, at(137.5)); !b.Below || b.Hi != 200 || !math.IsNaN(b.Lo) || len(b.Tried) != 1 {
		t.Errorf("below the range: %+v", b)
	}
	if b, _ := Threshold(0, 100, 1, at(137.5)); !b.Above || b.Lo != 100 || !math.IsNaN(b.Hi) || len(b.Tried) != 2 {
		t.Errorf("above the range: %+v", b)
	}
	boom := errors.New("boom")
	if _, err := Threshold(0, 100, 1, func(float64) (bool, error) { return false, boom }); err != boom {
		t.Errorf("the error of a run: %v", err)
	}
	for _, bad := range [][3]float64{{10, 1, 1}, {0, 1, 0}, {0, math.Inf(1), 1}, {math.NaN(), 1, 1}} {
		if _, err := Threshold(bad[0], bad[1], bad[2], at(1)); err == nil || !strings.Contains(err.Error(), "LO:HI:STEP") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// metastableQueue is a queue of 30 workers of 100 ms under open traffic
// of 100/s for a minute, a 1 s timeout, two attempts and a 10 s stall.
func metastableQueue(t *testing.T) Config {
	t.Helper()
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"duration", "60s"}, {"server", "queue"}, {"concurrency", "30"},
		{"service", "100ms"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@20s-30s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// A metastable queue (30 workers of 100 ms, a 1 s timeout, two attempts,
// a 10 s stall): open traffic of 100 requests/s recovers in a minute,
// 120/s never does; the bisection finds the change between them, and
// every value it tried agrees with the run itself.
func TestThresholdMetastable(t *testing.T) {
	c := metastableQueue(t)
	b, err := Threshold(50, 300, 2, func(v float64) (bool, error) { return RecoversAt(c, SweepRate, v, 1, 1) })
	if err != nil {
		t.Fatal(err)
	}
	if !(100 <= b.Lo && b.Hi <= 120 && b.Hi-b.Lo <= 2) {
		t.Errorf("threshold between %g and %g, want within [100, 120]: %+v", b.Lo, b.Hi, b.Tried)
	}
	for _, s := range b.Tried {
		d := c
		if err := SetSweep(&d, SweepRate, strconv.FormatFloat(s.Value, 'g', -1, 64)); err != nil {
			t.Fatal(err)
		}
		r := run(t, d, 1)
		if (r.Totals.Recovery == Recovered) != s.Recovered {
			t.Errorf("rate %g: tried %v, the run says %q", s.Value, s.Recovered, r.Totals.Recovery)
		}
	}
	// Closed traffic has nothing to recover from: an error, not a guess.
	if _, err := RecoversAt(DefaultConfig(), ParamClients, 10, 1, 1); err == nil || !strings.Contains(err.Error(), "a run that can recover") {
		t.Errorf("a herd: %v", err)
	}
}

// ThresholdRun, in slices of any size and told what a sweep knew, tries
// Threshold's values and ends at its bounds; the values it knew it does
// not run (a wrong "known" answer would move the search, so it shows).
func TestThresholdRunSlices(t *testing.T) {
	c := metastableQueue(t)
	want, err := Threshold(100, 140, 2, func(v float64) (bool, error) { return RecoversAt(c, SweepRate, v, 1, 2) })
	if err != nil {
		t.Fatal(err)
	}
	for _, slice := range []int{1 << 20, 997} {
		tr, err := NewThresholdRun(c, SweepRate, 100, 140, 2, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		tr.Know(100, true)
		tr.Know(140, false)
		n := 0
		for !tr.Advance(slice) {
			n++
		}
		got, err := tr.Result()
		if err != nil {
			t.Fatal(err)
		}
		if got.Lo != want.Lo || got.Hi != want.Hi || len(got.Tried) != len(want.Tried) {
			t.Errorf("slice %d: [%g, %g] in %d, want [%g, %g] in %d (%+v)", slice, got.Lo, got.Hi, len(got.Tried), want.Lo, want.Hi, len(want.Tried), got.Tried)
		}
		if slice == 997 && n < 10 {
			t.Errorf("slice 997: %d slices, want many", n)
		}
	}
	if !(100 <= want.Lo && want.Hi <= 120 && want.Hi-want.Lo <= 2) {
		t.Errorf("threshold [%g, %g], want within [100, 120]", want.Lo, want.Hi)
	}
	tr, _ := NewThresholdRun(c, SweepRate, 100, 140, 2, 1, 2)
	tr.Know(100, false) // a wrong answer: the search stops at once, below
	for !tr.Advance(1 << 20) {
	}
	if b, _ := tr.Result(); !b.Below || len(b.Tried) != 1 {
		t.Errorf("told 100 failed: %+v", b)
	}
	h, _ := NewThresholdRun(DefaultConfig(), ParamClients, 10, 20, 1, 1, 1)
	for !h.Advance(1 << 20) {
	}
	if _, err := h.Result(); err == nil || !strings.Contains(err.Error(), "a run that can recover") {
		t.Errorf("a herd: %v", err)
	}
}

// FuzzParseSweep: no text makes ParseSweep panic or hand back more than
// MaxSweepPoints values; what it accepts sets every value on the config.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"clients=10:190:10", "jitter-lo=0,5:1:0,25", "rate=1:2:1", "clients=1e300:1e300:1",
		"latency=1:2:1e-300", "clients=1,2,,3", "=", "x=1:2", "cap=1s,2s", "jitter=full,none"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := DefaultConfig()
		sw, err := ParseSweep(s, c)
		if err != nil {
			if sw.Name != "" || sw.Values != nil {
				t.Fatalf("%q: an error and a sweep %+v", s, sw)
			}
			return
		}
		if len(sw.Values) == 0 || len(sw.Values) > MaxSweepPoints {
			t.Fatalf("%q: %d values", s, len(sw.Values))
		}
		if _, err := sw.Cells(c, nil); err != nil {
			t.Fatalf("%q: accepted, then %v", s, err)
		}
	})
}

// Run in slices of 97 events, a sweep's rows are RunMany's for each cell,
// and its progress only grows, to 1.
func TestSweepRunSlices(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"duration", "30s"}, {"server", "queue"}, {"concurrency", "30"},
		{"service", "100ms"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@10s-15s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	sw, err := ParseSweep("rate=100:140:20", c)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := sw.Cells(c, []string{"full", "none"})
	if err != nil {
		t.Fatal(err)
	}
	run, err := NewSweepRun(cells, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	last, slices := 0.0, 0
	for !run.Advance(97) {
		slices++
		if p := run.Progress(); p < last || p >= 1 {
			t.Fatalf("progress %g after %g", p, last)
		} else {
			last = p
		}
	}
	if run.Progress() != 1 || run.Err() != nil || len(run.Rows()) != 6 || slices < 100 {
		t.Fatalf("progress %g, err %v, %d rows, %d slices", run.Progress(), run.Err(), len(run.Rows()), slices)
	}
	for i, row := range run.Rows() {
		want, err := RunMany(cells[i].Config, 7, 3)
		if err != nil {
			t.Fatal(err)
		}
		if row.Value != cells[i].Value || row.Jitter != cells[i].Jitter || !reflect.DeepEqual(row.Mean, want.Mean) ||
			!reflect.DeepEqual(row.SD, want.SD) || row.Recovery != want.First.Totals.Recovery {
			t.Errorf("row %d (%s %s) differs from RunMany", i, row.Value, row.Jitter)
		}
	}
	if _, err := NewSweepRun(cells, 1, 0); err == nil {
		t.Error("0 runs accepted")
	}
}

// Each metric reads its figure, where the run has it.
func TestSweepMetrics(t *testing.T) {
	open := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"duration", "60s"}, {"server", "queue"}, {"concurrency", "30"},
		{"service", "100ms"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@20s-30s"}} {
		if err := open.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	read := func(c Config, name string) (float64, bool) {
		s, err := RunMany(c, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := SweepMetricNamed(name)
		if !ok {
			t.Fatalf("no metric %q", name)
		}
		return m.Read(&s.Mean)
	}
	herd := DefaultConfig()
	for _, c := range []struct {
		name string
		c    Config
		ok   bool
	}{
		{"goodput", open, true}, {"goodput", herd, false}, {"p99", open, true}, {"p99", herd, true},
		{"calls", herd, true}, {"wasted", open, true}, {"wasted", herd, false},
		{"recovered", open, true}, {"recovered", herd, false}, {"recovery-time", open, true}, {"recovery-time", herd, false},
	} {
		if _, ok := read(c.c, c.name); ok != c.ok {
			t.Errorf("%s on %s: ok %v", c.name, c.c.Get(ParamTraffic), ok)
		}
	}
	s, _ := RunMany(open, 1, 2)
	for name, want := range map[string]float64{"goodput": s.Mean.GoodputPerS, "p99": s.Mean.Latency.P99,
		"calls": s.Mean.Amplification, "wasted": s.Mean.WastedWork, "recovered": s.Mean.Recovered} {
		if got, _ := read(open, name); got != want || want == 0 {
			t.Errorf("%s: %g, want %g (not 0)", name, got, want)
		}
	}
	if _, ok := SweepMetricNamed("nope"); ok {
		t.Error("an unknown metric")
	}
}
