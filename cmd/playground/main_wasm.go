//go:build wasm

package main

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	playground "github.com/backoff-playground/playground/app"
)

// main is the WebAssembly entry point: only the UI, no server code (the
// server files are //go:build !wasm), which keeps app.wasm small.
//
// The Go runtime's start and the packages' init run in the task that
// starts the program; the pause hands the thread back to the browser
// before the first render, so the start is two tasks, not one long one.
func main() {
	playground.Register()
	time.Sleep(time.Millisecond)
	app.RunWhenOnBrowser()
}
