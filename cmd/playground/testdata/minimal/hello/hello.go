// Package hello is go-app v10's smallest program, its getting-started
// component: a heading. make bench-lighthouse builds it twice, as go-app's
// docs do (../main.go) and the way the playground builds and serves its own
// program (../slim), and measures both beside the playground's pages: the
// floors any go-app start stands on. It is not shipped.
package hello

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// hello displays "Hello World!".
type hello struct {
	app.Compo
}

func (h *hello) Render() app.UI {
	return app.H1().Text("Hello World!")
}

// Route routes "/" to the component, on the server and in the browser.
func Route() {
	app.Route("/", func() app.Composer { return &hello{} })
}
