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
//
// warm says that the compile worker has run the start already (Warm): the
// code is compiled, and a rehearsal, here and of each part after the first
// screen, is then its parts' OnInit alone (the tables they make, which the
// mount finds made), not their HTML.
func Rehearse(warm bool) {
	warmed = warm
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

// Warm runs, in a worker before the page runs, what the page's start at
// the address's query q will: the herd's first run, the first screen's
// parts and every part after it drawn as HTML, and the whole page
// mounted. The worker's instance of the program shares its compiled code
// with the page's (one WebAssembly.Module, posted to the page): V8
// compiles each function on its first call, and a function first called
// here is one the page's thread does not compile. Nothing here reads the
// page: a worker has none (its address comes in q, and every part is
// drawn).
func Warm(q string) {
	p := warmPage(q)
	p.herd.warm(&p.st)
	for _, part := range rehearsal(p) {
		if err := rehearse(part); err != nil {
			app.Logf("warming the first render: %v", err)
		}
	}
	if p.st.mainPage() {
		v := p.view()
		for n := stageTable; n <= stageAll; n++ {
			if err := rehearse(resultPart(n, n, v)); err != nil {
				app.Logf("warming a part of the page: %v", err)
			}
		}
	}
	if err := warmMount(p); err != nil {
		app.Logf("warming the first mount: %v", err)
	}
}

// warmPage is the page at query q as Warm draws it: whole, the table
// with the first screen.
func warmPage(q string) *playground {
	p := newBarePlayground()
	p.readAddress(q)
	p.start.tableFirst = true
	return p
}

// warmMount mounts page p whole, as go-app's engine mounts a page, into
// the worker's stand-in document (compile-worker.js): go-app's mount, and
// the components' OnMount, are the rest of the start's code.
func warmMount(p *playground) (err any) {
	defer func() { err = recover() }()
	p.start.stage = stageAll
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		return err
	}
	e.ConsumeAll()
	return nil
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
	if !warmed {
		_ = app.HTMLString(ui)
	}
	return nil
}

// warmed: the compile worker ran the page's start (Warm) before the page,
// and the page's code is compiled (Rehearse).
var warmed bool

// engineHooks are the window's properties go-app's engine sets as it starts
// in a browser (v10.1.11: browser.HandleEvents sets onclick, onpopstate,
// goappNav, goappOnUpdate, goappOnAppInstallChange and onresize). The
// HTMLString a rehearsal draws with starts an engine of its own, which sets
// them again: rehearse puts back what was there (app.js's stand-ins before
// the page's engine starts, the page's engine's after), or a part
// rehearsed once the page runs would leave its links, its history, its
// update banner and its resizes to a thrown-away engine.
var engineHooks = []string{"onclick", "onpopstate", "goappNav", "goappOnUpdate", "goappOnAppInstallChange", "onresize"}
