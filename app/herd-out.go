package app

import (
	"math"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// herdOut gathers one policy's herd runs over seeds: the first run (its
// timeline is drawn), every run's totals, and per bucket the sums and the
// extremes of the calls answered, for the means and their spread. Runs
// after the first record with the first's bucket width, so buckets line
// up; a run longer than the first adds buckets that the others lack (they
// count as 0 there).
type herdOut struct {
	cfg    sim.Config // the runs' (their seeds aside)
	first  *sim.Result
	totals []sim.Totals
	ok     []float64 // sums over runs, per bucket
	rej    []float64
	lo, hi []float64 // fewest and most calls answered in a bucket, over runs
}

func (o *herdOut) runs() int { return len(o.totals) }

// add records one run.
func (o *herdOut) add(r *sim.Result) {
	if o.first == nil {
		o.first = r
	}
	n := len(o.totals)
	o.totals = append(o.totals, r.Totals)
	for len(o.ok) < len(r.Timeline) {
		o.ok, o.rej = append(o.ok, 0), append(o.rej, 0)
		// A bucket the earlier runs did not reach had 0 calls in them.
		o.lo, o.hi = append(o.lo, 0), append(o.hi, 0)
	}
	for i := range o.ok {
		var v float64
		if i < len(r.Timeline) {
			b := r.Timeline[i]
			o.ok[i] += float64(b.OK)
			o.rej[i] += float64(b.Rejected)
			v = float64(b.OK + b.Rejected)
		}
		if n == 0 || i >= len(o.lo) {
			o.lo[i], o.hi[i] = v, v
			continue
		}
		o.lo[i], o.hi[i] = math.Min(o.lo[i], v), math.Max(o.hi[i], v)
	}
}

// series is what the chart draws: the first run's timeline when there is
// one run, else the mean per bucket with its range over the runs.
func (o *herdOut) series() chart.Series {
	if o == nil || o.first == nil {
		return chart.Series{}
	}
	if o.runs() < 2 {
		return chart.SeriesOf(o.cfg, o.first)
	}
	n := float64(o.runs())
	h := chart.SeriesOf(o.cfg, o.first)
	h.OK, h.Rejected = make([]float64, len(o.ok)), make([]float64, len(o.ok))
	for i := range o.ok {
		h.OK[i], h.Rejected[i] = o.ok[i]/n, o.rej[i]/n
	}
	h.Lo, h.Hi = append([]float64(nil), o.lo...), append([]float64(nil), o.hi...)
	if len(h.OK) > chart.MaxBuckets {
		h = chart.Rebin(h, h.Width*float64((len(h.OK)+chart.MaxBuckets-1)/chart.MaxBuckets))
	}
	return h
}

// stat is one metric over the runs: its mean and standard deviation, and
// how many runs had a value (completion times need a success).
type stat struct {
	mean, sd float64
	n        int
}

// stat is the metric f over the runs that have it (has nil: all).
func (o *herdOut) stat(f func(sim.Totals) float64, has func(sim.Totals) bool) stat {
	var s stat
	var sum, sq float64
	for _, t := range o.totals {
		if has != nil && !has(t) {
			continue
		}
		v := f(t)
		s.n++
		sum += v
		sq += v * v
	}
	if s.n == 0 {
		return s
	}
	s.mean = sum / float64(s.n)
	if s.n > 1 {
		s.sd = math.Sqrt(math.Max(0, (sq-sum*sum/float64(s.n))/float64(s.n-1)))
	}
	return s
}

// herdImage is the herd card's picture of o as one SVG (chart.RunImage).
func herdImage(l i18n.Lang, c sim.Config, o *herdOut) string {
	return chart.RunImage(l, c, o.first, o.series())
}
