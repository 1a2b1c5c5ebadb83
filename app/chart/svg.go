// Package chart draws the playground's charts as SVG strings: pure
// functions from plain data, with no go-app in them, so the page (through
// app.Raw), the server and the CLI draw the same picture from the same
// code. Every series is one <path> however many points it has: the cost of
// a repaint does not grow with the number of elements. Colours come from
// CSS classes (light and dark themes); words from the i18n catalog.
package chart

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/backoff-playground/playground/app/i18n"
)

const svgNS = "http://www.w3.org/2000/svg"

// The wide charts' bottom margin holds two rows of text, the tick labels
// and the axis title, each up to 20 units tall on a phone (playground.css).
const (
	wideBottom = 46
	wideTickDY = 18 // baseline of the tick labels below the plot
)

// Presenter mode's frames (HerdPresent, Strip's) are 400 units wide for
// text of 20 units: four time ticks, their baseline presentTickDY below the
// plot, and the title's presentTitleDY above it from the frame's left edge
// (at that size it is longer than the plot is wide), over the top label.
const (
	presentTicks   = 4
	presentTickDY  = 22
	presentTitleX  = 2
	presentTitleDY = 18
)

// frame is a chart's size and plot margins in SVG user units.
type frame struct {
	W, H                     float64
	Left, Right, Top, Bottom float64
}

func (f frame) plotW() float64 { return f.W - f.Left - f.Right }

// axis maps values to pixels, linearly or on a log scale.
type axis struct {
	lo, hi   float64 // value range
	p0, p1   float64 // pixel range (p0 at lo)
	log      bool
	llo, lhi float64
}

func newAxis(lo, hi, p0, p1 float64, log bool) axis {
	a := axis{lo: lo, hi: hi, p0: p0, p1: p1, log: log}
	if log {
		a.llo, a.lhi = math.Log10(lo), math.Log10(hi)
	}
	return a
}

func (a axis) at(v float64) float64 {
	var t float64
	if a.log {
		if v < a.lo {
			v = a.lo
		}
		t = (math.Log10(v) - a.llo) / (a.lhi - a.llo)
	} else {
		t = (v - a.lo) / (a.hi - a.lo)
	}
	if math.IsNaN(t) {
		t = 0
	}
	t = math.Min(math.Max(t, -0.02), 1.02)
	return a.p0 + t*(a.p1-a.p0)
}

// logTicks are the round times a log axis marks, in seconds: decades up to
// 10 s, then 1 min, 10 min, 1 h, 10 h, 1 day, 10 days, 100 days: never
// "100s" or "1000s", which people do not read as times.
var logTicks = []float64{1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 60, 600, 3600, 36000, 86400, 864000, 8640000}

// logRange widens [lo, hi] to the round ticks around it.
func logRange(lo, hi float64) (float64, float64) {
	a, b := logTicks[0], logTicks[len(logTicks)-1]
	for _, t := range logTicks {
		if t <= lo*1.0001 {
			a = t
		}
	}
	for i := len(logTicks) - 1; i >= 0; i-- {
		if logTicks[i] >= hi*0.9999 {
			b = logTicks[i]
		}
	}
	if b <= a {
		b = a * 10
	}
	return a, b
}

// ticks returns tick values: about n "nice" linear steps, or the round
// times of a log axis.
func (a axis) ticks(n int) []float64 {
	var out []float64
	if a.log {
		for _, v := range logTicks {
			if v >= a.lo*0.999 && v <= a.hi*1.001 {
				out = append(out, v)
			}
		}
		return out
	}
	step := niceStep((a.hi - a.lo) / float64(n))
	if step <= 0 {
		return []float64{a.lo}
	}
	for v := math.Ceil(a.lo/step) * step; v <= a.hi*1.0001; v += step {
		out = append(out, v)
	}
	return out
}

// timeSteps are the steps a time axis counts in, in seconds, from one
// second up: a minute is split into 15 or 30 s, an hour into 15 or 30 min,
// never into 1.67 min.
var timeSteps = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

// timeTicks are about n ticks of a linear time axis in seconds, at round
// times (below a second, 1, 2 or 5 times a power of ten; beyond a day,
// that many days).
func (a axis) timeTicks(n int) []float64 {
	step := timeStep((a.hi - a.lo) / float64(n))
	if !(step > 0) {
		return []float64{a.lo}
	}
	var out []float64
	for v := math.Ceil(a.lo/step) * step; v <= a.hi*1.0001; v += step {
		out = append(out, v)
	}
	return out
}

// phoneCharW is the width of a tick label's character in a wide chart's
// units on a phone, where its text is set at 21 units (playground.css)
// and a character takes about 0.58 of that: the widest a label is drawn.
const phoneCharW = 12.2

// fitTimeTicks are at most n round times along a whose labels (label's
// text, at phoneCharW a character) do not run into each other: fewer
// when long labels ("1 min 15 s") would.
func (a axis) fitTimeTicks(n int, label func(float64) string) []float64 {
	for ; ; n-- {
		t := a.timeTicks(n)
		if n <= 2 || len(t) < 2 {
			return t
		}
		widest := 0.0
		for _, v := range t {
			widest = math.Max(widest, phoneCharW*float64(len([]rune(label(v)))))
		}
		if widest+8 <= math.Abs(a.at(t[1])-a.at(t[0])) {
			return t
		}
	}
}

// timeStep rounds a raw step of seconds up to a round time: 1, 2 or 5
// times a power of ten below a second, then timeSteps, then whole days.
func timeStep(raw float64) float64 {
	if raw <= 1 {
		return niceStep(raw)
	}
	for _, s := range timeSteps {
		if s >= raw {
			return s
		}
	}
	return niceStep(raw/86400) * 86400
}

// niceTimeMax is the top of a linear time axis that shows v seconds: a
// whole number of its ticks' round step (5 min, where niceMax gave 5.55
// min and ticks of 1 min 40 s).
func niceTimeMax(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	s := timeStep(v / 5)
	return math.Ceil(v/s*0.9999) * s
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 0
	}
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / e; {
	case f <= 1:
		return e
	case f <= 2:
		return 2 * e
	case f <= 5:
		return 5 * e
	}
	return 10 * e
}

// niceMax rounds a positive maximum up to a nice number for an axis end.
func niceMax(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	s := niceStep(v / 5)
	return math.Ceil(v/s*0.9999) * s
}

// num prints a coordinate with at most one decimal.
func num(v float64) string { return string(appendNum(nil, v)) }

// appendNum appends v with at most one decimal, without fmt: a chart
// prints thousands of coordinates per repaint.
func appendNum(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, '0')
	}
	r := int64(math.Round(v * 10))
	if r < 0 {
		b = append(b, '-')
		r = -r
	}
	b = strconv.AppendInt(b, r/10, 10)
	if d := r % 10; d != 0 {
		b = append(b, '.', byte('0'+d))
	}
	return b
}

// pathData builds a path's d attribute.
type pathData []byte

// op appends one path command and its numbers.
func (d *pathData) op(c byte, vs ...float64) {
	*d = append(*d, c)
	for i, v := range vs {
		if i > 0 {
			*d = append(*d, ' ')
		}
		*d = appendNum(*d, v)
	}
}

// rect appends a closed rectangle from (x0, y0) to (x1, y1).
func (d *pathData) rect(x0, y0, x1, y1 float64) {
	d.op('M', x0, y0)
	d.op('H', x1)
	d.op('V', y1)
	d.op('H', x0)
	d.op('Z')
}

func (d pathData) String() string { return string(d) }

type svgWriter struct{ strings.Builder }

// open starts a chart; class is added to "chart" (chart-small for the
// small multiples, whose text the style sheet sizes apart: they are drawn
// at about their own width, the others at half of it on a phone).
func (w *svgWriter) open(f frame, class, label string) {
	fmt.Fprintf(w, `<svg xmlns="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" class="chart`, svgNS, num(f.W), num(f.H), html.EscapeString(label))
	if class != "" {
		w.WriteString(" " + class)
	}
	w.WriteString(`">`)
}

func (w *svgWriter) path(class, d string) {
	if d == "" {
		return
	}
	w.WriteString(`<path class="`)
	w.WriteString(class)
	w.WriteString(`" d="`)
	w.WriteString(d)
	w.WriteString(`"></path>`)
}

func (w *svgWriter) text(class string, x, y float64, anchor, s string) {
	fmt.Fprintf(w, `<text class="%s" x="%s" y="%s" text-anchor="%s">%s</text>`, class, num(x), num(y), anchor, html.EscapeString(s))
}

// xTick writes an x axis's label centred on x, or ending at the chart's
// right edge where centred it would run past it, as it is drawn on a
// phone (phoneCharW a character): "2 min" centred on the last tick of a
// plot that reaches near the edge was cut off.
func (w *svgWriter) xTick(f frame, x, y float64, s string) {
	if x+phoneCharW*float64(utf8.RuneCountInString(s))/2 > f.W {
		w.text("tick", f.W-1, y, "end", s)
		return
	}
	w.text("tick", x, y, "middle", s)
}

func (w *svgWriter) close() { w.WriteString(`</svg>`) }

func hline(x0, x1, y float64) string {
	var d pathData
	d.op('M', x0, y)
	d.op('H', x1)
	return d.String()
}

// yAxis draws horizontal grid lines and labels.
func (w *svgWriter) yAxis(f frame, a axis, n int, format func(float64) string) {
	w.yAxisAt(f, a, a.ticks(n), format)
}

// timeLeft is how far right of the frame's edge a time axis's plot starts
// (left, at least): room for its longest tick label at 11 units.
func timeLeft(l i18n.Lang, ticks []float64, left float64) float64 {
	for _, v := range ticks {
		left = math.Max(left, 6.4*float64(len([]rune(l.Seconds(v))))+10)
	}
	return left
}

// yAxisAt draws the y axis's grid and tick labels at ticks.
func (w *svgWriter) yAxisAt(f frame, a axis, ticks []float64, format func(float64) string) {
	var grid pathData
	for _, v := range ticks {
		y := a.at(v)
		grid.op('M', f.Left, y)
		grid.op('H', f.W-f.Right)
		w.text("tick", f.Left-6, y+4, "end", format(v))
	}
	w.path("grid", grid.String())
}
