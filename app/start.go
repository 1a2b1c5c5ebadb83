package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// startStages is how much of the page the browser draws: its first screen
// (the shell and the policy's controls, with the table beside them on a
// laptop) at stageFirst, then one more part per task (nextSlice), so that
// no task of the start holds the page long, and the parts below the
// screen when the reader wants them. The server draws everything at once.
type startStages struct {
	stage int
	// restWanted: the reader has asked for the parts below the first
	// screen (listen); restWaits: the start waits for that.
	restWanted, restWaits bool
	// tableFirst: the table is a part of the first screen (beside the
	// controls on a laptop; a phone's shows the controls alone), as the
	// server's page the browser shows before the app mounts lays it out.
	tableFirst bool
	// preloaded: the page's constructor read the state from the address
	// (in the browser), so the first render is already the linked page;
	// navigated: the page's first navigation has run.
	preloaded, navigated bool
	// setUp: the constructor applied the lesson's setup (from the page's
	// copy of the lesson), which the address is still to follow.
	setUp bool
	// mainPage says whether the page is the playground itself (a lesson
	// and a view draw whole from their first render); firstHerd starts
	// the herd's first run, when none has started, and says whether it
	// did.
	mainPage  func() bool
	firstHerd func(app.Context) bool
	// rehearse draws part n as HTML and throws it away, in a task before
	// the one that mounts it (as Rehearse does the first screen), so that
	// V8 compiles the part's functions there and not in the mount's task;
	// rehearsed is the last part so drawn.
	rehearse  func(n int)
	rehearsed int
}

// The parts of the page drawn after its first screen, one per task, in
// this order (stage counts them).
const (
	stageFirst        = iota // the shell, the policy's controls (and the table, tableFirst)
	stageTable               // the table, when it is below the first screen (a phone's)
	stageHerd                // the herd's first run, then its chart and numbers
	stageHerdControls        // the herd's knobs and scenarios, under its numbers
	stageCharts              // the delay chart and histogram
	stageCompare             // the compare panel's small multiples
	stageClassify            // the classify panel
	stageSweep               // the sweep panel
	stageAll          = stageSweep
)

// inNextTask runs fn on the UI goroutine in a task of the browser's own,
// a setTimeout's callback, so that the browser runs input, paint and its
// own tasks between two parts of the start. A Go timer (ctx.After) does
// not do it: on a slow or busy machine the timer is due before the
// program pauses, the runtime runs it at once, and two parts of the start
// are one long task. ctx must be the page's own (address.own).
func inNextTask(ctx app.Context, fn func(app.Context)) {
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		f.Release()
		ctx.Dispatch(fn)
		return nil
	})
	app.Window().Call("setTimeout", f, 0)
}

// restIdle is how long the parts below the screen wait, after the first
// screen, for a reason to be drawn sooner (the reader scrolls towards
// them, presses a key or a pointer, or prints): the first screen answers
// at once, and a phone, which shows only the policy's controls, is not
// held by work it does not show yet.
const restIdle = 4 * time.Second

// yieldToBrowser returns in a task of the browser's own, after a
// setTimeout: the UI goroutine waits (input that comes meanwhile is queued
// as usual), the program pauses and the browser runs its tasks, lays out
// and paints.
func yieldToBrowser() { sleepInTask(0) }

// sleepInTask waits d and goes on in a task of the browser's own (a
// setTimeout's callback), never in another's: a goroutine sleeping on a
// Go timer (time.Sleep) that falls due while the program runs for
// something else (an input's handler, a part's mount) runs before the
// program pauses, in that task, and a background run's chunk made it one
// chunk longer. Outside a browser (the server, native tests) it is
// time.Sleep.
func sleepInTask(d time.Duration) {
	if !app.IsClient {
		time.Sleep(d)
		return
	}
	done := make(chan struct{})
	var fn app.Func
	fn = app.FuncOf(func(app.Value, []app.Value) any {
		fn.Release()
		close(done)
		return nil
	})
	app.Window().Call("setTimeout", fn, d.Milliseconds())
	<-done
	// A stamp on a recorded timeline (a no-op otherwise, nothing kept),
	// by which the browser tests hold each resumption to its own task.
	app.Window().Get("console").Call("timeStamp", resumeStamp)
}

// resumeStamp marks where sleepInTask goes on.
const resumeStamp = "backoff:resume"

// restTriggers are the events that draw the rest of the page at once:
// reading on (scroll, wheel, keys, pointers) or printing it.
var restTriggers = []string{"scroll", "wheel", "keydown", "pointerdown", "touchstart", "beforeprint"}

// nextSlice draws the next part of the page in a task of its own, after
// the current part's render (a Defer runs once the frame is drawn), and
// so on until the page is whole. A part that would start below the screen
// waits for the reader (listen), and the parts after it with it. ctx must
// be the page's own.
func (s *startStages) nextSlice(ctx app.Context) {
	if s.stage >= stageAll {
		return
	}
	if !s.mainPage() {
		// A lesson and a view draw whole from the first render: nothing
		// to add, and no render to spend on it.
		s.stage = stageAll
		return
	}
	inNextTask(ctx, func(ctx app.Context) {
		// Asked here, a task after the part's render, not in it: the
		// answer needs the page laid out, and asked in the render's task
		// (the first mount's, the start's longest) it forced that layout
		// into it.
		if !s.restWanted && !inSight("main [aria-busy=true]") {
			s.restWaits = true // for listen
			ctx.PreventUpdate()
			return
		}
		next := s.stage + 1
		if next == stageTable && s.tableFirst {
			next++ // drawn with the first screen
		}
		perf := app.Window().Get("performance")
		switch {
		case next == stageHerd && s.firstHerd(ctx):
			// The herd's first run (up to syncBudget), in a task of its
			// own before its card's.
			perf.Call("mark", "backoff:herd-run")
		case s.rehearse != nil && s.rehearsed < next:
			// The part's rehearsal, in a task of its own before its mount
			// (after the herd's run: its card draws the run's figures).
			perf.Call("mark", "backoff:rehearse-part")
			s.rehearsed = next
			s.rehearse(next)
			ctx.PreventUpdate()
			s.nextSlice(ctx)
			return
		default:
			perf.Call("mark", "backoff:part")
			s.stage = next
		}
		ctx.Defer(s.nextSlice)
	})
}

// inSight reports whether the card sel finds (the first part still to be
// drawn: its empty card) starts within the screen or half a screen below
// it; true when there is none.
func inSight(sel string) bool {
	card := app.Window().Get("document").Call("querySelector", sel)
	if !card.Truthy() {
		return true
	}
	return card.Call("getBoundingClientRect").Get("top").Float() < 1.5*app.Window().Get("innerHeight").Float()
}

// listen draws the rest of the page, from wherever the start is waiting
// (restWaits), on the first of restTriggers since the mount, or restIdle
// after it.
func (s *startStages) listen(ctx app.Context) {
	w := app.Window()
	var fn app.Func
	var timer app.Value
	fn = app.FuncOf(func(app.Value, []app.Value) any {
		for _, ev := range restTriggers {
			w.Call("removeEventListener", ev, fn, true)
		}
		w.Call("clearTimeout", timer)
		ctx.Dispatch(func(ctx app.Context) {
			s.restWanted = true
			if s.restWaits {
				s.restWaits = false
				s.nextSlice(ctx)
			}
		})
		return nil
	})
	for _, ev := range restTriggers {
		w.Call("addEventListener", ev, fn, map[string]any{"capture": true, "passive": true})
	}
	timer = w.Call("setTimeout", fn, restIdle.Milliseconds())
}

// tableStage is the part of the start that draws the table.
func (s *startStages) tableStage() int {
	if s.tableFirst {
		return stageFirst
	}
	return stageTable
}

// later is part n of the page, drawn by draw once the start has reached
// it; until then an empty card of the same class holds its place (below
// the first screen: nothing visible moves when it fills).
func (s *startStages) later(n int, id, class string, draw func() app.UI) app.UI {
	if s.stage >= n {
		return draw()
	}
	return app.Section().ID(id).Class(class).Aria("busy", "true")
}
