package app

import (
	"html"
	"math"
	"net/url"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Embedding: ?view= shows one widget with a small title and a link to the
// whole page with the same state; in an iframe the page posts its height to
// the parent (heightMessage), which static/embed.js on the host page uses to
// size the iframe; the Embed button gives the snippet for the current state.

// heightMessage is the type of the message the page posts to its parent.
const heightMessage = "backoff-playground:height"

// viewPage is one view alone, for an iframe: its widget, a link to the
// whole page with the same state, and what the link ignored.
func viewPage(v pageView, notes []notice) app.UI {
	l := v.lang
	// The widget's own heading is the view's title (an h1): the header
	// holds the link only, so the title is not said twice.
	return app.Main().Class("playground embed view-"+v.st.View).Body(
		app.Header().Class("embed-head").Body(
			app.A().ID("open-full").Href("?"+v.st.fullQuery()).Target("_blank").Rel("noopener").Text(l.T("view.open")+" ↗"),
			&copyStatus{Lang: l, Query: v.query},
		),
		noticeList(l, notes), // a view's link is read as the page's: what it ignored is said
		widgetOf(v, v.st.View),
	)
}

// postHeight makes a framed page post its height to the parent whenever it
// changes, so the host can size the iframe to it (no nested scrollbar).
// The height is the content's, the root element's box: the document's
// scrollHeight is at least the frame's own height, so a frame never got
// smaller than the snippet's 480 px (a table of 410 px kept 70 px of blank
// below it). The parent's origin is unknown: the message carries only the
// height.
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
		h := int(math.Ceil(root.Call("getBoundingClientRect").Get("height").Float()))
		if h != last {
			last = h
			msg := map[string]any{"type": heightMessage, "height": h}
			parent.Call("postMessage", msg, "*")
		}
		return nil
	}))
	observer.Call("observe", w.Get("document").Get("body"))
}

// embedPanel is the Embed panel, a component: the snippets that embed the
// page's state (Content) in the chosen view (View, kept in the link) and
// theme (the panel's own). The view chosen, a copy and a download go to
// the page as actions.
type embedPanel struct {
	app.Compo

	Lang    i18n.Lang
	View    string // "": the panel is closed
	Content state  // the page's state, without its panels (state.content)

	theme  string // chosen in the panel ("": none yet, see snippetTheme)
	live   bool   // mounted: the snippets read the page's address
	server int    // whether the page has its server (stateServer)
}

// The Embed panel's actions.
const (
	actDownload = "download" // a view's name: its picture as a file
)

func (c *embedPanel) OnMount(ctx app.Context) {
	c.live = true
	ctx.ObserveState(stateServer, &c.server)
	c.OnUpdate(ctx)
}

// OnUpdate asks whether the page has its server once the panel is open:
// the Markdown image needs it.
func (c *embedPanel) OnUpdate(ctx app.Context) {
	if c.View != "" {
		askServer(ctx)
	}
}

// The panel's controls: the view, the theme, and the copy and download
// buttons, each its own handler.
func (c *embedPanel) onView(ctx app.Context, e app.Event) {
	sendEdit(ctx, choose(func(st *state) *string { return &st.Embed }, ctx.JSSrc().Get("value").String(), embedViews))
}

func (c *embedPanel) onTheme(ctx app.Context, e app.Event) {
	if v := ctx.JSSrc().Get("value").String(); contains(themes, v) {
		c.theme = v
	}
}

func (c *embedPanel) onCopyHTML(ctx app.Context, e app.Event) {
	html, _ := c.texts()
	ctx.NewActionWithValue(actCopy, copyRequest{html, "copy.embed-done", "copy.manual-text"})
}

func (c *embedPanel) onCopyMD(ctx app.Context, e app.Event) {
	if _, md := c.texts(); md != "" {
		ctx.NewActionWithValue(actCopy, copyRequest{md, "copy.markdown-done", "copy.manual-text"})
	}
}

func (c *embedPanel) onDownload(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actDownload, c.View)
}

// stateServer is go-app's state that says whether the page has its
// server (serverHere; serverNone on a static host), learnt once from what
// answers a path only the server has: the Embed panel's probe, the Export
// panel's answers.
const stateServer = "server"

// askServer learns, once, whether a server of the playground answers (a
// static host has none) from its healthz, a path only it has.
func askServer(ctx app.Context) {
	var s int
	ctx.GetState(stateServer, &s)
	if s != serverUnknown || !app.IsClient {
		return
	}
	ctx.SetState(stateServer, serverAsking)
	fetchAnswer("healthz", func(a answer) {
		ctx.Dispatch(func(ctx app.Context) { serverSays(ctx, a) })
	})
}

// serverSays records what an answer to a path only the server has tells
// of it (answer.host); no answer (offline) tells nothing.
func serverSays(ctx app.Context, a answer) {
	var s int
	ctx.GetState(stateServer, &s)
	switch h := a.host(); {
	case h != serverUnknown && h != s:
		ctx.SetState(stateServer, h)
	case h == serverUnknown && s == serverAsking:
		ctx.SetState(stateServer, serverUnknown)
	}
}

// Whether the page has its server: serverNone on a static host.
const (
	serverUnknown = iota
	serverAsking
	serverHere
	serverNone
)

// snippetTheme is the theme the embed panel's snippets ask for: the one
// chosen in the panel, else the page's (a link's ?theme=), else "auto".
func (c *embedPanel) snippetTheme() string {
	switch {
	case c.theme != "":
		return c.theme
	case c.Content.Theme != "":
		return c.Content.Theme
	}
	return "auto"
}

// texts are the panel's HTML snippet and Markdown image ("" for a view
// that is no picture) for the page's state, the view and the theme.
func (c *embedPanel) texts() (html, md string) {
	base := pageBase(*app.Window().URL())
	view := c.View
	title := c.Lang.T("page.title")
	if view != "page" {
		title = viewTitle(c.Lang, view)
	}
	st := c.Content
	st.Theme = c.snippetTheme()
	if st.Theme == "auto" {
		st.Theme = ""
	}
	return embedSnippet(&base, st, view, title), markdownImage(&base, st, view, title)
}

// pageBase is the address of the page's folder: no query, no file name.
// A static host serves the page as index.html too (host/repo/index.html),
// and the snippets name the page and the files beside it (embed.js, the
// server's svg/) from its folder.
func pageBase(u url.URL) url.URL {
	dir := u.EscapedPath()
	dir = dir[:strings.LastIndex(dir, "/")+1]
	if dir == "" {
		dir = "/"
	}
	u.RawQuery, u.Fragment, u.Path, u.RawPath = "", "", dir, ""
	if p, err := url.PathUnescape(dir); err == nil && p != dir {
		u.Path, u.RawPath = p, dir
	}
	return u
}

// embedClass is the class of the snippet's iframe. static/embed.js takes
// its border off, from script, so the snippet needs no style attribute,
// which a docs page's Content-Security-Policy without 'unsafe-inline' for
// styles blocks (and the frame kept its border); a page without the
// script can style iframe.backoff-playground itself.
const embedClass = "backoff-playground"

// embedSnippet is the HTML that embeds the current state in view ("page"
// for the whole page) from the page at base (scheme, host and folder).
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
	return `<iframe class="` + embedClass + `" src="` + html.EscapeString(u.String()) + `" title="` + html.EscapeString(title) +
		`" width="100%" height="480" loading="lazy" allow="clipboard-write"></iframe>` + "\n" +
		`<script src="` + html.EscapeString(script.String()) + `" defer></script>`
}

// markdownImage is the Markdown image of view for the state, drawn by the
// server's /svg/ (so it shows on a code host that proxies images); "" for
// a view that is not a picture.
func markdownImage(base *url.URL, st state, view, title string) string {
	if !isPicture(view) {
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

// newEmbedPanel is the snippet for the current state and the chosen view
// and theme, ready to copy. On a static host (no server) the Markdown
// image would answer 404: the panel says so and offers the view's SVG,
// drawn in the page, instead.
// The state goes down only while the panel is open: a closed panel's is
// never read, and would make go-app compare and redraw it on every change.
func newEmbedPanel(v pageView) app.UI {
	c := &embedPanel{Lang: v.lang, View: v.st.Embed}
	if c.View != "" {
		c.Content = v.st.content()
	}
	return c
}

func (c *embedPanel) Render() app.UI {
	l, view := c.Lang, c.View
	if view == "" || !c.live {
		return app.Div().ID("embed-panel").Hidden(true)
	}
	opts := make([]app.UI, len(embedViews))
	for i, v := range embedViews {
		label := l.T("embed.page")
		if v != "page" {
			label = viewTitle(l, v)
		}
		opts[i] = app.Option().Value(v).Selected(v == view).Text(label)
	}
	themeOpts := make([]app.UI, len(themes))
	for i, t := range themes {
		themeOpts[i] = app.Option().Value(t).Selected(t == c.snippetTheme()).Text(l.T("embed.theme-" + t))
	}
	code, md := c.texts()
	refused := ""
	if md != "" {
		if err := imageFits(view, &c.Content, ImageBudget); err != nil {
			refused = errText(l, err, "")
		}
	}
	static := md != "" && c.server == serverNone
	return app.Section().ID("embed-panel").Class("card embed-panel").Aria("label", l.T("embed.head")).Body(
		app.H2().Text(l.T("embed.head")),
		app.Div().Class("embed-choices").Body(
			app.Div().Class("field").Body(
				app.Label().For("embed-view").Text(l.T("embed.view")),
				app.Select().ID("embed-view").OnChange(c.onView).Body(opts...),
			),
			app.Div().Class("field").Body(
				app.Label().For("embed-theme").Text(l.T("embed.theme")),
				app.Select().ID("embed-theme").OnChange(c.onTheme).Body(themeOpts...),
			),
		),
		app.Label().For("embed-code").Text(l.T("embed.iframe")),
		app.Textarea().ID("embed-code").Class("code snippet").ReadOnly(true).Rows(snippetRows(code)).Attr("spellcheck", "false").Text(code),
		app.Button().ID("embed-copy-html").Type("button").Class("secondary small").OnClick(c.onCopyHTML).Text(l.T("embed.copy-html")),
		app.Label().For("embed-markdown").Hidden(md == "" || static).Text(l.T("embed.markdown")),
		app.Textarea().ID("embed-markdown").Class("code snippet").ReadOnly(true).Rows(snippetRows(md)).Attr("spellcheck", "false").
			Hidden(md == "" || static).Text(md),
		app.Button().ID("embed-copy-md").Type("button").Class("secondary small").Hidden(md == "" || static).OnClick(c.onCopyMD).Text(l.T("embed.copy-md")),
		app.P().ID("embed-markdown-refused").Class("notice").Hidden(refused == "" || static).Text(refused),
		app.P().ID("embed-no-server").Class("notice").Hidden(!static).Text(l.T("embed.no-server")),
		app.Button().ID("embed-download").Type("button").Class("secondary small").Hidden(!static).OnClick(c.onDownload).Text(l.T("embed.download")),
	)
}

// snippetRows is how many lines a snippet box needs to show all of s at
// about 60 characters a line (the panel's narrowest, a phone's).
func snippetRows(s string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		n += max(1, (len(line)+59)/60)
	}
	return min(max(n, 2), 16)
}
