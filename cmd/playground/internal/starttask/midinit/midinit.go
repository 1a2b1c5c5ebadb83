//go:build js && wasm

// Package midinit waits for the browser in the middle of the packages'
// init (see package starttask): after the standard library's, and before
// the packages whose import paths sort after this one's, go-app's and the
// app's among them, so that the two are two tasks, not one.
package midinit

import "github.com/backoff-playground/playground/cmd/playground/internal/starttask"

func init() { starttask.Yield("backoff:init-more") }
