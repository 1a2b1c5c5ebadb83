package app

import (
	"strings"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Taking the numbers and pictures away: the table as Markdown or CSV on
// the clipboard, and any chart as a standalone SVG file, drawn in the
// browser (so it works on a static host too) by the code the server and
// the CLI use.

// download saves content as a file named name, through a Blob link.
func download(name, mime, content string) {
	w := app.Window()
	blob := w.Get("Blob").New([]any{content}, map[string]any{"type": mime})
	u := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	a.Call("click")
	w.Get("URL").Call("revokeObjectURL", u)
}

// theme is the page's theme for a file: the link's, or the viewer's.
func (p *playground) theme() string {
	if p.st.Theme != "" {
		return p.st.Theme
	}
	return "auto"
}

// onDownload asks the page for a view's picture as a file: the button's
// id is "download-" and the view's name.
func onDownload(ctx app.Context, e app.Event) {
	if name, ok := strings.CutPrefix(ctx.JSSrc().Get("id").String(), "download-"); ok {
		ctx.NewActionWithValue(actDownload, name)
	}
}

// downloadView saves view's picture as an SVG file, drawn in the page.
func (p *playground) downloadView(name string) {
	d := viewDraws[name]
	if d.picture == nil {
		return
	}
	if svg := d.picture(p, p.lang()); svg != "" {
		download("backoff-"+name+".svg", "image/svg+xml", chart.Standalone(svg, p.theme()))
	}
}

// compareSVG is the compare grid as one picture.
func compareSVG(l i18n.Lang, cmp []cmpResult) string {
	var ss []chart.Series
	var titles []string
	for _, r := range cmp {
		if r.Res == nil {
			continue
		}
		ss = append(ss, chart.SeriesOf(r.Config, r.Res))
		titles = append(titles, l.F("chart.small", kindName(l, r.Kind)))
	}
	if len(ss) == 0 {
		return ""
	}
	return chart.Grid(l, ss, titles, l.T("compare.head"))
}

// takeAway is a row of buttons, pairs of an id and a catalog key, that
// click calls.
func takeAway(l i18n.Lang, click app.EventHandler, pairs ...string) app.UI {
	items := make([]app.UI, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		items = append(items, app.Button().ID(pairs[i]).Type("button").Class("secondary small").OnClick(click).Text(l.T(pairs[i+1])))
	}
	return app.Div().Class("take-away").Body(items...)
}
