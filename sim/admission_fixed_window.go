package sim

import "math"

// fixedWindow counts the calls let in during each aligned window of W
// ([0, W), [W, 2W), ...) and refuses those past N until the next window
// starts, which is what its Retry-After says. A burst across a window's
// edge may let in 2N within W: the sliding window's reason to be.
type fixedWindowRule struct {
	most   int
	width  float64
	window float64 // the current window's index
	n      int     // calls let in during it
}

func init() { registerAdmission(2, &fixedWindowRule{}) }

func (*fixedWindowRule) Name() string { return "fixed-window" }

func (*fixedWindowRule) Args() []PartArg {
	return []PartArg{
		{Name: "N", Kind: IntParam, Min: 1, Max: MaxQueueLimit, Default: 100},
		{Name: "W", Kind: DurationParam, Min: 1e-6, Max: 86400, Default: 1},
	}
}

func (*fixedWindowRule) Help() string {
	return "at most N calls in each aligned window of W; the others are refused (429, Retry-After: the next window's start)"
}

func (*fixedWindowRule) start(a *Admission) admitter {
	return &fixedWindowRule{most: int(a.Args[0]), width: a.Args[1] / 1e9, window: -1}
}

func (f *fixedWindowRule) admit(t float64, _ int) (bool, float64) {
	if w := math.Floor(t / f.width); w != f.window {
		f.window, f.n = w, 0
	}
	if f.n < f.most {
		f.n++
		return true, 0
	}
	return false, comeBack(t, (f.window+1)*f.width)
}

func (*fixedWindowRule) taken(float64, int) {}
