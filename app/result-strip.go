package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// resultStrip is the page's result in brief, kept in sight of the policy's
// controls where the results are below them (a phone, a tablet): the
// worst-case total wait and the herd's verdict, so that a dragged slider
// changes something the reader sees. The style sheet sticks it to the
// screen's bottom while the controls scroll past, and hides it where the
// results stand beside the controls. A screen reader hears the same from
// the herd's summary (#run-summary, which starts with both): the strip is
// hidden from it.
type resultStrip struct {
	app.Compo

	Lang    i18n.Lang
	Worst   string // worstText's
	Verdict string // verdictText's ("" before the herd's first run)
	Running bool   // the herd is running: its verdict is an earlier one
}

func (c *resultStrip) Render() app.UI {
	cls := "strip-verdict"
	if c.Running {
		cls += " stale"
	}
	return app.Div().ID("result-strip").Class("result-strip").Aria("hidden", "true").Body(
		app.P().ID("strip-worst").Class("strip-worst").Text(c.Worst),
		app.P().ID("strip-verdict").Class(cls).Text(c.Verdict),
	)
}

// newResultStrip is the page's result strip.
func newResultStrip(v pageView) app.UI {
	h := v.herd.view()
	return &resultStrip{Lang: v.lang, Worst: worstText(v.lang, "strip.worst", v.st), Verdict: verdictText(v.lang, v.st.Herd.Config, h),
		Running: h.Running}
}

// worstText words the worst-case total wait of st's policy (and of the
// second one, compared) with the catalog's key (key-b for two): "" with
// no table.
func worstText(l i18n.Lang, key string, st *state) string {
	a, b, _ := tablesOf(st)
	if a == nil {
		return ""
	}
	if b != nil {
		return l.F(key+"-b", l.Seconds(a.Total.Max), l.Seconds(b.Total.Max))
	}
	return l.F(key, l.Seconds(a.Total.Max))
}
