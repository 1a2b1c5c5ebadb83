package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// recoveryText words a run's recovery verdict (sim.VerdictOf) in l.
func recoveryText(l i18n.Lang, v sim.Verdict) string {
	what := l.T("fault-word." + v.Fault.String())
	switch {
	case v.RecoveredAt != nil:
		return l.F("req.verdict-recovered", l.Seconds(*v.RecoveredAt-v.End), what, l.Seconds(*v.RecoveredAt))
	case v.Load == 0:
		return l.F("req.verdict-none", what)
	case v.RetriesHold:
		return l.F("req.verdict-held", what, l.Float(v.Load, 1)+"×")
	}
	return l.F("req.verdict-load", what, l.Float(v.Load, 2)+"×")
}

// renderVerdict says whether the run recovered after its last fault
// (#herd-verdict, data-recovered "true" or "false", data-recovered-at in
// seconds when it did); with a second policy, its verdict too. Hidden
// when there is nothing to recover from, or no run yet. A herd's verdict
// says when its last clients gave up or succeeded (renderHerdVerdict).
func (p *playground) renderVerdict(l i18n.Lang) app.UI {
	c := p.st.Herd.Config
	h := &p.herd
	el := app.P().ID("herd-verdict").Class("verdict-line")
	if h.running || h.a == nil || h.a.first == nil {
		return el.Hidden(true)
	}
	if !h.a.first.Totals.RequestLevel {
		return p.renderHerdVerdict(l, el)
	}
	v, ok := sim.VerdictOf(c, h.a.first)
	if !ok {
		return el.Hidden(true)
	}
	text := recoveryText(l, v)
	if h.b != nil && h.b.first != nil {
		if vb, ok := sim.VerdictOf(c, h.b.first); ok {
			text = l.T("policy.a") + ": " + text + " " + l.T("policy.b") + ": " + recoveryText(l, vb)
		}
	}
	el = el.DataSet("recovered", v.RecoveredAt != nil).Text(text)
	if v.RecoveredAt != nil {
		el = el.DataSet("recovered-at", exact(*v.RecoveredAt))
	}
	if v.RecoveredAt == nil {
		el = el.Class("verdict-bad")
	}
	return el
}

// renderHerdVerdict words a herd's verdict (chart.HerdVerdictText) in el,
// #herd-verdict, with data-all-gave-up "true" or "false" and, in seconds,
// data-gave-up-before (the last give-up before the server came back, with
// an outage) and data-last-success; with a second policy, its verdict too.
// A run in which every client gave up while the server was still down is
// marked bad.
func (p *playground) renderHerdVerdict(l i18n.Lang, el app.HTMLP) app.UI {
	c := p.st.Herd.Config
	h := &p.herd
	v, ok := sim.HerdVerdictOf(c, h.a.first)
	if !ok {
		return el.Hidden(true)
	}
	text := chart.HerdVerdictText(l, v)
	if h.b != nil && h.b.first != nil {
		if vb, ok := sim.HerdVerdictOf(c, h.b.first); ok {
			text = l.T("policy.a") + ": " + text + " " + l.T("policy.b") + ": " + chart.HerdVerdictText(l, vb)
		}
	}
	el = el.DataSet("all-gave-up", v.AllGaveUp()).Text(text)
	if v.GaveUp > 0 && v.Outage {
		el = el.DataSet("gave-up-before", exact(v.GaveUpBeforeBack()))
	}
	if v.Succeeded > 0 {
		el = el.DataSet("last-success", exact(v.LastSuccess))
	}
	if v.AllGaveUp() {
		el = el.Class("verdict-bad")
	}
	return el
}

// runSummary is what a screen reader hears once a run settles (the
// #run-summary live region): the verdict and the key figures, not the
// run's timing; "" while it runs, so nothing half-done is read.
func (p *playground) runSummary(l i18n.Lang) string {
	c := p.st.Herd.Config
	h := &p.herd
	if h.running || h.err != nil || h.a == nil || h.a.first == nil {
		return ""
	}
	t := h.a.first.Totals
	if c.RequestLevel() {
		s := l.F("summary.requests", l.Percent(float64(t.Succeeded), float64(max(t.Requests, 1))), l.Float(t.Amplification, 2))
		if t.Succeeded > 0 {
			s += " " + l.F("summary.latency", l.Seconds(t.Latency.P99))
		}
		if v, ok := sim.VerdictOf(c, h.a.first); ok {
			s = recoveryText(l, v) + " " + s
		}
		return s
	}
	s := l.F("summary.herd", l.Count(int64(t.Clients), "herd.clients-n"), l.Compact(float64(t.Calls)), l.Float(t.Amplification, 2),
		l.Compact(float64(t.GaveUp)))
	if t.Succeeded > 0 {
		s += " " + l.F("summary.completion", l.Seconds(t.Completion.P99))
	} else {
		s += " " + l.T("summary.none-succeeded")
	}
	return s
}
