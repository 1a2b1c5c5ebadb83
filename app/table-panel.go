package app

import (
	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// tablePanel is the delay table's card, a component: the policy in words,
// its table with what the numbers rest on, the second policy's table when
// there is one, and the buttons that take the table away (copies and the
// download go to the page as actions).
type tablePanel struct {
	app.Compo

	Lang    i18n.Lang
	Alone   bool // an embedded view: the heading is the page's h1
	Policy  backoff.Policy
	A       *backoff.Table
	Err     string // why the table of Policy could not be made, worded
	PolicyB backoff.Policy
	B       *backoff.Table // nil: no second policy
	Present bool
}

func (c *tablePanel) Render() app.UI {
	l, pol := c.Lang, c.Policy
	body := []app.UI{
		cardHead(c.Alone, 2, l.T("one.head")),
		app.P().Class("describe").ID("describe").Text(describe(l, pol)),
	}
	if c.Err != "" {
		body = append(body, app.P().Class("error").Text(c.Err))
	}
	if t := c.A; t != nil {
		body = append(body,
			tableWrap(l, "delay-table", t, c.Present),
			takeAway(l, takeItem{"copy-md", "take.md", c.onCopyMarkdown}, takeItem{"copy-csv", "take.csv", c.onCopyCSV}, downloadButton("table")),
			app.Ul().Class("notes").Body(c.notes()...),
		)
	}
	if c.B != nil {
		body = append(body,
			app.H3().Class("table-b-head").Text(l.T("policy.b")),
			app.P().Class("describe").ID("describe-b").Text(describe(l, c.PolicyB)),
			tableWrap(l, "delay-table-b", c.B, c.Present),
		)
	}
	return app.Section().Class("card delays").Aria("label", l.T("one.aria")).Body(body...)
}

// tableWrap is a delay table in its box, which scrolls when the table is
// longer or wider: a region the keyboard can reach and scroll.
func tableWrap(l i18n.Lang, id string, t *backoff.Table, present bool) app.UI {
	label := l.T("table.region")
	if id != "delay-table" {
		label = l.T("table.region-b")
	}
	return app.Div().Class("table-wrap").TabIndex(0).Role("region").Aria("label", label).
		Body(&delayTable{ID: id, Table: t, Lang: l, Present: present})
}

// notes say what the table's numbers rest on and where they surprise.
func (c *tablePanel) notes() []app.UI {
	l, t, pol := c.Lang, c.A, c.Policy
	var notes []app.UI
	if t.Unlimited {
		notes = append(notes, app.Li().Text(l.F("one.unlimited", l.Int(int64(len(t.Rows))))))
	}
	switch {
	case !t.MonteCarlo:
	case pol.Jitter.HistoryDependent():
		notes = append(notes, app.Li().Text(l.F("one.mc", l.Int(int64(t.Paths)), l.Percent(t.MeanError, 1), l.Percent(t.QuantileError, 1))))
	default:
		// Closed forms give the rows; only the total under the deadline
		// is sampled.
		notes = append(notes, app.Li().Text(l.F("one.mc-total", l.Int(int64(t.Paths)), l.Percent(t.MeanError, 1))))
	}
	if t.CapRow > 0 {
		notes = append(notes, app.Li().Text(l.F("one.cap-row", l.Int(int64(t.CapRow)))))
	}
	if len(t.Rows) > 0 && t.Total.Min == 0 {
		notes = append(notes, app.Li().Text(l.T("one.zero-best")))
	}
	if pol.Cap > 0 && !pol.CapBoundsDelay() && len(t.Rows) > 0 {
		most := 0.0
		for _, r := range t.Rows {
			most = max(most, r.Max)
		}
		notes = append(notes, app.Li().Class("cap-exceeded").Text(l.F("one.cap-exceeded", l.Seconds(pol.Cap.Seconds()), l.Seconds(most))))
	}
	return notes
}

// onCopyMarkdown and onCopyCSV copy the table.
func (c *tablePanel) onCopyMarkdown(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actCopy, copyRequest{chart.TableMarkdown(c.Lang, c.A), "copy.md-done", "copy.manual-text"})
}

func (c *tablePanel) onCopyCSV(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actCopy, copyRequest{chart.TableCSV(c.A), "copy.csv-done", "copy.manual-text"})
}
