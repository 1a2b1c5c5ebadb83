package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// WarmFirstScreen renders the page's first screen once as HTML, off the
// page, and drops it. A browser compiles a WebAssembly function when it is
// first called (V8's lazy compilation): go-app's first mount called some
// 500 of them for the first time, the builders and Render methods of the
// first screen, and compiling them was about half of the start's longest
// task. Called in a task of its own before go-app mounts the page (the
// program's main yields between them), it compiles them there; it also
// lays the server's page out once (inSight), which the mount then finds
// done. The mount draws the same screen: the address has not changed.
//
// yield hands the thread to the browser: the screen is warmed in two
// tasks, the shell and the policy's controls, then the table beside them
// (when it is part of the first screen).
func WarmFirstScreen(yield func()) {
	if !app.IsClient {
		return
	}
	p := newPlayground()
	if !p.mainPage() || !p.tableFirst {
		warm(p)
		return
	}
	p.tableFirst = false
	warm(p)
	yield()
	warm(p.part(stageFirst, p.lang()))
}

// warm renders ui's tree as HTML: every component's Render, without
// mounting anything (no OnInit, no OnMount, no DOM).
func warm(ui app.UI) int { return len(app.HTMLString(ui)) }
