package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// delayChart shows the drawings of one client's retries: the table's ranges
// and means with a few hundred seeded clients as dots, and the histogram of
// the total wait. The playground draws them (chartSVGs) while handling the
// input, during the wait for go-app's next frame, so this render only swaps
// strings; being its own component, progress updates elsewhere on the page
// never redraw it.
type delayChart struct {
	app.Compo
	Delays string // SVG
	Hist   string // SVG
}

func (c *delayChart) Render() app.UI {
	if c.Delays == "" {
		return app.Div().ID("delay-chart").Class("chart-box")
	}
	return app.Div().ID("delay-chart").Class("chart-box").Body(
		app.Raw(c.Delays),
		app.Raw(c.Hist),
	)
}
