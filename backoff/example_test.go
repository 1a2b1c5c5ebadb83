package backoff_test

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// The article's worst case: base 1 s, cap 30 s and 6 attempts (its
// MAX_ATTEMPTS = 5 counts retries) wait 1+2+4+8+16 = 31 s.
func ExampleNewTable() {
	p := backoff.Policy{Growth: backoff.Exponential, Base: time.Second, Factor: 2,
		Cap: 30 * time.Second, Jitter: backoff.Full, Attempts: 6}
	t, _ := backoff.NewTable(p, backoff.NewRand(1))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "retry\tnominal\tmin\tmax\tmean\tp95\tcum max\t")
	for _, r := range t.Rows {
		fmt.Fprintf(w, "%d\t%gs\t%gs\t%gs\t%gs\t%gs\t%gs\t\n", r.Retry, r.Nominal, r.Min, r.Max, r.Mean, r.P95, r.CumMax)
	}
	w.Flush()
	fmt.Printf("worst case %gs, expected %gs\n", t.Total.Max, t.Total.Mean)
	// Output:
	// retry  nominal  min  max  mean    p95  cum max
	//       1       1s   0s   1s  0.5s  0.95s       1s
	//       2       2s   0s   2s    1s   1.9s       3s
	//       3       4s   0s   4s    2s   3.8s       7s
	//       4       8s   0s   8s    4s   7.6s      15s
	//       5      16s   0s  16s    8s  15.2s      31s
	// worst case 31s, expected 15.5s
}

// Jitter math takes the uniform draw as an argument, so values are exact.
func ExampleFullJitter() {
	for _, u := range []float64{0, 0.25, 0.5, 0.999} {
		fmt.Printf("u=%-5g full=%-6g equal=%-6g grpc=%g\n", u, backoff.FullJitter(8, 0, u),
			backoff.EqualJitter(8, u), backoff.ProportionalJitter(8, 0.8, 1.2, u))
	}
	// Output:
	// u=0     full=0      equal=4      grpc=6.4
	// u=0.25  full=2      equal=5      grpc=7.2
	// u=0.5   full=4      equal=6      grpc=8
	// u=0.999 full=7.992  equal=7.996  grpc=9.5968
}

// Kubernetes' CrashLoopBackOff: the first restart is immediate, then 10 s
// doubling to the 5-minute cap.
func ExampleLookupPreset() {
	pr, _ := backoff.LookupPreset("k8s-crashloop")
	p := pr.Policy
	p.Attempts = 9
	t, _ := backoff.NewTable(p, backoff.NewRand(1))
	var s []string
	for _, r := range t.Rows {
		s = append(s, backoff.FormatSeconds(r.Nominal))
	}
	fmt.Println(strings.Join(s, " "))
	fmt.Println("cap reached at retry", t.CapRow)
	// Output:
	// 0 10s 20s 40s 1.33min 2.67min 5min 5min
	// cap reached at retry 7
}

// A seeded client's delays: the same seed gives the same run everywhere.
func ExamplePolicy_Step() {
	pr, _ := backoff.LookupPreset("aws-blog-decorrelated")
	p := pr.Policy
	r := backoff.NewRand(42)
	var st backoff.State
	for n := 1; n <= 5; n++ {
		var d float64
		d, st = p.Step(n, st, r.Float64())
		fmt.Printf("retry %d: %.3fs\n", n, d)
	}
	// Output:
	// retry 1: 13.255s
	// retry 2: 6.489s
	// retry 3: 16.227s
	// retry 4: 19.827s
	// retry 5: 58.388s
}

// The article's own case: a 400 whose body says the service is temporarily
// unavailable is worth retrying; a 401 with an expired token never is.
func ExampleClassify() {
	rules := backoff.DefaultRules()
	for _, c := range []backoff.Call{
		{Status: 400, Body: `{"error":"model temporarily unavailable at the provider, try again later"}`},
		{Status: 401, Body: "token expired"},
		{Method: "POST", Status: 503},
		{Method: "POST", Status: 503, IdempotencyKey: "order-42", Header: map[string][]string{"Retry-After": {"5"}}},
		{Status: 503, Header: map[string][]string{"Retry-After": {"soon"}}},
	} {
		v := backoff.Classify(c, rules)
		fmt.Printf("%v: %s [%s %v]\n", v.Retry, v.Reason, v.Code, v.Args)
		// The Retry-After is data beside the reason, not part of it.
		if v.HasRetryAfter {
			fmt.Printf("  server asks to wait %s (%s)\n", backoff.FormatDuration(v.RetryAfter), v.RetryAfterHeader)
		}
		if v.RetryAfterError != nil {
			fmt.Printf("  ignored: %v\n", v.RetryAfterError)
		}
	}
	// Output:
	// true: status 400, but the body says "temporarily unavailable": a temporary failure, body beats status [transient-body [400 temporarily unavailable]]
	// false: status 401 with "token expired" in the body: the credential is bad, a retry gets the same answer [bad-credential [401 token expired]]
	// false: POST is not idempotent and no idempotency key was sent: a retry could repeat the side effect [not-idempotent [POST]]
	// true: status 503 is retryable (POST is safe to repeat with its idempotency key) [retryable [503]]
	//   server asks to wait 5s (Retry-After)
	// true: status 503 is retryable [retryable [503]]
	//   ignored: Retry-After: "soon" is not valid: want delta-seconds (0 to 2592000) or an HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT
}

// The caller gives up after 10 s: how large may the base be, and how many
// attempts fit the article's policy?
func ExampleSolve() {
	p := backoff.Default() // 1 s, x2, cap 30 s, full jitter, 6 attempts
	for _, g := range []backoff.Goal{
		{Knob: backoff.ParamBase, Target: backoff.WorstTotal, Total: 10 * time.Second},
		{Knob: backoff.ParamBase, Target: backoff.ExpectedTotal, Total: 10 * time.Second},
		{Knob: backoff.ParamAttempts, Target: backoff.WorstTotal, Total: 10 * time.Second},
		{Knob: backoff.ParamCap, Target: backoff.WorstTotal, Total: 20 * time.Second},
	} {
		s, err := backoff.Solve(p, g)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-8s within %-14s %-8s = %-14s worst %s\n", g.Knob, g.Target, g.Total, s.Policy.Get(g.Knob),
			backoff.FormatSeconds(s.Worst))
	}
	_, err := backoff.Solve(p, backoff.Goal{Knob: backoff.ParamCap, Target: backoff.WorstTotal, Total: 4 * time.Second})
	fmt.Println(err)
	// Output:
	// base     within worst-total    10s      = 322.580645ms   worst 10s
	// base     within expected-total 10s      = 645.16129ms    worst 20s
	// attempts within worst-total    10s      = 4              worst 7s
	// cap      within worst-total    20s      = 6.5s           worst 20s
	// worst-total: "4s" is not valid: want at least 5s: the least total the other knobs allow, with cap at its least (1s)
}

// tenacity's wait_random_exponential(multiplier=1, min=4, max=10): each
// delay is random.uniform(min, high), high = max(min, min(2^(n-1), max)),
// so the floor lifts the whole range, not only its bottom: the first three
// retries wait exactly 4 s, and every column stays a closed form.
func ExamplePolicy_floor() {
	p := backoff.Policy{Growth: backoff.Exponential, Base: time.Second, Factor: 2,
		Cap: 10 * time.Second, Floor: 4 * time.Second, Jitter: backoff.Full, Attempts: 6}
	t, _ := backoff.NewTable(p, backoff.NewRand(1))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "retry\tnominal\tmin\tmax\tmean\tp50\tp95\tcum min\tcum mean\tcum max\t")
	for _, r := range t.Rows {
		fmt.Fprintf(w, "%d\t%gs\t%gs\t%gs\t%gs\t%gs\t%gs\t%gs\t%gs\t%gs\t\n", r.Retry, r.Nominal, r.Min, r.Max, r.Mean,
			r.P50, r.P95, r.CumMin, r.CumMean, r.CumMax)
	}
	w.Flush()
	fmt.Println(p.Describe())
	// Output:
	// retry  nominal  min  max  mean  p50   p95  cum min  cum mean  cum max
	//       1       4s   4s   4s    4s   4s    4s       4s        4s       4s
	//       2       4s   4s   4s    4s   4s    4s       8s        8s       8s
	//       3       4s   4s   4s    4s   4s    4s      12s       12s      12s
	//       4       8s   4s   8s    6s   6s  7.8s      16s       18s      20s
	//       5      10s   4s  10s    7s   7s  9.7s      20s       25s      30s
	// exponential: 1s * 2^(n-1), cap 10s before jitter, floor 4s; full jitter; 6 attempts = 5 retries
}

// Numbers quoted in errors: as many digits as they need (or two), with a
// plain exponent; counts whole below 100,000.
func ExampleFormatShort() {
	for _, f := range []float64{0.1, 1e300, 1e-300, 123456789} {
		fmt.Printf("%-12s %-8s %s\n", backoff.FormatShort(f, -1), backoff.FormatShort(f, 2), backoff.FormatCount(f))
	}
	// Output:
	// 0.1          0.1      0
	// 1e300        1e300    1e300
	// 1e-300       1e-300   0
	// 1.23456789e8 1.2e8    1.2e8
}
