package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Rehearse draws the page the address links to as HTML and throws it
// away, a part per task, before go-app's first mount. V8 compiles a WebAssembly function on its first
// call, on the page's thread: without a rehearsal the first mount compiled
// every function of the first screen's render, 70-100 ms of its 110-160
// ms of CPU, in the start's longest task. The rehearsal moves that
// compiling into tasks of its own, smaller ones; the mount then runs code
// already compiled. It draws nothing and changes no state: it renders the
// components as the server does (go-app's HTMLString), with a state read
// from the address as the page's constructor reads it.
func Rehearse() {
	perf := app.Window().Get("performance")
	parts := rehearsal(newPlayground())
	// The page's state read from the address and its parts made, a step
	// of its own (its end marked as the start's steps are).
	perf.Call("mark", "backoff:state")
	for _, part := range parts {
		yieldToBrowser()
		perf.Call("mark", "backoff:rehearse")
		if err := rehearse(part); err != nil {
			// A panic here would be the render's own, which the first mount
			// meets again; it is logged (the browser tests fail on a logged
			// error) and the start goes on.
			app.Logf("the rehearsal of the first render: %v", err)
		}
	}
}

// rehearsal is what Rehearse draws, in order: the largest parts of the
// first screen alone, then the whole page (which, drawn last, compiles
// only what the parts before it did not). go-app's HTMLString renders a
// component without its OnInit, so a part is a component whose OnInit
// rehearse calls first: a table drawn from its tables, not an empty card
// (the tables it makes are kept, tableOf, and the mount finds them made).
func rehearsal(p *playground) []app.UI {
	v := p.view()
	switch {
	case p.st.Lesson == lessonList:
		return []app.UI{p}
	case p.st.Lesson > 0:
		return []app.UI{newPolicyPanel(v), p.Render(), p}
	case p.st.View != "":
		return []app.UI{widgetOf(v, p.st.View), p}
	}
	parts := []app.UI{newPolicyPanel(v)}
	if p.start.tableFirst {
		parts = append(parts, newTableCard(v))
	}
	return append(parts, p)
}

// rehearse draws ui as HTML, after its OnInit (but the whole page's: the
// playground has none), puts back the window's engineHooks, and says
// what the render panicked with.
func rehearse(ui app.UI) (err any) {
	w := app.Window()
	kept := make([]app.Value, len(engineHooks))
	for i, h := range engineHooks {
		kept[i] = w.Get(h)
	}
	defer func() {
		for i, h := range engineHooks {
			w.Set(h, kept[i])
		}
		err = recover()
	}()
	if c, ok := ui.(app.Initializer); ok {
		c.OnInit()
	}
	_ = app.HTMLString(ui)
	return nil
}

// engineHooks are the window's properties go-app's engine sets as it starts
// in a browser (v10.1.11: browser.HandleEvents sets onclick, onpopstate,
// goappNav, goappOnUpdate, goappOnAppInstallChange and onresize). The
// HTMLString a rehearsal draws with starts an engine of its own, which sets
// them again: rehearse puts back what was there (app.js's stand-ins before
// the page's engine starts, the page's engine's after), or a part
// rehearsed once the page runs would leave its links, its history, its
// update banner and its resizes to a thrown-away engine.
var engineHooks = []string{"onclick", "onpopstate", "goappNav", "goappOnUpdate", "goappOnAppInstallChange", "onresize"}
