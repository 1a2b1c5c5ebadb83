//go:build js && wasm

// Package starttask cuts the WebAssembly program's start into tasks of the
// browser's own. Go runs the runtime's start, every package's init and then
// main in the task that starts it: on a loaded 2-core machine 140-180 ms of
// CPU in one task, the start's longest but for the first render. The
// program waits for the browser between them instead: after the runtime's
// start and the first packages (this package's init), in the middle of
// the packages' init (package midinit), and before the first render (main
// calls Yield).
//
// Go initialises a package once all it imports are, and of those ready
// first the one whose import path sorts first: this package imports
// syscall/js alone, so its init runs right after syscall/js's, before most
// of the standard library's.
package starttask

import "syscall/js"

func init() {
	holdLoader()
	Yield("backoff:init")
}

// Yield marks the page's performance timeline with mark and returns in a
// task of the browser's own: it waits for a setTimeout's callback. A
// time.Sleep does not do it: the runtime's own goroutines starting up
// outlast a short sleep, the scheduler then finds the sleeper runnable, and
// the program never pauses.
func Yield(mark string) {
	js.Global().Get("performance").Call("mark", mark)
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
// program first pauses, here. A copy takes its place; app.js removes the
// original it holds.
func holdLoader() {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		return // not in a page (Node)
	}
	l := doc.Call("getElementById", "app-wasm-loader")
	if !l.Truthy() {
		return
	}
	l.Get("parentNode").Call("insertBefore", l.Call("cloneNode", true), l)
}
