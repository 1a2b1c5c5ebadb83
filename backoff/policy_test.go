package backoff

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestArticleTable(t *testing.T) {
	// BASE = 1, CAP = 30, MAX_ATTEMPTS = 5 retries: attempts = 6 here.
	for _, j := range []Jitter{NoJitter, Full} {
		p := Policy{Growth: Exponential, Base: time.Second, Factor: 2, Cap: 30 * time.Second, Jitter: j, Attempts: 6}
		tab, err := NewTable(p, NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		var nominal []float64
		for _, r := range tab.Rows {
			nominal = append(nominal, r.Nominal)
		}
		if want := []float64{1, 2, 4, 8, 16}; !equalFloats(nominal, want) {
			t.Errorf("%s: nominal = %v, want %v", j, nominal, want)
		}
		if tab.Total.Max != 31 {
			t.Errorf("%s: worst case = %g, want 31", j, tab.Total.Max)
		}
		wantMean := 31.0
		if j == Full {
			wantMean = 15.5
		}
		if tab.Total.Mean != wantMean {
			t.Errorf("%s: expected total = %g, want %g", j, tab.Total.Mean, wantMean)
		}
		if tab.CapRow != 0 {
			t.Errorf("cap row = %d, want 0 (16s < 30s)", tab.CapRow)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

func TestStepPinned(t *testing.T) {
	sec := time.Second
	for _, c := range []struct {
		name string
		p    Policy
		n    int
		u    float64
		want float64
	}{
		{"full", Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 30 * sec, Jitter: Full}, 3, 0.5, 2},
		{"full capped", Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 30 * sec, Jitter: Full}, 7, 0.5, 15},
		{"equal", Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 30 * sec, Jitter: Equal}, 3, 0.5, 3},
		{"none growth", Policy{Growth: None, Jitter: Full}, 5, 0.7, 0},
		{"linear", Policy{Growth: Linear, Base: sec, Jitter: NoJitter}, 4, 0.7, 4},
		{"constant", Policy{Growth: Constant, Base: 3 * sec, Jitter: NoJitter}, 9, 0.7, 3},
		{"cap before proportional exceeds cap", Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 10 * sec, Jitter: Proportional, JitterLo: 0.5, JitterHi: 1.5}, 8, 0.999, 10 * 1.499},
		{"cap after proportional clamps", Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 10 * sec, CapMode: CapAfterJitter, Jitter: Proportional, JitterLo: 0.5, JitterHi: 1.5}, 8, 0.999, 10},
		{"cap exact", Policy{Growth: Exponential, Base: 2 * sec, Factor: 2, Cap: 20 * sec, CapMode: CapExact, Jitter: Full}, 5, 0.1, 20},
		{"decorrelated first", Policy{Growth: Exponential, Base: 5 * sec, Cap: 2000 * sec, Jitter: Decorrelated}, 1, 0.5, 10},
		{"additive scaled quantum", Policy{Growth: Polynomial, Base: sec, Factor: 4, Offset: 15 * sec, Jitter: Additive, JitterAdd: 10 * sec, JitterAddScaled: true, Quantum: sec}, 3, 0.999, 16 + 15 + 29},
		{"geometric mid", Policy{Growth: Geometric, Base: 100 * time.Millisecond, Cap: 10 * sec, Steps: 2, Jitter: NoJitter}, 2, 0, 1},
		{"geometric end", Policy{Growth: Geometric, Base: 100 * time.Millisecond, Cap: 10 * sec, Steps: 2, Jitter: NoJitter}, 3, 0, 10},
		{"exp-minus-one", Policy{Growth: ExpMinusOne, Base: sec, Factor: 2, Jitter: NoJitter}, 3, 0, 7},
		{"first exponent", Policy{Growth: Exponential, Base: 5 * sec, Factor: 2, FirstExponent: 1, Jitter: NoJitter}, 1, 0, 10},
		{"immediate first", Policy{Growth: Exponential, Base: 10 * sec, Factor: 2, ImmediateFirst: true, Jitter: NoJitter}, 1, 0.5, 0},
		{"immediate first, second", Policy{Growth: Exponential, Base: 10 * sec, Factor: 2, ImmediateFirst: true, Jitter: NoJitter}, 2, 0.5, 10},
		{"first unjittered", Policy{Growth: Exponential, Base: sec, Factor: 1.6, Jitter: Proportional, JitterLo: 0.8, JitterHi: 1.2, FirstUnjittered: true}, 1, 0.9, 1},
		{"huge exponent saturates", Policy{Growth: Exponential, Base: sec, Factor: 100, Jitter: NoJitter}, 1000, 0, maxSeconds},
	} {
		got, _ := c.p.Step(c.n, State{}, c.u)
		if math.Abs(got-c.want) > 1e-9*math.Max(1, c.want) {
			t.Errorf("%s: Step(%d, u=%g) = %.12g, want %.12g", c.name, c.n, c.u, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	sec := time.Second
	ok := Default()
	for _, c := range []struct {
		name  string
		edit  func(p *Policy)
		field string
	}{
		{"negative base", func(p *Policy) { p.Base = -sec }, ParamBase},
		{"factor below 1", func(p *Policy) { p.Factor = 0.5 }, ParamFactor},
		{"NaN factor", func(p *Policy) { p.Factor = math.NaN() }, ParamFactor},
		{"cap below base", func(p *Policy) { p.Cap = sec / 2 }, ParamCap},
		{"attempts too many", func(p *Policy) { p.Attempts = 1001 }, ParamAttempts},
		{"attempts negative", func(p *Policy) { p.Attempts = -1 }, ParamAttempts},
		{"deadline negative", func(p *Policy) { p.Deadline = -1 }, ParamDeadline},
		{"bad jitter", func(p *Policy) { p.Jitter = 99 }, ParamJitter},
		{"lo above hi", func(p *Policy) { p.Jitter = Proportional; p.JitterLo, p.JitterHi = 2, 1 }, ParamJitterLo},
		{"quantum with equal", func(p *Policy) { p.Jitter = Equal; p.Quantum = sec }, ParamQuantum},
		{"decorrelated zero base", func(p *Policy) { p.Jitter = Decorrelated; p.Base = 0 }, ParamBase},
		{"geometric steps without cap", func(p *Policy) { p.Growth = Geometric; p.Steps = 3; p.Cap = 0 }, ParamCap},
	} {
		p := ok
		c.edit(&p)
		err := p.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: Validate() = %v, want a *FieldError", c.name, err)
			continue
		}
		if fe.Field != c.field || fe.Allowed == "" || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: error %q names field %q, want %q with an allowed range", c.name, err, fe.Field, c.field)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("Default() invalid: %v", err)
	}
	for _, pr := range Presets() {
		if err := pr.Policy.Validate(); err != nil {
			t.Errorf("preset %s invalid: %v", pr.Name, err)
		}
	}
}

func TestSetErrors(t *testing.T) {
	for _, c := range []struct{ name, value, inErr string }{
		{ParamBase, "-1s", "from 0s to 720h"},
		{ParamBase, "fast", "250ms"},
		{ParamBase, "NaN", "duration"},
		{ParamCap, "1e300", "720h"},
		{ParamAttempts, "1001", "0 to 1000"},
		{ParamAttempts, "two", "whole number"},
		{ParamFactor, "-2", "0 to 100"},
		{ParamFactor, "Inf", "0 to 100"},
		{ParamJitter, "wobbly", "decorrelated"},
		{ParamGrowth, "cubic", "polynomial"},
		{ParamCapAfterJitter, "maybe", "true or false"},
		{"colour", "red", "base"},
	} {
		p := Default()
		before := p
		err := p.Set(c.name, c.value)
		if err == nil || !strings.Contains(err.Error(), c.inErr) {
			t.Errorf("Set(%s, %q) = %v, want an error mentioning %q", c.name, c.value, err, c.inErr)
		}
		if p != before {
			t.Errorf("Set(%s, %q) changed the policy on error", c.name, c.value)
		}
	}
}

// Every field survives Get then Set, for every preset.
func TestSetGetRoundTrip(t *testing.T) {
	for _, pr := range Presets() {
		var q Policy
		for _, name := range ParamNames {
			if name == ParamCapAfterJitter {
				continue // an alias of cap-mode
			}
			if err := q.Set(name, pr.Policy.Get(name)); err != nil {
				t.Errorf("%s: Set(%s, %q): %v", pr.Name, name, pr.Policy.Get(name), err)
			}
		}
		if q != pr.Policy {
			t.Errorf("%s: round trip gave %+v, want %+v", pr.Name, q, pr.Policy)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"250ms", 250 * time.Millisecond, true},
		{"1.5s", 1500 * time.Millisecond, true},
		{"2m", 2 * time.Minute, true},
		{"3", 3 * time.Second, true},
		{" 0.25 ", 250 * time.Millisecond, true},
		{"0", 0, true},
		{"", 0, false},
		{"-1s", 0, false},
		{"1y", 0, false},
		{"10000h", 0, false},
		{strings.Repeat("9", 100), 0, false},
		// Below a nanosecond: it became 0, "no delay", and said nothing.
		{"1e-10", 0, false},
		{"0.0000000001s", 0, false},
		{"0.5ns", 0, false},
		{"0.0", 0, true},
		{"0s", 0, true},
		{"1ns", time.Nanosecond, true},
		// What people type, in Russian and English.
		{"1,5 с", 1500 * time.Millisecond, true},
		{"1,5", 1500 * time.Millisecond, true},
		{"250 мс", 250 * time.Millisecond, true},
		{"250мс", 250 * time.Millisecond, true},
		{"2 мин", 2 * time.Minute, true},
		{"2 мин.", 2 * time.Minute, true},
		{"1 ч", time.Hour, true},
		{"1 д", 24 * time.Hour, true},
		{"1 день", 24 * time.Hour, true},
		{"3 секунды", 3 * time.Second, true},
		{"50 мкс", 50 * time.Microsecond, true},
		{"1м30с", 90 * time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{"1h0m0.5s", time.Hour + 500*time.Millisecond, true},
		// 30s typed after a box's 10s: Go's syntax would add them (40s).
		{"10s30s", 0, false},
		{"30s10s", 0, false},
		{"30m1h", 0, false},
		{"1 с 2 с", 0, false},
		{"1s500ms", 1500 * time.Millisecond, true},
		{"1 ч 30 мин", 90 * time.Minute, true},
		{"1.5 s", 1500 * time.Millisecond, true},
		{"2 min", 2 * time.Minute, true},
		{"1 h", time.Hour, true},
		{"1 d", 24 * time.Hour, true},
		{"1d", 24 * time.Hour, true},
		{"1h 30m", 90 * time.Minute, true},
		{"2 Seconds", 2 * time.Second, true},
		{"30 d", 30 * 24 * time.Hour, true},
		{"31 д", 0, false}, // above MaxDuration
		{"-1 с", 0, false},
		{"1 2", 0, false},
		{"1,5,5 с", 0, false},
		{"1 ю", 0, false},
		{"с", 0, false},
		{"1 с 2", 0, false},
	} {
		got, err := ParseDuration("base", c.in, MaxDuration)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestWithRetryAfter(t *testing.T) {
	p := Policy{Cap: 30 * time.Second, RetryAfterSlack: 5 * time.Second}
	for _, c := range []struct {
		mode      RetryAfterMode
		t, server float64
		want      float64
		ok        bool
	}{
		{RetryAfterIgnore, 2, 60, 2, true},
		{RetryAfterAsIs, 2, 60, 60, true},
		{RetryAfterFloor, 2, 1, 2, true},
		{RetryAfterFloor, 2, 10, 10, true},
		{RetryAfterClamp, 2, 60, 30, true},
		{RetryAfterGiveUp, 2, 60, 0, false},
		{RetryAfterGiveUp, 2, 20, 20, true},
		{RetryAfterBounded, 2, 60, 7, true},
		{RetryAfterBounded, 2, 1, 2, true},
		{RetryAfterBounded, 2, 4, 4, true},
	} {
		p.RetryAfter = c.mode
		got, ok := p.WithRetryAfter(c.t, c.server)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: WithRetryAfter(%g, %g) = %g, %v; want %g, %v", c.mode, c.t, c.server, got, ok, c.want, c.ok)
		}
	}
}

func TestDeadlineTable(t *testing.T) {
	// No jitter: 1, 2, 4, 8 (cum 15), 16 would start at 31 > 20.
	p := Policy{Growth: Exponential, Base: time.Second, Factor: 2, Jitter: NoJitter, Deadline: 20 * time.Second}
	tab, err := NewTable(p, NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 || tab.Total.Max != 15 || tab.Total.Mean != 15 {
		t.Errorf("rows = %d, totals %+v; want 4 rows and 15 s", len(tab.Rows), tab.Total)
	}
	// Full jitter: retries continue while the sum stays under the deadline;
	// the table shows every retry some run can reach and a sampled mean.
	p.Jitter = Full
	p.Attempts = 0
	tab, err = NewTable(p, NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Unlimited || len(tab.Rows) != UnlimitedRows || !tab.MonteCarlo {
		t.Errorf("rows = %d unlimited=%v mc=%v", len(tab.Rows), tab.Unlimited, tab.MonteCarlo)
	}
	if tab.Total.Max != 20 || tab.Total.Mean <= 10 || tab.Total.Mean >= 20 {
		t.Errorf("totals %+v: want max 20 (the deadline) and a mean between 10 and 20", tab.Total)
	}
	if !tab.Rows[4].PastDeadline || tab.Rows[2].PastDeadline {
		t.Errorf("past-deadline marks wrong: %v %v", tab.Rows[2].PastDeadline, tab.Rows[4].PastDeadline)
	}
}

func TestCapAfterJitterMean(t *testing.T) {
	// Proportional U[5, 15) clamped at 10: mean = 0.5*7.5 + 0.5*10 = 8.75.
	p := Policy{Growth: Constant, Base: 10 * time.Second, Cap: 10 * time.Second, CapMode: CapAfterJitter,
		Jitter: Proportional, JitterLo: 0.5, JitterHi: 1.5, Attempts: 2}
	tab, _ := NewTable(p, NewRand(1))
	r := tab.Rows[0]
	if r.Min != 5 || r.Max != 10 || math.Abs(r.Mean-8.75) > 1e-12 || r.P95 != 10 || r.P50 != 10 {
		t.Errorf("row %+v: want min 5, max 10, mean 8.75, p50 10, p95 10", r)
	}
	// Discrete: U{0..4} clamped at 2.5: (0+1+2+2.5+2.5)/5 = 1.6.
	d := dist{q: 1, k: 4}
	if _, _, m := d.stats(2.5); math.Abs(m-1.6) > 1e-12 {
		t.Errorf("discrete clamped mean = %g, want 1.6", m)
	}
}

func TestTableDeterministic(t *testing.T) {
	for _, name := range PresetNames() {
		pr, _ := LookupPreset(name)
		a, _ := NewTable(pr.Policy, NewRand(9))
		b, _ := NewTable(pr.Policy, NewRand(9))
		for i := range a.Rows {
			if a.Rows[i] != b.Rows[i] {
				t.Fatalf("%s: row %d differs between runs with one seed", name, i+1)
			}
		}
	}
}

func TestMonteCarloPrecision(t *testing.T) {
	for _, name := range []string{"aws-blog-decorrelated", "polly-v2"} {
		pr, _ := LookupPreset(name)
		p := pr.Policy
		if p.Attempts == 0 {
			p.Attempts = 8
		}
		tab, _ := NewTable(p, NewRand(3))
		if !tab.MonteCarlo || tab.MeanError > 0.01 || tab.Paths < minMCPaths {
			t.Errorf("%s: mc=%v paths=%d mean error %.4f, want within 1%%", name, tab.MonteCarlo, tab.Paths, tab.MeanError)
		}
	}
}

func TestFormatSeconds(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{0, "0"}, {0.0000512, "51.2µs"}, {0.25, "250ms"}, {1, "1s"}, {31, "31s"}, {15.5, "15.5s"}, {90, "1.5min"},
		{1765007.5, "20.4d"}, {7200, "2h"}, {0.1234567, "123ms"}, {36500 * 86400, "36500d"},
		{Century * 1.001, ">100y"}, {1e300, ">100y"}, {math.Inf(1), ">100y"}} {
		if got := FormatSeconds(c.in); got != c.want {
			t.Errorf("FormatSeconds(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A page bounds the Monte Carlo's work and reports the precision it got.
func TestTableBudget(t *testing.T) {
	p := Default()
	p.Jitter = Decorrelated
	p.Attempts = 31
	o := TableOptions{MaxDraws: 1 << 18, MinRuns: 200}
	tab, err := NewTableWith(p, NewRand(1), o)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Paths*len(tab.Rows) > o.MaxDraws || tab.Paths < o.MinRuns {
		t.Errorf("%d runs x %d rows: want at most %d draws and at least %d runs", tab.Paths, len(tab.Rows), o.MaxDraws, o.MinRuns)
	}
	full, _ := NewTable(p, NewRand(1))
	if full.Paths <= tab.Paths || full.MeanError > 0.01 || tab.MeanError <= full.MeanError {
		t.Errorf("default %d runs (±%.3f), budget %d runs (±%.3f)", full.Paths, full.MeanError, tab.Paths, tab.MeanError)
	}
	// The bounded estimate agrees with the precise one within its error.
	for i := range tab.Rows {
		if d := math.Abs(tab.Rows[i].Mean-full.Rows[i].Mean) / full.Rows[i].Mean; d > tab.MeanError+full.MeanError {
			t.Errorf("retry %d: mean %g vs %g (%.3f apart, errors %.3f + %.3f)", i+1, tab.Rows[i].Mean, full.Rows[i].Mean, d, tab.MeanError, full.MeanError)
		}
	}
}

// Without a cap the ceiling every delay is held at (1e9 s) marks its rows
// capped: 720h * 100^(n-1) showed 11574d from retry 3 on, "not capped".
func TestHeldAtCeiling(t *testing.T) {
	for _, c := range []struct {
		jitter   Jitter
		attempts int
		capRow   int
	}{
		{NoJitter, 5, 3},     // 2.592e10 s at retry 3
		{Full, 5, 3},         // the same nominal, jittered below it
		{Decorrelated, 5, 0}, // retry 4 at most 720h * 3^4 = 2.1e8 s: below the ceiling
		{Decorrelated, 9, 6}, // retry 6 up to 720h * 3^6 = 1.9e9 s
	} {
		p := Default()
		p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 720*time.Hour, 100, 0, c.attempts, c.jitter
		tab, err := NewTable(p, NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		if tab.CapRow != c.capRow {
			t.Errorf("%s, %d attempts: cap row %d, want %d", c.jitter, c.attempts, tab.CapRow, c.capRow)
		}
		for _, r := range tab.Rows {
			if r.Capped != (c.capRow > 0 && r.Retry >= c.capRow) || r.Max > maxSeconds {
				t.Errorf("%s: retry %d capped %v, max %g", c.jitter, r.Retry, r.Capped, r.Max)
			}
		}
	}
}

// A bound computed as 1-0.999 is described as 0.001, not as the float
// 0.0010000000000000009 it is (resilience4j's randomizedWaitFactor 0.999).
func TestDescribeProportionalBounds(t *testing.T) {
	p := Default()
	p.Jitter, p.JitterLo, p.JitterHi = Proportional, 1-0.999, 1+0.999
	if d := p.Describe(); !strings.Contains(d, "proportional jitter x U[0.001, 1.999)") {
		t.Errorf("described as %q", d)
	}
}
