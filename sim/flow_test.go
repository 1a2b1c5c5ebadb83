package sim

import (
	"fmt"
	"maps"
	"math"
	"testing"
)

// A flow answers, at any moment, exactly what the trace says: the calls
// sent and not yet done; its windows add up to the whole run; a call's
// legs follow each other in its flight.
func TestFlow(t *testing.T) {
	for _, kv := range [][][2]string{
		nil, // the default herd: 1,000 clients into a 10 s outage
		{{"traffic", "open:200"}, {"duration", "20s"}, {"server", "queue"}, {"concurrency", "10"}, {"service", "40ms"},
			{"timeout", "300ms"}, {"fault", "stall@5s-8s"}, {"servers", "3"}, {"balance", "p2c"}},
	} {
		c := DefaultConfig()
		for _, p := range kv {
			if err := c.Set(p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		s, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		var rec FlowRecorder
		s.SetTracer(&rec)
		for !s.Advance(1 << 20) {
		}
		r := s.Result()
		f := rec.Flow(r.Totals.Makespan)
		if len(f.Calls) < 1000 || f.Truncated {
			t.Fatalf("%d calls, truncated %v", len(f.Calls), f.Truncated)
		}
		for k := 0; k <= 200; k++ {
			at := f.EndS * float64(k) / 200
			want := 0
			for _, c := range f.Calls {
				done := c.DoneS
				if math.IsNaN(done) {
					done = math.Inf(1)
				}
				if c.SentS <= at && at < done {
					want++
				}
			}
			got := f.InFlight(at)
			if len(got) != want {
				t.Fatalf("%v at %g s: %d in flight, the trace says %d", kv, at, len(got), want)
			}
			for _, i := range got {
				p := f.Pos(i, at)
				if p.Frac < 0 || p.Frac > 1 || p.Leg == "" {
					t.Fatalf("call %d at %g: %+v", i, at, p)
				}
			}
		}
		// The clients waiting to retry: each request's gaps between a
		// call's end and its next try, as the trace has them.
		for k := 0; k <= 50; k++ {
			at := f.EndS * float64(k) / 50
			want := 0
			byReq := map[int][]Call{}
			for _, c := range f.Calls {
				byReq[c.Request] = append(byReq[c.Request], c)
			}
			for _, cs := range byReq {
				for j := 1; j < len(cs); j++ {
					if cs[j].Try > cs[j-1].Try && cs[j-1].DoneS <= at && at < cs[j].SentS {
						want++
					}
				}
			}
			if got := len(f.WaitingInto(nil, at)); got != want {
				t.Fatalf("%v at %g s: %d waiting, the trace says %d", kv, at, got, want)
			}
		}
		sent, ended := 0, 0
		for t0 := 0.0; t0 < f.EndS+1; t0++ {
			w := f.Window(t0, t0+1)
			sent += w.Sent
			for _, n := range w.Ended {
				ended += n
			}
		}
		finished := 0
		for _, c := range f.Calls {
			if !math.IsNaN(c.DoneS) {
				finished++
			}
		}
		if sent != len(f.Calls) || ended != finished {
			t.Errorf("%v: windows sent %d of %d calls, ended %d of %d", kv, sent, len(f.Calls), ended, finished)
		}
	}
}

// A call's life in three legs: out for its first quarter, at its node,
// back for its last quarter when an answer came; a timed-out call stays
// at its node to the end.
func TestFlowPos(t *testing.T) {
	f := (&FlowRecorder{calls: []Call{
		{Request: 1, Try: 1, Node: "s", SentS: 1, DoneS: 1.4, Outcome: CallOK},
		{Request: 2, Try: 1, Node: "s", SentS: 1, DoneS: 2, Outcome: CallTimeout},
	}}).Flow(2)
	for _, c := range []struct {
		i   int
		at  float64
		leg string
		x   float64
	}{
		{0, 1.05, LegOut, 0.5}, {0, 1.2, LegAt, 0.5}, {0, 1.35, LegBack, 0.5},
		{1, 1.125, LegOut, 0.5}, {1, 1.625, LegAt, 0.5}, {1, 1.99, LegAt, 0.98666},
	} {
		p := f.Pos(c.i, c.at)
		if p.Leg != c.leg || math.Abs(p.Frac-c.x) > 1e-4 {
			t.Errorf("call %d at %g: %+v, want %s %g", c.i, c.at, p, c.leg, c.x)
		}
	}
}

// A recorder that keeps fewer calls (Max) or only the first seconds
// (Before) draws the run exactly where it says it can: the same calls in
// flight and the same clients waiting as the whole trace, before
// ExactUntil and Before; a wait whose next try was left out still ends
// where the trace says. (A herd reports its calls client by client, so a
// Max cuts it at 0: only Before is tried on it.)
func TestFlowRecorderBounds(t *testing.T) {
	herd := [][2]string{{"clients", "400"}, {"jitter", "full"}, {"outage-end", "6s"}}
	open := [][2]string{{"traffic", "open:200"}, {"duration", "12s"}, {"server", "queue"}, {"concurrency", "10"}, {"service", "40ms"},
		{"timeout", "300ms"}, {"fault", "stall@3s-6s"}, {"attempts", "4"}}
	for _, tc := range []struct {
		kv  [][2]string
		rec FlowRecorder
	}{{herd, FlowRecorder{Before: 5}}, {open, FlowRecorder{Max: 900}}, {open, FlowRecorder{Before: 9, Max: 1500}}, {open, FlowRecorder{Before: 4}}} {
		c := DefaultConfig()
		for _, p := range tc.kv {
			if err := c.Set(p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		flow := func(rec *FlowRecorder) *Flow {
			s, err := New(c, 9)
			if err != nil {
				t.Fatal(err)
			}
			s.SetTracer(rec)
			for !s.Advance(1 << 20) {
			}
			return rec.Flow(s.Result().Totals.Makespan)
		}
		whole := flow(&FlowRecorder{})
		rec := tc.rec
		f := flow(&rec)
		until := f.ExactUntil
		if rec.Before > 0 {
			until = math.Min(until, rec.Before)
		}
		what := fmt.Sprintf("%s, max %d, before %g", tc.kv[0][0], rec.Max, rec.Before)
		if rec.Max > 0 && (!f.Truncated || until <= 0.5 || until >= whole.EndS) || until <= 0.5 {
			t.Fatalf("%s: truncated %v, exact until %g of %g s: the check proves little", what, f.Truncated, until, whole.EndS)
		}
		checked, waited := 0, 0
		for k := 0; k < 400; k++ {
			at := until * float64(k) / 400
			a, b := flowCalls(f, at), flowCalls(whole, at)
			if !maps.Equal(a, b) {
				t.Fatalf("%s at %.3f s: %d calls in flight, the whole trace %d", what, at, len(a), len(b))
			}
			wa, wb := flowWaits(f, at), flowWaits(whole, at)
			if !maps.Equal(wa, wb) {
				t.Fatalf("%s at %.3f s: %d clients waiting, the whole trace %d", what, at, len(wa), len(wb))
			}
			checked += len(a)
			waited += len(wa)
		}
		if checked == 0 || waited == 0 {
			t.Errorf("%s: %d calls and %d waits compared", what, checked, waited)
		}
	}
}

type flowKey struct {
	req, try int
	sent     float64
}

// flowCalls are the calls of f in flight at t.
func flowCalls(f *Flow, t float64) map[flowKey]bool {
	m := map[flowKey]bool{}
	for _, i := range f.InFlight(t) {
		c := f.Calls[i]
		m[flowKey{c.Request, c.Try, c.SentS}] = true
	}
	return m
}

// flowWaits are the waits of f under way at t.
func flowWaits(f *Flow, t float64) map[FlowWait]bool {
	m := map[FlowWait]bool{}
	for _, i := range f.WaitingInto(nil, t) {
		m[f.Waits[i]] = true
	}
	return m
}
