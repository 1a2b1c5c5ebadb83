package app

import (
	"testing"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The pieces of one slider move, for finding where a frame goes.

func BenchmarkTable(b *testing.B) {
	b.ReportAllocs()
	p := backoff.Default()
	for b.Loop() {
		backoff.NewTable(p, backoff.NewRand(1))
	}
}

func BenchmarkDelayChart(b *testing.B) {
	b.ReportAllocs()
	p := backoff.Default()
	t, _ := backoff.NewTable(p, backoff.NewRand(1))
	for b.Loop() {
		s := chart.SampleClients(p, len(t.Rows), 1)
		chart.Delays(i18n.En, chart.DelaySeries{T: t, S: s}, nil, false)
		chart.Histogram(i18n.En, s.Totals, t.Total, nil)
	}
}

func BenchmarkHerd1000(b *testing.B) {
	b.ReportAllocs()
	c := sim.DefaultConfig()
	for b.Loop() {
		r, _ := sim.Run(c, 1)
		chart.Herd(i18n.En, chart.SeriesOf(c, r), 0, 0, chart.HerdWide, "")
	}
}
