// Command slim is the browser half of go-app's smallest program alone, for
// the playground's way of building it (the Makefile's go-app copy without
// server code, and its gcflags) and serving it (cmd/playground's server,
// its app.js included): no server code in the wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/backoff-playground/playground/cmd/playground/testdata/minimal/hello"
)

func main() {
	hello.Route()
	app.RunWhenOnBrowser()
}
