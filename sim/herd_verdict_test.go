package sim

import (
	"math"
	"testing"
)

// Without jitter or latency the herd's ends are the schedule's own sums:
// tries at 0, 1, 3, 7 s (and 15 s with a fifth).
func TestHerdVerdict(t *testing.T) {
	exact := [][2]string{{"jitter", "none"}, {"latency", "0"}, {"latency-sd", "0"}, {"capacity", "1000000"}}
	for _, c := range []struct {
		name                           string
		set                            [][2]string
		succeeded, gaveUp              int
		lastOK, lastGaveUp, beforeBack float64
		outage                         bool
	}{
		// Four tries end at 7 s, the server is back at 60 s: every
		// client gave up 53 s before it came back.
		{"all give up in the outage", [][2]string{{"clients", "500"}, {"attempts", "4"}, {"outage-end", "1m"}}, 0, 500, 0, 7, 53, true},
		// Five tries: the fifth, at 15 s, finds the server back since 10 s.
		{"all succeed after it", [][2]string{{"clients", "500"}, {"attempts", "5"}, {"outage-end", "10s"}}, 500, 0, 15, 0, 0, true},
		// Back at 5 s: the fourth try (7 s) succeeds, 2 s after.
		{"back sooner", [][2]string{{"clients", "10"}, {"attempts", "5"}, {"outage-end", "5s"}}, 10, 0, 7, 0, 0, true},
		// No outage: a capacity server answers the first try.
		{"no outage", [][2]string{{"clients", "10"}, {"server", "capacity"}}, 10, 0, 0, 0, 0, false},
	} {
		cfg := variant{c.name, append(append([][2]string{}, exact...), c.set...)}.config(t)
		r, err := Run(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := HerdVerdictOf(cfg, r)
		if !ok {
			t.Fatalf("%s: no verdict", c.name)
		}
		rel, before := v.Since(v.LastGaveUp)
		if v.Succeeded != c.succeeded || v.GaveUp != c.gaveUp || v.Returned != c.outage ||
			math.Abs(v.LastSuccess-c.lastOK) > 1e-9 || math.Abs(v.LastGaveUp-c.lastGaveUp) > 1e-9 ||
			c.gaveUp > 0 && (rel != Before || math.Abs(before-c.beforeBack) > 1e-9) || v.AllGaveUp() != (c.gaveUp == v.Clients) {
			t.Errorf("%s: %+v (%s back by %g), want %d ok (last %g), %d gave up (last %g, %g before back)", c.name, v,
				rel, before, c.succeeded, c.lastOK, c.gaveUp, c.lastGaveUp, c.beforeBack)
		}
	}
	// A request-level run has Verdict, not this one.
	cfg := variant{"open", [][2]string{{"traffic", "open:10"}, {"duration", "5s"}}}.config(t)
	r, err := Run(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := HerdVerdictOf(cfg, r); ok {
		t.Error("a request-level run got a herd verdict")
	}
}

// The ends are the latest give-up and success of any client, whatever
// order the loop met them in: on the fast path a client's tries during
// the outage are worked out at once, so its give-up came before other
// clients' earlier ones (lesson 8 said "gave up 4.82s before the server
// came back" of a herd whose last gave up at 6.19 s).
func TestHerdVerdictLatest(t *testing.T) {
	for _, set := range [][]string{
		{"clients", "50", "base", "100ms", "cap", "1s", "attempts", "10", "outage-end", "10s", "retry-after-s", "10s"},
		{"clients", "50", "base", "100ms", "cap", "1s", "attempts", "10", "outage-end", "2s"},
		{"clients", "50", "base", "100ms", "cap", "1s", "attempts", "4", "outage-end", "1s"},
	} {
		cfg := configOf(t, set...)
		r, err := Run(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Trace == nil || r.Trace.Truncated {
			t.Fatalf("%v: no whole trace", set)
		}
		var lastOK, lastGaveUp float64
		for _, e := range r.Trace.Events {
			switch e.Kind {
			case TraceSuccess:
				lastOK = max(lastOK, e.T)
			case TraceGaveUp:
				lastGaveUp = max(lastGaveUp, e.T)
			}
		}
		v, _ := HerdVerdictOf(cfg, r)
		if v.LastSuccess != lastOK || v.LastGaveUp != lastGaveUp || v.GaveUp+v.Succeeded != 50 {
			t.Errorf("%v: verdict's last success %g, last give-up %g; the trace's %g and %g (%d ok, %d gave up)",
				set, v.LastSuccess, v.LastGaveUp, lastOK, lastGaveUp, v.Succeeded, v.GaveUp)
		}
	}
}

// Since places a moment against the server's return, and at its time
// when the server never went down.
func TestHerdVerdictSince(t *testing.T) {
	back := HerdVerdict{Returned: true, Back: 10}
	for _, c := range []struct {
		v   HerdVerdict
		t   float64
		rel string
		d   float64
	}{
		{back, 4, Before, 6},
		{back, 10, After, 0},
		{back, 12.5, After, 2.5},
		{HerdVerdict{}, 4, At, 4},
		{HerdVerdict{Back: 10}, 12, At, 12}, // Back without a return is not one
	} {
		if rel, d := c.v.Since(c.t); rel != c.rel || d != c.d {
			t.Errorf("%+v.Since(%g) = %s %g, want %s %g", c.v, c.t, rel, d, c.rel, c.d)
		}
	}
}
