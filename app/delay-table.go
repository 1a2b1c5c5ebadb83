package app

import (
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// delayTable shows the core's delay table: one row per retry, the row where
// the cap is reached highlighted, the totals in the footer. Every time cell
// carries the unrounded number in data-seconds.
type delayTable struct {
	app.Compo
	Table *backoff.Table
}

func newDelayTable() *delayTable { return &delayTable{} }

// secondsAttr is the exact number, as the core computed it.
func secondsAttr(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func timeCell(col string, v float64) app.HTMLTd {
	return app.Td().DataSet("col", col).DataSet("seconds", secondsAttr(v)).Text(backoff.FormatSeconds(v))
}

func (c *delayTable) Render() app.UI {
	t := c.Table
	if t == nil {
		return app.Table().ID("delay-table").Class("delay-table")
	}
	rows := make([]app.UI, len(t.Rows))
	for i, r := range t.Rows {
		cls := ""
		if r.Retry == t.CapRow {
			cls = "cap-row"
		}
		if r.PastDeadline {
			cls += " past-deadline"
		}
		rows[i] = app.Tr().Class(cls).Body(
			app.Td().DataSet("col", "retry").DataSet("seconds", strconv.Itoa(r.Retry)).Text(strconv.Itoa(r.Retry)),
			timeCell("nominal", r.Nominal),
			timeCell("min", r.Min),
			timeCell("max", r.Max),
			timeCell("mean", r.Mean),
			timeCell("sample", r.Sample),
			timeCell("cum_mean", r.CumMean),
			timeCell("cum_max", r.CumMax),
		)
	}
	return app.Table().ID("delay-table").Class("delay-table").Body(
		app.Caption().Text("Delay before each retry"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("retry"),
			app.Th().Scope("col").Text("nominal"),
			app.Th().Scope("col").Text("min"),
			app.Th().Scope("col").Text("max"),
			app.Th().Scope("col").Text("mean"),
			app.Th().Scope("col").Title("one seeded run: change the seed for another").Text("sample"),
			app.Th().Scope("col").Title("expected total wait up to this retry").Text("Σ mean"),
			app.Th().Scope("col").Title("worst-case total wait up to this retry").Text("Σ max"),
		)),
		app.TBody().Body(rows...),
		app.TFoot().Body(
			app.Tr().Body(
				app.Th().Scope("row").ColSpan(6).Text("total wait: best / expected / worst case"),
				app.Td().ID("total-mean").DataSet("col", "total_mean").DataSet("seconds", secondsAttr(t.Total.Mean)).Text(backoff.FormatSeconds(t.Total.Mean)),
				app.Td().ID("total-max").DataSet("col", "total_max").DataSet("seconds", secondsAttr(t.Total.Max)).Text(backoff.FormatSeconds(t.Total.Max)),
			),
			app.Tr().Class("total-min").Body(
				app.Th().Scope("row").ColSpan(7).Text("best case (every draw lowest)"),
				app.Td().ID("total-min").DataSet("col", "total_min").DataSet("seconds", secondsAttr(t.Total.Min)).Text(backoff.FormatSeconds(t.Total.Min)),
			),
		),
	)
}
