package sim

// codelDisc is the controlled-delay queue of Maurer's "Fail at Scale"
// (ACM Queue, 2015), after Nichols and Jacobson's CoDel: FIFO, but a call
// may wait only so long, and less while a standing queue lasts. As its
// listing does, the allowed wait is set when the call arrives:
//
//	if the queue has not been empty in the last N: at most M
//	else: at most N
//
// and a call found to have waited longer when a worker would take it is
// refused (a 503) instead of served. A burst is absorbed (it may wait N);
// a queue that never drains keeps only M's worth of waiting.
type codelDisc struct{ interval, target float64 }

func init() { registerDiscipline(3, &codelDisc{}) }

// The waits' classes a call carries (queueDisc.arrive).
const (
	codelLong  uint8 = iota // the queue was empty within N: wait up to N
	codelShort              // a standing queue: wait up to M
)

func (*codelDisc) Name() string { return "codel" }

func (*codelDisc) Args() []PartArg {
	return []PartArg{
		{Name: "N", Kind: DurationParam, Min: 1e-6, Max: MaxLatency.Seconds(), Default: 0.1, Optional: true},
		{Name: "M", Kind: DurationParam, Min: 0, Max: MaxLatency.Seconds(), Default: 0.005, Optional: true},
	}
}

func (*codelDisc) Help() string {
	return "Maurer's CoDel (Fail at Scale): if the queue has not been empty in the last N, a call may wait at most M, " +
		"else at most N; a call that waited longer is refused when it would be taken"
}

func (*codelDisc) start(d *Discipline) queueDisc {
	return &codelDisc{interval: d.Args[0] / 1e9, target: d.Args[1] / 1e9}
}

func (c *codelDisc) arrive(_ int, backlog float64) (bool, uint8) {
	if backlog > c.interval {
		return false, codelShort
	}
	return false, codelLong
}

func (*codelDisc) newest(float64) bool { return false }

func (c *codelDisc) overdue(class uint8, waited float64) bool {
	if class == codelShort {
		return waited > c.target
	}
	return waited > c.interval
}
