package app

import (
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdKnobs are the herd's controls, a component: the fields of herdFields
// that apply to the scenario, a model's own parameters and the runs. It
// owns the herd it edits, its typed boxes and which selects show their
// "custom…" box, and sends each accepted edit to the page (an edit); it
// takes the link's herd (Link) only when the page replaces its state
// (stateLink), as the policy's panel does. Policy is the first policy, which the herd's checks read.
type herdKnobs struct {
	app.Compo

	Lang   i18n.Lang
	Link   herdState
	Policy backoff.Policy

	h herdState
	linked
	boxes
	// custom holds the selects whose "custom…" entry is chosen: their
	// typed box shows until a value is applied.
	custom map[string]bool
}

func (k *herdKnobs) OnInit() {
	k.boxes = newBoxes()
	if k.custom == nil {
		k.custom = map[string]bool{}
	}
	k.h = k.Link
}

func (k *herdKnobs) OnMount(ctx app.Context) { k.observe(ctx, k.take) }

// take takes the herd of a state the page replaced its own with, and
// forgets what was typed.
func (k *herdKnobs) take(st *state) {
	k.h = st.Herd
	k.reset()
	clear(k.custom)
}

// send hands the herd's scenario to the page, which runs it: a history
// entry.
func (k *herdKnobs) send(ctx app.Context) {
	sendEdit(ctx, edit{set: setTo(func(st *state) *herdState { return &st.Herd }, k.h), rerun: true, push: true})
}

func (k *herdKnobs) Render() app.UI {
	l, c := k.Lang, k.h.Config
	var items, checks []app.UI
	for _, f := range herdFields {
		switch {
		case !c.Reads(f.name):
		case f.kind == 'c':
			on := c.Get(f.name) == "true"
			checks = append(checks, app.Div().Class("field").Title(l.T(f.hint)).Body(
				app.Label().For(f.name).Class("toggle").Body(
					app.Input().Type("checkbox").ID(f.name).Checked(on).OnChange(k.onInput),
					app.Text(" "+l.T(f.label)),
				),
			))
		case f.kind == 's':
			items = append(items, k.herdSelect(f.name, l.T(f.label), f.values(), f.custom))
		default:
			items = append(items, k.herdBox(f.name, l.T(f.label), l.T(f.hint)))
		}
	}
	// A model's parameters of its own (sim.RegisterParam) are typed boxes
	// labelled by the catalog's herd.NAME and herd.NAME-hint: a new model
	// needs no line here.
	for _, name := range c.Server.Model().Fields(&c) {
		if sim.ParamOwn(name) != nil {
			items = append(items, k.herdBox(name, l.T("herd."+name), l.T("herd."+name+"-hint")))
		}
	}
	runs := make([]app.UI, 0, len(runsValues))
	for _, n := range runsValues {
		runs = append(runs, app.Option().Value(strconv.Itoa(n)).Selected(n == k.h.Runs).Text(l.Count(int64(n), "herd.runs-n")))
	}
	if !contains(runsValues, k.h.Runs) {
		runs = append(runs, app.Option().Value(strconv.Itoa(k.h.Runs)).Selected(true).Text(l.Count(int64(k.h.Runs), "herd.runs-n")))
	}
	items = append(items, app.Div().Class("field").Title(l.T("herd.runs-hint")).Body(
		app.Label().For(keyRuns).Text(l.T("herd.runs")),
		app.Select().ID(keyRuns).OnChange(k.onRuns).Body(runs...),
	))
	return app.Div().Class("herd-controls").Body(append(items, checks...)...)
}

// onRuns takes the number of runs.
func (k *herdKnobs) onRuns(ctx app.Context, e app.Event) {
	n, err := backoff.ParseInt(keyRuns, ctx.JSSrc().Get("value").String(), 1, maxPageRuns)
	if err != nil || n == k.h.Runs {
		return
	}
	k.h.Runs = n
	k.send(ctx)
}

// onInput handles the simulator's fields, each named by its control's id
// (a select or checkbox: the parameter; a typed box: PARAM-value).
// Selects and the checkbox apply at once; a typed box is checked while
// typed and applied when committed, like the policy's boxes.
func (k *herdKnobs) onInput(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	id := src.Get("id").String()
	name := strings.TrimSuffix(id, "-value")
	v := src.Get("value").String()
	if src.Get("type").String() == "checkbox" {
		v = strconv.FormatBool(src.Get("checked").Bool())
	}
	typed := strings.HasSuffix(id, "-value")
	commit := !typed || e.Get("type").String() == "change"
	if !typed && v == customValue {
		k.custom[name] = true
		return
	}
	nc := k.h.config(k.Policy)
	err := nc.Set(name, k.canonical(name, v))
	if err == nil {
		err = nc.Validate()
	}
	if !k.check(name+"-value", name, v, typed, err) || !commit {
		return
	}
	delete(k.text, name+"-value")
	if !typed {
		delete(k.custom, name)
	}
	nc.Policy = k.h.Config.Policy
	if nc == k.h.Config {
		return
	}
	k.h.Config = nc
	k.send(ctx)
}

// herdCanonical is a typed herd value in the syntax the simulator parses.
func (k *herdKnobs) canonical(name, v string) string {
	switch name {
	case sim.ParamLayerTimeout: // a wait, or one for each layer
		parts := durationList(v)
		for i, p := range parts {
			parts[i] = i18n.CanonDuration(p)
		}
		return strings.Join(parts, ",")
	case sim.ParamOutageEnd, sim.ParamRetryAfterS, sim.ParamLatency, sim.ParamDuration, sim.ParamService, sim.ParamTimeout,
		sim.ParamFrame, sim.ParamSlot:
		return i18n.CanonDuration(v)
	case sim.ParamClients, sim.ParamCapacity, sim.ParamCollapseFactor, sim.ParamConcurrency, sim.ParamQueueLimit, sim.ParamErrorRate:
		return k.Lang.CanonNumber(v)
	}
	v = strings.TrimSpace(v)
	if none := k.Lang.T(name + ".none"); textual(name) && none != name+".none" && strings.EqualFold(v, none) {
		return "none" // the box shows "none" in the page's language
	}
	return v
}

// herdInput is the typed box of a herd parameter: what the user typed while
// it is not valid yet, else the config's value in the page's language.
func (k *herdKnobs) herdInput(name, label string) app.UI {
	l := k.Lang
	id := name + "-value"
	v, ok := k.text[id]
	if !ok {
		v = k.h.Config.Get(name)
		switch {
		case name == sim.ParamLayerTimeout:
			parts := strings.Split(v, ",")
			for i, p := range parts {
				parts[i] = localValue(l, name, p)
			}
			v = strings.Join(parts, ", ")
		case !textual(name):
			v = localValue(l, name, v)
		case v == "none" && l.T(name+".none") != name+".none":
			v = l.T(name + ".none") // "нет" in Russian; herdCanonical reads it back
		}
	}
	numeric := name == sim.ParamClients || name == sim.ParamCapacity || name == sim.ParamCollapseFactor ||
		name == sim.ParamConcurrency || name == sim.ParamQueueLimit || name == sim.ParamErrorRate
	return k.textBox(l, id, v, label, "", numeric, k.onInput)
}

// durationList splits a typed list of durations at its commas, but not
// at a decimal comma ("1,5 с, 500 мс" is 1.5 s and 500 ms): a comma
// between two digits is a decimal one.
func durationList(v string) []string {
	var out []string
	from := 0
	for i := 0; i < len(v); i++ {
		if v[i] != ',' || i > 0 && i+1 < len(v) && isDigit(v[i-1]) && isDigit(v[i+1]) {
			continue
		}
		out = append(out, v[from:i])
		from = i + 1
	}
	return append(out, v[from:])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// textual reports whether a herd value is a form of words and numbers
// ("tokens:500:5:1", "stall@20s-30s"), shown as the simulator writes it.
func textual(name string) bool {
	switch name {
	case sim.ParamArrival, sim.ParamBudget, sim.ParamBreaker, sim.ParamTraffic, sim.ParamServiceDist, sim.ParamFault, sim.ParamHedge,
		sim.ParamLayerAttempts:
		return true
	}
	return false
}

// herdBox is a labelled typed box (hint: its tooltip).
func (k *herdKnobs) herdBox(name, label, hint string) app.UI {
	id := name + "-value"
	return app.Div().Class("field").Title(hint).Body(
		app.Label().For(id).Text(label),
		k.herdInput(name, label),
		k.fieldError(k.Lang, id),
	)
}

// herdSelect is a select of common values; with custom, a last "custom…"
// entry reveals a typed box for any other value (shown too while the value
// is not one of the list's).
func (k *herdKnobs) herdSelect(name, label string, values []string, custom bool) app.UI {
	l, cur := k.Lang, k.h.Config.Get(name)
	var items []app.UI
	found := false
	for _, v := range values {
		found = found || v == cur
		items = append(items, app.Option().Value(v).Selected(v == cur && !k.custom[name]).Text(herdLabel(l, name, v, "")))
	}
	showBox := custom && (k.custom[name] || !found)
	if !found {
		items = append(items, app.Option().Value(cur).Selected(!k.custom[name]).Text(herdLabel(l, name, cur, "")))
	}
	if custom {
		items = append(items, app.Option().Value(customValue).Selected(k.custom[name]).Text(l.T("herd.custom-entry")))
	}
	var in app.UI
	if showBox {
		in = app.Div().Class("sub-field").Body(k.herdInput(name, label))
	}
	long := herdLabel(l, name, k.h.Config.FullValue(name), "-long")
	return app.Div().Class("field").Body(
		app.Label().For(name).Text(label),
		app.Select().ID(name).OnChange(k.onInput).Body(items...),
		in,
		k.fieldError(l, name+"-value"),
		app.P().ID(name+"-hint").Class("hint").Hidden(long == "").Text(long),
	)
}
