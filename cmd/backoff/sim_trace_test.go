package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --trace writes one line per call with the documented keys: as many as
// the totals' calls, the requests with an ok line the successes, the
// scenario's outcomes counted as its totals count them.
func TestSimTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"fleet-crash", []string{"--scenario", "fleet-crash"}},
		{"herd", []string{"--clients", "200", "--capacity", "50"}},
		{"hedged", []string{"--traffic", "open:100", "--duration", "10s", "--server", "queue", "--concurrency", "8",
			"--service", "50ms", "--timeout", "300ms", "--hedge", "100ms", "--hedge-cancel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "calls.jsonl")
			code, out, errs := simRun(t, append(tc.args, "--trace", file, "--format", "json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var doc struct {
				Totals struct {
					Calls, Succeeded, Timeouts, Lost, Hedges int
				}
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			lines, ok, by := 0, map[float64]bool{}, map[string]int{}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				lines++
				var m map[string]any
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil || len(m) != 6 {
					t.Fatalf("line %d: %v %s", lines, err, sc.Text())
				}
				for _, k := range []string{"request", "try", "node", "sent_s", "done_s", "outcome"} {
					if _, has := m[k]; !has {
						t.Fatalf("line %d lacks %s: %s", lines, k, sc.Text())
					}
				}
				o := m["outcome"].(string)
				by[o]++
				if o == "ok" {
					ok[m["request"].(float64)] = true
				}
				if (o == "unfinished") != (m["done_s"] == nil) {
					t.Errorf("line %d: %s", lines, sc.Text())
				}
			}
			tt := doc.Totals
			if lines != tt.Calls || len(ok) != tt.Succeeded {
				t.Errorf("%d lines for %d calls; %d requests with ok for %d succeeded", lines, tt.Calls, len(ok), tt.Succeeded)
			}
			if tc.name == "fleet-crash" && (by["timeout"]+by["lost"] != tt.Timeouts || by["lost"] != tt.Lost || tt.Lost == 0) {
				t.Errorf("outcomes %v; timeouts %d, lost %d", by, tt.Timeouts, tt.Lost)
			}
			if tc.name == "hedged" && (by["cancelled"] == 0 || by["cancelled"] > tt.Hedges) {
				t.Errorf("outcomes %v; hedges %d", by, tt.Hedges)
			}
		})
	}
	code, _, errs := simRun(t, "--sweep", "clients=10,20", "--trace", filepath.Join(t.TempDir(), "x"))
	if code != 2 || !strings.Contains(errs, `--trace: "`) || !strings.Contains(errs, "not with --sweep") {
		t.Errorf("--trace with --sweep: exit %d %s", code, errs)
	}
	code, _, errs = simRun(t, "--trace", filepath.Join(t.TempDir(), "no", "such", "dir"))
	if code == 0 || !strings.Contains(errs, "no such file") {
		t.Errorf("--trace into no directory: exit %d %s", code, errs)
	}
	// "-" is standard input elsewhere (import -, --body-file -); here it
	// made a file named "-".
	code, out, errs := simRun(t, "--clients", "3", "--trace", "-")
	if code != 2 || errs != "backoff: --trace: \"-\" is not valid: want a file to write the calls to (standard output has the results)\n" || out != "" {
		t.Errorf("--trace -: exit %d %q %q", code, out, errs)
	}
	dir := t.TempDir()
	code, _, errs = simRun(t, "--clients", "3", "--trace", dir)
	if code != 1 || errs != "backoff: --trace: "+dir+": not a regular file\n" {
		t.Errorf("--trace into a directory: exit %d %q", code, errs)
	}
}
