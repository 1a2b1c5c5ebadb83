package app

import (
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// metricCards shows a herd run's totals. Each card's data-value holds the
// simulator's unrounded number.
type metricCards struct {
	app.Compo
	Totals sim.Totals
}

// metricDefs are the cards, in order. One table and one loop, not a call
// per card: each go-app call site costs app.wasm bytes.
var metricDefs = [...]struct{ id, label, hint string }{
	{"metric-calls", "calls to the server", "every call that reached the server, first tries and retries"},
	{"metric-amplification", "amplification", "calls per client: 1× means no retries were needed"},
	{"metric-p50", "p50 completion", "median time from a client's first call to its success"},
	{"metric-p99", "p99 completion", "99th percentile of the time to success"},
	{"metric-gave-up", "gave up", "clients that ran out of attempts, deadline or budget"},
	{"metric-peak", "peak load / capacity", "the busiest bucket while the server was up, over what it can serve"},
}

func ratio(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "×" }

func (c *metricCards) Render() app.UI {
	t := c.Totals
	// value (data-value) and shown text per card; no run yet (or it
	// failed): the cards keep their place and ids, and show a dash.
	var vals [len(metricDefs)][2]string
	gaveUpPct := ""
	if t.Clients > 0 {
		exact := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		vals = [len(metricDefs)][2]string{
			{strconv.Itoa(t.Calls), compactCount(float64(t.Calls))},
			{exact(t.Amplification), ratio(t.Amplification)},
			{exact(t.Completion.P50), backoff.FormatSeconds(t.Completion.P50)},
			{exact(t.Completion.P99), backoff.FormatSeconds(t.Completion.P99)},
			{strconv.Itoa(t.GaveUp), compactCount(float64(t.GaveUp))},
			{exact(t.PeakLoadRatio), ratio(t.PeakLoadRatio)},
		}
		gaveUpPct = " (" + strconv.FormatFloat(100*float64(t.GaveUp)/float64(t.Clients), 'f', 1, 64) + "%)"
	}
	cards := make([]app.UI, len(metricDefs))
	for i, d := range metricDefs {
		label, hint, shown := d.label, d.hint, vals[i][1]
		if d.id == "metric-gave-up" {
			label += gaveUpPct
		}
		if t.Clients == 0 {
			hint, shown = "", "–"
		}
		cards[i] = app.Div().ID(d.id).Class("metric").DataSet("value", vals[i][0]).Title(hint).Body(
			app.Span().Class("metric-value").Text(shown),
			app.Span().Class("metric-label").Text(label),
		)
	}
	cls := "metrics"
	if t.Clients == 0 {
		cls += " pending-metrics"
	}
	return app.Div().Class(cls).Body(cards...)
}
