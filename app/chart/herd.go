package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// MaxBuckets bounds the bars of one chart; longer timelines are re-binned.
const MaxBuckets = 2000

// Series is a herd timeline as plain numbers (from sim.Result).
type Series struct {
	Width       float64   // bucket width, seconds
	OK          []float64 // calls that succeeded, per bucket
	Rejected    []float64 // calls rejected, per bucket
	Capacity    float64   // calls per bucket the server can take
	OutageStart float64
	OutageEnd   float64
	// Lo and Hi, when set, are the fewest and most calls answered per
	// bucket over several runs (OK and Rejected are then their means).
	Lo, Hi []float64
	// Verdict is the run's (sim.HerdVerdictOf), when known: the text
	// alternative then says what the page's verdict says, in its words
	// (HerdVerdictText), where the timeline alone would read "recovered"
	// into buckets nobody called in any more.
	Verdict *sim.HerdVerdict
}

func (h Series) peak() float64 {
	var p float64
	for i := range h.OK {
		p = math.Max(p, h.OK[i]+h.Rejected[i])
	}
	return p
}

// scalePeak is the peak the y axis should fit: the first bucket is left out
// when it towers over the rest (every client's first call at once is the
// same in every scenario, and would flatten the retries that differ).
func (h Series) scalePeak() float64 {
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

func (h Series) end() float64 { return float64(len(h.OK)) * h.Width }

// HerdSize is which frame a herd chart is drawn in.
type HerdSize int

const (
	// HerdWide is the page's chart, 640 units wide.
	HerdWide HerdSize = iota
	// HerdSmall is a small multiple of a grid, 320 units wide.
	HerdSmall
	// HerdPresent is presenter mode's chart: 400 units wide, with margins
	// and ticks for text of 20 units, so that drawn about 380 px wide (a
	// 4:3 projector's widget) its text is the lesson's type.
	HerdPresent
	// HerdSmallPresent is a small multiple in presenter mode (a grid's
	// cell, or one of two policies side by side): 190 units wide, with
	// margins and two ticks an axis for text of 20 units (a 4:3 projector
	// draws a cell about 185 px wide), and no title: the page captions it
	// in the lesson's type, which a long kind's name would not fit in the
	// frame at that size.
	HerdSmallPresent
)

// Herd draws calls per bucket stacked (succeeded below, rejected above),
// the capacity line and the outage shaded. yMax and xMax fix the scales so
// small multiples compare; 0 means fit the data.
//
// Every bar taller than the y axis (a shared scale cuts the first burst)
// is clipped at the top and marked: an arrow with the first such bar's
// height.
func Herd(l i18n.Lang, h Series, yMax, xMax float64, size HerdSize, label string) string {
	f := herdFrame(size)
	small := size == HerdSmall || size == HerdSmallPresent
	class, ticks, yTicks := "", 8, 4
	switch size {
	case HerdSmall:
		class, ticks = "chart-small", 4
	case HerdPresent:
		class, ticks = "chart-present", presentTicks
	case HerdSmallPresent:
		class, ticks, yTicks = "chart-present", 3, 2
	}
	var w svgWriter
	w.open(f, class, label+HerdSummary(l, h))
	if len(h.OK) == 0 || h.Width <= 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-calls"))
		w.close()
		return w.String()
	}
	xMax, xa, ya := herdAxes(h, yMax, xMax, f)
	if h.OutageEnd > h.OutageStart {
		x0, x1 := xa.at(h.OutageStart), xa.at(math.Min(h.OutageEnd, xMax))
		var d pathData
		d.rect(x0, f.Top, x1, f.H-f.Bottom)
		w.path("outage", d.String())
	}
	w.yAxis(f, ya, yTicks, l.Compact)
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
	switch size {
	case HerdSmall:
		tickY = f.H - f.Bottom + 15
	case HerdPresent, HerdSmallPresent:
		tickY = f.H - f.Bottom + presentTickDY
	}
	tv := xa.timeTicks(ticks)
	if size == HerdSmallPresent && len(tv) > 2 { // three asked: never one alone
		// A cell has room for two times at 20 units ("5 мин" and "10 мин"
		// overlapped): the start and the last tick whose label stays in
		// the frame (a time's characters are at most 12.4 units wide).
		last := tv[1]
		for _, v := range tv[2:] {
			if xa.at(v)+6.2*float64(len([]rune(l.Seconds(v)))) <= f.W+8 {
				last = v
			}
		}
		tv = []float64{tv[0], last}
	}
	for _, v := range tv {
		w.text("tick", xa.at(v), tickY, "middle", l.Seconds(v))
	}
	switch {
	case size == HerdSmallPresent: // captioned by the grid
	case small:
		w.text("small-title", f.Left, 14, "start", label)
	default:
		w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.time-axis"))
		x, y, key := f.Left, f.Top-10, "chart.bucket-axis"
		if size == HerdPresent {
			// A bucket of minutes and seconds ("33 min 20 s") leaves the
			// presenter's frame no room for "server".
			x, y, key = presentTitleX, f.Top-presentTitleDY, "chart.bucket-axis-short"
		}
		w.text("axis-label", x, y, "start", l.F(key, l.Seconds(h.Width)))
	}
	w.close()
	return w.String()
}

// herdFrame is the frame of a herd chart of size.
func herdFrame(size HerdSize) frame {
	switch size {
	case HerdSmall:
		return frame{W: 320, H: 170, Left: 44, Right: 8, Top: 22, Bottom: 24}
	case HerdPresent:
		return frame{W: 400, H: 256, Left: 66, Right: 30, Top: 44, Bottom: 54}
	case HerdSmallPresent:
		return frame{W: 190, H: 130, Left: 56, Right: 14, Top: 14, Bottom: 30}
	}
	return frame{W: 640, H: 282, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
}

// herdAxes are Herd's time and calls axes for h in f (yMax, xMax as Herd
// takes them), and the time the chart ends at.
func herdAxes(h Series, yMax, xMax float64, f frame) (end float64, xa, ya axis) {
	if yMax <= 0 {
		yMax = h.scalePeak()
	}
	if xMax <= 0 {
		xMax = h.end()
	}
	ya = newAxis(0, niceMax(yMax), f.H-f.Bottom, f.Top, false)
	xa = newAxis(0, xMax, f.Left, f.W-f.Right, false)
	return xMax, xa, ya
}

// HerdFrame is the wide herd chart's size in its SVG units, for a layer
// drawn over it in the same viewBox.
func HerdFrame() (w, h float64) {
	f := herdFrame(HerdWide)
	return f.W, f.H
}

// minMark is the shortest replay mark, in the chart's units: a bucket of
// a 200-bucket run is under 3 units wide, a dot rather than a tick.
const minMark = 6.0

// HerdMarks is the path data of a replay's marks over the wide chart Herd
// draws for h (both scales fitted to the data): a tick across each bucket
// of r up to the one holding t (at least minMark long, centred on it), at
// the height of the calls its clients sent then. The chart's bars are the server's answers, counted when it
// gave them; the ticks are the calls as they left, so a latency or a
// queue shows as ticks ahead of their bars. Ticks above the y axis stop at
// its top. One path for the whole replay: the page sets it as the playhead
// moves, with no element per call or bucket. "" before the replay starts
// (t <= 0) and for an empty run.
func HerdMarks(h Series, r *sim.Result, t float64) string {
	if r == nil || r.BucketWidth <= 0 || len(h.OK) == 0 || h.Width <= 0 || t <= 0 {
		return ""
	}
	f := herdFrame(HerdWide)
	xMax, xa, ya := herdAxes(h, 0, 0, f)
	// The bucket holding t, by index (float sums of widths drift).
	last := min(int(t/r.BucketWidth+1e-9), len(r.Timeline)-1)
	var d pathData
	for i, b := range r.Timeline[:last+1] {
		t0 := float64(i) * r.BucketWidth
		if b.Calls == 0 || t0 >= xMax {
			continue
		}
		y := ya.at(math.Min(float64(b.Calls), ya.hi))
		x0, x1 := xa.at(t0), xa.at(math.Min(t0+r.BucketWidth, xMax))
		if x1-x0 < minMark {
			c := (x0 + x1) / 2
			x0, x1 = c-minMark/2, c+minMark/2
		}
		d.op('M', x0, y)
		d.op('H', x1)
	}
	return d.String()
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

// SeriesOf turns a result into the chart's plain numbers.
func SeriesOf(c sim.Config, r *sim.Result) Series {
	if r == nil {
		return Series{}
	}
	h := Series{
		Width:       r.BucketWidth,
		OK:          make([]float64, len(r.Timeline)),
		Rejected:    make([]float64, len(r.Timeline)),
		Capacity:    r.CapacityPerBucket,
		OutageStart: r.OutageStart,
		OutageEnd:   r.OutageEnd,
	}
	for i, b := range r.Timeline {
		h.OK[i] = float64(b.OK)
		h.Rejected[i] = float64(b.Rejected)
	}
	if v, ok := sim.HerdVerdictOf(c, r); ok {
		h.Verdict = &v
	}
	if n := len(h.OK); n > MaxBuckets && h.Width > 0 {
		h = Rebin(h, h.Width*float64((n+MaxBuckets-1)/MaxBuckets))
	}
	return h
}

// CommonScale re-bins every series to one bucket width (the smallest that
// all their widths divide: they are 1, 2 or 5 times a power of ten) and
// returns them with the shared y and x extents.
func CommonScale(series []Series) (out []Series, yMax, xMax float64) {
	w := 0.0
	for _, s := range series {
		if s.Width > 0 {
			w = commonWidth(w, s.Width)
		}
	}
	out = make([]Series, len(series))
	for i, s := range series {
		if s.Width > 0 {
			s = Rebin(s, w)
			yMax = math.Max(yMax, s.scalePeak())
			xMax = math.Max(xMax, s.end())
		}
		out[i] = s
	}
	return out, yMax, xMax
}

// commonWidth is the smallest width of the form 1, 2 or 5 x 10^k that both
// a and b divide (a may be 0: none yet).
func commonWidth(a, b float64) float64 {
	if a <= 0 {
		return b
	}
	for _, w := range []float64{math.Max(a, b), 2 * math.Max(a, b), 5 * math.Max(a, b), 10 * math.Max(a, b)} {
		if divides(a, w) && divides(b, w) {
			return w
		}
	}
	return 10 * math.Max(a, b)
}

// divides reports whether w is a whole multiple of d, within float error.
func divides(d, w float64) bool {
	q := w / d
	return math.Abs(q-math.Round(q)) < 1e-6
}

// Rebin sums groups of buckets so that s has width w (a multiple of its
// own).
func Rebin(s Series, w float64) Series {
	m := int(math.Round(w / s.Width))
	if m <= 1 {
		return s
	}
	n := (len(s.OK) + m - 1) / m
	r := s
	r.Width, r.Capacity = w, s.Capacity*float64(m)
	r.OK, r.Rejected = make([]float64, n), make([]float64, n)
	for i := range s.OK {
		r.OK[i/m] += s.OK[i]
		r.Rejected[i/m] += s.Rejected[i]
	}
	// The spread of a sum is bounded by the sums of the spreads.
	if len(s.Lo) == len(s.OK) && len(s.Hi) == len(s.OK) {
		r.Lo, r.Hi = make([]float64, n), make([]float64, n)
		for i := range s.Lo {
			r.Lo[i/m] += s.Lo[i]
			r.Hi[i/m] += s.Hi[i]
		}
	} else {
		r.Lo, r.Hi = nil, nil
	}
	return r
}

// ownScaleRatio: small multiples share one scale unless a panel's run
// ends within this fraction of the longest one's time, where its calls
// would be a sliver at the axis's start.
const ownScaleRatio = 10

// GridScale is the scale small multiples share: CommonScale's, when every
// panel stays readable on it; else (a run that ends within a tenth of the
// longest's time: no jitter's 15.7 h beside full jitter's minute) none:
// each panel keeps its own scales (shared false, yMax and xMax 0), and
// shortest and longest are the runs' times, for the page to say so.
func GridScale(series []Series) (out []Series, yMax, xMax float64, shared bool, shortest, longest float64) {
	out, yMax, xMax = CommonScale(series)
	shortest = math.Inf(1)
	for _, s := range series {
		if s.Width > 0 {
			shortest, longest = math.Min(shortest, s.end()), math.Max(longest, s.end())
		}
	}
	if longest == 0 || shortest*ownScaleRatio >= longest {
		return out, yMax, xMax, true, shortest, longest
	}
	return series, 0, 0, false, shortest, longest
}

// Grid draws small multiples in one picture, two to a row, each with its
// title: the compare panel as a file. They share one scale where GridScale
// finds it readable; else each title says its panel has its own.
func Grid(l i18n.Lang, series []Series, titles []string, label string) string {
	ss, yMax, xMax, shared, _, _ := GridScale(series)
	if !shared {
		titles = append([]string(nil), titles...)
		for i := range titles {
			titles[i] = l.F("chart.own-scale", titles[i])
		}
	}
	const cellW, cellH, cols = 320.0, 170.0, 2
	rows := (len(ss) + cols - 1) / cols
	f := frame{W: cellW * cols, H: cellH * float64(rows)}
	var w svgWriter
	w.open(f, "chart-grid", label)
	for i, s := range ss {
		x, y := cellW*float64(i%cols), cellH*float64(i/cols)
		// Each panel is an svg of its own, placed and sized in the grid.
		cell := Herd(l, s, yMax, xMax, HerdSmall, titles[i])
		w.WriteString(strings.Replace(cell, "<svg ", `<svg x="`+num(x)+`" y="`+num(y)+`" width="`+num(cellW)+`" height="`+num(cellH)+`" `, 1))
	}
	w.close()
	return w.String()
}

// HerdSummary states a herd chart's data in words, for its text
// alternative (after its title): the peak and when, the capacity, the
// outage, and the run's verdict (h.Verdict, the page's #herd-verdict
// text); without one, when the server recovered (from the end of the last
// bucket with a rejected call on, every call succeeded). "" with no data.
func HerdSummary(l i18n.Lang, h Series) string {
	if len(h.OK) == 0 || h.Width <= 0 {
		return ""
	}
	peak, at, lastRejected := 0.0, 0, -1
	for i := range h.OK {
		if v := h.OK[i] + h.Rejected[i]; v > peak {
			peak, at = v, i
		}
		if h.Rejected[i] > 0 {
			lastRejected = i
		}
	}
	bucket := l.Seconds(h.Width)
	s := ". " + l.F("chart.desc-peak", l.Compact(math.Round(peak)), bucket, l.Seconds(float64(at)*h.Width))
	if h.Capacity > 0 {
		s += " " + l.F("chart.desc-capacity", l.Compact(h.Capacity), bucket)
	}
	if h.OutageEnd > h.OutageStart {
		s += " " + l.F("chart.desc-outage", l.Seconds(h.OutageStart), l.Seconds(h.OutageEnd))
	}
	end := float64(len(h.OK)) * h.Width
	switch {
	case h.Verdict != nil:
		if v := HerdVerdictText(l, *h.Verdict); v != "" {
			s += " " + v
		}
	case lastRejected < 0:
		s += " " + l.T("chart.desc-none-rejected")
	case lastRejected == len(h.OK)-1:
		s += " " + l.F("chart.desc-still-rejected", l.Seconds(end))
	default:
		s += " " + l.F("chart.desc-recovered", l.Seconds(float64(lastRejected+1)*h.Width), l.Seconds(end))
	}
	return s
}
