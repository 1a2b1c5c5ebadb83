package chart

import (
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// Column is one column of a delay table as people read it: its id (the
// page's data-col), the catalog keys of its heading and tooltip, its value
// in seconds (the retry number for "retry"), and whether a narrow view may
// hide it (the page's style sheet hides only optional columns, by
// data-col: the totals' row keeps a cell of each, so its colspans count
// only columns that always show).
type Column struct {
	ID, Head, Title string
	Value           func(backoff.Row) float64
	Optional        bool
	// Projector: presenter mode hides it too (a 4:3 projector's widget,
	// in the lesson's type, has room for the retry, the largest delay
	// and the running totals only).
	Projector bool
}

// Columns are the delay table's columns, in order, for the page's table,
// its Markdown and its SVG.
var Columns = []Column{
	{"retry", "table.retry", "", func(r backoff.Row) float64 { return float64(r.Retry) }, false, false},
	{"nominal", "table.nominal", "", func(r backoff.Row) float64 { return r.Nominal }, true, true},
	{"min", "table.min", "", func(r backoff.Row) float64 { return r.Min }, false, true},
	{"max", "table.max", "", func(r backoff.Row) float64 { return r.Max }, false, false},
	{"mean", "table.mean", "", func(r backoff.Row) float64 { return r.Mean }, false, true},
	{"p50", "table.p50", "", func(r backoff.Row) float64 { return r.P50 }, true, true},
	{"p95", "table.p95", "", func(r backoff.Row) float64 { return r.P95 }, true, true},
	{"sample", "table.sample", "table.sample-t", func(r backoff.Row) float64 { return r.Sample }, true, true},
	{"cum_mean", "table.cum-mean", "table.cum-mean-t", func(r backoff.Row) float64 { return r.CumMean }, false, false},
	{"cum_max", "table.cum-max", "table.cum-max-t", func(r backoff.Row) float64 { return r.CumMax }, false, false},
}

// Cell is a column's value in row r as l writes it.
func (c Column) Cell(l i18n.Lang, r backoff.Row) string {
	if c.ID == "retry" {
		return l.Int(int64(r.Retry))
	}
	return l.Seconds(c.Value(r))
}

// TableCSV is the table as CSV, every number in seconds as the core gave it
// (language-neutral: for spreadsheets), with the columns the page does not
// show (cumulative minimum, capped, past the deadline).
func TableCSV(t *backoff.Table) string {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.Write([]string{"retry", "nominal_s", "min_s", "max_s", "mean_s", "p50_s", "p95_s", "sample_s", "cum_min_s", "cum_mean_s", "cum_max_s", "capped", "past_deadline"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range t.Rows {
		cw.Write([]string{strconv.Itoa(r.Retry), g(r.Nominal), g(r.Min), g(r.Max), g(r.Mean), g(r.P50), g(r.P95), g(r.Sample),
			g(r.CumMin), g(r.CumMean), g(r.CumMax), strconv.FormatBool(r.Capped), strconv.FormatBool(r.PastDeadline)})
	}
	cw.Flush()
	return b.String()
}

// TableMarkdown is the table as a Markdown (GFM) table in l, numbers
// right-aligned, the row where the cap is reached marked, and the totals
// below it.
func TableMarkdown(l i18n.Lang, t *backoff.Table) string {
	var b strings.Builder
	b.WriteString("|")
	for _, c := range Columns {
		b.WriteString(" " + l.T(c.Head) + " |")
	}
	b.WriteString("\n|")
	for range Columns {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for i, c := range Columns {
			cell := c.Cell(l, r)
			if i == 0 && r.Retry == t.CapRow {
				cell += " " + l.T("table.md-cap")
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + l.F("table.md-totals", l.Seconds(t.Total.Min), l.Seconds(t.Total.Mean), l.Seconds(t.Total.Max)) + "\n")
	return b.String()
}

// TableSVG draws the table as an image in l: a heading row, a row per
// retry (the cap's row shaded), the totals last.
func TableSVG(l i18n.Lang, t *backoff.Table) string {
	const rowH, colW, pad = 22.0, 72.0, 8.0
	rows := len(t.Rows)
	f := frame{W: pad*2 + colW*float64(len(Columns)), H: pad*2 + rowH*float64(rows+2)}
	var w svgWriter
	w.open(f, "chart-table", l.T("table.caption"))
	x := func(i int) float64 { return pad + colW*float64(i+1) - 6 }
	y := func(row int) float64 { return pad + rowH*float64(row+1) - 7 }
	for i, c := range Columns {
		w.text("table-head", x(i), y(0), "end", l.T(c.Head))
	}
	var rules pathData
	rules.op('M', pad, pad+rowH)
	rules.op('H', f.W-pad)
	for ri, r := range t.Rows {
		if r.Retry == t.CapRow {
			var d pathData
			d.rect(pad, pad+rowH*float64(ri+1), f.W-pad, pad+rowH*float64(ri+2))
			w.path("table-cap", d.String())
		}
		for i, c := range Columns {
			w.text("table-cell", x(i), y(ri+1), "end", c.Cell(l, r))
		}
	}
	rules.op('M', pad, pad+rowH*float64(rows+1))
	rules.op('H', f.W-pad)
	w.path("table-rule", rules.String())
	w.text("table-head", f.W-pad-6, y(rows+1), "end",
		l.F("table.md-totals", l.Seconds(t.Total.Min), l.Seconds(t.Total.Mean), l.Seconds(t.Total.Max)))
	w.close()
	return w.String()
}
