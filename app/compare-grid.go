package app

import (
	"math"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareGrid shows the same herd under each jitter kind as small
// multiples on one scale: the AWS blog's figure, live. "One scale" is
// literal: every panel is re-binned to one bucket width and drawn with one
// y axis and one time axis, so equal heights mean equal calls.
type compareGrid struct {
	app.Compo
	Results []cmpResult
	Current string // the page's jitter kind, outlined
	Lang    i18n.Lang
}

// commonScale re-bins every series to one bucket width (the smallest that
// all their widths divide: they are 1, 2 or 5 times a power of ten) and
// returns them with the shared y and x extents.
func commonScale(series []herdSeries) (out []herdSeries, yMax, xMax float64) {
	w := 0.0
	for _, s := range series {
		if s.Width > 0 {
			w = commonWidth(w, s.Width)
		}
	}
	out = make([]herdSeries, len(series))
	for i, s := range series {
		if s.Width > 0 {
			s = rebin(s, w)
			yMax = math.Max(yMax, s.scalePeak())
			xMax = math.Max(xMax, s.end())
		}
		out[i] = s
	}
	return out, yMax, xMax
}

// commonWidth is the smallest width of the form 1, 2 or 5 x 10^k that both
// a and b divide (a may be 0: none yet).
func commonWidth(a, b float64) float64 {
	if a <= 0 {
		return b
	}
	for _, w := range []float64{math.Max(a, b), 2 * math.Max(a, b), 5 * math.Max(a, b), 10 * math.Max(a, b)} {
		if divides(a, w) && divides(b, w) {
			return w
		}
	}
	return 10 * math.Max(a, b)
}

// divides reports whether w is a whole multiple of d, within float error.
func divides(d, w float64) bool {
	q := w / d
	return math.Abs(q-math.Round(q)) < 1e-6
}

// rebin sums groups of buckets so that s has width w (a multiple of its
// own).
func rebin(s herdSeries, w float64) herdSeries {
	m := int(math.Round(w / s.Width))
	if m <= 1 {
		return s
	}
	n := (len(s.OK) + m - 1) / m
	r := s
	r.Width, r.Capacity = w, s.Capacity*float64(m)
	r.OK, r.Rejected = make([]float64, n), make([]float64, n)
	for i := range s.OK {
		r.OK[i/m] += s.OK[i]
		r.Rejected[i/m] += s.Rejected[i]
	}
	// The spread of a sum is bounded by the sums of the spreads.
	if len(s.Lo) == len(s.OK) && len(s.Hi) == len(s.OK) {
		r.Lo, r.Hi = make([]float64, n), make([]float64, n)
		for i := range s.Lo {
			r.Lo[i/m] += s.Lo[i]
			r.Hi[i/m] += s.Hi[i]
		}
	} else {
		r.Lo, r.Hi = nil, nil
	}
	return r
}

func (c *compareGrid) Render() app.UI {
	l := c.Lang
	series := make([]herdSeries, len(c.Results))
	for i, r := range c.Results {
		series[i] = seriesOf(r.Res)
	}
	series, yMax, xMax := commonScale(series)
	cells := make([]app.UI, len(c.Results))
	for i, r := range c.Results {
		var body app.UI
		switch {
		case r.Err != nil:
			body = app.P().Class("error").Text(errText(l, r.Err, ""))
		case r.Res == nil:
			body = app.P().Class("pending").Text(l.T("compare.running"))
		default:
			t := r.Res.Totals
			body = app.Div().Body(
				app.Raw(herdSVG(l, series[i], yMax, xMax, true, l.F("chart.small", kindName(l, r.Kind)))),
				app.P().Class("cmp-stats").Text(l.F("compare.stats",
					l.Compact(float64(t.Calls)), l.Ratio(t.Amplification),
					completionText(l, t.Succeeded, t.Completion.P99), l.Compact(float64(t.GaveUp)))),
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

// completionText is a completion time, or a dash when no client completed.
func completionText(l i18n.Lang, succeeded int, v float64) string {
	if succeeded == 0 {
		return "—"
	}
	return l.Seconds(v)
}
