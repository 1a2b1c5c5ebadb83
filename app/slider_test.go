package app

import (
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

func TestSliderMapping(t *testing.T) {
	if d := sliderDuration(0); d != sliderMin {
		t.Errorf("pos 0 = %v", d)
	}
	if d := sliderDuration(sliderSteps); d != sliderMax {
		t.Errorf("pos max = %v", d)
	}
	for pos := 0; pos <= sliderSteps; pos++ {
		d := sliderDuration(pos)
		if back := sliderPos(d); back != pos {
			t.Errorf("pos %d -> %v -> pos %d", pos, d, back)
		}
		// Every step moves the value shown (an arrow press).
		if pos > 0 && backoff.FormatDuration(d) == backoff.FormatDuration(sliderDuration(pos-1)) {
			t.Errorf("pos %d and %d both show %s", pos-1, pos, backoff.FormatDuration(d))
		}
		// Two significant digits: what people type.
		if s := backoff.FormatDuration(d); len(s) > 6 {
			t.Errorf("pos %d gives %s", pos, s)
		}
	}
}

// The values between two positions go to the nearer; the slider's
// count is what two digits from 10 ms to 10 min give: 90 a decade.
func TestSliderPositions(t *testing.T) {
	if sliderSteps != 90*4+51-1 { // 10ms..99ms, ..9.9s, ..99s, 100s..600s
		t.Errorf("%d steps", sliderSteps)
	}
	for _, c := range []struct {
		d   time.Duration
		pos time.Duration
	}{
		{time.Millisecond, sliderMin}, {time.Hour, sliderMax}, {1040 * time.Millisecond, time.Second},
		{1060 * time.Millisecond, 1100 * time.Millisecond}, {90 * time.Second, 90 * time.Second},
	} {
		if got := sliderDuration(sliderPos(c.d)); got != c.pos {
			t.Errorf("%v: position of %v, want %v", c.d, got, c.pos)
		}
	}
}

// The attempts slider reaches every end of the box's range, and the
// position of a number of attempts gives it back.
func TestAttemptsSlider(t *testing.T) {
	if attemptsFromPos(0) != 0 || attemptsFromPos(attemptsSteps) != backoff.MaxAttempts {
		t.Fatalf("ends: %d, %d", attemptsFromPos(0), attemptsFromPos(attemptsSteps))
	}
	for n := 0; n <= 10; n++ {
		if attemptsFromPos(attemptsPos(n)) != n {
			t.Errorf("%d attempts -> pos %d -> %d", n, attemptsPos(n), attemptsFromPos(attemptsPos(n)))
		}
	}
	prev := -1
	for pos := 0; pos <= attemptsSteps; pos++ {
		if n := attemptsFromPos(pos); n <= prev {
			t.Errorf("pos %d gives %d, not above pos %d's %d", pos, n, pos-1, prev)
		} else {
			prev = n
		}
	}
}
