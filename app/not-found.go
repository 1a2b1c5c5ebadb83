package app

import (
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// notFound is the page of an address the playground has no page for. A
// static host that answers every unknown path with the site's page sends
// that page for any address below the base path, and go-app then showed
// its own "404" in English with the loading label left on for good. This
// one speaks the link's language (lang=, else the browser's), links to the
// playground and takes the loader down, as the playground does once
// mounted.
type notFound struct {
	app.Compo
	lang i18n.Lang
}

func (n *notFound) OnNav(ctx app.Context) {
	n.lang = i18n.Detect(browserLanguages())
	if l, ok := i18n.Parse(ctx.Page().URL().Query().Get("lang")); ok {
		n.lang = l
	}
	ctx.Page().SetTitle(n.lang.T("notfound.title"))
	app.Window().Get("document").Get("documentElement").Set("lang", n.lang.Code())
	if l := app.Window().GetElementByID("app-wasm-loader"); l.Truthy() {
		l.Call("remove")
	}
}

func (n *notFound) Render() app.UI {
	l := n.lang
	home := strings.TrimSuffix(app.Getenv("GOAPP_ROOT_PREFIX"), "/") + "/" // "/" or "/repo/"
	return app.Main().ID("not-found").Class("playground").Body(
		app.H1().Text(l.T("notfound.title")),
		app.P().Text(l.T("notfound.text")),
		app.P().Body(app.A().ID("not-found-home").Href(home+"?lang="+l.Code()).Text(l.T("notfound.open"))),
	)
}
