package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdChart draws a herd's timeline: calls per bucket, succeeded and
// rejected stacked, the capacity line and the outage shaded; over several
// runs the means with each bucket's range; with a second policy, both on
// one scale.
type herdChart struct {
	app.Compo
	A, B *herdOut // B: the second policy's runs, or nil
	Lang i18n.Lang
}

// seriesOf turns a result into the chart's plain numbers.
func seriesOf(r *sim.Result) herdSeries {
	if r == nil {
		return herdSeries{}
	}
	h := herdSeries{
		Width:       r.BucketWidth,
		OK:          make([]float64, len(r.Timeline)),
		Rejected:    make([]float64, len(r.Timeline)),
		Capacity:    r.CapacityPerBucket,
		OutageStart: r.OutageStart,
		OutageEnd:   r.OutageEnd,
	}
	for i, b := range r.Timeline {
		h.OK[i] = float64(b.OK)
		h.Rejected[i] = float64(b.Rejected)
	}
	if n := len(h.OK); n > maxBuckets && h.Width > 0 {
		h = rebin(h, h.Width*float64((n+maxBuckets-1)/maxBuckets))
	}
	return h
}

func (c *herdChart) Render() app.UI {
	l := c.Lang
	if c.A == nil || c.A.first == nil {
		return app.Div().ID("herd-chart").Class("chart-box")
	}
	if c.B == nil || c.B.first == nil {
		return app.Div().ID("herd-chart").Class("chart-box").Body(
			app.Raw(herdSVG(l, c.A.series(), 0, 0, false, l.T("chart.herd"))),
		)
	}
	// Two policies on one scale: the same bucket width, y and time axes.
	ss, yMax, xMax := commonScale([]herdSeries{c.A.series(), c.B.series()})
	return app.Div().ID("herd-chart").Class("chart-box two").Body(
		app.Figure().Class("herd-a").Body(app.FigCaption().Text(l.T("policy.a")), app.Raw(herdSVG(l, ss[0], yMax, xMax, false, l.T("chart.herd-a")))),
		app.Figure().Class("herd-b").Body(app.FigCaption().Text(l.T("policy.b")), app.Raw(herdSVG(l, ss[1], yMax, xMax, false, l.T("chart.herd-b")))),
	)
}
