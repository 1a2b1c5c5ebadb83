package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A run cut short says so, in the text and the JSON; requests still going
// at the end of a window are unfinished, not lost; a run whose memory
// fills is refused naming what to change.
func TestSimStops(t *testing.T) {
	code, out, errOut := run(t, "sim", "--traffic", "loop:1:0s", "--duration", "60s", "--error-rate", "1",
		"--budget", "adaptive", "--attempts", "1", "--max-calls", "5000", "--format", "json")
	var j struct {
		Truncated   bool     `json:"truncated"`
		TruncatedBy string   `json:"truncated_by"`
		StoppedAt   *float64 `json:"stopped_at_s"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || !j.Truncated || j.TruncatedBy != "calls" || j.StoppedAt == nil || *j.StoppedAt >= 60 {
		t.Errorf("calls cap: exit %d %s, %+v", code, errOut, j)
	}
	_, text, _ := run(t, "sim", "--traffic", "loop:1:0s", "--duration", "60s", "--error-rate", "1",
		"--budget", "adaptive", "--attempts", "1", "--max-calls", "5000")
	if !strings.Contains(text, "STOPPED EARLY at ") || !strings.Contains(text, "of 1m: --max-calls 5000 tries were made") {
		t.Errorf("calls cap, text:\n%s", text)
	}
	_, text, _ = run(t, "sim", "--traffic", "open:300", "--duration", "30s", "--server", "queue", "--concurrency", "10",
		"--service", "100ms", "--attempts", "1")
	if strings.Contains(text, "STOPPED") || !strings.Contains(text, "when --duration ended; --drain runs them") ||
		!strings.Contains(text, "goodput      100.0/s") {
		t.Errorf("the window, text:\n%s", text)
	}
	code, out, errOut = run(t, "sim", "--traffic", "open:10000000", "--duration", "1s", "--server", "queue",
		"--concurrency", "1", "--service", "1h")
	if code != 2 || out != "" || !strings.Contains(errOut, `backoff: --duration: "1s" is not valid: want at most `) ||
		!strings.Contains(errOut, "for a run within 512 MB of memory") {
		t.Errorf("a queue piling up: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--sweep", "rate=10:20:10"}, "with --traffic open:RATE (the traffic is closed)"},
		{[]string{"--preset", ""}, `--preset: "" is not valid: want one of `},
		{[]string{"--server", "channel", "--traffic", "open:10", "--fault", "stall@1s-2s"}, "with the channel server (stall has no meaning"},
	} {
		code, out, errOut := run(t, append([]string{"sim"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
	_, text, _ = run(t, "sim", "--latency", "0", "--timeout", "1s", "--clients", "10")
	if !strings.Contains(text, "latency 0s, timeout") {
		t.Errorf("--latency 0 keeps a spread:\n%s", text)
	}
}

// A bucket too fine for the run is widened, and the CLI says to what: the
// JSON's config echoes what was asked (1µs), bucket_s what the timeline
// holds. A width the run keeps is not remarked on.
func TestSimBucketWidened(t *testing.T) {
	code, out, errOut := run(t, "sim", "--bucket", "1us", "--format", "json")
	var j struct {
		Config map[string]string `json:"config"`
		Bucket float64           `json:"bucket_s"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Config["bucket"] != "1µs" || j.Bucket != 0.001 ||
		!strings.Contains(errOut, "--bucket 1µs gives this run more than 131072 buckets, the most one keeps: the timeline's are 1ms") {
		t.Errorf("--bucket 1us: exit %d, config bucket %q, bucket_s %g, stderr %q", code, j.Config["bucket"], j.Bucket, errOut)
	}
	if code, _, errOut := run(t, "sim", "--bucket", "100ms"); code != 0 || errOut != "" {
		t.Errorf("--bucket 100ms: exit %d, stderr %q", code, errOut)
	}
}

// Input the CLI once took silently, or refused naming a flag the user did
// not type or after running for seconds, is refused at once naming the
// flag given and what it may be.
func TestTypedRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		// Every try of 8 layers of 100 in flight at once: refused before
		// the run (it ran 9.9 s and then named --clients "10").
		{[]string{"sim", "--clients", "10", "--layers", "8", "--layer-attempts", "100", "--error-rate", "1", "--layer-timeout", "1ns"},
			`backoff: --layer-attempts: "100" is not valid: want at most 5 a layer with a layer timeout, to fit 512 MB`},
		{[]string{"sim", "--drain"}, `backoff: --drain: "true" is not valid: want false with closed traffic`},
		{[]string{"sim", "--server", "queue", "--drain=1"}, `backoff: --drain: "1" is not valid: want false with closed traffic`},
		{[]string{"sim", "--max-calls", "0"}, `backoff: --max-calls: "0" is not valid: want a whole number from 1 to 1000000000`},
		{[]string{"sim", "--servers", "3", "--server", "queue", "--fault", "crash@1s-2s/1,1"}, `backoff: --fault: "crash@1s-2s/1,1" is not valid`},
		{[]string{"sim", "--servers", "3", "--server", "queue", "--fault", "crash@1s-2s/1, 2"}, `backoff: --fault: "crash@1s-2s/1, 2" is not valid`},
		// The preset's quantum clashes with the jitter typed: blame --jitter.
		{[]string{"sim", "--preset", "ethernet", "--jitter", "equal"},
			`backoff: --jitter: "equal" is not valid: want a value that goes with the preset ethernet's --quantum 51.2µs (which wants 0s unless jitter is full or additive), or --quantum too`},
		{[]string{"table", "--base", "1h"}, `backoff: --base: "1h" is not valid: want a value that goes with the default policy's --cap 30s`},
		{[]string{"import", "--as", "nope", "-"}, `backoff: --as: "nope" is not valid: want one of tenacity,`},
		// A flag the run does not read: it ran without it and said
		// nothing (a capacity server "with" an outage ran without one).
		{[]string{"sim", "--server", "capacity", "--outage-start", "5s", "--outage-end", "20s"},
			`backoff: --outage-start: "5s" is not valid: want it left unset: only a run with the server model outage (this run's is capacity) reads it`},
		{[]string{"sim", "--queue-limit", "5"}, `backoff: --queue-limit: "5" is not valid: want it left unset: only a run with the server model queue (this run's is outage) reads it`},
		{[]string{"sim", "--traffic", "closed", "--duration", "1s"},
			`backoff: --duration: "1s" is not valid: want it left unset: only a run with open or loop traffic (--traffic open:RATE or loop:N) reads it`},
		{[]string{"sim", "--hedge-cancel"}, `backoff: --hedge-cancel: "true" is not valid: want it left unset: only a run with hedging (--hedge) reads it`},
		{[]string{"sim", "--cache-ttl", "2m"}, `backoff: --cache-ttl: "2m" is not valid: want it left unset: only a run with a cache (--cache-keys above 0) reads it`},
		{[]string{"sim", "--retry-other"}, `backoff: --retry-other: "true" is not valid: want it left unset: only a run with a fleet (--servers 2 or more) reads it`},
		{[]string{"sim", "--layer-timeout", "1s"}, `backoff: --layer-timeout: "1s" is not valid: want it left unset: only a run with a chain (--layers 2 or more) reads it`},
		{[]string{"sim", "--frame", "2ms"}, `backoff: --frame: "2ms" is not valid: want it left unset: only a run with the server model channel (this run's is outage) reads it`},
	} {
		code, out, errOut := run(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
	// What the same flags may be still runs.
	for _, args := range [][]string{
		{"sim", "--clients", "10", "--layers", "8", "--layer-attempts", "2", "--error-rate", "1", "--layer-timeout", "1ns"},
		{"sim", "--traffic", "open:10", "--duration", "2s", "--drain"},
		{"sim", "--drain=false"},
		{"sim", "--max-calls", "1"},
		{"sim", "--servers", "3", "--server", "queue", "--fault", "crash@1s-2s/3,1"},
		{"sim", "--preset", "ethernet", "--jitter", "equal", "--quantum", "0s"},
		{"sim", "--server", "capacity", "--outage-start", "0s"}, // the default: nothing changes
		{"sim", "--server", "queue", "--queue-limit", "5", "--traffic", "open:10", "--duration", "2s", "--hedge", "50ms", "--hedge-cancel"},
	} {
		if code, _, errOut := run(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

// A share short of all is never printed as 100.0%, nor one above none as
// 0.0%: 49,999,503 of 50,000,000 succeeded read "100.0%" beside 497
// unfinished.
func TestPercent(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1, "100.0%"}, {0, "0.0%"}, {0.5, "50.0%"}, {0.1, "10.0%"}, {0.12345, "12.3%"},
		{49999503.0 / 50000000, "99.999%"}, {0.9996, "99.96%"}, {0.0004, "0.04%"}, {1e-9, "0.000000%"},
	} {
		if got := percent(c.v); got != c.want {
			t.Errorf("percent(%g) = %s, want %s", c.v, got, c.want)
		}
	}
}
