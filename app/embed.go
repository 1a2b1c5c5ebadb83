package app

import (
	"html"
	"net/url"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Embedding: ?view= shows one widget with a small title and a link to the
// whole page with the same state; in an iframe the page posts its height to
// the parent (heightMessage), which static/embed.js on the host page uses to
// size the iframe; the Embed button gives the snippet for the current state.

// heightMessage is the type of the message the page posts to its parent.
const heightMessage = "backoff-playground:height"

// renderView is one widget alone, for an iframe.
func (p *playground) renderView(l i18n.Lang) app.UI {
	widget := p.widget(l, p.st.View)
	return app.Main().Class("playground embed view-"+p.st.View).Body(
		app.Header().Class("embed-head").Body(
			app.Strong().Class("embed-title").Text(l.T("view."+p.st.View)),
			app.A().ID("open-full").Href("?"+p.st.fullQuery()).Target("_blank").Rel("noopener").Text(l.T("view.open")+" ↗"),
		),
		p.renderNotices(l), // a view's link is read as the page's: what it ignored is said
		widget,
	)
}

// widget is one view's widget alone.
func (p *playground) widget(l i18n.Lang, view string) app.UI {
	switch view {
	case "table":
		return p.renderDelays(l)
	case "delays":
		return p.renderDelayCharts(l)
	case "herd":
		return p.renderHerd(l, false)
	case "compare":
		return p.renderCompare(l)
	}
	return p.renderClassify(l)
}

// postHeight makes a framed page post its height to the parent whenever it
// changes, so the host can size the iframe to it (no nested scrollbar).
// The parent's origin is unknown: the message carries only the height.
func postHeight() {
	w := app.Window()
	parent := w.Get("parent")
	if !parent.Truthy() || parent.Equal(w.JSValue()) {
		return
	}
	ro := w.Get("ResizeObserver")
	if !ro.Truthy() {
		return
	}
	root := w.Get("document").Get("documentElement")
	last := 0
	observer := ro.New(app.FuncOf(func(this app.Value, args []app.Value) any {
		h := root.Get("scrollHeight").Int()
		if h != last {
			last = h
			msg := map[string]any{"type": heightMessage, "height": h}
			parent.Call("postMessage", msg, "*")
		}
		return nil
	}))
	observer.Call("observe", w.Get("document").Get("body"))
}

// onEmbed shows or hides the embed panel.
func (p *playground) onEmbed(ctx app.Context, e app.Event) {
	p.embedOpen = !p.embedOpen
	if p.embedView == "" {
		p.embedView = "table"
	}
}

// onEmbedView picks the view the snippet embeds.
func (p *playground) onEmbedView(ctx app.Context, e app.Event) {
	p.embedView = ctx.JSSrc().Get("value").String()
}

// embedSnippet is the HTML that embeds the current state in view ("page"
// for the whole page) from the page at base (scheme, host and path).
func embedSnippet(base *url.URL, st state, view, title string) string {
	s := st
	s.View = ""
	if view != "page" {
		s.View = view
	}
	u := *base
	u.RawQuery, u.Fragment = s.query(), ""
	script := *base
	script.Path += "web/static/embed.js"
	script.RawQuery, script.Fragment = "", ""
	return `<iframe src="` + html.EscapeString(u.String()) + `" title="` + html.EscapeString(title) +
		`" width="100%" height="480" loading="lazy" allow="clipboard-write" style="border:0"></iframe>` + "\n" +
		`<script src="` + html.EscapeString(script.String()) + `" defer></script>`
}

// markdownImage is the Markdown image of view for the state, drawn by the
// server's /svg/ (so it shows on a code host that proxies images); "" for
// a view that is not a picture.
func markdownImage(base *url.URL, st state, view, title string) string {
	if !contains(ImageKindsPage, view) {
		return ""
	}
	s := st
	s.View, s.Lesson, s.Present = "", 0, false
	u := *base
	u.Path += "svg/" + view + ".svg"
	u.RawQuery, u.Fragment = s.query(), ""
	link := *base
	link.RawQuery = s.query()
	return "[![" + title + "](" + u.String() + ")](" + link.String() + ")"
}

// ImageKindsPage are the views the server draws as images (ImageKinds on
// the server's side).
var ImageKindsPage = []string{"delays", "herd", "compare", "table"}

// renderEmbedPanel is the snippet for the current state and the chosen
// view, ready to copy.
func (p *playground) renderEmbedPanel(l i18n.Lang) app.UI {
	if !p.embedOpen || !p.mounted {
		return app.Div().ID("embed-panel").Hidden(true)
	}
	base := *app.Window().URL()
	base.RawQuery, base.Fragment = "", ""
	opts := []app.UI{app.Option().Value("page").Selected(p.embedView == "page").Text(l.T("embed.page"))}
	for _, v := range views {
		opts = append(opts, app.Option().Value(v).Selected(v == p.embedView).Text(l.T("view."+v)))
	}
	title := l.T("page.title")
	if p.embedView != "page" {
		title = l.T("view." + p.embedView)
	}
	md := markdownImage(&base, p.st, p.embedView, title)
	refused := ""
	if md != "" {
		if err := imageFits(p.embedView, &p.st, ImageBudget); err != nil {
			refused = errText(l, err, "")
		}
	}
	return app.Section().ID("embed-panel").Class("card embed-panel").Aria("label", l.T("embed.head")).Body(
		app.H2().Text(l.T("embed.head")),
		app.Div().Class("field").Body(
			app.Label().For("embed-view").Text(l.T("embed.view")),
			app.Select().ID("embed-view").OnChange(p.onEmbedView).Body(opts...),
		),
		app.Label().For("embed-code").Text(l.T("embed.iframe")),
		app.Textarea().ID("embed-code").Class("code").ReadOnly(true).Rows(4).Attr("spellcheck", "false").
			Text(embedSnippet(&base, p.st, p.embedView, title)),
		app.Label().For("embed-markdown").Hidden(md == "").Text(l.T("embed.markdown")),
		app.Textarea().ID("embed-markdown").Class("code").ReadOnly(true).Rows(2).Attr("spellcheck", "false").
			Hidden(md == "").Text(md),
		app.P().ID("embed-markdown-refused").Class("notice").Hidden(refused == "").Text(refused),
	)
}
