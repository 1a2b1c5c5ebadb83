//go:build wasm

package app

import (
	"errors"
	"syscall/js"

	"github.com/backoff-playground/playground/backoff/importer/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// readers is the readers' program in the page: web/import.wasm, started
// the first time a text is read, which sets backoffImportRead on the
// global object and calls backoffImportReady.
var readers struct {
	started bool
	ready   bool
	err     error
	waiting []func()
}

// readImport reads the policy pick of text in the readers' program and
// gives done the reading, on the UI goroutine: at once once the program
// runs, else when it has loaded (or could not).
func readImport(ctx app.Context, text, pick string, done func(*wire.Result, error)) {
	run := func() {
		if readers.err != nil {
			done(nil, importLoadError{readers.err})
			return
		}
		done(wire.Decode([]byte(js.Global().Call("backoffImportRead", text, pick).String())))
	}
	if readers.ready {
		run()
		return
	}
	readers.waiting = append(readers.waiting, run)
	if readers.started {
		return
	}
	readers.started = true
	finish := func(err error) {
		ctx.Dispatch(func(app.Context) {
			if readers.ready {
				return
			}
			readers.ready, readers.err = true, err
			for _, f := range readers.waiting {
				f()
			}
			readers.waiting = nil
		})
	}
	ready := js.FuncOf(func(js.Value, []js.Value) any { finish(nil); return nil })
	js.Global().Set("backoffImportReady", ready)
	g := js.Global().Get("Go").New()
	then := func(p js.Value, f func(v js.Value) any) js.Value {
		return p.Call("then", js.FuncOf(func(_ js.Value, a []js.Value) any { return f(a[0]) }))
	}
	p := js.Global().Call("fetch", ctx.ResolveStaticResource("/web/import.wasm"))
	p = then(p, func(r js.Value) any {
		if !r.Get("ok").Bool() {
			return js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New("HTTP "+r.Get("status").String()))
		}
		return r.Call("arrayBuffer")
	})
	p = then(p, func(b js.Value) any {
		return js.Global().Get("WebAssembly").Call("instantiate", b, g.Get("importObject"))
	})
	p = then(p, func(m js.Value) any { g.Call("run", m.Get("instance")); return nil })
	p.Call("catch", js.FuncOf(func(_ js.Value, a []js.Value) any {
		msg := "failed"
		if len(a) > 0 && a[0].Truthy() {
			msg = a[0].Call("toString").String()
		}
		finish(errors.New(msg))
		return nil
	}))
}
