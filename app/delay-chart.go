package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// delaysPanel is the delay chart and the histogram of the total wait, a
// component: it draws them from its tables when they (or the language, the
// seed, the scale) change, and only then; progress updates elsewhere on
// the page never redraw it. The log scale's box goes to the page (the link
// keeps it) as an edit.
type delaysPanel struct {
	app.Compo

	Lang  i18n.Lang
	Alone bool // an embedded view: the heading is the page's h1
	Of    tableSpec
	Log   bool

	delays, hist string // SVG
	capDrawn     bool   // the delay chart shows a cap line
}

func (c *delaysPanel) OnInit() { c.draw() }

func (c *delaysPanel) OnUpdate(ctx app.Context) { c.draw() }

func (c *delaysPanel) draw() {
	a, b, _ := c.Of.tables()
	c.delays, c.hist, c.capDrawn = drawDelays(c.Lang, a, b, c.Of.Seed, c.Log)
}

// newDelaysCard is the delay chart and the histogram of the total wait
// for the page's state.
func newDelaysCard(v pageView) app.UI {
	return &delaysPanel{Lang: v.lang, Alone: v.alone(), Of: specOf(v.st), Log: v.st.Log}
}

// delaysPicture is the delay chart and histogram as one picture.
func delaysPicture(v pageView) string {
	a, b, _ := tablesOf(v.st)
	svg, _, _ := drawDelays(v.lang, a, b, v.st.Seed, v.st.Log)
	return svg
}

// drawDelays draws table a's delay chart and histogram (b's beside, when
// there is a second policy): the same seeded clients as the page's.
func drawDelays(l i18n.Lang, a, b *backoff.Table, seed uint64, log bool) (delays, hist string, capDrawn bool) {
	if a == nil {
		return "", "", false
	}
	da := chart.DelaySeries{T: a, S: chart.SampleClients(a.Policy, len(a.Rows), seed)}
	var db *chart.DelaySeries
	var totalsB []float64
	if b != nil {
		db = &chart.DelaySeries{T: b, S: chart.SampleClients(b.Policy, len(b.Rows), seed)}
		totalsB = db.S.Totals
	}
	delays, capDrawn = chart.Delays(l, da, db, log)
	return delays, chart.Histogram(l, da.S.Totals, a.Total, totalsB), capDrawn
}

func (c *delaysPanel) Render() app.UI {
	l := c.Lang
	var body []app.UI
	if c.delays != "" {
		body = append(body,
			app.Div().Class("chart-head").Body(
				cardHead(c.Alone, 3, l.T("one.chart-head")),
				app.Label().For("delay-log").Class("toggle").Body(
					app.Input().Type("checkbox").ID("delay-log").Checked(c.Log).OnChange(c.onLog),
					app.Text(" "+l.T("one.log")),
				),
			),
			legend(c.legend()...),
			app.Div().ID("delay-chart").Class("chart-box").Body(app.Raw(c.delays), app.Raw(c.hist)),
			takeAway(l, downloadButton("delays")),
		)
	}
	return app.Section().Class("card delay-charts").Aria("label", l.T("one.chart-head")).Body(body...)
}

func (c *delaysPanel) onLog(ctx app.Context, e app.Event) {
	sendEdit(ctx, edit{set: setTo(func(st *state) *bool { return &st.Log }, ctx.JSSrc().Get("checked").Bool()), push: true})
}

// legend is the delay chart's key: what it draws, the cap only when its
// line is on the chart, the second policy when there is one.
func (c *delaysPanel) legend() []string {
	l := c.Lang
	keys := []string{"band", l.T("legend.band"), "mean", l.T("legend.mean"), "dots", l.F("legend.dots", l.Int(chart.DotClients))}
	if c.capDrawn {
		keys = append(keys, "cap", l.T("legend.cap"))
	}
	if c.Of.HasB {
		keys = append(keys, "band-b", l.T("legend.b"))
	}
	return keys
}
