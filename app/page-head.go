package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pageHead is the playground's header, a component: the page's name, the
// language, the buttons that open the Embed, Export and Import panels
// (the link keeps each open), and the share link's copy. Each button
// sends the page an edit of the link; the copy goes to the copy status.
type pageHead struct {
	app.Compo

	Lang   i18n.Lang
	Embed  bool
	Export bool
	Import bool
	Query  string // the link's query
}

func newPageHead(v pageView) app.UI {
	return &pageHead{Lang: v.lang, Embed: v.st.Embed != "", Export: v.st.Export != "", Import: v.st.Import, Query: v.query}
}

func (c *pageHead) Render() app.UI {
	l := c.Lang
	return app.Header().Class("top").Body(
		app.Div().Body(
			app.H1().Text(l.T("page.title")),
			app.P().Class("tagline").Text(l.T("page.tagline")),
		),
		app.Div().Class("share").Body(
			&langSwitch{Lang: l},
			app.Button().ID("embed").Type("button").Class("secondary").Aria("expanded", boolText(c.Embed)).
				Aria("controls", "embed-panel").OnClick(c.onEmbed).Text(l.T("embed.button")),
			app.Button().ID("export").Type("button").Class("secondary").Aria("expanded", boolText(c.Export)).
				Aria("controls", "export-panel").OnClick(c.onExport).Text(l.T("export.button")),
			app.Button().ID("import").Type("button").Class("secondary").Aria("expanded", boolText(c.Import)).
				Aria("controls", "import-panel").OnClick(c.onImport).Text(l.T("import.button")),
			app.Button().ID("copy-link").Type("button").OnClick(c.onCopyLink).Text(l.T("copy.button")),
			&copyStatus{Lang: l, Query: c.Query},
		),
	)
}

// onEmbed shows or hides the Embed panel (embed=), the whole page's
// table first.
func (c *pageHead) onEmbed(ctx app.Context, e app.Event) {
	sendEdit(ctx, edit{set: func(st *state) bool {
		if st.Embed != "" {
			st.Embed = ""
		} else {
			st.Embed = "table"
		}
		return true
	}, push: true})
}

// onExport shows or hides the Export panel (export=), in the library of
// the policy's preset when it has one.
func (c *pageHead) onExport(ctx app.Context, e app.Event) {
	sendEdit(ctx, edit{set: func(st *state) bool {
		if st.Export != "" {
			st.Export = ""
		} else {
			st.Export = exportTargetFor(st.Preset)
		}
		return true
	}, push: true})
}

// onImport opens or closes the Import panel (import=1).
func (c *pageHead) onImport(ctx app.Context, e app.Event) {
	sendEdit(ctx, edit{set: func(st *state) bool {
		st.Import = !st.Import
		return true
	}, push: true})
}

// onCopyLink copies the share link.
func (c *pageHead) onCopyLink(ctx app.Context, e app.Event) {
	u := *ctx.Page().URL()
	u.RawQuery = c.Query
	ctx.NewActionWithValue(actCopy, copyRequest{u.String(), "copy.done", "copy.manual"})
}
