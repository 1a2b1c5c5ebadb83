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

// renderPolicyB is the button that starts a comparison, or the second
// policy's card.
func (p *playground) renderPolicyB(l i18n.Lang) app.UI {
	if !p.st.B.On {
		return app.Div().Class("compare-b").Body(
			app.Button().ID("compare-b").Type("button").Class("secondary").Aria("expanded", "false").OnClick(p.onCompareB).Text(l.T("b.start")),
		)
	}
	b := p.st.B
	items := []app.UI{
		app.Div().Class("card-head").Body(
			app.H2().ID("b-head").TabIndex(-1).Text(l.T("policy.b")),
			app.Button().ID("b-remove").Type("button").Class("secondary").OnClick(p.onCompareB).Text(l.T("b.remove")),
		),
		app.Div().Class("field").Body(
			app.Label().For("b-preset").Text(l.T("policy.preset")),
			presetOptions(l, "b-preset", b.Preset, p.onInputB),
		),
	}
	for _, bx := range bBoxes {
		id := "b-" + bx.param + "-value"
		items = append(items, app.Div().Class("field").Body(
			app.Label().For(id).Text(l.T(bx.label)),
			p.boxB(l, bx.param, l.T(bx.label), l.T(bx.hint)),
			p.fieldError(l, id),
		))
	}
	items = append(items, app.Div().Class("field").Body(
		app.Label().For("b-jitter").Text(l.T("policy.jitter")),
		enumSelect("b-jitter", kindOptions(l, "jitter"), b.Policy.Jitter.String(), p.onInputB),
		p.fieldError(l, "b-jitter-value"),
	))
	return app.Section().ID("policy-b").Class("card controls-b").Aria("label", l.T("policy.b")).Body(items...)
}

// boxB is a typed box of the second policy.
func (p *playground) boxB(l i18n.Lang, param, label, hint string) app.UI {
	id := "b-" + param + "-value"
	v, ok := p.text[id]
	if !ok {
		v = localValue(l, param, p.st.B.Policy.Get(param))
	}
	return p.textBox(l, id, v, label, hint, !isDuration(param), p.onInputB)
}

// onCompareB starts a comparison (the second policy begins as a copy of
// the first) or ends it.
func (p *playground) onCompareB(ctx app.Context, e app.Event) {
	if p.st.B.On {
		p.st.B = policyB{}
	} else {
		p.st.B = policyB{On: true, Preset: p.st.Preset, Policy: p.st.Policy}
	}
	for k := range p.errs {
		if strings.HasPrefix(k, "b-") {
			delete(p.errs, k)
		}
	}
	p.changed(ctx, true)
	// The focus goes where the work goes on: the second policy's card, or
	// the button that brings it back.
	if p.st.B.On {
		p.focusAfter(ctx, "b-head")
	} else {
		p.focusAfter(ctx, "compare-b")
	}
}

// onInputB handles the second policy's controls, as onInput the first's:
// selects apply at once, typed boxes when committed.
func (p *playground) onInputB(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	id := src.Get("id").String()
	v := src.Get("value").String()
	commit := e.Get("type").String() == "change"
	b := p.st.B
	switch id {
	case "b-preset":
		if v == articleValue {
			v = ""
		}
		if v == b.Preset && b.Policy == basePolicy(v) {
			return
		}
		p.st.B.Preset, p.st.B.Policy = v, basePolicy(v)
		p.changed(ctx, true)
		return
	case "b-jitter":
		p.setParamB(ctx, backoff.ParamJitter, "b-jitter-value", v, false, true)
		return
	}
	if name, ok := strings.CutPrefix(id, "b-"); ok && strings.HasSuffix(name, "-value") {
		p.setParamB(ctx, strings.TrimSuffix(name, "-value"), id, v, true, commit)
	}
}

// setParamB checks, and applies when apply is set, one field of the second
// policy; errors show under its control.
func (p *playground) setParamB(ctx app.Context, name, id, v string, typed, apply bool) {
	if p.boxes.setPolicyParam(p.lang(), &p.st.B.Policy, name, id, v, typed, apply) {
		p.changed(ctx, true)
	}
}
