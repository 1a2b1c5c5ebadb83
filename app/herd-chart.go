package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// herdChart draws a herd run's timeline: calls per bucket, succeeded and
// rejected stacked, the capacity line and the outage shaded.
type herdChart struct {
	app.Compo
	Result *sim.Result
	Lang   i18n.Lang
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
	if c.Result == nil {
		return app.Div().ID("herd-chart").Class("chart-box")
	}
	return app.Div().ID("herd-chart").Class("chart-box").Body(
		app.Raw(herdSVG(c.Lang, seriesOf(c.Result), 0, 0, false, c.Lang.T("chart.herd"))),
	)
}
