package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// address keeps the browser's address and the page's state together: the
// page reads its state from the address, and writes it back shortly after
// each edit, so that a link always says what the page shows.
type address struct {
	// ctx is the page's own context, set on mount: a handler's context
	// belongs to its element, and go-app drops Dispatch and After once
	// that element is gone (a click may remove its own button), so
	// deferred work (address writes, herd runs) goes through this one.
	ctx     app.Context
	mounted bool

	notes  []notice // the address's parameters ignored on load
	queued bool     // a write waits (write)
	push   bool     // the queued write is a discrete change: a history entry
	// at is the address's query as the page last knew it (read, written
	// or restored): a queued write finding another one there was overtaken
	// by Back or Forward, and must not write over the entry they reached.
	at string
}

// own is the context deferred work should use: the page's.
func (a *address) own(ctx app.Context) app.Context {
	if a.mounted {
		return a.ctx
	}
	return ctx
}

// urlEvery is the shortest time between two address writes, and how long
// after an edit the address follows it.
const urlEvery = 150 * time.Millisecond

// write writes st to the address (push: as a history entry, so Back
// undoes it; else it replaces the entry, as a slider's drag does) shortly
// after an edit, never in the input handler itself: history.replaceState
// took 1 to 12 ms in headless Chromium, on the way from a slider move to
// its repaint. Chromium also throttles it beyond about 100 calls in 10 s:
// one write is queued at a time, so a dragged slider writes at most every
// urlEvery, and the last position always.
func (a *address) write(ctx app.Context, st *state, push bool) {
	a.push = a.push || push
	if a.queued {
		return // the queued write reads the state when it runs
	}
	a.queued = true
	a.own(ctx).After(urlEvery, func(ctx app.Context) {
		a.queued = false
		a.replace(ctx, st)
		ctx.PreventUpdate()
	})
}

func (a *address) replace(ctx app.Context, st *state) {
	u := *ctx.Page().URL()
	if u.RawQuery != a.at {
		// Back or Forward moved the address since: its handler shows
		// that entry's state, which this write would overwrite. The next
		// write starts from the address as it is now.
		a.push = false
		a.at = u.RawQuery
		return
	}
	q := st.query()
	if u.RawQuery == q {
		a.push = false
		return
	}
	u.RawQuery = q
	if a.push {
		a.push = false
		app.Window().Get("history").Call("pushState", nil, "", u.String())
	} else {
		ctx.Page().ReplaceURL(&u)
	}
	a.at = app.Window().URL().RawQuery // as the browser keeps it
}

// focusAfter moves the keyboard focus to the element id once the next
// render has drawn it: after Compare, Remove or a lesson change the
// button pressed is gone or disabled, and the focus would fall to the
// page's body. ctx must outlive the element pressed (address.own).
func focusAfter(ctx app.Context, id string) {
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus", map[string]any{"preventScroll": false})
		}
	})
}
