package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
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

func TestSimRefusesTooMuchWork(t *testing.T) {
	for _, args := range [][]string{
		{"--clients", "2000000", "--runs", "1000"},
		{"--sweep", "clients=1000000:2000000:1000"},
	} {
		code, _, errOut := simRun(t, args...)
		if code != 2 || !strings.Contains(errOut, "at most") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
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
		if j.clientRuns() > 5000 || j.cfg.Policy.Attempts == 0 {
			return
		}
		j.cfg.MaxCalls = min(j.cfg.MaxCalls, 20000)
		var o bytes.Buffer
		if err := j.run(&o); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	})
}
