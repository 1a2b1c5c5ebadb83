package app

import (
	"slices"
	"testing"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The page bounds a change's calls whatever the link asks: the herd's runs
// share herdShare of pageCalls, the compare runs (one per kind) the rest, a
// request-level call counts sim.RequestCallCost times, and "run further"
// raises both tenfold, never past a run's own max-calls.
func TestPageBoundsTheHerd(t *testing.T) {
	s, notes := parseQuery("clients=2000000&attempts=1000&cap=1s&outage-end=8760h&max-calls=1000000000")
	if len(notes) > 0 {
		t.Fatal(notes)
	}
	herd := int(pageCalls * herdShare)
	var h herdRunner
	c := s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if !h.bounded || c.MaxCalls != herd {
		t.Fatalf("max-calls %d (bounded %v), want the herd's share %d", c.MaxCalls, h.bounded, herd)
	}
	c = s.Herd.config(s.Policy)
	h.bound(&c, 4)
	if c.MaxCalls != herd/4 {
		t.Errorf("four runs: %d each, want %d", c.MaxCalls, herd/4)
	}
	// The compare runs' share, whatever the link's own limit above it.
	for _, own := range []int{3_999_999, 1_000_000_000} {
		c = s.Herd.config(s.Policy)
		c.MaxCalls = own
		if limit, bounded := h.share(&c, 1-herdShare, len(compareKinds)); !bounded || c.MaxCalls != limit || limit != pageCalls/4/len(compareKinds) {
			t.Errorf("compare run with max-calls %d: %d (bounded %v), want %d", own, c.MaxCalls, bounded, pageCalls/4/len(compareKinds))
		}
	}
	// Herd and compare together stay within pageCalls.
	if sum := herd + len(compareKinds)*(pageCalls/4/len(compareKinds)); sum > pageCalls {
		t.Errorf("herd %d + compare %d > %d", herd, sum-herd, pageCalls)
	}
	h.more = 1
	c = s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if c.MaxCalls != 10*herd {
		t.Errorf("after run further: %d, want %d", c.MaxCalls, 10*herd)
	}
	h.more = 5
	c = s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if h.bounded || c.MaxCalls != 1_000_000_000 {
		t.Errorf("far further: %d bounded=%v, want the link's own 1e9", c.MaxCalls, h.bounded)
	}
	// A request-level run's calls cost more.
	s, _ = parseQuery("traffic=open:10000&duration=1000s&server=queue&concurrency=100&service=5ms")
	h = herdRunner{}
	c = s.Herd.config(s.Policy)
	h.bound(&c, 1)
	if want := herd / sim.RequestCallCost; c.MaxCalls != want || !h.bounded {
		t.Errorf("request-level: max-calls %d, want %d", c.MaxCalls, want)
	}
	// The default herd's own limit is above the page's: bounded too.
	s, _ = parseQuery("")
	c = s.Herd.config(s.Policy)
	h = herdRunner{}
	h.bound(&c, 1)
	if c.MaxCalls != herd || !h.bounded {
		t.Errorf("default herd: max-calls %d", c.MaxCalls)
	}
}

// The compare panel shows every kind of the core, the AWS blog's four
// first in the blog's order (its figures: no jitter, full, equal,
// decorrelated), each once.
func TestCompareKindsAreTheCores(t *testing.T) {
	names := backoff.JitterNames()
	if !slices.Equal(compareKinds, names) {
		t.Errorf("compare kinds %v, want the core's %v", compareKinds, names)
	}
	if blog := []string{"none", "full", "equal", "decorrelated"}; len(compareKinds) < 4 || !slices.Equal(compareKinds[:4], blog) {
		t.Errorf("compare kinds %v do not start with the AWS blog's %v", compareKinds, blog)
	}
	seen := map[string]bool{}
	for _, k := range compareKinds {
		if seen[k] {
			t.Errorf("kind %s twice", k)
		}
		seen[k] = true
	}
}
