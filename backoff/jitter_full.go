package backoff

import "math"

// fullKind is full jitter, U[0, d): the AWS blog's choice, and the
// article's. With a quantum it draws whole slots, as Ethernet and Celery do.
var fullKind = jitterKind{
	name:    "full",
	quantum: true,
	span:    func(*Policy) (lo, hi float64) { return 0, 1 },
	fit:     fixedSpan(0, 1),
	spread: func(p *Policy, _ int, g, u float64) float64 {
		if q := p.Quantum.Seconds(); q > 0 {
			return FullJitter(g, q, u)
		}
		return linearSpread(g, 0, 1, u)
	},
	dist: func(p *Policy, _ int, g float64) dist {
		if q := p.Quantum.Seconds(); q > 0 {
			return dist{q: q, k: int(math.Floor(g/q + 1e-9))}
		}
		return dist{a: 0, b: g}
	},
	lifts:   func(*Policy) bool { return false },
	words:   func(*Policy) string { return "full jitter" },
	formula: func(*Policy) string { return "U[0,d)" },
	desc:    func(*Policy) (string, []string) { return "full", nil },
}

// FullJitter is U[0, d) for u in [0, 1). With a quantum q > 0 it is q times a
// whole number drawn uniformly from 0 .. floor(d/q), both ends included
// (Celery's randrange(countdown + 1), Ethernet's 0 .. 2^k - 1 slots).
func FullJitter(d, q, u float64) float64 {
	if q > 0 {
		k := math.Floor(d/q + 1e-9)
		return q * math.Floor(u*(k+1))
	}
	return d * u
}
