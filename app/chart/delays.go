package chart

import (
	"math"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// DelaySeries is one policy's delays for the chart: its table and sampled
// clients.
type DelaySeries struct {
	T *backoff.Table
	S Samples
}

// Delays draws, per retry, the min–max range as a bar, the mean as a
// line, the seeded clients' delays as dots, and the cap. With a second
// policy (b, may be nil) each retry's slot holds both, A on the left and
// B on the right, on one axis.
//
// On a log axis a zero delay (full jitter's best case) cannot sit on the
// scale: it is drawn on its own line below the axis's floor, labelled 0.
//
// It also reports whether a cap line was drawn (a cap above the axis is
// not), so the legend names only what the chart shows.
func Delays(l i18n.Lang, a DelaySeries, b *DelaySeries, log bool) (string, bool) {
	f := frame{W: 640, H: 310, Left: 58, Right: 12, Top: 14, Bottom: wideBottom}
	var w svgWriter
	w.open(f, "", l.T("chart.delays"))
	all := []DelaySeries{a}
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
		ya = newAxis(0, niceTimeMax(hi), f.H-f.Bottom, f.Top, false)
	}
	// Round times (30 s, 1 min), and room for the longest.
	ticks := ya.ticks(5)
	if !log {
		ticks = ya.timeTicks(5)
	}
	f.Left = timeLeft(l, ticks, f.Left)
	w.yAxisAt(f, ya, ticks, l.Seconds)
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
		dots := make(pathData, 0, 16*len(d.T.Rows)*DotClients)
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

// Histogram draws the distribution of the total wait of sampled clients,
// with the table's mean and worst case marked. The marks' labels sit in a
// row above the bars, so they never cover them or each other.
//
// With a second policy's totals (totalsB, may be nil), their distribution
// is drawn as an outline on the same axes.
func Histogram(l i18n.Lang, totals []float64, tot backoff.Totals, totalsB []float64) string {
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
	for _, v := range xa.timeTicks(6) {
		w.xTick(f, xa.at(v), f.H-f.Bottom+wideTickDY, l.Seconds(v))
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
