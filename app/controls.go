package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The policy controls, rendered by the playground (they edit its state).

// knob is a value box that a select shows while one of its entries (kind)
// is chosen: the parameters of that kind alone. Data, not code: each
// control rendered costs the wasm far more than a table row. label and
// hint are catalog keys.
type knob struct{ kind, param, label, hint string }

var (
	jitterKnobs = []knob{
		{"proportional", backoff.ParamJitterLo, "policy.jitter-lo", "policy.lo-hint"},
		{"proportional", backoff.ParamJitterHi, "policy.jitter-hi", "policy.hi-hint"},
		{"additive", backoff.ParamJitterAdd, "policy.jitter-add", "policy.add-hint"},
	}
	growthKnobs = []knob{
		{"geometric", backoff.ParamSteps, "policy.steps", "policy.steps-hint"},
	}
)

// isDuration reports whether a box takes a duration with its unit.
func isDuration(param string) bool {
	switch param {
	case backoff.ParamBase, backoff.ParamCap, backoff.ParamDeadline, backoff.ParamJitterAdd, backoff.ParamFloor:
		return true
	}
	return false
}

// box is a policy box's text: what the user is typing, else the value in
// the page's language (1,5 с in Russian).
func (p *playground) box(l i18n.Lang, param string) string {
	if t, ok := p.text[param+"-value"]; ok {
		return t
	}
	return localValue(l, param, p.st.Policy.Get(param))
}

// localValue is a parameter's canonical text as the page's language writes
// it: durations in its units, numbers with its decimal mark.
func localValue(l i18n.Lang, param, v string) string {
	if d, err := time.ParseDuration(v); err == nil && strings.ContainsAny(v, "hmsuµn") {
		return l.Duration(d, v)
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return l.NumText(v)
	}
	return v
}

// durationOf is a duration parameter's value.
func durationOf(pol backoff.Policy, param string) time.Duration {
	d, _ := time.ParseDuration(pol.Get(param))
	return d
}

// fieldError is the inline error slot of one control; empty when valid.
func (p *playground) fieldError(l i18n.Lang, id string) app.UI {
	msg := ""
	if e, ok := p.errs[id]; ok {
		msg = errText(l, e.err, e.typed)
	}
	return app.P().ID(id+"-error").Class("field-error").Aria("live", "polite").Hidden(msg == "").Text(msg)
}

func (p *playground) valueBox(l i18n.Lang, param, label, hint string) app.UI {
	return p.textBox(l, param+"-value", p.box(l, param), label, hint, !isDuration(param), p.onInput)
}

// textBox is every typed box of the page: id, its text, the label a screen
// reader says, its tooltip, whether a number pad suits it (durations need
// letters: 250ms, 2m), and its handler; marked invalid while its text is.
func (p *playground) textBox(l i18n.Lang, id, value, label, hint string, numeric bool, h app.EventHandler) app.UI {
	in := app.Input().Type("text").ID(id).Class("value-box").Value(value).
		Aria("label", l.F("policy.value", label)).Aria("describedby", id+"-error").
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		Title(hint).OnInput(h).OnChange(h).OnFocus(selectAll)
	if numeric {
		in = in.Attr("inputmode", "decimal")
	}
	if _, bad := p.errs[id]; bad {
		in = in.Class("invalid").Aria("invalid", "true")
	}
	return in
}

// selectAll selects a box's text as it gets focus, so what is typed
// replaces the value: typed after it, "30s" made "10s30s".
func selectAll(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }

// selectField is a labelled select of opts, then the knobs of the chosen
// entry (last, so that showing them shifts no other control).
func (p *playground) selectField(l i18n.Lang, id, label string, opts []option, cur string, knobs []knob) app.UI {
	var items []app.UI
	for _, k := range knobs {
		if k.kind == cur {
			items = append(items, app.Div().Class("sub-field").Body(
				app.Label().For(k.param+"-value").Text(l.T(k.label)),
				p.valueBox(l, k.param, l.T(k.label), l.T(k.hint)),
				p.fieldError(l, k.param+"-value"),
			))
		}
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		enumSelect(id, opts, cur, p.onInput),
		p.fieldError(l, id+"-value"),
		app.Div().Class("sub-fields").Hidden(len(items) == 0).Body(items...),
	)
}

// sliderField is a labelled range input with a typed box beside it, for
// param; one helper for all four, since each go-app call site costs
// app.wasm bytes. pos is the slider's position, valuetext what a screen
// reader says for it; note (may be nil) follows the label, extra (may be
// nil) the error slot.
func (p *playground) sliderField(l i18n.Lang, param, label string, note app.UI, min, max any, step float64, pos, valuetext, hint string, extra app.UI) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(param).Body(app.Text(label+" "), note),
		app.Div().Class("slider-row").Body(
			app.Input().Type("range").ID(param).Min(min).Max(max).Step(step).Value(pos).
				Aria("valuetext", valuetext).OnInput(p.onInput).OnChange(p.onInput),
			p.valueBox(l, param, label, hint),
		),
		p.fieldError(l, param+"-value"),
		extra,
		p.solveControl(l, param),
	)
}

func (p *playground) durationField(l i18n.Lang, param, label, hint string) app.UI {
	d := durationOf(p.st.Policy, param)
	return p.sliderField(l, param, label, nil, 0, sliderSteps, 1, strconv.Itoa(sliderPos(d)), p.box(l, param), hint, nil)
}

func (p *playground) renderControls(l i18n.Lang) app.UI {
	pol := p.st.Policy
	retries := l.T("policy.no-limit")
	if pol.Attempts > 0 {
		retries = l.F("policy.eq-retries", l.Count(int64(pol.Attempts-1), "unit.retries"))
	}
	presetLabel := p.st.Preset
	if presetLabel == "" {
		presetLabel = l.T("policy.article-name")
	}
	var source app.UI = app.Text(l.T("policy.article-src"))
	desc := ""
	if pr, err := backoff.LookupPreset(p.st.Preset); err == nil {
		source = sourceLink(l, pr.Source)
		desc = l.PresetDescription(pr.Name, pr.Description)
	}
	mod := ""
	if p.st.modified() {
		mod = l.F("policy.modified", presetLabel)
	}

	return app.Section().Class("card controls").Aria("label", l.T("policy.head")).Body(
		app.H2().Text(l.T("policy.head")),
		app.Div().Class("field").Body(
			app.Label().For("preset").Text(l.T("policy.preset")),
			p.presetSelect(l),
			app.P().ID("preset-source").Class("source").Body(source),
			// Hidden rather than left out: the ids are always there.
			app.P().ID("preset-desc").Class("preset-desc").Hidden(desc == "").Text(desc),
			app.P().ID("modified").Class("modified").Hidden(mod == "").Text(mod),
			p.throttleSwitch(l),
		),
		p.durationField(l, backoff.ParamBase, l.T("policy.base"), l.T("policy.base-hint")),
		p.sliderField(l, backoff.ParamFactor, l.T("policy.factor"), nil, 1, 4, 0.05,
			pol.Get(backoff.ParamFactor), p.box(l, backoff.ParamFactor), l.T("policy.factor-hint"), nil),
		p.durationField(l, backoff.ParamCap, l.T("policy.cap"), l.T("policy.cap-hint")),
		p.sliderField(l, backoff.ParamAttempts, l.T("policy.attempts"), app.Span().ID("attempts-retries").Class("retries").Text(retries),
			0, attemptsSteps, 1, strconv.Itoa(attemptsPos(pol.Attempts)), pol.Get(backoff.ParamAttempts)+" "+retries,
			l.T("policy.attempts-hint"),
			app.P().Class("hint").Text(l.T("policy.attempts-note"))),
		p.selectField(l, "jitter", l.T("policy.jitter"), kindOptions(l, "jitter"), pol.Jitter.String(), jitterKnobs),
		p.selectField(l, "cap-mode", l.T("policy.cap-mode"), kindOptions(l, "cap-mode"), pol.CapMode.String(), nil),
		app.Div().Class("field").Body(
			app.Label().For("deadline-value").Text(l.T("policy.deadline")),
			p.valueBox(l, backoff.ParamDeadline, l.T("policy.deadline-short"), l.T("policy.deadline-hint")),
			p.fieldError(l, "deadline-value"),
		),
		app.Div().Class("field").Body(
			app.Label().For("seed").Text(l.T("policy.seed")),
			app.Div().Class("slider-row").Body(
				app.Input().Type("text").ID("seed").Class("value-box seed").Attr("inputmode", "numeric").
					Value(strconv.FormatUint(p.st.Seed, 10)).OnInput(p.onInput).OnChange(p.onInput),
				app.Button().ID("reroll").Type("button").Title(l.T("policy.reroll-hint")).OnClick(p.onReroll).Text(l.T("policy.reroll")),
			),
			p.fieldError(l, "seed"),
		),
		// The rarer knobs under a plain heading: a disclosure (a <details>,
		// or a toggle button) cost app.wasm 10 KB.
		app.H3().Class("advanced").Text(l.T("policy.advanced")),
		app.Div().Class("field").Body(
			app.Label().For("floor-value").Text(l.T("policy.floor")),
			p.valueBox(l, backoff.ParamFloor, l.T("policy.floor-short"), l.T("policy.floor-hint")),
			p.fieldError(l, "floor-value"),
		),
		p.selectField(l, "growth", l.T("policy.growth"), kindOptions(l, "growth"), pol.Growth.String(), growthKnobs),
		app.P().Class("lesson").Text(l.T("policy.lesson")),
	)
}

// sourceLink is a preset's source: a link to the file where the text names
// a repository and a file in it, else plain text.
func sourceLink(l i18n.Lang, src string) app.UI {
	label := app.Text(l.T("policy.source") + " ")
	if u := sourceURL(src); u != "" {
		return app.Span().Body(label, app.A().Href(u).Target("_blank").Rel("noopener").Text(src))
	}
	return app.Span().Body(label, app.Text(src))
}

func (p *playground) presetSelect(l i18n.Lang) app.UI {
	return p.presetOptions(l, "preset", p.st.Preset, p.onInput)
}

// articleValue is the preset picker's value for the article's policy
// (preset ""): go-app writes no value attribute for an empty one, and the
// browser then gives the option's text as its value.
const articleValue = "article"

// presetOptions is a preset picker grouped by family, cur selected, the
// article's policy first.
func (p *playground) presetOptions(l i18n.Lang, id, cur string, handler app.EventHandler) app.UI {
	var groups []app.UI
	var opts []app.UI
	family := ""
	flush := func() {
		if len(opts) > 0 {
			groups = append(groups, app.OptGroup().Label(l.T("family."+family)).Body(opts...))
		}
		opts = nil
	}
	groups = append(groups, app.Option().Value(articleValue).Selected(cur == "").Text(l.T("policy.article")))
	for _, pr := range backoff.Presets() {
		if pr.Family != family {
			flush()
			family = pr.Family
		}
		opts = append(opts, app.Option().Value(pr.Name).Selected(pr.Name == cur).Text(pr.Name))
	}
	flush()
	return app.Select().ID(id).OnChange(handler).Body(groups...)
}

// enumSelect is a select of opts, cur selected.
func enumSelect(id string, opts []option, cur string, handler app.EventHandler) app.UI {
	items := make([]app.UI, len(opts))
	for i, o := range opts {
		items[i] = app.Option().Value(o.Value).Selected(o.Value == cur).Text(o.Label)
	}
	return app.Select().ID(id).OnChange(handler).Body(items...)
}

// throttleSwitch switches a preset that backs off from throttling errors
// on another base (the AWS SDK's 1 s) between its two schedules. It is
// checked when the policy is the throttled one, so links need no key of
// its own: base=1s says it.
func (p *playground) throttleSwitch(l i18n.Lang) app.UI {
	pr, err := backoff.LookupPreset(p.st.Preset)
	throttled, ok := backoff.Policy{}, false
	if err == nil {
		throttled, ok = pr.ThrottledPolicy()
	}
	return app.Label().For("throttle").Class("toggle throttle").Hidden(!ok).Body(
		app.Input().Type("checkbox").ID("throttle").Checked(ok && p.st.Policy == throttled).OnChange(p.onThrottle),
		app.Text(l.F("policy.throttle", l.Seconds(throttled.Base.Seconds()))),
	)
}

func (p *playground) onThrottle(ctx app.Context, e app.Event) {
	pr, err := backoff.LookupPreset(p.st.Preset)
	if err != nil {
		return
	}
	throttled, ok := pr.ThrottledPolicy()
	if !ok {
		return
	}
	if ctx.JSSrc().Get("checked").Bool() {
		p.st.Policy = throttled
	} else {
		p.st.Policy = pr.Policy
	}
	clear(p.errs)
	clear(p.text)
	p.changed(ctx, true)
}
