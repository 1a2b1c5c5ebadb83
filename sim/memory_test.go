package sim

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestEstimateMemory holds EstimateMemory at or above the bytes real runs
// allocate (all they ever hold, and more) and within 8 times that plus
// memMin, with MaxCalls at the page's bound for one herd run. The model is
// linear in the callers: 100,000 show its slope (a million gave the same
// per caller, within 10%).
func TestEstimateMemory(t *testing.T) {
	for _, v := range engineCases {
		for _, n := range []int{1000, 100_000} {
			c := DefaultConfig()
			for _, kv := range v.set {
				val := kv[1]
				switch {
				case strings.HasPrefix(val, "open:"):
					val = fmt.Sprintf(val, n/10) // n requests in 10 s
				case kv[0] == "traffic":
					val = fmt.Sprintf(val, n)
				}
				if err := c.Set(kv[0], val); err != nil {
					t.Fatalf("%s: %s=%s: %v", v.name, kv[0], val, err)
				}
			}
			c.Clients = n
			c.MaxCalls = 3_000_000
			if err := c.Validate(); err != nil {
				t.Fatalf("%s at %d: %v", v.name, n, err)
			}
			est := EstimateMemory(c)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := Run(c, 1); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			got := int64(after.TotalAlloc - before.TotalAlloc)
			if est < got || est > 8*got+memMin {
				t.Errorf("%s at %d: estimate %.1f MB, the run allocated %.1f MB (want the estimate in [allocated, 8*allocated+%d MB])",
					v.name, n, float64(est)/1e6, float64(got)/1e6, memMin>>20)
			}
			t.Logf("%-24s %8d: estimate %6.1f MB, allocated %6.1f MB", v.name, n, float64(est)/1e6, float64(got)/1e6)
		}
	}
}
