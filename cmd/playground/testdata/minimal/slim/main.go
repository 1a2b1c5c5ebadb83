// Command slim is the browser half of go-app's smallest program alone, for
// the playground's way of building it (the Makefile's go-app copy without
// server code, and its gcflags) and serving it (cmd/playground's server,
// its app.js included): no server code in the wasm.
package main

import (
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/backoff-playground/playground/cmd/playground/testdata/minimal/hello"
)

// main marks its start and go-app's first mount on the page's timeline,
// as the playground's main does (backoff:main, backoff:render), so that
// make bench-start can say what the floor's start is made of: two calls to
// the browser, nothing else.
func main() {
	perf := js.Global().Get("performance")
	perf.Call("mark", "backoff:main")
	hello.Route()
	perf.Call("mark", "backoff:render")
	app.RunWhenOnBrowser()
}
