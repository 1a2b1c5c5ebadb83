package app

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// sweepDelay is how long a sweep waits after a change before it starts:
// a run of edits (a knob, then its values) starts one sweep.
const sweepDelay = 250 * time.Millisecond

// sweepBox is where the panel leaves its last sweep, for the page's
// download of the view's picture.
type sweepBox struct{ job *sweepJob }

// sweepPanel runs one knob over a range and plots a result against it:
// it owns its sweep, run in slices with its progress, cancelled by a
// newer change or by the reader, and sends each edit of its settings to
// the page, whose link keeps them (an edit).
type sweepPanel struct {
	app.Compo

	Lang  i18n.Lang
	Alone bool
	Cfg   sim.Config     // the page's simulation, under the first policy
	B     backoff.Policy // the second policy, when HasB
	HasB  bool
	Seed  uint64
	St    sweepState
	Box   *sweepBox

	gen       atomic.Uint64
	key       string // what the shown sweep was made from
	job       *sweepJob
	err       error
	running   bool
	cancelled bool
	progress  float64
	ms        float64
	// knob and values are the form's, before they are a sweep.
	knob, values string
}

func (c *sweepPanel) OnMount(ctx app.Context) {
	c.form()
	c.schedule(ctx, 0)
}

func (c *sweepPanel) OnUpdate(ctx app.Context) {
	c.form()
	c.schedule(ctx, sweepDelay)
}

func (c *sweepPanel) OnDismount() { c.gen.Add(1) }

// form shows the link's sweep in the form, or a knob's range to start
// from.
func (c *sweepPanel) form() {
	if name, values, ok := strings.Cut(c.St.Spec, "="); ok {
		c.knob, c.values = name, values
		return
	}
	if c.knob == "" {
		c.knob, c.values = sweepKnobs[0].name, sweepKnobs[0].values
	}
}

// runKey is what a sweep's rows depend on: not the result plotted,
// which the same rows draw.
func (c *sweepPanel) runKey() string {
	w := c.St
	w.Y = ""
	var b strings.Builder
	b.WriteString(w.Spec + "|" + w.Lines + "|" + strconv.Itoa(w.Runs) + "|" + strconv.FormatBool(w.Threshold) + "|" + strconv.FormatUint(c.Seed, 10))
	b.WriteString(configKey(c.Cfg))
	if c.HasB {
		for _, n := range backoff.ParamNames {
			b.WriteString("/" + c.B.Get(n))
		}
	}
	return b.String()
}

// schedule starts the link's sweep after wait, unless it is the one
// shown (or running) already.
func (c *sweepPanel) schedule(ctx app.Context, wait time.Duration) {
	if app.IsServer {
		return
	}
	key := c.runKey()
	if c.St.Spec == "" || key == c.key {
		return
	}
	c.key = key
	gen := c.gen.Add(1)
	// The last sweep's rows go: a table of other settings under a new
	// sweep's progress would read as its own.
	c.job, c.running, c.cancelled, c.err, c.progress = nil, true, false, nil, 0
	ctx.After(wait, func(ctx app.Context) {
		if c.gen.Load() == gen {
			c.start(ctx, gen)
		}
	})
}

// start makes the sweep and runs it in slices between the browser's
// tasks, showing its rows as they come.
func (c *sweepPanel) start(ctx app.Context, gen uint64) {
	var b *backoff.Policy
	if c.HasB {
		pb := c.B
		b = &pb
	}
	j, err := newSweepJob(c.Cfg, b, c.St, c.Seed)
	if err != nil {
		c.job, c.err, c.running = nil, err, false
		c.Box.job = nil
		return
	}
	c.job, c.Box.job = j, j
	t0 := time.Now()
	ctx.Async(func() {
		jb := &job{s: j, chunk: firstChunk}
		last := time.Now()
		for {
			sleepInTask(yieldFor)
			if c.gen.Load() != gen {
				return
			}
			done := jb.advance(compareChunk)
			if !done && time.Since(last) < progressEvery {
				continue
			}
			last = time.Now()
			pr, ms := j.Progress(), float64(time.Since(t0))/float64(time.Millisecond)
			ctx.Dispatch(func(ctx app.Context) {
				if c.gen.Load() != gen {
					return
				}
				c.progress = pr
				if done {
					c.running, c.ms, c.err = false, ms, j.err
				}
			})
			if done {
				return
			}
		}
	})
}

// commit sends the form's sweep, with w's other settings, to the page.
func (c *sweepPanel) commit(ctx app.Context, w sweepState) {
	w.Spec = c.knob + "=" + strings.TrimSpace(c.values)
	sendEdit(ctx, edit{set: setTo(func(st *state) *sweepState { return &st.Sweep }, w), push: true})
}

func (c *sweepPanel) onKnob(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("value").String()
	for _, k := range sweepKnobs {
		if k.name == name {
			c.knob, c.values = k.name, k.values
		}
	}
	w := c.St
	if c.knob == backoff.ParamJitter && w.Lines != sweepAB {
		w.Lines = "" // a sweep of the kinds is one line per policy
	}
	c.commit(ctx, w)
}

func (c *sweepPanel) onValues(ctx app.Context, e app.Event) {
	c.values = ctx.JSSrc().Get("value").String()
	c.commit(ctx, c.St)
}

func (c *sweepPanel) onY(ctx app.Context, e app.Event) {
	w := c.St
	w.Y = ctx.JSSrc().Get("value").String()
	c.commit(ctx, w)
}

func (c *sweepPanel) onLines(ctx app.Context, e app.Event) {
	w := c.St
	w.Lines = ctx.JSSrc().Get("value").String()
	c.commit(ctx, w)
}

func (c *sweepPanel) onRuns(ctx app.Context, e app.Event) {
	n, err := backoff.ParseInt(keySweepRuns, ctx.JSSrc().Get("value").String(), 1, maxSweepRuns)
	if err != nil {
		c.err = err
		return
	}
	w := c.St
	w.Runs = n
	c.commit(ctx, w)
}

func (c *sweepPanel) onThreshold(ctx app.Context, e app.Event) {
	w := c.St
	w.Threshold = ctx.JSSrc().Get("checked").Bool()
	c.commit(ctx, w)
}

// onRun runs the form's sweep: the first, or one cancelled.
func (c *sweepPanel) onRun(ctx app.Context, e app.Event) {
	c.key = "" // the same settings again, after a cancel
	c.commit(ctx, c.St)
	if c.St.Spec == c.knob+"="+strings.TrimSpace(c.values) {
		c.schedule(ctx, 0)
	}
}

// onCancel stops the sweep, keeping the rows it made.
func (c *sweepPanel) onCancel(ctx app.Context, e app.Event) {
	c.gen.Add(1)
	c.running, c.cancelled = false, true
}

// onCSV saves the sweep's rows as a CSV file.
func (c *sweepPanel) onCSV(ctx app.Context, e app.Event) {
	if c.job != nil {
		download("backoff-sweep.csv", "text/csv", c.job.csv())
	}
}

func (c *sweepPanel) Render() app.UI {
	l := c.Lang
	return app.Section().ID("sweep").Class("card sweep").Aria("busy", boolText(c.running)).Body(
		cardHead(c.Alone, 2, l.T("view.sweep")),
		app.P().Class("help").Text(l.T("sweep.help")),
		c.renderForm(l),
		c.renderStatus(l),
		c.renderResult(l),
	)
}

func (c *sweepPanel) renderForm(l i18n.Lang) app.UI {
	knobs := make([]app.UI, len(sweepKnobs))
	for i, k := range sweepKnobs {
		knobs[i] = app.Option().Value(k.name).Selected(k.name == c.knob).Text(sweepKnobLabel(l, k.name))
	}
	ys := make([]app.UI, len(sim.SweepMetrics))
	y := sweepMetricFor(c.St.Y, c.Cfg).Name
	for i, m := range sim.SweepMetrics {
		ys[i] = app.Option().Value(m.Name).Selected(m.Name == y).Text(l.T("sweep.y." + m.Name))
	}
	sets := append([]string{}, sweepLineSets...)
	if c.HasB {
		sets = append(sets, sweepAB)
	}
	if !contains(sets, c.St.Lines) {
		sets = append(sets, c.St.Lines) // a link's own list
	}
	lines := make([]app.UI, len(sets))
	for i, v := range sets {
		lines[i] = app.Option().Value(v).Selected(v == c.St.Lines).Text(sweepLinesLabel(l, v))
	}
	field := func(id, label string, control app.UI, more ...app.UI) app.UI {
		return app.Div().Class("field").Body(append([]app.UI{app.Label().For(id).Text(label), control}, more...)...)
	}
	return app.Div().Class("sweep-form").Body(
		field("sweep-knob", l.T("sweep.knob"), app.Select().ID("sweep-knob").OnChange(c.onKnob).Body(knobs...)),
		field("sweep-values", l.T("sweep.values"),
			app.Input().ID("sweep-values").Type("text").Class("value-box code").Value(c.values).Spellcheck(false).
				Aria("describedby", "sweep-values-help").OnChange(c.onValues),
			app.Small().ID("sweep-values-help").Class("hint").Text(l.T("sweep.values-help"))),
		field("sweep-y", l.T("sweep.y"), app.Select().ID("sweep-y").OnChange(c.onY).Body(ys...)),
		field("sweep-lines", l.T("sweep.lines"), app.Select().ID("sweep-lines").OnChange(c.onLines).Body(lines...)),
		field("sweep-runs", l.T("sweep.runs"),
			app.Input().ID("sweep-runs").Type("number").Class("value-box").Min(1).Max(maxSweepRuns).Value(strconv.Itoa(max(c.St.Runs, 1))).OnChange(c.onRuns)),
		app.Div().Class("field").Body(
			app.Label().For("sweep-threshold").Class("toggle").Body(
				app.Input().ID("sweep-threshold").Type("checkbox").Checked(c.St.Threshold).OnChange(c.onThreshold),
				app.Text(" "+l.T("sweep.threshold")),
			),
		),
		app.Div().Class("sweep-buttons").Body(
			app.Button().ID("sweep-run").Type("button").Disabled(c.running).OnClick(c.onRun).Text(l.T("sweep.run")),
			app.Button().ID("sweep-cancel").Type("button").Class("secondary").Hidden(!c.running).OnClick(c.onCancel).Text(l.T("sweep.cancel")),
		),
	)
}

func (c *sweepPanel) renderStatus(l i18n.Lang) app.UI {
	var text string
	switch {
	case c.err != nil:
		text = sweepErrText(l, c.err)
	case c.St.Spec == "":
		text = l.T("sweep.idle")
	case c.running && c.job == nil:
		text = l.T("sweep.waiting")
	case c.running:
		text = l.F("sweep.running", l.Percent(c.progress, 1))
	case c.cancelled && c.job != nil:
		text = l.F("sweep.cancelled", l.Int(int64(len(c.job.run.Rows()))), l.Int(int64(len(c.job.cells))))
	case c.cancelled:
		text = l.T("sweep.cancelled-early")
	case c.job != nil:
		text = l.F("sweep.done", l.Count(int64(len(c.job.values)), "sweep.values-n"), l.Count(int64(len(c.job.lines)), "sweep.lines-n"),
			l.Count(int64(c.job.runs), "sweep.runs-n"), l.Seconds(c.ms/1000))
		if n := c.job.truncated(); n > 0 {
			text += " " + l.F("sweep.truncated", l.Int(int64(n)))
		}
	}
	cls := "status"
	if c.err != nil {
		cls = "status error"
	}
	return app.Div().Class("sweep-status").Body(
		app.If(c.running, func() app.UI {
			return app.Progress().ID("sweep-progress").Max(1).Value(c.progress).Aria("label", l.T("sweep.progress"))
		}),
		app.P().ID("sweep-status").Class(cls).Role("status").Aria("live", "polite").Text(text),
	)
}

func (c *sweepPanel) renderResult(l i18n.Lang) app.UI {
	j := c.job
	if j == nil || c.err != nil {
		return app.Div().ID("sweep-result")
	}
	rows := j.run.Rows()
	n := len(j.lines)
	head := []app.UI{app.Th().Scope("col").Text(j.xTitle(l))}
	for k := range j.lines {
		head = append(head, app.Th().Scope("col").Text(j.lineName(l, k)))
	}
	body := make([]app.UI, 0, len(j.values))
	for i := 0; i*n < len(rows); i++ {
		tr := []app.UI{app.Th().Scope("row").Text(j.xText(l, j.xs[i]))}
		for k := 0; k < n; k++ {
			if i*n+k >= len(rows) {
				tr = append(tr, app.Td())
				continue
			}
			r := rows[i*n+k]
			mean, ok := j.metric.Read(&r.Mean)
			sd, _ := j.metric.Read(&r.SD)
			cell := "—"
			if ok {
				cell = j.yText(l, mean)
				if j.runs > 1 {
					cell += " ± " + j.sdText(l, sd)
				}
			}
			if r.Truncated > 0 {
				cell += " *"
			}
			v := ""
			if ok {
				v = strconv.FormatFloat(mean, 'g', 10, 64)
			}
			tr = append(tr, app.Td().DataSet("v", v).Text(cell))
		}
		body = append(body, app.Tr().Body(tr...))
	}
	var found []app.UI
	for k := range j.lines {
		if t := j.thresholdText(l, k); t != "" {
			found = append(found, app.Li().Text(t))
		}
	}
	return app.Div().ID("sweep-result").Body(
		// A region the keyboard reaches: on a phone it scrolls sideways.
		app.Figure().ID("sweep-chart").Class("chart").TabIndex(0).Role("region").Aria("label", l.T("view.sweep")).Body(app.Raw(j.picture(l))),
		app.If(len(found) > 0, func() app.UI { return app.Ul().ID("sweep-thresholds").Body(found...) }),
		app.Div().Class("table-wrap").TabIndex(0).Role("region").Aria("label", l.T("sweep.table")).Body(
			app.Table().ID("sweep-table").Body(
				app.Caption().Text(l.F("sweep.caption", l.T("sweep.y."+j.metric.Name), j.xTitle(l))),
				app.THead().Body(app.Tr().Body(head...)),
				app.TBody().Body(body...),
			),
		),
		takeAway(l, takeItem{"sweep-csv", "take.csv-file", c.onCSV}, downloadButton("sweep")),
	)
}

// configKey is what a run of c depends on, as text: its parameters and
// its policy's.
func configKey(c sim.Config) string {
	var b strings.Builder
	for _, n := range sim.ParamNames {
		b.WriteString("|" + c.Get(n))
	}
	for _, n := range backoff.ParamNames {
		b.WriteString("|" + c.Policy.Get(n))
	}
	return b.String()
}

// sweepKnobLabel is a knob's name in the form.
func sweepKnobLabel(l i18n.Lang, name string) string {
	if name == sim.SweepRate {
		return l.T("sweep.knob.rate")
	}
	return fieldName(l, name)
}

// sweepLinesLabel is a choice of lines in the form.
func sweepLinesLabel(l i18n.Lang, v string) string {
	switch v {
	case "":
		return l.T("sweep.lines-own")
	case sweepLineSets[1]:
		return l.T("sweep.lines-blog")
	case sweepLineSets[2]:
		return l.T("sweep.lines-all")
	case sweepAB:
		return l.T("sweep.lines-ab")
	}
	names := strings.Split(v, ",")
	for i, n := range names {
		names[i] = kindName(l, n)
	}
	return strings.Join(names, ", ")
}

// newSweepCard is the sweep panel: it runs its own sweeps, and keeps the
// last in the page's box for the view's picture.
func newSweepCard(v pageView) app.UI {
	return &sweepPanel{Lang: v.lang, Alone: v.alone(), Cfg: v.st.Herd.config(v.st.Policy), B: v.st.B.Policy, HasB: v.st.B.On,
		Seed: v.st.Seed, St: v.st.Sweep, Box: &v.boxes.sweep}
}

// sweepPicture is the last sweep as a picture.
func sweepPicture(v pageView) string {
	if v.boxes.sweep.job == nil {
		return ""
	}
	return v.boxes.sweep.job.picture(v.lang)
}
