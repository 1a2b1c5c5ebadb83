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

// secondsAttr is the exact number, as the core computed it.
func secondsAttr(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// tableCols are the table's columns: data-col, heading, tooltip. The rows
// are built by one loop over them: in Go's wasm every go-app call site
// costs app.wasm about 200 bytes, and the page is at its size budget.
var tableCols = [...]struct{ col, head, title string }{
	{"retry", "retry", ""},
	{"nominal", "nominal", ""},
	{"min", "min", ""},
	{"max", "max", ""},
	{"mean", "mean", ""},
	{"sample", "sample", "one seeded run: change the seed for another"},
	{"cum_mean", "Σ mean", "expected total wait up to this retry"},
	{"cum_max", "Σ max", "worst-case total wait up to this retry"},
}

func (c *delayTable) Render() app.UI {
	t := c.Table
	if t == nil {
		return app.Table().ID("delay-table").Class("delay-table")
	}
	heads := make([]app.UI, len(tableCols))
	for i, col := range tableCols {
		th := app.Th().Scope("col").Text(col.head)
		if col.title != "" {
			th = th.Title(col.title)
		}
		heads[i] = th
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
		vals := [len(tableCols)]float64{float64(r.Retry), r.Nominal, r.Min, r.Max, r.Mean, r.Sample, r.CumMean, r.CumMax}
		cells := make([]app.UI, len(vals))
		for j, v := range vals {
			text := strconv.Itoa(r.Retry)
			if j > 0 {
				text = backoff.FormatSeconds(v)
			}
			cells[j] = app.Td().DataSet("col", tableCols[j].col).DataSet("seconds", secondsAttr(v)).Text(text)
		}
		rows[i] = app.Tr().Class(cls).Body(cells...)
	}
	total := func(id string, v float64) app.UI {
		return app.Td().ID("total-"+id).DataSet("col", "total_"+id).DataSet("seconds", secondsAttr(v)).Text(backoff.FormatSeconds(v))
	}
	return app.Table().ID("delay-table").Class("delay-table").Body(
		app.Caption().Text("Delay before each retry"),
		app.THead().Body(app.Tr().Body(heads...)),
		app.TBody().Body(rows...),
		app.TFoot().Body(
			app.Tr().Body(
				app.Th().Scope("row").ColSpan(6).Text("total wait: best / expected / worst case"),
				total("mean", t.Total.Mean),
				total("max", t.Total.Max),
			),
			app.Tr().Class("total-min").Body(
				app.Th().Scope("row").ColSpan(7).Text("best case (every draw lowest)"),
				total("min", t.Total.Min),
			),
		),
	)
}
