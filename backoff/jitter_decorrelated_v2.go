package backoff

import "math"

// decorrelatedV2Kind is Polly's DecorrelatedJitterBackoffV2: retry n's
// time t = (n-1) + U[0,1) on the curve f(t) = 2^t * tanh(sqrt(4t)), and the
// delay (f(t) - f(t_prev)) / 1.4 * Base. Its State.Prev is f(t_prev), not a
// delay. A cap clamps the delay in every CapMode, as Polly's MaxDelay
// does, while the curve's history goes on unclamped.
var decorrelatedV2Kind = jitterKind{
	name: "decorrelated-v2",
	step: func(p *Policy, n int, s State, u float64) (float64, State) {
		t := float64(n-1) + u
		if p.ImmediateFirst {
			t--
		}
		next := pollyV2(t)
		d := (next - s.Prev) / 1.4 * p.Base.Seconds()
		if p.Cap > 0 { // in every mode: see capsDelay
			d = math.Min(d, p.Cap.Seconds())
		}
		return d, State{Prev: next}
	},
	bounds:    func(p *Policy, m int) (lo, hi float64) { return 0, p.v2Max(m) },
	sumMax:    func(p *Policy, m int) float64 { return p.v2f(float64(m)) },
	cumBounds: (*Table).v2CumBounds,
	desc:      func(*Policy) (string, []string) { return "decorrelated-v2", nil },
}

// pollyV2 is the formula of Polly's DecorrelatedJitterBackoffV2 before
// scaling: 2^t * tanh(sqrt(4t)).
func pollyV2(t float64) float64 {
	if t <= 0 {
		return 0
	}
	return math.Exp2(t) * math.Tanh(math.Sqrt(4*t))
}

// v2f is Polly's V2 formula scaled to seconds: f(t) / 1.4 * Base.
func (p *Policy) v2f(t float64) float64 { return pollyV2(t) / 1.4 * p.Base.Seconds() }

// v2Max is the supremum of the m-th V2 delay before cap and Offset:
// t_m near m and t_(m-1) at m-2, clamped to maxSeconds (2^t overflows
// float64 past t = 1024).
func (p *Policy) v2Max(m int) float64 {
	hi := p.v2f(float64(m)) - p.v2f(float64(m-2))
	if !(hi < maxSeconds) {
		hi = maxSeconds
	}
	return hi
}

// v2CumBounds sets the cumulative bounds of Polly's V2. Uncapped, the sum
// telescopes: cum_n = f(t_n) + n*Offset with t_n in [m-1, m). A cap (or
// the maxSeconds clamp) cuts each delay to c, and the telescoped sum is
// then only an upper bound; the lower bound pairs retries: two in a row
// span t from below m-1 to at least m, so min(c, d_m) + min(c, d_(m+1)) >=
// min(c, f(m) - f(m-1)), and the better of the two pairings is taken.
// Both bounds hold for every run; capped, they need not be reached.
func (t *Table) v2CumBounds() {
	p, rows := &t.Policy, t.Rows
	off := p.Offset.Seconds()
	c := maxSeconds - off
	if p.capsDelay() {
		c = math.Min(c, p.Cap.Seconds())
	}
	shift := 0
	if p.ImmediateFirst {
		shift = 1
	}
	clamped := false // some delay can be cut to c
	var sumMax float64
	pair := [2]float64{} // pairings starting at steps 1 and 2
	for i := range rows {
		m := i + 1 - shift // V2 step of this row; 0 = the immediate retry
		k := float64(i + 1)
		if m >= 1 && p.v2f(float64(m))-p.v2f(float64(m-2)) > c {
			clamped = true
		}
		sumMax += rows[i].Max
		hi := math.Min(sumMax, p.v2f(float64(m))+off*k)
		if m >= 2 {
			d := p.v2f(float64(m-1)) - p.v2f(float64(m-2))
			if !(d < c) { // also Inf - Inf past t = 1024
				d = c
			}
			pair[m%2] += d
		}
		lo := math.Max(pair[0], pair[1]) + off*k
		if !clamped {
			lo = p.v2f(float64(m-1)) + off*k
		}
		rows[i].CumMin, rows[i].CumMax = math.Min(lo, hi), hi
	}
}
