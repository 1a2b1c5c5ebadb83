package chart

import (
	"github.com/backoff-playground/playground/backoff"
)

// Sample sizes: the dots on the delay chart and the runs behind the
// histogram of total wait.
const (
	DotClients  = 300
	histClients = 1500
)

// samples are seeded clients' delays under one policy, for the chart.
type Samples struct {
	// Delays[i] are the delays before retry i+1 of the clients that reach it
	// (a deadline stops some runs early).
	Delays [][]float64
	// Totals are the histogram clients' total waits, in seconds.
	Totals []float64
}

// sampleSeed derives the chart's random stream from the page seed, apart
// from the table's, so the table's Sample column matches the CLI's.
func sampleSeed(seed uint64) uint64 { return seed ^ 0x5eed_d075 }

// SampleClients draws rows retries for each client with Policy.Step. A
// client stops at the first retry that would start past the deadline, as
// the table's totals do.
func SampleClients(p backoff.Policy, rows int, seed uint64) Samples {
	r := backoff.NewRand(sampleSeed(seed))
	// Long schedules (up to 999 retries) get fewer clients, so a repaint
	// stays within a frame's budget of Step calls and dots.
	nDots, nHist := DotClients, histClients
	if rows > 0 {
		nDots = min(DotClients, max(20, 30000/rows))
		nHist = min(histClients, max(200, 200000/rows))
	}
	s := Samples{Delays: make([][]float64, rows), Totals: make([]float64, nHist)}
	for i := range s.Delays {
		s.Delays[i] = make([]float64, 0, nDots)
	}
	deadline := p.Deadline.Seconds()
	limited := p.Deadline > 0
	for c := 0; c < nHist; c++ {
		var st backoff.State
		var cum float64
		for n := 1; n <= rows; n++ {
			var d float64
			d, st = p.Step(n, st, r.Float64())
			if limited && cum+d > deadline {
				break
			}
			cum += d
			if c < nDots {
				s.Delays[n-1] = append(s.Delays[n-1], d)
			}
		}
		s.Totals[c] = cum
	}
	return s
}
