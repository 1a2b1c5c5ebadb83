package sim

import (
	"errors"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// memPeak runs c in slices of slice events and, after each, collects the
// garbage and reads the live heap: the most the run held (peak, bytes
// over the heap before it started), and the memory model's figure then:
// EstimateMemory, or for a request-level run its fixed part and what
// reqSim.held counts (the guard MaxInFlight bounds).
func memPeak(t *testing.T, c Config, slice int) (peak, model int64) {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapAlloc)
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	fixed, _, _ := memoryModel(c)
	for {
		done := s.Advance(slice)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		m := EstimateMemory(c)
		if s.req != nil {
			m = fixed + int64(s.req.held())
		}
		if live := int64(ms.HeapAlloc) - base; live > peak {
			peak, model = live, m
		}
		if done {
			break
		}
	}
	runtime.KeepAlive(s)
	return peak, model
}

// TestMemoryPeak holds the memory model within twice the most a run
// holds and at or above it: what the structures take by their types'
// sizes against the live heap, sampled as the run goes, over herds small
// and big (the slow path, occ, a fixed bucket), closed, loop and open
// request-level runs (retry storms of 10,000 a second whose queues grow
// without bound, healthy ones, hedges, callers' own budgets, a chain, two
// fleets). For runs that hold from the start what they hold at their
// peak (upfront), EstimateMemory is held to the same; for the others it
// is what reqSim.held counts as they go. A storm was refused at 43 s as
// needing 1024 MB, 1 KB a caller or queued call, where it held 54 MB.
func TestMemoryPeak(t *testing.T) {
	for _, v := range []struct {
		upfront bool
		set     []string
	}{
		{true, []string{"clients", "100000"}},
		{true, []string{"clients", "1000000"}},
		{true, []string{"clients", "100000", "jitter", "decorrelated", "budget", "tokens"}},
		{true, []string{"clients", "3000", "server", "occ"}},
		{true, []string{"clients", "300"}},
		{true, []string{"clients", "200", "bucket", "1ms", "outage-end", "120s", "attempts", "0", "deadline", "130s", "cap", "1s"}},
		{true, []string{"server", "queue", "clients", "50000"}},
		{false, []string{"server", "queue", "clients", "50000", "timeout", "1s"}},
		{false, []string{"traffic", "open:10000", "duration", "20s", "server", "queue", "concurrency", "10", "service", "100ms",
			"timeout", "1s", "attempts", "0", "deadline", "30s"}},
		{false, []string{"traffic", "open:10000", "duration", "10s", "server", "queue", "concurrency", "10", "service", "100ms",
			"timeout", "1s", "attempts", "3"}},
		{false, []string{"traffic", "open:1000", "duration", "20s", "server", "queue", "concurrency", "100", "service", "10ms"}},
		{false, []string{"traffic", "open:1000", "duration", "20s", "server", "queue", "concurrency", "100", "service", "10ms", "bucket", "10ms"}},
		{true, []string{"traffic", "loop:50000", "duration", "10s", "server", "queue"}},
		{true, []string{"clients", "50000", "server", "capacity", "timeout", "1s", "hedge", "50ms"}},
		{true, []string{"clients", "50000", "server", "queue", "budget-scope", "caller", "budget", "tokens:10:1:1"}},
		{true, []string{"clients", "20000", "layers", "3", "layer-attempts", "2", "error-rate", "0.5"}},
		{true, []string{"traffic", "loop:5:1s", "duration", "1h", "servers", "64", "server", "capacity", "capacity", "10",
			"fault", "crash@10s-20s/3", "bucket", "1s"}},
		{false, []string{"traffic", "open:2000", "duration", "30s", "servers", "8", "server", "queue", "concurrency", "20",
			"service", "50ms", "timeout", "500ms", "fault", "stall@10s-20s/2"}},
	} {
		c := configOf(t, v.set...)
		c.MaxCalls = 30_000_000
		slice := int(min(100_000, max(200, EstimateCalls(c)/50)))
		peak, model := memPeak(t, c, slice)
		est := EstimateMemory(c)
		mb := func(b int64) float64 { return float64(b) / 1e6 }
		if model < peak || model > 2*peak {
			t.Errorf("%v: the model says %.2f MB at the peak of %.2f MB held, want within [1, 2] times it", v.set, mb(model), mb(peak))
		}
		if v.upfront && (est < peak || est > 2*peak) {
			t.Errorf("%v: EstimateMemory %.2f MB, the peak %.2f MB held, want within [1, 2] times it", v.set, mb(est), mb(peak))
		}
		t.Logf("%-60s peak %7.2f MB, model %7.2f MB (%.2fx), estimate %7.2f MB", strings.Join(v.set, " "), mb(peak), mb(model),
			float64(model)/float64(peak), mb(est))
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
		{"herd", ParamClients, "", "834173", [][2]string{{"clients", "2000000"}}, setClients},
		{"herd decorrelated", ParamClients, "", "695144", [][2]string{{"clients", "2000000"}, {"jitter", "decorrelated"}}, setClients},
		{"closed queue", ParamClients, "", "193019", [][2]string{{"server", "queue"}, {"traffic", "closed"}, {"clients", "1000000"}}, setClients},
		{"loop", ParamTraffic, "N", "173788", [][2]string{{"server", "queue"}, {"traffic", "loop:1000000"}}, func(c *Config, most string) {
			c.Callers, _ = strconv.Atoi(most)
		}},
		{"open", ParamDuration, "", "8.625s", [][2]string{{"server", "queue"}, {"traffic", "open:20000"}, {"duration", "1m"}}, func(c *Config, most string) {
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
	// 100 calls/s served against 1000 arriving: the queue grows by 900 a
	// second. A waiting request holds its caller's slot (80 bytes, in a
	// slice that grows by a quarter) and its place in the queue (24, in a
	// ring that doubles: 48), about 150 bytes of the 233 a caller's worth
	// is (callerUnit), so 500 callers' worth are held with about 780
	// requests waiting: after about 0.8 s.
	c.MaxInFlight = 500
	full, err := Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !full.Truncated || full.TruncatedBy != StopMemory || full.FullAt <= 0.6 || full.FullAt >= 0.95 ||
		full.StoppedAt == nil || *full.StoppedAt != full.FullAt {
		t.Errorf("bounded at 500: truncated %v by %q at %v, FullAt %g s, want in (0.6, 0.95)",
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

// When what a run holds whatever its load (a fleet's strips of the
// timeline) leaves no room for its callers, FitMemory names the servers
// and how many fit, not a duration of 0s: a fleet of 64 at 7,280 calls
// a second was refused as "duration at most 0s".
func TestFitMemoryFleet(t *testing.T) {
	c := configOf(t, "servers", "64", "server", "queue", "traffic", "open:7280", "duration", "1m", "bucket", "1ms")
	const budget = 12 << 20
	err := FitMemory(c, budget)
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || fe.Field != ParamServers || fe.Code != backoff.CodeMemory || len(fe.Args) != 2 {
		t.Fatalf("64 servers in 12 MB: %v, want servers at most some", err)
	}
	k, _ := strconv.Atoi(fe.Args[0])
	fewer := c
	fewer.Servers = k
	if err := FitMemory(fewer, budget); errors.As(err, &fe) && (fe.Field == ParamServers || fe.Args[0] == "0s") {
		t.Errorf("%d servers: %v, want it to fit or the duration that does", k, err)
	}
	fewer.Servers = k + 1
	if err := FitMemory(fewer, budget); !errors.As(err, &fe) || fe.Field != ParamServers {
		t.Errorf("%d servers: %v, want servers refused", k+1, err)
	}
}
