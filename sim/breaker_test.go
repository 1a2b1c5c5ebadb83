package sim

import (
	"testing"
	"time"
)

// breakerStep is one thing that happens to a breaker at time t: a call
// asks to go through (ask), or the answer to one comes back (ok or
// failed; probe marks the probe's). want is the state afterwards; an ask
// also checks whether the call went through and was the probe.
type breakerStep struct {
	t         float64
	ask       bool
	ok, probe bool
	allowed   bool
	want      breakerState
}

func runBreaker(t *testing.T, cfg Breaker, steps []breakerStep) {
	t.Helper()
	b := newBreaker(cfg)
	for i, s := range steps {
		if s.ask {
			allowed, probe := b.allow(s.t)
			if allowed != s.allowed || probe != s.probe {
				t.Fatalf("step %d: allow(%v) = %v, %v; want %v, %v", i, s.t, allowed, probe, s.allowed, s.probe)
			}
		} else {
			b.record(s.t, s.ok, s.probe)
		}
		if b.state != s.want {
			t.Fatalf("step %d (t=%v): state %v, want %v", i, s.t, b.state, s.want)
		}
		if b.probing && b.state != breakerHalfOpen {
			t.Fatalf("step %d: probing while %v", i, b.state)
		}
		if b.state != breakerClosed && b.consecutive+b.winCalls+b.winFail != 0 {
			t.Fatalf("step %d: %v with counters %d %d %d", i, b.state, b.consecutive, b.winCalls, b.winFail)
		}
	}
}

func TestBreaker(t *testing.T) {
	const cl, op, ho = breakerClosed, breakerOpen, breakerHalfOpen
	// ask is a call asking at t; answer is the answer to one at t.
	ask := func(t float64, allowed, probe bool, want breakerState) breakerStep {
		return breakerStep{t: t, ask: true, allowed: allowed, probe: probe, want: want}
	}
	answer := func(t float64, ok, probe bool, want breakerState) breakerStep {
		return breakerStep{t: t, ok: ok, probe: probe, want: want}
	}
	consecutive := Breaker{Kind: ConsecutiveBreaker, Failures: 3, Cooldown: 2 * time.Second}
	ratio := Breaker{Kind: RatioBreaker, Ratio: 0.5, MinCalls: 4, Window: 10 * time.Second, Cooldown: time.Second}
	for _, c := range []struct {
		name  string
		cfg   Breaker
		steps []breakerStep
	}{
		{"no breaker lets everything through", Breaker{}, []breakerStep{
			ask(0, true, false, cl), answer(0, false, false, cl), answer(1, false, false, cl), ask(2, true, false, cl),
		}},
		{"a success resets the failures in a row", consecutive, []breakerStep{
			answer(0, false, false, cl), answer(1, false, false, cl), answer(2, true, false, cl),
			answer(3, false, false, cl), answer(4, false, false, cl), ask(5, true, false, cl),
		}},
		{"K failures in a row open it for the cool-down", consecutive, []breakerStep{
			answer(0, false, false, cl), answer(1, false, false, cl), answer(2, false, false, op),
			ask(2, false, false, op), ask(3.999, false, false, op),
			// Late answers to calls sent before it opened change nothing.
			answer(3, true, false, op), answer(3.5, false, false, op),
		}},
		{"after the cool-down one probe goes through", consecutive, []breakerStep{
			answer(0, false, false, cl), answer(0, false, false, cl), answer(0, false, false, op),
			ask(2, true, true, ho), ask(2.5, false, false, ho), ask(9, false, false, ho),
		}},
		{"the probe's success closes it", consecutive, []breakerStep{
			answer(0, false, false, cl), answer(0, false, false, cl), answer(0, false, false, op),
			ask(2, true, true, ho), answer(2.1, true, true, cl), ask(2.2, true, false, cl),
			// The count starts again from nothing.
			answer(3, false, false, cl), answer(4, false, false, cl), answer(5, false, false, op),
		}},
		{"the probe's failure opens it for another cool-down", consecutive, []breakerStep{
			answer(0, false, false, cl), answer(0, false, false, cl), answer(0, false, false, op),
			ask(2, true, true, ho), answer(3, false, true, op),
			ask(4.999, false, false, op), ask(5, true, true, ho),
		}},
		{"a cool-down of 0 turns half-open at once", Breaker{Kind: ConsecutiveBreaker, Failures: 1}, []breakerStep{
			answer(1, false, false, op), ask(1, true, true, ho), ask(1, false, false, ho),
		}},
		{"the ratio waits for its minimum calls", ratio, []breakerStep{
			answer(0, false, false, cl), answer(1, false, false, cl), answer(2, false, false, cl),
			answer(3, false, false, op), ask(3.5, false, false, op), ask(4, true, true, ho),
		}},
		{"below the ratio it stays closed", ratio, []breakerStep{
			answer(0, true, false, cl), answer(1, true, false, cl), answer(2, true, false, cl),
			answer(3, false, false, cl), answer(4, true, false, cl), answer(5, false, false, cl),
			// 3 failed of 7: still closed; the 4th makes 4 of 8.
			answer(6, false, false, cl), answer(7, false, false, op),
		}},
		{"a new window starts the count again", ratio, []breakerStep{
			answer(0, false, false, cl), answer(1, false, false, cl), answer(9.9, false, false, cl),
			answer(10, false, false, cl), answer(11, false, false, cl), answer(12, false, false, cl),
			answer(13, false, false, op),
		}},
	} {
		t.Run(c.name, func(t *testing.T) { runBreaker(t, c.cfg, c.steps) })
	}
}

func TestBreakerStateNames(t *testing.T) {
	for s, want := range map[breakerState]string{breakerClosed: "closed", breakerOpen: "open", breakerHalfOpen: "half-open", 3: "unknown"} {
		if s.String() != want {
			t.Errorf("breakerState(%d) = %q, want %q", s, s.String(), want)
		}
	}
}
