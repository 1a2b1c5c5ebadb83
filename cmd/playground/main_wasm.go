//go:build wasm

package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	playground "github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/cmd/playground/internal/starttask"
	// The program's start waits for the browser twice in the packages'
	// init (and after the runtime's start: starttask).
	_ "github.com/backoff-playground/playground/cmd/playground/internal/starttask/aftercore"
	_ "github.com/backoff-playground/playground/cmd/playground/internal/starttask/midinit"
)

// main is the WebAssembly entry point: only the UI, no server code (the
// server files are //go:build !wasm), which keeps app.wasm small.
//
// The Go runtime's start and the packages' init run in tasks of their own
// (starttask); main hands the thread back to the browser before the first
// render, so the last packages' init and the first render are two tasks,
// not one long one, and before that it rehearses the first render, a part
// per task, so that V8 has compiled the render's functions (it compiles
// each on its first call) when the mount calls them.
func main() {
	if q, ok := starttask.Warming(); ok {
		playground.Register()
		playground.Warm(q)
		return
	}
	starttask.Yield("backoff:main")
	playground.Register()
	playground.Rehearse(starttask.Warmed())
	starttask.Yield("backoff:render")
	app.RunWhenOnBrowser()
}
