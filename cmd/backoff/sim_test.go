package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func simRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return run(t, append([]string{"sim"}, args...)...)
}

func TestSimTextDefault(t *testing.T) {
	code, out, errOut := simRun(t)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1000 clients", "server outage", "calls ", "succeeded", "completion", "peak load", "capacity", "outage\n", "calls started per"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimJSON(t *testing.T) {
	code, out, errOut := simRun(t, "--clients", "200", "--jitter", "none", "--bucket", "1s", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Totals struct {
			Clients    int     `json:"clients"`
			Calls      int     `json:"calls"`
			Succeeded  int     `json:"succeeded"`
			GaveUp     int     `json:"gave_up"`
			Amp        float64 `json:"amplification"`
			Completion struct {
				Mean, P50, P95, P99, Max *float64
			} `json:"completion_s"`
			Makespan  *float64 `json:"makespan_s"`
			Peak      float64  `json:"peak_load_ratio"`
			RetryPeak *float64 `json:"peak_retry_load_ratio"`
		} `json:"totals"`
		Timeline []struct {
			Start    *float64 `json:"start_s"`
			Calls    int      `json:"calls"`
			Retries  *int     `json:"retries"`
			OK       *int     `json:"ok"`
			Rejected *int     `json:"rejected"`
			Waiting  *int     `json:"waiting"`
		} `json:"timeline"`
		Config map[string]string `json:"config"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	tt := got.Totals
	if tt.Clients != 200 || tt.Succeeded+tt.GaveUp != 200 || tt.Makespan == nil || tt.RetryPeak == nil || tt.Completion.P99 == nil {
		t.Errorf("totals: %+v", tt)
	}
	sum := 0
	for _, b := range got.Timeline {
		if b.Start == nil || b.Retries == nil || b.OK == nil || b.Rejected == nil || b.Waiting == nil {
			t.Fatalf("bucket lacks a field: %+v", b)
		}
		sum += b.Calls
	}
	if sum != tt.Calls || len(got.Timeline) < 20 {
		t.Errorf("timeline: %d buckets, %d calls, totals %d", len(got.Timeline), sum, tt.Calls)
	}
	if got.Config["jitter"] != "none" || got.Config["bucket"] != "1s" {
		t.Errorf("config: %v", got.Config)
	}
}

func TestSimRunsMeans(t *testing.T) {
	code, out, errOut := simRun(t, "--clients", "100", "--runs", "4", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Runs   int            `json:"runs"`
		Totals map[string]any `json:"totals"`
		SD     map[string]any `json:"sd"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Runs != 4 || got.Totals["calls"] == nil || got.SD["calls"] == 0.0 {
		t.Errorf("runs %d totals %v sd %v", got.Runs, got.Totals, got.SD)
	}
}

// The blog's sweep, small: one row per client count and algorithm.
func TestSimSweepOCC(t *testing.T) {
	code, out, errOut := simRun(t, "--preset", "aws-blog-full", "--server", "occ", "--latency", "10s", "--latency-sd", "2s",
		"--sweep", "clients=10:30:10", "--jitter", "no-backoff,none,full,equal,decorrelated", "--runs", "10", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+3*5 || recs[0][0] != "jitter" || recs[0][1] != "clients" {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	if recs[1][0] != "no-backoff" || recs[1][1] != "10" || recs[15][0] != "decorrelated" || recs[15][1] != "30" {
		t.Errorf("rows: %v ... %v", recs[1], recs[15])
	}
	code, out, _ = simRun(t, "--preset", "aws-blog-full", "--server", "occ", "--latency", "10s", "--latency-sd", "2s",
		"--sweep", "clients=10,20", "--jitter", "full,decorrelated", "--format", "json")
	var js struct {
		Sweep string `json:"sweep"`
		Rows  []struct {
			Value  string         `json:"value"`
			Jitter string         `json:"jitter"`
			Totals map[string]any `json:"totals"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if js.Sweep != "clients" || len(js.Rows) != 4 || js.Rows[3].Value != "20" || js.Rows[3].Totals["makespan_s"] == nil {
		t.Errorf("sweep JSON: %+v", js)
	}
	code, out, _ = simRun(t, "--clients", "50", "--sweep", "clients=10,20")
	if code != 0 || !strings.Contains(out, "clients swept") || !strings.Contains(out, "calls/client") {
		t.Errorf("sweep text, exit %d:\n%s", code, out)
	}
}

func TestSimCSVTimeline(t *testing.T) {
	code, out, _ := simRun(t, "--clients", "10", "--format", "csv")
	if code != 0 || !strings.HasPrefix(out, "start_s,calls,retries,ok,rejected,blocked,waiting\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestSimBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--clients", "0"},
		{"--clients", "5000000"},
		{"--server", "mainframe"},
		{"--arrival", "sometimes"},
		{"--budget", "tokens:x"},
		{"--breaker", "ratio:7"},
		{"--latency", "-1s"},
		{"--runs", "0"},
		{"--format", "xml"},
		{"--jitter", "full,wobbly"},
		{"--sweep", "clients"},
		{"--sweep", "clients=1:1000000:1"},
		{"--sweep", "clients=0:10:5"},
		{"--sweep", "nonsense=1,2"},
		{"--outage-start", "20s", "--outage-end", "10s"},
		{"--base", "1 fortnight"},
		{"--nope"},
		{"extra"},
	} {
		code, out, errOut := simRun(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if out != "" || errOut == "" {
			t.Errorf("%v: stdout %q, stderr %q", args, out, errOut)
		}
	}
	code, _, errOut := simRun(t, "--clients", "0")
	if !strings.Contains(errOut, "clients") || !strings.Contains(errOut, "2000000") || code != 2 {
		t.Errorf("error does not name the field and range: %s", errOut)
	}
	if code, _, _ := simRun(t, "--help"); code != 0 {
		t.Errorf("--help: exit %d", code)
	}
}

// A job of hours: a year's outage with 200,000 clients of 1000 attempts
// a thousand times over, would run for hours: it is refused at once,
// before any run, with the estimate and the limit.
func TestSimRefusesTooMuchWork(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--clients", "200000", "--attempts", "1000", "--outage-end", "8760h", "--max-calls", "1000000000", "--runs", "1000"},
			"backoff: job too big: about 2.6e11 calls estimated (1000 runs x 2.6e8 calls per run), over the limit of 1.2e9 (about two minutes); " +
				"ask for fewer --runs, --clients, --attempts or sweep values, a shorter outage or --deadline, or a lower --max-calls\n"},
		{[]string{"--clients", "2000000", "--runs", "1000"}, "(1000 runs x 1.6e7 calls per run), over the limit of 1.2e9"},
		{[]string{"--sweep", "clients=1000000:2000000:2000"}, "(1 run x 501 rows x up to 1.6e7 calls per run), over the limit of 1.2e9"},
		// Ten million requests of up to six calls (to max-calls), a hundred times.
		{[]string{"--traffic", "open:100000", "--duration", "100s", "--runs", "100"},
			"(100 runs x 3e8 calls per run, a request-level call counting as 6), over the limit of 1.2e9"},
		// No attempt limit and nothing to stop it but max-calls.
		{[]string{"--attempts", "0", "--growth", "none", "--latency", "0", "--latency-sd", "0", "--outage-end", "8760h", "--runs", "100"},
			"(100 runs x 5e7 calls per run)"},
	} {
		var e bytes.Buffer
		j, err := parseSim(c.args, &e) // parses and estimates; runs nothing
		if err == nil {
			t.Errorf("%v accepted, %.3g calls estimated", c.args, j.calls)
			continue
		}
		code := exitCode(&e, err)
		if code != 2 || !strings.Contains(e.String(), c.msg) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, e.String(), c.msg)
		}
	}
	// End to end, the refusal comes at once.
	start := time.Now()
	code, out, _ := simRun(t, "--clients", "200000", "--attempts", "1000", "--outage-end", "8760h", "--max-calls", "1000000000", "--runs", "1000")
	if code != 2 || out != "" || time.Since(start) > 5*time.Second {
		t.Errorf("exit %d after %v, stdout %q", code, time.Since(start), out)
	}
}

// Jobs that take seconds are accepted.
func TestSimAcceptsNormalJobs(t *testing.T) {
	for _, args := range [][]string{
		// The README's sweep: the blog's figures.
		{"--preset", "aws-blog-full", "--server", "occ", "--latency", "10s", "--latency-sd", "2s",
			"--sweep", "clients=10:190:10", "--jitter", "no-backoff,none,full,equal,decorrelated", "--runs", "100"},
		{"--clients", "1000000", "--attempts", "10"},
		{"--clients", "2000000", "--runs", "10"},
		{"--sweep", "clients=100:100000:100"},
		// The request-level benchmark: a million requests, a second's work.
		{"--traffic", "open:10000", "--duration", "100s", "--server", "queue", "--concurrency", "100", "--service", "5ms",
			"--timeout", "1s", "--attempts", "3"},
		{"--traffic", "open:280", "--duration", "300s", "--server", "queue", "--concurrency", "30", "--timeout", "1s",
			"--attempts", "2", "--fault", "stall@20s-30s", "--sweep", "rate=100:280:20", "--runs", "10"},
	} {
		var e bytes.Buffer
		j, err := parseSim(args, &e)
		if err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if j.calls <= 0 || j.calls > maxJobCalls {
			t.Errorf("%v: %.3g calls estimated", args, j.calls)
		}
	}
}

// A sweep has at most maxSweepPoints points, and a range whose step does
// not move its value is refused, not followed forever.
func TestSimSweepRefusals(t *testing.T) {
	const rule = "want FROM:TO:STEP with finite numbers, FROM <= TO, STEP > 0 and at most 1000 points"
	for _, c := range []struct{ sweep, msg string }{
		{"clients=1e300:1e300:1", rule + " (STEP 1 does not change 1e300 in float64)"},
		{"latency=1:2:1e-300", rule + " (STEP 1e-300 does not change 1 in float64)"},
		{"clients=1:1000000:1", rule + " (this range has 1e6)"},
		{"clients=1:1e400:1", rule},
		{"clients=NaN:10:1", rule},
		{"clients=1:Inf:1", rule},
		{"clients=1:10:NaN", rule},
		{"clients=10:1:1", rule + " (TO 1 is below FROM 10)"},
		{"clients=1:10:-1", rule + " (STEP is -1)"},
		{"clients=1:10:0", rule + " (STEP is 0)"},
		{"clients=0:10:5", `want values each valid (clients: "0" is not valid: want a whole number from 1 to 2000000)`},
		{"clients=1" + strings.Repeat(",1", 1000), "want at most 1000 values (this list has 1001)"},
		{"nonsense=1,2", "want NAME=... with NAME one of clients, server, "},
		{"clients", "want NAME=FROM:TO:STEP or NAME=V1,V2,..."},
		{"=1,2", "want NAME=FROM:TO:STEP or NAME=V1,V2,..."},
	} {
		done := make(chan string, 1)
		go func() {
			_, _, errOut := simRun(t, "--sweep", c.sweep, "--format", "csv")
			done <- errOut
		}()
		select {
		case errOut := <-done:
			want := fmt.Sprintf("backoff: --sweep: %q is not valid: ", clip(c.sweep))
			if !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, c.msg) {
				t.Errorf("--sweep %s: %q; want %q...%q", clip(c.sweep), errOut, want, c.msg)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("--sweep %s: no answer after 10s", c.sweep)
		}
	}
}

// FuzzSimArgs: no command line makes 'backoff sim' panic; bad ones fail
// with a message. Runs are kept small by skipping big configs.
func FuzzSimArgs(f *testing.F) {
	f.Add("--clients", "20", "--jitter", "none,full")
	f.Add("--server", "occ", "--sweep", "clients=5:15:5")
	f.Add("--budget", "ratio:0.1:1", "--breaker", "consecutive:2:1s")
	f.Add("--arrival", "clock:3s", "--honor-retry-after", "--retry-after-s=2")
	f.Add("--preset", "aws-blog-decorrelated", "--attempts", "0")
	// Sweeps that once never ended, and their kin.
	f.Add("--sweep", "clients=1e300:1e300:1", "--runs", "1")
	f.Add("--sweep", "latency=1:2:1e-300", "", "")
	f.Add("--sweep", "clients=NaN:10:1", "--sweep", "clients=1:Inf:1")
	f.Add("--sweep", "clients=10:1:1", "--sweep", "clients=1:10:0")
	f.Add("--sweep", "clients=1:1e400:-1", "--seed", "-1")
	// Request-level runs.
	f.Add("--traffic", "open:200", "--server", "queue")
	f.Add("--traffic=loop:20:10ms", "--fault=stall@1s-2s", "--fault", "errors:0.5@2s-3s")
	f.Add("--sweep", "rate=100:300:100", "--timeout", "1s")
	f.Add("--hedge", "p90", "--budget", "adaptive")
	f.Add("--traffic", "open:10000000", "--duration", "1s")
	f.Add("--discipline=codel:1µs:0s", "--server=queue", "--traffic", "open:1000")
	f.Add("--admission", "sliding-window:100000:24h", "--server", "queue")
	f.Add("--admission=token-bucket:0.001:1", "--server=queue", "--honor-retry-after", "--traffic=loop:5:0s")
	// Input once taken silently, or refused naming another flag or late.
	f.Add("--drain", "--max-calls", "0", "")
	f.Add("--bucket", "1us", "--format", "json")
	f.Add("--preset", "ethernet", "--jitter", "equal")
	f.Add("--layers", "8", "--layer-timeout", "1ns")
	f.Add("--fault", "crash@1s-2s/1, 2", "--servers", "3")
	f.Add("--seed", "18446744073709551615", "--runs", "2")
	// Jobs too big to run, refused at once.
	f.Add("--clients", "200000", "--runs", "1000")
	f.Add("--attempts", "0", "--growth", "none")
	f.Fuzz(func(t *testing.T, a1, a2, a3, a4 string) {
		args := []string{a1, a2, a3, a4}
		var e bytes.Buffer
		j, err := parseSim(args, &e)
		if err != nil {
			if code := exitCode(&e, err); code != 0 && e.Len() == 0 {
				t.Fatalf("%q: exit %d with no message", args, code)
			}
			return
		}
		// Keep each run small.
		if j.calls > 200_000 {
			return
		}
		j.cfg.MaxCalls = min(j.cfg.MaxCalls, 20000)
		var o bytes.Buffer
		if err := j.run(&o, io.Discard); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	})
}

// A sweep on every core gives the rows a serial run gives, in its order.
func TestSweepParallelMatchesSerial(t *testing.T) {
	args := []string{"--preset", "aws-blog-full", "--server", "occ", "--latency", "10s", "--latency-sd", "2s",
		"--sweep", "clients=10:90:10", "--jitter", "none,full,equal", "--runs", "5", "--format", "json"}
	prev := runtime.GOMAXPROCS(1)
	_, serial, _ := simRun(t, args...)
	runtime.GOMAXPROCS(max(prev, 4))
	_, parallel, _ := simRun(t, args...)
	runtime.GOMAXPROCS(prev)
	if serial == "" || serial != parallel {
		t.Fatalf("a sweep on %d cores differs from the serial one:\n%s\n---\n%s", max(prev, 4), serial, parallel)
	}
}

// The metastable failure, as the CLI words it.
func TestSimRequestText(t *testing.T) {
	args := []string{"--traffic", "open:280", "--server", "queue", "--concurrency", "30", "--service", "100ms", "--duration", "300s",
		"--timeout", "1s", "--attempts", "2", "--fault", "stall@20s-30s", "--latency", "1ms", "--latency-sd", "0"}
	code, out, errOut := simRun(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"open traffic of 280 requests/s for 5m", "server queue (30 workers, 100ms exp)", "timeout 1s",
		"requests ", "goodput", "latency      p50", "p99.9", "wasted", "calls failed timed out",
		"verdict      did not recover after the stall: retries hold the offered load at 1.9x capacity", "stall\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = simRun(t, append(args, "--attempts", "1")...)
	if !strings.Contains(out, "verdict      recovered 2.7min after the stall ended (at 3.2min)") {
		t.Errorf("without retries:\n%s", out)
	}
}

// A request-level run's JSON has the contract keys, its CSV the
// request-level columns; a sweep of the rate shows the threshold.
func TestSimRequestFormats(t *testing.T) {
	args := []string{"--traffic", "open:100", "--server", "queue", "--concurrency", "30", "--duration", "60s", "--timeout", "1s",
		"--fault", "stall@10s-20s", "--fault", "errors:0.1@30s-40s", "--latency-sd", "0"}
	code, out, errOut := simRun(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Config   map[string]string `json:"config"`
		Totals   map[string]any    `json:"totals"`
		Faults   []map[string]any  `json:"faults"`
		Timeline []map[string]any  `json:"timeline"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"requests", "calls", "succeeded", "goodput_per_s", "throughput_per_s", "amplification", "success_ratio",
		"timeouts", "wasted_work_s", "latency_s", "hedges", "recovered_at_s"} {
		if _, ok := got.Totals[k]; !ok {
			t.Errorf("totals lack %q", k)
		}
	}
	for _, k := range []string{"goodput", "queue", "busy", "timeouts", "latency_p99_s"} {
		if _, ok := got.Timeline[0][k]; !ok {
			t.Errorf("buckets lack %q", k)
		}
	}
	if got.Config["fault"] != "stall@10s-20s;errors:0.1@30s-40s" || len(got.Faults) != 2 || got.Faults[0]["kind"] != "stall" {
		t.Errorf("faults: %q, %v", got.Config["fault"], got.Faults)
	}
	code, out, _ = simRun(t, append(args, "--format", "csv")...)
	head, _, _ := strings.Cut(out, "\n")
	if code != 0 || !strings.HasSuffix(head, strings.Join(requestColumns, ",")) {
		t.Errorf("CSV header %q", head)
	}
	code, out, errOut = simRun(t, "--traffic", "open:100", "--server", "queue", "--concurrency", "30", "--service", "100ms",
		"--duration", "300s", "--timeout", "1s", "--attempts", "2", "--fault", "stall@20s-30s", "--latency", "1ms", "--latency-sd", "0",
		"--sweep", "rate=120,160", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 3 {
		t.Fatalf("sweep: exit %d, %v, %q", code, err, errOut)
	}
	col := slices.Index(recs[0], "recovered_at_s")
	if recs[0][0] != "rate" || col < 0 || recs[1][col] == "" || recs[2][col] != "" {
		t.Errorf("sweep of the rate: %v", recs)
	}
}

// Chains, the channel and fairness in the CLI's text and JSON.
func TestSimChainsChannelFairness(t *testing.T) {
	code, out, errs := run(t, "sim", "--clients", "100", "--server", "capacity", "--error-rate", "1", "--layers", "5", "--layer-attempts", "3")
	if code != 0 || !strings.Contains(out, "by layer     3.00, 9.00, 27.00, 81.00, 243.00") || !strings.Contains(out, "calls        24300  (243.00 per request)") {
		t.Errorf("chain: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "sim", "--server", "channel", "--channel", "aloha", "--frame", "1ms", "--attempts", "1",
		"--traffic", "open:500", "--duration", "100s", "--format", "json")
	var j struct {
		Totals map[string]any `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil {
		t.Fatalf("channel json: exit %d, %v\n%s", code, err, errs)
	}
	g, _ := j.Totals["offered_load"].(float64)
	sv, _ := j.Totals["channel_throughput"].(float64)
	if math.Abs(g-0.5) > 0.01 || math.Abs(sv-0.5*math.Exp(-1)) > 0.005 {
		t.Errorf("ALOHA at G 0.5: offered_load %v, channel_throughput %v; want 0.5 and 1/(2e)", g, sv)
	}
	code, out, _ = run(t, "sim", "--server", "channel", "--channel", "ethernet", "--preset", "ethernet", "--frame", "51.2us",
		"--traffic", "loop:2", "--duration", "100ms", "--format", "json")
	var k struct {
		Totals    map[string]any   `json:"totals"`
		PerClient []map[string]any `json:"per_client"`
	}
	if err := json.Unmarshal([]byte(out), &k); code != 0 || err != nil || len(k.PerClient) != 2 {
		t.Fatalf("two stations: exit %d, %v, %d per-client outcomes", code, err, len(k.PerClient))
	}
	if jf, _ := k.Totals["jain_fairness"].(float64); jf > 0.52 || k.Totals["worst_client"] == nil {
		t.Errorf("two stations: jain_fairness %v, worst_client %v", k.Totals["jain_fairness"], k.Totals["worst_client"])
	}
}

// The herd's verdict in words, in the text and the JSON: without jitter
// or latency the four tries end at 7 s, 53 s before the server is back.
func TestHerdVerdictLine(t *testing.T) {
	exact := []string{"sim", "--jitter", "none", "--latency", "0", "--latency-sd", "0", "--capacity", "1000000"}
	for _, c := range []struct {
		args   []string
		text   string
		before float64 // gave_up_before_back_s, NaN for none
		lastOK float64 // last_success_s, NaN for none
	}{
		{[]string{"--clients", "500", "--attempts", "4", "--outage-end", "1m"},
			"verdict     All 500 clients gave up 53s before the server came back.", 53, math.NaN()},
		{[]string{"--clients", "500", "--attempts", "5", "--outage-end", "10s"},
			"verdict     The last client succeeded 5s after the outage ended (at 15s).", math.NaN(), 15},
	} {
		code, out, errOut := run(t, append(exact, c.args...)...)
		if code != 0 || !strings.Contains(out, c.text+"\n") {
			t.Errorf("%v: exit %d, no %q in:\n%s%s", c.args, code, c.text, out, errOut)
		}
		code, out, _ = run(t, append(append(exact, c.args...), "--format", "json")...)
		var got struct {
			Verdict struct {
				Text             string
				GaveUpBeforeBack *float64 `json:"gave_up_before_back_s"`
				LastSuccess      *float64 `json:"last_success_s"`
			}
		}
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
			t.Fatalf("%v: exit %d, %v", c.args, code, err)
		}
		v := got.Verdict
		match := func(p *float64, want float64) bool {
			return p == nil && math.IsNaN(want) || p != nil && math.Abs(*p-want) < 1e-9
		}
		if v.Text != strings.TrimPrefix(c.text, "verdict     ") || !match(v.GaveUpBeforeBack, c.before) || !match(v.LastSuccess, c.lastOK) {
			t.Errorf("%v: JSON verdict %+v", c.args, v)
		}
	}
	// A request-level run has its recovery verdict instead.
	_, out, _ := run(t, "sim", "--traffic", "open:10", "--duration", "5s", "--format", "json")
	if strings.Contains(out, `"verdict"`) {
		t.Errorf("a request-level run's JSON has a herd verdict")
	}
}
