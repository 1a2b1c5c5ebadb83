package backoff

// noJitterKind is no jitter at all: every delay is exactly its nominal
// delay d.
var noJitterKind = jitterKind{
	name:    "none",
	span:    func(*Policy) (lo, hi float64) { return 1, 1 },
	fit:     fixedSpan(1, 1),
	spread:  func(_ *Policy, _ int, g, u float64) float64 { return linearSpread(g, 1, 0, u) },
	dist:    func(_ *Policy, _ int, g float64) dist { return dist{a: g, b: g} },
	lifts:   func(*Policy) bool { return false },
	words:   func(*Policy) string { return "no jitter" },
	formula: func(*Policy) string { return "d" },
	desc:    func(*Policy) (string, []string) { return "none", nil },
}
