package sim

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Amplification through layers, against a bottom that always fails: the
// Amazon Builders' Library ("Timeouts, retries and backoff with jitter"):
// five layers each trying three times make 3^5 = 243 calls at the bottom
// per request; Google's SRE book (ch. 22): three layers of four, 4^3 = 64;
// retrying at the top only, three.
func TestChainAmplification(t *testing.T) {
	failing := []string{"clients", "200", "server", "capacity", "capacity", "1000000", "error-rate", "1"}
	for _, c := range []struct {
		name string
		set  []string
		want []float64
	}{
		{"5 layers of 3", []string{"layers", "5", "layer-attempts", "3"}, []float64{3, 9, 27, 81, 243}},
		{"3 layers of 4", []string{"layers", "3", "layer-attempts", "4"}, []float64{4, 16, 64}},
		{"retry at the top", []string{"layers", "5", "layer-attempts", "3", "retry-at", "top"}, []float64{3, 3, 3, 3, 3}},
		{"a list, top first", []string{"layers", "3", "layer-attempts", "2,3,4"}, []float64{2, 6, 24}},
		{"the policy's attempts", []string{"layers", "2", "attempts", "5"}, []float64{5, 25}},
	} {
		r := runOf(t, 1, append(slices.Clone(failing), c.set...)...)
		tt := r.Totals
		if !slices.Equal(tt.CallsPerRequestByLayer, c.want) {
			t.Errorf("%s: calls per request by layer %v, want %v", c.name, tt.CallsPerRequestByLayer, c.want)
		}
		bottom := c.want[len(c.want)-1]
		if tt.BottomLoadRatio != bottom || tt.Calls != int(bottom)*200 || tt.Succeeded != 0 || tt.GaveUp != 200 {
			t.Errorf("%s: bottom load %v, %d calls, %d succeeded, %d gave up; want %v, %v, 0, 200",
				c.name, tt.BottomLoadRatio, tt.Calls, tt.Succeeded, tt.GaveUp, bottom, bottom*200)
		}
		if tt.OrphanCalls != 0 || tt.Answer == nil || tt.Answer.Max <= 0 {
			t.Errorf("%s: %d orphan calls, answer %v", c.name, tt.OrphanCalls, tt.Answer)
		}
	}
	// A healthy bottom: one call per layer per request.
	r := runOf(t, 1, "clients", "200", "server", "capacity", "capacity", "1000000", "layers", "5", "layer-attempts", "3")
	if got := r.Totals.CallsPerRequestByLayer; !slices.Equal(got, []float64{1, 1, 1, 1, 1}) || r.Totals.Succeeded != 200 {
		t.Errorf("healthy: %v, %d succeeded", got, r.Totals.Succeeded)
	}
}

// A layer that stops waiting while the layer below still retries: the
// calls the bottom goes on making serve nobody.
func TestChainLayerTimeout(t *testing.T) {
	set := []string{"clients", "100", "server", "capacity", "capacity", "1000000", "error-rate", "1",
		"jitter", "none", "layers", "3", "layer-attempts", "3", "latency", "50ms", "latency-sd", "0"}
	plain := runOf(t, 1, set...)
	// The bottom's three tries take 0.1 + 1 + 0.1 + 2 + 0.1 = 3.3 s to fail;
	// the middle gives up on it after 1.5 s and calls again.
	timed := runOf(t, 1, append(set, "layer-timeout", "1500ms")...)
	pt, tt := plain.Totals, timed.Totals
	if pt.OrphanCalls != 0 || pt.LayerTimeouts != 0 {
		t.Errorf("without a layer timeout: %d orphan calls, %d layer timeouts", pt.OrphanCalls, pt.LayerTimeouts)
	}
	// Each layer still makes its 27 calls below per request, but the
	// middle stops waiting after 1.5 s: most of them serve nobody.
	if tt.LayerTimeouts == 0 || tt.OrphanCalls < tt.Calls/2 || tt.Calls != pt.Calls {
		t.Errorf("with a 1.5 s layer timeout: %d layer timeouts, %d orphan calls, %d calls (%d without)",
			tt.LayerTimeouts, tt.OrphanCalls, tt.Calls, pt.Calls)
	}
	// The top hears sooner: its answer comes after its own tries, not
	// after the whole tree below has failed.
	if tt.Answer.P50 >= pt.Answer.P50/2 {
		t.Errorf("answer p50 %.2f s with the timeout, %.2f s without", tt.Answer.P50, pt.Answer.P50)
	}
	t.Logf("layer timeout 1.5 s: %d calls (%d without), %d orphans, %d layer timeouts; answer p50 %.2f s (%.2f s without)",
		tt.Calls, pt.Calls, tt.OrphanCalls, tt.LayerTimeouts, tt.Answer.P50, pt.Answer.P50)
}

// Each layer above the bottom waits its own time. Clients -> s1 -> s2 ->
// a server that answers each call in exactly 300 ms (100 workers: no
// queue), every layer trying once, the run drained: a layer whose wait is
// under 300 ms times out on every request, and none succeeds; with both
// waits over it every request succeeds.
func TestChainLayerTimeouts(t *testing.T) {
	for _, c := range []struct {
		waits      string
		s1, s2, ok bool // every call to s1 (the clients') times out, every call to s2 (s1's), every request succeeds
	}{
		{"1s,100ms", false, true, false},
		{"100ms,1s", true, false, false},
		{"1s,1s", false, false, true},
		{"100ms", true, true, false}, // one wait for both
	} {
		r := runOf(t, 1, "traffic", "open:10", "duration", "2s", "drain", "true", "server", "queue", "concurrency", "100",
			"service", "300ms", "service-dist", "fixed", "latency", "0", "layers", "3", "layer-attempts", "1",
			"layer-timeout", c.waits)
		tt := r.Totals
		n := tt.Requests
		all := func(b bool) int {
			if b {
				return n
			}
			return 0
		}
		s1, _ := tt.PerNode[0].Figure("timeouts")
		s2, _ := tt.PerNode[1].Figure("timeouts")
		if n < 10 || int(s1) != all(c.s1) || int(s2) != all(c.s2) || tt.Succeeded != all(c.ok) {
			t.Errorf("layer-timeout %s: %d requests, timeouts at s1 %g, at s2 %g, %d succeeded; want %d, %d, %d",
				c.waits, n, s1, s2, tt.Succeeded, all(c.s1), all(c.s2), all(c.ok))
		}
	}
}

func TestChainParams(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"layers", "5"}, {"layer-attempts", "3"}, {"retry-at", "top"}, {"layer-timeout", "2s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		if got := c.Get(kv[0]); got != kv[1] {
			t.Errorf("%s: Get %q after Set %q", kv[0], got, kv[1])
		}
	}
	if err := c.Set("layer-attempts", "2,3,4,5,6"); err != nil || c.Get("layer-attempts") != "2,3,4,5,6" || c.Validate() != nil {
		t.Errorf("a list of five for five layers: %v, %q, %v", err, c.Get("layer-attempts"), c.Validate())
	}
	if err := c.Set("layer-timeout", "2s, 500ms,1m,0s"); err != nil || c.Get("layer-timeout") != "2s,500ms,1m,0s" || c.Validate() != nil ||
		c.LayerTimeout.At(1) != 500*time.Millisecond || c.LayerTimeout.At(3) != 0 {
		t.Errorf("a list of four waits for five layers: %v, %q, %v", err, c.Get("layer-timeout"), c.Validate())
	}
	for _, bad := range []struct{ name, v, field string }{
		{"layers", "9", "layers"}, {"layers", "0", "layers"}, {"layer-attempts", "101", "layer-attempts"},
		{"layer-attempts", "3,0", "layer-attempts"}, {"layer-attempts", "1,2,3,4,5,6,7,8,9", "layer-attempts"},
		{"retry-at", "middle", "retry-at"}, {"layer-timeout", "-1s", "layer-timeout"},
		{"layer-timeout", "1s,x", "layer-timeout"}, {"layer-timeout", "1s,1s,1s,1s,1s,1s,1s,1s", "layer-timeout"},
	} {
		before := c
		err := c.Set(bad.name, bad.v)
		if fieldOf(err) != bad.field || c != before {
			t.Errorf("Set(%s, %s): %v (config changed: %v)", bad.name, bad.v, err, c != before)
		}
	}
	// A list must give one entry per layer.
	c = configOf(t, "layers", "3", "layer-attempts", "2,3")
	if fieldOf(c.Validate()) != "layer-attempts" {
		t.Errorf("two attempts for three layers: %v", c.Validate())
	}
	c = configOf(t, "layers", "3", "layer-timeout", "1s,2s,3s")
	if fe := fieldOf(c.Validate()); fe != "layer-timeout" {
		t.Errorf("three waits for the two layers above the bottom: %v", c.Validate())
	}
	// The refusal says how many: "A1,…,A2" and "D1,…,D1" did not.
	for _, tc := range []struct{ layers, name, v, want string }{
		{"2", "layer-attempts", "1,2,3", "policy, A or A1,A2"},
		{"3", "layer-attempts", "1,2", "policy, A or A1,A2,A3"},
		{"6", "layer-attempts", "1,2", "policy, A or A1,…,A6"},
		{"2", "layer-timeout", "1s,2s,3s", "D"},
		{"3", "layer-timeout", "1s,2s,3s", "D or D1,D2"},
		{"6", "layer-timeout", "1s,2s", "D or D1,…,D5"},
	} {
		c := configOf(t, "layers", tc.layers, tc.name, tc.v)
		err := c.Validate()
		if fe, ok := err.(*backoff.FieldError); !ok || fe.Allowed != tc.want {
			t.Errorf("%s layers, %s %s: %v, want %q", tc.layers, tc.name, tc.v, err, tc.want)
		}
	}
	// Each layer has its own budget: a per-caller scope has no meaning.
	c = configOf(t, "layers", "3", "budget", "tokens", "budget-scope", "caller")
	if fieldOf(c.Validate()) != "budget-scope" {
		t.Errorf("per-caller budgets in a chain: %v", c.Validate())
	}
}

// fieldOf is the field a *backoff.FieldError names ("" for nil or another error).
func fieldOf(err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return fe.Field
	}
	return ""
}

// EstimateCalls counts every layer's tries of a failing chain: the job
// bound sees 3 + 9 + 27 + 81 + 243 = 363 tries a request, times its margin.
func TestChainEstimate(t *testing.T) {
	c := configOf(t, "clients", "200", "server", "capacity", "capacity", "1000000", "error-rate", "1", "layers", "5", "layer-attempts", "3")
	r := runOf(t, 1, "clients", "200", "server", "capacity", "capacity", "1000000", "error-rate", "1", "layers", "5", "layer-attempts", "3")
	est := EstimateCalls(c)
	if real := float64(363 * 200); est < real || est > 20*real {
		t.Errorf("estimate %g for %g tries (%d calls at the bottom)", est, real, r.Totals.Calls)
	}
}

// Deadline propagation (gRPC's): three layers that each try three times
// with a 1 s timeout, over a LIFO queue server of 10 workers x 100 ms at
// 80% load, stalled from 10 s to 15 s. Without it the layers below go on
// calling for callers that have gone (tens of thousands of orphan calls)
// and the run never recovers; with it a call below gets what is left of
// its caller's time, the server refuses or stops work whose deadline has
// passed, and the run recovers as the stall ends.
func TestDeadlinePropagation(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:80"}, {"duration", "60s"}, {"server", "queue"}, {"concurrency", "10"},
		{"service", "100ms"}, {"timeout", "1s"}, {"layers", "3"}, {"layer-timeout", "1s"}, {"attempts", "3"},
		{"fault", "stall@10s-15s"}, {"discipline", "lifo"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	off := run(t, c, 1).Totals
	c.PropagateDeadline = true
	on := run(t, c, 1).Totals
	if off.Recovery != NotRecovered || off.OrphanCalls < 50000 || off.Expired != 0 || off.GoodputPerS > 40 {
		t.Errorf("without: %s, %d orphan calls, %d expired, goodput %.1f/s; want not recovered, >= 50,000, 0, <= 40",
			off.Recovery, off.OrphanCalls, off.Expired, off.GoodputPerS)
	}
	if on.Recovery != Recovered || *on.RecoveredAt > 20 || on.OrphanCalls != 0 || on.Expired == 0 || on.GoodputPerS < 70 ||
		on.Calls*10 > off.Calls {
		t.Errorf("with: %s at %v, %d orphan calls, %d expired, goodput %.1f/s, %d calls (without: %d); want recovered by 20 s, 0, > 0, >= 70, a tenth",
			on.Recovery, on.RecoveredAt, on.OrphanCalls, on.Expired, on.GoodputPerS, on.Calls, off.Calls)
	}
	// Under FIFO the server's work on calls whose deadline passes in
	// service would keep it behind: stopping that work at the deadline
	// lifts goodput from about 13/s to about 49/s.
	c.Discipline = Discipline{}
	fifo := run(t, c, 1).Totals
	if fifo.GoodputPerS < 45 || fifo.Expired == 0 {
		t.Errorf("FIFO with: goodput %.1f/s, %d expired; want >= 45/s, > 0", fifo.GoodputPerS, fifo.Expired)
	}
	// Without anything to pass down, the knob is refused.
	d := DefaultConfig()
	d.PropagateDeadline = true
	if err := d.Validate(); err == nil || !strings.Contains(err.Error(), "propagate-deadline") {
		t.Errorf("propagate-deadline with no deadline: %v", err)
	}
}
