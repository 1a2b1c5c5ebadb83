package app

import (
	"math"
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareGrid shows the same herd under each jitter kind as small
// multiples on one scale: the AWS blog's figure, live.
type compareGrid struct {
	app.Compo
	Results []cmpResult
	Current string // the page's jitter kind, outlined
}

func (c *compareGrid) Render() app.UI {
	var yMax, xMax float64
	for _, r := range c.Results {
		if r.Res == nil {
			continue
		}
		s := seriesOf(r.Res)
		yMax = math.Max(yMax, s.scalePeak())
		xMax = math.Max(xMax, s.end())
	}
	cells := make([]app.UI, len(c.Results))
	for i, r := range c.Results {
		var body app.UI
		switch {
		case r.Err != "":
			body = app.P().Class("error").Text(r.Err)
		case r.Res == nil:
			body = app.P().Class("pending").Text("running…")
		default:
			t := r.Res.Totals
			body = app.Div().Body(
				app.Raw(herdSVG(seriesOf(r.Res), yMax, xMax, true, "jitter: "+r.Kind)),
				app.P().Class("cmp-stats").Text(
					"calls "+compactCount(float64(t.Calls))+
						" · "+ratio(t.Amplification)+
						" · p99 "+backoff.FormatSeconds(t.Completion.P99)+
						" · gave up "+strconv.Itoa(t.GaveUp)),
			)
		}
		cls := "cmp-cell"
		if r.Kind == c.Current {
			cls += " current"
		}
		cells[i] = app.Figure().Class(cls).DataSet("jitter", r.Kind).Body(body)
	}
	return app.Div().ID("compare").Class("compare-grid").Body(cells...)
}
