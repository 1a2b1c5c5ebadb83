//go:build js && wasm

// Package beforeyaml waits for the browser before YAML's package
// initialises (see package starttask): YAML's init compiles its regular
// expressions, the largest init of the program (a quarter of all package
// init in a profile of the start). It imports regexp, as YAML's package
// does, so it is ready when YAML's package is, and its import path sorts
// before go.yaml.in's: its init runs first.
package beforeyaml

import (
	_ "regexp"

	"github.com/backoff-playground/playground/cmd/playground/internal/starttask"
)

func init() { starttask.Yield("backoff:init-yaml") }
