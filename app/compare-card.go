package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareCard is the same herd under every jitter kind, a component drawn
// from the compare runs passed down: a note, the grid, the download.
type compareCard struct {
	app.Compo

	Lang    i18n.Lang
	Alone   bool // an embedded view: the heading is the page's h1
	Busy    bool // the herd or its compare runs are under way
	Pending bool // compare runs are under way
	Results []cmpResult
	Current string // the page's jitter kind
	Present bool   // presenter mode's frames
}

// newCompareCard is the page's compare card.
func newCompareCard(v pageView) app.UI {
	h := v.herd
	return &compareCard{Lang: v.lang, Alone: v.alone(), Busy: h.running || h.cmpPending > 0, Pending: h.cmpPending > 0,
		Results: h.cmp, Current: v.st.Policy.Jitter.String(), Present: v.st.Present && v.st.Lesson > 0}
}

// comparePicture is the compare grid as one picture.
func comparePicture(v pageView) string { return compareSVG(v.lang, v.herd.cmp) }

func (c *compareCard) Render() app.UI {
	l := c.Lang
	// data-running: the panels shown may be an earlier scenario's.
	return app.Section().Class("card compare").DataSet("running", boolText(c.Busy)).Aria("label", l.T("compare.aria")).Body(
		cardHead(c.Alone, 2, l.T("compare.head")),
		&compareGrid{Results: c.Results, Current: c.Current, Lang: l, Present: c.Present, Pending: c.Pending},
		takeAway(l, downloadButton("compare")),
	)
}
