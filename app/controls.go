package app

import (
	"strconv"
	"time"

	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The policy controls, rendered by the playground (they edit its state).

// The select controls' entries: the value Set takes and what people read.
var (
	jitterOptions = []option{
		{"none", "none: exactly the nominal delay"},
		{"full", "full: U[0, d)"},
		{"equal", "equal: d/2 + U[0, d/2)"},
		{"decorrelated", "decorrelated: U[base, prev×3)"},
		{"decorrelated-v2", "decorrelated v2 (Polly)"},
		{"proportional", "proportional: d × U[lo, hi)"},
		{"additive", "additive: d + U[0, a)"},
	}
	capModeOptions = []option{
		{"before", "before jitter (AWS, gRPC, cenkalti)"},
		{"after", "after jitter (Azure, Polly)"},
		{"exact", "exactly, un-jittered once reached"},
	}
	growthOptions = []option{
		{"exponential", "exponential: base × factor^(n−1)"},
		{"linear", "linear: base × n"},
		{"constant", "constant: base"},
		{"none", "none: retry at once"},
		{"exp-minus-one", "exp-minus-one: base × (factor^n − 1)"},
		{"polynomial", "polynomial: base × (n−1)^factor"},
		{"geometric", "geometric: base to cap in steps"},
	}
)

// knob is a value box that a select shows while one of its entries (kind)
// is chosen: the parameters of that kind alone. Data, not code: each
// control rendered costs the wasm far more than a table row.
type knob struct{ kind, param, label, hint string }

var (
	jitterKnobs = []knob{
		{"proportional", backoff.ParamJitterLo, "lo", "the smallest factor, e.g. 0.8"},
		{"proportional", backoff.ParamJitterHi, "hi", "the largest factor, e.g. 1.2"},
		{"additive", backoff.ParamJitterAdd, "amplitude a", "the largest added delay: 250ms, 1.5s"},
	}
	growthKnobs = []knob{
		{"geometric", backoff.ParamSteps, "steps", "retries from base to cap; 0 = stay at base"},
	}
)

// isDuration reports whether a box takes a duration with its unit.
func isDuration(param string) bool {
	switch param {
	case backoff.ParamBase, backoff.ParamCap, backoff.ParamDeadline, backoff.ParamJitterAdd:
		return true
	}
	return false
}

func (p *playground) box(param string) string {
	if t, ok := p.text[param]; ok {
		return t
	}
	return p.st.Policy.Get(param)
}

// fieldError is the inline error slot of one control; empty when valid.
func (p *playground) fieldError(id string) app.UI {
	msg := p.errs[id]
	return app.P().ID(id+"-error").Class("field-error").Aria("live", "polite").Hidden(msg == "").Text(msg)
}

func (p *playground) valueBox(param, label, hint string) app.UI {
	id := param + "-value"
	in := app.Input().Type("text").ID(id).Class("value-box").Value(p.box(param)).
		Aria("label", label+" value").Aria("describedby", id+"-error").
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		Title(hint).OnInput(p.onInput).OnChange(p.onInput)
	if !isDuration(param) {
		// A number pad on phones; durations need letters (250ms, 2m).
		in = in.Attr("inputmode", "decimal")
	}
	if p.errs[id] != "" {
		in = in.Class("invalid").Aria("invalid", "true")
	}
	return in
}

// selectField is a labelled select of opts, then the knobs of the chosen
// entry (last, so that showing them shifts no other control).
func (p *playground) selectField(id, label string, opts []option, cur string, knobs []knob) app.UI {
	var items []app.UI
	for _, k := range knobs {
		if k.kind == cur {
			items = append(items, app.Div().Class("sub-field").Body(
				app.Label().For(k.param+"-value").Text(k.label),
				p.valueBox(k.param, k.label, k.hint),
				p.fieldError(k.param+"-value"),
			))
		}
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		p.enumSelect(id, opts, cur),
		p.fieldError(id+"-value"),
		app.Div().Class("sub-fields").Hidden(len(items) == 0).Body(items...),
	)
}

// sliderField is a labelled range input with a typed box beside it, for
// param; one helper for all four, since each go-app call site costs
// app.wasm bytes. pos is the slider's position, valuetext what a screen
// reader says for it; note (may be nil) follows the label, extra (may be
// nil) the error slot.
func (p *playground) sliderField(param, label string, note app.UI, min, max any, step float64, pos, valuetext, hint string, extra app.UI) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(param).Body(app.Text(label), note),
		app.Div().Class("slider-row").Body(
			app.Input().Type("range").ID(param).Min(min).Max(max).Step(step).Value(pos).
				Aria("valuetext", valuetext).OnInput(p.onInput).OnChange(p.onInput),
			p.valueBox(param, label, hint),
		),
		p.fieldError(param+"-value"),
		extra,
	)
}

func (p *playground) durationField(param, label, hint string, d time.Duration) app.UI {
	return p.sliderField(param, label, nil, 0, sliderSteps, 1, strconv.Itoa(sliderPos(d)), backoff.FormatDuration(d), hint, nil)
}

func (p *playground) renderControls() app.UI {
	pol := p.st.Policy
	retries := "no limit"
	if pol.Attempts > 0 {
		retries = "= " + strconv.Itoa(pol.Attempts-1) + " retries"
		if pol.Attempts == 2 {
			retries = "= 1 retry"
		}
	}
	presetLabel := p.st.Preset
	if presetLabel == "" {
		presetLabel = "the article's policy"
	}
	source := "The article's example: base 1s, factor 2, cap 30s, 6 attempts, full jitter."
	desc := ""
	if pr, err := backoff.LookupPreset(p.st.Preset); err == nil {
		source = "Source: " + pr.Source
		desc = pr.Description
	}
	mod := ""
	if p.st.modified() {
		mod = "modified from " + presetLabel
	}

	return app.Section().Class("card controls").Aria("label", "Retry policy").Body(
		app.H2().Text("Retry policy"),
		app.Div().Class("field").Body(
			app.Label().For("preset").Text("Preset"),
			p.presetSelect(),
			app.P().ID("preset-source").Class("source").Text(source),
			app.If(desc != "", func() app.UI { return app.P().Class("preset-desc").Text(desc) }),
			app.If(mod != "", func() app.UI { return app.P().Class("modified").Text(mod) }),
		),
		p.durationField(backoff.ParamBase, "Base (first delay)", "the first delay: 250ms, 1.5s, 2m", pol.Base),
		p.sliderField(backoff.ParamFactor, "Factor (growth per retry)", nil, 1, 4, 0.05,
			pol.Get(backoff.ParamFactor), pol.Get(backoff.ParamFactor), "a number, e.g. 2 or 1.6", nil),
		p.durationField(backoff.ParamCap, "Cap (largest delay)", "the largest delay; 0 = no cap", pol.Cap),
		p.sliderField(backoff.ParamAttempts, "Attempts ", app.Span().ID("attempts-retries").Class("retries").Text(retries),
			1, 30, 1, strconv.Itoa(max(pol.Attempts, 1)), strconv.Itoa(pol.Attempts)+" attempts "+retries,
			"total tries, the first included; 0 = no limit",
			app.P().Class("hint").Text("Attempts count the first try: attempts 6 = 5 retries.")),
		p.selectField("jitter", "Jitter", jitterOptions, pol.Jitter.String(), jitterKnobs),
		p.selectField("cap-mode", "Cap applies", capModeOptions, pol.CapMode.String(), nil),
		app.Div().Class("field").Body(
			app.Label().For("deadline-value").Text("Deadline (total time; 0 = none)"),
			p.valueBox(backoff.ParamDeadline, "Deadline", "the longest total time, e.g. 15m; 0 = none"),
			p.fieldError("deadline-value"),
		),
		app.Div().Class("field").Body(
			app.Label().For("seed").Text("Seed"),
			app.Div().Class("slider-row").Body(
				app.Input().Type("number").ID("seed").Min(0).Step(1).Class("value-box seed").
					Value(strconv.FormatUint(p.st.Seed, 10)).OnInput(p.onInput).OnChange(p.onInput),
				app.Button().ID("reroll").Type("button").Title("a new random seed").OnClick(p.onReroll).Text("Re-roll"),
			),
			p.fieldError("seed"),
		),
		// The rarer knobs under a plain heading: a disclosure (a <details>,
		// or a toggle button) cost app.wasm 10 KB, and it is at its budget.
		app.H3().Class("advanced").Text("Advanced"),
		p.selectField("growth", "Growth of the nominal delay", growthOptions, pol.Growth.String(), growthKnobs),
		app.P().Class("lesson").Text("Backoff answers \"when to try again\", not \"whether\": cap the delay, limit the attempts, and add jitter so that clients who failed together do not retry together."),
	)
}

func (p *playground) presetSelect() app.UI {
	var groups []app.UI
	var opts []app.UI
	family := ""
	flush := func() {
		if len(opts) > 0 {
			groups = append(groups, app.OptGroup().Label(family).Body(opts...))
		}
		opts = nil
	}
	groups = append(groups, app.Option().Value("").Selected(p.st.Preset == "").Text("The article: 1s × 2, cap 30s, 6 attempts, full jitter"))
	for _, pr := range backoff.Presets() {
		if pr.Family != family {
			flush()
			family = pr.Family
		}
		opts = append(opts, app.Option().Value(pr.Name).Selected(pr.Name == p.st.Preset).Title(pr.Description).Text(pr.Name))
	}
	flush()
	return app.Select().ID("preset").OnChange(p.onInput).OnInput(p.onInput).Body(groups...)
}

func (p *playground) enumSelect(id string, opts []option, cur string) app.UI {
	items := make([]app.UI, len(opts))
	for i, o := range opts {
		items[i] = app.Option().Value(o.Value).Selected(o.Value == cur).Text(o.Label)
	}
	return app.Select().ID(id).OnChange(p.onInput).OnInput(p.onInput).Body(items...)
}
