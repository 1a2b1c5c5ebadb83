package app

import (
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// actCopy asks the page's copy status to copy a text: a copyRequest. Any
// panel's copy button sends it (the share link, the table, the snippets).
const actCopy = "copy"

// copyRequest asks to copy Text and say so with Done (a catalog key), or,
// where the clipboard is refused, with Manual (a key: "Copy this link:")
// beside the text selected, to copy by hand.
type copyRequest struct{ Text, Done, Manual string }

// copyStatus says what a copy button did: copied, or (the clipboard
// refused) the text selected in a box, to copy by hand. It is a
// component that takes every copy the page's panels ask for (actCopy);
// every page that has copy buttons shows it, an embedded view too. Query
// is the link's: a box of text to copy by hand goes when the link changes.
type copyStatus struct {
	app.Compo

	Lang  i18n.Lang
	Query string

	said string // a catalog key
	text string // the text to copy by hand, when the clipboard is blocked
	at   string // Query when text was shown
	ctx  app.Context
}

func (c *copyStatus) OnMount(ctx app.Context) {
	c.ctx = ctx
	ctx.Handle(actCopy, func(ctx app.Context, a app.Action) {
		if r, ok := a.Value.(copyRequest); ok {
			c.copyOut(r)
		}
	})
}

func (c *copyStatus) OnUpdate(ctx app.Context) {
	if c.text != "" && c.Query != c.at {
		c.said, c.text = "", ""
	}
}

// copyOut puts r's text on the clipboard and says so. Where the clipboard
// is refused (an iframe without clipboard-write, an insecure origin) it
// says so and shows the text selected: it never claims a copy it did not
// make.
func (c *copyStatus) copyOut(r copyRequest) {
	ctx := c.ctx
	byHand := func() {
		c.said, c.text, c.at = r.Manual, r.Text, c.Query
		ctx.Defer(func(ctx app.Context) {
			if el := app.Window().GetElementByID("copy-text"); el.Truthy() {
				el.Set("value", r.Text)
				el.Call("focus")
				el.Call("select")
			}
		})
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		byHand()
		return
	}
	promise := clip.Call("writeText", r.Text)
	var ok, fail app.Func
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			c.said, c.text = r.Done, ""
			ctx.After(2*time.Second, func(ctx app.Context) { c.said = "" })
		})
		ok.Release()
		fail.Release()
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { byHand() })
		ok.Release()
		fail.Release()
		return nil
	})
	promise.Call("then", ok, fail)
}

func (c *copyStatus) Render() app.UI {
	l := c.Lang
	return app.Div().Class("copy-status").Body(
		app.Span().ID("copy-status").Class("status").Aria("live", "polite").Text(l.T(c.said)),
		app.Textarea().ID("copy-text").Class("code copy-text").ReadOnly(true).Rows(copyRows(c.text)).
			Hidden(c.text == "").Aria("label", l.T(c.said)).Text(c.text),
	)
}

// copyRows is how many lines the copy box shows for s: one for a link.
func copyRows(s string) int { return min(max(strings.Count(s, "\n")+1, 1), 8) }
