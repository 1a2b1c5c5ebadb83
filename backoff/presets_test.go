package backoff

import (
	"math"
	"strings"
	"testing"
	"time"
)

// refState is the history a reference formula keeps between retries.
type refState struct {
	sleep, prev, cur float64
}

// presetRef is a preset's schedule written again, independently, straight
// from its system's formula as read from the source the preset cites: delay
// of retry n (1-based) for a uniform draw u, in seconds.
type presetRef struct {
	attempts int           // total tries, first included (0 = no limit)
	deadline time.Duration // max elapsed, 0 = none
	delay    func(n int, u float64, st *refState) float64
}

func pow2(k int) float64 { return math.Ldexp(1, k) }

var presetRefs = map[string]presetRef{
	// U[0,1) * min(x * 2^(n-1), 20s), x = 50ms
	"aws-standard": {3, 0, func(n int, u float64, _ *refState) float64 { return u * math.Min(0.05*pow2(n-1), 20) }},
	// n > 4: exactly 20s; else U[0,1) * 2^n seconds
	"aws-legacy": {3, 0, func(n int, u float64, _ *refState) float64 {
		if n > 4 {
			return 20
		}
		return u * pow2(n)
	}},
	// expo(n) = min(cap, base*2^n), base 5, cap 2000
	"aws-blog-full":  {0, 0, func(n int, u float64, _ *refState) float64 { return u * math.Min(2000, 5*pow2(n)) }},
	"aws-blog-equal": {0, 0, func(n int, u float64, _ *refState) float64 { v := math.Min(2000, 5*pow2(n)); return v/2 + u*v/2 }},
	// sleep = min(cap, U[base, sleep*3)), sleep starts at base
	"aws-blog-decorrelated": {0, 0, func(n int, u float64, st *refState) float64 {
		if n == 1 {
			st.sleep = 5
		}
		st.sleep = math.Min(2000, 5+u*(st.sleep*3-5))
		return st.sleep
	}},
	// min(initialBackoff * backoffMultiplier^(n-1), maxBackoff) * U[0.8,1.2)
	"grpc-retry": {5, 0, func(n int, u float64, _ *refState) float64 { return math.Min(0.1*pow2(n-1), 1) * (0.8 + 0.4*u) }},
	// U[0, min(initialBackoff * mult^(n-1), maxBackoff))
	"grpc-retry-legacy": {5, 0, func(n int, u float64, _ *refState) float64 { return u * math.Min(0.1*pow2(n-1), 1) }},
	// retries = n-1; retry 0: exactly base; else min(base * 1.6^retries, max) * (1 + 0.2*U[-1,1))
	"grpc-connect": {0, 0, func(n int, u float64, _ *refState) float64 {
		if n == 1 {
			return 1
		}
		return math.Min(math.Pow(1.6, float64(n-1)), 120) * (1 + 0.2*(2*u-1))
	}},
	// 1ns + U[0, cur) then cur = min(cur*Multiplier, Max)
	"gax": {0, 0, func(n int, u float64, st *refState) float64 {
		if n == 1 {
			st.cur = 1
		}
		d := 1e-9 + u*st.cur
		st.cur = math.Min(st.cur*2, 30)
		return d
	}},
	// (2^n - 1) * RetryDelay * U[0.8,1.3), then capped at MaxRetryDelay
	"azure": {4, 0, func(n int, u float64, _ *refState) float64 { return math.Min((pow2(n)-1)*0.8*(0.8+0.5*u), 60) }},
	// U[cur*(1-r), cur*(1+r)] then cur = cur >= Max/mult ? Max : cur*mult
	"cenkalti": {0, 15 * time.Minute, func(n int, u float64, st *refState) float64 {
		if n == 1 {
			st.cur = 0.5
		}
		d := st.cur*0.5 + u*st.cur
		if st.cur >= 60/1.5 {
			st.cur = 60
		} else {
			st.cur *= 1.5
		}
		return d
	}},
	// min(2^i * min, max), i from 0
	"retryablehttp": {5, 0, func(n int, _ float64, _ *refState) float64 { return math.Min(pow2(n-1), 30) }},
	// first restart immediate, then min(10s * 2^(k-1), 300s)
	"k8s-crashloop": {0, 0, func(n int, _ float64, _ *refState) float64 {
		if n == 1 {
			return 0
		}
		return math.Min(10*pow2(n-2), 300)
	}},
	// 5ms * 2^failures, failures from 0, capped at 1000s
	"k8s-workqueue": {0, 0, func(n int, _ float64, _ *refState) float64 { return math.Min(0.005*pow2(n-1), 1000) }},
	// U[0, min(base * 2^(n-1), max)), base 25ms, max 250ms
	"envoy": {2, 0, func(n int, u float64, _ *refState) float64 { return u * math.Min(0.025*pow2(n-1), 0.25) }},
	// Istio's NumRetries 2 over Envoy's U[0, min(base * 2^(n-1), max))
	"istio": {3, 0, func(n int, u float64, _ *refState) float64 { return u * math.Min(0.025*pow2(n-1), 0.25) }},
	// initInterval * coefficient^(currentAttempt-1), currentAttempt from 1,
	// then min with MaximumInterval = 100 * InitialInterval
	"temporal": {0, 0, func(n int, _ float64, _ *refState) float64 { return math.Min(pow2(n-1), 100) }},
	// IntervalSeconds * BackoffRate^(n-1), MaxAttempts 3 retries
	"step-functions": {4, 0, func(n int, _ float64, _ *refState) float64 { return pow2(n - 1) }},
	// sleep = interval, capped at maxInterval; interval = (long)(interval * multiplier)
	"spring-retry": {3, 0, func(n int, _ float64, st *refState) float64 {
		if n == 1 {
			st.cur = 100
		}
		sleep := st.cur
		if sleep > 30000 {
			sleep = 30000
		} else {
			st.cur = math.Trunc(st.cur * 2)
		}
		return sleep / 1000
	}},
	// consecutive errors e = n: e <= 1 gives 0; else
	// min(backoff_max, backoff_factor * 2^(e-1) + random() * backoff_jitter)
	"urllib3": {11, 0, func(n int, u float64, _ *refState) float64 {
		if n <= 1 {
			return 0
		}
		return math.Min(120, 0.5*pow2(n-1)+u*0.5)
	}},
	// RestartSec 100ms, no RestartSteps
	"systemd": {5, 0, func(int, float64, *refState) float64 { return 0.1 }},
	// RTO doubles from 1s, max 60s
	"tcp-rfc6298": {0, 100 * time.Second, func(n int, _ float64, _ *refState) float64 { return math.Min(pow2(n-1), 60) }},
	// rto = min(rto*2, 120s) from TCP_RTO_MIN 200ms
	"tcp-linux": {16, 0, func(n int, _ float64, _ *refState) float64 { return math.Min(0.2*pow2(n-1), 120) }},
	// U{0 .. 2^k - 1} slots, k = min(n, 10), slot 51.2us
	"ethernet": {16, 0, func(n int, u float64, _ *refState) float64 {
		k := min(n, 10)
		return 51.2e-6 * math.Floor(u*pow2(k))
	}},
	// count from 0: count^4 + 15 + U{0 .. 10*(count+1) - 1}
	"sidekiq": {26, 0, func(n int, u float64, _ *refState) float64 {
		c := float64(n - 1)
		return c*c*c*c + 15 + math.Floor(u*10*(c+1))
	}},
	// i from 0: countdown = min(600, factor * 2^i); U{0 .. countdown}
	"celery": {4, 0, func(n int, u float64, _ *refState) float64 {
		c := math.Min(600, pow2(n-1))
		return math.Floor(u * (c + 1))
	}},
	"polly": {4, 0, func(int, float64, *refState) float64 { return 2 }},
	// i from 0: t = i + U[0,1); next = 2^t * tanh(sqrt(4t)); delay = (next - prev) / 1.4 * median; prev = next
	"polly-v2": {4, 0, func(n int, u float64, st *refState) float64 {
		if n == 1 {
			st.prev = 0
		}
		t := float64(n-1) + u
		next := math.Pow(2, t) * math.Tanh(math.Sqrt(4*t))
		d := (next - st.prev) / 1.4 * 2
		st.prev = next
		return d
	}},
	// current = Math.Min(max, Math.Max(seed, current * 3 * jitterer.NextDouble())), current starting at seed
	"polly-wiki": {11, 0, func(n int, u float64, st *refState) float64 {
		if n == 1 {
			st.cur = 1
		}
		st.cur = math.Min(10, math.Max(1, st.cur*3*u))
		return st.cur
	}},
	// min(initial * 2^(n-1) + U(0, jitter), max), initial 1, jitter 1, max unbounded
	"tenacity": {0, 0, func(n int, u float64, _ *refState) float64 { return pow2(n-1) + u }},
}

// TestPresetsMatchReferences checks every preset against its system's
// formula: the same draws give the same delays (to rounding), the table's
// bounds contain every sampled delay and are reached by them, and the
// table's means match the sampled means.
func TestPresetsMatchReferences(t *testing.T) {
	for _, pr := range Presets() {
		ref, ok := presetRefs[pr.Name]
		if !ok {
			t.Errorf("preset %s has no reference formula in this test", pr.Name)
			continue
		}
		t.Run(pr.Name, func(t *testing.T) {
			p := pr.Policy
			if p.Attempts != ref.attempts {
				t.Errorf("attempts = %d, want %d", p.Attempts, ref.attempts)
			}
			if p.Deadline != ref.deadline {
				t.Errorf("deadline = %v, want %v", p.Deadline, ref.deadline)
			}
			if pr.Description == "" || pr.Source == "" || pr.Family == "" {
				t.Errorf("preset needs a family, description and source")
			}
			rows := p.Retries()
			if rows < 0 {
				rows = 12
			}
			p.Deadline = 0 // compare the schedule itself
			if p.Attempts == 0 {
				p.Attempts = rows + 1
			}
			// Same draws, same delays.
			r := NewRand(7)
			const runs = 20000
			mean := make([]float64, rows)
			lo := make([]float64, rows)
			hi := make([]float64, rows)
			for i := range lo {
				lo[i], hi[i] = math.Inf(1), math.Inf(-1)
			}
			for run := 0; run < runs; run++ {
				var st State
				var rs refState
				for n := 1; n <= rows; n++ {
					u := r.Float64()
					if run%4 == 0 {
						u = float64(run/4%5) / 4 * 0.999999999 // hit the ends too
					}
					got, next := p.Step(n, st, u)
					st = next
					want := ref.delay(n, u, &rs)
					if !close(got, want, 1e-9) {
						t.Fatalf("retry %d, u=%v: Step = %.12g, formula = %.12g", n, u, got, want)
					}
					if run%4 != 0 { // injected draws would bias the means
						mean[n-1] += want / (runs * 3 / 4)
					}
					lo[n-1] = math.Min(lo[n-1], want)
					hi[n-1] = math.Max(hi[n-1], want)
				}
			}
			tab, err := NewTable(p, NewRand(1))
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Rows) != rows {
				t.Fatalf("table has %d rows, want %d", len(tab.Rows), rows)
			}
			for i, row := range tab.Rows {
				span := row.Max - row.Min
				tol := 1e-9 * math.Max(1, row.Max)
				if lo[i] < row.Min-tol || hi[i] > row.Max+tol {
					t.Errorf("retry %d: samples [%g, %g] outside table bounds [%g, %g]", i+1, lo[i], hi[i], row.Min, row.Max)
				}
				// The sampled extremes reach the bounds (within 1% of the
				// span; decorrelated kinds rarely reach their suprema).
				reach := 0.01
				if p.Jitter.HistoryDependent() {
					reach = 0.6
				}
				if lo[i]-row.Min > reach*span+tol || row.Max-hi[i] > reach*span+tol {
					t.Errorf("retry %d: samples [%g, %g] do not reach table bounds [%g, %g]", i+1, lo[i], hi[i], row.Min, row.Max)
				}
				if !close(row.Mean, mean[i], 0.02) && math.Abs(row.Mean-mean[i]) > 1e-9 {
					t.Errorf("retry %d: table mean %g, sampled mean %g (tolerance 2%%)", i+1, row.Mean, mean[i])
				}
				if row.P50 < row.Min-tol || row.P50 > row.Max+tol || row.P95 < row.P50-tol || row.P95 > row.Max+tol {
					t.Errorf("retry %d: percentiles p50=%g p95=%g outside [%g, %g]", i+1, row.P50, row.P95, row.Min, row.Max)
				}
			}
		})
	}
}

func close(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-12
}

func TestPresetNames(t *testing.T) {
	want := strings.Fields(`aws-standard aws-legacy grpc-retry grpc-retry-legacy grpc-connect gax azure cenkalti
		retryablehttp k8s-crashloop k8s-workqueue envoy systemd tcp-rfc6298 tcp-linux ethernet sidekiq polly
		polly-v2 polly-wiki celery tenacity aws-blog-full aws-blog-equal aws-blog-decorrelated
		istio temporal step-functions spring-retry urllib3`)
	have := map[string]bool{}
	for _, n := range PresetNames() {
		if have[n] {
			t.Errorf("preset %s listed twice", n)
		}
		have[n] = true
	}
	for _, n := range want {
		if !have[n] {
			t.Errorf("missing preset %s", n)
		}
	}
	if len(have) != len(want) {
		t.Errorf("%d presets, want %d", len(have), len(want))
	}
	if _, err := LookupPreset("nope"); err == nil || !strings.Contains(err.Error(), "aws-standard") {
		t.Errorf("LookupPreset(nope) = %v, want an error listing the names", err)
	}
}

// Totals the presets' sources state.
func TestPresetTotals(t *testing.T) {
	for _, c := range []struct {
		preset         string
		min, mean, max float64
		tol            float64
	}{
		// Linux: 15 retransmissions wait 804.6 s; with the last 120 s timer
		// the connection gives up after 924.6 s.
		{"tcp-linux", 804.6, 804.6, 804.6, 1e-9},
		// tcp_retries2 sum check via RFC: 1+2+4+...+32 = 63 within 100 s.
		{"tcp-rfc6298", 63, 63, 63, 1e-9},
		// Sidekiq: 25 retries, "about 20.4 days in all".
		{"sidekiq", 1763395, 1765007.5, 1766620, 1e-9},
		// Celery: 4 attempts: U{0..1} + U{0..2} + U{0..4}.
		{"celery", 0, 3.5, 7, 1e-9},
		// Azure: 0.8*(1+3+7) * [0.8, 1.3).
		{"azure", 7.04, 9.24, 11.44, 1e-9},
		// retryablehttp: 1+2+4+8.
		{"retryablehttp", 15, 15, 15, 1e-9},
		// urllib3: 0 + (1+2+...+64 + 120 + 120), plus U(0, 0.5) on the
		// seven retries the cap of 120 s does not swallow.
		{"urllib3", 367, 368.75, 370.5, 1e-9},
		// Step Functions: 1 + 2 + 4 seconds.
		{"step-functions", 7, 7, 7, 1e-9},
		// Spring Retry: 100 + 200 ms.
		{"spring-retry", 0.3, 0.3, 0.3, 1e-9},
		// Istio: U[0,25ms) + U[0,50ms).
		{"istio", 0, 0.0375, 0.075, 1e-9},
	} {
		pr, _ := LookupPreset(c.preset)
		tab, err := NewTable(pr.Policy, NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		got := tab.Total
		if !close(got.Min, c.min, c.tol) || !close(got.Mean, c.mean, c.tol) || !close(got.Max, c.max, c.tol) {
			t.Errorf("%s totals = %+v, want min %g mean %g max %g", c.preset, got, c.min, c.mean, c.max)
		}
	}
	pr, _ := LookupPreset("sidekiq")
	tab, _ := NewTable(pr.Policy, NewRand(1))
	if days := tab.Total.Mean / 86400; math.Abs(days-20.4) > 0.05 {
		t.Errorf("sidekiq expected total %.2f days, want about 20.4", days)
	}
	pr, _ = LookupPreset("tcp-linux")
	tab, _ = NewTable(pr.Policy, NewRand(1))
	if give := tab.Total.Max + 120; !close(give, 924.6, 1e-9) {
		t.Errorf("tcp-linux gives up after %g s, want 924.6", give)
	}
}

// Throttling errors: the AWS SDK for Go v2's standard retryer backs off
// from a 1 s base instead of 50 ms, U[0,1) * min(1s * 2^(n-1), 20s), with
// everything else as for other errors; systems without such a mode say so.
func TestThrottledPolicy(t *testing.T) {
	for _, pr := range Presets() {
		tp, ok := pr.ThrottledPolicy()
		if pr.Name != "aws-standard" {
			if ok || pr.ThrottleBase != 0 || tp != pr.Policy {
				t.Errorf("%s: throttled policy %v (base %v), want none", pr.Name, ok, pr.ThrottleBase)
			}
			continue
		}
		if !ok || pr.ThrottleBase != time.Second {
			t.Fatalf("%s: throttled %v, base %v; want a 1s base", pr.Name, ok, pr.ThrottleBase)
		}
		want := pr.Policy
		want.Base = time.Second
		if tp != want {
			t.Errorf("throttled policy %+v, want the standard one with base 1s", tp)
		}
		for n := 1; n <= 8; n++ {
			for _, u := range []float64{0, 0.25, 0.5, 0.999} {
				got, _ := tp.Step(n, State{}, u)
				if ref := u * math.Min(pow2(n-1), 20); !close(got, ref, 1e-12) {
					t.Errorf("throttled retry %d, u=%v: %v, want %v", n, u, got, ref)
				}
			}
		}
	}
}

// TestPresetCitations: where a system's behaviour hangs on a version or
// a switch, or its documentation and its code disagree, the preset runs
// the code at a named version and says so.
func TestPresetCitations(t *testing.T) {
	for name, want := range map[string][]string{
		// aws-sdk-go-v2 v1.42.0 put the 50ms base and x-amz-retry-after
		// behind AWS_NEW_RETRIES_2026; v1.48.0 made them the default.
		"aws-standard": {"v1.48.0", "AWS_NEW_RETRIES_2026", "aws-legacy"},
		"aws-legacy":   {"before v1.48.0", "AWS_NEW_RETRIES_2026"},
		// backoff_strategy.cc doubles the interval since v1.14.0; the
		// router's docs still say (2^N - 1) * base.
		"envoy": {"v1.14.0", "(2^n - 1)*25ms", "docs"},
		// grpc-go v1.69 moved to d * U[0.8, 1.2), gRFC A6's 2024 text.
		"grpc-retry":        {"grpc-go v1.85.0", "first text said full jitter"},
		"grpc-retry-legacy": {"v1.68", "first text"},
	} {
		pr, err := LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(pr.Description, w) {
				t.Errorf("%s: description %q does not say %q", name, pr.Description, w)
			}
		}
		if !strings.Contains(pr.Source, "v1.") {
			t.Errorf("%s: source %q names no version", name, pr.Source)
		}
	}
}
