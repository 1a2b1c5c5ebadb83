package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A view is one widget that ?view= shows alone. views names each view
// once: ?view='s values, the Embed panel's choices, the lessons' widgets,
// the pre-rendered pages, the document's title, the downloads and the
// server's /svg/ images all read it. A new view is its name here, its
// drawing in viewDraws, its catalog title (view.NAME) and, if it is a
// picture, its server drawing (serverImages); TestViewRegistry holds the
// four together.
var views = []string{"table", "delays", "herd", "compare", "classify", "sweep", "flow"}

// viewDraw is how a view is drawn: its widget, and its picture as SVG
// ("" while there is nothing to draw), which the page downloads and the
// server draws for a Markdown image; nil for a view that is no picture
// (the classifier).
type viewDraw struct {
	widget  func(p *playground, l i18n.Lang) app.UI
	picture func(p *playground, l i18n.Lang) string
	// herd, compare: the view shows the herd's runs, and the compare
	// runs (one per jitter kind) made after them; a view alone runs only
	// what it shows.
	herd, compare bool
	// runs are the simulation runs the view's picture makes for a link's
	// state (nil: none), whose memory an image's budget bounds first.
	runs func(s *state) []sim.Config
	// held is what the picture holds beyond its runs, in bytes (the
	// flow's calls).
	held int64
}

// viewDraws are the views' drawings by name. They are set in init, apart
// from views, because drawing reads the state and reading a link's state
// reads the views' names: Go refuses that cycle between package variables.
var viewDraws map[string]viewDraw

func init() {
	viewDraws = map[string]viewDraw{
		"table":  {(*playground).renderDelays, (*playground).tablePicture, false, false, nil, 0},
		"delays": {(*playground).renderDelayCharts, (*playground).delaysPicture, false, false, nil, 0},
		"herd": {(*playground).herdWidget, (*playground).herdPicture, true, false,
			func(s *state) []sim.Config { return []sim.Config{herdImageConfig(s)} }, 0},
		"compare":  {(*playground).renderCompare, (*playground).comparePicture, true, true, compareImageConfigs, 0},
		"classify": {(*playground).renderClassify, nil, false, false, nil, 0},
		"sweep":    {(*playground).renderSweep, (*playground).sweepPicture, false, false, sweepImageConfigs, 0},
		"flow": {(*playground).renderFlow, (*playground).flowPicture, false, false,
			func(s *state) []sim.Config { return []sim.Config{flowImageConfig(s)} }, flowRecorderMemory},
	}
}

// runs says which runs the page shows: the whole page and a lesson all of
// them (a lesson's prompt may send its reader to the page), a view alone
// those of its widget.
func (p *playground) runs() (herd, compare bool) {
	if p.st.View == "" || p.st.Lesson > 0 {
		return true, true
	}
	d := viewDraws[p.st.View]
	return d.herd, d.compare
}

// isPicture says whether the view called name is a picture.
func isPicture(name string) bool { return viewDraws[name].picture != nil }

// viewTitle is view's title in l: its heading, its iframe's and
// document's title and its label in the Embed panel.
func viewTitle(l i18n.Lang, name string) string {
	return l.T("view." + name)
}

// widget is one view's widget alone (the classifier's for no view).
func (p *playground) widget(l i18n.Lang, name string) app.UI {
	d, ok := viewDraws[name]
	if !ok {
		d = viewDraws["classify"]
	}
	return d.widget(p, l)
}

func (p *playground) herdWidget(l i18n.Lang) app.UI { return p.renderHerd(l, false) }

func (p *playground) tablePicture(l i18n.Lang) string {
	if p.table == nil {
		return ""
	}
	return chart.TableSVG(l, p.table)
}

func (p *playground) delaysPicture(l i18n.Lang) string {
	svg, _, _ := drawDelays(l, p.table, p.tableB, p.st.Seed, p.st.Log)
	return svg
}

func (p *playground) herdPicture(l i18n.Lang) string {
	if h := p.herd.a; h != nil && h.first != nil {
		return herdImage(l, p.st.Herd.Config, h)
	}
	return ""
}

func (p *playground) comparePicture(l i18n.Lang) string {
	return compareSVG(l, p.herd.cmp)
}

// renderSweep is the sweep panel: it runs its own sweeps.
func (p *playground) renderSweep(l i18n.Lang) app.UI {
	return &sweepPanel{Lang: l, Alone: p.alone(), Cfg: p.st.Herd.config(p.st.Policy), B: p.st.B.Policy, HasB: p.st.B.On,
		Seed: p.st.Seed, St: p.st.Sweep, Box: &p.sweep}
}

func (p *playground) sweepPicture(l i18n.Lang) string {
	if p.sweep.job == nil {
		return ""
	}
	return p.sweep.job.picture(l)
}

// onSweep takes the sweep panel's settings into the state and the link:
// a history entry.
func (p *playground) onSweep(ctx app.Context, a app.Action) {
	if w, ok := a.Value.(sweepState); ok && w != p.st.Sweep {
		p.st.Sweep = w
		p.urlPush = true
		p.writeURL(ctx)
	}
}

// renderFlow is the flow view: it runs and plays its own flow.
func (p *playground) renderFlow(l i18n.Lang) app.UI {
	return &flowView{Lang: l, Alone: p.alone(), Cfg: p.st.Herd.config(p.st.Policy), Seed: p.st.Seed, Box: &p.flow}
}

// flowPicture is the flow view's last flow as an animated picture.
func (p *playground) flowPicture(l i18n.Lang) string {
	if p.flow.flow == nil {
		return ""
	}
	svg, _ := flowAnimated(l, p.flow.flow, p.flow.lay) // too big: nothing to download
	return svg
}

// onFlowFault adds a fault injected in the flow view to the link's
// faults: the herd runs again, and the flow view with it.
func (p *playground) onFlowFault(ctx app.Context, a app.Action) {
	f, ok := a.Value.(string)
	if !ok {
		return
	}
	c := p.st.Herd.Config
	all := f
	if cur := c.Get(sim.ParamFault); cur != "none" {
		all = cur + ";" + f
	}
	if c.Set(sim.ParamFault, all) == nil && c.Validate() == nil {
		p.st.Herd.Config = c
		p.herdChanged(ctx)
	}
}
