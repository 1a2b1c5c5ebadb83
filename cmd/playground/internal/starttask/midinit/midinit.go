//go:build js && wasm

// Package midinit waits for the browser in the middle of the packages'
// init (see package starttask): once regexp is ready (go-app's init
// compiles regular expressions), and before the packages whose import
// paths sort after this one's, go-app's and the app's among them, so that
// the standard library's init and the rest are two tasks, not one.
package midinit

import (
	_ "regexp"

	"github.com/backoff-playground/playground/cmd/playground/internal/starttask"
)

func init() { starttask.Yield("backoff:init-more") }
