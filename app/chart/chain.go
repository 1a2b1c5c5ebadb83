package chart

import (
	"math"
	"strconv"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// Chain draws a call chain as boxes, the caller first and the server last,
// with the calls each layer makes to the next per request over the arrows
// (calls[k]: layer k+1's calls to the one below, top first) and each
// layer's attempts under it (attempts[k], 0: no limit).
func Chain(l i18n.Lang, calls []float64, attempts []int, label string) string {
	n := len(calls)
	f := frame{W: 640, H: 118}
	var w svgWriter
	w.open(f, "chart-chain", label)
	if n == 0 {
		w.close()
		return w.String()
	}
	boxes := n + 2 // the caller, the layers, the server
	gap := math.Min(44, 200/float64(boxes))
	bw := (f.W - 8 - gap*float64(boxes-1)) / float64(boxes)
	top, bh := 40.0, 36.0
	var rects, arrows pathData
	for i := range boxes {
		x := 4 + float64(i)*(bw+gap)
		rects.rect(x, top, x+bw, top+bh)
	}
	w.path("box", rects.String())
	for i := range boxes {
		x := 4 + float64(i)*(bw+gap)
		name := l.F("chart.layer", strconv.Itoa(i))
		switch i {
		case 0:
			name = l.T("chart.caller")
		case boxes - 1:
			name = l.T("chart.server")
		}
		w.text("box-label", x+bw/2, top+bh/2+4, "middle", name)
		if i > 0 && i < boxes-1 {
			a := l.T("chart.no-limit")
			if attempts[i-1] > 0 {
				a = "×" + strconv.Itoa(attempts[i-1])
			}
			w.text("tick", x+bw/2, top+bh+16, "middle", a)
		}
		if i == 0 {
			continue
		}
		// The arrow into box i and the calls it carries per request.
		x0 := x - gap + 2
		arrows.op('M', x0, top+bh/2)
		arrows.op('H', x-3)
		arrows.op('M', x-8, top+bh/2-4)
		arrows.op('L', x-3, top+bh/2)
		arrows.op('L', x-8, top+bh/2+4)
		v := 1.0
		if i >= 2 {
			v = calls[i-2]
		}
		w.text("chain-calls", x-gap/2, top-8, "middle", l.Compact(v))
	}
	w.path("arrow", arrows.String())
	w.text("axis-label", 4, 14, "start", l.T("chart.chain-axis"))
	w.close()
	return w.String()
}

// Channel draws the shared channel's throughput S against its offered load
// G: pure ALOHA's G·e^(−2G) and slotted ALOHA's G·e^(−G), with this run's
// (G, S) marked.
func Channel(l i18n.Lang, kind sim.ChannelKind, g, s float64, label string) string {
	f := frame{W: 640, H: 260, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
	var w svgWriter
	w.open(f, "chart-channel", label)
	gMax := math.Max(3, niceMax(g*1.1))
	sMax := 0.5
	if s > 0.45 {
		sMax = 1
	}
	xa := newAxis(0, gMax, f.Left, f.W-f.Right, false)
	ya := newAxis(0, sMax, f.H-f.Bottom, f.Top, false)
	w.yAxis(f, ya, 5, func(v float64) string { return l.Percent(v, 1) })
	curve := func(class string, fn func(float64) float64) {
		var d pathData
		for i := 0; i <= 120; i++ {
			x := gMax * float64(i) / 120
			if i == 0 {
				d.op('M', xa.at(x), ya.at(fn(x)))
			} else {
				d.op('L', xa.at(x), ya.at(fn(x)))
			}
		}
		w.path(class, d.String())
	}
	curve("aloha-curve", func(x float64) float64 { return x * math.Exp(-2*x) })
	curve("slotted-curve", func(x float64) float64 { return x * math.Exp(-x) })
	w.text("curve-label", xa.at(0.5), ya.at(0.5*math.Exp(-1))-8, "middle", l.T("chart.aloha-max"))
	w.text("curve-label", xa.at(1), ya.at(math.Exp(-1))-8, "middle", l.T("chart.slotted-max"))
	if g > 0 {
		var d pathData
		x, y := xa.at(g), ya.at(s)
		d.op('M', x-5, y)
		d.op('A', 5, 5, 0, 1, 0, x+5, y)
		d.op('A', 5, 5, 0, 1, 0, x-5, y)
		w.path("run-point", d.String())
		anchor := "start"
		if x > f.W*0.7 {
			anchor = "end"
		}
		// Below the point: the curves' labels sit above their peaks.
		dx, dy := 9.0, 20.0
		if anchor == "end" {
			dx = -9
		}
		w.text("run-label", x+dx, y+dy, anchor, l.F("chart.channel-run", l.T("channel."+kind.String()), l.Float(g, 2), l.Percent(s, 1)))
	}
	for _, v := range xa.ticks(6) {
		w.xTick(f, xa.at(v), f.H-f.Bottom+wideTickDY, l.Num(v))
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.g-axis"))
	w.text("axis-label", f.Left, f.Top-10, "start", l.T("chart.s-axis"))
	w.close()
	return w.String()
}

// Strip draws each traced client as a row over time: a tick per try, and
// its successes and give-ups marked, so an unlucky client stands out. span
// is the time axis's end (0: the last event's). present draws it for
// presenter mode, as HerdPresent: 400 units wide, for 20-unit text.
func Strip(l i18n.Lang, tr *sim.Trace, span float64, label string, present bool) string {
	rows := 0
	if tr != nil {
		rows = tr.Clients
	}
	rowH := math.Min(24, math.Max(2, 360/float64(max(rows, 1))))
	f := frame{W: 640, Left: 58, Right: 12, Top: 30, Bottom: wideBottom}
	class, minRowH, labelDY, tickDY, ticks, titleX, titleY := "chart-strip", 11.0, 4.0, float64(wideTickDY), 8, f.Left, f.Top-10
	if present {
		rowH = math.Min(30, math.Max(2, 220/float64(max(rows, 1))))
		f = frame{W: 400, Left: 100, Right: 24, Top: 44, Bottom: 54}
		class, minRowH, labelDY = "chart-strip chart-present", 22, 7
		tickDY, ticks, titleX, titleY = presentTickDY, presentTicks, presentTitleX, f.Top-presentTitleDY
	}
	f.H = f.Top + f.Bottom + rowH*float64(rows)
	var w svgWriter
	w.open(f, class, label)
	if rows == 0 || len(tr.Events) == 0 {
		w.text("empty", f.W/2, f.H/2, "middle", l.T("chart.no-calls"))
		w.close()
		return w.String()
	}
	for _, e := range tr.Events {
		span = math.Max(span, e.T)
	}
	xa := newAxis(0, span, f.Left, f.W-f.Right, false)
	var tries, oks, gave pathData
	for _, e := range tr.Events {
		x := xa.at(e.T)
		y0 := f.Top + rowH*float64(e.Client)
		switch e.Kind {
		case sim.TraceTry:
			tries.op('M', x, y0+rowH*0.2)
			tries.op('V', y0+rowH*0.8)
		case sim.TraceSuccess:
			oks.rect(x-1.2, y0+rowH*0.1, x+1.2, y0+rowH*0.9)
		case sim.TraceGaveUp:
			gave.rect(x-1.8, y0, x+1.8, y0+rowH)
		}
	}
	w.path("strip-try", tries.String())
	w.path("strip-ok", oks.String())
	w.path("strip-gave-up", gave.String())
	if rowH >= minRowH {
		for i := range rows {
			w.text("tick", f.Left-6, f.Top+rowH*(float64(i)+0.5)+labelDY, "end", l.F("chart.client", strconv.Itoa(i+1)))
		}
	} else {
		w.text("tick", f.Left-6, f.Top+2.5*labelDY, "end", "1")
		w.text("tick", f.Left-6, f.H-f.Bottom, "end", strconv.Itoa(rows))
	}
	for _, v := range xa.timeTicks(ticks) {
		w.xTick(f, xa.at(v), f.H-f.Bottom+tickDY, l.Seconds(v))
	}
	w.text("axis-label", f.Left+f.plotW()/2, f.H-4, "middle", l.T("chart.time-axis"))
	w.text("axis-label", titleX, titleY, "start", l.F("chart.strip-axis", l.Count(int64(rows), "herd.clients-n")))
	w.close()
	return w.String()
}
