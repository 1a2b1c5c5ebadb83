package app

import (
	"strconv"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// metricCards shows a herd run's totals. Each card's data-value holds the
// simulator's unrounded number, or "" when the metric has no value (no
// client completed; no capacity in the server model): the card then shows
// a dash and says why, never a 0 that would read as a measurement.
type metricCards struct {
	app.Compo
	Totals sim.Totals
	Server sim.ServerModel
	Lang   i18n.Lang
}

// metricDefs are the cards, in order, by catalog key (label; its hint is
// key+"-t"). One table and one loop, not a call per card: each go-app call
// site costs app.wasm bytes.
var metricDefs = [...]struct{ id, key string }{
	{"metric-calls", "metric.calls"},
	{"metric-amplification", "metric.amplification"},
	{"metric-p50", "metric.p50"},
	{"metric-p99", "metric.p99"},
	{"metric-gave-up", "metric.gave-up"},
	{"metric-peak", "metric.peak"},
}

// metricValue is one card's content: the exact value ("" for none), the
// text shown and, when there is no value, why (a catalog key).
type metricValue struct{ exact, shown, none string }

// metricValues computes the cards of t in l.
func metricValues(l i18n.Lang, t sim.Totals, server sim.ServerModel) [len(metricDefs)]metricValue {
	var out [len(metricDefs)]metricValue
	if t.Clients == 0 {
		for i := range out {
			out[i].none = "metric.pending"
		}
		return out
	}
	exact := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out[0] = metricValue{strconv.Itoa(t.Calls), l.Compact(float64(t.Calls)), ""}
	out[1] = metricValue{exact(t.Amplification), l.Ratio(t.Amplification), ""}
	if t.Succeeded > 0 {
		out[2] = metricValue{exact(t.Completion.P50), l.Seconds(t.Completion.P50), ""}
		out[3] = metricValue{exact(t.Completion.P99), l.Seconds(t.Completion.P99), ""}
	} else {
		out[2].none, out[3].none = "metric.none-completed", "metric.none-completed"
	}
	out[4] = metricValue{strconv.Itoa(t.GaveUp), l.Compact(float64(t.GaveUp)) + " (" + l.Percent(float64(t.GaveUp), float64(t.Clients)) + ")", ""}
	if server != sim.OCC {
		out[5] = metricValue{exact(t.PeakLoadRatio), l.Ratio(t.PeakLoadRatio), ""}
	} else {
		out[5].none = "metric.no-capacity"
	}
	return out
}

func (c *metricCards) Render() app.UI {
	l := c.Lang
	vals := metricValues(l, c.Totals, c.Server)
	cards := make([]app.UI, len(metricDefs))
	for i, d := range metricDefs {
		v := vals[i]
		hint, shown := l.T(d.key+"-t"), v.shown
		if v.none != "" {
			hint, shown = l.T(v.none), "—"
		}
		cards[i] = app.Div().ID(d.id).Class("metric").DataSet("value", v.exact).Title(hint).Body(
			app.Span().Class("metric-value").Text(shown),
			app.Span().Class("metric-label").Text(l.T(d.key)),
			app.If(v.none != "", func() app.UI { return app.Span().Class("metric-none").Text(hint) }),
		)
	}
	cls := "metrics"
	if c.Totals.Clients == 0 {
		cls += " pending-metrics"
	}
	return app.Div().Class(cls).Body(cards...)
}
