package app

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/sim"
)

func TestCountsAt(t *testing.T) {
	// Ten clients; calls answered in the bucket after the one they were
	// sent in are in flight in between; one client gives up in bucket 1.
	r := &sim.Result{BucketWidth: 1, Timeline: []sim.Bucket{
		{Start: 0, Calls: 10, Retries: 0, Started: 10, OK: 2, Rejected: 7, Waiting: 8},
		{Start: 1, Calls: 8, Retries: 8, OK: 3, Rejected: 5, Waiting: 4},
		{Start: 2, Calls: 4, Retries: 4, OK: 4, Rejected: 1, Waiting: 0},
	}}
	for _, c := range []struct {
		t    float64
		want replayCounts
	}{
		{0.5, replayCounts{Calls: 10}},
		{1, replayCounts{Waiting: 8, InFlight: 1, Succeeded: 2, GaveUp: 0, Calls: 8}},
		{2, replayCounts{Waiting: 4, InFlight: 1, Succeeded: 5, GaveUp: 1, Calls: 4}},
		// The run is over: nothing waits or is in flight.
		{3, replayCounts{Waiting: 0, InFlight: 0, Succeeded: 9, GaveUp: 1}},
	} {
		if got := countsAt(r, c.t); got != c.want {
			t.Errorf("t=%v: %+v, want %+v", c.t, got, c.want)
		}
	}
	if replayEnd(r) != 3 || countsAt(nil, 1) != (replayCounts{}) {
		t.Error("end or nil")
	}
}

// At the replay's end the last bucket counts, whatever the float sums of
// its start and width: 218 buckets of 0.1 s end at 21.8 s, and the last,
// starting at 21.700000000000003, ends after it. Its client's giving up
// was lost: "waiting 1" at the end of lesson 10's budget run.
func TestCountsAtTheEndCountTheLastBucket(t *testing.T) {
	r := &sim.Result{BucketWidth: 0.1, Timeline: make([]sim.Bucket, 218)}
	for i := range r.Timeline {
		r.Timeline[i] = sim.Bucket{Start: float64(i) * 0.1, Waiting: 1}
	}
	r.Timeline[0].Calls, r.Timeline[0].Started, r.Timeline[0].Rejected = 1, 1, 1
	r.Timeline[217].Waiting = 0 // it gives up in the last bucket
	if last := r.Timeline[217]; !(last.Start+r.BucketWidth > replayEnd(r)) {
		t.Fatalf("precondition: %v + 0.1 <= %v", last.Start, replayEnd(r))
	}
	if got, want := countsAt(r, replayEnd(r)), (replayCounts{GaveUp: 1}); got != want {
		t.Errorf("at the end: %+v, want %+v", got, want)
	}
}

// At the end of real runs the counts are the run's totals: nobody waits
// and no call is in flight, but where a call limit stopped the run (those
// calls were in flight when it stopped); gave up counts clients whose
// first try the open breaker refused.
func TestCountsAtTheEndOfRuns(t *testing.T) {
	for _, q := range []string{"", "latency=200ms", "budget=ratio:0.2:3", "breaker=consecutive:5:5s&arrival=uniform:30s",
		"server=occ&clients=100", "retry-after-s=10s&honor-retry-after=true", "max-calls=1000"} {
		p := newPlayground()
		p.load(q)
		s, err := sim.New(p.st.Herd.config(p.st.Policy), 1)
		if err != nil {
			t.Fatal(q, err)
		}
		for !s.Advance(1 << 20) {
		}
		r := s.Result()
		tot := r.Totals
		calls, answered := 0, 0
		for _, b := range r.Timeline {
			calls, answered = calls+b.Calls, answered+b.OK+b.Rejected
		}
		got := countsAt(r, replayEnd(r))
		want := replayCounts{Succeeded: tot.Succeeded, GaveUp: tot.GaveUp, Waiting: tot.Unfinished, InFlight: calls - answered}
		if r.Truncated {
			// Clients that never started are unfinished, not waiting.
			want.Waiting = got.Waiting
		}
		if got != want || (!r.Truncated && got.InFlight != 0) {
			t.Errorf("%q: at the end %+v, want %+v (truncated %v)", q, got, want, r.Truncated)
		}
		if r.Truncated && got.InFlight == 0 {
			t.Errorf("%q: a run stopped by its call limit with no call in flight", q)
		}
	}
}

// The replay's marks are one path: a tick per bucket with calls, up to the
// one under the playhead, across its bar (6 units at least), at the height
// of its calls on the chart's own axis.
func TestReplayMarks(t *testing.T) {
	p := newPlayground()
	p.load("clients=200")
	s, _ := sim.New(p.st.Herd.config(p.st.Policy), 1)
	for !s.Advance(1 << 20) {
	}
	r := s.Result()
	h := chart.SeriesOf(p.st.Herd.config(p.st.Policy), r)
	if chart.HerdMarks(h, r, 0) != "" || chart.HerdMarks(h, nil, 1) != "" {
		t.Error("marks before the replay starts")
	}
	seg := regexp.MustCompile(`M(-?[\d.]+) (-?[\d.]+)H(-?[\d.]+)`)
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	for _, at := range []float64{r.BucketWidth / 2, 5, replayEnd(r)} {
		d := chart.HerdMarks(h, r, at)
		got := seg.FindAllStringSubmatch(d, -1)
		var want []sim.Bucket
		for i, b := range r.Timeline[:min(bucketsBy(r, at)+1, len(r.Timeline))] {
			if b.Calls > 0 {
				want = append(want, r.Timeline[i])
			}
		}
		if len(got) != len(want) || len(seg.ReplaceAllString(d, "")) != 0 {
			t.Fatalf("t=%v: %d ticks (%q...), want %d", at, len(got), d[:min(len(d), 80)], len(want))
		}
		end := replayEnd(r)
		// The chart's scale: y of 0 at 282-46, of the axis top at 30.
		top := 0.0
		for i := range got {
			b := want[i]
			x0, y, x1 := num(got[i][1]), num(got[i][2]), num(got[i][3])
			w := r.BucketWidth / end * 570
			if c := 58 + b.Start/end*570 + w/2; math.Abs((x0+x1)/2-c) > 0.05 || x1-x0 < min(w, 6)-0.05 {
				t.Errorf("t=%v: tick %d at x %v..%v, want across the bucket centred on %v", at, i, x0, x1, c)
			}
			if y < 30-0.01 || y > 236+0.01 {
				t.Errorf("t=%v: tick %d at y %v, off the plot", at, i, y)
			}
			top = max(top, 236-y)
		}
		// Taller calls are higher: the ticks follow the calls' order.
		for i := 1; i < len(got); i++ {
			a, b := want[i-1].Calls, want[i].Calls
			ya, yb := num(got[i-1][2]), num(got[i][2])
			if a < b && ya < yb-0.01 && yb > 30.01 {
				t.Errorf("t=%v: %d calls drawn above %d", at, a, b)
			}
		}
		if top == 0 {
			t.Errorf("t=%v: every tick at the baseline", at)
		}
	}
}

// Stepping through a run, bucket by bucket, no count that only grows goes
// back (gave up went 133, 131 at 10 s and 10.2 s of the page's own run:
// the successes on their way back to their clients read as give-ups
// undone). Gave up never says more than the clients that had given up by
// then (the run's trace, of its first 300 clients, is the oracle: these
// runs have 300), and at the end it is the run's total.
func TestReplayCountsOnlyGrow(t *testing.T) {
	for _, q := range []string{"clients=300", "clients=300&latency=200ms", "clients=300&latency=80ms&latency-sd=40ms&jitter=none",
		"clients=300&budget=ratio:0.2:3", "clients=300&breaker=consecutive:5:5s&arrival=uniform:30s", "clients=300&server=occ"} {
		p := newPlayground()
		p.load(q)
		s, err := sim.New(p.st.Herd.config(p.st.Policy), 1)
		if err != nil {
			t.Fatal(q, err)
		}
		for !s.Advance(1 << 20) {
		}
		r := s.Result()
		if r.Trace == nil || r.Trace.Clients != r.Totals.Clients || r.Trace.Truncated {
			t.Fatalf("%q: no whole trace to check against", q)
		}
		var prev replayCounts
		below := 0
		for k := 1; k <= len(r.Timeline); k++ {
			at := float64(k) * r.BucketWidth
			c := countsAt(r, at)
			if c.Succeeded < prev.Succeeded || c.GaveUp < prev.GaveUp {
				t.Errorf("%q at %v: succeeded %d -> %d, gave up %d -> %d", q, at, prev.Succeeded, c.Succeeded, prev.GaveUp, c.GaveUp)
			}
			gaveUp := 0
			for _, e := range r.Trace.Events {
				if e.Kind == sim.TraceGaveUp && e.T < at-1e-9 {
					gaveUp++
				}
			}
			if c.GaveUp > gaveUp {
				t.Errorf("%q at %v: gave up %d, but %d clients had", q, at, c.GaveUp, gaveUp)
			}
			if c.GaveUp < gaveUp {
				below++
			}
			prev = c
		}
		if prev.GaveUp != r.Totals.GaveUp || prev.Succeeded != r.Totals.Succeeded {
			t.Errorf("%q: at the end %+v, want the totals' %d succeeded, %d gave up", q, prev, r.Totals.Succeeded, r.Totals.GaveUp)
		}
		t.Logf("%q: %d buckets, gave up below the trace's count in %d", q, len(r.Timeline), below)
	}
}
