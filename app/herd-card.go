package app

import (
	"strconv"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdCard is the herd's card, a component drawn from the herd's scenario
// and its runs passed down: the chart (or a request-level config's charts)
// with its replay, the status, the verdict, the cards, and (Controls) the
// knobs and the scenarios; an embedded view shows the run of its link. A
// request-level config (steady traffic, a queue, timeouts, faults) gets its
// own charts, cards and the verdict on its recovery.
type herdCard struct {
	app.Compo

	Lang     i18n.Lang
	Alone    bool // an embedded view: the heading is the page's h1
	Present  bool // presenter mode's charts
	Controls bool
	Herd     herdState
	Policy   backoff.Policy // the first policy, which the knobs' checks read
	Scenario string         // with Controls, the scenario the page shows ("": none)
	Runs     runView
	// Worst is the page's worst-case total wait, worded (worstText), that
	// the run's summary starts with: what a slider's move changed first.
	Worst string
}

// actHerdMore asks the page to run the herd again with ten times its
// bound on calls.
const actHerdMore = "herd-more"

func (hc *herdCard) onMore(ctx app.Context, e app.Event) { ctx.NewAction(actHerdMore) }

// newHerdCard is the page's herd card (with its knobs, scenarios and
// topology when controls is set).
func newHerdCard(v pageView, controls bool) app.UI {
	c := &herdCard{Lang: v.lang, Alone: v.alone(), Present: v.st.Present && v.st.Lesson > 0, Controls: controls,
		Herd: v.st.Herd, Policy: v.st.Policy, Runs: v.herd.view()}
	if v.st.View == "" && v.st.Lesson == 0 {
		c.Worst = worstText(v.lang, "summary.worst", v.st)
	}
	if controls {
		c.Scenario = scenarioOf(v.st)
	}
	return c
}

// herdPicture is the herd's last runs as a picture.
func herdPicture(v pageView) string {
	if h := v.herd.a; h != nil && h.first != nil {
		return herdImage(v.lang, v.st.Herd.Config, h)
	}
	return ""
}

func (hc *herdCard) Render() app.UI {
	l, c := hc.Lang, hc.Herd.Config
	req := c.RequestLevel()
	h := hc.Runs
	status := ""
	unit := "herd.clients-n"
	if req {
		unit = "herd.requests-n"
	}
	switch {
	case h.Err != nil:
		status = l.F("herd.cannot", errText(l, h.Err, ""))
	case h.Running:
		status = l.F("herd.running", l.Count(int64(c.Clients), "herd.clients-n"), l.Percent(h.Progress, 1))
		if req {
			status = l.F("herd.running-requests", l.Percent(h.Progress, 1))
		}
	case h.A != nil && h.A.first != nil:
		n := l.Count(int64(h.A.first.Totals.Clients), unit)
		if runs := h.A.runs(); runs > 1 {
			n = l.F("herd.n-runs", n, l.Count(int64(runs), "herd.runs-n"))
		}
		if h.Ms < 1 {
			status = l.F("herd.done-fast", n)
		} else {
			status = l.F("herd.done", n, l.Seconds(h.Ms/1000))
		}
		switch {
		case h.PageBound:
			status += " " + l.F("herd.page-bound", l.Compact(float64(h.Limit)))
		default:
			status += stopText(l, c, h.A.first)
		}
	}
	head, lesson := "herd.head", "herd.lesson"
	var plot, under app.UI
	if req {
		head, lesson = "req.head", "req.lesson"
		switch {
		case c.Server.Traits().Waits == sim.WaitMedium:
			head, lesson = "req.head-channel", "req.lesson-channel"
		case c.Layers > 1:
			head, lesson = "req.head-chain", "req.lesson-chain"
		case c.CacheKeys > 0:
			head, lesson = "req.head-cache", "req.lesson-cache"
		case c.Servers > 1:
			// The metastable queue's words did not fit a fleet that
			// recovered as soon as its crash ended.
			head, lesson = "req.head-fleet", "req.lesson-fleet"
		}
		plot = &requestCharts{A: h.A, B: h.B, Rev: h.Rev, Config: c, Lang: l, Present: hc.Present}
		under = hc.verdict()
	} else {
		keys := []string{"ok", l.T("herd.legend-ok"), "rejected", l.T("herd.legend-rejected")}
		if c.Server.Traits().Rated {
			keys = append(keys, "capacity", l.T("herd.legend-capacity"))
		}
		if _, _, own := c.OwnOutage(); own {
			keys = append(keys, "outage", l.T("herd.legend-outage"))
		}
		if hc.Herd.Runs > 1 {
			keys = append(keys, "spread", l.T("herd.legend-spread"))
		}
		plot = &herdReplay{Lang: l, A: h.A, B: h.B, Rev: h.Rev, Run: h.Run, Present: hc.Present}
		// The numbers' toggle shares the legend's line: on its own line
		// it pushed the herd's inputs further below the chart.
		under = app.Div().Body(app.Div().Class("legend-row").Body(legend(keys...), &chartNumbers{A: h.A, B: h.B, Rev: h.Rev, Lang: l}), hc.verdict())
	}
	return app.Section().Class("card herd").Aria("label", l.T("herd.aria")).Body(
		cardHead(hc.Alone, 2, l.T(head)),
		app.P().Class("lesson").Text(l.T(lesson)),
		plot,
		&runExtras{A: h.A, Rev: h.Rev, Config: c, Lang: l, Present: hc.Present},
		app.Div().Class("progress-row").Body(
			app.Progress().ID("herd-progress").Max(1).Value(strconv.FormatFloat(h.Progress, 'f', 3, 64)).Hidden(!h.Running).Aria("label", l.T("herd.progress")),
			app.P().ID("herd-status").Class("status").Text(status),
			app.Button().ID("herd-more").Type("button").Class("secondary").Hidden(!h.PageBound || h.Running).
				OnClick(hc.onMore).Text(l.T("herd.more")),
		),
		under,
		app.P().ID("run-summary").Class("visually-hidden").Role("status").Aria("live", "polite").Text(hc.summary()),
		&metricCards{A: h.A, B: h.B, Rev: h.Rev, Config: c, Lang: l, Stale: h.Running},
		// The inputs follow the chart and its numbers closely (a change
		// and what it redraws fit a laptop's screen); the scenarios, which
		// set them, come next.
		app.If(hc.Controls, func() app.UI {
			return &herdKnobs{Lang: l, Link: hc.Herd, Policy: hc.Policy}
		}),
		app.If(hc.Controls, func() app.UI { return &scenarioButtons{Lang: l, Current: hc.Scenario} }),
		app.If(hc.Controls, func() app.UI {
			return &topologyPanel{Lang: l, Config: c, Policy: hc.Policy, Totals: hc.firstTotals(), Rev: h.Rev}
		}),
		takeAway(l, downloadButton("herd")),
	)
}

// firstTotals are the totals of the first policy's first run, nil while
// it runs or before.
func (hc *herdCard) firstTotals() *sim.Totals {
	if h := hc.Runs; h.Running || h.A == nil || h.A.first == nil {
		return nil
	}
	return &hc.Runs.A.first.Totals
}

// verdict says whether the run recovered after its last fault
// (#herd-verdict, data-recovered "true" or "false", data-recovered-at in
// seconds when it did); with a second policy, its verdict too. Hidden
// when there is nothing to recover from, or no run yet. A herd's verdict
// says when its last clients gave up or succeeded (herdVerdict).
func (hc *herdCard) verdict() app.UI {
	l, c, h := hc.Lang, hc.Herd.Config, hc.Runs
	el := app.P().ID("herd-verdict").Class("verdict-line")
	if h.Running || h.A == nil || h.A.first == nil {
		return el.Hidden(true)
	}
	if !h.A.first.Totals.RequestLevel {
		return hc.herdVerdict(el)
	}
	v, ok := sim.VerdictOf(c, h.A.first)
	if !ok {
		return el.Hidden(true)
	}
	el = el.DataSet("recovered", v.RecoveredAt != nil).Text(verdictText(l, c, h))
	if v.RecoveredAt != nil {
		el = el.DataSet("recovered-at", exact(*v.RecoveredAt))
	}
	if v.RecoveredAt == nil {
		el = el.Class("verdict-bad")
	}
	return el
}

// herdVerdict words a herd's verdict (chart.HerdVerdictText) in el,
// #herd-verdict, with data-all-gave-up "true" or "false" and, in seconds,
// data-gave-up-before (the last give-up before the server came back, with
// an outage) and data-last-success; with a second policy, its verdict too.
// A run in which every client gave up while the server was still down is
// marked bad.
func (hc *herdCard) herdVerdict(el app.HTMLP) app.UI {
	l, c, h := hc.Lang, hc.Herd.Config, hc.Runs
	v, ok := sim.HerdVerdictOf(c, h.A.first)
	if !ok {
		return el.Hidden(true)
	}
	el = el.DataSet("all-gave-up", v.AllGaveUp()).Text(verdictText(l, c, h))
	if rel, _ := v.Since(v.LastGaveUp); v.GaveUp > 0 && rel != sim.At {
		el = el.DataSet("gave-up-before", exact(v.Back-v.LastGaveUp))
	}
	if v.Succeeded > 0 {
		el = el.DataSet("last-success", exact(v.LastSuccess))
	}
	if v.AllGaveUp() {
		el = el.Class("verdict-bad")
	}
	return el
}

// verdictText words the runs' verdict: a request-level run's recovery
// (recoveryText), a herd's clients (chart.HerdVerdictText); with a second
// policy, both. "" when there is none.
func verdictText(l i18n.Lang, c sim.Config, h runView) string {
	if h.A == nil || h.A.first == nil {
		return ""
	}
	one := func(r *sim.Result) string {
		if r == nil {
			return ""
		}
		if r.Totals.RequestLevel {
			if v, ok := sim.VerdictOf(c, r); ok {
				return recoveryText(l, v)
			}
			return ""
		}
		if v, ok := sim.HerdVerdictOf(c, r); ok {
			return chart.HerdVerdictText(l, v)
		}
		return ""
	}
	text := one(h.A.first)
	if h.B != nil && text != "" {
		if b := one(h.B.first); b != "" {
			text = l.T("policy.a") + ": " + text + " " + l.T("policy.b") + ": " + b
		}
	}
	return text
}

// summary is what a screen reader hears once a run settles (the
// #run-summary live region): the worst-case total wait (Worst), the
// verdict and the key figures, not the run's timing; "" while it runs, so
// nothing half-done is read.
func (hc *herdCard) summary() string {
	l, c, h := hc.Lang, hc.Herd.Config, hc.Runs
	if h.Running || h.Err != nil || h.A == nil || h.A.first == nil {
		return ""
	}
	t := h.A.first.Totals
	var s string
	if c.RequestLevel() {
		s = l.F("summary.requests", l.Percent(float64(t.Succeeded), float64(max(t.Requests, 1))), l.Float(t.Amplification, 2))
		if t.Succeeded > 0 {
			s += " " + l.F("summary.latency", l.Seconds(t.Latency.P99))
		}
	} else {
		s = l.F("summary.herd", l.Count(int64(t.Clients), "herd.clients-n"), l.Compact(float64(t.Calls)), l.Float(t.Amplification, 2),
			l.Compact(float64(t.GaveUp)))
		if t.Succeeded > 0 {
			s += " " + l.F("summary.completion", l.Seconds(t.Completion.P99))
		} else {
			s += " " + l.T("summary.none-succeeded")
		}
	}
	for _, lead := range []string{verdictText(l, c, h), hc.Worst} {
		if lead != "" {
			s = lead + " " + s
		}
	}
	return s
}
