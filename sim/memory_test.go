package sim

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// TestEstimateMemory holds EstimateMemory at or above the bytes real runs
// allocate (all they ever hold, and more) and within 8 times that plus
// the fixed part, with MaxCalls at the page's bound for one herd run. The model is
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
			fixed, _, _ := memoryModel(c)
			if est < got || est > 8*got+fixed {
				t.Errorf("%s at %d: estimate %.1f MB, the run allocated %.1f MB (want the estimate in [allocated, 8*allocated+%d MB])",
					v.name, n, float64(est)/1e6, float64(got)/1e6, fixed>>20)
			}
			t.Logf("%-24s %8d: estimate %6.1f MB, allocated %6.1f MB", v.name, n, float64(est)/1e6, float64(got)/1e6)
		}
	}
}

// FitMemory refuses exactly the configs EstimateMemory puts over the
// budget, and the most it names fits while one more does not.
func TestFitMemory(t *testing.T) {
	const budget = 40 << 20
	for _, c := range []struct {
		name, field, part, most string
		set                     [][2]string
		grow                    func(c *Config, most string)
	}{
		{"herd", ParamClients, "", "812646", [][2]string{{"clients", "2000000"}}, setClients},
		{"herd decorrelated", ParamClients, "", "677205", [][2]string{{"clients", "2000000"}, {"jitter", "decorrelated"}}, setClients},
		{"closed queue", ParamClients, "", "32768", [][2]string{{"server", "queue"}, {"traffic", "closed"}, {"clients", "100000"}}, setClients},
		{"loop", ParamTraffic, "N", "32768", [][2]string{{"server", "queue"}, {"traffic", "loop:100000"}}, func(c *Config, most string) {
			c.Callers, _ = strconv.Atoi(most)
		}},
		{"open", ParamDuration, "", "16.384s", [][2]string{{"server", "queue"}, {"traffic", "open:2000"}, {"duration", "1m"}}, func(c *Config, most string) {
			c.Duration, _ = time.ParseDuration(most)
		}},
	} {
		cfg := DefaultConfig()
		for _, kv := range c.set {
			if err := cfg.Set(kv[0], kv[1]); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		err := FitMemory(cfg, budget)
		var fe *backoff.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Part != c.part || fe.Code != backoff.CodeMemory ||
			!slices.Equal(fe.Args, []string{c.most, "40"}) {
			t.Errorf("%s: %v (%+v), want %s at most %s", c.name, err, fe, c.field, c.most)
			continue
		}
		c.grow(&cfg, c.most)
		if err := FitMemory(cfg, budget); err != nil {
			t.Errorf("%s at the most it names: %v", c.name, err)
		}
		if est := EstimateMemory(cfg); est > budget {
			t.Errorf("%s at the most it names: estimate %d B over %d", c.name, est, budget)
		}
	}
	if err := FitMemory(DefaultConfig(), 10<<20); err != nil {
		t.Errorf("the default herd in 10 MB: %v", err)
	}
}

func setClients(c *Config, most string) { c.Clients, _ = strconv.Atoi(most) }

// MaxInFlight stops a run once it holds that many requests and queued
// calls, and says when and why; a run that never holds that many is the same
// as without the bound, and one whose duration ends by FullAt never
// fills. EstimateMemory counts at most that many.
func TestMaxInFlight(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"server", "queue"}, {"traffic", "open:1000"}, {"duration", "10s"},
		{"concurrency", "10"}, {"service", "100ms"}, {"fault", "stall@2s-8s"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	free, err := Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if free.FullAt != 0 {
		t.Fatalf("no bound: FullAt %g", free.FullAt)
	}
	// Healthy for 2 s (100 calls/s against 1000 arriving: the queue grows
	// by 900 a second). A queued request holds its slot and its place in
	// the queue, so 500 are held with about 250 requests waiting: after
	// about 0.28 s.
	c.MaxInFlight = 500
	full, err := Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !full.Truncated || full.TruncatedBy != StopMemory || full.FullAt <= 0.25 || full.FullAt >= 0.5 ||
		full.StoppedAt == nil || *full.StoppedAt != full.FullAt {
		t.Errorf("bounded at 500: truncated %v by %q at %v, FullAt %g s, want in (0.25, 0.5)",
			full.Truncated, full.TruncatedBy, full.StoppedAt, full.FullAt)
	}
	if full.Totals.Requests > free.Totals.Requests/10 {
		t.Errorf("bounded at 500: %d requests, unbounded %d: arrivals did not stop", full.Totals.Requests, free.Totals.Requests)
	}
	short := c
	short.Duration = time.Duration(full.FullAt * float64(time.Second)).Truncate(time.Millisecond)
	if r, _ := Run(short, 1); r.FullAt != 0 {
		t.Errorf("duration %s (FullAt %g): filled at %g", short.Duration, full.FullAt, r.FullAt)
	}
	big := c
	big.MaxInFlight = 1_000_000
	if r, _ := Run(big, 1); !reflect.DeepEqual(r.Totals, free.Totals) || r.FullAt != 0 {
		t.Errorf("a bound never reached changed the run: %+v, want %+v", r.Totals, free.Totals)
	}
	if a, b := EstimateMemory(c), EstimateMemory(big); a >= b {
		t.Errorf("EstimateMemory with 500 in flight %d, with 1e6 %d", a, b)
	}
	if got := MaxCallersWithin(c, EstimateMemory(c)); got != 500 {
		t.Errorf("MaxCallersWithin its own estimate: %d, want 500", got)
	}
	bad := c
	bad.MaxInFlight = -1
	if err := bad.Validate(); err == nil {
		t.Error("MaxInFlight -1 validated")
	}
}
