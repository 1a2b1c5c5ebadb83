package backoff

import (
	"slices"
	"testing"
)

// The exported name lists are complete (every kind up to the first that
// has no name), unique, what String prints and what Set accepts.
func TestKindNames(t *testing.T) {
	for _, c := range []struct {
		param string
		names []string
		str   func(i int) string
		get   func(p *Policy) int
	}{
		{ParamGrowth, GrowthNames(), func(i int) string { return Growth(i).String() }, func(p *Policy) int { return int(p.Growth) }},
		{ParamJitter, JitterNames(), func(i int) string { return Jitter(i).String() }, func(p *Policy) int { return int(p.Jitter) }},
		{ParamCapMode, CapModeNames(), func(i int) string { return CapMode(i).String() }, func(p *Policy) int { return int(p.CapMode) }},
		{ParamRetryAfter, RetryAfterNames(), func(i int) string { return RetryAfterMode(i).String() }, func(p *Policy) int { return int(p.RetryAfter) }},
	} {
		if c.str(len(c.names)) != "unknown" {
			t.Errorf("%s: kind %d has a name but is not listed", c.param, len(c.names))
		}
		for i, n := range c.names {
			p := Default()
			if n == "" || c.str(i) != n || slices.Index(c.names, n) != i {
				t.Errorf("%s: name %d %q: String %q, or empty or repeated", c.param, i, n, c.str(i))
			}
			if err := p.Set(c.param, n); err != nil || c.get(&p) != i {
				t.Errorf("%s: Set(%q) = %v, kind %d, want %d", c.param, n, err, c.get(&p), i)
			}
		}
	}
	// The lists are copies: a caller cannot change the core's.
	JitterNames()[0] = "x"
	if Jitter(0).String() != "none" {
		t.Error("JitterNames returned the core's own slice")
	}
	var hist []string
	for i, n := range JitterNames() {
		if Jitter(i).HistoryDependent() {
			hist = append(hist, n)
		}
	}
	if !slices.Equal(hist, []string{"decorrelated", "decorrelated-v2", "decorrelated-clamped"}) || Jitter(99).HistoryDependent() {
		t.Errorf("history-dependent kinds %q, want the three decorrelated ones", hist)
	}
}
