package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// The caller gives up after 10 s: the article's policy may start from at
// most 10/31 s.
func Example_solve() {
	Run([]string{"solve", "--for", "base", "--worst-total", "10s"}, strings.NewReader(""), os.Stdout, os.Stdout)
	Run([]string{"solve", "--for", "attempts", "--preset", "urllib3", "--expected-total", "1m"}, strings.NewReader(""), os.Stdout, os.Stdout)
	Run([]string{"solve", "--for", "cap", "--jitter", "none", "--worst-total", "2s"}, strings.NewReader(""), os.Stdout, os.Stdout)
	// Output:
	// base = 322.580645ms: the largest that keeps the worst total within 10s
	// policy: exponential: 322.580645ms * 2^(n-1), cap 30s before jitter; full jitter; 6 attempts = 5 retries
	// worst case 10s, expected 5s of waiting
	// preset: urllib3
	// attempts = 7: the largest that keeps the expected total within 1m
	// policy: exponential: 1s * 2^(n-1), cap 2m after jitter, first retry immediate; additive jitter + U[0, 500ms); 7 attempts = 6 retries
	// worst case 33.5s, expected 32.2s of waiting
	// backoff: --worst-total: "2s" is not valid: want at least 5s: the least total the other knobs allow, with cap at its least (1s)
}

func TestSolveCommand(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		value  string  // the knob's value in the JSON
		worst  float64 // the solved policy's worst total
		stderr string  // part of the message on failure
	}{
		{"base", []string{"--for", "base", "--worst-total", "10s"}, 0, "322.580645ms", 31 * 0.322580645, ""},
		{"factor", []string{"--for", "factor", "--jitter", "none", "--attempts", "3", "--worst-total", "5s"}, 0, "4", 5, ""},
		{"cap", []string{"--for", "cap", "--jitter", "none", "--worst-total", "20s"}, 0, "6.5s", 20, ""},
		{"attempts", []string{"--for", "attempts", "--worst-total", "1m"}, 0, "6", 31, ""},
		// Temporal: 1 2 4 ... 64 then 100 s each: 127 s in 7 retries.
		{"temporal attempts", []string{"--for", "attempts", "--preset", "temporal", "--worst-total", "3m"}, 0, "8", 127, ""},
		{"unreachable", []string{"--for", "cap", "--jitter", "none", "--worst-total", "2s"}, 2, "", 0, "at least 5s"},
		{"both targets", []string{"--for", "cap", "--worst-total", "2s", "--expected-total", "2s"}, 2, "", 0, "not both"},
		{"no target", []string{"--for", "cap"}, 2, "", 0, "--worst-total is missing"},
		{"no knob", []string{"--worst-total", "2s"}, 2, "", 0, "--for is missing"},
		{"bad knob", []string{"--for", "jitter", "--worst-total", "2s"}, 2, "", 0, "one of base, factor, cap, attempts"},
		{"knob without effect", []string{"--for", "factor", "--growth", "linear", "--worst-total", "2s"}, 2, "", 0, "factor does not change"},
		{"sampled", []string{"--for", "base", "--jitter", "decorrelated", "--expected-total", "2s"}, 2, "", 0, "sampled"},
		{"bad duration", []string{"--for", "base", "--expected-total", "soon"}, 2, "", 0, "--expected-total"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, append([]string{"solve", "--format", "json"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, errOut)
			}
			if c.code != 0 {
				if !strings.Contains(errOut, c.stderr) {
					t.Errorf("stderr %q does not say %q", errOut, c.stderr)
				}
				return
			}
			var got solveJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Value != c.value || math.Abs(got.Totals.Worst-c.worst) > 1e-9 {
				t.Errorf("value %s worst %g, want %s %g", got.Value, got.Totals.Worst, c.value, c.worst)
			}
			// The policy has the table's keys, and the table of that
			// policy agrees on the total.
			_, tab, _ := run(t, "table", "--format", "json", "--"+got.For, got.Value)
			var tj struct {
				Policy map[string]any `json:"policy"`
			}
			json.Unmarshal([]byte(tab), &tj)
			for k := range tj.Policy {
				if _, ok := got.Policy[k]; !ok && k != "preset" {
					t.Errorf("solve's policy lacks the table's key %q", k)
				}
			}
		})
	}
}

// FuzzSolveArgs runs 'backoff solve' with arbitrary flags: an exit code,
// a message on failure, valid JSON on success; nothing panics.
func FuzzSolveArgs(f *testing.F) {
	f.Add("--for base --worst-total 10s")
	f.Add("--for factor --expected-total 1m --jitter equal")
	f.Add("--for cap --worst-total 0s --preset polly-v2")
	f.Add("--for attempts --worst-total 8760h --growth none")
	f.Add("--for attempts --expected-total 1s --worst-total 1s")
	f.Add("--for base --worst-total -1s --deadline 5s")
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"solve", "--format", "json"}, strings.Fields(s)...)
		var o, e bytes.Buffer
		code := Run(args, strings.NewReader(""), &o, &e)
		help := o.Len() == 0 && strings.Contains(e.String(), "usage: backoff solve")
		if code == 0 && !help && !json.Valid(o.Bytes()) {
			t.Fatalf("exit 0 with invalid JSON for %q", s)
		}
		if code != 0 && e.Len() == 0 {
			t.Fatalf("exit %d with no message for %q", code, s)
		}
	})
}

// parseGoal alone: every target either parses into the range or names
// its flag.
func FuzzParseGoal(f *testing.F) {
	f.Add("base", "10s", "")
	f.Add("attempts", "", "1m")
	f.Add("cap", "1s", "1s")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, knob, worst, expected string) {
		g, err := parseGoal(knob, worst, expected)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty message")
			}
			return
		}
		if !contains(backoff.SolveKnobs, g.Knob) || g.Total < 0 || g.Total > backoff.MaxDeadline {
			t.Fatalf("parseGoal(%q, %q, %q) = %+v", knob, worst, expected, g)
		}
	})
}
