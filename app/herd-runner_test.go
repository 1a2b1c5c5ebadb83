package app

import (
	"testing"
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
