package sim

import (
	"fmt"
	"testing"
)

// fleetCrash is the fleet-crash scenario: 70 requests/s into two servers
// of 50/s (five workers of 100 ms) behind a balancer, a 1 s timeout, and
// server 1 crashing from 5 s to 10 s.
var fleetCrash = []string{"traffic", "open:70", "duration", "60s", "servers", "2", "server", "queue", "concurrency", "5",
	"service", "100ms", "service-dist", "fixed", "timeout", "1s", "fault", "crash@5s-10s/1"}

// immediate is 3 immediate retries.
var immediate = []string{"attempts", "4", "growth", "none", "jitter", "none"}

func TestFleetCrash(t *testing.T) {
	run := func(extra ...string) *Result {
		return runOf(t, 1, append(append(append([]string{}, fleetCrash...), immediate...), extra...)...)
	}
	rr := run()
	least := run("balance", "least")
	for _, c := range []struct {
		name      string
		r         *Result
		recovered bool
	}{
		{"round-robin, 3 immediate retries", rr, false},
		{"random", run("balance", "random"), false},
		{"no retries", run("attempts", "1"), true},
		{"the AWS SDK's retry tokens", run("budget", "tokens"), true},
		{"least outstanding", least, true},
		{"power of two choices", run("balance", "p2c"), true},
	} {
		tt := c.r.Totals
		if got := tt.RecoveredAt != nil; got != c.recovered {
			t.Errorf("%s: recovered %v (at %v), want %v", c.name, got, tt.RecoveredAt, c.recovered)
		}
		if c.recovered && *tt.RecoveredAt > 12 {
			t.Errorf("%s: recovered at %g s, want by 12 s", c.name, *tt.RecoveredAt)
		}
		for k, s := range tt.PerServer {
			// Five workers of exactly 100 ms over the 60 s window.
			if s.Served > 3000 || s.ThroughputPerS > 50 {
				t.Errorf("%s: server %d served %d (%g/s), over 50/s", c.name, k+1, s.Served, s.ThroughputPerS)
			}
		}
		if tt.PerServer[1].Outage != 0 || tt.PerServer[0].Outage == 0 {
			t.Errorf("%s: only server 1 crashed: %+v", c.name, tt.PerServer)
		}
	}
	// Failing fast, the crashed server has the fewest calls outstanding:
	// least sends it more of the crash's calls than round-robin does.
	if l, r := least.Totals.PerServer[0].Outage, rr.Totals.PerServer[0].Outage; l <= r {
		t.Errorf("calls refused by the crashed server: least %d, round-robin %d", l, r)
	}
	// The crash lost what server 1 held; its strip shows it.
	lost := 0
	for _, b := range rr.Timeline {
		if b.Start >= 5 && b.Start < 5.5 {
			lost += b.Servers[0].Lost
		}
	}
	if lost == 0 || lost != rr.Totals.PerServer[0].Lost {
		t.Errorf("lost at the crash: %d in the timeline, %d in the totals", lost, rr.Totals.PerServer[0].Lost)
	}
}

// RetryOther sends every retry of a request that failed at one server to
// the other: with one server crashed for good, a second try always
// succeeds.
func TestRetryOther(t *testing.T) {
	base := []string{"traffic", "open:20", "duration", "20s", "servers", "2", "server", "capacity", "capacity", "100",
		"attempts", "2", "growth", "none", "jitter", "none", "fault", "crash@0s-30s/2", "latency", "1ms", "latency-sd", "0"}
	for _, bal := range BalanceNames() {
		other := runOf(t, 1, append(append([]string{}, base...), "balance", bal, "retry-other", "true")...)
		if tt := other.Totals; tt.GaveUp != 0 || tt.Succeeded+tt.Unfinished != tt.Requests {
			t.Errorf("%s, retry-other: %d gave up of %d", bal, tt.GaveUp, tt.Requests)
		}
		// Without it a retry may go back to the crashed server (least
		// and p2c favour it: failing fast, it has nothing outstanding).
		same := runOf(t, 1, append(append([]string{}, base...), "balance", bal)...)
		if same.Totals.GaveUp == 0 {
			t.Errorf("%s without retry-other: none gave up", bal)
		}
	}
}

// Fault targets are parsed, written back and checked against the fleet.
func TestFaultServers(t *testing.T) {
	c := DefaultConfig()
	if err := c.Set("fault", "crash@5s-10s/1;slow:3@0s-60s/2,3"); err != nil {
		t.Fatal(err)
	}
	if got := c.Get("fault"); got != "crash@5s-10s/1;slow:3@0s-1m/2,3" {
		t.Errorf("written back as %q", got)
	}
	if err := c.Validate(); err == nil {
		t.Error("server 3 of one: valid")
	}
	c.Servers = 3
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	// A server named twice, a space or a sign is no list serversText
	// writes: refused, not read as another.
	for _, bad := range []string{"crash@1s-2s/0", "crash@1s-2s/65", "crash@1s-2s/", "crash@1s-2s/a", "crash@1s-2s/1,1",
		"crash@1s-2s/1, 2", "crash@1s-2s/ 1", "crash@1s-2s/+1", "crash@1s-2s/1,,2"} {
		if err := c.Set("fault", bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if err := c.Set("fault", "crash@1s-2s/3,1"); err != nil || c.Get("fault") != "crash@1s-2s/1,3" {
		t.Errorf("3,1: %v, written back as %q", err, c.Get("fault"))
	}
	ch := DefaultConfig()
	ch.Server, ch.Servers = Channel, 2
	if err := ch.Validate(); err == nil {
		t.Error("a fleet of channels: valid")
	}
}

func ExampleConfig_fleet() {
	for _, bal := range []string{"round-robin", "least"} {
		c := DefaultConfig()
		for i := 0; i+1 < len(fleetCrash); i += 2 {
			c.Set(fleetCrash[i], fleetCrash[i+1])
		}
		for i := 0; i+1 < len(immediate); i += 2 {
			c.Set(immediate[i], immediate[i+1])
		}
		c.Set("balance", bal)
		r, _ := Run(c, 1)
		rec := "never"
		if at := r.Totals.RecoveredAt; at != nil {
			rec = fmt.Sprintf("at %gs", *at)
		}
		fmt.Printf("%-11s goodput %5.1f/s  recovered %-6s  server 1: %4d refused while down\n", bal, r.Totals.GoodputPerS, rec, r.Totals.PerServer[0].Outage)
	}
	// Output:
	// round-robin goodput   9.8/s  recovered never   server 1:  455 refused while down
	// least       goodput  66.4/s  recovered at 10s  server 1:  625 refused while down
}

// A fleet's estimate covers what its servers' strips take: 64 servers
// over an hour of one-second buckets hold 64 strips of 3,600 bins, more
// than a run of five callers' fixed part.
func TestFleetMemory(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "loop:5:1s"}, {"duration", "1h"}, {"servers", "64"}, {"server", "capacity"},
		{"capacity", "10"}, {"fault", "crash@10s-20s/3"}, {"bucket", "1s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	peak, _ := memPeak(t, c, 100_000)
	if est := EstimateMemory(c); est < peak || est > 2*peak {
		t.Errorf("64 servers: held %d bytes at the most, estimated %d", peak, est)
	}
	r, err := Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Totals.PerServer) != 64 {
		t.Errorf("%d servers in the totals", len(r.Totals.PerServer))
	}
}
