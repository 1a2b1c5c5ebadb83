package sim

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Open traffic keeps a caller's slots only while its request is in
// flight: 200,000 requests at 10,000 a second, each in flight for about
// 0.1 s, hold about a thousand slots; 20,000 requests down a chain of
// three layers whose timeouts leave orphans (calls still going below a
// layer that retried) hold a few thousand, not the 100,000 or so calls
// they make.
func TestOpenTrafficMemory(t *testing.T) {
	for _, tc := range []struct {
		name       string
		kv         []string
		requests   int
		maxSlots   int
		minOrphans int
	}{
		{"queue", []string{"traffic", "open:10000", "duration", "20s", "server", "queue", "concurrency", "100", "service", "5ms", "timeout", "1s"}, 190_000, 3000, 0},
		{"chain-orphans", []string{"traffic", "open:1000", "duration", "20s", "server", "capacity", "capacity", "100000", "error-rate", "0.5",
			"layers", "3", "layer-attempts", "2", "layer-timeout", "100ms"}, 19_000, 8000, 10_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(configOf(t, tc.kv...), 1)
			if err != nil {
				t.Fatal(err)
			}
			for !s.Advance(1 << 20) {
			}
			tt := s.Result().Totals
			if tt.Requests < tc.requests || tt.OrphanCalls < tc.minOrphans {
				t.Fatalf("%d requests, %d orphan calls", tt.Requests, tt.OrphanCalls)
			}
			if s.req.slots > tc.maxSlots {
				t.Errorf("%d caller slots for %d requests, want at most %d", s.req.slots, tt.Requests, tc.maxSlots)
			}
		})
	}
}

// Rate times duration is bounded, with an error naming the duration and
// its range at that rate.
func TestTrafficBounds(t *testing.T) {
	c := configOf(t, "traffic", "open:10000")
	if err := c.Set(ParamDuration, "2000s"); err != nil {
		t.Fatal(err) // Set checks the duration alone
	}
	err := c.Validate()
	fe, ok := err.(*backoff.FieldError)
	if !ok || fe.Field != ParamDuration || fe.Code != backoff.CodeNeeds || fe.Other != ParamTraffic ||
		!reflect.DeepEqual(fe.Args, []string{"open:10000", "1ns", "16m40s"}) || !strings.Contains(fe.Allowed, "1e+07 requests") {
		t.Errorf("open:10000 for 2000 s: %#v", err)
	}
	c.Set(ParamDuration, "1000s")
	if err := c.Validate(); err != nil {
		t.Errorf("open:10000 for 1000 s: %v", err)
	}
	c.Set(ParamTraffic, "loop:5")
	c.Set(ParamDuration, "0s")
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "duration") {
		t.Errorf("loop for 0 s: %v", err)
	}
}

// The new parameters' text forms go through Set and Get and back, and bad
// values name the field, the value and the rule, changing nothing.
func TestRequestParams(t *testing.T) {
	good := [][2]string{
		{"traffic", "open:250.5"}, {"traffic", "loop:7"}, {"traffic", "loop:7:1.5s"}, {"traffic", "closed"},
		{"duration", "90s"}, {"concurrency", "64"}, {"service", "2.5ms"},
		{"service-dist", "fixed"}, {"service-dist", "exp"}, {"service-dist", "lognormal:0.75"}, {"service-dist", "bimodal:0.001:10ms"},
		{"queue-limit", "0"}, {"queue-limit", "100"}, {"timeout", "1s"}, {"drop-expired", "true"}, {"error-rate", "0.25"},
		{"fault", "none"}, {"fault", "stall@20s-30s"}, {"fault", "errors:0.5@10s-20s;slow:3@5s-15s;capacity:0.5@1m-2m;outage@0s-1s"},
		{"budget", "adaptive"}, {"budget", "adaptive:1.5:30s"}, {"budget-scope", "caller"},
		{"hedge", "none"}, {"hedge", "50ms"}, {"hedge", "p95"}, {"hedge", "p99.9"}, {"hedge-cancel", "true"},
	}
	for _, kv := range good {
		c := DefaultConfig()
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Errorf("Set(%q, %q): %v", kv[0], kv[1], err)
			continue
		}
		got := c.Get(kv[0])
		d := DefaultConfig()
		if err := d.Set(kv[0], got); err != nil || d != c {
			t.Errorf("Set(%q, Get() = %q): %v, or a different config", kv[0], got, err)
		}
	}
	c := DefaultConfig()
	c.Set("budget", "adaptive")
	if c.Get("budget") != "adaptive:2:2m" {
		t.Errorf("adaptive's defaults: %q", c.Get("budget"))
	}
	c.Set("fault", " stall@20s-30s ; errors:0.5@10s-20s")
	if c.Get("fault") != "stall@20s-30s;errors:0.5@10s-20s" || len(c.Faults.List()) != 2 {
		t.Errorf("two faults: %q, %v", c.Get("fault"), c.Faults.List())
	}
	for _, kv := range [][3]string{
		{"traffic", "open", "closed, open:RATE or loop:N[:THINK]"}, {"traffic", "open:-1", "RATE requests per second"},
		{"traffic", "loop:0", "N callers from 1"}, {"traffic", "loop:5:-1s", "think time"}, {"traffic", "closed:5", "closed, open:RATE"},
		{"concurrency", "0", "from 1 to 1000000"}, {"service-dist", "lognormal:0", "SIGMA above 0"},
		{"service-dist", "bimodal:2:1s", "P from 0 to 1"}, {"service-dist", "bimodal:0.5:0s", "D2 a positive duration"},
		{"service-dist", "bimodal:0.5", "exp, fixed"}, {"error-rate", "1.5", "from 0 to 1"},
		{"fault", "stall@30s-20s", "START < END"}, {"fault", "errors:0@1s-2s", "F in (0, 1]"}, {"fault", "slow:0.5@1s-2s", "X from 1 to 1000"},
		{"fault", "quake@1s-2s", "outage@START-END"}, {"fault", "stall:2@1s-2s", "outage@START-END"}, {"fault", "stall", "outage@START-END"},
		{"fault", strings.Repeat("stall@1s-2s;", 8) + "stall@1s-2s", "at most 8 faults"},
		{"budget", "adaptive:0", "K above 0"}, {"budget", "adaptive:2:0s", "WINDOW a positive duration"},
		{"budget-scope", "everyone", "shared, caller"}, {"hedge", "p0", "pNN"}, {"hedge", "soon", "duration"},
	} {
		c := DefaultConfig()
		before := c
		err := c.Set(kv[0], kv[1])
		fe, ok := err.(*backoff.FieldError)
		if !ok || fe.Field != kv[0] || !strings.Contains(fe.Allowed, kv[2]) {
			t.Errorf("Set(%q, %q) = %v, want a FieldError with %q", kv[0], kv[1], err, kv[2])
		}
		if c != before {
			t.Errorf("Set(%q, %q) failed but changed the config", kv[0], kv[1])
		}
	}
	// occ has no request-level model: the field that asks for one is named.
	c = configOf(t, "server", "occ", "clients", "10", "timeout", "1s")
	if fe, ok := c.Validate().(*backoff.FieldError); !ok || fe.Field != ParamTimeout || fe.Other != ParamServer {
		t.Errorf("occ with a timeout: %v", c.Validate())
	}
}

// serviceTime takes its draws as arguments: each kind's value is pinned.
func TestServiceTime(t *testing.T) {
	for _, c := range []struct {
		d       ServiceDist
		u, z    float64
		want    float64
		comment string
	}{
		{ServiceDist{Kind: FixedService}, 0.3, 1, 0.1, "fixed"},
		{ServiceDist{Kind: ExpService}, 0, 0, 0, "exp, u = 0"},
		{ServiceDist{Kind: ExpService}, 1 - 1/math.E, 0, 0.1, "exp at 1-1/e: the mean"},
		{ServiceDist{Kind: LognormalService, Sigma: 1}, 0, 0.5, 0.1, "lognormal at z = sigma/2: the mean"},
		{ServiceDist{Kind: LognormalService, Sigma: 2}, 0, 0, 0.1 * math.Exp(-2), "lognormal median"},
		{ServiceDist{Kind: BimodalService, P: 0.01, Slow: 2 * time.Second}, 0.005, 0, 2, "bimodal, slow"},
		{ServiceDist{Kind: BimodalService, P: 0.01, Slow: 2 * time.Second}, 0.5, 0, 0.1, "bimodal, fast"},
	} {
		if got := serviceTime(&c.d, 0.1, c.u, c.z); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.comment, got, c.want)
		}
	}
	d := ServiceDist{Kind: BimodalService, P: 0.001, Slow: 10 * time.Millisecond}
	if m := d.mean(1e-4); math.Abs(m-0.1099e-3) > 1e-15 {
		t.Errorf("bimodal mean %v", m)
	}
	for _, x := range []float64{1e-300, 1e-9, 0.5, 1, 2, 1e9} {
		if math.Abs(logx(x)-math.Log(x)) > 1e-15*math.Max(1, math.Abs(math.Log(x))) {
			t.Errorf("logx(%v) = %v, math.Log %v", x, logx(x), math.Log(x))
		}
	}
	for _, x := range []float64{-700, -1, -1e-10, 0, 1e-10, 0.5, 3, 700} {
		if math.Abs(expx(x)-math.Exp(x)) > 1e-15*math.Exp(x) {
			t.Errorf("expx(%v) = %v, math.Exp %v", x, expx(x), math.Exp(x))
		}
	}
}

// frexp is math.Frexp bit for bit over positive finite numbers: the
// normal range's edges, subnormals, and a million random bit patterns.
func TestFrexpMatches(t *testing.T) {
	xs := []float64{math.SmallestNonzeroFloat64, 2 * math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1022 - 0x1p-1074,
		0.5, math.Nextafter(1, 0), 1, 1.5, math.Sqrt2 / 2, math.MaxFloat64}
	src := splitmix{42}
	for range 1_000_000 {
		b := src.Uint64() &^ (1 << 63) // positive
		if x := math.Float64frombits(b); x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	for _, x := range xs {
		f, e := frexp(x)
		wf, we := math.Frexp(x)
		if math.Float64bits(f) != math.Float64bits(wf) || e != we {
			t.Fatalf("frexp(%g) = %v, %d; math.Frexp %v, %d", x, f, e, wf, we)
		}
	}
}

// bucketsIn is the timeline's buckets starting in [from, to).
func bucketsIn(r *Result, from, to float64) []Bucket {
	var out []Bucket
	for _, b := range r.Timeline {
		if b.Start >= from-1e-9 && b.Start < to-1e-9 {
			out = append(out, b)
		}
	}
	return out
}

// Each fault kind changes the queue server as it says, only while it
// lasts: 20 workers of 100 ms (200 calls a second) under 100 a second.
func TestFaultEffects(t *testing.T) {
	r := runOf(t, 1, "traffic", "open:100", "duration", "100s", "server", "queue", "concurrency", "20", "service", "100ms",
		"service-dist", "fixed", "latency", "0", "latency-sd", "0", "bucket", "1s", "attempts", "1",
		"fault", "errors:0.5@10s-20s;slow:3@30s-40s;capacity:0.25@50s-60s;stall@70s-75s;outage@85s-90s")
	sum := func(bs []Bucket, f func(Bucket) int) (n int) {
		for _, b := range bs {
			n += f(b)
		}
		return n
	}
	errs := func(b Bucket) int { return b.Errors }
	served := func(b Bucket) int { return b.Served }
	outage := func(b Bucket) int { return b.Outage }
	if e, s := sum(bucketsIn(r, 10, 20), errs), sum(bucketsIn(r, 10, 20), served); math.Abs(float64(e)/float64(s)-0.5) > 0.08 {
		t.Errorf("errors:0.5: %d errors of %d served", e, s)
	}
	if e := sum(bucketsIn(r, 0, 10), errs) + sum(bucketsIn(r, 21, 100), errs); e != 0 {
		t.Errorf("%d errors outside the errors fault", e)
	}
	for _, b := range bucketsIn(r, 31, 40) {
		// Fixed 100 ms times 3, at about 100 a second: 30 workers' work
		// for 20, so all are busy and calls take 300 ms and more.
		if b.Busy != 20 || b.LatencyP50 < 0.28 {
			t.Errorf("slow:3 at %gs: busy %d, p50 %v", b.Start, b.Busy, b.LatencyP50)
		}
	}
	for _, b := range bucketsIn(r, 51, 60) {
		if b.Busy > 5 || b.Served > 50+1 {
			t.Errorf("capacity:0.25 at %gs: busy %d, served %d; want 5 workers, 50 a second", b.Start, b.Busy, b.Served)
		}
	}
	for _, b := range bucketsIn(r, 70.5, 75) {
		if b.Busy != 0 || b.Served != 0 || b.Queue < 50 {
			t.Errorf("stall at %gs: busy %d, served %d, queue %d", b.Start, b.Busy, b.Served, b.Queue)
		}
	}
	if o, in := sum(r.Timeline, outage), sum(bucketsIn(r, 85, 90), outage); o != in || o < 400 {
		t.Errorf("outage: %d calls failed in it, %d in all", in, o)
	}
	if last := bucketsIn(r, 95, 100); last[0].Busy > 15 || last[0].Queue != 0 {
		t.Errorf("after the faults: %+v", last[0])
	}
	// A rate-limited server: capacity:0.5 halves what it serves, slow:2
	// too, a stall holds the calls until it ends.
	r = runOf(t, 1, "traffic", "open:300", "duration", "40s", "server", "capacity", "capacity", "200", "latency", "0",
		"latency-sd", "0", "bucket", "1s", "attempts", "1", "fault", "capacity:0.5@10s-20s;slow:2@25s-30s;stall@35s-37s")
	for _, w := range []struct {
		from, to float64
		want     int
	}{{2, 10, 200}, {11, 20, 100}, {21, 25, 200}, {26, 30, 100}, {35, 37, 0}} {
		for _, b := range bucketsIn(r, w.from, w.to) {
			if math.Abs(float64(b.Served-w.want)) > 0.05*float64(w.want)+1 {
				t.Errorf("rate-limited at %gs: served %d, want %d", b.Start, b.Served, w.want)
			}
		}
	}
	if b := bucketsIn(r, 37, 38)[0]; b.Served < 200 {
		t.Errorf("the stall's held calls at 37 s: served %d", b.Served)
	}
}

// rejectP is the SRE book's formula; the throttle counts over its window.
func TestAdaptiveThrottle(t *testing.T) {
	for _, c := range []struct {
		req, acc int
		k, want  float64
	}{{0, 0, 2, 0}, {100, 50, 2, 0}, {100, 40, 2, 20.0 / 101}, {100, 0, 2, 100.0 / 101}, {10, 5, 1, 5.0 / 11}} {
		if got := rejectP(c.req, c.acc, c.k); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("rejectP(%d, %d, %g) = %v, want %v", c.req, c.acc, c.k, got, c.want)
		}
	}
	a := newAdaptive(Budget{Kind: AdaptiveBudget, K: 2, Window: 16 * time.Second})
	for i := 0; i < 10; i++ {
		a.throttle(0.5, 0.99)
	}
	a.accept(0.5)
	if a.reqs != 10 || a.accs != 1 {
		t.Fatalf("counts %d %d", a.reqs, a.accs)
	}
	a.move(15.9)
	if a.reqs != 10 {
		t.Errorf("within the window: %d requests", a.reqs)
	}
	a.move(16.5)
	if a.reqs != 0 || a.accs != 0 {
		t.Errorf("after the window: %d requests, %d accepts", a.reqs, a.accs)
	}
	// Against a server that serves a third of what is asked, callers with
	// three attempts send about three calls per request; the throttle cuts
	// what reaches the server to about K = 2 per success.
	base := []string{"traffic", "open:300", "duration", "60s", "server", "capacity", "capacity", "100", "attempts", "3", "latency-sd", "0"}
	plain := runOf(t, 1, base...)
	throttled := runOf(t, 1, append(base, "budget", "adaptive")...)
	pt, tt := plain.Totals, throttled.Totals
	if tt.Throttled == 0 || tt.Calls > pt.Calls*3/4 {
		t.Errorf("adaptive: %d calls reached the server (%d throttled), without %d", tt.Calls, tt.Throttled, pt.Calls)
	}
	if ratio := float64(tt.Calls) / float64(tt.Succeeded); ratio > 2.6 {
		t.Errorf("adaptive: %.2f calls per success, want about 2", ratio)
	}
	// Each caller its own throttle: a loop caller's history is its own.
	own := runOf(t, 1, "traffic", "loop:50", "duration", "60s", "server", "capacity", "capacity", "20", "attempts", "3",
		"budget", "adaptive", "budget-scope", "caller", "latency-sd", "0")
	shared := runOf(t, 1, "traffic", "loop:50", "duration", "60s", "server", "capacity", "capacity", "20", "attempts", "3",
		"budget", "adaptive", "latency-sd", "0")
	if own.Totals.Throttled == 0 || shared.Totals.Throttled == 0 || reflect.DeepEqual(own.Totals, shared.Totals) {
		t.Errorf("scopes: %d throttled per caller, %d shared", own.Totals.Throttled, shared.Totals.Throttled)
	}
}

// Hedged requests (Dean and Barroso, "The Tail at Scale", CACM 2013):
// sending a second copy of a call not answered by the 95th percentile of
// latencies adds about 5% load and cuts the 99.9th percentile, when the
// slow calls are slow for reasons of their own.
func TestHedging(t *testing.T) {
	base := []string{"traffic", "open:200", "duration", "100s", "server", "queue", "concurrency", "100", "service", "10ms",
		"service-dist", "lognormal:1.5", "latency", "1ms", "latency-sd", "0"}
	plain := runOf(t, 1, base...)
	hedged := runOf(t, 1, append(base, "hedge", "p95", "hedge-cancel", "true")...)
	pt, ht := plain.Totals, hedged.Totals
	if ht.HedgeLoad < 0.03 || ht.HedgeLoad > 0.08 {
		t.Errorf("hedging at p95: %.3f extra load, want about 0.05", ht.HedgeLoad)
	}
	if ht.Latency.P999 > 0.5*pt.Latency.P999 || ht.Latency.P99 > pt.Latency.P99 {
		t.Errorf("p99.9 %.4f s hedged, %.4f s not; p99 %.4f s and %.4f s", ht.Latency.P999, pt.Latency.P999, ht.Latency.P99, pt.Latency.P99)
	}
	t.Logf("hedges %d (%.1f%% load); p99 %.4f -> %.4f s, p99.9 %.4f -> %.4f s; wasted %.2f s", ht.Hedges, 100*ht.HedgeLoad,
		pt.Latency.P99, ht.Latency.P99, pt.Latency.P999, ht.Latency.P999, ht.WastedWork)
	// A fixed delay hedges what is slower than it.
	fixed := runOf(t, 1, append(base, "hedge", "50ms")...)
	if fixed.Totals.Hedges == 0 || fixed.Totals.Latency.P999 > pt.Latency.P999 {
		t.Errorf("hedge 50ms: %d hedges, p99.9 %.4f s", fixed.Totals.Hedges, fixed.Totals.Latency.P999)
	}
}
