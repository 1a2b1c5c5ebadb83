package sim

import (
	"strings"
	"testing"
)

// A fleet whose servers differ: each server runs with its own knobs, and
// only those.
func TestPerServer(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"duration", "30s"}, {"server", "queue"}, {"servers", "3"},
		{"concurrency", "5"}, {"service", "100ms"}, {"service-dist", "fixed"}, {"timeout", "1s"}, {"attempts", "1"},
		{"per-server", "3:error-rate=1; 2:service=300ms,concurrency=1"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Get("per-server"); got != "2:concurrency=1,service=300ms;3:error-rate=1" {
		t.Errorf("canonical text %q", got)
	}
	r := run(t, c, 1)
	s := r.Totals.PerServer
	// Server 3 fails every call it serves, and only it; server 2, one
	// worker of 300 ms, serves at most one call per 300 ms of the 30 s.
	if s[2].Errors != s[2].Served || s[2].Served == 0 || s[0].Errors != 0 || s[1].Errors != 0 {
		t.Errorf("errors by server: %+v", s)
	}
	if s[1].Served > 101 || s[1].Utilization < 0.9 || s[0].Served <= s[1].Served {
		t.Errorf("server 2 (1 worker x 300 ms): %+v; server 1: %+v", s[1], s[0])
	}
	// The topology says so, and runs the same.
	doc := c.Topology().String()
	if !strings.Contains(doc, "s2: {kind: server, model: queue, workers: 1, service: 300ms") || !strings.Contains(doc, "error-rate: 1") {
		t.Errorf("topology:\n%s", doc)
	}
	for _, bad := range []struct{ v, want string }{
		{"4:concurrency=2", "servers numbered from 1 to 3"},
		{"2:timeout=1s", "a server's own knob"},
		{"2:capacity=50", "a knob the queue model reads"},
		{"2:concurrency=0", "per-server"},
		{"2:concurrency=2;2:service=1s", "each server once"},
		{"2", "K:KEY=VALUE"},
	} {
		d := c
		err := d.Set("per-server", bad.v)
		if err == nil {
			err = d.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("per-server=%s: %v, want %q", bad.v, err, bad.want)
		}
	}
	one := DefaultConfig()
	_ = one.Set("per-server", "1:capacity=50")
	if err := one.Validate(); err == nil || !strings.Contains(err.Error(), "servers") {
		t.Errorf("per-server on one server: %v", err)
	}
}

func FuzzParsePerServer(f *testing.F) {
	for _, s := range []string{"2:concurrency=3,service=200ms", "1:capacity=20;2:capacity=200", "3:error-rate=1", "", ";", "2:", ":x=1", "99:a=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		text, err := parsePerServer(v)
		if err != nil {
			return
		}
		again, err := parsePerServer(text)
		if err != nil || again != text {
			t.Errorf("%q reads as %q, which reads as %q, %v", v, text, again, err)
		}
	})
}

// QueueWorkers sums the workers of the servers that queue, each with its
// own knobs: the chart drew a fleet's limit at one server's.
func TestQueueWorkers(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		want int
	}{
		{[]string{"server", "queue", "concurrency", "5"}, 5},
		{[]string{"server", "queue", "concurrency", "5", "servers", "2"}, 10},
		{[]string{"server", "queue", "concurrency", "5", "servers", "3", "per-server", "2:concurrency=4"}, 14},
		{[]string{"server", "capacity", "servers", "2"}, 0},
		{[]string{"server", "outage"}, 0},
	} {
		c := configOf(t, tc.set...)
		if got := c.QueueWorkers(); got != tc.want {
			t.Errorf("%v: %d workers, want %d", tc.set, got, tc.want)
		}
	}
}
