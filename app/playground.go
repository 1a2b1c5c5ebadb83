package app

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// playground is the page: it owns the state (exactly what the URL holds),
// renders the controls, and hands plain data to the table, chart, herd and
// compare components.
//
// Event handlers are methods that read the control's id and value from the
// DOM: go-app keeps the first handler it mounted on an element (handlers are
// compared by code pointer), so a closure over loop variables would go stale.
type playground struct {
	app.Compo

	st    state    // the last valid state
	notes []notice // URL parameters ignored on load
	// text holds what the user typed in a value box (by param name) while it
	// differs from the policy's own text; errs holds inline errors by the id
	// of the control they belong to.
	text map[string]string
	errs map[string]string

	table    *backoff.Table
	tableErr string
	delaySVG string // the delay chart and histogram, drawn from table
	histSVG  string

	copied    string // copy-link feedback
	urlQueued bool
	loaded    bool
	herd      herdRunner
}

func newPlayground() *playground {
	p := &playground{st: defaultState(), text: map[string]string{}, errs: map[string]string{}}
	p.recompute()
	return p
}

// OnNav restores the state from the URL, on the server's pre-render and in
// the browser.
func (p *playground) OnNav(ctx app.Context) {
	if p.loaded {
		return
	}
	p.loaded = true
	p.load(ctx.Page().URL().RawQuery)
	p.herd.start(ctx, p)
}

// load sets the state from a URL query.
func (p *playground) load(query string) {
	p.st, p.notes = parseQuery(query)
	p.recompute()
}

func (p *playground) OnDismount() { p.herd.cancel() }

// OnMount re-applies the sliders' values once the elements exist: go-app
// sets attributes in map order, so a value set before its max is clamped
// to the default 0..100 range. Later updates find min, max and step set.
func (p *playground) OnMount(ctx app.Context) {
	ctx.Defer(func(ctx app.Context) { p.syncSliders() })
}

func (p *playground) syncSliders() {
	pol := p.st.Policy
	for id, v := range map[string]string{
		"base":     strconv.Itoa(sliderPos(pol.Base)),
		"cap":      strconv.Itoa(sliderPos(pol.Cap)),
		"factor":   pol.Get(backoff.ParamFactor),
		"attempts": strconv.Itoa(max(pol.Attempts, 1)),
	} {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Set("value", v)
		}
	}
}

// tableBudget bounds the Monte Carlo of decorrelated tables (and of totals
// under a deadline) so a slider move never holds the page for long: about
// 30 ms of WebAssembly for a 30-row table, ~120 ms for 1000 rows, against
// up to a second for the CLI's 1% target. The page shows the error it got.
var tableBudget = backoff.TableOptions{MaxDraws: 1 << 18, MinRuns: 200}

// recompute derives the table and its charts from the state.
func (p *playground) recompute() {
	t, err := backoff.NewTableWith(p.st.Policy, backoff.NewRand(p.st.Seed), tableBudget)
	if err != nil {
		p.tableErr = err.Error()
		return
	}
	p.table, p.tableErr = t, ""
	p.drawDelays()
}

func (p *playground) drawDelays() {
	t := p.table
	if t == nil {
		return
	}
	s := sampleClients(t.Policy, len(t.Rows), p.st.Seed)
	p.delaySVG = delayChartSVG(t, s, p.st.Log)
	p.histSVG = histogramSVG(s.Totals, t.Total)
}

// changed is called after every accepted edit: derive, rerun the herd and
// write the URL.
func (p *playground) changed(ctx app.Context) {
	p.copied = ""
	p.recompute()
	p.herd.start(ctx, p)
	p.writeURL(ctx)
}

// writeURL replaces the address (no history entry) shortly after an
// edit, never in the input handler itself: history.replaceState took 1 to
// 12 ms in headless Chromium, on the way from a slider move to its repaint.
// Chromium also throttles it beyond about 100 calls in 10 s: one write is
// queued at a time, so a dragged slider writes at most every urlEvery, and
// the last position always.
func (p *playground) writeURL(ctx app.Context) {
	if p.urlQueued {
		return // the queued write reads the state when it runs
	}
	p.urlQueued = true
	ctx.After(urlEvery, func(ctx app.Context) {
		p.urlQueued = false
		p.replaceURL(ctx)
		ctx.PreventUpdate()
	})
}

// urlEvery is the shortest time between two address writes, and how long
// after an edit the address follows it.
const urlEvery = 150 * time.Millisecond

func (p *playground) replaceURL(ctx app.Context) {
	u := *ctx.Page().URL()
	u.RawQuery = p.st.query()
	ctx.Page().ReplaceURL(&u)
}

// onInput handles every policy control; the element's id says which.
func (p *playground) onInput(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	id := src.Get("id").String()
	v := src.Get("value").String()
	switch id {
	case "preset":
		if v == p.st.Preset && p.st.Policy == basePolicy(v) {
			return
		}
		p.st.Preset = v
		p.st.Policy = basePolicy(v)
		clear(p.text)
		clear(p.errs)
	case "base", "cap":
		n, _ := strconv.Atoi(v)
		p.setParam(ctx, id, id, backoff.FormatDuration(sliderDuration(n)), false)
		return
	case "factor", "attempts", "jitter", "cap-mode", "growth":
		p.setParam(ctx, id, id, v, false)
		return
	case "base-value", "factor-value", "cap-value", "attempts-value", "deadline-value",
		"jitter-lo-value", "jitter-hi-value", "jitter-add-value", "steps-value":
		p.setParam(ctx, strings.TrimSuffix(id, "-value"), id, v, true)
		return
	case "seed":
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			p.errs[id] = "seed: want a whole number from 0 to 18446744073709551615"
			return
		}
		delete(p.errs, id)
		if n == p.st.Seed {
			return
		}
		p.st.Seed = n
	case "delay-log":
		p.st.Log = src.Get("checked").Bool()
		p.drawDelays()
		p.writeURL(ctx)
		return
	default:
		return
	}
	p.changed(ctx)
}

// setParam applies one policy field. An invalid value (alone or with the
// other fields) shows an inline error next to the control and keeps the last
// valid state.
func (p *playground) setParam(ctx app.Context, name, id, v string, typed bool) {
	np := p.st.Policy
	err := np.Set(name, v)
	if err == nil {
		err = np.Validate()
	}
	errID := name + "-value"
	if typed {
		p.text[name] = v
	}
	if err != nil {
		p.errs[errID] = errText(err)
		return
	}
	delete(p.errs, errID)
	if !typed {
		delete(p.text, name)
	}
	if np == p.st.Policy {
		return // the same value again (input then change): nothing to redo
	}
	p.st.Policy = np
	p.changed(ctx)
}

func errText(err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return fe.Error()
	}
	return err.Error()
}

func (p *playground) onReroll(ctx app.Context, e app.Event) {
	// A small number reads well in a link; any 0..999999 will do.
	p.st.Seed = uint64(time.Now().UnixNano()/1000)%999_999 + 1
	delete(p.errs, "seed")
	p.changed(ctx)
}

func (p *playground) onCopyLink(ctx app.Context, e app.Event) {
	link := ctx.Page().URL()
	u := *link
	u.RawQuery = p.st.query()
	s := u.String()
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		p.copied = "Copy this link: " + s
		return
	}
	clip.Call("writeText", s)
	p.copied = "Link copied"
	ctx.After(2*time.Second, func(ctx app.Context) { p.copied = "" })
}

func (p *playground) Render() app.UI {
	return app.Main().Class("playground").Body(
		app.Header().Class("top").Body(
			app.Div().Body(
				app.H1().Text("Backoff Playground"),
				app.P().Class("tagline").Text("Move a slider: see what a retry policy does to one client, and to a thousand of them after an outage."),
			),
			app.Div().Class("share").Body(
				app.Button().ID("copy-link").Type("button").OnClick(p.onCopyLink).Text("Copy link"),
				app.Span().ID("copy-status").Class("status").Aria("live", "polite").Text(p.copied),
			),
		),
		&updateBanner{},
		p.renderNotices(),
		app.Div().Class("layout").Body(
			p.renderControls(),
			app.Div().Class("results").Body(
				p.renderDelays(),
				p.renderHerd(),
			),
		),
		app.Footer().Class("foot").Body(
			app.P().Text("Numbers come from the project's backoff core and herd simulator, run in your browser. Same URL, same seed, same picture."),
		),
	)
}

func (p *playground) renderNotices() app.UI {
	if len(p.notes) == 0 {
		return app.Div().ID("notice").Hidden(true)
	}
	items := make([]app.UI, len(p.notes))
	for i, n := range p.notes {
		items[i] = app.Li().Text(n.String())
	}
	return app.Div().ID("notice").Class("notice").Role("status").Body(
		app.Strong().Text("Some link parameters were ignored:"),
		app.Ul().Body(items...),
	)
}

func (p *playground) renderDelays() app.UI {
	pol := p.st.Policy
	body := []app.UI{
		app.H2().Text("One client"),
		app.P().Class("describe").ID("describe").Text(pol.Describe()),
	}
	if p.tableErr != "" {
		body = append(body, app.P().Class("error").Text(p.tableErr))
	}
	if t := p.table; t != nil {
		var notes []app.UI
		if t.Unlimited {
			notes = append(notes, app.Li().Text("No attempt limit: the first "+strconv.Itoa(len(t.Rows))+" retries are shown and totalled."))
		}
		if t.MonteCarlo {
			notes = append(notes, app.Li().Text("Means estimated from "+strconv.Itoa(t.Paths)+" seeded runs (within "+strconv.FormatFloat(t.MeanError*100, 'f', 2, 64)+"%)."))
		}
		if t.CapRow > 0 {
			notes = append(notes, app.Li().Text("The cap is reached at retry "+strconv.Itoa(t.CapRow)+" (highlighted): from there the delay stops growing."))
		}
		if pol.Jitter == backoff.Full && pol.Attempts > 0 {
			notes = append(notes, app.Li().Text("Full jitter guarantees no minimum wait: the best case is 0."))
		}
		body = append(body,
			app.Div().Class("table-wrap").Body(&delayTable{Table: t}),
			app.Ul().Class("notes").Body(notes...),
			app.Div().Class("chart-head").Body(
				app.H3().Text("Delay per retry"),
				app.Label().For("delay-log").Class("toggle").Body(
					app.Input().Type("checkbox").ID("delay-log").Checked(p.st.Log).OnChange(p.onInput),
					app.Text(" log scale"),
				),
			),
			legend(
				"band", "min–max",
				"mean", "mean",
				"dots", strconv.Itoa(dotClients)+" seeded clients",
				"cap", "cap",
			),
			&delayChart{Delays: p.delaySVG, Hist: p.histSVG},
		)
	}
	return app.Section().Class("card delays").Aria("label", "One client's delays").Body(body...)
}

// legend is a chart's key: pairs of a key's class suffix and its text, each
// pair kept on one line.
func legend(pairs ...string) app.UI {
	items := make([]app.UI, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		items = append(items, app.Span().Class("legend-item").Body(
			app.Span().Class("key key-"+pairs[i]).Aria("hidden", "true"),
			app.Text(pairs[i+1]),
		))
	}
	return app.P().Class("legend").Body(items...)
}
