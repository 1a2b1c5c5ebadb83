package chart

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// A chart never gets more than MaxBuckets bars, and re-binning keeps every
// call.
func TestSeriesAtMost2000Buckets(t *testing.T) {
	r := &sim.Result{BucketWidth: 0.001, CapacityPerBucket: 2}
	var sum float64
	for i := range 10_001 {
		b := sim.Bucket{OK: i % 7, Rejected: i % 3}
		sum += float64(b.OK + b.Rejected)
		r.Timeline = append(r.Timeline, b)
	}
	h := SeriesOf(sim.Config{}, r)
	if len(h.OK) > MaxBuckets {
		t.Fatalf("%d buckets", len(h.OK))
	}
	var got float64
	for i := range h.OK {
		got += h.OK[i] + h.Rejected[i]
	}
	if got != sum || h.Width != 0.006 || h.Capacity != 12 {
		t.Errorf("rebinned: %v calls (want %v), width %v, capacity %v", got, sum, h.Width, h.Capacity)
	}
}

// One scale for all: the compare grid's series share one bucket width.
func TestCommonScale(t *testing.T) {
	a := Series{Width: 0.2, OK: []float64{1, 2, 3, 4, 5}, Rejected: make([]float64, 5), Capacity: 1}
	b := Series{Width: 0.5, OK: []float64{10, 20}, Rejected: make([]float64, 2), Capacity: 2.5}
	out, _, xMax := CommonScale([]Series{a, b, {}})
	if out[0].Width != 1 || out[1].Width != 1 {
		t.Fatalf("widths %v %v, want 1 and 1", out[0].Width, out[1].Width)
	}
	if out[0].OK[0] != 15 || out[1].OK[0] != 30 || out[1].Capacity != 5 || xMax != 1 {
		t.Errorf("rebinned %v %v cap %v xMax %v", out[0].OK, out[1].OK, out[1].Capacity, xMax)
	}
}

// A herd chart's text alternative states its data: the peak and when,
// the capacity, the outage, and when every call began to succeed.
func TestHerdSummary(t *testing.T) {
	h := Series{Width: 0.5, OK: []float64{0, 0, 4, 9, 3}, Rejected: []float64{20, 12, 5, 0, 0}, Capacity: 10, OutageEnd: 1}
	got := HerdSummary(i18n.En, h)
	want := ". Peak: 20 calls in the 500ms bucket at 0. Capacity: 10 calls per 500ms. Outage from 0 to 1s. Recovered at 1.5s: from then on every call succeeded; the last at 2.5s."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if svg := Herd(i18n.En, h, 0, 0, HerdWide, "Title"); !strings.Contains(svg, `aria-label="Title. Peak: 20 calls`) {
		t.Error("the chart's aria-label lacks its data")
	}
	h.Rejected[4] = 1
	if got := HerdSummary(i18n.Ru, h); !strings.Contains(got, "Вызовы отклонялись до самого конца, 2,5") {
		t.Errorf("still rejected at the end: %q", got)
	}
	if HerdSummary(i18n.En, Series{}) != "" {
		t.Error("no data, yet a summary")
	}
}

// The text alternative of a run's chart says what the page's verdict
// says, in both languages: aws-standard's clients all gave up 9.63 s
// before the server came back, where the timeline alone read "recovered
// at 428ms: from then on every call succeeded" (nobody called any more).
func TestHerdSummaryIsTheVerdict(t *testing.T) {
	c := sim.DefaultConfig()
	pr, err := backoff.LookupPreset("aws-standard")
	if err != nil {
		t.Fatal(err)
	}
	c.Policy = pr.Policy
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := sim.HerdVerdictOf(c, r)
	if !ok || !v.AllGaveUp() {
		t.Fatalf("aws-standard's run: %+v, want every client giving up", v)
	}
	for _, l := range i18n.Langs {
		got := HerdSummary(l, SeriesOf(c, r))
		if want := HerdVerdictText(l, v); !strings.HasSuffix(got, " "+want) {
			t.Errorf("%s: %q\nwant it to end with the verdict %q", l.Code(), got, want)
		}
		if strings.Contains(got, strings.SplitN(l.T("chart.desc-recovered"), "{", 2)[0]) {
			t.Errorf("%s: %q reads a recovery", l.Code(), got)
		}
	}
}
