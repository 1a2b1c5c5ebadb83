package app

import (
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

func TestSliderMapping(t *testing.T) {
	if d := sliderDuration(0); d != sliderMin {
		t.Errorf("pos 0 = %v", d)
	}
	if d := sliderDuration(sliderSteps); d != sliderMax {
		t.Errorf("pos max = %v", d)
	}
	for pos := 0; pos <= sliderSteps; pos += 7 {
		d := sliderDuration(pos)
		if back := sliderPos(d); back < pos-3 || back > pos+3 {
			t.Errorf("pos %d -> %v -> pos %d", pos, d, back)
		}
		// Two significant digits: what people type.
		if s := backoff.FormatDuration(d); len(s) > 6 {
			t.Errorf("pos %d gives %s", pos, s)
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
