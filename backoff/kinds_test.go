package backoff

import (
	"math"
	"slices"
	"testing"
	"time"
)

// The exported name lists are complete (every kind up to the first that
// has no name), unique, what String prints and what Set accepts.
func TestKindNames(t *testing.T) {
	for _, c := range []struct {
		param string
		names []string
		str   func(i int) string
		get   func(p *Policy) int
	}{
		{ParamGrowth, GrowthNames(), func(i int) string { return Growth(i).String() }, func(p *Policy) int { return int(p.Growth) }},
		{ParamJitter, JitterNames(), func(i int) string { return Jitter(i).String() }, func(p *Policy) int { return int(p.Jitter) }},
		{ParamCapMode, CapModeNames(), func(i int) string { return CapMode(i).String() }, func(p *Policy) int { return int(p.CapMode) }},
		{ParamRetryAfter, RetryAfterNames(), func(i int) string { return RetryAfterMode(i).String() }, func(p *Policy) int { return int(p.RetryAfter) }},
	} {
		if c.str(len(c.names)) != "unknown" {
			t.Errorf("%s: kind %d has a name but is not listed", c.param, len(c.names))
		}
		for i, n := range c.names {
			p := Default()
			if n == "" || c.str(i) != n || slices.Index(c.names, n) != i {
				t.Errorf("%s: name %d %q: String %q, or empty or repeated", c.param, i, n, c.str(i))
			}
			if err := p.Set(c.param, n); err != nil || c.get(&p) != i {
				t.Errorf("%s: Set(%q) = %v, kind %d, want %d", c.param, n, err, c.get(&p), i)
			}
		}
	}
	// The lists are copies: a caller cannot change the core's.
	JitterNames()[0] = "x"
	if Jitter(0).String() != "none" {
		t.Error("JitterNames returned the core's own slice")
	}
	var hist []string
	for i, n := range JitterNames() {
		if Jitter(i).HistoryDependent() {
			hist = append(hist, n)
		}
	}
	if !slices.Equal(hist, []string{"decorrelated", "decorrelated-v2", "decorrelated-clamped"}) || Jitter(99).HistoryDependent() {
		t.Errorf("history-dependent kinds %q, want the three decorrelated ones", hist)
	}
}

// Each jitter kind's row is whole: a state-free kind has its spread, its
// distribution and whether it lifts a delay; a history-dependent one its
// step and bounds; a span has its fit. Each spread stays inside its
// distribution, and a kind with a span draws d * U[lo, hi) to the bit.
func TestJitterRows(t *testing.T) {
	us := []float64{0, 0x1p-53, 0.1, 0.5, 0.9, 1 - 0x1p-53}
	for i, k := range jitterKinds {
		j := Jitter(i)
		if k == nil || k.name == "" {
			t.Fatalf("jitter %d has no row", i)
		}
		free := k.spread != nil && k.dist != nil && k.lifts != nil && k.step == nil && k.bounds == nil
		hist := k.step != nil && k.bounds != nil && k.spread == nil && k.dist == nil
		if free == hist {
			t.Errorf("%s: neither a whole state-free kind nor a whole history-dependent one", k.name)
		}
		if (k.span == nil) != (k.fit == nil) || hist && k.span != nil {
			t.Errorf("%s: a span needs a fit, and only state-free kinds have one", k.name)
		}
		if k.desc == nil {
			t.Errorf("%s: no words for the page", k.name)
		}
		p := Default()
		if err := p.Set(ParamJitter, k.name); err != nil || p.Jitter != j {
			t.Fatalf("%s: Set: %v", k.name, err)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: the default policy with it is invalid: %v", k.name, err)
		}
		if !free {
			continue
		}
		for _, q := range []time.Duration{0, 250 * time.Millisecond} {
			if q > 0 && !k.quantum {
				continue
			}
			p.Quantum = q
			for _, g := range []float64{0, 0.3, 1, 7.5} {
				d := k.dist(&p, 3, g)
				for _, u := range us {
					v := k.spread(&p, 3, g, u)
					lo, hi := d.a, d.b
					if d.q > 0 {
						hi = d.a + d.q*float64(d.k)
					}
					if v < lo || v > hi { // closed: rounding can reach a half-open end
						t.Errorf("%s, quantum %v: spread(%v, %v) = %v outside its distribution [%v, %v]", k.name, q, g, u, v, lo, hi)
					}
					if lo, hi, ok := p.Span(); ok && q == 0 {
						if w := linearSpread(g, lo, hi-lo, u); math.Float64bits(w) != math.Float64bits(v) {
							t.Errorf("%s: spread(%v, %v) = %v, not d * U[%v, %v) = %v", k.name, g, u, v, lo, hi, w)
						}
					}
				}
			}
		}
		if lo, hi, ok := p.Span(); ok {
			var s Policy
			s.SetSpan(lo, hi)
			if s.Jitter != j && (k.params == nil || s.Jitter.kind().params != nil) {
				t.Errorf("%s: SetSpan(%v, %v) names %s", k.name, lo, hi, s.Jitter)
			}
		}
	}
}
