//go:build !wasm

// Package web embeds the built WebAssembly app (see README.md) into the
// server binary.
package web

import "embed"

// FS holds app.wasm and its pre-compressed copies when they are built, and
// always README.md. The "*" pattern matches on a clean clone too.
//
//go:embed *
var FS embed.FS
