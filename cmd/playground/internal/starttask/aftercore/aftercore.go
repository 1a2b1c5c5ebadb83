//go:build js && wasm

// Package aftercore waits for the browser once more in the packages' init
// (see package starttask): after the message catalog's and the retry
// policies' (which it imports, so that they come first), and before the
// packages the Go toolchain starts next, the simulator's, go-app's and the
// app's among them: between package midinit's wait and main, those were
// one task of 50-56 ms of CPU, two thirds of it compiling.
//
// Go initialises a package once all it imports are, and of those ready
// first the one whose import path sorts first: this one's sorts before the
// simulator's and go-app's.
package aftercore

import (
	"github.com/backoff-playground/playground/cmd/playground/internal/starttask"

	_ "github.com/backoff-playground/playground/app/i18n"
	_ "github.com/backoff-playground/playground/backoff"
)

func init() { starttask.Yield("backoff:init-core") }
