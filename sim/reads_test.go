package sim

import "testing"

// Reads is when a run reads a parameter: the page shows a control and the
// CLI takes a flag only then.
func TestReads(t *testing.T) {
	for _, c := range []struct {
		set   []string
		name  string
		reads bool
	}{
		{nil, ParamOutageStart, true},
		{[]string{"server", "capacity"}, ParamOutageStart, false},
		{nil, ParamQueueLimit, false},
		{[]string{"server", "queue"}, ParamQueueLimit, true},
		{nil, ParamClients, true},
		{[]string{"traffic", "open:10"}, ParamClients, false},
		{nil, ParamDuration, false},
		{[]string{"traffic", "loop:3"}, ParamDuration, true},
		{[]string{"server", "queue"}, ParamBalance, false},
		{[]string{"server", "queue", "servers", "2"}, ParamBalance, true},
		{nil, ParamLayerTimeout, false},
		{[]string{"layers", "2"}, ParamLayerTimeout, true},
		{nil, ParamHedgeCancel, false},
		{[]string{"traffic", "open:10", "server", "queue", "hedge", "50ms"}, ParamHedgeCancel, true},
		{nil, ParamCacheTTL, false},
		{[]string{"cache-keys", "10"}, ParamCacheTTL, true},
		{nil, ParamBudgetScope, false},
		{[]string{"budget", "tokens"}, ParamBudgetScope, true},
		{nil, ParamPropagate, false},
		{[]string{"timeout", "1s"}, ParamPropagate, true},
		{nil, ParamTraffic, true}, // read by every run
	} {
		cfg := configOf(t, c.set...)
		if got := cfg.Reads(c.name); got != c.reads {
			t.Errorf("%v: Reads(%s) = %v, want %v", c.set, c.name, got, c.reads)
		}
		if err := cfg.NotRead(c.name, "x"); (err == nil) != c.reads || err != nil && fieldOf(err) != c.name {
			t.Errorf("%v: NotRead(%s) = %v", c.set, c.name, err)
		}
	}
}
