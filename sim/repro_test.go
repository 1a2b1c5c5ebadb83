package sim

import (
	"fmt"
	"math"
	"testing"
)

// Reproductions: published results the request-level engine must give.
// Each test cites its source and asserts the numbers.

// configOf is DefaultConfig with the parameters set, as URL values.
func configOf(t testing.TB, set ...string) Config {
	t.Helper()
	c := DefaultConfig()
	for i := 0; i+1 < len(set); i += 2 {
		if err := c.Set(set[i], set[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func runOf(t testing.TB, seed uint64, set ...string) *Result {
	t.Helper()
	r, err := Run(configOf(t, set...), seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// erlangC is the probability that an arrival waits in an M/M/c queue with
// offered load a = lambda/mu < c (Erlang's C formula).
func erlangC(c int, a float64) float64 {
	sum, term := 0.0, 1.0 // term = a^k / k!
	for k := 0; k < c; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	top := term * float64(c) / (float64(c) - a)
	return top / (sum + top)
}

// M/M/1 and M/M/c mean waits in the queue against the closed forms:
// W = C(c, a) / (c*mu - lambda) (Erlang C; for c = 1, rho/(mu - lambda)).
// See Kleinrock, "Queueing Systems, Volume 1" (1975), section 3.5. Waits
// come in busy periods, so a mean over n calls varies far more than
// 1/sqrt(n) says (a seed's M/M/30 mean is off by 8% typically): each case
// pools eight seeds of 125,000 calls, and is within 4%.
func TestQueueingClosedForms(t *testing.T) {
	for _, q := range []struct {
		workers int
		service float64 // seconds
		rate    float64 // per second
	}{
		{1, 0.010, 50}, // rho 0.5: W = 10 ms
		{1, 0.010, 80}, // rho 0.8: W = 40 ms
		{10, 0.100, 80},
		{30, 0.100, 240},
	} {
		mu := 1 / q.service
		want := erlangC(q.workers, q.rate/mu) / (float64(q.workers)*mu - q.rate)
		var sum float64
		const seeds = 8
		for seed := uint64(1); seed <= seeds; seed++ {
			r := runOf(t, seed, "traffic", fmt.Sprintf("open:%g", q.rate), "server", "queue",
				"concurrency", fmt.Sprint(q.workers), "service", fmt.Sprintf("%gs", q.service),
				"duration", fmt.Sprintf("%gs", 125_000/q.rate), "latency", "0", "latency-sd", "0")
			sum += r.Totals.QueueWait
		}
		got := sum / seeds
		if math.Abs(got-want) > 0.04*want {
			t.Errorf("M/M/%d at rho %.2f: mean wait %.5f s, Erlang C %.5f s", q.workers, q.rate/mu/float64(q.workers), got, want)
		}
		t.Logf("M/M/%d rho %.2f: wait %.5f s, closed form %.5f s", q.workers, q.rate/mu/float64(q.workers), got, want)
	}
}

// Independent errors: with each call failing with probability f and 4
// attempts, and no queueing, a request makes (1 - f^4)/(1 - f) calls on
// average and succeeds with probability 1 - f^4 (Marc Brooker, "Fixing
// retries with token buckets and circuit breakers", 2022).
func TestIndependentErrors(t *testing.T) {
	for _, f := range []float64{0.1, 0.5, 0.9} {
		r := runOf(t, 1, "clients", "100000", "server", "capacity", "capacity", "1e9", "error-rate", fmt.Sprint(f), "attempts", "4")
		tt := r.Totals
		calls := (1 - math.Pow(f, 4)) / (1 - f)
		success := 1 - math.Pow(f, 4)
		if math.Abs(tt.Amplification-calls) > 0.01*calls || math.Abs(tt.SuccessRatio-success) > 0.01*success {
			t.Errorf("f %g: %.4f calls per request, success %.4f; want %.4f and %.4f", f, tt.Amplification, tt.SuccessRatio, calls, success)
		}
		t.Logf("f %g: %.4f calls per request (%.4f), success %.4f (%.4f)", f, tt.Amplification, calls, tt.SuccessRatio, success)
	}
}

// metastable is the metastable-failure setting of Bronson, Aghayev,
// Charapko and Zhu, "Metastable Failures in Distributed Systems" (HotOS
// 2021): a server of 300 requests per second (30 workers, 100 ms each),
// callers with a 1 s timeout and one retry (attempts 2), a 10 s stall at
// 20 s, traffic for 300 s.
func metastable(t testing.TB, rate int, set ...string) *Result {
	return runOf(t, 1, append([]string{"traffic", fmt.Sprintf("open:%d", rate), "server", "queue", "concurrency", "30",
		"service", "100ms", "duration", "300s", "timeout", "1s", "attempts", "2", "fault", "stall@20s-30s",
		"latency", "1ms", "latency-sd", "0"}, set...)...)
}

func recoveredAt(r *Result) string {
	if at := r.Totals.RecoveredAt; at != nil {
		return fmt.Sprintf("%gs", *at)
	}
	return "never"
}

func TestMetastableFailure(t *testing.T) {
	// At 280 requests a second the retries of the calls the stall timed
	// out keep the offered load near twice capacity: the queue never
	// drains and every call times out, long after the stall.
	r := metastable(t, 280)
	if r.Totals.RecoveredAt != nil || r.Totals.Recovery != NotRecovered || r.Totals.Amplification < 1.8 {
		t.Errorf("280/s with a retry: recovered %s (%s), %.2f calls per request; want never, about 2", recoveredAt(r), r.Totals.Recovery, r.Totals.Amplification)
	}
	// Well below capacity/(1 + retries) = 150/s it recovers soon after.
	if r := metastable(t, 100); r.Totals.RecoveredAt == nil || *r.Totals.RecoveredAt > 60 {
		t.Errorf("100/s with a retry: recovered %s; want within 30 s of the stall's end", recoveredAt(r))
	}
	// Without retries the backlog drains at 300 - 280 = 20 calls a second:
	// slowly, but it does.
	if r := metastable(t, 280, "attempts", "1"); r.Totals.RecoveredAt == nil {
		t.Errorf("280/s without retries: recovered %s; want a time", recoveredAt(r))
	}
	// Dropping the calls whose caller has gone turns 180/s from a failure
	// into a recovery within seconds.
	keep, drop := metastable(t, 180), metastable(t, 180, "drop-expired", "true")
	if keep.Totals.RecoveredAt != nil || drop.Totals.RecoveredAt == nil || *drop.Totals.RecoveredAt > 40 {
		t.Errorf("180/s: recovered %s keeping expired calls, %s dropping them; want never, then by 40 s", recoveredAt(keep), recoveredAt(drop))
	}
	if drop.Totals.WastedWork > keep.Totals.WastedWork/10 {
		t.Errorf("180/s: wasted %.0f s dropping, %.0f s keeping", drop.Totals.WastedWork, keep.Totals.WastedWork)
	}
}

// A sweep of the rate shows the threshold: below capacity/(1 + retries)
// the server recovers from the stall, above it not.
func TestMetastableThreshold(t *testing.T) {
	threshold := 0
	for rate := 100; rate <= 280; rate += 20 {
		r := metastable(t, rate)
		t.Logf("%d/s: recovered %s, %.2f calls per request, wasted %.0f s", rate, recoveredAt(r), r.Totals.Amplification, r.Totals.WastedWork)
		switch {
		case r.Totals.RecoveredAt == nil && threshold == 0:
			threshold = rate
		case r.Totals.RecoveredAt != nil && threshold != 0:
			t.Errorf("%d/s recovered, above %d/s which did not", rate, threshold)
		}
	}
	if threshold < 140 || threshold > 200 {
		t.Errorf("threshold %d/s; want near capacity/(1 + retries) = 150/s", threshold)
	}
}

// Open versus closed (Marc Brooker, "Open and Closed, Omission and
// Collapse", 2023, after Schroeder, Wierman and Harchol-Balter, NSDI
// 2006): one server at utilisation 0.8 whose calls take 0.1 ms, or 10 ms
// with probability 0.001. A single caller in a loop never queues behind a
// slow call, so its p99 is the fast service time; Poisson arrivals queue
// behind each slow call, and their p99 is two orders of magnitude more.
// (The post puts it over 25 ms; with the utilisation counted over both
// modes, 0.8 gives about 18 ms here, and 25 ms comes at 0.88.)
func TestOpenVersusClosed(t *testing.T) {
	const mean = 0.999*0.1e-3 + 0.001*10e-3 // seconds
	server := []string{"server", "queue", "concurrency", "1", "service", "100us", "service-dist", "bimodal:0.001:10ms",
		"duration", "100s", "latency", "0", "latency-sd", "0"}
	think := mean * (1/0.8 - 1)
	loop := runOf(t, 1, append([]string{"traffic", fmt.Sprintf("loop:1:%gus", think*1e6)}, server...)...)
	open := runOf(t, 1, append([]string{"traffic", fmt.Sprintf("open:%g", 0.8/mean)}, server...)...)
	for _, r := range []*Result{loop, open} {
		if u := r.Totals.ThroughputPerS * mean; math.Abs(u-0.8) > 0.02 {
			t.Errorf("utilisation %.3f, want 0.8", u)
		}
	}
	lp, op := loop.Totals.Latency.P99, open.Totals.Latency.P99
	if lp >= 1e-3 || op <= 15e-3 || op < 100*lp {
		t.Errorf("p99: one looping caller %.3g s, Poisson arrivals %.3g s; want under 1 ms and over 15 ms", lp, op)
	}
	t.Logf("p99: loop %.3g s, open %.3g s; p99.9 %.3g s and %.3g s", lp, op, loop.Totals.Latency.P999, open.Totals.Latency.P999)
}

// The same open system, with callers that retry every call not answered
// in 15 ms: the first slow calls' retries add load, more calls wait past
// 15 ms, and the queue grows without bound (the post's collapse).
func TestOpenRetriesCollapse(t *testing.T) {
	const mean = 0.999*0.1e-3 + 0.001*10e-3
	r := runOf(t, 1, "traffic", fmt.Sprintf("open:%g", 0.8/mean), "server", "queue", "concurrency", "1", "service", "100us",
		"service-dist", "bimodal:0.001:10ms", "duration", "20s", "horizon", "20s", "bucket", "2s",
		"latency", "0", "latency-sd", "0", "timeout", "15ms", "attempts", "0")
	tl := r.Timeline
	n := len(tl)
	if n < 10 {
		t.Fatalf("%d buckets", n)
	}
	for k := n - 4; k < n; k++ {
		if tl[k].Queue <= tl[k-1].Queue || tl[k].Goodput != 0 {
			t.Errorf("bucket at %gs: queue %d after %d, goodput %d; want growing, none", tl[k].Start, tl[k].Queue, tl[k-1].Queue, tl[k].Goodput)
		}
	}
	if q := tl[n-1].Queue; q < 100_000 {
		t.Errorf("queue %d at the end; want far over 100,000", q)
	}
	t.Logf("queue at 0, 10 and 18 s: %d, %d, %d", tl[0].Queue, tl[n/2].Queue, tl[n-1].Queue)
}
