package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdNumbers is the herd chart's numbers, a table per policy behind a
// "Show the numbers" toggle: each bucket's calls answered, succeeded and
// rejected, the load against the capacity, and whether the server was
// down, from the series the chart draws (herdSeries).
type herdNumbers struct {
	app.Compo
	A, B *herdOut // as herdChart's
	Rev  uint64
	Lang i18n.Lang
	open bool
}

func (c *herdNumbers) onToggle(ctx app.Context, e app.Event) { c.open = !c.open }

func (c *herdNumbers) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().Class("numbers")
	}
	return numbersToggle(l, "herd-numbers", c.open, c.onToggle, func() string {
		ss := herdSeries(c.A, c.B)
		out := ""
		for i, s := range ss {
			caption, id := l.F("numbers.herd-caption", l.Seconds(s.Width)), "herd-table"
			if len(ss) > 1 {
				caption = l.T([]string{"policy.a", "policy.b"}[i]) + ": " + caption
				id = []string{"herd-table", "herd-table-b"}[i]
			}
			out += chart.HerdTable(l, s, id, caption)
		}
		return out
	})
}
