package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareGrid shows the same herd under each jitter kind as small
// multiples on one scale: the AWS blog's figure, live. "One scale" is
// literal: every panel is re-binned to one bucket width and drawn with one
// y axis and one time axis, so equal heights mean equal calls; unless a
// run is so much shorter than another that it would be a sliver
// (chart.GridScale): then each panel has its own scales, and the line
// above the grid says so.
type compareGrid struct {
	app.Compo
	Results []cmpResult
	Current string // the page's jitter kind, outlined
	Lang    i18n.Lang
	// Present: presenter mode's frames, each captioned in the lesson's
	// type. Pending: new runs are under way (the panels are the last ones).
	Present, Pending bool
}

func (c *compareGrid) Render() app.UI {
	l := c.Lang
	series := make([]chart.Series, len(c.Results))
	for i, r := range c.Results {
		series[i] = chart.SeriesOf(r.Config, r.Res)
	}
	series, yMax, xMax, shared, shortest, longest := chart.GridScale(series)
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
			size := chart.HerdSmall
			if c.Present {
				size = chart.HerdSmallPresent
			}
			body = app.Div().Body(
				app.Raw(chart.Herd(l, series[i], yMax, xMax, size, l.F("chart.small", kindName(l, r.Kind)))),
				app.P().Class("cmp-stats").Text(l.F("compare.stats",
					l.Compact(float64(t.Calls)), l.Ratio(t.Amplification),
					completionText(l, t.Succeeded, t.Completion.P99), l.Compact(float64(t.GaveUp)))),
			)
		}
		cls := "cmp-cell"
		if r.Kind == c.Current {
			cls += " current"
		}
		cell := app.Figure().Class(cls).DataSet("jitter", r.Kind)
		if r.Res != nil {
			cell = cell.DataSet("calls", r.Res.Totals.Calls)
		}
		var caption app.UI
		if c.Present {
			caption = app.FigCaption().Class("cmp-title").Text(kindName(l, r.Kind))
		}
		cells[i] = cell.Body(caption, body)
	}
	// The grid's line says what its panels show, on which scale, and
	// whether new ones are on their way.
	// Presenter mode has room for the scale's sentence alone.
	note := l.T("compare.note")
	switch {
	case c.Present && shared:
		note = ""
	case c.Present:
		note = l.F("compare.own-short", l.Seconds(shortest), l.Seconds(longest))
	case !shared:
		note = l.F("compare.note-own", l.Seconds(shortest), l.Seconds(longest))
	}
	if c.Pending && !c.Present {
		note += " " + l.T("compare.updating")
	}
	return app.Div().Body(
		app.P().ID("compare-scale").Class("hint").DataSet("shared", boolText(shared)).Hidden(note == "").Text(note),
		app.Div().ID("compare").Class("compare-grid").DataSet("shared", boolText(shared)).Body(cells...),
	)
}

// completionText is a completion time, or a dash and why when no client
// completed.
func completionText(l i18n.Lang, succeeded int, v float64) string {
	if succeeded == 0 {
		return l.T("compare.none-succeeded")
	}
	return l.Seconds(v)
}
