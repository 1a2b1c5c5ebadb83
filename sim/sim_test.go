package sim

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt from this run")

// variant is a named change to DefaultConfig, as URL parameters.
type variant struct {
	name string
	set  [][2]string
}

// variants cover every server, arrival, budget and breaker, the fast path
// and the slow one.
var variants = []variant{
	{"default", nil},
	{"no-jitter", [][2]string{{"jitter", "none"}}},
	{"capacity-uniform", [][2]string{{"server", "capacity"}, {"arrival", "uniform:5s"}}},
	{"collapse", [][2]string{{"server", "collapse"}, {"collapse-factor", "2"}}},
	{"clock", [][2]string{{"arrival", "clock:2s"}}},
	{"retry-after", [][2]string{{"retry-after-s", "2s"}, {"honor-retry-after", "true"}, {"retry-after", "floor"}}},
	{"tokens", [][2]string{{"budget", "tokens:100:5:1"}}},
	{"ratio-budget", [][2]string{{"budget", "ratio"}}},
	{"breaker", [][2]string{{"breaker", "consecutive:5:2s"}}},
	{"breaker-ratio", [][2]string{{"breaker", "ratio:0.5:10:1s:1s"}, {"budget", "ratio:0.5:3"}}},
	{"decorrelated", [][2]string{{"jitter", "decorrelated"}, {"cap", "10s"}}},
	{"deadline", [][2]string{{"attempts", "0"}, {"deadline", "20s"}}},
	{"no-latency", [][2]string{{"latency", "0"}, {"latency-sd", "0"}, {"growth", "none"}, {"attempts", "5"}}},
	{"occ", [][2]string{{"server", "occ"}, {"clients", "50"}, {"preset", "aws-blog-full"}, {"latency", "10s"}, {"latency-sd", "2s"}}},
	{"occ-breaker", [][2]string{{"server", "occ"}, {"clients", "50"}, {"preset", "aws-blog-decorrelated"}, {"latency", "10s"}, {"latency-sd", "2s"}, {"breaker", "consecutive:3:100s"}}},
	{"horizon", [][2]string{{"attempts", "0"}, {"growth", "constant"}, {"horizon", "30s"}, {"server", "outage"}, {"outage-end", "1h"}}},
}

func (v variant) config(t testing.TB) Config {
	t.Helper()
	c := DefaultConfig()
	for _, kv := range v.set {
		if kv[0] == "preset" {
			p, err := backoff.LookupPreset(kv[1])
			if err != nil {
				t.Fatal(err)
			}
			c.Policy = p.Policy
			continue
		}
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
	}
	return c
}

// run simulates c in small Advance slices, as the page does, and checks
// that nothing happened before its cause.
func run(t testing.TB, c Config, seed uint64) *Result {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	prev := 0.0
	for !s.Advance(997) {
		if p := s.Progress(); p < prev || p > 1 {
			t.Fatalf("progress %v after %v", p, prev)
		} else {
			prev = p
		}
	}
	if s.violations != 0 {
		t.Errorf("%d events scheduled before their cause or popped out of order", s.violations)
	}
	if s.Progress() != 1 {
		t.Errorf("progress %v when done", s.Progress())
	}
	return s.Result()
}

func TestInvariants(t *testing.T) {
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			c := v.config(t)
			r := run(t, c, 7)
			tot := r.Totals
			if tot.Succeeded+tot.GaveUp+tot.Unfinished != tot.Clients || tot.Clients != c.Clients {
				t.Errorf("succeeded %d + gave up %d + unfinished %d != clients %d", tot.Succeeded, tot.GaveUp, tot.Unfinished, c.Clients)
			}
			if (tot.Unfinished > 0) != r.Truncated {
				t.Errorf("unfinished %d but truncated %v", tot.Unfinished, r.Truncated)
			}
			var calls, answered, blocked, retries, started int
			for k, b := range r.Timeline {
				calls += b.Calls
				answered += b.OK + b.Rejected
				blocked += b.Blocked
				retries += b.Retries
				started += b.Started
				// A first try is a call (counted at its write for occ, after
				// the read that started the client) or refused by the open
				// breaker.
				if b.Retries > b.Calls || b.Waiting < 0 || b.Waiting > c.Clients || started < calls-retries {
					t.Errorf("bucket %d: %+v", k, b)
				}
				if want := float64(k) * r.BucketWidth; math.Abs(b.Start-want) > 1e-9*math.Max(1, want) {
					t.Errorf("bucket %d starts at %v, want %v", k, b.Start, want)
				}
			}
			if !r.Truncated && started != tot.Clients {
				t.Errorf("timeline started %d, clients %d", started, tot.Clients)
			}
			if calls != tot.Calls || blocked != tot.Blocked {
				t.Errorf("timeline calls %d blocked %d, totals %d %d", calls, blocked, tot.Calls, tot.Blocked)
			}
			// Every call is answered, except those in flight when a
			// horizon stopped the run.
			if answered != tot.Calls && !r.Truncated {
				t.Errorf("answers %d != calls %d", answered, tot.Calls)
			}
			if last := r.Timeline[len(r.Timeline)-1]; last.Waiting != tot.Unfinished {
				t.Errorf("still waiting at the end: %d, unfinished %d", last.Waiting, tot.Unfinished)
			}
			if end := float64(len(r.Timeline)) * r.BucketWidth; tot.Makespan >= end || tot.Makespan < end-r.BucketWidth {
				t.Errorf("makespan %v outside the last bucket [%v, %v)", tot.Makespan, end-r.BucketWidth, end)
			}
			q := tot.Completion
			if tot.Succeeded > 0 && !(0 <= q.P50 && q.P50 <= q.P95 && q.P95 <= q.P99 && q.P99 <= q.Max && q.Max <= tot.Makespan) {
				t.Errorf("completion quantiles out of order: %+v (makespan %v)", q, tot.Makespan)
			}
			if c.Server != OCC && tot.Calls > tot.Clients*max(c.Policy.Attempts, 1) && c.Policy.Attempts > 0 {
				t.Errorf("%d calls from %d clients with %d attempts", tot.Calls, tot.Clients, c.Policy.Attempts)
			}
			if n := len(r.Timeline); !r.Truncated && tot.Makespan > 0 && (n < 40 || n > 260) {
				t.Errorf("%d buckets, want about 200", n)
			}
			// The one server as a node: it served each success, and
			// answered every call but those a horizon cut off.
			if err := checkNodes(c, r); err != nil {
				t.Error(err)
			}
			n := tot.PerNode[0]
			fig := func(k string) float64 { v, _ := n.Figure(k); return v }
			if fig("served") != float64(tot.Succeeded) || !r.Truncated && fig("served")+fig("refused")+fig("outage") != float64(tot.Calls) {
				t.Errorf("node %+v; succeeded %d of %d calls", n, tot.Succeeded, tot.Calls)
			}
			if u := fig("utilization"); (c.Server.Traits().Rated && tot.Succeeded > 0) != (u > 0) {
				t.Errorf("utilization %g (%s)", u, c.Server.Model().Name())
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, v := range variants {
		c := v.config(t)
		a, b := run(t, c, 3), run(t, c, 3)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed 3 differ", v.name)
		}
		r, err := Run(c, 3)
		if err != nil || !reflect.DeepEqual(a, r) {
			t.Errorf("%s: Run differs from Advance in slices (%v)", v.name, err)
		}
		if d := run(t, c, 4); reflect.DeepEqual(a, d) && c.Policy.Jitter != backoff.NoJitter && a.Totals.Makespan > 0 {
			t.Errorf("%s: seeds 3 and 4 give the same run", v.name)
		}
	}
}

// TestGolden pins seeded output. The same file is compared natively and
// under WebAssembly (make test-wasm), so the two must agree; numbers are
// printed with 6 significant digits so a last-bit difference in a math
// function cannot flip them. Refresh with: go test ./sim -run Golden -update
func TestGolden(t *testing.T) {
	var sb strings.Builder
	for _, v := range variants {
		c := v.config(t)
		r := run(t, c, 42)
		fmt.Fprintf(&sb, "== %s\n", v.name)
		writeResult(&sb, r)
	}
	path := filepath.Join("testdata", "golden.txt")
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := sb.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("golden.txt line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("golden.txt: got %d lines, want %d", len(gl), len(wl))
	}
}

func writeResult(sb *strings.Builder, r *Result) {
	g := func(f float64) string { return fmt.Sprintf("%.6g", f) }
	tt := r.Totals
	fmt.Fprintf(sb, "clients=%d calls=%d ok=%d gaveup=%d unfinished=%d blocked=%d amp=%s\n",
		tt.Clients, tt.Calls, tt.Succeeded, tt.GaveUp, tt.Unfinished, tt.Blocked, g(tt.Amplification))
	q := tt.Completion
	fmt.Fprintf(sb, "completion mean=%s p50=%s p95=%s p99=%s max=%s makespan=%s peak=%s retrypeak=%s\n",
		g(q.Mean), g(q.P50), g(q.P95), g(q.P99), g(q.Max), g(tt.Makespan), g(tt.PeakLoadRatio), g(tt.PeakRetryLoadRatio))
	fmt.Fprintf(sb, "bucket=%s n=%d cap=%s\n", g(r.BucketWidth), len(r.Timeline), g(r.CapacityPerBucket))
	if w := tt.Worst; w != nil {
		fmt.Fprintf(sb, "jain=%s worst=%d attempts=%d successes=%d gaveup=%d time=%s share=%s per-client=%d\n", g(tt.JainFairness),
			w.Client, w.Attempts, w.Successes, w.GaveUp, g(w.Time), g(w.Share), len(r.PerClient))
	}
	for k, b := range r.Timeline {
		if k%10 == 0 {
			fmt.Fprintf(sb, "%s %d %d %d %d %d %d\n", g(b.Start), b.Calls, b.Retries, b.OK, b.Rejected, b.Blocked, b.Waiting)
		}
	}
}

// retryPeaks are the buckets whose retries exceed k times capacity.
func retryPeaks(r *Result, k float64) []int {
	var out []int
	for i, b := range r.Timeline {
		if float64(b.Retries) > k*r.CapacityPerBucket {
			out = append(out, i)
		}
	}
	return out
}

// The herd, as the page's first screen shows it: in a burst after an outage, no jitter gives
// periodic retry spikes far above capacity; full jitter keeps the retry
// peak close to it.
func TestBurstAfterOutage(t *testing.T) {
	c := DefaultConfig()
	c.Bucket = time.Second
	c.Policy.Jitter = backoff.NoJitter
	none := run(t, c, 1)
	c.Policy.Jitter = backoff.Full
	full := run(t, c, 1)
	if p := none.Totals.PeakRetryLoadRatio; p < 10 {
		t.Errorf("no jitter: retry peak %.2f x capacity, want far above (>= 10)", p)
	}
	// Spikes at 1+2+4+8 = 15 s and 31 s (plus hops): separate buckets,
	// with quiet ones between.
	spikes := retryPeaks(none, 3)
	if len(spikes) < 2 || spikes[len(spikes)-1]-spikes[0] < 10 {
		t.Errorf("no jitter: spikes in buckets %v, want periodic ones", spikes)
	}
	if p := full.Totals.PeakRetryLoadRatio; p > 1.6 {
		t.Errorf("full jitter: retry peak %.2f x capacity, want close to 1", p)
	}
	if full.Totals.Succeeded <= none.Totals.Succeeded {
		t.Errorf("full jitter: %d succeeded, no jitter %d", full.Totals.Succeeded, none.Totals.Succeeded)
	}
}

// occConfig is the AWS blog's setting for one algorithm.
func occConfig(t testing.TB, algo string, clients int) Config {
	c := DefaultConfig()
	c.Server, c.Clients = OCC, clients
	c.Latency, c.LatencySD = 10*time.Second, 2*time.Second
	preset := map[string]string{"none": "aws-blog-full", "exponential": "aws-blog-full", "full": "aws-blog-full",
		"equal": "aws-blog-equal", "decorrelated": "aws-blog-decorrelated"}[algo]
	p, err := backoff.LookupPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	c.Policy = p.Policy
	switch algo {
	case "none":
		c.Policy.Growth, c.Policy.Jitter = backoff.None, backoff.NoJitter
	case "exponential":
		c.Policy.Jitter = backoff.NoJitter
	}
	return c
}

var occAlgos = []string{"none", "exponential", "full", "equal", "decorrelated"}

// The blog's findings: no backoff makes the most calls, plain exponential
// takes by far the longest, full jitter does less work than no jitter.
func TestOCCFindings(t *testing.T) {
	for _, clients := range []int{50, 100} {
		calls, took := map[string]float64{}, map[string]float64{}
		for _, a := range occAlgos {
			s, err := RunMany(occConfig(t, a, clients), 1, 20)
			if err != nil {
				t.Fatal(err)
			}
			calls[a], took[a] = s.Mean.Calls, s.Mean.Makespan
			if s.Mean.Succeeded != float64(clients) {
				t.Errorf("%s: %v of %d clients succeeded", a, s.Mean.Succeeded, clients)
			}
		}
		for _, a := range occAlgos[1:] {
			if calls["none"] <= calls[a] {
				t.Errorf("%d clients: no backoff %v calls, %s %v: want no backoff the most", clients, calls["none"], a, calls[a])
			}
			if a != "exponential" && took["exponential"] < 3*took[a] {
				t.Errorf("%d clients: exponential took %v, %s %v: want by far the longest", clients, took["exponential"], a, took[a])
			}
		}
		if calls["full"] >= calls["exponential"] {
			t.Errorf("%d clients: full jitter %v calls, no jitter %v", clients, calls["full"], calls["exponential"])
		}
		t.Logf("%d clients: calls %v, time %v", clients, calls, took)
	}
}

// The shared clock erases jitter smaller than its period: every retry
// starts on a multiple of it.
func TestClockAlignsRetries(t *testing.T) {
	c := DefaultConfig()
	c.Set("arrival", "clock:5s")
	c.Set("bucket", "1s")
	c.Set("latency-sd", "0")
	r := run(t, c, 1)
	for i, b := range r.Timeline {
		if b.Calls > 0 && i%5 != 0 {
			t.Fatalf("calls started at %vs, off the 5 s clock", b.Start)
		}
	}
}

func TestBudgetsAndBreaker(t *testing.T) {
	base := DefaultConfig()
	plain := run(t, base, 1)
	for _, v := range []string{"tokens:500:5:1", "ratio:0.2:3"} {
		c := base
		c.Set("budget", v)
		r := run(t, c, 1)
		if r.Totals.Calls >= plain.Totals.Calls/2 {
			t.Errorf("budget %s: %d calls, without %d: want far fewer", v, r.Totals.Calls, plain.Totals.Calls)
		}
	}
	c := base
	c.Set("breaker", "consecutive:5:2s")
	r := run(t, c, 1)
	if r.Totals.Blocked == 0 || r.Totals.Calls >= plain.Totals.Calls/2 {
		t.Errorf("breaker: %d blocked, %d calls (without: %d)", r.Totals.Blocked, r.Totals.Calls, plain.Totals.Calls)
	}
}

// TestQueueOrder pops random pushes, ties and far futures included, in
// (t, seq) order from the timing wheel (width 0.01) and from the small
// runs' tournament tree (width 0), each client with at most one pending
// event as in a run.
func TestQueueOrder(t *testing.T) {
	for _, width := range []float64{0.01, 0} {
		testQueueOrder(t, width)
	}
}

func testQueueOrder(t *testing.T, width float64) {
	const clients = 1000
	rng := backoff.NewRand(1)
	q := newQueue(clients, width, &buffers{})
	type ev struct {
		t   float64
		seq int
	}
	var want []ev
	var free []int // clients with no pending event
	for i := clients - 1; i >= 0; i-- {
		free = append(free, i)
	}
	now, seq := 0.0, 0
	for step := 0; step < 40000; step++ {
		if len(want) == 0 || len(free) > 0 && rng.IntN(3) > 0 {
			var t float64
			switch rng.IntN(4) {
			case 0:
				t = now // a tie with the present
			case 1:
				t = now + rng.Float64()*0.005
			case 2:
				t = now + rng.ExpFloat64()*10
			default:
				t = now + math.Floor(rng.Float64()*4)*1e5 // far, and ties
			}
			k := rng.IntN(len(free))
			i := free[k]
			free = slices.Delete(free, k, k+1)
			q.push(t, i, client{tp: uint32(seq)})
			want = append(want, ev{t, seq})
			seq++
			continue
		}
		e := q.pop()
		free = append(free, e.client())
		// The earliest pending (t, seq).
		k := 0
		for j := range want {
			if want[j].t < want[k].t || want[j].t == want[k].t && want[j].seq < want[k].seq {
				k = j
			}
		}
		if e.t != want[k].t || int(e.c.tp) != want[k].seq {
			t.Fatalf("width %v, step %d: popped (%v, %d), want (%v, %d)", width, step, e.t, e.c.tp, want[k].t, want[k].seq)
		}
		now = e.t
		want = slices.Delete(want, k, k+1)
	}
	if q.len() != len(want) {
		t.Errorf("width %v: len %d, want %d", width, q.len(), len(want))
	}
}

func TestConfigSetGet(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"clients", "12345"}, {"server", "collapse"}, {"capacity", "2.5"},
		{"arrival", "uniform:1m30s"}, {"budget", "tokens:100:2:0.5"}, {"breaker", "ratio:0.25:7:3s:1.5s"},
		{"retry-after-s", "7"}, {"honor-retry-after", "true"}, {"jitter", "equal"}, {"bucket", "250ms"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	d := DefaultConfig()
	for _, n := range append(slices.Clone(ParamNames), backoff.ParamNames...) {
		if err := d.Set(n, c.Get(n)); err != nil {
			t.Fatalf("Set(%q, Get) = %v", n, err)
		}
	}
	if !reflect.DeepEqual(c, d) {
		t.Errorf("Get/Set round trip:\n got %+v\nwant %+v", d, c)
	}
	if c.Get("arrival") != "uniform:1m30s" || c.Get("retry-after-s") != "7s" {
		t.Errorf("arrival %q retry-after-s %q", c.Get("arrival"), c.Get("retry-after-s"))
	}
	for _, kv := range [][2]string{{"clients", "0"}, {"clients", "2000001"}, {"clients", "1e9"}, {"server", "mainframe"},
		{"capacity", "0"}, {"capacity", "NaN"}, {"arrival", "uniform"}, {"arrival", "clock:0s"}, {"arrival", "burst:1s"},
		{"budget", "tokens:5:10"}, {"budget", "ratio:2"}, {"budget", "tokens:a"}, {"breaker", "consecutive:0"},
		{"breaker", "ratio:0.5:10:0s"}, {"latency", "2h"}, {"max-calls", "-1"}, {"nope", "1"}} {
		before := c
		err := c.Set(kv[0], kv[1])
		fe, ok := err.(*backoff.FieldError)
		if !ok || fe.Allowed == "" {
			t.Errorf("Set(%q, %q) = %v, want a FieldError", kv[0], kv[1], err)
		}
		if !reflect.DeepEqual(before, c) {
			t.Errorf("Set(%q, %q) failed but changed the config", kv[0], kv[1])
		}
	}
}

func TestValidate(t *testing.T) {
	c := DefaultConfig()
	c.OutageStart, c.OutageEnd = 10*time.Second, 5*time.Second
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "outage-end") {
		t.Errorf("outage end before start: %v", err)
	}
	c = DefaultConfig()
	c.Clients = 3_000_000
	if _, err := New(c, 1); err == nil || !strings.Contains(err.Error(), "2000000") {
		t.Errorf("3M clients: %v", err)
	}
	if _, err := RunMany(DefaultConfig(), 1, 0); err == nil {
		t.Error("RunMany with 0 runs: no error")
	}
}

// FuzzConfigSet: no parameter text makes Set, Validate or a small run
// panic, a failed Set changes nothing, and Get gives back what Set took.
func FuzzConfigSet(f *testing.F) {
	for _, v := range variants {
		for _, kv := range v.set {
			f.Add(kv[0], kv[1], "clients", "20")
		}
	}
	f.Add("arrival", "clock:1ns", "growth", "none")
	f.Add("budget", "ratio:0:0", "attempts", "0")
	f.Add("breaker", "consecutive:1:0s", "latency", "0")
	for _, v := range reqVariants {
		for i := 0; i+1 < len(v.set); i += 2 {
			f.Add(v.set[i][0], v.set[i][1], v.set[i+1][0], v.set[i+1][1])
		}
	}
	f.Add("traffic", "loop:3:0s", "server", "queue")
	f.Add("fault", "capacity:0@0s-1h", "server", "queue")
	f.Add("fault", "crash@1s-2s/1,1", "servers", "3")
	f.Add("fault", "crash@1s-2s/1, 2", "servers", "3")
	f.Add("fault", "stall@0s-1s;outage@0.5s-2s", "timeout", "10ms")
	f.Add("service-dist", "lognormal:5", "server", "queue")
	f.Add("hedge", "1ns", "hedge-cancel", "true")
	f.Add("budget", "adaptive:0.5:1ms", "budget-scope", "caller")
	f.Add("budget", "grpc:1:0.001", "attempts", "0")
	f.Add("budget", "grpc:1000:1000", "budget-scope", "caller")
	f.Add("layer-attempts", "1,2,3", "layers", "3")
	f.Add("layers", "8", "layer-timeout", "1ns")
	f.Add("layer-timeout", "1ns,0s,1h", "layers", "4")
	f.Add("layer-timeout", ",", "layers", "2")
	f.Add("cache-keys", "1000000", "cache-zipf", "10")
	f.Add("cache-keys", "3", "fault", "flush@0s-0s")
	f.Add("cache-ttl", "1ns", "cache-start", "warm")
	f.Add("retry-at", "top", "layers", "2")
	f.Add("channel", "ethernet", "server", "channel")
	f.Add("slot", "1ns", "frame", "1ns")
	f.Add("channel", "slotted", "traffic", "open:1e6")
	f.Add("gate-open", "0.01", "server", "gate")
	f.Add("discipline", "adaptive-lifo:0s", "server", "queue")
	f.Add("discipline", "codel:1µs:0s", "traffic", "open:1000")
	f.Add("admission", "fixed-window:1:1µs", "server", "queue")
	f.Add("admission", "token-bucket:0.001:1", "honor-retry-after", "true")
	f.Add("gate-open", "1", "traffic", "open:100")
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2 string) {
		c := DefaultConfig()
		c.Clients = 20
		for _, kv := range [][2]string{{n1, v1}, {n2, v2}} {
			before := c
			if err := c.Set(kv[0], kv[1]); err != nil {
				if _, ok := err.(*backoff.FieldError); !ok {
					t.Fatalf("Set(%q, %q): %T %v", kv[0], kv[1], err, err)
				}
				if !reflect.DeepEqual(before, c) {
					t.Fatalf("Set(%q, %q) failed but changed the config", kv[0], kv[1])
				}
				continue
			}
			d := before
			if err := d.Set(kv[0], c.Get(kv[0])); err != nil {
				t.Fatalf("Set(%q, Get()=%q): %v", kv[0], c.Get(kv[0]), err)
			}
		}
		if c.Validate() != nil {
			return
		}
		// Keep each run small: a few clients, a bounded number of calls.
		c.Clients = min(c.Clients, 50)
		c.Callers = min(c.Callers, 50)
		c.MaxCalls = min(c.MaxCalls, 5000)
		if c.Bucket > 0 {
			c.Bucket = max(c.Bucket, time.Millisecond)
		}
		r, err := Run(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Totals.Succeeded+r.Totals.GaveUp+r.Totals.Unfinished != r.Totals.Clients ||
			!c.RequestLevel() && r.Totals.Clients != c.Clients {
			t.Fatalf("clients don't add up: %+v", r.Totals)
		}
	})
}

// A page calls Advance in short slices: New must not simulate, and a slice
// must stay a slice even while the first calls go out.
func TestAdvanceSlices(t *testing.T) {
	c := DefaultConfig()
	c.Clients = 100_000
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.calls != 0 || s.Progress() != 0 {
		t.Fatalf("New made %d calls", s.calls)
	}
	s.Advance(10)
	if s.begun != 10 {
		t.Fatalf("Advance(10) began %d clients", s.begun)
	}
	for !s.Advance(50_000) {
	}
	r, _ := Run(c, 1)
	if !reflect.DeepEqual(s.Result(), r) {
		t.Error("slices of 10 then 50000 differ from Run")
	}
}

// Collapse serves less than capacity while overloaded, so the same herd
// gets less done than against a plain capacity server.
func TestCollapseServesLess(t *testing.T) {
	c := DefaultConfig()
	c.Server = Capacity
	plain := run(t, c, 1)
	c.Server, c.CollapseFactor = Collapse, 3
	col := run(t, c, 1)
	if col.Totals.Succeeded >= plain.Totals.Succeeded {
		t.Errorf("collapse: %d succeeded, capacity: %d", col.Totals.Succeeded, plain.Totals.Succeeded)
	}
}

// Honouring a fixed Retry-After as-is re-synchronises jittered clients;
// a Retry-After above the cap makes "give-up" clients stop at once.
func TestRetryAfter(t *testing.T) {
	c := DefaultConfig()
	c.Bucket = time.Second
	c.RetryAfter = 3 * time.Second
	jittered := run(t, c, 1)
	c.HonorRetryAfter = true
	honoured := run(t, c, 1)
	if honoured.Totals.PeakRetryLoadRatio < 3*jittered.Totals.PeakRetryLoadRatio {
		t.Errorf("retry peak honouring Retry-After %.2f, ignoring %.2f", honoured.Totals.PeakRetryLoadRatio, jittered.Totals.PeakRetryLoadRatio)
	}
	c.Policy.RetryAfter, c.Policy.Cap = backoff.RetryAfterGiveUp, 2*time.Second
	c.Policy.Base = time.Second
	gave := run(t, c, 1)
	if gave.Totals.GaveUp != c.Clients || gave.Totals.Calls != c.Clients {
		t.Errorf("give-up: %d gave up after %d calls", gave.Totals.GaveUp, gave.Totals.Calls)
	}
}

// max-calls 0 means the default limit, in Set as in Validate.
func TestMaxCallsZeroIsTheDefault(t *testing.T) {
	c := DefaultConfig()
	if err := c.Set(ParamMaxCalls, "0"); err != nil || c.MaxCalls != 0 {
		t.Fatalf("Set(max-calls, 0) = %v, MaxCalls %d", err, c.MaxCalls)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

// The herd's server as a node, worked by hand: 1000 clients at once,
// retrying every second without jitter or latency, against 100 calls a
// second (a bucket of 100). Each second it serves 100 and refuses the
// rest: 1000+900+...+100 calls over 9 s, and it served all it could
// (100 at the start, 100 a second after), utilization 1. With a 5 s
// outage first, the 1000 calls of each of its five seconds fail as
// outage and the same ten seconds follow.
func TestHerdNode(t *testing.T) {
	for _, c := range []struct {
		name string
		set  [][2]string
		want string
	}{
		{"capacity", nil, "calls=5500 served=1000 refused=4500 errors=0 outage=0 timeouts=0 lost=0 utilization=1"},
		{"outage", [][2]string{{"outage-start", "0s"}, {"outage-end", "5s"}}, "calls=10500 served=1000 refused=4500 errors=0 outage=5000 timeouts=0 lost=0 utilization=1"},
	} {
		cfg := DefaultConfig()
		for _, kv := range append([][2]string{{"server", c.name}, {"clients", "1000"}, {"capacity", "100"}, {"capacity-window", "1s"},
			{"latency", "0"}, {"latency-sd", "0"}, {"growth", "constant"}, {"base", "1s"}, {"jitter", "none"}, {"attempts", "0"}}, c.set...) {
			if err := cfg.Set(kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		r := run(t, cfg, 1)
		var got []string
		for _, f := range r.Totals.PerNode[0].Figures {
			got = append(got, fmt.Sprintf("%s=%g", f.Key, f.Value))
		}
		if g := strings.Join(got, " "); g != c.want || r.Totals.PerNode[0].Name != "server" {
			t.Errorf("%s: %s %s, want %s", c.name, r.Totals.PerNode[0].Name, g, c.want)
		}
	}
}
