package sim

// slidingWindow lets a call in only if fewer than N were let in during
// the W before it: any window of W holds at most N (a sliding log, as
// exact rate limiters keep). It remembers when each of the last N let in
// leaves the window; a refused call is told to come back when the
// oldest does.
type slidingWindowRule struct {
	width float64
	most  int
	free  []float64 // the last N let in, each one's time + W, a ring from head
	head  int
}

func init() { registerAdmission(3, &slidingWindowRule{}) }

// MaxSlidingWindow bounds a sliding window's N: it keeps up to N times,
// 8 bytes each, per server (growing with the calls it lets in, so a
// large N costs only what a run uses).
const MaxSlidingWindow = 100_000

func (*slidingWindowRule) Name() string { return "sliding-window" }

func (*slidingWindowRule) Args() []PartArg {
	return []PartArg{
		{Name: "N", Kind: IntParam, Min: 1, Max: MaxSlidingWindow, Default: 100},
		{Name: "W", Kind: DurationParam, Min: 1e-6, Max: 86400, Default: 1},
	}
}

func (*slidingWindowRule) Help() string {
	return "at most N calls in any window of W; the others are refused (429, Retry-After: when the oldest of the last N leaves the window)"
}

func (*slidingWindowRule) start(a *Admission) admitter {
	return &slidingWindowRule{width: a.Args[1] / 1e9, most: int(a.Args[0])}
}

func (s *slidingWindowRule) admit(t float64, _ int) (bool, float64) {
	if len(s.free) < s.most {
		s.free = append(s.free, t+s.width)
		return true, 0
	}
	if at := s.free[s.head]; t < at {
		return false, comeBack(t, at)
	}
	s.free[s.head] = t + s.width
	if s.head++; s.head == len(s.free) {
		s.head = 0
	}
	return true, 0
}

func (*slidingWindowRule) taken(float64, int) {}
