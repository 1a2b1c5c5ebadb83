package app

import (
	"strconv"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// delayTable shows the core's delay table: one row per retry, the row where
// the cap is reached highlighted, the totals in the footer. Every time cell
// carries the unrounded number in data-seconds.
type delayTable struct {
	app.Compo
	ID    string // delay-table, or delay-table-b for the second policy
	Table *backoff.Table
	Lang  i18n.Lang
}

// secondsAttr is the exact number, as the core computed it.
func secondsAttr(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// tableCols are the table's columns: data-col, heading and tooltip (catalog
// keys). The rows are built by one loop over them: in Go's wasm every
// go-app call site costs app.wasm about 200 bytes.
var tableCols = [...]struct{ col, head, title string }{
	{"retry", "table.retry", ""},
	{"nominal", "table.nominal", ""},
	{"min", "table.min", ""},
	{"max", "table.max", ""},
	{"mean", "table.mean", ""},
	{"p50", "table.p50", ""},
	{"p95", "table.p95", ""},
	{"sample", "table.sample", "table.sample-t"},
	{"cum_mean", "table.cum-mean", "table.cum-mean-t"},
	{"cum_max", "table.cum-max", "table.cum-max-t"},
}

func (c *delayTable) Render() app.UI {
	t, l := c.Table, c.Lang
	if t == nil {
		return app.Table().ID(c.ID).Class("delay-table")
	}
	heads := make([]app.UI, len(tableCols))
	for i, col := range tableCols {
		th := app.Th().Scope("col").DataSet("col", col.col).Text(l.T(col.head))
		if col.title != "" {
			th = th.Title(l.T(col.title))
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
		vals := [len(tableCols)]float64{float64(r.Retry), r.Nominal, r.Min, r.Max, r.Mean, r.P50, r.P95, r.Sample, r.CumMean, r.CumMax}
		cells := make([]app.UI, len(vals))
		for j, v := range vals {
			text := l.Int(int64(r.Retry))
			if j > 0 {
				text = l.Seconds(v)
			}
			cells[j] = app.Td().DataSet("col", tableCols[j].col).DataSet("seconds", secondsAttr(v)).Text(text)
		}
		rows[i] = app.Tr().Class(cls).Body(cells...)
	}
	// Only the first policy's totals have the ids total-min, -mean, -max.
	idp := "total-"
	if c.ID != "delay-table" {
		idp = c.ID + "-total-"
	}
	total := func(id string, v float64) app.UI {
		return app.Td().ID(idp+id).DataSet("col", "total_"+id).DataSet("seconds", secondsAttr(v)).Text(l.Seconds(v))
	}
	// The totals sit under the columns they sum: expected under Σ mean,
	// worst under Σ max; the best case has its own row.
	return app.Table().ID(c.ID).Class("delay-table").Body(
		app.Caption().Text(l.T("table.caption")),
		app.THead().Body(app.Tr().Body(heads...)),
		app.TBody().Body(rows...),
		app.TFoot().Body(
			app.Tr().Body(
				app.Th().Scope("row").ColSpan(len(tableCols)-2).Text(l.T("table.totals")),
				total("mean", t.Total.Mean),
				total("max", t.Total.Max),
			),
			app.Tr().Class("total-min").Body(
				app.Th().Scope("row").ColSpan(len(tableCols)-1).Text(l.T("table.best")),
				total("min", t.Total.Min),
			),
		),
	)
}
