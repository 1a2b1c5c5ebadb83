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
	if w := js.Global().Get(warmGlobal); w.Truthy() {
		w.Set("accepted", true)
	}
	holdLoader()
	Yield("backoff:init")
}

// warmGlobal is what the compile worker (static/compile-worker.js) sets
// when it runs the program to warm its code: {query: the page's address's
// query}. The program says it knows the errand by setting accepted, before
// its first pause; the worker then waits for it to end, where it would
// pass on the module at once.
const warmGlobal = "backoffWarm"

// Warmed reports whether the compile worker ran the program's start
// before the page did (Warming): its code is then compiled.
func Warmed() bool {
	return js.Global().Get(warmedGlobal).Truthy()
}

// warmedGlobal is what the page's loader (app.js) sets when the compile
// worker says the program ran its errand to the end.
const warmedGlobal = "backoffWarmed"

// Warming reports whether the program runs in the compile worker to warm
// its code, and the query of the page it warms for. There is no page then:
// main draws what the page will (app.Warm) and returns.
func Warming() (query string, ok bool) {
	w := js.Global().Get(warmGlobal)
	if !w.Truthy() {
		return "", false
	}
	return w.Get("query").String(), true
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
