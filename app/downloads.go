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

// downloadButton is a button that asks the page for the view's picture
// as a file.
func downloadButton(view string) takeItem {
	return takeItem{"download-" + view, "take.svg", onDownload}
}

// onDownload asks for the picture of the view the button names in its
// id, read when clicked: a button keeps its first handler for its life,
// and in a lesson one card's button may become another's.
func onDownload(ctx app.Context, e app.Event) {
	if name, ok := strings.CutPrefix(ctx.JSSrc().Get("id").String(), "download-"); ok {
		ctx.NewActionWithValue(actDownload, name)
	}
}

// downloadView saves view's picture as an SVG file, drawn in the page, in
// the link's theme or else the viewer's.
func downloadView(v pageView, name string) {
	d := viewDraws[name]
	if d.picture == nil {
		return
	}
	theme := v.st.Theme
	if theme == "" {
		theme = "auto"
	}
	if svg := d.picture(v); svg != "" {
		download("backoff-"+name+".svg", "image/svg+xml", chart.Standalone(svg, theme))
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

// takeItem is one take-away button: its id, its label's catalog key and
// what a click does. A button keeps one handler for its life (go-app
// swaps no handler with the same code in on a later render), so a handler
// captures nothing that may change: a method, or one that reads its
// element.
type takeItem struct {
	id, label string
	click     app.EventHandler
}

// takeAway is a row of take-away buttons.
func takeAway(l i18n.Lang, items ...takeItem) app.UI {
	out := make([]app.UI, len(items))
	for i, it := range items {
		out[i] = app.Button().ID(it.id).Type("button").Class("secondary small").OnClick(it.click).Text(l.T(it.label))
	}
	return app.Div().Class("take-away").Body(out...)
}
