package backoff

// equalKind is equal jitter, d/2 + U[0, d/2): half the delay kept, half
// spread (the AWS blog's "equal jitter").
var equalKind = jitterKind{
	name:    "equal",
	span:    func(*Policy) (lo, hi float64) { return 0.5, 1 },
	fit:     fixedSpan(0.5, 1),
	spread:  func(_ *Policy, _ int, g, u float64) float64 { return EqualJitter(g, u) },
	dist:    func(_ *Policy, _ int, g float64) dist { return dist{a: g / 2, b: g} },
	lifts:   func(*Policy) bool { return false },
	words:   func(*Policy) string { return "equal jitter" },
	formula: func(*Policy) string { return "d/2+U[0,d/2)" },
	desc:    func(*Policy) (string, []string) { return "equal", nil },
}

// EqualJitter is d/2 + U[0, d/2), drawn as d * U[1/2, 1) so that every
// kind with a span draws the same way (linearSpread).
func EqualJitter(d, u float64) float64 { return linearSpread(d, 0.5, 0.5, u) }
