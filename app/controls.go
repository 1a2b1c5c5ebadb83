package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// policyLink is what the policy panel edits, as the link holds it.
type policyLink struct {
	Preset string
	Policy backoff.Policy
	Seed   uint64
}

// policyPanel is the first policy's controls, a component: the preset,
// the knobs with their typed boxes and Solve controls, the seed. It owns
// what it edits and sends each accepted edit to the page (an edit). It
// starts from the link's policy (Link) and takes another only when the
// page replaces its state from outside (stateLink), never on the page's
// other renders: a dragged slider's next position can come before the
// page has taken the last one, and the page's copy would pull the slider
// back. In a lesson (Lesson) it shows the few knobs the lessons ask to
// move.
type policyPanel struct {
	app.Compo

	Lang   i18n.Lang
	Lesson bool
	Link   policyLink

	pol policyLink
	linked
	boxes
	solve solveState // the Solve control of a knob, when one is open
}

func (c *policyPanel) OnInit() {
	c.boxes = newBoxes()
	c.pol = c.Link
}

// OnMount re-applies the sliders' values once the elements exist: go-app
// sets attributes in map order, so a value set before its max is clamped
// to the default 0..100 range. Later updates find min, max and step set.
// It writes the elements only: go-app's render after it (and the page's,
// in the start's first tasks) would draw the same.
func (c *policyPanel) OnMount(ctx app.Context) {
	c.syncSliders()
	c.observe(ctx, func(st *state) {
		c.take(st)
		ctx.Defer(func(ctx app.Context) { c.syncSliders() })
	})
	ctx.PreventUpdate()
}

// take takes the policy of a state the page replaced its own with.
func (c *policyPanel) take(st *state) {
	c.pol = st.policy()
	c.reset()
}

func (c *policyPanel) syncSliders() {
	pol := c.pol.Policy
	for id, v := range map[string]string{
		"base":     strconv.Itoa(sliderPos(pol.Base)),
		"cap":      strconv.Itoa(sliderPos(pol.Cap)),
		"factor":   pol.Get(backoff.ParamFactor),
		"attempts": strconv.Itoa(attemptsPos(pol.Attempts)),
	} {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Set("value", v)
		}
	}
}

// apply sends the panel's policy to the page.
func (c *policyPanel) apply(ctx app.Context, discrete bool) {
	pol := c.pol
	sendEdit(ctx, edit{set: func(st *state) bool {
		if st.policy() == pol {
			return false
		}
		st.Preset, st.Policy, st.Seed = pol.Preset, pol.Policy, pol.Seed
		return true
	}, rerun: true, push: discrete})
}

// Each kind of control has its handler; the element's id names the
// parameter where one handler serves several. Sliders and selects apply
// at once. A typed box is checked as it is typed but applied only when
// committed (Enter, or leaving the box): a prefix of what is being typed
// (999 on the way to 99999) is never applied.

func (c *policyPanel) onPreset(ctx app.Context, e app.Event) {
	var changed bool
	if c.pol.Preset, c.pol.Policy, changed = pickPreset(ctx.JSSrc().Get("value").String(), c.pol.Preset, c.pol.Policy); changed {
		c.reset()
		c.apply(ctx, true)
	}
}

// onDurationSlider moves base's or cap's slider.
func (c *policyPanel) onDurationSlider(ctx app.Context, e app.Event) {
	id, v, _ := boxEvent(ctx, e)
	n, _ := strconv.Atoi(v)
	c.set(ctx, id, backoff.FormatDuration(sliderDuration(n)), false, true, false)
}

func (c *policyPanel) onAttemptsSlider(ctx app.Context, e app.Event) {
	n, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
	c.set(ctx, backoff.ParamAttempts, strconv.Itoa(attemptsFromPos(n)), false, true, false)
}

func (c *policyPanel) onFactorSlider(ctx app.Context, e app.Event) {
	c.set(ctx, backoff.ParamFactor, ctx.JSSrc().Get("value").String(), false, true, false)
}

// onSelect applies a kind chosen: jitter, cap-mode or growth (its id).
func (c *policyPanel) onSelect(ctx app.Context, e app.Event) {
	id, v, _ := boxEvent(ctx, e)
	c.set(ctx, id, v, false, true, true)
}

func (c *policyPanel) onSeed(ctx app.Context, e app.Event) {
	_, v, commit := boxEvent(ctx, e)
	n, err := parseSeed(v)
	if err != nil {
		c.errs[keySeed] = inlineErr{err, v}
		return
	}
	delete(c.errs, keySeed)
	if commit && n != c.pol.Seed {
		c.pol.Seed = n
		c.apply(ctx, true)
	}
}

// onBox takes a typed box, #PARAM-value.
func (c *policyPanel) onBox(ctx app.Context, e app.Event) {
	id, v, commit := boxEvent(ctx, e)
	if name, ok := strings.CutSuffix(id, "-value"); ok {
		c.set(ctx, name, v, true, commit, true)
	}
}

// set checks one field, and applies it when apply is set; a slider's move
// (not discrete) replaces the history entry.
func (c *policyPanel) set(ctx app.Context, name, v string, typed, apply, discrete bool) {
	if c.setPolicyParam(c.Lang, &c.pol.Policy, name, name+"-value", v, typed, apply) {
		c.apply(ctx, typed || discrete)
	}
}

func (c *policyPanel) onReroll(ctx app.Context, e app.Event) {
	// A small number reads well in a link; any 0..999999 will do.
	c.pol.Seed = uint64(time.Now().UnixNano()/1000)%999_999 + 1
	delete(c.errs, keySeed)
	c.apply(ctx, true)
}

// newPolicyPanel is the first policy's panel (in a lesson, its few
// knobs).
func newPolicyPanel(v pageView) app.UI {
	return &policyPanel{Lang: v.lang, Lesson: v.st.Lesson > 0, Link: v.st.policy()}
}

// knob is a value box that a select shows while one of its entries (kind)
// is chosen: the parameters of that kind alone. Data, not code: each
// control rendered costs the wasm far more than a table row. label and
// hint are catalog keys.
type knob struct{ kind, param, label, hint string }

var (
	// jitterKnobs are the boxes of each jitter kind's own values, as the
	// core lists them: label policy.PARAM, hint policy.PARAM-hint.
	jitterKnobs = func() []knob {
		var out []knob
		for i, kind := range backoff.JitterNames() {
			for _, f := range backoff.Jitter(i).Params() {
				out = append(out, knob{kind, f, "policy." + f, "policy." + f + "-hint"})
			}
		}
		return out
	}()
	growthKnobs = []knob{
		{"geometric", backoff.ParamSteps, "policy.steps", "policy.steps-hint"},
	}
)

// isDuration reports whether a box takes a duration with its unit.
func isDuration(param string) bool { return backoff.IsDuration(param) }

// box is a policy box's text: what the user is typing, else the value in
// the page's language (1,5 с in Russian).
func (c *policyPanel) box(param string) string {
	if t, ok := c.text[param+"-value"]; ok {
		return t
	}
	return localValue(c.Lang, param, c.pol.Policy.Get(param))
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

func (c *policyPanel) valueBox(param, label, hint string) app.UI {
	return c.textBox(c.Lang, param+"-value", c.box(param), label, hint, !isDuration(param), c.onBox)
}

// selectField is a labelled select of opts, then the knobs of the chosen
// entry (last, so that showing them shifts no other control).
func (c *policyPanel) selectField(id, label string, opts []option, cur string, knobs []knob) app.UI {
	l := c.Lang
	var items []app.UI
	for _, k := range knobs {
		if k.kind == cur {
			items = append(items, app.Div().Class("sub-field").Body(
				app.Label().For(k.param+"-value").Text(l.T(k.label)),
				c.valueBox(k.param, l.T(k.label), l.T(k.hint)),
				c.fieldError(l, k.param+"-value"),
			))
		}
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		enumSelect(id, opts, cur, c.onSelect),
		c.fieldError(l, id+"-value"),
		app.Div().Class("sub-fields").Hidden(len(items) == 0).Body(items...),
	)
}

// sliderField is a labelled range input with a typed box beside it, for
// param; one helper for all four, since each go-app call site costs
// app.wasm bytes. pos is the slider's position, valuetext what a screen
// reader says for it; note (may be nil) follows the label, extra (may be
// nil) the error slot.
func (c *policyPanel) sliderField(param, label string, note app.UI, min, max any, step float64, pos, valuetext, hint string, extra app.UI, on app.EventHandler) app.UI {
	l := c.Lang
	return app.Div().Class("field").Body(
		app.Label().For(param).Body(app.Text(label+" "), note),
		app.Div().Class("slider-row").Body(
			app.Input().Type("range").ID(param).Min(min).Max(max).Step(step).Value(pos).
				Aria("valuetext", valuetext).OnInput(on).OnChange(on),
			c.valueBox(param, label, hint),
		),
		c.fieldError(l, param+"-value"),
		extra,
		c.solveControl(param),
	)
}

func (c *policyPanel) durationField(param, label, hint string) app.UI {
	d := durationOf(c.pol.Policy, param)
	return c.sliderField(param, label, nil, 0, sliderSteps, 1, strconv.Itoa(sliderPos(d)), c.box(param), hint, nil, c.onDurationSlider)
}

func (c *policyPanel) Render() app.UI {
	l, pol := c.Lang, c.pol.Policy
	if c.Lesson {
		return c.renderLesson()
	}
	retries := l.T("policy.no-limit")
	if pol.Attempts > 0 {
		retries = l.F("policy.eq-retries", l.Count(int64(pol.Attempts-1), "unit.retries"))
	}
	presetLabel := c.pol.Preset
	if presetLabel == "" {
		presetLabel = l.T("policy.article-name")
	}
	var source app.UI = app.Text(l.T("policy.article-src"))
	desc := ""
	if pr, err := backoff.LookupPreset(c.pol.Preset); err == nil {
		source = sourceLink(l, pr.Source)
		desc = l.PresetDescription(pr.Name, pr.Description)
	}
	mod := ""
	if c.pol.modified() {
		mod = l.F("policy.modified", presetLabel)
	}

	return app.Section().Class("card controls").Aria("label", l.T("policy.head")).Body(
		app.H2().Text(l.T("policy.head")),
		app.Div().Class("field").Body(
			app.Label().For("preset").Text(l.T("policy.preset")),
			presetOptions(l, "preset", c.pol.Preset, c.onPreset),
			app.P().ID("preset-source").Class("source").Body(source),
			// Hidden rather than left out: the ids are always there.
			app.P().ID("preset-desc").Class("preset-desc").Hidden(desc == "").Text(desc),
			app.P().ID("modified").Class("modified").Hidden(mod == "").Text(mod),
			c.throttleSwitch(),
		),
		c.durationField(backoff.ParamBase, l.T("policy.base"), l.T("policy.base-hint")),
		c.sliderField(backoff.ParamFactor, l.T("policy.factor"), nil, 1, 4, 0.05,
			pol.Get(backoff.ParamFactor), c.box(backoff.ParamFactor), l.T("policy.factor-hint"), nil, c.onFactorSlider),
		c.durationField(backoff.ParamCap, l.T("policy.cap"), l.T("policy.cap-hint")),
		c.sliderField(backoff.ParamAttempts, l.T("policy.attempts"), app.Span().ID("attempts-retries").Class("retries").Text(retries),
			0, attemptsSteps, 1, strconv.Itoa(attemptsPos(pol.Attempts)), pol.Get(backoff.ParamAttempts)+" "+retries,
			l.T("policy.attempts-hint"),
			app.P().Class("hint").Text(l.T("policy.attempts-note")), c.onAttemptsSlider),
		c.selectField("jitter", l.T("policy.jitter"), kindOptions(l, "jitter"), pol.Jitter.String(), jitterKnobs),
		c.selectField("cap-mode", l.T("policy.cap-mode"), kindOptions(l, "cap-mode"), pol.CapMode.String(), nil),
		app.Div().Class("field").Body(
			app.Label().For("deadline-value").Text(l.T("policy.deadline")),
			c.valueBox(backoff.ParamDeadline, l.T("policy.deadline-short"), l.T("policy.deadline-hint")),
			c.fieldError(l, "deadline-value"),
		),
		app.Div().Class("field").Body(
			app.Label().For("seed").Text(l.T("policy.seed")),
			app.Div().Class("slider-row").Body(
				app.Input().Type("text").ID("seed").Class("value-box seed").Attr("inputmode", "numeric").
					Value(strconv.FormatUint(c.pol.Seed, 10)).OnInput(c.onSeed).OnChange(c.onSeed),
				app.Button().ID("reroll").Type("button").Title(l.T("policy.reroll-hint")).OnClick(c.onReroll).Text(l.T("policy.reroll")),
			),
			c.fieldError(l, "seed"),
		),
		// The rarer knobs under a plain heading: a disclosure (a <details>,
		// or a toggle button) cost app.wasm 10 KB.
		app.H3().Class("advanced").Text(l.T("policy.advanced")),
		app.Div().Class("field").Body(
			app.Label().For("floor-value").Text(l.T("policy.floor")),
			c.valueBox(backoff.ParamFloor, l.T("policy.floor-short"), l.T("policy.floor-hint")),
			c.fieldError(l, "floor-value"),
		),
		c.selectField("growth", l.T("policy.growth"), kindOptions(l, "growth"), pol.Growth.String(), growthKnobs),
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

// pickPreset reads a preset picker's value v: the preset it names (""
// for the article's) and that preset's policy; changed is false when they
// are pre and pol already.
func pickPreset(v, pre string, pol backoff.Policy) (preset string, base backoff.Policy, changed bool) {
	if v == articleValue {
		v = ""
	}
	base = basePolicy(v)
	return v, base, v != pre || pol != base
}

// articleValue is the preset picker's value for the article's policy
// (preset ""): go-app writes no value attribute for an empty one, and the
// browser then gives the option's text as its value.
const articleValue = "article"

// presetOptions is a preset picker grouped by family, cur selected, the
// article's policy first.
func presetOptions(l i18n.Lang, id, cur string, handler app.EventHandler) app.UI {
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
func (c *policyPanel) throttleSwitch() app.UI {
	l := c.Lang
	pr, err := backoff.LookupPreset(c.pol.Preset)
	throttled, ok := backoff.Policy{}, false
	if err == nil {
		throttled, ok = pr.ThrottledPolicy()
	}
	return app.Label().For("throttle").Class("toggle throttle").Hidden(!ok).Body(
		app.Input().Type("checkbox").ID("throttle").Checked(ok && c.pol.Policy == throttled).OnChange(c.onThrottle),
		app.Text(l.F("policy.throttle", l.Seconds(throttled.Base.Seconds()))),
	)
}

func (c *policyPanel) onThrottle(ctx app.Context, e app.Event) {
	pr, err := backoff.LookupPreset(c.pol.Preset)
	if err != nil {
		return
	}
	throttled, ok := pr.ThrottledPolicy()
	if !ok {
		return
	}
	if ctx.JSSrc().Get("checked").Bool() {
		c.pol.Policy = throttled
	} else {
		c.pol.Policy = pr.Policy
	}
	c.reset()
	c.apply(ctx, true)
}

// renderLesson is the few knobs a lesson's prompt asks to move: the
// jitter and the four knobs of the first lesson, base, factor, cap and
// attempts, by their short names (the lesson says what they are), so that
// a projector's widget has them on two lines.
func (c *policyPanel) renderLesson() app.UI {
	l := c.Lang
	items := []app.UI{
		app.Div().Class("field").Body(
			app.Label().For("jitter").Text(l.T("policy.jitter")),
			enumSelect("jitter", kindOptions(l, "jitter"), c.pol.Policy.Jitter.String(), c.onSelect),
		),
	}
	for _, f := range []struct{ param, label string }{
		{backoff.ParamBase, "policy.base-short"}, {backoff.ParamFactor, "policy.factor-short"}, {backoff.ParamCap, "policy.cap-short"},
		{backoff.ParamAttempts, "policy.attempts"},
	} {
		items = append(items, app.Div().Class("field").Body(
			app.Label().For(f.param+"-value").Text(l.T(f.label)),
			c.valueBox(f.param, l.T(f.label), ""),
			c.fieldError(l, f.param+"-value"),
		))
	}
	return app.Div().Class("lesson-controls").Body(items...)
}
