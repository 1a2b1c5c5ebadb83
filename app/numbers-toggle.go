package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// numbersToggle is the "Show the numbers" button of a chart whose numbers
// are in the region id, and, open, that region: the tables (one HTML
// string, drawn only while open) in a box that scrolls and takes the
// keyboard's focus. The open state is the component's, not the link's:
// it is a way of reading what the link already says.
func numbersToggle(l i18n.Lang, id string, open bool, onClick app.EventHandler, tables func() string) app.UI {
	btn := app.Button().ID(id+"-toggle").Type("button").Class("secondary small numbers-toggle").
		Aria("expanded", boolText(open)).Aria("controls", id).OnClick(onClick).
		Text(l.T(map[bool]string{false: "numbers.show", true: "numbers.hide"}[open]))
	if !open {
		return app.Div().Class("numbers").Body(btn)
	}
	return app.Div().Class("numbers").Body(btn,
		app.Div().ID(id).Class("table-wrap numbers-wrap").TabIndex(0).Role("region").Aria("label", l.T("numbers.region")).
			Body(app.Raw(`<div>`+tables()+`</div>`)))
}
