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
	Of      tableSpec
	Present bool

	// The tables of the policies (b: the second's, nil when none), made
	// (tableOf) when the policies or the seed change.
	a, b *backoff.Table
	err  error
}

// newTableCard is the delay table's card for the page's state.
func newTableCard(v pageView) app.UI {
	return &tablePanel{Lang: v.lang, Alone: v.alone(), Of: specOf(v.st), Present: v.st.Present}
}

func (c *tablePanel) OnInit() { c.make() }

func (c *tablePanel) OnUpdate(ctx app.Context) { c.make() }

func (c *tablePanel) make() {
	c.a, c.b, c.err = c.Of.tables()
}

// tablePicture is the table of the page's policy as a picture.
func tablePicture(v pageView) string {
	a, _, _ := tablesOf(v.st)
	if a == nil {
		return ""
	}
	return chart.TableSVG(v.lang, a)
}

func (c *tablePanel) Render() app.UI {
	l, pol := c.Lang, c.Of.Policy
	body := []app.UI{
		cardHead(c.Alone, 2, l.T("one.head")),
		app.P().Class("describe").ID("describe").Text(describe(l, pol)),
	}
	if c.err != nil {
		body = append(body, app.P().Class("error").Text(errText(l, c.err, "")))
	}
	if t := c.a; t != nil {
		body = append(body,
			tableWrap(l, "delay-table", t, c.Present),
			takeAway(l, takeItem{"copy-md", "take.md", c.onCopyMarkdown}, takeItem{"copy-csv", "take.csv", c.onCopyCSV}, downloadButton("table")),
			app.Ul().Class("notes").Body(c.notes()...),
		)
	}
	if c.b != nil {
		body = append(body,
			app.H3().Class("table-b-head").Text(l.T("policy.b")),
			app.P().Class("describe").ID("describe-b").Text(describe(l, c.Of.PolicyB)),
			tableWrap(l, "delay-table-b", c.b, c.Present),
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
	l, t, pol := c.Lang, c.a, c.Of.Policy
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
		key := "one.cap-row"
		if t.Policy.Cap == 0 {
			key = "one.ceiling-row" // no cap: the ceiling every delay is held at
		}
		notes = append(notes, app.Li().Text(l.F(key, l.Int(int64(t.CapRow)))))
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
	ctx.NewActionWithValue(actCopy, copyRequest{chart.TableMarkdown(c.Lang, c.a), "copy.md-done", "copy.manual-text"})
}

func (c *tablePanel) onCopyCSV(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actCopy, copyRequest{chart.TableCSV(c.a), "copy.csv-done", "copy.manual-text"})
}
