package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// topologyPanel is the herd's request path, a component: the drawing of
// its nodes with the run's figures (topologyView).
type topologyPanel struct {
	app.Compo

	Lang   i18n.Lang
	Config sim.Config
	Totals *sim.Totals // the run's (nil: none yet)
	Rev    uint64
}

func (p *topologyPanel) Render() app.UI {
	l := p.Lang
	return app.Section().ID("topology").Class("topology").Aria("labelledby", "topology-head").Body(
		app.H3().ID("topology-head").Text(l.T("topo.head")),
		app.P().Class("hint").Text(l.T("topo.hint")),
		&topologyView{Lang: l, Config: p.Config, Totals: p.Totals, Rev: p.Rev},
	)
}
