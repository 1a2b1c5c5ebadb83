package backoff

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// goldenTables prints every preset's seeded table. The same file is
// compared natively and under WebAssembly (make test-wasm), so the core
// gives the same numbers in both. Nine significant digits: enough to see
// any real difference, few enough that a last-ulp difference of math.Exp on
// one platform cannot show.
func goldenTables() string {
	var b strings.Builder
	for _, pr := range Presets() {
		p := pr.Policy
		if p.Attempts == 0 {
			p.Attempts = 13
		}
		t, err := NewTable(p, NewRand(2026))
		if err != nil {
			fmt.Fprintf(&b, "%s: error %v\n", pr.Name, err)
			continue
		}
		fmt.Fprintf(&b, "%s mc=%v paths=%d cap_row=%d total=%.9g/%.9g/%.9g\n", pr.Name, t.MonteCarlo, t.Paths, t.CapRow,
			t.Total.Min, t.Total.Mean, t.Total.Max)
		for _, r := range t.Rows {
			fmt.Fprintf(&b, "  %d %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %v\n", r.Retry, r.Nominal, r.Min, r.Max,
				r.Mean, r.P50, r.P95, r.Sample, r.CumMin, r.CumMean, r.CumMax, r.Capped)
		}
	}
	return b.String()
}

func TestGoldenTables(t *testing.T) {
	const path = "testdata/tables.golden"
	got := goldenTables()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./backoff -run TestGoldenTables -update natively to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("seeded tables differ from %s at line %d:\n got  %s\n want %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("seeded tables differ from %s in length: %d vs %d lines", path, len(gl), len(wl))
	}
}
