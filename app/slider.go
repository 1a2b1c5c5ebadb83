package app

import (
	"math"
	"slices"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Log slider: one position per duration of two significant digits from
// 10 ms to 10 min (10ms, 11ms, ... 99ms, 100ms, 110ms, ... 9.9s, 10s, 11s,
// ... 590s, 600s), so that every arrow press moves the value shown: a
// slider of 1000 even log steps rounded to two digits needed up to ten
// presses between two values.
const (
	sliderMin = 10 * time.Millisecond
	sliderMax = 10 * time.Minute
)

// sliderValues are the slider's durations, ascending; sliderSteps is its
// last position.
var sliderValues = func() []time.Duration {
	var out []time.Duration
	for unit := sliderMin / 10; ; unit *= 10 {
		for m := time.Duration(10); m < 100; m++ {
			d := m * unit
			if d > sliderMax {
				return out
			}
			out = append(out, d)
		}
	}
}()

var sliderSteps = len(sliderValues) - 1

// sliderDuration is the duration at a slider position.
func sliderDuration(pos int) time.Duration {
	return sliderValues[min(max(pos, 0), sliderSteps)]
}

// sliderPos is the position nearest d (on a log scale), clamped to the
// slider's ends.
func sliderPos(d time.Duration) int {
	i, _ := slices.BinarySearch(sliderValues, d)
	switch {
	case i == 0:
		return 0
	case i > sliderSteps:
		return sliderSteps
	}
	// d lies between positions i-1 and i: the nearer by ratio.
	if math.Log(float64(d)/float64(sliderValues[i-1])) < math.Log(float64(sliderValues[i])/float64(d)) {
		return i - 1
	}
	return i
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
