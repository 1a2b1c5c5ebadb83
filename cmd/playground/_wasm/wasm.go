// This file replaces go-app v10.1.11's pkg/app/wasm.go in the WebAssembly
// build only (go build -overlay, see the Makefile): the original also
// stubs GenerateStaticWebsite, whose *Handler lives in http.go, which the
// overlay leaves out of that build.

//go:build wasm
// +build wasm

package app

func wasmExecJS() string {
	return ""
}
