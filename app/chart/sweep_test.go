package chart

import (
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// A sweep's lines sit where their values say: x from the first value to
// the last across the plot, y from 0; a missing result breaks its line;
// each line's marks are its own shape; the threshold is a band between
// the two values that bracket it.
func TestSweepChart(t *testing.T) {
	num := func(v float64) string { return i18n.En.Num(v) }
	lines := []SweepLine{
		{"full", []float64{100, 200, 300}, []float64{50, 100, 0}, []bool{true, true, true}, 150, 200},
		{"none", []float64{100, 200, 300}, []float64{25, 0, 75}, []bool{true, false, true}, 0, 0},
	}
	svg := Sweep(i18n.En, lines, "rate", "goodput", num, num, false)
	wellFormed(t, svg)
	// The plot runs from x 66 to 616 (8 units in from each margin), y
	// from 274 (0) up to 34 (100, the nice top of 100), under the key's
	// row, which names each line.
	paths := regexp.MustCompile(`<path class="([^"]*)" d="([^"]*)"`).FindAllStringSubmatch(svg, -1)
	got := map[string]string{}
	for _, p := range paths {
		got[p[1]] = p[2]
	}
	if d := got["sweep-line s0"]; d != "M66 154L341 34L616 274" {
		t.Errorf("line 0: %q", d)
	}
	if d := got["sweep-line s1"]; d != "M66 214M616 94" {
		t.Errorf("line 1, broken at 200: %q", d)
	}
	if d := got["sweep-line s0 sweep-mark"]; strings.Count(d, "M") != 3 || !strings.Contains(d, "A") {
		t.Errorf("line 0's marks, circles: %q", d)
	}
	if d := got["sweep-line s1 sweep-mark"]; strings.Count(d, "M") != 2 || !strings.Contains(d, "H") {
		t.Errorf("line 1's marks, squares: %q", d)
	}
	if d := got["threshold"]; d != "M203.5 34H341V274H203.5Z" {
		t.Errorf("threshold band: %q", d)
	}
	if strings.Count(svg, `class="key-label"`) != 2 || !strings.Contains(svg, `>full</text>`) || !strings.Contains(svg, `>none</text>`) {
		t.Errorf("key: %s", svg)
	}
	if !strings.Contains(svg, `aria-label="goodput against rate"`) || !strings.Contains(svg, "recovers up to 150") {
		t.Errorf("labels: %s", svg)
	}
	// Lines that agree share one band and one label.
	same := []SweepLine{lines[0], lines[0]}
	same[1].Name = "equal"
	if svg := Sweep(i18n.En, same, "rate", "goodput", num, num, false); strings.Count(svg, `class="threshold"`) != 1 || strings.Count(svg, "recovers up to") != 1 {
		t.Errorf("two lines, one threshold: %s", svg)
	}
	// A share's axis is 0 to 1 whatever the values; no threshold without
	// both ends.
	one := lines[:1]
	one[0].Hi = 150
	share := Sweep(i18n.Ru, one, "частота", "доля", num, num, true)
	if strings.Contains(share, `class="threshold`) || !strings.Contains(share, "доля; по горизонтали — частота") {
		t.Errorf("share: %s", share)
	}
	if empty := Sweep(i18n.En, []SweepLine{{"x", []float64{1}, []float64{1}, []bool{false}, 0, 0}}, "a", "b", num, num, false); !strings.Contains(empty, "No results to plot yet") {
		t.Errorf("empty: %s", empty)
	}
}
