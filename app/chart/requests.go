package chart

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// RequestSeries is a request-level run's timeline as plain numbers: what
// the traffic offered and got per bucket, the server's queue, and the
// latency of the calls answered, with the faults to shade.
type RequestSeries struct {
	Width    float64   // bucket width, seconds
	Offered  []float64 // requests started per bucket
	Calls    []float64 // calls sent per bucket: first tries, retries and hedges
	Goodput  []float64 // requests that succeeded per bucket
	Queue    []float64 // calls waiting at the bucket's end
	Busy     []float64 // busy workers at the bucket's end
	P50, P99 []float64 // latency of the calls answered in the bucket, seconds (0: none)
	// Capacity is the calls per second the server can serve (0: no
	// fixed capacity); Workers the queue servers', summed over a fleet
	// (0: no server queues).
	Capacity float64
	Workers  float64
	// Timeout is the callers' timeout, seconds (0: none).
	Timeout float64
	Faults  []Band
	// Hits and Misses are the cache's per bucket (nil: no cache).
	Hits, Misses []float64
}

// Band is a span of time to shade, with the kind that names it
// ("stall": the catalog's fault.stall).
type Band struct {
	Kind       string
	Start, End float64
}

// RequestSeriesOf turns a request-level result into the charts' numbers;
// longer timelines are re-binned to at most MaxBuckets buckets (counts
// summed, the queue at the group's end, the latencies' worst).
func RequestSeriesOf(c sim.Config, r *sim.Result) RequestSeries {
	if r == nil || r.BucketWidth <= 0 {
		return RequestSeries{}
	}
	m := 1
	if n := len(r.Timeline); n > MaxBuckets {
		m = (n + MaxBuckets - 1) / MaxBuckets
	}
	n := (len(r.Timeline) + m - 1) / m
	s := RequestSeries{
		Width:   r.BucketWidth * float64(m),
		Offered: make([]float64, n), Calls: make([]float64, n), Goodput: make([]float64, n),
		Queue: make([]float64, n), Busy: make([]float64, n), P50: make([]float64, n), P99: make([]float64, n),
		Capacity: r.CapacityPerBucket / r.BucketWidth,
		Timeout:  c.Timeout.Seconds(),
	}
	s.Workers = float64(c.QueueWorkers())
	if c.CacheKeys > 0 {
		s.Hits, s.Misses = make([]float64, n), make([]float64, n)
	}
	for i, b := range r.Timeline {
		k := i / m
		s.Offered[k] += float64(b.Requests)
		s.Calls[k] += float64(b.Calls)
		s.Goodput[k] += float64(b.Goodput)
		s.Queue[k], s.Busy[k] = float64(b.Queue), float64(b.Busy)
		s.P50[k] = math.Max(s.P50[k], b.LatencyP50)
		s.P99[k] = math.Max(s.P99[k], b.LatencyP99)
		if s.Hits != nil {
			s.Hits[k] += float64(b.Hits)
			s.Misses[k] += float64(b.Misses)
		}
	}
	for _, f := range r.Faults {
		s.Faults = append(s.Faults, Band{Kind: f.Kind.String(), Start: f.Start.Seconds(), End: f.End.Seconds()})
	}
	return s
}

func (s RequestSeries) end() float64 { return float64(len(s.Offered)) * s.Width }

// rate is a per-bucket count as a per-second rate.
func (s RequestSeries) rate(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / s.Width
	}
	return out
}

// The three request-level charts, by name (RequestChart's which).
const (
	ChartGoodput = "goodput"
	ChartQueue   = "queue"
	ChartLatency = "latency"
)

// RequestCharts are the request-level charts in the order the page shows them.
var RequestCharts = []string{ChartGoodput, ChartQueue, ChartLatency}

// RequestPeak is the top of which's y axis for s, so that charts of
// several runs can share a scale (RequestChart's yMax).
func RequestPeak(which string, s RequestSeries) float64 {
	var p float64
	switch which {
	case ChartGoodput:
		for _, v := range [][]float64{s.rate(s.Offered), s.rate(s.Calls), s.rate(s.Goodput)} {
			p = math.Max(p, maxOf(v))
		}
		if s.Capacity <= 10*p || p == 0 {
			// A capacity far above the load would flatten it: then the
			// line is left out (it falls off the axis).
			p = math.Max(p, s.Capacity*1.1)
		}
	case ChartQueue:
		// The queue alone: the busy workers have their own scale
		// (busyAxis), a handful against thousands waiting.
		p = maxOf(s.Queue)
	case ChartLatency:
		p = math.Max(maxOf(s.P99), s.Timeout*1.1)
	}
	return p
}

func maxOf(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// RequestChart draws one of the request-level charts of s, with the
// faults shaded and named:
//
//   - goodput: the requests offered, the calls sent (retries and hedges
//     too) and the requests that succeeded, per second, with the server's
//     capacity: a metastable failure is goodput far under the offered load
//     long after the fault, while the calls stay over capacity;
//   - queue: the calls waiting, with the busy workers;
//   - latency: the p99 and p50 of the calls answered, with the timeout.
//
// yMax and xMax fix the scales (0: fit the data).
func RequestChart(l i18n.Lang, which string, s RequestSeries, yMax, xMax float64, label string) string {
	f := frame{W: 640, H: 220, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
	if which == ChartQueue {
		f.Right = 44 // the busy workers' scale, at the right
	}
	var w svgWriter
	w.open(f, "chart-requests", label)
	if len(s.Offered) == 0 || s.Width <= 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-calls"))
		w.close()
		return w.String()
	}
	if yMax <= 0 {
		yMax = RequestPeak(which, s)
	}
	if xMax <= 0 {
		xMax = s.end()
	}
	format, top := l.Compact, niceMax(yMax)
	if which == ChartLatency {
		format, top = l.Seconds, niceTimeMax(yMax)
	}
	ya := newAxis(0, top, f.H-f.Bottom, f.Top, false)
	yTicks := ya.ticks(4)
	if which == ChartLatency {
		yTicks = ya.timeTicks(4) // round times (30 s, 1 min)
	}
	// Room for the longest tick label as a phone draws it: "10 000" ran
	// off the queue chart's left edge.
	for _, v := range yTicks {
		f.Left = math.Max(f.Left, phoneCharW*float64(utf8.RuneCountInString(format(v)))+8)
	}
	xa := newAxis(0, xMax, f.Left, f.W-f.Right, false)
	for _, b := range s.Faults {
		if b.Start >= xMax {
			continue
		}
		x0, x1 := xa.at(b.Start), xa.at(math.Min(b.End, xMax))
		var d pathData
		d.rect(x0, f.Top, x1, f.H-f.Bottom)
		w.path("outage", d.String())
		w.text("fault-label", (x0+x1)/2, f.Top+12, "middle", l.T("fault."+b.Kind))
	}
	w.yAxisAt(f, ya, yTicks, format)
	// line is a series as a step line over its buckets.
	line := func(class string, v []float64, skipZero bool, ya axis) {
		var d pathData
		pen := false
		for i, y := range v {
			t0 := float64(i) * s.Width
			if t0 >= xMax {
				break
			}
			if skipZero && y <= 0 {
				pen = false
				continue
			}
			py := ya.at(math.Min(y, ya.hi*1.02))
			if !pen {
				d.op('M', xa.at(t0), py)
				pen = true
			} else {
				d.op('V', py)
			}
			d.op('H', xa.at(math.Min(t0+s.Width, xMax)))
		}
		w.path(class, d.String())
	}
	// area is a series filled down to the axis.
	area := func(class string, v []float64) {
		var d pathData
		base := f.H - f.Bottom
		d.op('M', f.Left, base)
		for i, y := range v {
			t0 := float64(i) * s.Width
			if t0 >= xMax {
				break
			}
			py := ya.at(math.Min(y, ya.hi*1.02))
			d.op('V', py)
			d.op('H', xa.at(math.Min(t0+s.Width, xMax)))
		}
		d.op('V', base)
		d.op('Z')
		w.path(class, d.String())
	}
	// level is a horizontal reference line with its label at the right.
	level := func(class string, v float64, text string) {
		if v <= 0 || v > ya.hi {
			return
		}
		y := ya.at(v)
		w.path(class, hline(f.Left, f.W-f.Right, y))
		w.text(class+"-label", f.W-f.Right-4, y-4, "end", text)
	}
	axisKey := "chart.rate-axis"
	switch which {
	case ChartGoodput:
		area("goodput", s.rate(s.Goodput))
		line("offered", s.rate(s.Offered), false, ya)
		line("calls-line", s.rate(s.Calls), false, ya)
		level("capacity", s.Capacity, l.T("chart.capacity"))
	case ChartQueue:
		area("queue", s.Queue)
		// The busy workers on a scale of their own at the right, up to
		// the workers there are: on the queue's scale a few workers
		// against thousands waiting drew a flat line.
		// Its top a fifth above the workers, so that their line and its
		// label clear the scale's title and the faults' labels.
		ba := newAxis(0, niceMax(math.Max(1.2*s.Workers, maxOf(s.Busy))), f.H-f.Bottom, f.Top, false)
		for _, v := range ba.ticks(4) {
			w.text("tick busy-tick", f.W-f.Right+4, ba.at(v)+4, "start", l.Compact(v))
		}
		line("busy", s.Busy, false, ba)
		if s.Workers > 0 {
			y := ba.at(s.Workers)
			w.path("capacity", hline(f.Left, f.W-f.Right, y))
			w.text("capacity-label", f.W-f.Right-4, y-4, "end", l.T("chart.workers"))
		}
		w.text("axis-label busy-axis", f.W-2, f.Top-10, "end", l.T("chart.busy-axis"))
		axisKey = "chart.queue-axis"
	case ChartLatency:
		line("p50", s.P50, true, ya)
		line("p99", s.P99, true, ya)
		level("cap", s.Timeout, l.F("chart.timeout", l.Seconds(s.Timeout)))
		axisKey = "chart.latency-axis"
	}
	for _, v := range xa.fitTimeTicks(8, l.Seconds) {
		w.xTick(f, xa.at(v), f.H-f.Bottom+wideTickDY, l.Seconds(v))
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.time-axis-requests"))
	w.text("axis-label", f.Left, f.Top-10, "start", l.F(axisKey, l.Seconds(s.Width)))
	w.close()
	return w.String()
}

// RequestSummary states the data of which's chart of s in words, for its
// text alternative (after its title): the peak of its main series and
// when. "" with no data.
func RequestSummary(l i18n.Lang, which string, s RequestSeries) string {
	var v []float64
	format, key := l.Compact, "chart.desc-peak-rate"
	switch which {
	case ChartGoodput:
		v = s.rate(s.Calls)
	case ChartQueue:
		v, key = s.Queue, "chart.desc-peak-queue"
	case ChartLatency:
		v, format, key = s.P99, l.Seconds, "chart.desc-peak-p99"
	}
	if len(v) == 0 || s.Width <= 0 {
		return ""
	}
	peak, at := 0.0, 0
	for i, x := range v {
		if x > peak {
			peak, at = x, i
		}
	}
	return ". " + l.F(key, format(peak), l.Seconds(float64(at)*s.Width))
}

// RequestStack draws the request-level charts of s one above the other in
// one picture, each with its title: the page's request charts as a file.
func RequestStack(l i18n.Lang, s RequestSeries, label string) string {
	const cellW, cellH, titleH = 640.0, 220.0, 22.0
	f := frame{W: cellW, H: (cellH + titleH) * float64(len(RequestCharts))}
	var w svgWriter
	w.open(f, "chart-grid", label)
	for i, which := range RequestCharts {
		y := (cellH + titleH) * float64(i)
		w.text("small-title", 8, y+16, "start", l.T("req.h-"+which))
		cell := RequestChart(l, which, s, 0, 0, l.T("chart."+which))
		w.WriteString(strings.Replace(cell, "<svg ", `<svg x="0" y="`+num(y+titleH)+`" width="`+num(cellW)+`" height="`+num(cellH)+`" `, 1))
	}
	w.close()
	return w.String()
}

// RunImage is a run's picture as one SVG, as the page's herd card shows
// it: a request-level run's three charts (RequestStack), or the herd's
// timeline h (SeriesOf(r), or the means of several runs).
func RunImage(l i18n.Lang, c sim.Config, r *sim.Result, h Series) string {
	if c.RequestLevel() {
		return RequestStack(l, RequestSeriesOf(c, r), l.T("req.head"))
	}
	return Herd(l, h, 0, 0, HerdWide, l.T("chart.herd"))
}
