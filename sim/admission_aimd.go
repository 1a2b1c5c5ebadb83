package sim

import "math"

// aimdRule is an adaptive concurrency limit, additive increase and
// multiplicative decrease, as Netflix's concurrency-limits library's
// AIMDLimit: a limit on the calls inside the server (waiting or in
// service), starting at 20; each call a worker takes is a sample, and one
// that waited in the queue longer than TARGET cuts the limit to 0.9 of
// itself (at least 1), while one that did not raises it by 1 if the
// server is at least half full (so an idle server does not grow a limit
// it never tests). The limit follows the concurrency at which waits stay
// under TARGET; it cannot know when one will leave: its 429s carry no
// Retry-After.
type aimdRule struct {
	target float64
	limit  float64
}

func init() { registerAdmission(5, &aimdRule{}) }

// The AIMDLimit's defaults: where the limit starts, the factor of a cut.
const (
	aimdStart   = 20
	aimdBackoff = 0.9
)

func (*aimdRule) Name() string { return "aimd" }

func (*aimdRule) Args() []PartArg {
	return []PartArg{{Name: "TARGET", Kind: DurationParam, Min: 0, Max: MaxLatency.Seconds(), Default: 0.05, Optional: true}}
}

func (*aimdRule) Help() string {
	return "an adaptive limit on the calls inside the server (Netflix's AIMDLimit): from 20, cut to 0.9 of itself by each call " +
		"that waited longer than TARGET, raised by 1 by each that did not while the server is half full (429, no Retry-After)"
}

func (*aimdRule) start(a *Admission) admitter {
	return &aimdRule{target: a.Args[0] / 1e9, limit: aimdStart}
}

func (m *aimdRule) admit(_ float64, inside int) (bool, float64) {
	return float64(inside) < math.Floor(m.limit), 0
}

func (m *aimdRule) taken(waited float64, inside int) {
	switch {
	case waited > m.target:
		m.limit = math.Max(1, math.Floor(m.limit*aimdBackoff))
	case 2*float64(inside) >= m.limit:
		m.limit = math.Min(MaxConcurrency, m.limit+1)
	}
}
