package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// chartNumbers is a chart's numbers, a table per policy behind a "Show
// the numbers" toggle (the herd's, or with Requests the steady traffic's),
// from the series the charts draw: for the herd herdSeries (each bucket's
// calls answered, succeeded and rejected, the load against the capacity,
// the outage), for steady traffic chart.RequestSeriesOf (requests offered,
// calls sent and goodput per second, the queue, the latency, the faults).
// One component for both: a second type would cost app.wasm bytes for the
// same toggle.
type chartNumbers struct {
	app.Compo
	A, B     *herdOut // B: the second policy's runs, or nil
	Rev      uint64   // herdRunner.rev: changes when a run is added to A or B
	Config   sim.Config
	Requests bool
	Lang     i18n.Lang
	open     bool
}

func (c *chartNumbers) onToggle(ctx app.Context, e app.Event) { c.open = !c.open }

func (c *chartNumbers) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().Class("numbers")
	}
	id, ids := "herd-numbers", []string{"herd-table", "herd-table-b"}
	if c.Requests {
		id, ids = "req-numbers", []string{"req-table", "req-table-b"}
	}
	btn := app.Button().ID(id+"-toggle").Type("button").Class("secondary small").
		Aria("expanded", boolText(c.open)).Aria("controls", id).OnClick(c.onToggle)
	if !c.open {
		return app.Div().Class("numbers").Body(btn.Text(l.T("numbers.show")))
	}
	// The open state is the component's, not the link's: the tables are a
	// way of reading what the link already says.
	var html string
	outs := []*herdOut{c.A}
	if c.B != nil && c.B.first != nil {
		outs = append(outs, c.B)
	}
	herd := herdSeries(c.A, c.B)
	for i, o := range outs {
		prefix := ""
		if len(outs) > 1 {
			prefix = l.T([]string{"policy.a", "policy.b"}[i]) + ": "
		}
		if c.Requests {
			s := chart.RequestSeriesOf(c.Config, o.first)
			html += chart.RequestTable(l, s, ids[i], prefix+l.F("numbers.req-caption", l.Seconds(s.Width)))
		} else {
			html += chart.HerdTable(l, herd[i], ids[i], prefix+l.F("numbers.herd-caption", l.Seconds(herd[i].Width)))
		}
	}
	return app.Div().Class("numbers").Body(btn.Text(l.T("numbers.hide")),
		app.Div().ID(id).Class("table-wrap numbers-wrap").TabIndex(0).Role("region").Aria("label", l.T("numbers.region")).
			Body(app.Raw(`<div>`+html+`</div>`)))
}
