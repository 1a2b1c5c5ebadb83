package app

// Charts as SVG strings: pure functions from plain data, so the page (via
// app.Raw), the server and the tests draw the same picture. Every series is
// one <path> however many points it has: the cost of a repaint does not
// grow with the number of elements. Colours come from CSS classes (light and
// dark themes).

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

const svgNS = "http://www.w3.org/2000/svg"

// The wide charts' bottom margin holds two rows of text, the tick labels
// and the axis title, each up to 20 units tall on a phone (playground.css).
const (
	wideBottom = 46
	wideTickDY = 18 // baseline of the tick labels below the plot
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

func (w *svgWriter) close() { w.WriteString(`</svg>`) }

func hline(x0, x1, y float64) string {
	var d pathData
	d.op('M', x0, y)
	d.op('H', x1)
	return d.String()
}

// yAxis draws horizontal grid lines and labels.
func (w *svgWriter) yAxis(f frame, a axis, n int, format func(float64) string) {
	var grid pathData
	for _, v := range a.ticks(n) {
		y := a.at(v)
		grid.op('M', f.Left, y)
		grid.op('H', f.W-f.Right)
		w.text("tick", f.Left-6, y+4, "end", format(v))
	}
	w.path("grid", grid.String())
}

// delaySeries is one policy's delays for the chart: its table and sampled
// clients.
type delaySeries struct {
	T *backoff.Table
	S samples
}

// delayChartSVG draws, per retry, the min–max range as a bar, the mean as a
// line, the seeded clients' delays as dots, and the cap. With a second
// policy (b, may be nil) each retry's slot holds both, A on the left and
// B on the right, on one axis.
//
// On a log axis a zero delay (full jitter's best case) cannot sit on the
// scale: it is drawn on its own line below the axis's floor, labelled 0.
//
// It also reports whether a cap line was drawn (a cap above the axis is
// not), so the legend names only what the chart shows.
func delayChartSVG(l i18n.Lang, a delaySeries, b *delaySeries, log bool) (string, bool) {
	f := frame{W: 640, H: 310, Left: 58, Right: 12, Top: 14, Bottom: wideBottom}
	var w svgWriter
	w.open(f, "", l.T("chart.delays"))
	all := []delaySeries{a}
	if b != nil {
		all = append(all, *b)
	}
	n := 0
	for _, d := range all {
		n = max(n, len(d.T.Rows))
	}
	if n == 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-retries"))
		w.close()
		return w.String(), false
	}
	hi, lo := 0.0, math.Inf(1)
	consider := func(v float64) {
		hi = math.Max(hi, v)
		if v > 0 {
			lo = math.Min(lo, v)
		}
	}
	hasZero := false
	for _, d := range all {
		for _, r := range d.T.Rows {
			consider(r.Max)
			consider(r.Min)
			consider(r.Mean)
			hasZero = hasZero || r.Min <= 0
		}
		for _, ds := range d.S.Delays {
			for _, v := range ds {
				consider(v)
			}
		}
	}
	if hi <= 0 {
		hi = 1
	}
	var ya axis
	zeroY := f.H - f.Bottom // where a zero delay is drawn
	if log {
		if math.IsInf(lo, 1) || lo >= hi {
			lo = hi / 10
		}
		lo = math.Max(lo, hi/1e6)
		lo, hi = logRange(lo, hi)
		floor := f.H - f.Bottom
		if hasZero {
			floor -= 14
		}
		ya = newAxis(lo, hi, floor, f.Top, true)
	} else {
		hasZero = false // a linear axis has its own 0
		ya = newAxis(0, niceMax(hi), f.H-f.Bottom, f.Top, false)
	}
	w.yAxis(f, ya, 5, l.Seconds)
	y := func(v float64) float64 {
		if hasZero && v <= 0 {
			return zeroY
		}
		return ya.at(v)
	}
	if hasZero {
		w.text("tick", f.Left-6, zeroY+4, "end", l.T("chart.zero"))
		w.path("grid zero", hline(f.Left, f.W-f.Right, zeroY))
	}
	slot := f.plotW() / float64(n)
	half := math.Min(slot*0.35, 18)
	if len(all) > 1 {
		half = math.Min(slot*0.2, 12)
	}
	// x is the centre of series k's bar at retry i.
	x := func(k, i int) float64 {
		c := f.Left + (float64(i)+0.5)*slot
		if len(all) > 1 {
			c += (float64(k) - 0.5) * slot / 2
		}
		return c
	}
	for k, d := range all {
		suffix := ""
		if k == 1 {
			suffix = " series-b"
		}
		var band, mean, meanLine pathData
		dots := make(pathData, 0, 16*len(d.T.Rows)*dotClients)
		for i, r := range d.T.Rows {
			cx := x(k, i)
			y0, y1 := y(r.Min), y(r.Max)
			if y0-y1 < 1.5 { // a fixed delay: still show a visible bar
				y0, y1 = y0+0.75, y1-0.75
			}
			band.rect(cx-half, y1, cx+half, y0)
			my := y(r.Mean)
			mean.op('M', cx-half, my)
			mean.op('H', cx+half)
			if i == 0 {
				meanLine.op('M', cx, my)
			} else {
				meanLine.op('L', cx, my)
			}
		}
		for i, ds := range d.S.Delays {
			if i >= len(d.T.Rows) {
				break
			}
			cx := x(k, i)
			for j, v := range ds {
				// Spread the dots across the bar (golden-ratio sequence) so
				// they read as a distribution, not a line.
				off := (math.Mod(float64(j)*0.618033988749895, 1) - 0.5) * 1.6 * half
				dots.op('M', cx+off, y(v))
				dots = append(dots, 'h', '0')
			}
		}
		w.path("band"+suffix, band.String())
		w.path("dots"+suffix, dots.String())
		w.path("mean-line"+suffix, meanLine.String())
		w.path("mean"+suffix, mean.String())
	}
	caps := map[float64]bool{}
	for k, d := range all {
		p := d.T.Policy
		if p.Cap <= 0 {
			continue
		}
		c := p.Cap.Seconds() + p.Offset.Seconds()
		if c > ya.hi || caps[c] {
			continue
		}
		caps[c] = true
		cy := ya.at(c)
		label := l.F("chart.cap", l.Seconds(p.Cap.Seconds()))
		if !p.CapBoundsDelay() {
			label = l.F("chart.cap-before", l.Seconds(p.Cap.Seconds()))
		}
		if len(all) > 1 {
			label = []string{"A: ", "B: "}[k] + label
		}
		w.path("cap", hline(f.Left, f.W-f.Right, cy))
		w.text("cap-label", f.W-f.Right-4, cy-4-float64(k)*14, "end", label)
	}
	// Retry numbers, thinned to about 16 labels.
	every := max(1, (n+15)/16)
	for i := 0; i < n; i += every {
		w.text("tick", f.Left+(float64(i)+0.5)*slot, f.H-f.Bottom+wideTickDY, "middle", l.Int(int64(i+1)))
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.retry"))
	w.close()
	return w.String(), len(caps) > 0
}

// histogramSVG draws the distribution of the total wait of sampled clients,
// with the table's mean and worst case marked. The marks' labels sit in a
// row above the bars, so they never cover them or each other.
//
// With a second policy's totals (totalsB, may be nil), their distribution
// is drawn as an outline on the same axes.
func histogramSVG(l i18n.Lang, totals []float64, tot backoff.Totals, totalsB []float64) string {
	f := frame{W: 640, H: 194, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
	var w svgWriter
	w.open(f, "", l.T("chart.hist"))
	hi := tot.Max
	for _, v := range totals {
		hi = math.Max(hi, v)
	}
	for _, v := range totalsB {
		hi = math.Max(hi, v)
	}
	if !(hi > 0) || len(totals) == 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.hist-zero"))
		w.close()
		return w.String()
	}
	xa := newAxis(0, niceMax(hi), f.Left, f.W-f.Right, false)
	const bins = 40
	width := xa.hi / bins
	binned := func(vs []float64) []float64 {
		counts := make([]float64, bins)
		for _, v := range vs {
			b := int(v / width)
			counts[min(max(b, 0), bins-1)]++
		}
		// Shares, not counts: the two policies' samples may differ in size.
		for i := range counts {
			counts[i] /= float64(max(len(vs), 1))
		}
		return counts
	}
	counts := binned(totals)
	var countsB []float64
	if len(totalsB) > 0 {
		countsB = binned(totalsB)
	}
	peak := 0.0
	for i, c := range counts {
		peak = math.Max(peak, c)
		if countsB != nil {
			peak = math.Max(peak, countsB[i])
		}
	}
	ya := newAxis(0, peak, f.H-f.Bottom, f.Top, false)
	var bars pathData
	for i, c := range counts {
		if c == 0 {
			continue
		}
		x0, x1 := xa.at(float64(i)*width), xa.at(float64(i+1)*width)
		y := ya.at(c)
		bars.rect(x0+0.5, y, x1-0.5, f.H-f.Bottom)
	}
	w.path("grid", hline(f.Left, f.W-f.Right, f.H-f.Bottom))
	w.path("hist", bars.String())
	if countsB != nil {
		// The second policy as a step outline over the first's bars.
		var out pathData
		out.op('M', xa.at(0), f.H-f.Bottom)
		for i, c := range countsB {
			out.op('V', ya.at(c))
			out.op('H', xa.at(float64(i+1)*width))
		}
		out.op('V', f.H-f.Bottom)
		w.path("hist-b", out.String())
	}
	xm, xw := xa.at(tot.Mean), xa.at(tot.Max)
	for _, m := range []struct {
		class string
		x     float64
	}{{"mark-mean", xm}, {"mark-max", xw}} {
		var d pathData
		d.op('M', m.x, f.Top-4)
		d.op('V', f.H-f.Bottom)
		w.path(m.class, d.String())
	}
	meanText := l.F("chart.hist-mean", l.Seconds(tot.Mean))
	worstText := l.F("chart.hist-worst", l.Seconds(tot.Max))
	meanEnd, worstX, worstAnchor := labelSpans(xm, xw, textWidth(meanText), textWidth(worstText), f.W)
	y := f.Top - 9
	w.text("mark-mean-label", meanEnd, y, "end", meanText)
	w.text("mark-max-label", worstX, y, worstAnchor, worstText)
	for _, v := range xa.ticks(6) {
		w.text("tick", xa.at(v), f.H-f.Bottom+wideTickDY, "middle", l.Seconds(v))
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.hist-axis"))
	w.close()
	return w.String()
}

// textWidth is an upper bound of a label's width in user units: a wide
// chart's text is set at up to 20 units on a phone (playground.css).
func textWidth(s string) float64 { return 11 * float64(len([]rune(s))) }

// labelSpans places two labels on one row, each beside its own mark (xa <=
// xb): the first ends just left of xa; the second starts just right of xb,
// or ends just left of it when it would pass right. The first then moves
// left of the second if they would meet, and stays inside x >= 0 (which may
// push a right-hand second label further right, when both marks are near
// the left end). It returns the first's end, the second's x and anchor.
func labelSpans(xa, xb, wa, wb, right float64) (aEnd, bX float64, bAnchor string) {
	const gap = 4
	bX, bAnchor = xb+gap, "start"
	bStart := bX
	if bX+wb > right {
		bX, bAnchor = xb-gap, "end"
		bStart = bX - wb
	}
	aEnd = math.Max(math.Min(xa-gap, bStart-2*gap), wa)
	if bAnchor == "start" {
		bX = math.Max(bX, aEnd+2*gap)
	}
	return aEnd, bX, bAnchor
}

// herdSeries is a herd timeline as plain numbers (from sim.Result).
type herdSeries struct {
	Width       float64   // bucket width, seconds
	OK          []float64 // calls that succeeded, per bucket
	Rejected    []float64 // calls rejected, per bucket
	Capacity    float64   // calls per bucket the server can take
	OutageStart float64
	OutageEnd   float64
	// Lo and Hi, when set, are the fewest and most calls answered per
	// bucket over several runs (OK and Rejected are then their means).
	Lo, Hi []float64
}

func (h herdSeries) peak() float64 {
	var p float64
	for i := range h.OK {
		p = math.Max(p, h.OK[i]+h.Rejected[i])
	}
	return p
}

// scalePeak is the peak the y axis should fit: the first bucket is left out
// when it towers over the rest (every client's first call at once is the
// same in every scenario, and would flatten the retries that differ).
func (h herdSeries) scalePeak() float64 {
	if len(h.OK) < 2 {
		return h.peak()
	}
	var rest float64
	for i := 1; i < len(h.OK); i++ {
		rest = math.Max(rest, h.OK[i]+h.Rejected[i])
	}
	if first := h.OK[0] + h.Rejected[0]; first > 1.5*rest {
		return math.Max(rest, h.Capacity*1.1)
	}
	return math.Max(h.peak(), h.Capacity*1.1)
}

func (h herdSeries) end() float64 { return float64(len(h.OK)) * h.Width }

// herdSVG draws calls per bucket stacked (succeeded below, rejected above),
// the capacity line and the outage shaded. yMax and xMax fix the scales so
// small multiples compare; 0 means fit the data.
//
// Every bar taller than the y axis (a shared scale cuts the first burst)
// is clipped at the top and marked: an arrow with the first such bar's
// height.
func herdSVG(l i18n.Lang, h herdSeries, yMax, xMax float64, small bool, label string) string {
	f := frame{W: 640, H: 282, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
	class := ""
	if small {
		f = frame{W: 320, H: 170, Left: 44, Right: 8, Top: 22, Bottom: 24}
		class = "chart-small"
	}
	var w svgWriter
	w.open(f, class, label)
	if len(h.OK) == 0 || h.Width <= 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-calls"))
		w.close()
		return w.String()
	}
	if yMax <= 0 {
		yMax = h.scalePeak()
	}
	if xMax <= 0 {
		xMax = h.end()
	}
	ya := newAxis(0, niceMax(yMax), f.H-f.Bottom, f.Top, false)
	xa := newAxis(0, xMax, f.Left, f.W-f.Right, false)
	if h.OutageEnd > h.OutageStart {
		x0, x1 := xa.at(h.OutageStart), xa.at(math.Min(h.OutageEnd, xMax))
		var d pathData
		d.rect(x0, f.Top, x1, f.H-f.Bottom)
		w.path("outage", d.String())
	}
	w.yAxis(f, ya, 4, l.Compact)
	var ok, rej pathData
	base := f.H - f.Bottom
	for i := range h.OK {
		t0 := float64(i) * h.Width
		if t0 >= xMax {
			break
		}
		x0, x1 := xa.at(t0), xa.at(t0+h.Width)
		if x1-x0 > 2 {
			x1 -= 0.4 // hairline gap between wide bars
		}
		yo := ya.at(h.OK[i])
		yr := ya.at(h.OK[i] + h.Rejected[i])
		if h.OK[i] > 0 {
			ok.rect(x0, yo, x1, base)
		}
		if h.Rejected[i] > 0 {
			rej.rect(x0, yr, x1, yo)
		}
	}
	w.path("ok", ok.String())
	if len(h.Lo) == len(h.OK) && len(h.Hi) == len(h.OK) {
		// Several runs: a whisker per bucket from the fewest calls answered
		// to the most.
		var spread pathData
		for i := range h.Lo {
			t := (float64(i) + 0.5) * h.Width
			if t >= xMax || h.Hi[i] <= 0 {
				continue
			}
			spread.op('M', xa.at(t), ya.at(h.Lo[i]))
			spread.op('V', ya.at(math.Min(h.Hi[i], ya.hi)))
		}
		w.path("spread", spread.String())
	}
	if len(rej) > 0 {
		// Rejected calls are hatched as well as coloured, so they differ
		// from the succeeded ones without colour too. Pattern ids are per
		// chart (several charts share the page).
		id := hatchID(label)
		w.WriteString(`<defs><pattern id="` + id + `" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">` +
			`<rect class="hatch-bg" width="5" height="5"></rect><path class="hatch-line" d="M0 0V5"></path></pattern></defs>`)
		w.WriteString(`<path class="rejected" fill="url(#` + id + `)" d="`)
		w.WriteString(rej.String())
		w.WriteString(`"></path>`)
	}
	// Bars taller than the axis are clipped at its top: mark each with a
	// notch, and say how tall the first is (more labels would pile up).
	var notches pathData
	labelled := false
	for i := range h.OK {
		v := h.OK[i] + h.Rejected[i]
		if v > ya.hi*1.02 && float64(i)*h.Width < xMax {
			x0, x1 := xa.at(float64(i)*h.Width), xa.at(float64(i+1)*h.Width)
			notches.rect(x0, f.Top-3, math.Max(x1, x0+2), f.Top)
			if !labelled {
				w.text("clipped", (x0+x1)/2+3, f.Top+10, "start", "↑"+l.Compact(v))
				labelled = true
			}
		}
	}
	w.path("clipped-mark", notches.String())
	if h.Capacity > 0 && h.Capacity <= ya.hi {
		cy := ya.at(h.Capacity)
		w.path("capacity", hline(f.Left, f.W-f.Right, cy))
		if !small {
			w.text("capacity-label", f.W-f.Right-4, cy-4, "end", l.T("chart.capacity"))
		}
	}
	tickY := f.H - f.Bottom + wideTickDY
	if small {
		tickY = f.H - f.Bottom + 15
	}
	for _, v := range xa.ticks(map[bool]int{false: 8, true: 4}[small]) {
		w.text("tick", xa.at(v), tickY, "middle", l.Seconds(v))
	}
	if small {
		w.text("small-title", f.Left, 14, "start", label)
	} else {
		w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.time-axis"))
		w.text("axis-label", f.Left, f.Top-10, "start", l.F("chart.bucket-axis", l.Seconds(h.Width)))
	}
	w.close()
	return w.String()
}

// hatchID names a chart's hatch pattern after its label (FNV-1a), so the
// same chart gets the same id on the server and in the browser.
func hatchID(label string) string {
	h := uint32(2166136261)
	for i := 0; i < len(label); i++ {
		h = (h ^ uint32(label[i])) * 16777619
	}
	return "hatch-" + strconv.FormatUint(uint64(h), 36)
}
