package sim

// Runner runs simulations one after another on the same memory: each run
// takes the big buffers the one before it left (the event queue's blocks,
// the completion times, the per-client state, occ's reads, a
// request-level run's callers and event heap), so a herd image's 20 runs of 2M clients
// allocate about one run's 90 MB, not twenty times that, and hold one,
// where the garbage collector lets a finished run's buffers pile up under
// the next. Results are Run's, bit for bit (TestRunnerMatchesRun). Not
// safe for concurrent use; the zero value is ready, and holds nothing
// until its first run ends.
type Runner struct{ spare buffers }

// Run is Run(c, seed) on r's memory.
func (r *Runner) Run(c Config, seed uint64) (*Result, error) {
	s, err := newSim(c, seed, true, &r.spare)
	if err != nil {
		return nil, err
	}
	for !s.Advance(1 << 20) {
	}
	return s.Result(), nil
}

// buffers are a finished run's big slices for the next to reuse; a run
// takes each it needs (leaving nil) and gives it back when it ends.
type buffers struct {
	pool        []event
	fill, next  []int32
	completions []float64
	state       []float64
	reads       []read
	callers     []caller
	revs        []rev // a request-level run's event heap
}

// take moves the slice out of *b: two runs never share one.
func take[T any](b *[]T) []T {
	s := *b
	*b = nil
	return s
}

// zeroed is make([]T, n), in b's memory when it is big enough.
func zeroed[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// empty is make([]T, 0, n), in b's memory when it is big enough.
func empty[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, 0, n)
	}
	return b[:0]
}

// giveBack keeps b in *dst for the next run, unless *dst is as big.
func giveBack[T any](dst *[]T, b []T) {
	if cap(b) > cap(*dst) {
		*dst = b[:0]
	}
}
