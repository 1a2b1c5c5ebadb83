package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Styles are the page's style sheets, served from static/ at /web/static/:
// chart.css (colours and the charts' rules) first, so the page's phone
// rules come after it.
var Styles = []string{"/web/static/chart.css", "/web/static/playground.css"}

// Register routes the playground's pages. The wasm main calls it before
// app.RunWhenOnBrowser, and the server calls it before serving the handler.
// A static host serves the page as index.html too (host/repo/index.html),
// and one that answers every unknown path with the page sends it for any
// address: those get notFound, not go-app's own page (go-app v10 ignores
// app.NotFound, so a route that takes every other path stands in for it).
func Register() {
	page := func() app.Composer { return newPlayground() }
	app.Route("/", page)
	app.Route("/index.html", page)
	app.RouteWithRegexp("^/", func() app.Composer { return &notFound{} })
}
