package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runExtras draws what a run has beyond its timeline: a call chain's
// calls per request at each layer, the shared channel's throughput against
// its offered load with ALOHA's curves, and, for up to a few hundred
// clients, a strip of each client's tries, successes and give-ups (an
// unlucky one stands out). Each figure has an id: chain-chart,
// channel-chart, client-strip.
type runExtras struct {
	app.Compo
	A      *herdOut
	Rev    uint64 // herdRunner.rev: changes when a run is added to A
	Config sim.Config
	Lang   i18n.Lang
	// Present: presenter mode, whose client strip is drawn for its type.
	Present bool
}

func (c *runExtras) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().Class("run-extras")
	}
	r := c.A.first
	t := r.Totals
	var figs []app.UI
	fig := func(id, head string, svg string, keys ...string) {
		figs = append(figs, app.Figure().ID(id).Class("req-chart").Body(
			app.FigCaption().Text(l.T(head)), legend(keys...), app.Div().Class("req-pair").Body(app.Raw(svg))))
	}
	if c.Config.Layers > 1 && t.CallsPerRequestByLayer != nil {
		attempts := make([]int, c.Config.Layers)
		for k := range attempts {
			attempts[k] = c.Config.LayerAttemptsAt(k)
		}
		fig("chain-chart", "req.h-chain", chart.Chain(l, t.CallsPerRequestByLayer, attempts, l.T("chart.chain")))
	}
	if c.Config.Server.Traits().Waits == sim.WaitMedium {
		fig("channel-chart", "req.h-channel", chart.Channel(l, c.Config.Channel, t.OfferedLoad, t.ChannelThroughput, l.T("chart.channel")),
			"aloha", l.T("req.legend-aloha"), "slotted", l.T("req.legend-slotted"), "run", l.T("req.legend-run"))
	}
	if r.Trace != nil {
		span := r.Totals.Makespan
		fig("client-strip", "req.h-strip", chart.Strip(l, r.Trace, span, l.T("chart.strip"), c.Present),
			"try", l.T("req.legend-try"), "ok", l.T("req.legend-success"), "rejected", l.T("req.legend-gave-up"))
	}
	return app.Div().Class("run-extras requests").Body(figs...)
}
