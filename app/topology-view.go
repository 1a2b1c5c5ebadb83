package app

import (
	"strings"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// topologyView draws the run's request path, a component: the clients and
// the nodes of its config's topology (sim.Config.Topology) as boxes with
// their kind and knobs, an arrow for each call, and each node's figures
// from the run under its box (Totals nil: none yet, or a run under way).
// Beside the drawing, a list says the same for screen readers.
type topologyView struct {
	app.Compo

	Lang   i18n.Lang
	Config sim.Config
	Totals *sim.Totals
	Rev    uint64
}

func (v *topologyView) Render() app.UI {
	l := v.Lang
	nodes := topoNodes(l, &v.Config, v.Totals)
	items := make([]app.UI, len(nodes))
	for i, n := range nodes {
		items[i] = app.Li().Text(topoSentence(l, n))
	}
	return app.Div().ID("topology-view").Class("topology-view").Body(
		// The list is what a screen reader reads; the drawing says the
		// same to the eye.
		app.Div().Class("topology-drawing").Aria("hidden", "true").Body(app.Raw(chart.Topology(nodes, l.T("topo.aria")))),
		app.Ul().ID("topology-list").Class("visually-hidden").Aria("label", l.T("topo.aria")).Body(items...),
	)
}

// topoSentence is a node said in words: its title, its knobs, its
// figures.
func topoSentence(l i18n.Lang, n chart.TopoNode) string {
	s := n.Title
	if len(n.Knobs) > 0 {
		s += ": " + strings.Join(n.Knobs, ", ")
	}
	if len(n.Figures) > 0 {
		figs := make([]string, len(n.Figures))
		for i, f := range n.Figures {
			figs[i] = f.Text
		}
		s += ". " + strings.Join(figs, ", ")
	}
	return s
}

// topoNodes are c's clients and nodes as the drawing takes them, with
// the figures of t (nil: none).
func topoNodes(l i18n.Lang, c *sim.Config, t *sim.Totals) []chart.TopoNode {
	tp := c.Topology()
	at := map[string]int{}
	for i, n := range tp.Nodes {
		at[n.Name] = i + 1
	}
	out := make([]chart.TopoNode, 1, len(tp.Nodes)+1)
	out[0] = chart.TopoNode{Name: "", Title: l.T("node.clients"), Knobs: []string{knobText(l, sim.ParamTraffic, c.Get(sim.ParamTraffic))}}
	figs := map[string][]sim.NodeFigure{}
	if t != nil {
		for _, n := range t.PerNode {
			figs[n.Name] = n.Figures
		}
	}
	for _, n := range tp.Nodes {
		tn := chart.TopoNode{Name: n.Name, Title: l.F("node.title", n.Name, l.T("node."+n.Kind)), Level: -1}
		for _, s := range n.Keys {
			v := s.Value
			if s.List != nil {
				v = strings.Join(s.List, ", ")
				for _, to := range s.List {
					if k, ok := at[to]; ok {
						tn.Calls = append(tn.Calls, k)
					}
				}
			}
			tn.Knobs = append(tn.Knobs, knobText(l, s.Key, v))
		}
		for _, f := range figs[n.Name] {
			tn.Figures = append(tn.Figures, chart.TopoFigure{Key: f.Key, Value: f.Value,
				Text: l.F("node.figure", l.T("node.fig."+f.Key), figureText(l, f))})
		}
		out = append(out, tn)
	}
	// The clients call the entry: the node nobody else calls.
	called := map[int]bool{}
	for _, n := range out {
		for _, k := range n.Calls {
			called[k] = true
		}
	}
	for i := 1; i < len(out); i++ {
		if !called[i] {
			out[0].Calls = append(out[0].Calls, i)
		}
	}
	// Levels: hops from the clients.
	out[0].Level = 0
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		for _, k := range out[queue[0]].Calls {
			if out[k].Level < 0 {
				out[k].Level = out[queue[0]].Level + 1
				queue = append(queue, k)
			}
		}
	}
	return out
}

// figureText is a figure's value in l: a share as a percentage, a count
// as a whole number.
func figureText(l i18n.Lang, f sim.NodeFigure) string {
	if contains(shareFigures, f.Key) {
		return l.Percent(f.Value, 1)
	}
	return l.Int(int64(f.Value))
}
