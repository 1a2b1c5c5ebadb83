package backoff

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// randomPolicy draws a valid policy over every growth, jitter kind and cap
// mode, with and without a deadline, attempts from unlimited to 1000 and
// factors up to 100.
func randomPolicy(r *rand.Rand) Policy {
	logU := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, r.Float64()) }
	dur := func(sec float64) time.Duration { return min(Seconds(sec), MaxDuration) }
	for {
		p := Policy{
			Growth:  Growth(r.IntN(len(growthNames))),
			Jitter:  Jitter(r.IntN(len(jitterNames))),
			CapMode: CapMode(r.IntN(len(capModeNames))),
			Base:    dur(logU(1e-3, 3600)),
			Factor:  []float64{1, 1.5, 2, 3, 10, 100, 0.5, r.Float64() * 10}[r.IntN(8)],
		}
		if r.IntN(4) == 0 {
			p.FirstExponent = r.IntN(4)
		}
		if r.IntN(3) > 0 {
			p.Cap = dur(p.Base.Seconds() * logU(1, 1e4))
		}
		if p.Growth == Geometric && r.IntN(2) == 0 && p.Cap > 0 {
			p.Steps = 1 + r.IntN(20)
		}
		switch p.Jitter {
		case Proportional:
			p.JitterLo = r.Float64() * 2
			p.JitterHi = p.JitterLo + r.Float64()*3
		case Additive:
			p.JitterAdd = dur(p.Base.Seconds() * r.Float64() * 3)
			p.JitterAddScaled = r.IntN(2) == 0
		}
		if (p.Jitter == Full || p.Jitter == Additive) && r.IntN(3) == 0 {
			p.Quantum = max(dur(p.Base.Seconds()/float64(1+r.IntN(10))), time.Microsecond)
		}
		if r.IntN(3) == 0 {
			p.Offset = dur(p.Base.Seconds() * r.Float64())
		}
		if r.IntN(4) == 0 {
			p.Floor = dur(p.Base.Seconds() * logU(0.1, 100))
			if p.Cap > 0 {
				p.Floor = min(p.Floor, p.Cap)
			}
		}
		p.ImmediateFirst = r.IntN(5) == 0
		p.FirstUnjittered = r.IntN(5) == 0
		switch k := r.IntN(10); {
		case k == 0:
			p.Attempts = 0
		case k == 1:
			p.Attempts = 1 + r.IntN(MaxAttempts)
		case k == 2:
			p.Attempts = MaxAttempts
		default:
			p.Attempts = 1 + r.IntN(20)
		}
		if r.IntN(3) == 0 {
			p.Deadline = min(Seconds(p.Base.Seconds()*logU(1, 1000)), MaxDeadline)
		}
		if p.Validate() == nil {
			return p
		}
	}
}

// Every table is consistent and every sampled delay lies within its row's
// bounds and, where the policy says the cap bounds delays, within the cap.
func TestTableProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	page := TableOptions{MaxDraws: 1 << 18, MinRuns: 200}
	n := 300
	if testing.Short() {
		n = 100
	}
	for k := 0; k < n; k++ {
		p := randomPolicy(r)
		opts := page
		if k%50 == 0 && p.Attempts > 0 && p.Attempts <= 20 {
			opts = TableOptions{} // now and then the CLI's default budget
		}
		tab, err := NewTableWith(p, NewRand(uint64(k)), opts)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		checkTable(t, tab)
		checkSamples(t, tab, r)
		if t.Failed() {
			t.Fatalf("policy %d: %+v (%s)", k, p, p.Describe())
		}
	}
}

func le(a, b float64) bool { return a <= b+1e-9*math.Max(1, math.Abs(b)) }

func checkTable(t *testing.T, tab *Table) {
	t.Helper()
	finite := func(what string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxSeconds*MaxAttempts {
			t.Errorf("%s = %v", what, v)
		}
	}
	tot := tab.Total
	finite("total min", tot.Min)
	finite("total mean", tot.Mean)
	finite("total max", tot.Max)
	if !le(tot.Min, tot.Mean) || !le(tot.Mean, tot.Max) {
		t.Errorf("totals out of order: best %g, expected %g, worst %g", tot.Min, tot.Mean, tot.Max)
	}
	var prev Row
	for i, row := range tab.Rows {
		for _, v := range []float64{row.Nominal, row.Min, row.Max, row.Mean, row.P50, row.P95, row.Sample, row.CumMin, row.CumMean, row.CumMax} {
			finite("a column", v)
		}
		if !le(row.Min, row.P50) || !le(row.P50, row.P95) || !le(row.P95, row.Max) ||
			!le(row.Min, row.Mean) || !le(row.Mean, row.Max) || !le(row.Min, row.Sample) || !le(row.Sample, row.Max) {
			t.Errorf("retry %d out of order: %+v", i+1, row)
		}
		if !le(row.CumMin, row.CumMean) || !le(row.CumMean, row.CumMax) {
			t.Errorf("retry %d cumulative out of order: %+v", i+1, row)
		}
		if i > 0 && (!le(prev.CumMin, row.CumMin) || !le(prev.CumMean, row.CumMean) || !le(prev.CumMax, row.CumMax)) {
			t.Errorf("retry %d: cumulative columns fall: %+v after %+v", i+1, row, prev)
		}
		prev = row
	}
	if tab.MonteCarlo && (tab.MeanError < 0 || tab.QuantileError < 0 || math.IsNaN(tab.QuantileError)) {
		t.Errorf("errors %g %g", tab.MeanError, tab.QuantileError)
	}
}

// checkSamples runs the policy with Step and with a Sampler: each delay is
// within its row's bounds, each running total within the cumulative
// bounds, and within Cap+Offset when CapBoundsDelay.
func checkSamples(t *testing.T, tab *Table, r *rand.Rand) {
	t.Helper()
	p := tab.Policy
	bound := p.Cap.Seconds() + p.Offset.Seconds()
	for run := 0; run < 20; run++ {
		var st State
		var prev, cum float64
		smp := NewSampler(p)
		for i, row := range tab.Rows {
			u := r.Float64()
			switch run {
			case 0:
				u = 0
			case 1:
				u = math.Nextafter(1, 0)
			}
			var d float64
			d, st = p.Step(i+1, st, u)
			if s := smp.Next(i+1, &prev, u); s != d {
				t.Errorf("retry %d, u=%v: Sampler %v, Step %v", i+1, u, s, d)
			}
			cum += d
			if !le(row.Min, d) || !le(d, row.Max) {
				t.Errorf("retry %d, u=%v: delay %v outside [%v, %v]", i+1, u, d, row.Min, row.Max)
			}
			if !le(row.CumMin, cum) || !le(cum, row.CumMax) {
				t.Errorf("retry %d, u=%v: total %v outside [%v, %v]", i+1, u, cum, row.CumMin, row.CumMax)
			}
			if p.CapBoundsDelay() && !le(d, bound) {
				t.Errorf("retry %d, u=%v: delay %v above cap+offset %v though CapBoundsDelay", i+1, u, d, bound)
			}
		}
	}
}

func TestCapBoundsDelay(t *testing.T) {
	sec := time.Second
	base := Policy{Growth: Exponential, Base: sec, Factor: 2, Cap: 4500 * time.Millisecond, Attempts: 10}
	for _, c := range []struct {
		name string
		edit func(p *Policy)
		want bool
	}{
		{"no cap", func(p *Policy) { p.Cap = 0; p.Jitter = Full }, false},
		{"full before", func(p *Policy) { p.Jitter = Full }, true},
		{"equal before", func(p *Policy) { p.Jitter = Equal }, true},
		{"none exact", func(p *Policy) { p.CapMode = CapExact }, true},
		{"proportional 0.8-1.2 before (gRPC)", func(p *Policy) { p.Jitter, p.JitterLo, p.JitterHi = Proportional, 0.8, 1.2 }, false},
		{"proportional 0.8-1.2 exact", func(p *Policy) {
			p.Jitter, p.JitterLo, p.JitterHi, p.CapMode = Proportional, 0.8, 1.2, CapExact
		}, false},
		{"proportional 0.5-1 before", func(p *Policy) { p.Jitter, p.JitterLo, p.JitterHi = Proportional, 0.5, 1 }, true},
		{"proportional after", func(p *Policy) {
			p.Jitter, p.JitterLo, p.JitterHi, p.CapMode = Proportional, 0.8, 1.2, CapAfterJitter
		}, true},
		{"additive before", func(p *Policy) { p.Jitter, p.JitterAdd = Additive, sec }, false},
		{"additive after", func(p *Policy) { p.Jitter, p.JitterAdd, p.CapMode = Additive, sec, CapAfterJitter }, true},
		{"decorrelated", func(p *Policy) { p.Jitter = Decorrelated }, true},
		{"decorrelated clamped", func(p *Policy) { p.Jitter = DecorrelatedClamped }, true},
		{"polly v2 before", func(p *Policy) { p.Jitter = DecorrelatedV2 }, true},
		{"polly v2 exact", func(p *Policy) { p.Jitter, p.CapMode = DecorrelatedV2, CapExact }, true},
	} {
		p := base
		c.edit(&p)
		if got := p.CapBoundsDelay(); got != c.want {
			t.Errorf("%s: CapBoundsDelay = %v, want %v", c.name, got, c.want)
		}
		// When it says false with a cap, some delay does exceed the cap.
		if tab, err := NewTable(p, NewRand(1)); err == nil && p.Cap > 0 {
			over := false
			for _, row := range tab.Rows {
				over = over || row.Max > p.Cap.Seconds()+1e-9
			}
			if over == c.want {
				t.Errorf("%s: a row's max exceeds the cap = %v, CapBoundsDelay = %v", c.name, over, c.want)
			}
		}
	}
}

// Polly's V2 with a cap: no delay exceeds it in any cap mode (Polly's
// MaxDelay clamps the delay), while the formula's history runs on
// unclamped.
func TestPollyV2Cap(t *testing.T) {
	pr, _ := LookupPreset("polly-v2")
	for _, mode := range []CapMode{CapBeforeJitter, CapAfterJitter, CapExact} {
		p := pr.Policy
		p.Cap, p.CapMode, p.Attempts = 5*time.Second, mode, 8
		var st State
		prev := 0.0
		for n := 1; n < p.Attempts; n++ {
			u := 0.999
			d, next := p.Step(n, st, u)
			// The reference: Polly's formula, then MaxDelay.
			tt := float64(n-1) + u
			f := math.Pow(2, tt) * math.Tanh(math.Sqrt(4*tt))
			want := math.Min((f-prev)/1.4*2, 5)
			prev = f
			if math.Abs(d-want) > 1e-9 {
				t.Errorf("%s: retry %d: Step = %v, want min(formula, MaxDelay) = %v", mode, n, d, want)
			}
			st = next
		}
		tab, err := NewTable(p, NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range tab.Rows {
			if row.Max > 5 || row.P95 > 5 || row.CumMax > 5*float64(row.Retry)+1e-9 {
				t.Errorf("%s: retry %d: max %v p95 %v cum max %v above the cap's", mode, row.Retry, row.Max, row.P95, row.CumMax)
			}
		}
	}
}

// Runaway growth without a cap stays printable: every delay saturates
// (about 31.7 years), and totals beyond a century print as ">100y".
func TestRunawayGrowth(t *testing.T) {
	for _, j := range []Jitter{NoJitter, Full, Proportional, Decorrelated, DecorrelatedV2, DecorrelatedClamped} {
		p := Policy{Growth: Exponential, Base: time.Second, Factor: 100, Jitter: j, JitterLo: 0.8, JitterHi: 1.2, Attempts: MaxAttempts}
		tab, err := NewTableWith(p, NewRand(1), TableOptions{MaxDraws: 1 << 18, MinRuns: 200})
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, tab)
		if got := FormatSeconds(tab.Total.Max); got != ">100y" {
			t.Errorf("%s: worst case prints %q, want >100y", j, got)
		}
		for _, row := range tab.Rows {
			if s := FormatSeconds(row.Max); len(s) > 8 {
				t.Errorf("%s: retry %d's max prints %q", j, row.Retry, s)
			}
		}
	}
}
