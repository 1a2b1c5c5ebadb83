package app

import (
	"strconv"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// metricCards shows a herd's totals: the mean over its runs (± their
// standard deviation when there are several) and, with a second policy,
// its value and the difference. Each card's data-value holds the unrounded
// number (data-value-b the second policy's), or "" when the metric has no
// value (no client completed; no capacity in the server model): the card
// then shows a dash and says why, never a 0 that would read as a
// measurement.
type metricCards struct {
	app.Compo
	A, B   *herdOut
	Server sim.ServerModel
	Lang   i18n.Lang
}

// metricDefs are the cards, in order, by catalog key (label; its hint is
// key+"-t"): the number, whether a run has it (nil: always), and its kind
// of format. One table and one loop, not a call per card: each go-app call
// site costs app.wasm bytes.
var metricDefs = [...]struct {
	id, key string
	f       func(sim.Totals) float64
	has     func(sim.Totals) bool
	format  byte // c count, r ratio, s seconds, g gave up (count and share)
}{
	{"metric-calls", "metric.calls", func(t sim.Totals) float64 { return float64(t.Calls) }, nil, 'c'},
	{"metric-amplification", "metric.amplification", func(t sim.Totals) float64 { return t.Amplification }, nil, 'r'},
	{"metric-p50", "metric.p50", func(t sim.Totals) float64 { return t.Completion.P50 }, completed, 's'},
	{"metric-p99", "metric.p99", func(t sim.Totals) float64 { return t.Completion.P99 }, completed, 's'},
	{"metric-gave-up", "metric.gave-up", func(t sim.Totals) float64 { return float64(t.GaveUp) }, nil, 'g'},
	{"metric-peak", "metric.peak", func(t sim.Totals) float64 { return t.PeakLoadRatio }, nil, 'r'},
}

func completed(t sim.Totals) bool { return t.Succeeded > 0 }

// format is a metric's value in l.
func (c *metricCards) format(kind byte, v float64, o *herdOut) string {
	l := c.Lang
	switch kind {
	case 'r':
		return l.Ratio(v)
	case 's':
		return l.Seconds(v)
	case 'g':
		clients := float64(o.first.Totals.Clients)
		return l.Compact(v) + " (" + l.Percent(v, clients) + ")"
	}
	return l.Compact(v)
}

// none is why a card of o has no value ("" when it has one).
func (c *metricCards) none(i int, o *herdOut) string {
	d := metricDefs[i]
	switch {
	case o == nil || o.runs() == 0:
		return "metric.pending"
	case d.id == "metric-peak" && c.Server == sim.OCC:
		return "metric.no-capacity"
	case d.has != nil && o.stat(d.f, d.has).n == 0:
		return "metric.none-completed"
	}
	return ""
}

func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (c *metricCards) Render() app.UI {
	l := c.Lang
	cards := make([]app.UI, len(metricDefs))
	for i, d := range metricDefs {
		value, shown, hint := "", "—", l.T(d.key+"-t")
		var extra []app.UI
		if why := c.none(i, c.A); why != "" {
			hint = l.T(why)
			extra = append(extra, app.Span().Class("metric-none").Text(hint))
		} else {
			s := c.A.stat(d.f, d.has)
			value, shown = exact(s.mean), c.format(d.format, s.mean, c.A)
			if s.n > 1 {
				kind := d.format
				if kind == 'g' {
					kind = 'c' // the spread of a count, without a share
				}
				extra = append(extra, app.Span().Class("metric-sd").Text(l.F("metric.sd", c.format(kind, s.sd, c.A), l.Int(int64(s.n)))))
			}
		}
		card := app.Div().ID(d.id).Class("metric").DataSet("value", value).Title(hint)
		if c.B != nil {
			bValue, bShown := "", "—"
			if why := c.none(i, c.B); why == "" {
				sb := c.B.stat(d.f, d.has)
				bValue, bShown = exact(sb.mean), c.format(d.format, sb.mean, c.B)
				if value != "" {
					a := c.A.stat(d.f, d.has).mean
					bShown += " (" + delta(l, a, sb.mean) + ")"
				}
			}
			card = card.DataSet("value-b", bValue)
			extra = append(extra, app.Span().Class("metric-b").Text(l.F("metric.b", bShown)))
		}
		cards[i] = card.Body(append([]app.UI{
			app.Span().Class("metric-value").Text(shown),
			app.Span().Class("metric-label").Text(l.T(d.key)),
		}, extra...)...)
	}
	cls := "metrics"
	if c.A == nil || c.A.runs() == 0 {
		cls += " pending-metrics"
	}
	return app.Div().Class(cls).Body(cards...)
}

// delta is b against a as a signed relative change: +12.5%, −40.0%, or ±0
// when equal; × when a is 0 and b is not.
func delta(l i18n.Lang, a, b float64) string {
	switch {
	case a == b:
		return "±0"
	case a == 0:
		return "+∞"
	case b > a:
		return "+" + l.Percent(b-a, a)
	}
	return "−" + l.Percent(a-b, a)
}
