package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdChart draws a herd's timeline: calls per bucket, succeeded and
// rejected stacked, the capacity line and the outage shaded; over several
// runs the means with each bucket's range; with a second policy, both on
// one scale.
type herdChart struct {
	app.Compo
	A, B *herdOut // B: the second policy's runs, or nil
	Rev  uint64   // herdRunner.rev: changes when a run is added to A or B
	Lang i18n.Lang
	// Present: presenter mode, whose chart is narrower in its units so
	// that its text is drawn at the lesson's type.
	Present bool
}

// herdSeries are what the herd chart draws: A's series, or with a second
// policy both on one scale (the same bucket width); chartNumbers' tables
// read the same.
func herdSeries(a, b *herdOut) []chart.Series {
	if b == nil || b.first == nil {
		return []chart.Series{a.series()}
	}
	ss, _, _ := chart.CommonScale([]chart.Series{a.series(), b.series()})
	return ss
}

func (c *herdChart) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().ID("herd-chart").Class("chart-box")
	}
	size := chart.HerdWide
	if c.Present {
		size = chart.HerdPresent
	}
	if c.B == nil || c.B.first == nil {
		return app.Div().ID("herd-chart").Class("chart-box").Body(
			app.Raw(chart.Herd(l, c.A.series(), 0, 0, size, l.T("chart.herd"))),
		)
	}
	// Two policies on one scale: the same bucket width, y and time axes;
	// side by side in presenter mode, each in a grid cell's frame.
	ss, yMax, xMax := chart.CommonScale([]chart.Series{c.A.series(), c.B.series()})
	if c.Present {
		size = chart.HerdSmallPresent
	}
	return app.Div().ID("herd-chart").Class("chart-box two").Body(
		app.Figure().Class("herd-a").Body(app.FigCaption().Text(l.T("policy.a")), app.Raw(chart.Herd(l, ss[0], yMax, xMax, size, l.T("chart.herd-a")))),
		app.Figure().Class("herd-b").Body(app.FigCaption().Text(l.T("policy.b")), app.Raw(chart.Herd(l, ss[1], yMax, xMax, size, l.T("chart.herd-b")))),
	)
}
