package app

import (
	"html"
	"strconv"
	"strings"

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
	Rev    uint64 // herdRunner.rev: changes when a run is added to A or B
	Config sim.Config
	Lang   i18n.Lang
	// Stale is set while a newer run is going: the cards still show the
	// last one's numbers, dimmed, and say so.
	Stale bool
}

// metricDefs are the cards, in order, by catalog key (label; its hint is
// key+"-t"): the number, whether a run has it (nil: always), and its kind
// of format. One table and one loop, not a call per card: each go-app call
// site costs app.wasm bytes.
type metricDef struct {
	id, key string
	f       func(sim.Totals) float64
	has     func(sim.Totals) bool
	format  byte // c count, r ratio, s seconds, g gave up and q succeeded (count and share), v per second, h hedges (count and extra load), j a plain number, p a share
}

var metricDefs = []metricDef{
	{"metric-calls", "metric.calls", func(t sim.Totals) float64 { return float64(t.Calls) }, nil, 'c'},
	{"metric-amplification", "metric.amplification", func(t sim.Totals) float64 { return t.Amplification }, nil, 'r'},
	{"metric-p50", "metric.p50", func(t sim.Totals) float64 { return t.Completion.P50 }, completed, 's'},
	{"metric-p99", "metric.p99", func(t sim.Totals) float64 { return t.Completion.P99 }, completed, 's'},
	{"metric-gave-up", "metric.gave-up", func(t sim.Totals) float64 { return float64(t.GaveUp) }, nil, 'g'},
	{"metric-peak", "metric.peak", func(t sim.Totals) float64 { return t.PeakLoadRatio }, nil, 'r'},
}

// reqMetricDefs are a request-level run's cards (Totals.RequestLevel).
var reqMetricDefs = []metricDef{
	{"metric-requests", "metric.requests", func(t sim.Totals) float64 { return float64(t.Requests) }, nil, 'c'},
	{"metric-calls", "metric.calls", func(t sim.Totals) float64 { return float64(t.Calls) }, nil, 'c'},
	{"metric-amplification", "metric.amplification-req", func(t sim.Totals) float64 { return t.Amplification }, nil, 'r'},
	{"metric-success", "metric.success", func(t sim.Totals) float64 { return float64(t.Succeeded) }, nil, 'q'},
	{"metric-goodput", "metric.goodput", func(t sim.Totals) float64 { return t.GoodputPerS }, nil, 'v'},
	{"metric-latency-p99", "metric.latency-p99", func(t sim.Totals) float64 { return t.Latency.P99 }, completed, 's'},
	{"metric-timeouts", "metric.timeouts", func(t sim.Totals) float64 { return float64(t.Timeouts) }, nil, 'c'},
	{"metric-wasted", "metric.wasted", func(t sim.Totals) float64 { return t.WastedWork }, nil, 's'},
	{"metric-hedges", "metric.hedges", func(t sim.Totals) float64 { return float64(t.Hedges) }, nil, 'h'},
}

func completed(t sim.Totals) bool { return t.Succeeded > 0 }

// jainDef is every model's fairness card; chainDefs a call chain's and
// channelDefs the shared channel's.
var (
	jainDef   = metricDef{"metric-jain", "metric.jain", func(t sim.Totals) float64 { return t.JainFairness }, func(t sim.Totals) bool { return t.JainFairness > 0 }, 'j'}
	chainDefs = []metricDef{
		{"metric-bottom-load", "metric.bottom-load", func(t sim.Totals) float64 { return t.BottomLoadRatio }, nil, 'r'},
		{"metric-orphans", "metric.orphans", func(t sim.Totals) float64 { return float64(t.OrphanCalls) }, nil, 'c'},
	}
	cacheDefs = []metricDef{
		{"metric-hit-ratio", "metric.hit-ratio", func(t sim.Totals) float64 { return t.HitRatio }, nil, 'p'},
		{"metric-misses", "metric.misses", func(t sim.Totals) float64 { return float64(t.Misses) }, nil, 'c'},
	}
	channelDefs = []metricDef{
		{"metric-offered-load", "metric.offered-load", func(t sim.Totals) float64 { return t.OfferedLoad }, nil, 'j'},
		{"metric-channel-throughput", "metric.channel-throughput", func(t sim.Totals) float64 { return t.ChannelThroughput }, nil, 'p'},
	}
)

// defs are the cards of the config shown.
func (c *metricCards) defs() []metricDef {
	cfg := &c.Config
	if !cfg.RequestLevel() {
		return append(metricDefs[:len(metricDefs):len(metricDefs)], jainDef)
	}
	d := reqMetricDefs[:len(reqMetricDefs):len(reqMetricDefs)]
	if cfg.Layers > 1 {
		d = append(d, chainDefs...)
	}
	if cfg.Server.Traits().Waits == sim.WaitMedium {
		d = append(d, channelDefs...)
	}
	if cfg.CacheKeys > 0 {
		d = append(d, cacheDefs...)
	}
	return append(d, jainDef)
}

// format is a metric's value in l (a gave-up count's share of the
// clients has its own line).
func (c *metricCards) format(kind byte, v float64) string {
	l := c.Lang
	switch kind {
	case 'r':
		return l.Ratio(v)
	case 's':
		return l.Seconds(v)
	case 'v':
		return l.F("metric.per-s", l.Float(v, 1))
	case 'j':
		return l.Float(v, 3)
	case 'p':
		return l.Percent(v, 1)
	}
	return l.Compact(v)
}

// none is why a card of o has no value ("" when it has one).
func (c *metricCards) none(d metricDef, o *herdOut) string {
	switch {
	case o == nil || o.runs() == 0:
		return "metric.pending"
	case d.id == "metric-peak" && !c.Config.Server.Traits().Rated:
		return "metric.no-capacity"
	case d.id == "metric-hedges" && !c.Config.Hedge.On():
		return "metric.no-hedging"
	case d.id == "metric-jain" && o.stat(d.f, d.has).n == 0:
		return "metric.no-jain"
	case d.has != nil && o.stat(d.f, d.has).n == 0 && c.Config.RequestLevel():
		return "metric.none-succeeded"
	case d.has != nil && o.stat(d.f, d.has).n == 0:
		return "metric.none-completed"
	}
	return ""
}

func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Render draws the cards as one HTML string: go-app leaves out an
// attribute whose value is empty, and a card without a value must carry
// data-value="" (no measurement), not lack the attribute.
func (c *metricCards) Render() app.UI {
	l := c.Lang
	var b strings.Builder
	cls := "metrics"
	if c.A == nil || c.A.runs() == 0 {
		cls += " pending-metrics"
	}
	if c.Stale {
		cls += " stale"
	}
	b.WriteString(`<div class="` + cls + `"`)
	if c.Stale {
		b.WriteString(` title="` + html.EscapeString(l.T("metric.stale")) + `"`)
	}
	b.WriteString(`>`)
	esc := html.EscapeString
	for _, d := range c.defs() {
		value, shown, hint := "", "—", l.T(d.key+"-t")
		var extra strings.Builder
		span := func(class, text string) {
			extra.WriteString(`<span class="` + class + `">` + esc(text) + `</span>`)
		}
		if why := c.none(d, c.A); why != "" {
			hint = l.T(why)
			span("metric-none", hint)
		} else {
			s := c.A.stat(d.f, d.has)
			value, shown = exact(s.mean), c.format(d.format, s.mean)
			switch d.format {
			case 'g':
				span("metric-share", l.F("metric.share", l.Percent(s.mean, float64(c.A.first.Totals.Clients))))
			case 'q':
				span("metric-share", l.F("metric.share-requests", l.Percent(s.mean, c.A.stat(requestsOf, nil).mean)))
			case 'h':
				span("metric-share", l.F("metric.hedge-load", l.Percent(c.A.stat(hedgeLoadOf, nil).mean, 1)))
			}
			if d.id == "metric-peak" && s.mean == 0 {
				// 0.00× reads as a bug: every call came while the server
				// was down, so no bucket of it being up had a call.
				span("metric-none", l.T("metric.peak-zero"))
			}
			if s.n > 1 {
				kind := d.format
				switch kind {
				case 'g', 'q', 'h':
					kind = 'c'
				case 'p':
					kind = 'j'
				}
				span("metric-sd", l.F("metric.sd", c.format(kind, s.sd), l.Int(int64(s.n))))
			}
		}
		bAttr := ""
		if c.B != nil {
			bValue, bShown := "", "—"
			if why := c.none(d, c.B); why == "" {
				sb := c.B.stat(d.f, d.has)
				bValue, bShown = exact(sb.mean), c.format(d.format, sb.mean)
				if value != "" {
					bShown += " (" + delta(l, c.A.stat(d.f, d.has).mean, sb.mean) + ")"
				}
			}
			bAttr = ` data-value-b="` + esc(bValue) + `"`
			span("metric-b", l.F("metric.b", bShown))
		}
		b.WriteString(`<div id="` + d.id + `" class="metric" data-value="` + esc(value) + `"` + bAttr +
			` title="` + esc(hint) + `"><span class="metric-value">` + esc(shown) +
			`</span><span class="metric-label">` + esc(l.T(d.key)) + `</span>` + extra.String() + `</div>`)
	}
	b.WriteString(`</div>`)
	return app.Raw(b.String())
}

func requestsOf(t sim.Totals) float64  { return float64(t.Requests) }
func hedgeLoadOf(t sim.Totals) float64 { return t.HedgeLoad }

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
