package app

import (
	"math"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

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
// limit), then one attempt per step up to the point where a log scale to
// backoff.MaxAttempts (1000) at attemptsSteps climbs faster, and that log
// scale from there: every position a different number, small ones exact.
const attemptsSteps = 100

// attemptsFromPos maps a slider position to a number of attempts.
func attemptsFromPos(pos int) int {
	switch {
	case pos <= 10:
		return max(pos, 0)
	case pos >= attemptsSteps:
		return backoff.MaxAttempts
	}
	span := math.Log(float64(backoff.MaxAttempts) / 10)
	logScale := int(math.Round(10 * math.Exp(span*float64(pos-10)/float64(attemptsSteps-10))))
	return max(pos, logScale)
}

// attemptsPos is the first slider position that reaches n attempts.
func attemptsPos(n int) int {
	for pos := 0; pos < attemptsSteps; pos++ {
		if attemptsFromPos(pos) >= n {
			return pos
		}
	}
	return attemptsSteps
}
