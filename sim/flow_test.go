package sim

import (
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
