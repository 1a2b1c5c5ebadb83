package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// topologyPanel is the herd's request path, a component: the drawing of
// its nodes with the run's figures (topologyView) and the document that
// describes it (#topology-text), which the reader may edit and apply
// (#topology-apply): the text is read (sim.ParseTopology) and lowered
// onto the defaults under the page's policy (sim.Topology.Config), and
// the page runs it. An error shows beside the box, in the page's
// language, naming the node, the key, the value, what is allowed and
// the line. The box shows the config's document until the reader types
// in it, and again once a text is applied or the config changes.
type topologyPanel struct {
	app.Compo

	Lang   i18n.Lang
	Config sim.Config
	Policy backoff.Policy // the page's, which the clients run
	Totals *sim.Totals    // the run's (nil: none yet)
	Rev    uint64

	typed  string // what the reader typed, while edited
	edited bool
	err    error // the last apply's, until one succeeds or the config changes
	shown  sim.Config
	ctl    topoControls
}

// topologyChange is a topology lowered to the page's state: the herd's
// config and, when the document has retry:, the policy it gives.
type topologyChange struct {
	Config sim.Config
	Policy backoff.Policy
	Retry  bool
}

func (p *topologyPanel) OnInit() {
	p.ctl = topoControls{errs: map[string]error{}, fault: faultKinds[0]}
}

func (p *topologyPanel) OnMount(ctx app.Context) { p.shown = p.Config }

// OnUpdate shows the new config's document when the config changed
// under an untouched box, or under an edit that was applied.
func (p *topologyPanel) OnUpdate(ctx app.Context) {
	if p.Config == p.shown {
		return
	}
	p.shown = p.Config
	p.edited, p.err = false, nil
	clear(p.ctl.errs)
	setValue("topology-text", p.text())
}

// text is what the box shows.
func (p *topologyPanel) text() string {
	if p.edited {
		return p.typed
	}
	return p.Config.Topology().String()
}

func (p *topologyPanel) onInput(ctx app.Context, e app.Event) {
	p.typed, p.edited = ctx.JSSrc().Get("value").String(), true
	ctx.PreventUpdate()
}

// onApply reads the box and sends the config it lowers to; a text that
// does not read or lower stays, with its error beside it.
func (p *topologyPanel) onApply(ctx app.Context, e app.Event) {
	text := app.Window().GetElementByID("topology-text").Get("value").String()
	ch, err := lowerTopology(text, p.Policy)
	if err != nil {
		p.typed, p.edited, p.err = text, true, err
		return
	}
	p.edited, p.err = false, nil
	if ch.Config == p.Config && !ch.Retry {
		setValue("topology-text", p.text()) // the same run: its canonical text
		return
	}
	ch.send(ctx)
}

// keyTopology is a link's topology: a document (JSON or the YAML subset)
// the page lowers onto the herd the link's other keys give; the page's
// own links write the shorthand keys it lowers to.
const keyTopology = "topology"

// lowerTopology reads a document and lowers it (lowerDoc).
func lowerTopology(text string, pol backoff.Policy) (topologyChange, error) {
	return lowerOnto(text, sim.DefaultConfig(), pol)
}

// lowerOnto reads a document and lowers it onto base.
func lowerOnto(text string, base sim.Config, pol backoff.Policy) (topologyChange, error) {
	t, err := sim.ParseTopology(text)
	if err != nil {
		return topologyChange{}, err
	}
	return lowerDocOnto(t, base, pol)
}

// lowerDoc lowers a document onto the defaults, its clients running pol
// under what its retry: gives.
func lowerDoc(t *sim.Topology, pol backoff.Policy) (topologyChange, error) {
	return lowerDocOnto(t, sim.DefaultConfig(), pol)
}

func lowerDocOnto(t *sim.Topology, base sim.Config, pol backoff.Policy) (topologyChange, error) {
	base.Policy = pol
	c, err := t.Config(base)
	if err != nil {
		return topologyChange{}, err
	}
	ch := topologyChange{Config: c, Policy: c.Policy, Retry: len(t.Retry) > 0}
	ch.Config.Policy = backoff.Default() // the herd's own is not run (herdState)
	return ch, nil
}

// send hands an applied topology to the page, as a history entry; the
// panels show its values.
func (ch topologyChange) send(ctx app.Context) {
	sendEdit(ctx, edit{set: func(st *state) bool {
		st.Herd.Config = ch.Config
		if ch.Retry {
			st.Policy = ch.Policy
		}
		return true
	}, rerun: true, push: true, replace: true})
}

// setValue sets a form control's value, which its text in the page no
// longer sets once the reader has typed in it.
func setValue(id, v string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", v)
	}
}

func (p *topologyPanel) Render() app.UI {
	l := p.Lang
	msg := ""
	if p.err != nil {
		msg = topologyErrText(l, p.err)
	}
	box := app.Textarea().ID("topology-text").Class("code").Rows(10).Attr("spellcheck", "false").Attr("autocomplete", "off").
		Aria("describedby", "topology-text-error").Text(p.text()).OnInput(p.onInput)
	if msg != "" {
		box = box.Class("invalid").Aria("invalid", "true")
	}
	return app.Section().ID("topology").Class("topology").Aria("labelledby", "topology-head").Body(
		app.H3().ID("topology-head").Text(l.T("topo.head")),
		app.P().Class("hint").Text(l.T("topo.hint")),
		&topologyView{Lang: l, Config: p.Config, Totals: p.Totals, Rev: p.Rev},
		app.Div().Class("topology-edit").Body(
			app.Label().For("topology-text").Text(l.T("topo.text")),
			box,
			app.P().ID("topology-text-error").Class("field-error").Aria("live", "polite").Hidden(msg == "").Text(msg),
			app.Button().ID("topology-apply").Type("button").Class("small").OnClick(p.onApply).Text(l.T("topo.apply")),
		),
		p.controls(),
	)
}
