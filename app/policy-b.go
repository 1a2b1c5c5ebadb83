package app

import (
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The second policy of a comparison: its own card of the main knobs (its
// URL keys are the first's with the prefix b., so every knob works from a
// link), its table (#delay-table-b), its bars beside the first's on the
// delay chart, its herd on the first's scale and its numbers in the cards.

// bBoxes are the typed boxes of the second policy's card, by param.
var bBoxes = []struct{ param, label, hint string }{
	{backoff.ParamBase, "policy.base", "policy.base-hint"},
	{backoff.ParamFactor, "policy.factor", "policy.factor-hint"},
	{backoff.ParamCap, "policy.cap", "policy.cap-hint"},
	{backoff.ParamAttempts, "policy.attempts", "policy.attempts-hint"},
	{backoff.ParamDeadline, "policy.deadline-short", "policy.deadline-hint"},
}

// policyBPanel is the second policy's card, a component: the button that
// starts a comparison (the second policy begins as Start, a copy of the
// first), or the card. It owns what it edits, as the first policy's panel
// does, and sends each accepted edit to the page (an edit); it takes
// the link's (Link) only when the page replaces its state (stateLink).
type policyBPanel struct {
	app.Compo

	Lang  i18n.Lang
	Start policyB
	Link  policyB

	b policyB
	linked
	boxes
}

func (c *policyBPanel) OnInit() {
	c.boxes = newBoxes()
	c.b = c.Link
}

func (c *policyBPanel) OnMount(ctx app.Context) { c.observe(ctx, c.take) }

// take takes the second policy of a state the page replaced its own with.
func (c *policyBPanel) take(st *state) {
	c.b = st.B
	c.reset()
}

// newPolicyBPanel is the second policy's panel.
func newPolicyBPanel(v pageView) app.UI {
	return &policyBPanel{Lang: v.lang, Start: policyB{On: true, Preset: v.st.Preset, Policy: v.st.Policy}, Link: v.st.B}
}

func (c *policyBPanel) Render() app.UI {
	l, b := c.Lang, c.b
	if !b.On {
		return app.Div().Class("compare-b").Body(
			app.Button().ID("compare-b").Type("button").Class("secondary").Aria("expanded", "false").OnClick(c.onCompare).Text(l.T("b.start")),
		)
	}
	items := []app.UI{
		app.Div().Class("card-head").Body(
			app.H2().ID("b-head").TabIndex(-1).Text(l.T("policy.b")),
			app.Button().ID("b-remove").Type("button").Class("secondary").OnClick(c.onCompare).Text(l.T("b.remove")),
		),
		app.Div().Class("field").Body(
			app.Label().For("b-preset").Text(l.T("policy.preset")),
			presetOptions(l, "b-preset", b.Preset, c.onPreset),
		),
	}
	for _, bx := range bBoxes {
		id := "b-" + bx.param + "-value"
		items = append(items, app.Div().Class("field").Body(
			app.Label().For(id).Text(l.T(bx.label)),
			c.box(bx.param, l.T(bx.label), l.T(bx.hint)),
			c.fieldError(l, id),
		))
	}
	items = append(items, app.Div().Class("field").Body(
		app.Label().For("b-jitter").Text(l.T("policy.jitter")),
		enumSelect("b-jitter", kindOptions(l, "jitter"), b.Policy.Jitter.String(), c.onJitter),
		c.fieldError(l, "b-jitter-value"),
	))
	return app.Section().ID("policy-b").Class("card controls-b").Aria("label", l.T("policy.b")).Body(items...)
}

// box is a typed box of the second policy.
func (c *policyBPanel) box(param, label, hint string) app.UI {
	id := "b-" + param + "-value"
	v, ok := c.text[id]
	if !ok {
		v = localValue(c.Lang, param, c.b.Policy.Get(param))
	}
	return c.textBox(c.Lang, id, v, label, hint, !isDuration(param), c.onInput)
}

// onCompare starts a comparison (the second policy begins as a copy of the
// first) or ends it.
func (c *policyBPanel) onCompare(ctx app.Context, e app.Event) {
	if c.b.On {
		c.b = policyB{}
	} else {
		c.b = c.Start
	}
	c.reset()
	// The focus goes where the work goes on: the second policy's card, or
	// the button that brings it back.
	focus := "compare-b"
	if c.b.On {
		focus = "b-head"
	}
	c.send(ctx, focus)
}

// send hands the second policy to the page (On false: the comparison
// ended), and the focus to an element once drawn ("": where it is).
func (c *policyBPanel) send(ctx app.Context, focus string) {
	sendEdit(ctx, edit{set: setTo(func(st *state) *policyB { return &st.B }, c.b), rerun: true, push: true, focus: focus})
}

// onPreset starts the second policy from a preset.
func (c *policyBPanel) onPreset(ctx app.Context, e app.Event) {
	var changed bool
	if c.b.Preset, c.b.Policy, changed = pickPreset(ctx.JSSrc().Get("value").String(), c.b.Preset, c.b.Policy); changed {
		c.send(ctx, "")
	}
}

// onJitter applies the second policy's jitter kind at once.
func (c *policyBPanel) onJitter(ctx app.Context, e app.Event) {
	c.set(ctx, backoff.ParamJitter, "b-jitter-value", ctx.JSSrc().Get("value").String(), false, true)
}

// onInput handles the second policy's typed boxes (#b-PARAM-value), as
// the first's panel does: applied when committed.
func (c *policyBPanel) onInput(ctx app.Context, e app.Event) {
	id, v, commit := boxEvent(ctx, e)
	if name, ok := strings.CutPrefix(id, "b-"); ok && strings.HasSuffix(name, "-value") {
		c.set(ctx, strings.TrimSuffix(name, "-value"), id, v, true, commit)
	}
}

// set checks, and applies when apply is set, one field of the second
// policy; errors show under its control.
func (c *policyBPanel) set(ctx app.Context, name, id, v string, typed, apply bool) {
	if c.setPolicyParam(c.Lang, &c.b.Policy, name, id, v, typed, apply) {
		c.send(ctx, "")
	}
}
