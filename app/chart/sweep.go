package chart

import (
	"math"
	"slices"

	"github.com/backoff-playground/playground/app/i18n"
)

// SweepLine is one line of a sweep's chart: its name (a jitter kind, a
// policy) and its points, x the swept value and y the result; a point
// whose result the run has not (ok false) is a gap in the line.
type SweepLine struct {
	Name string
	X, Y []float64
	Ok   []bool
	// Lo and Hi, when Lo < Hi, are the line's threshold: the largest
	// value found to recover and the smallest found not to.
	Lo, Hi float64
}

// SweepMarks are the shapes of a sweep's lines, in turn: the lines differ
// in shape and dash as well as colour.
var sweepMarks = []string{"circle", "square", "triangle", "diamond", "cross"}

// Sweep draws a sweep's result against its knob: one line per series,
// each point marked with its line's shape, the y axis from 0 (a share
// from 0 to 1). A line's threshold (Lo < Hi, both finite) is a band, in
// its colour, between the last value that recovered and the first that
// did not. xTitle and yTitle label the axes; yFormat writes the result's
// ticks, xFormat the knob's (a tick it writes as "" is left out).
func Sweep(l i18n.Lang, lines []SweepLine, xTitle, yTitle string, xFormat, yFormat func(float64) string, share bool) string {
	f := frame{W: 640, H: 300, Left: 58, Right: 16, Top: 14, Bottom: wideBottom}
	if len(lines) > 1 {
		f.Top, f.H = 34, 320 // a row for the key
	}
	var w svgWriter
	w.open(f, "sweep", l.F("chart.sweep", yTitle, xTitle))
	xlo, xhi, yhi := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range lines {
		for i, x := range s.X {
			if !s.Ok[i] {
				continue
			}
			xlo, xhi, yhi = math.Min(xlo, x), math.Max(xhi, x), math.Max(yhi, s.Y[i])
		}
	}
	if math.IsInf(xlo, 1) {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.sweep-empty"))
		w.close()
		return w.String()
	}
	if xhi == xlo {
		xlo, xhi = xlo-1, xhi+1
	}
	yhi = niceMax(yhi)
	if share || yhi <= 0 {
		yhi = 1
	}
	xa := newAxis(xlo, xhi, f.Left+8, f.W-f.Right-8, false)
	ya := newAxis(0, yhi, f.H-f.Bottom, f.Top, false)
	// A band per distinct threshold, labelled once: lines that agree
	// share it (the list beside the chart names each line's).
	var bands [][2]float64
	for _, s := range lines {
		lo, hi := s.Lo, s.Hi
		if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || slices.Contains(bands, [2]float64{lo, hi}) {
			continue
		}
		bands = append(bands, [2]float64{lo, hi})
	}
	for k, b := range bands {
		var band pathData
		band.rect(xa.at(math.Max(b[0], xlo)), f.Top, xa.at(math.Min(b[1], xhi)), f.H-f.Bottom)
		w.path("threshold", band.String())
		w.text("threshold-label", xa.at(math.Max(b[0], xlo)), f.Top+12+float64(k)*13, "end", l.F("chart.sweep-threshold", xFormat(b[0]))+" ")
	}
	w.yAxis(f, ya, 5, yFormat)
	for _, v := range xa.ticks(6) {
		if t := xFormat(v); t != "" {
			w.xTick(f, xa.at(v), f.H-f.Bottom+wideTickDY, t)
		}
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-6, "middle", xTitle)
	if len(lines) > 1 {
		sweepKey(&w, f, lines)
	}
	for k, s := range lines {
		var line, marks pathData
		pen := false
		for i, x := range s.X {
			if !s.Ok[i] {
				pen = false
				continue
			}
			px, py := xa.at(x), ya.at(s.Y[i])
			if pen {
				line.op('L', px, py)
			} else {
				line.op('M', px, py)
			}
			pen = true
			markAt(&marks, sweepMarks[k%len(sweepMarks)], px, py)
		}
		cls := "sweep-line s" + string(rune('0'+k%len(sweepMarks)))
		w.path(cls, line.String())
		w.path(cls+" sweep-mark", marks.String())
	}
	w.close()
	return w.String()
}

// sweepKey names the lines in a row above the plot: each line's stroke
// and mark, then its name.
func sweepKey(w *svgWriter, f frame, lines []SweepLine) {
	x, y := f.Left, 14.0
	for k, s := range lines {
		var line, mark pathData
		line.op('M', x, y)
		line.op('L', x+22, y)
		markAt(&mark, sweepMarks[k%len(sweepMarks)], x+11, y)
		cls := "sweep-line s" + string(rune('0'+k%len(sweepMarks)))
		w.path(cls, line.String())
		w.path(cls+" sweep-mark", mark.String())
		w.text("key-label", x+28, y+4, "start", s.Name)
		// About 7 units a character at the chart's type size.
		x += 28 + 7*float64(len([]rune(s.Name))) + 18
	}
}

// markAt adds a point's mark of shape at (x, y), about 7 units across.
func markAt(d *pathData, shape string, x, y float64) {
	const r = 3.5
	switch shape {
	case "square":
		d.rect(x-r, y-r, x+r, y+r)
	case "triangle":
		d.op('M', x, y-r)
		d.op('L', x+r, y+r)
		d.op('L', x-r, y+r)
		d.op('Z')
	case "diamond":
		d.op('M', x, y-r)
		d.op('L', x+r, y)
		d.op('L', x, y+r)
		d.op('L', x-r, y)
		d.op('Z')
	case "cross":
		d.op('M', x-r, y-r)
		d.op('L', x+r, y+r)
		d.op('M', x-r, y+r)
		d.op('L', x+r, y-r)
	default: // a circle, as two arcs
		d.op('M', x-r, y)
		d.op('A', r, r, 0, 1, 0, x+r, y)
		d.op('A', r, r, 0, 1, 0, x-r, y)
	}
}
