package app

import (
	"strconv"

	"github.com/backoff-playground/playground/app/chart"
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
	// Present: presenter mode, which hides the Projector columns too.
	Present bool
}

// secondsAttr is the exact number, as the core computed it.
func secondsAttr(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (c *delayTable) Render() app.UI {
	t, l := c.Table, c.Lang
	if t == nil {
		return app.Table().ID(c.ID).Class("delay-table")
	}
	// The rows are built by one loop over chart.Columns: in Go's wasm every
	// go-app call site costs app.wasm about 200 bytes.
	heads := make([]app.UI, len(chart.Columns))
	for i, col := range chart.Columns {
		th := app.Th().Scope("col").DataSet("col", col.ID).Text(l.T(col.Head))
		if col.Title != "" {
			th = th.Title(l.T(col.Title))
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
		cells := make([]app.UI, len(chart.Columns))
		for j, col := range chart.Columns {
			cells[j] = app.Td().DataSet("col", col.ID).DataSet("seconds", secondsAttr(col.Value(r))).Text(col.Cell(l, r))
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
			footRow("", l.T("table.totals"), c.Present, total("mean", t.Total.Mean), total("max", t.Total.Max)),
			footRow("total-min", l.T("table.best"), c.Present, total("min", t.Total.Min)),
		),
	)
}

// footRow is a totals row: the values under the last len(values) columns,
// the label over the longest run of columns that always show before them
// (labelSpan), and an empty cell for each other column, carrying its
// data-col so that it hides with its column. A colspan over a column the
// style sheet hides (presenter mode, a phone) would add a column and push
// the totals right of the columns they sum.
func footRow(cls, label string, present bool, values ...app.UI) app.UI {
	n := len(chart.Columns) - len(values)
	from, to := labelSpan(chart.Columns[:n], present)
	cells := make([]app.UI, 0, len(chart.Columns))
	for i, col := range chart.Columns[:n] {
		switch {
		case i == from && to > from:
			cells = append(cells, app.Th().Scope("row").ColSpan(to-from).Text(label))
		case i < from || i >= to:
			cells = append(cells, app.Td().DataSet("col", col.ID))
		}
	}
	return app.Tr().Class(cls).Body(append(cells, values...)...)
}

// labelSpan is the longest run [from, to) of columns that are not
// optional (the later one of equals: nearer the totals), nor, in
// presenter mode, hidden on a projector.
func labelSpan(cols []chart.Column, present bool) (from, to int) {
	start := 0
	for i := 0; i <= len(cols); i++ {
		if i < len(cols) && !cols[i].Optional && !(present && cols[i].Projector) {
			continue
		}
		if i-start >= to-from {
			from, to = start, i
		}
		start = i + 1
	}
	return from, to
}
