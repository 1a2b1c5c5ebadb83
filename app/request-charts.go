package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// requestCharts draws a request-level run (steady traffic, a queue,
// timeouts, faults): the load offered against goodput, the queue, and the
// latency over time, faults shaded; with a second policy, both side by
// side on one scale. Over several runs it draws the first (the cards
// give the means).
type requestCharts struct {
	app.Compo
	A, B    *herdOut // B: the second policy's runs, or nil
	Rev     uint64   // herdRunner.rev: changes when a run is added to A or B
	Config  sim.Config
	Lang    i18n.Lang
	Present bool // presenter mode's fleet strips
}

// requestLegends are each chart's legend: the key's class, its catalog
// entry, and whether the run has it.
var requestLegends = map[string][]struct {
	key, label string
	has        func(chart.RequestSeries) bool
}{
	chart.ChartGoodput: {
		{"goodput", "req.legend-goodput", nil},
		{"offered", "req.legend-offered", nil},
		{"calls", "req.legend-calls", nil},
		{"capacity", "herd.legend-capacity", func(s chart.RequestSeries) bool {
			return s.Capacity > 0 && s.Capacity <= chart.RequestPeak(chart.ChartGoodput, s)
		}},
		{"outage", "req.legend-fault", func(s chart.RequestSeries) bool { return len(s.Faults) > 0 }},
	},
	chart.ChartQueue: {
		{"queue", "req.legend-queue", nil},
		{"busy", "req.legend-busy", nil},
	},
	chart.ChartLatency: {
		{"p99", "req.legend-p99", nil},
		{"p50", "req.legend-p50", nil},
		{"timeout", "req.legend-timeout", func(s chart.RequestSeries) bool { return s.Timeout > 0 }},
	},
}

func (c *requestCharts) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().ID("herd-chart").Class("chart-box")
	}
	ss := []chart.RequestSeries{chart.RequestSeriesOf(c.Config, c.A.first)}
	if c.B != nil && c.B.first != nil {
		ss = append(ss, chart.RequestSeriesOf(c.Config, c.B.first))
	}
	var xMax float64
	for _, s := range ss {
		xMax = max(xMax, float64(len(s.Offered))*s.Width)
	}
	figs := make([]app.UI, 0, len(chart.RequestCharts))
	for _, which := range chart.RequestCharts {
		if which == chart.ChartQueue && c.Config.Server.Traits().Waits != sim.WaitQueue {
			continue // only the queue server has a queue
		}
		var yMax float64
		for _, s := range ss {
			yMax = max(yMax, chart.RequestPeak(which, s))
		}
		var keys []string
		for _, k := range requestLegends[which] {
			if k.has == nil || k.has(ss[0]) {
				keys = append(keys, k.key, l.T(k.label))
			}
		}
		svgs := make([]app.UI, len(ss))
		for i, s := range ss {
			label := l.T("chart." + which)
			if len(ss) > 1 {
				label = l.T([]string{"policy.a", "policy.b"}[i]) + ": " + label
			}
			// The goodput chart's text alternative ends with the verdict:
			// whether and when the server recovered.
			out := []*herdOut{c.A, c.B}[i]
			if v, ok := sim.VerdictOf(c.Config, out.first); ok && which == chart.ChartGoodput {
				label += chart.RequestSummary(l, which, s) + " " + recoveryText(l, v)
			} else {
				label += chart.RequestSummary(l, which, s)
			}
			svgs[i] = app.Raw(chart.RequestChart(l, which, s, yMax, xMax, label))
		}
		figs = append(figs, app.Figure().ID("chart-"+which).Class("req-chart").Body(
			app.FigCaption().Text(l.T("req.h-"+which)), legend(keys...), app.Div().Class("req-pair").Body(svgs...)))
	}
	if c.Config.Servers > 1 {
		fs := chart.FleetSeriesOf(c.Config, c.A.first)
		keys := []string{"goodput", l.T("req.legend-served"), "calls", l.T("req.legend-failed")}
		if c.Config.Server.Traits().Waits == sim.WaitQueue {
			keys = append(keys, "queue-line", l.T("req.legend-queue-own"))
		}
		for _, k := range chart.FleetFaults(fs) {
			keys = append(keys, "outage", l.T("fault."+k))
		}
		figs = append(figs, app.Figure().ID("chart-fleet").Class("req-chart").Body(
			app.FigCaption().Text(l.T("req.h-fleet")), legend(keys...),
			app.Div().Class("req-pair").Body(app.Raw(chart.FleetChart(l, fs, l.T("chart.fleet"), c.Present)))))
	}
	cls := "chart-box requests"
	if len(ss) > 1 {
		cls += " two"
	}
	figs = append(figs, &chartNumbers{A: c.A, B: c.B, Rev: c.Rev, Config: c.Config, Requests: true, Lang: l})
	return app.Div().ID("herd-chart").Class(cls).Body(figs...)
}
