package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
)

func TestExportText(t *testing.T) {
	for _, c := range []struct {
		args   []string
		target string
		policy func() backoff.Policy
	}{
		{[]string{"--to", "tenacity"}, "tenacity", backoff.Default},
		{[]string{"--to", "polly", "--preset", "grpc-retry"}, "polly", func() backoff.Policy {
			pr, _ := backoff.LookupPreset("grpc-retry")
			return pr.Policy
		}},
		{[]string{"--preset", "cenkalti", "--attempts", "4", "--to=grpc-json"}, "grpc-json", func() backoff.Policy {
			pr, _ := backoff.LookupPreset("cenkalti")
			pr.Policy.Attempts = 4
			return pr.Policy
		}},
	} {
		code, out, errOut := run(t, append([]string{"export"}, c.args...)...)
		want, err := export.To(c.target, c.policy())
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 || out != want.Text {
			t.Errorf("export %v: exit %d, stdout\n%s\nwant\n%s", c.args, code, out, want.Text)
		}
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if errOut == "" {
			lines = nil
		}
		if len(lines) != len(want.Warnings) {
			t.Fatalf("export %v: stderr %q, want %d warnings", c.args, errOut, len(want.Warnings))
		}
		for i, w := range want.Warnings {
			if lines[i] != "backoff: warning: "+w.Message+" ("+w.Code+")" {
				t.Errorf("export %v: stderr line %q for %+v", c.args, lines[i], w)
			}
		}
	}
}

func TestExportJSON(t *testing.T) {
	for _, c := range []struct {
		args     []string
		warnings bool
	}{
		{[]string{"--to", "go-cenkalti"}, false},
		{[]string{"--to", "envoy-yaml", "--preset", "aws-standard"}, true},
	} {
		code, out, errOut := run(t, append([]string{"export", "--format", "json"}, c.args...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatalf("bad JSON: %v\n%s", err, out)
		}
		if len(raw) != 3 || raw["target"] == nil || raw["snippet"] == nil || raw["warnings"] == nil {
			t.Fatalf("keys: %s", out)
		}
		var got struct {
			Target   string `json:"target"`
			Snippet  string `json:"snippet"`
			Warnings []struct {
				Code    string   `json:"code"`
				Args    []string `json:"args"`
				Message string   `json:"message"`
			} `json:"warnings"`
		}
		json.Unmarshal([]byte(out), &got)
		if got.Target != c.args[1] || !strings.Contains(got.Snippet, "Backoff Playground") || (len(got.Warnings) > 0) != c.warnings {
			t.Errorf("export %v: %+v", c.args, got)
		}
		if !c.warnings && string(raw["warnings"]) != "[]" {
			t.Errorf("no warnings should be [], got %s", raw["warnings"])
		}
		for _, w := range got.Warnings {
			if w.Code == "" || w.Message == "" || w.Args == nil {
				t.Errorf("warning %+v", w)
			}
		}
	}
}

// TestExportTargetErrors: a missing or unknown --to exits 2 naming the
// flag, the value and every target.
func TestExportTargetErrors(t *testing.T) {
	for _, args := range [][]string{
		{"export"},
		{"export", "--preset", "aws-standard"},
		{"export", "--to", "cenkalti"},
		{"export", "--to", ""},
		{"export", "--to", "Polly", "--format", "json"},
	} {
		code, out, errOut := run(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--to") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if len(args) > 2 && args[1] == "--to" && !strings.Contains(errOut, `"`+args[2]+`"`) {
			t.Errorf("%v: %q does not name the value", args, errOut)
		}
		for _, name := range export.TargetNames() {
			if !strings.Contains(errOut, name) {
				t.Errorf("%v: %q does not name %s", args, errOut, name)
			}
		}
	}
}

func TestExportBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--to", "polly", "--attempts", "99999"}, "--attempts"},
		{[]string{"--to", "polly", "--preset", "nope"}, "preset"},
		{[]string{"--to", "polly", "--format", "yaml"}, "--format"},
		{[]string{"--to", "polly", "--cap", "1ms"}, "--cap"},
		{[]string{"--to", "polly", "extra"}, "unexpected arguments"},
		{[]string{"--too", "polly"}, "-too"},
	} {
		code, out, errOut := run(t, append([]string{"export"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("export %v: exit %d, stdout %q, stderr %q; want exit 2 naming %s", c.args, code, out, errOut, c.want)
		}
	}
}

func TestExportHelp(t *testing.T) {
	code, out, errOut := run(t, "export", "--help")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, tg := range export.Targets() {
		if !strings.Contains(errOut, tg.Name) || !strings.Contains(errOut, tg.Version) {
			t.Errorf("help does not list %s %s:\n%s", tg.Name, tg.Version, errOut)
		}
	}
	if _, out, _ := run(t, "help"); !strings.Contains(out, "export") {
		t.Errorf("backoff help does not list export:\n%s", out)
	}
}

// TestExportEveryPreset: every preset goes to every target.
func TestExportEveryPreset(t *testing.T) {
	for _, name := range backoff.PresetNames() {
		for _, to := range export.TargetNames() {
			if code, out, errOut := run(t, "export", "--to", to, "--preset", name); code != 0 || out == "" {
				t.Errorf("export --to %s --preset %s: exit %d, stderr %q", to, name, code, errOut)
			}
		}
	}
}

// The simulator's flags: --budget grpc is gRPC's retryThrottling, --timeout
// Envoy's per_try_timeout; bad values are refused by flag, as sim refuses
// them; other budgets add nothing.
func TestExportSimFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string // in the snippet, or in stderr on failure
		not  string // absent from the snippet
	}{
		{[]string{"--to", "grpc-json", "--budget", "grpc:10:0.1"}, 0, "\"maxTokens\": 10,\n    \"tokenRatio\": 0.1", ""},
		{[]string{"--to", "grpc-json", "--budget", "grpc"}, 0, "\"maxTokens\": 10,", ""},
		{[]string{"--to", "grpc-json", "--budget", "tokens:500:5:1"}, 0, "methodConfig", "retryThrottling"},
		{[]string{"--to", "envoy-yaml", "--timeout", "2s"}, 0, "per_try_timeout: 2s", "timeout: 0s"},
		{[]string{"--to", "envoy-yaml"}, 0, "# timeout: left out, so Envoy's default 15s", "per_try_timeout"},
		{[]string{"--to", "grpc-json", "--budget", "grpc:0"}, 2, `--budget: "grpc:0" is not valid`, ""},
		{[]string{"--to", "envoy-yaml", "--timeout", "soon"}, 2, `--timeout: "soon" is not valid`, ""},
	} {
		code, out, errOut := run(t, append([]string{"export"}, c.args...)...)
		text := out
		if c.code != 0 {
			text = errOut
		}
		if code != c.code || !strings.Contains(text, c.want) || c.not != "" && strings.Contains(out, c.not) {
			t.Errorf("%v: exit %d, want %d with %q and without %q:\n%s%s", c.args, code, c.code, c.want, c.not, out, errOut)
		}
	}
}

// FuzzExportArgs runs 'backoff export' with arbitrary flags: any input
// ends with an exit code; on success a snippet or valid JSON; on failure
// a message; nothing panics.
func FuzzExportArgs(f *testing.F) {
	f.Add("--to tenacity --preset sidekiq")
	f.Add("--to grpc-json --attempts 0 --deadline 1m --format json")
	f.Add("--to envoy-yaml --base 0 --jitter none --growth none")
	f.Add("--to polly --jitter decorrelated --base 25h --cap 48h")
	f.Add("--to resilience4j --growth geometric --steps 4 --cap 10s")
	f.Add("--to go-aws --jitter additive --jitter-add-scaled --quantum 1s")
	f.Add("--to nope --base NaN")
	f.Add("--to grpc-json --budget grpc:10:0.1")
	f.Add("--to envoy-yaml --timeout 1s --budget grpc:1001")
	f.Add("--to envoy-yaml --timeout -1s --budget tokens")
	f.Fuzz(func(t *testing.T, s string) {
		args := append([]string{"export"}, strings.Fields(s)...)
		var o, e bytes.Buffer
		code := Run(args, strings.NewReader(""), &o, &e)
		help := o.Len() == 0 && strings.Contains(e.String(), "usage: backoff export")
		switch {
		case code == 0 && !help && o.Len() == 0:
			t.Fatalf("exit 0 with no snippet for %q", s)
		case code == 0 && strings.Contains(s, "json") && strings.HasPrefix(o.String(), "{") && !json.Valid(o.Bytes()):
			t.Fatalf("exit 0 with invalid JSON for %q", s)
		case code != 0 && e.Len() == 0:
			t.Fatalf("exit %d with no message for %q", code, s)
		case code != 0 && o.Len() > 0:
			t.Fatalf("exit %d with a snippet for %q", code, s)
		}
	})
}
