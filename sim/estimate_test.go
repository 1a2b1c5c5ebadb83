package sim

import (
	"math"
	"strings"
	"testing"
	"time"
)

// estimateCases spread over every server, arrival, budget and the
// breaker, with and without attempt limits, deadlines and horizons, as
// URL parameters applied to DefaultConfig ("preset" first).
var estimateCases = []variant{
	{"default", nil},
	{"no-jitter herd", [][2]string{{"jitter", "none"}}},
	{"outage unlimited", [][2]string{{"attempts", "0"}, {"clients", "500"}}},
	{"outage unlimited no jitter", [][2]string{{"attempts", "0"}, {"jitter", "none"}}},
	{"capacity uniform", [][2]string{{"server", "capacity"}, {"arrival", "uniform:5s"}}},
	{"capacity unlimited", [][2]string{{"server", "capacity"}, {"attempts", "0"}, {"clients", "2000"}}},
	{"capacity unlimited no jitter", [][2]string{{"server", "capacity"}, {"jitter", "none"}, {"attempts", "0"}, {"clients", "500"}}},
	{"capacity uniform unlimited", [][2]string{{"server", "capacity"}, {"arrival", "uniform:20s"}, {"attempts", "0"}, {"clients", "5000"}}},
	{"capacity clock 60s", [][2]string{{"server", "capacity"}, {"arrival", "clock:1m"}, {"attempts", "0"}, {"clients", "3000"}}},
	{"clock", [][2]string{{"arrival", "clock:2s"}, {"attempts", "0"}}},
	{"collapse", [][2]string{{"server", "collapse"}, {"collapse-factor", "2"}}},
	{"collapse metastable", [][2]string{{"server", "collapse"}, {"collapse-factor", "10"}, {"attempts", "20"}, {"clients", "3000"}}},
	{"collapse unlimited", [][2]string{{"server", "collapse"}, {"collapse-factor", "2"}, {"attempts", "0"}, {"clients", "300"}}},
	{"deadline", [][2]string{{"attempts", "0"}, {"deadline", "20s"}}},
	{"deadline capacity", [][2]string{{"server", "capacity"}, {"capacity", "10"}, {"attempts", "0"}, {"deadline", "2m"}}},
	{"horizon", [][2]string{{"attempts", "0"}, {"growth", "constant"}, {"horizon", "30s"}, {"outage-end", "1h"}}},
	{"retry-after", [][2]string{{"retry-after-s", "3s"}, {"honor-retry-after", "true"}, {"attempts", "0"}}},
	{"tokens", [][2]string{{"budget", "tokens:100:5:1"}, {"attempts", "0"}}},
	{"ratio budget", [][2]string{{"budget", "ratio"}, {"attempts", "0"}}},
	{"breaker", [][2]string{{"breaker", "consecutive:5:2s"}, {"attempts", "0"}}},
	{"breaker ratio", [][2]string{{"breaker", "ratio"}, {"server", "capacity"}, {"attempts", "0"}, {"clients", "3000"}}},
	{"decorrelated", [][2]string{{"jitter", "decorrelated"}, {"server", "capacity"}, {"capacity", "20"}, {"attempts", "0"}}},
	{"polly v2", [][2]string{{"preset", "polly-v2"}, {"server", "capacity"}, {"capacity", "20"}, {"attempts", "0"}}},
	{"sidekiq, outage of an hour", [][2]string{{"preset", "sidekiq"}, {"outage-end", "1h"}, {"clients", "100"}}},
	{"no latency", [][2]string{{"latency", "0"}, {"latency-sd", "0"}, {"growth", "none"}, {"attempts", "5"}}},
	{"occ full", [][2]string{{"preset", "aws-blog-full"}, {"server", "occ"}, {"clients", "100"}, {"latency", "10s"}, {"latency-sd", "2s"}}},
	{"occ decorrelated", [][2]string{{"preset", "aws-blog-decorrelated"}, {"server", "occ"}, {"clients", "190"}, {"latency", "10s"}, {"latency-sd", "2s"}}},
	{"occ no backoff", [][2]string{{"preset", "aws-blog-full"}, {"server", "occ"}, {"clients", "190"}, {"growth", "none"}, {"jitter", "none"}, {"latency", "10s"}, {"latency-sd", "2s"}}},
	{"occ breaker", [][2]string{{"preset", "aws-blog-decorrelated"}, {"server", "occ"}, {"clients", "50"}, {"latency", "10s"}, {"latency-sd", "2s"}, {"breaker", "consecutive:3:100s"}}},
}

// TestEstimateCalls holds the estimate against real runs: at or above
// every seed's tries, and within 20 times them unless MaxCalls bounds it.
func TestEstimateCalls(t *testing.T) {
	for _, v := range estimateCases {
		c := v.config(t)
		est := EstimateCalls(c)
		for seed := uint64(1); seed <= 3; seed++ {
			r, err := Run(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			tries := float64(r.Totals.Calls + r.Totals.Blocked)
			if est < tries {
				t.Errorf("%s, seed %d: estimate %.0f below the real %.0f tries", v.name, seed, est, tries)
			}
			if est > 20*tries && est < float64(c.MaxCalls) {
				t.Errorf("%s, seed %d: estimate %.0f over 20 times the real %.0f tries", v.name, seed, est, tries)
			}
		}
	}
}

// TestEstimateRequests holds the request-level estimate at or above
// every seed's tries (calls, hedges included, and calls refused by the
// breaker or the throttle), and within 40 times them: it counts every
// request's tries as if all failed.
func TestEstimateRequests(t *testing.T) {
	cases := append(append([]variant{}, reqVariants...),
		variant{"loop unlimited deadline", [][2]string{{"traffic", "loop:30"}, {"server", "capacity"}, {"capacity", "50"}, {"attempts", "0"}, {"deadline", "20s"}, {"duration", "20s"}}},
		variant{"open unlimited horizon", [][2]string{{"traffic", "open:200"}, {"duration", "20s"}, {"attempts", "0"}, {"horizon", "40s"}, {"outage-end", "30s"}}},
		variant{"open stall timeout unlimited", [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"timeout", "200ms"}, {"attempts", "0"}, {"deadline", "10s"}, {"growth", "none"}, {"base", "0"}, {"fault", "stall@5s-8s"}, {"duration", "10s"}}},
	)
	for _, v := range cases {
		c := v.config(t)
		est := EstimateCalls(c)
		for seed := uint64(1); seed <= 2; seed++ {
			r, err := Run(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			tt := r.Totals
			tries := float64(tt.Calls + tt.Blocked + tt.Throttled)
			for _, n := range tt.CallsPerRequestByLayer[:max(len(tt.CallsPerRequestByLayer)-1, 0)] {
				tries += n * float64(tt.Requests) // a chain's layers above the bottom try too
			}
			if est < tries {
				t.Errorf("%s, seed %d: estimate %.0f below the real %.0f tries", v.name, seed, est, tries)
			}
			if est > 40*tries {
				t.Errorf("%s, seed %d: estimate %.0f over 40 times the real %.0f tries", v.name, seed, est, tries)
			}
			t.Logf("%s: estimate %.0f, %.0f tries (%.1fx)", v.name, est, tries, est/tries)
		}
	}
}

// Where the model is exact, the estimate is the count times estMargin.
func TestEstimateCallsExact(t *testing.T) {
	for _, c := range []struct {
		name string
		set  [][2]string
		want float64
	}{
		// One try each, whatever the server does.
		{"one attempt", [][2]string{{"attempts", "1"}, {"clients", "1000"}}, 1000 * estMargin},
		// Every try falls in the outage: clients times attempts.
		{"outage outlasts the retries", [][2]string{{"attempts", "50"}, {"clients", "200"}, {"outage-end", "1h"}}, 200 * 50 * estMargin},
		// A year's outage: every client uses its 1000 attempts, unless
		// MaxCalls stops the run first.
		{"a year's outage", [][2]string{{"clients", "200000"}, {"attempts", "1000"}, {"outage-end", "8760h"}, {"max-calls", "1000000000"}}, 200000 * 1000 * estMargin},
		{"bounded by max-calls", [][2]string{{"clients", "2000000"}, {"attempts", "1000"}, {"outage-end", "8760h"}}, DefaultMaxCalls},
		// No attempt limit, immediate retries, a year's outage.
		{"unlimited", [][2]string{{"clients", "1"}, {"attempts", "0"}, {"growth", "none"}, {"latency", "0"}, {"latency-sd", "0"}, {"outage-end", "8760h"}, {"max-calls", "1000"}}, 1000},
		// The token budget: 100/5 = 20 retries and no success to refund.
		{"token budget", [][2]string{{"budget", "tokens:100:5:1"}, {"outage-end", "1h"}}, (1000 + 20) * estMargin},
	} {
		cfg := variant{c.name, c.set}.config(t)
		if got := EstimateCalls(cfg); math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("%s: EstimateCalls = %v, want %v", c.name, got, c.want)
		}
	}
}

// FuzzEstimateCalls: any valid config gets a finite estimate from 0 to
// MaxCalls, fast.
func FuzzEstimateCalls(f *testing.F) {
	f.Add("clients=1000 server=outage attempts=6")
	f.Add("server=occ clients=190 growth=none jitter=none latency=10s latency-sd=2s attempts=0")
	f.Add("arrival=clock:1s breaker=ratio budget=tokens attempts=0 deadline=1m")
	f.Add("arrival=uniform:1m server=collapse collapse-factor=100 horizon=30s max-calls=5")
	f.Add("latency=0 latency-sd=0 growth=none attempts=0 breaker=consecutive:1:0s")
	f.Add("traffic=open:10000000 duration=1s server=queue concurrency=1 service=1ms timeout=1ms attempts=0 deadline=1h")
	f.Add("traffic=loop:2000000 think=0 latency=0 latency-sd=0 duration=8760h server=queue service=1ns")
	f.Add("traffic=loop:5:1ms hedge=p99.9 fault=stall@1s-2s;errors:0.5@3s-4s budget=adaptive:1:1s budget-scope=caller")
	f.Add("traffic=open:1 duration=8760h base=1ms cap=0 attempts=0 deadline=8760h error-rate=1")
	f.Add("layers=8 attempts=0 deadline=8760h base=1ms cap=0 error-rate=1")
	f.Add("timeout=1 attempts=0")                   // nothing ends a failing request: took up to 205 ms
	f.Add("traffic=open:1 attempts=0 deadline=70h") // 16,700 tries a request: took 148 ms
	f.Fuzz(func(t *testing.T, s string) {
		c := DefaultConfig()
		for _, kv := range strings.Fields(s) {
			name, value, _ := strings.Cut(kv, "=")
			c.Set(name, value) // bad values leave c as it was
		}
		if c.Validate() != nil {
			return
		}
		start := cpuTime()
		est := EstimateCalls(c)
		d := cpuTime() - start
		maxCalls := float64(c.MaxCalls)
		if c.MaxCalls == 0 {
			maxCalls = DefaultMaxCalls
		}
		if !(est >= 0 && est <= maxCalls) {
			t.Fatalf("%q: estimate %v, want 0 to %v", s, est, maxCalls)
		}
		// CPU time, and the fastest of three: on a loaded machine one
		// call of the default config's 12 µs once took 208 ms of wall time.
		for i := 0; i < 2 && d > 100*time.Millisecond; i++ {
			start = cpuTime()
			EstimateCalls(c)
			d = min(d, cpuTime()-start)
		}
		if d > 100*time.Millisecond {
			t.Fatalf("%q: estimate took %v of CPU", s, d)
		}
	})
}

// BenchmarkEstimateCalls: the CLI estimates every point of a sweep.
func BenchmarkEstimateCalls(b *testing.B) {
	c := occConfig(b, "decorrelated", 190)
	b.ReportAllocs()
	for b.Loop() {
		EstimateCalls(c)
	}
}
