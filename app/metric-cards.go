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

func newMetricCards() *metricCards { return &metricCards{} }

func card(id, label, value, shown, hint string) app.UI {
	return app.Div().ID(id).Class("metric").DataSet("value", value).Title(hint).Body(
		app.Span().Class("metric-value").Text(shown),
		app.Span().Class("metric-label").Text(label),
	)
}

func ratio(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "×" }

func (c *metricCards) Render() app.UI {
	t := c.Totals
	if t.Clients == 0 {
		// No run yet (or it failed): the cards keep their place and ids.
		return app.Div().Class("metrics pending-metrics").Body(
			card("metric-calls", "calls to the server", "", "–", ""),
			card("metric-amplification", "amplification", "", "–", ""),
			card("metric-p50", "p50 completion", "", "–", ""),
			card("metric-p99", "p99 completion", "", "–", ""),
			card("metric-gave-up", "gave up", "", "–", ""),
			card("metric-peak", "peak load / capacity", "", "–", ""),
		)
	}
	exact := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	gaveUpPct := ""
	if t.Clients > 0 {
		gaveUpPct = " (" + strconv.FormatFloat(100*float64(t.GaveUp)/float64(t.Clients), 'f', 1, 64) + "%)"
	}
	return app.Div().Class("metrics").Body(
		card("metric-calls", "calls to the server", strconv.Itoa(t.Calls), compactCount(float64(t.Calls)),
			"every call that reached the server, first tries and retries"),
		card("metric-amplification", "amplification", exact(t.Amplification), ratio(t.Amplification),
			"calls per client: 1× means no retries were needed"),
		card("metric-p50", "p50 completion", exact(t.Completion.P50), backoff.FormatSeconds(t.Completion.P50),
			"median time from a client's first call to its success"),
		card("metric-p99", "p99 completion", exact(t.Completion.P99), backoff.FormatSeconds(t.Completion.P99),
			"99th percentile of the time to success"),
		card("metric-gave-up", "gave up"+gaveUpPct, strconv.Itoa(t.GaveUp), compactCount(float64(t.GaveUp)),
			"clients that ran out of attempts, deadline or budget"),
		card("metric-peak", "peak load / capacity", exact(t.PeakLoadRatio), ratio(t.PeakLoadRatio),
			"the busiest bucket while the server was up, over what it can serve"),
	)
}
