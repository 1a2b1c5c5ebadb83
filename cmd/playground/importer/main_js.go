//go:build js && wasm

// Command importer is the page's config reader: a WebAssembly program of
// its own (web/import.wasm), which the page loads when its Import panel is
// first used, so that app.wasm does not carry the readers and their YAML
// parser to every visitor.
//
// It sets backoffImportRead(text, pick) on the page's global object, which
// returns the reading as wire's JSON, and then calls
// backoffImportReady(), if the page set it, to say it is there.
package main

import (
	"fmt"
	"syscall/js"

	"github.com/backoff-playground/playground/backoff/importer"
	"github.com/backoff-playground/playground/backoff/importer/wire"
)

func main() {
	js.Global().Set("backoffImportRead", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return string(wire.Encode(nil, fmt.Errorf("backoffImportRead(text, pick): %d arguments", len(args))))
		}
		return read(args[0].String(), args[1].String())
	}))
	if ready := js.Global().Get("backoffImportReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// read reads text; a panic in a reader is an answer too, so that one bad
// text does not end the program for the next.
func read(text, pick string) (answer string) {
	defer func() {
		if r := recover(); r != nil {
			answer = string(wire.Encode(nil, fmt.Errorf("the reader failed: %v", r)))
		}
	}()
	res, err := importer.Read(text, importer.Options{Pick: pick})
	return string(wire.Encode(res, err))
}
