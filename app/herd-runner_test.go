package app

import (
	"testing"

	"github.com/backoff-playground/playground/sim"
)

// The page bounds a run's calls whatever the link asks, and "run further"
// raises the bound tenfold, never past the run's own max-calls.
func TestPageBoundsTheHerd(t *testing.T) {
	s, notes := parseQuery("clients=2000000&attempts=1000&cap=1s&outage-end=8760h&max-calls=1000000000")
	if len(notes) > 0 {
		t.Fatal(notes)
	}
	var h herdRunner
	c := s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if !h.bounded || c.MaxCalls != pageCalls {
		t.Fatalf("max-calls %d (bounded %v), want the page's %d", c.MaxCalls, h.bounded, pageCalls)
	}
	h.more = 1
	c = s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if c.MaxCalls != 10*pageCalls {
		t.Errorf("after run further: %d, want %d", c.MaxCalls, 10*pageCalls)
	}
	h.more = 5
	c = s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if h.bounded || c.MaxCalls != 1_000_000_000 {
		t.Errorf("far further: %d bounded=%v, want the link's own 1e9", c.MaxCalls, h.bounded)
	}
	// A small herd is not bounded: its own default limit is below nothing.
	s, _ = parseQuery("")
	c = s.Herd.config(s.Policy)
	h = herdRunner{}
	h.bound(&c, 1)
	if c.MaxCalls != pageCalls || !h.bounded {
		t.Errorf("default herd: max-calls %d", c.MaxCalls)
	}
}

// A chart never gets more than maxBuckets bars, and re-binning keeps every
// call.
func TestSeriesAtMost2000Buckets(t *testing.T) {
	r := &sim.Result{BucketWidth: 0.001, CapacityPerBucket: 2}
	var sum float64
	for i := range 10_001 {
		b := sim.Bucket{OK: i % 7, Rejected: i % 3}
		sum += float64(b.OK + b.Rejected)
		r.Timeline = append(r.Timeline, b)
	}
	h := seriesOf(r)
	if len(h.OK) > maxBuckets {
		t.Fatalf("%d buckets", len(h.OK))
	}
	var got float64
	for i := range h.OK {
		got += h.OK[i] + h.Rejected[i]
	}
	if got != sum || h.Width != 0.006 || h.Capacity != 12 {
		t.Errorf("rebinned: %v calls (want %v), width %v, capacity %v", got, sum, h.Width, h.Capacity)
	}
}

// One scale for all: the compare grid's series share one bucket width.
func TestCommonScale(t *testing.T) {
	a := herdSeries{Width: 0.2, OK: []float64{1, 2, 3, 4, 5}, Rejected: make([]float64, 5), Capacity: 1}
	b := herdSeries{Width: 0.5, OK: []float64{10, 20}, Rejected: make([]float64, 2), Capacity: 2.5}
	out, _, xMax := commonScale([]herdSeries{a, b, {}})
	if out[0].Width != 1 || out[1].Width != 1 {
		t.Fatalf("widths %v %v, want 1 and 1", out[0].Width, out[1].Width)
	}
	if out[0].OK[0] != 15 || out[1].OK[0] != 30 || out[1].Capacity != 5 || xMax != 1 {
		t.Errorf("rebinned %v %v cap %v xMax %v", out[0].OK, out[1].OK, out[1].Capacity, xMax)
	}
}
