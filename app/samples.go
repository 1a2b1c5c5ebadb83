package app

import (
	"math"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Sample sizes: the dots on the delay chart and the runs behind the
// histogram of total wait.
const (
	dotClients  = 300
	histClients = 1500
)

// samples are seeded clients' delays under one policy, for the chart.
type samples struct {
	// Delays[i] are the delays before retry i+1 of the clients that reach it
	// (a deadline stops some runs early).
	Delays [][]float64
	// Totals are the histogram clients' total waits, in seconds.
	Totals []float64
}

// sampleSeed derives the chart's random stream from the page seed, apart
// from the table's, so the table's Sample column matches the CLI's.
func sampleSeed(seed uint64) uint64 { return seed ^ 0x5eed_d075 }

// sampleClients draws rows retries for each client with Policy.Step. A
// client stops at the first retry that would start past the deadline, as
// the table's totals do.
func sampleClients(p backoff.Policy, rows int, seed uint64) samples {
	r := backoff.NewRand(sampleSeed(seed))
	// Long schedules (up to 999 retries) get fewer clients, so a repaint
	// stays within a frame's budget of Step calls and dots.
	nDots, nHist := dotClients, histClients
	if rows > 0 {
		nDots = min(dotClients, max(20, 30000/rows))
		nHist = min(histClients, max(200, 200000/rows))
	}
	s := samples{Delays: make([][]float64, rows), Totals: make([]float64, nHist)}
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

// Log slider: positions 0..sliderSteps map to 10 ms .. 10 min.
const (
	sliderSteps = 1000
	sliderMin   = 10 * time.Millisecond
	sliderMax   = 10 * time.Minute
)

// sliderDuration maps a log slider position to a round duration (two
// significant digits), so dragging gives values people type.
func sliderDuration(pos int) time.Duration {
	pos = min(max(pos, 0), sliderSteps)
	lo, hi := sliderMin.Seconds(), sliderMax.Seconds()
	sec := lo * math.Pow(hi/lo, float64(pos)/sliderSteps)
	return backoff.Seconds(round2(sec))
}

// sliderPos is the inverse of sliderDuration, clamped to the slider's ends.
func sliderPos(d time.Duration) int {
	sec := d.Seconds()
	lo, hi := sliderMin.Seconds(), sliderMax.Seconds()
	if sec <= lo {
		return 0
	}
	if sec >= hi {
		return sliderSteps
	}
	return int(math.Round(math.Log(sec/lo) / math.Log(hi/lo) * sliderSteps))
}

// round2 rounds x > 0 to two significant digits.
func round2(x float64) float64 {
	if x <= 0 {
		return 0
	}
	e := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Round(x/e) * e
}

// The attempts slider covers the box's whole range: position 0 is 0 (no
// limit), 1..10 are 1..10 attempts, and 10..attemptsSteps climb on a log
// scale to backoff.MaxAttempts (1000).
const attemptsSteps = 100

// attemptsFromPos maps a slider position to a number of attempts.
func attemptsFromPos(pos int) int {
	switch {
	case pos <= 0:
		return 0
	case pos <= 10:
		return pos
	case pos >= attemptsSteps:
		return backoff.MaxAttempts
	}
	span := math.Log(float64(backoff.MaxAttempts) / 10)
	return int(math.Round(10 * math.Exp(span*float64(pos-10)/float64(attemptsSteps-10))))
}

// attemptsPos is the slider position closest to n attempts.
func attemptsPos(n int) int {
	switch {
	case n <= 0:
		return 0
	case n <= 10:
		return n
	case n >= backoff.MaxAttempts:
		return attemptsSteps
	}
	span := math.Log(float64(backoff.MaxAttempts) / 10)
	return 10 + int(math.Round(math.Log(float64(n)/10)/span*float64(attemptsSteps-10)))
}
