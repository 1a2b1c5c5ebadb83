//go:build wasm

package main

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	playground "github.com/backoff-playground/playground/app"
)

// main is the WebAssembly entry point: only the UI, no server code (the
// server files are //go:build !wasm), which keeps app.wasm small.
//
// The Go runtime's start and the packages' init run in the task that
// starts the program; yieldToBrowser hands the thread back to the browser
// before the first render, so that task and the first render's are two,
// not one long one.
func main() {
	playground.Register()
	holdLoader()
	yieldToBrowser()
	app.RunWhenOnBrowser()
}

// yieldToBrowser returns in a task of the browser's own: it waits for a
// setTimeout's callback. A time.Sleep does not do it: the runtime's own
// goroutines starting up outlast a short sleep, the scheduler then finds
// main runnable, and the program never pauses (the first render ran in
// the start's task, 640 ms of wall time on a loaded 2-core machine).
func yieldToBrowser() {
	done := make(chan struct{})
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		close(done)
		return nil
	})
	js.Global().Call("setTimeout", f, 0)
	<-done
}

// holdLoader keeps go-app's loader until the app has mounted (the
// playground removes it then): go-app's app.js removes it as soon as the
// program first pauses, which is now before the first render. A copy takes
// its place; app.js removes the original it holds.
func holdLoader() {
	l := app.Window().GetElementByID("app-wasm-loader")
	if !l.Truthy() {
		return
	}
	l.Get("parentNode").Call("insertBefore", l.Call("cloneNode", true), l)
}
