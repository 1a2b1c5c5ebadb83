package sim

import (
	"math"
	"testing"
)

func TestVerdictOf(t *testing.T) {
	verdictOf := func(r *Result, set ...string) (Verdict, bool) {
		c := configOf(t, append([]string{"traffic", "open:1", "duration", "300s"}, set...)...)
		return VerdictOf(c, r)
	}
	// 280/s into 300/s with a retry per timed-out call: every call is
	// retried once, so the load is (1 + 1) x 280 / 300 = 1.87x.
	storm := metastable(t, 280)
	v, ok := verdictOf(storm)
	if !ok || v.Fault != FaultStall || v.End != 30 || v.RecoveredAt != nil || !v.RetriesHold || math.Abs(v.Load-1.87) > 0.06 {
		t.Errorf("280/s: %+v, %v; want the stall ending at 30 s, no recovery, retries holding the load near 1.87x", v, ok)
	}
	// Without retries the load is the callers' own 280/300, and it recovers.
	calm := metastable(t, 280, "attempts", "1")
	if v, ok := verdictOf(calm); !ok || v.RecoveredAt == nil || *v.RecoveredAt <= 30 || v.RetriesHold || math.Abs(v.Load-280.0/300) > 0.03 {
		t.Errorf("280/s, no retries: %+v; want a recovery after 30 s at 0.93x", v)
	}
	// Closed traffic, or no fault: nothing to recover from.
	if r := runOf(t, 1); r != nil {
		if _, ok := VerdictOf(DefaultConfig(), r); ok {
			t.Error("the herd's run has a verdict")
		}
	}
	if r := runOf(t, 1, "traffic", "open:100", "duration", "30s", "server", "queue", "concurrency", "30", "service", "100ms"); r != nil {
		if _, ok := verdictOf(r); ok {
			t.Error("a run without faults has a verdict")
		}
	}
}
