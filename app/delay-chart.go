package app

import (
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// delayChart draws the delays of one client's retries: the table's ranges
// and means, a few hundred seeded clients as dots, and the histogram of the
// total wait. It is its own component so that progress updates elsewhere on
// the page never redraw it.
type delayChart struct {
	app.Compo
	Table *backoff.Table
	Seed  uint64
	Log   bool
}

func newDelayChart() *delayChart { return &delayChart{} }

func (c *delayChart) Render() app.UI {
	if c.Table == nil {
		return app.Div().ID("delay-chart").Class("chart-box")
	}
	s := sampleClients(c.Table.Policy, len(c.Table.Rows), c.Seed)
	return app.Div().ID("delay-chart").Class("chart-box").Body(
		app.Raw(delayChartSVG(c.Table, s, c.Log)),
		app.Raw(histogramSVG(s.Totals, c.Table.Total)),
	)
}
