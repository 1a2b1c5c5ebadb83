package backoff

import "math"

// decorrelatedKind is the AWS blog's decorrelated jitter, min(cap,
// U[base, prev*3)) with prev starting at base: each delay is drawn from
// the one before, so it ignores the policy's growth.
var decorrelatedKind = jitterKind{
	name: "decorrelated",
	step: func(p *Policy, _ int, s State, u float64) (float64, State) {
		prev := s.Prev
		if prev <= 0 {
			prev = p.Base.Seconds()
		}
		d := DecorrelatedJitter(p.Base.Seconds(), prev, p.Cap.Seconds(), u)
		return d, State{Prev: d}
	},
	bounds:           tripling,
	uniformAbovePrev: true,
	desc:             func(*Policy) (string, []string) { return "decorrelated", nil },
}

// tripling is the range of the m-th delay of the kinds that draw below
// three times the previous delay from base up: [base, base*3^m).
func tripling(p *Policy, m int) (lo, hi float64) {
	b := p.Base.Seconds()
	return b, math.Min(b*math.Pow(3, float64(m)), maxSeconds)
}

// DecorrelatedJitter is the AWS blog's min(cap, U[base, prev*3)); cap <= 0
// means no cap.
func DecorrelatedJitter(base, prev, cap, u float64) float64 {
	hi := prev * 3
	d := base + (hi-base)*u
	if cap > 0 && d > cap {
		d = cap
	}
	return d
}
