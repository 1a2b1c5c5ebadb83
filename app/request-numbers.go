package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// requestNumbers is a request-level run's charts' numbers, a table per
// policy behind a "Show the numbers" toggle: each bucket's requests
// offered, calls sent and goodput per second, the queue, the latency's
// p50 and p99 and the faults, from the series the charts draw.
type requestNumbers struct {
	app.Compo
	A, B   *herdOut // as requestCharts'
	Rev    uint64
	Config sim.Config
	Lang   i18n.Lang
	open   bool
}

func (c *requestNumbers) onToggle(ctx app.Context, e app.Event) { c.open = !c.open }

func (c *requestNumbers) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().Class("numbers")
	}
	return numbersToggle(l, "req-numbers", c.open, c.onToggle, func() string {
		outs := []*herdOut{c.A}
		if c.B != nil && c.B.first != nil {
			outs = append(outs, c.B)
		}
		html := ""
		for i, o := range outs {
			s := chart.RequestSeriesOf(c.Config, o.first)
			caption, id := l.F("numbers.req-caption", l.Seconds(s.Width)), "req-table"
			if len(outs) > 1 {
				caption = l.T([]string{"policy.a", "policy.b"}[i]) + ": " + caption
				id = []string{"req-table", "req-table-b"}[i]
			}
			html += chart.RequestTable(l, s, id, caption)
		}
		return html
	})
}
