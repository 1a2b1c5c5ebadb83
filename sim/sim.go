package sim

import "errors"

// Sim is one simulation in progress. It is not safe for concurrent use.
type Sim struct {
	done bool
	res  *Result
}

// New checks c and sets up a simulation seeded with seed.
func New(c Config, seed uint64) (*Sim, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return nil, errors.New("sim: not built yet")
}

// Advance processes at most maxEvents events and reports whether the run
// is over.
func (s *Sim) Advance(maxEvents int) (done bool) { return s.done }

// Progress is how far the run is, from 0 to 1; it never decreases.
func (s *Sim) Progress() float64 { return 0 }

// Result is the run's result, valid once Advance has reported done.
func (s *Sim) Result() *Result { return s.res }

// Run simulates c with seed to the end.
func Run(c Config, seed uint64) (*Result, error) {
	s, err := New(c, seed)
	if err != nil {
		return nil, err
	}
	for !s.Advance(1 << 20) {
	}
	return s.Result(), nil
}

// RunMany runs c with seeds seed..seed+runs-1 and summarises the totals.
func RunMany(c Config, seed uint64, runs int) (*Summary, error) {
	return nil, errors.New("sim: not built yet")
}
