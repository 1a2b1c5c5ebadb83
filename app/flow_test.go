package app

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// A fault injected in the flow view holds from the time shown to an hour
// past the run's end, at that server of a fleet, added to the link's
// faults and checked with them.
func TestFlowFault(t *testing.T) {
	c := sim.DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:100"}, {"duration", "20s"}, {"server", "queue"}, {"servers", "3"},
		{"fault", "stall@2s-3s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	names := c.ServerNodeNames()
	f, err := flowFault(c, names[1], "crash", 6.2004, 21.5)
	if err != nil || f != "crash@6.2s-1h0m21.5s/2" {
		t.Errorf("crash at the second server: %q, %v", f, err)
	}
	if k := flowFaultKinds(c, names[0]); strings.Join(k, " ") != "crash stall slow:5 errors:0.5" {
		t.Errorf("a server's faults: %v", k)
	}
	one := sim.DefaultConfig()
	if f, err := flowFault(one, one.ServerNodeNames()[0], "slow:5", 0, 10); err != nil || f != "slow:5@0s-1h0m10s" {
		t.Errorf("one server: %q, %v", f, err)
	}
	// The link holds at most sim.MaxFaults: the ninth is refused, named.
	full := c
	for range sim.MaxFaults - 1 {
		g, err := flowFault(full, names[0], "stall", 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := full.Set(sim.ParamFault, full.Get(sim.ParamFault)+";"+g); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := flowFault(full, names[0], "stall", 1, 2); err == nil || !strings.Contains(errText(i18n.En, err, ""), "fault") {
		t.Errorf("a ninth fault: %v", err)
	}
}
