package importer_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

// exportFormat is the import format of each export target.
var exportFormat = map[string]string{
	"go-cenkalti": "cenkalti", "go-aws": "aws-sdk-go-v2", "grpc-json": "grpc", "envoy-yaml": "envoy",
	"polly": "polly", "tenacity": "tenacity", "resilience4j": "resilience4j",
}

// TestRoundTrip exports every preset to every target and imports the
// snippet back: the format is detected, and the imported policy's table
// is the table of the schedule the snippet runs (the export's Effective
// policy, which is the preset itself when the export was exact): the
// same rows, bounds, means and totals.
func TestRoundTrip(t *testing.T) {
	for _, target := range export.TargetNames() {
		if exportFormat[target] == "" {
			t.Errorf("export target %s has no import format", target)
		}
	}
	for _, pr := range backoff.Presets() {
		for _, target := range export.TargetNames() {
			s, err := export.To(target, pr.Policy)
			if err != nil {
				t.Fatalf("%s to %s: %v", pr.Name, target, err)
			}
			res, err := importer.Parse(s.Text)
			if err != nil {
				t.Errorf("%s to %s: import: %v\n%s", pr.Name, target, err, s.Text)
				continue
			}
			if res.Format != exportFormat[target] {
				t.Errorf("%s to %s: detected %s", pr.Name, target, res.Format)
			}
			// A value the export moved into the library's range, and
			// resilience4j's whole milliseconds, are said in a warning
			// only: Effective does not hold them, so such a snippet's
			// table is compared by its rows' count only. (Envoy's
			// Effective holds its whole milliseconds: it is compared.)
			loose := false
			for _, w := range s.Warnings {
				loose = loose || w.Code == export.CodeRange || w.Code == export.CodeRounding && target == "resilience4j"
			}
			if diff := tableDiff(res.Policy, s.Effective, loose); diff != "" {
				t.Errorf("%s to %s (exact: %v): %s\n imported: %s\n exported: %s", pr.Name, target, len(s.Warnings) == 0, diff,
					res.Policy.Describe(), s.Effective.Describe())
			}
		}
	}
}

// tableDiff compares two policies' tables: every row's min, max and (for
// closed forms) mean, and the totals.
//
// Rows whose delays pass 1e8 s (three years) are not compared: the core
// clamps a nominal delay at 1e9 s before jitter, so two ways of writing
// the same spread (base 1s, d*U[1,10) and base 5.5s, d*U[0.18,1.82))
// part there.
func tableDiff(a, b backoff.Policy, loose bool) string {
	opt := backoff.TableOptions{MeanError: 0.5, MinRuns: 2, MaxDraws: 4096}
	ta, err := backoff.NewTableWith(a, backoff.NewRand(1), opt)
	if err != nil {
		return "imported: " + err.Error()
	}
	tb, err := backoff.NewTableWith(b, backoff.NewRand(1), opt)
	if err != nil {
		return "exported: " + err.Error()
	}
	if len(ta.Rows) != len(tb.Rows) || ta.Unlimited != tb.Unlimited {
		return "rows: " + itoa(len(ta.Rows)) + " vs " + itoa(len(tb.Rows))
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(x), math.Abs(y)) }
	if loose {
		return ""
	}
	for i, ra := range ta.Rows {
		rb := tb.Rows[i]
		if ra.Max > 1e8 || rb.Max > 1e8 {
			return ""
		}
		if !near(ra.Min, rb.Min) || !near(ra.Max, rb.Max) || ra.PastDeadline != rb.PastDeadline {
			return "retry " + itoa(ra.Retry) + ": min/max " + backoff.FormatSeconds(ra.Min) + "/" + backoff.FormatSeconds(ra.Max) +
				" vs " + backoff.FormatSeconds(rb.Min) + "/" + backoff.FormatSeconds(rb.Max)
		}
		if !ta.MonteCarlo && !tb.MonteCarlo && !near(ra.Mean, rb.Mean) {
			return "retry " + itoa(ra.Retry) + ": mean " + backoff.FormatSeconds(ra.Mean) + " vs " + backoff.FormatSeconds(rb.Mean)
		}
	}
	if !near(ta.Total.Min, tb.Total.Min) || !near(ta.Total.Max, tb.Total.Max) {
		return "totals differ"
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRoundTripFloor: a floor goes to tenacity as min= and comes back as
// the same table where tenacity's waits take it (no jitter, full, and
// additive without a cap after it); elsewhere the export says it dropped
// it, and the import reads back the schedule the snippet runs.
func TestRoundTripFloor(t *testing.T) {
	s := time.Second
	base := backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 10 * s, Floor: 4 * s, Attempts: 6}
	for _, c := range []struct {
		jitter  backoff.Jitter
		cap     time.Duration
		capMode backoff.CapMode
		exact   bool
	}{
		{backoff.NoJitter, 10 * s, backoff.CapBeforeJitter, true},
		{backoff.Full, 10 * s, backoff.CapBeforeJitter, true},
		{backoff.Full, 0, backoff.CapBeforeJitter, true},
		{backoff.Additive, 10 * s, backoff.CapBeforeJitter, true},
		{backoff.Additive, 0, backoff.CapAfterJitter, true},
		{backoff.Additive, 10 * s, backoff.CapAfterJitter, false},
		{backoff.Equal, 10 * s, backoff.CapBeforeJitter, false},
	} {
		p := base
		p.Jitter, p.Cap, p.CapMode, p.JitterAdd = c.jitter, c.cap, c.capMode, 2*s
		for _, target := range export.TargetNames() {
			snip, err := export.To(target, p)
			if err != nil {
				t.Fatal(err)
			}
			dropped := slices.ContainsFunc(snip.Warnings, func(w export.Warning) bool {
				return w.Code == export.CodeDropped && w.Args[0] == backoff.ParamFloor
			})
			if want := !(target == "tenacity" && c.exact); dropped != want {
				t.Errorf("%s, %+v: floor dropped %v, want %v\n%s", target, c, dropped, want, snip.Text)
			}
			if target == "tenacity" && c.exact && !strings.Contains(snip.Text, "min=4") {
				t.Errorf("%+v: no min=4 in\n%s", c, snip.Text)
			}
			res, err := importer.Parse(snip.Text)
			if err != nil {
				t.Fatalf("%s %+v: %v\n%s", target, c, err, snip.Text)
			}
			if target == "tenacity" && c.exact && res.Policy.Floor != p.Floor {
				t.Errorf("%+v: imported floor %v", c, res.Policy.Floor)
			}
			if diff := tableDiff(res.Policy, snip.Effective, false); diff != "" {
				t.Errorf("%s %+v: %s\n imported: %s\n exported: %s\n%s", target, c, diff, res.Policy.Describe(), snip.Effective.Describe(), snip.Text)
			}
			if target == "tenacity" && c.exact {
				if diff := tableDiff(res.Policy, p, false); diff != "" {
					t.Errorf("%+v: exact export, yet %s", c, diff)
				}
			}
		}
	}
}
