package app

import (
	"errors"
	"testing"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The controls' edits of a document, each lowered as the page lowers
// them: the fleet grows from one server (a balancer comes in front, the
// cache's misses go to it) and shrinks back (the balancer goes, a fault
// at the removed server goes); a knob set on every server runs, on one
// of a fleet's servers is refused by the lowering, naming the node.
func TestTopologyEdits(t *testing.T) {
	lower := func(tp *sim.Topology) sim.Config {
		t.Helper()
		ch, err := lowerDoc(tp, backoff.Default())
		if err != nil {
			t.Fatalf("%s: %v", tp, err)
		}
		return ch.Config
	}
	sc, err := sim.LookupScenario("cache-flush")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	tp := c.Topology()
	tp.AddServer()
	if got := lower(tp); got.Servers != 2 || got.CacheKeys == 0 || got.Names != "cache,lb,server,s1" {
		t.Errorf("a server added behind the cache: servers %d, cache keys %d, names %q\n%s", got.Servers, got.CacheKeys, got.Names, tp)
	}
	if miss := tp.Node("cache").Get("miss").List; len(miss) != 1 || miss[0] != "lb" {
		t.Errorf("the cache's misses go to %v, want [lb]", miss)
	}
	tp.AddServer()
	tp.Faults = append(tp.Faults, sim.Setting{Key: sim.ParamFault, Value: "crash@5s-10s/s2"}, sim.Setting{Key: sim.ParamFault, Value: "stall@1s-2s/server,s2"})
	got := lower(tp)
	if got.Servers != 3 || got.Get("fault") != "flush@30s-30s;crash@5s-10s/3;stall@1s-2s/1,3" {
		t.Errorf("three servers: %d, faults %q", got.Servers, got.Get("fault"))
	}
	tp.RemoveServer()
	if got := lower(tp); got.Servers != 2 || got.Get("fault") != "flush@30s-30s;stall@1s-2s/1" {
		t.Errorf("back to two: %d, faults %q\n%s", got.Servers, got.Get("fault"), tp)
	}
	tp.RemoveServer()
	if got := lower(tp); got.Servers != 1 || tp.BalancerNode() != nil || got.Names != "" {
		t.Errorf("back to one: %d, names %q\n%s", got.Servers, got.Names, tp)
	}
	// The scenario again, the fault at the one server aside.
	want := c
	want.Policy = backoff.Default()
	if err := want.Set("fault", "flush@30s-30s;stall@1s-2s/1"); err != nil {
		t.Fatal(err)
	}
	if got := lower(tp); got != want {
		t.Errorf("back to one:\n%+v\nwant\n%+v", got, want)
	}

	// Knobs.
	fl := sim.DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"servers", "3"}} {
		if err := fl.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	tp = fl.Topology()
	tp.SetKnob("", "workers", "7")
	tp.SetKnob("lb", "rule", "least")
	if got := lower(tp); got.Concurrency != 7 || got.Balance != sim.LeastOutstanding {
		t.Errorf("workers %d, balance %v", got.Concurrency, got.Balance)
	}
	// A flush is the cache's: at a server, the lowering refuses it.
	tp.Faults = append(tp.Faults, sim.Setting{Key: sim.ParamFault, Value: faultText("flush", "1s", "1s", "s2")})
	_, err = lowerDoc(tp, backoff.Default())
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || fe.Field != "faults" {
		t.Errorf("a flush at a server: %v, want the lowering's error about faults", err)
	}
	tp = fl.Topology()
	tp.SetKnob("", "workers", "0")
	if _, err := lowerDoc(tp, backoff.Default()); !errors.As(err, &fe) || fe.Field != "nodes.s1.workers" {
		t.Errorf("workers 0: %v, want an error about nodes.s1.workers", err)
	}
	if got := faultText("errors:0.5", "10s", "20s", "s1"); got != "errors:0.5@10s-20s/s1" {
		t.Errorf("faultText %q", got)
	}
}
