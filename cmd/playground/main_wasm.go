//go:build wasm

package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	playground "github.com/backoff-playground/playground/app"
)

// main is the WebAssembly entry point: only the UI, no server code (the
// server files are //go:build !wasm), which keeps app.wasm small.
func main() {
	playground.Register()
	app.RunWhenOnBrowser()
}
