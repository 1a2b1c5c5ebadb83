package app

import (
	"testing"

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
		s := sampleClients(p, len(t.Rows), 1)
		delayChartSVG(i18n.En, delaySeries{t, s}, nil, false)
		histogramSVG(i18n.En, s.Totals, t.Total, nil)
	}
}

func BenchmarkHerd1000(b *testing.B) {
	b.ReportAllocs()
	c := sim.DefaultConfig()
	for b.Loop() {
		r, _ := sim.Run(c, 1)
		herdSVG(i18n.En, seriesOf(r), 0, 0, false, "")
	}
}
