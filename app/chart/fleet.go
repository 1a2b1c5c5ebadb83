package chart

import (
	"math"
	"slices"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// FleetSeries is a fleet's run per server, as the strips draw it: each
// server's calls served and failed per second and its queue at each
// bucket's end, with the faults at that server to shade.
type FleetSeries struct {
	Width   float64 // bucket width, seconds
	Served  [][]float64
	Failed  [][]float64 // refused, errors, refused while down, lost in a crash
	Queue   [][]float64
	Faults  [][]Band
	PerCall float64 // one server's capacity, calls per second (0: none)
}

// FleetSeriesOf turns a fleet's result (sim.Config.Servers > 1) into the
// strips' numbers, re-binned to at most MaxBuckets buckets as the other
// charts are; nil servers for anything else.
func FleetSeriesOf(c sim.Config, r *sim.Result) FleetSeries {
	if r == nil || r.BucketWidth <= 0 || c.Servers < 2 || len(r.Timeline) == 0 || len(r.Timeline[0].Servers) != c.Servers {
		return FleetSeries{}
	}
	m := 1
	if n := len(r.Timeline); n > MaxBuckets {
		m = (n + MaxBuckets - 1) / MaxBuckets
	}
	n := (len(r.Timeline) + m - 1) / m
	s := FleetSeries{Width: r.BucketWidth * float64(m), PerCall: r.CapacityPerBucket / r.BucketWidth / float64(c.Servers)}
	for k := range c.Servers {
		served, failed, queue := make([]float64, n), make([]float64, n), make([]float64, n)
		for i, b := range r.Timeline {
			o := b.Servers[k]
			served[i/m] += float64(o.Served)
			failed[i/m] += float64(o.Failed + o.Lost)
			queue[i/m] = float64(o.Queue)
		}
		var bands []Band
		for _, f := range r.Faults {
			if f.Servers == 0 || f.Servers&(1<<k) != 0 {
				bands = append(bands, Band{Kind: f.Kind.String(), Start: f.Start.Seconds(), End: f.End.Seconds()})
			}
		}
		s.Served, s.Failed, s.Queue, s.Faults = append(s.Served, served), append(s.Failed, failed), append(s.Queue, queue), append(s.Faults, bands)
	}
	return s
}

// FleetChart draws one strip per server of a fleet, on one time axis and
// one rate scale: the calls it served (an area) and failed (a line) per
// second, its queue on a scale of its own (dashed), its capacity, and the
// faults aimed at it shaded on its own strip: a crash at server 1 shows
// where the load went (the legend names the faults' shade: FleetFaults).
// A strip's name and its queue's peak sit in the gap above it, where no
// line of the strip crosses them; its rate scale's top, left of it.
// present draws it for presenter mode, as HerdPresent: 400 units wide for
// 20-unit text, with no time axis title (a lesson's widget shares a 4:3
// screen with the verdict and the cards).
func FleetChart(l i18n.Lang, s FleetSeries, label string, present bool) string {
	n := len(s.Served)
	stripH, gap := 64.0, 22.0
	f := frame{W: 640, Left: 58, Right: 12, Top: 50, Bottom: wideBottom}
	class, ticks, tickDY, nameDY, peakDY, titleX, titleY := "chart-fleet", 8, float64(wideTickDY), 6.0, 10.0, f.Left, f.Top-30
	if present {
		// The gap holds a line of 20-unit text; the peak's tick (its cap
		// height 14 units) stays under it. Strips of 52 units are 49 px
		// tall in a 4:3 screen's widget, which has room for no more.
		stripH, gap = 52, 32
		f = frame{W: 400, Left: 60, Right: 30, Top: 56, Bottom: 28}
		class, ticks, tickDY, nameDY, peakDY = "chart-fleet chart-present", 3, presentTickDY, 9, 16
		titleX, titleY = presentTitleX, 20
	}
	f.H = f.Top + float64(max(n, 1))*(stripH+gap) - gap + f.Bottom
	var w svgWriter
	w.open(f, class, label)
	if n == 0 || s.Width <= 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-calls"))
		w.close()
		return w.String()
	}
	per := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = x / s.Width
		}
		return out
	}
	peak := s.PerCall
	for k := range n {
		peak = max(peak, maxOf(per(s.Served[k])), maxOf(per(s.Failed[k])))
	}
	xMax := float64(len(s.Served[0])) * s.Width
	xa := newAxis(0, xMax, f.Left, f.W-f.Right, false)
	yMax := niceMax(peak)
	for k := range n {
		top := f.Top + float64(k)*(stripH+gap)
		bottom := top + stripH
		ya := newAxis(0, yMax, bottom, top, false)
		for _, b := range s.Faults[k] {
			if b.Start >= xMax {
				continue
			}
			x0, x1 := xa.at(b.Start), xa.at(math.Min(b.End, xMax))
			var d pathData
			d.rect(x0, top, x1, bottom)
			w.path("outage", d.String())
		}
		var frameD pathData
		frameD.op('M', f.Left, bottom)
		frameD.op('H', f.W-f.Right)
		w.path("axis", frameD.String())
		step := func(class string, v []float64, a axis, fill bool) {
			var d pathData
			if fill {
				d.op('M', f.Left, bottom)
			}
			for i, y := range v {
				t0 := float64(i) * s.Width
				py := a.at(math.Min(y, a.hi*1.02))
				if i == 0 && !fill {
					d.op('M', xa.at(t0), py)
				} else {
					d.op('V', py)
				}
				d.op('H', xa.at(math.Min(t0+s.Width, xMax)))
			}
			if fill {
				d.op('V', bottom)
				d.op('Z')
			}
			w.path(class, d.String())
		}
		step("goodput", per(s.Served[k]), ya, true)
		step("failed-line", per(s.Failed[k]), ya, false)
		if q := maxOf(s.Queue[k]); q > 0 {
			qa := newAxis(0, niceMax(q), bottom, top, false)
			step("queue-line", s.Queue[k], qa, false)
			w.text("tick", f.W-f.Right, top-nameDY, "end", l.F("chart.fleet-queue", l.Compact(q)))
		}
		if s.PerCall > 0 && s.PerCall <= yMax {
			w.path("capacity", hline(f.Left, f.W-f.Right, ya.at(s.PerCall)))
		}
		w.text("run-label", f.Left, top-nameDY, "start", l.F("chart.server-n", l.Int(int64(k+1))))
		w.text("tick", f.Left-6, top+peakDY, "end", l.Compact(yMax))
	}
	for _, v := range xa.timeTicks(ticks) {
		w.xTick(f, xa.at(v), f.H-f.Bottom+tickDY, l.Seconds(v))
	}
	if !present {
		w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.time-axis-requests"))
	}
	w.text("axis-label", titleX, titleY, "start", l.F("chart.rate-axis", l.Seconds(s.Width)))
	w.close()
	return w.String()
}

// FleetFaults are the kinds of the faults a fleet's strips shade, in the
// order they first strike: the legend names each.
func FleetFaults(s FleetSeries) []string {
	var out []string
	for _, bands := range s.Faults {
		for _, b := range bands {
			if !slices.Contains(out, b.Kind) {
				out = append(out, b.Kind)
			}
		}
	}
	return out
}
