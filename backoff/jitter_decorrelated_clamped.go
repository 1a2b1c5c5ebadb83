package backoff

import "math"

// decorrelatedClampedKind is Polly's first decorrelated jitter (its wiki's
// code of 2017): min(cap, max(base, prev*3*U[0,1))), prev starting at base.
var decorrelatedClampedKind = jitterKind{
	name: "decorrelated-clamped",
	step: func(p *Policy, _ int, s State, u float64) (float64, State) {
		prev := s.Prev
		if prev <= 0 {
			prev = p.Base.Seconds()
		}
		d := ClampedDecorrelatedJitter(p.Base.Seconds(), prev, p.Cap.Seconds(), u)
		return d, State{Prev: d}
	},
	// The same range as decorrelated's, the lower clamp included.
	bounds: tripling,
	desc:   func(*Policy) (string, []string) { return "decorrelated-clamped", nil },
}

// ClampedDecorrelatedJitter is Polly's first decorrelated jitter,
// min(cap, max(base, prev*3*u)); cap <= 0 means no cap. The AWS formula
// draws from [base, prev*3); this one draws from [0, prev*3) and clamps at
// both ends, so a delay is exactly base with probability base/(3 prev),
// besides exactly cap (as AWS's are) once prev*3 passes the cap.
func ClampedDecorrelatedJitter(base, prev, cap, u float64) float64 {
	d := math.Max(base, prev*3*u)
	if cap > 0 && d > cap {
		d = cap
	}
	return d
}
