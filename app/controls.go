package app

import (
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The policy controls, rendered by the playground (they edit its state).

// jitterLabels say in a few words what each kind does.
var jitterLabels = map[string]string{
	"none":            "none: exactly the nominal delay",
	"full":            "full: U[0, d)",
	"equal":           "equal: d/2 + U[0, d/2)",
	"decorrelated":    "decorrelated: U[base, prev×3)",
	"decorrelated-v2": "decorrelated v2 (Polly)",
	"proportional":    "proportional: d × U[lo, hi)",
	"additive":        "additive: d + U[0, a)",
}

var jitterKinds = []string{"none", "full", "equal", "decorrelated", "decorrelated-v2", "proportional", "additive"}

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
		Attr("inputmode", "decimal").Attr("autocomplete", "off").Attr("spellcheck", "false").
		Title(hint).OnInput(p.onInput).OnChange(p.onInput)
	if p.errs[id] != "" {
		in = in.Class("invalid").Aria("invalid", "true")
	}
	return in
}

func (p *playground) durationField(param, label, hint string) app.UI {
	d := p.st.Policy.Base
	if param == backoff.ParamCap {
		d = p.st.Policy.Cap
	}
	return app.Div().Class("field").Body(
		app.Label().For(param).Text(label),
		app.Div().Class("slider-row").Body(
			app.Input().Type("range").ID(param).Min(0).Max(sliderSteps).Step(1).
				Value(strconv.Itoa(sliderPos(d))).
				Aria("valuetext", backoff.FormatDuration(d)).OnInput(p.onInput).OnChange(p.onInput),
			p.valueBox(param, label, hint),
		),
		p.fieldError(param+"-value"),
	)
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
		p.durationField(backoff.ParamBase, "Base (first delay)", "the first delay: 250ms, 1.5s, 2m"),
		app.Div().Class("field").Body(
			app.Label().For("factor").Text("Factor (growth per retry)"),
			app.Div().Class("slider-row").Body(
				app.Input().Type("range").ID("factor").Min(1).Max(4).Step(0.05).
					Value(pol.Get(backoff.ParamFactor)).OnInput(p.onInput).OnChange(p.onInput),
				p.valueBox(backoff.ParamFactor, "Factor", "a number, e.g. 2 or 1.6"),
			),
			p.fieldError("factor-value"),
		),
		p.durationField(backoff.ParamCap, "Cap (largest delay)", "the largest delay; 0 = no cap"),
		app.Div().Class("field").Body(
			app.Label().For("attempts").Body(
				app.Text("Attempts "),
				app.Span().ID("attempts-retries").Class("retries").Text(retries),
			),
			app.Div().Class("slider-row").Body(
				app.Input().Type("range").ID("attempts").Min(1).Max(30).Step(1).
					Value(strconv.Itoa(max(pol.Attempts, 1))).
					Aria("valuetext", strconv.Itoa(pol.Attempts)+" attempts "+retries).OnInput(p.onInput).OnChange(p.onInput),
				p.valueBox(backoff.ParamAttempts, "Attempts", "total tries, the first included; 0 = no limit"),
			),
			p.fieldError("attempts-value"),
			app.P().Class("hint").Text("Attempts count the first try: attempts 6 = 5 retries."),
		),
		app.Div().Class("field").Body(
			app.Label().For("jitter").Text("Jitter"),
			p.enumSelect("jitter", jitterKinds, pol.Jitter.String(), jitterLabels),
			p.fieldError("jitter-value"),
		),
		app.Div().Class("field").Body(
			app.Label().For("cap-mode").Text("Cap applies"),
			p.enumSelect("cap-mode", []string{"before", "after", "exact"}, pol.CapMode.String(), map[string]string{
				"before": "before jitter (AWS, gRPC, cenkalti)",
				"after":  "after jitter (Azure, Polly)",
				"exact":  "exactly, un-jittered once reached",
			}),
			p.fieldError("cap-mode-value"),
		),
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

func (p *playground) enumSelect(id string, names []string, cur string, labels map[string]string) app.UI {
	opts := make([]app.UI, len(names))
	for i, n := range names {
		l := labels[n]
		if l == "" {
			l = n
		}
		opts[i] = app.Option().Value(n).Selected(n == cur).Text(l)
	}
	return app.Select().ID(id).OnChange(p.onInput).OnInput(p.onInput).Body(opts...)
}
