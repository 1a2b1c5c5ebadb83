package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Styles are the page's style sheets, served from static/ at /web/static/:
// chart.css (colours and the charts' rules) first, so the page's phone
// rules come after it.
var Styles = []string{"/web/static/chart.css", "/web/static/playground.css"}

// Register routes the playground's pages. The wasm main calls it before
// app.RunWhenOnBrowser, and the server calls it before serving the handler.
func Register() {
	app.Route("/", func() app.Composer { return newPlayground() })
}
