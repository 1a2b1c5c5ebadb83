//go:build !wasm

package app

import (
	"github.com/backoff-playground/playground/backoff/importer"
	"github.com/backoff-playground/playground/backoff/importer/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func init() { importFormats = importer.FormatNames() }

// readImport reads the policy pick of text and gives done the reading:
// natively, with the readers themselves, at once.
func readImport(_ app.Context, text, pick string, done func(*wire.Result, error)) {
	done(importer.Read(text, importer.Options{Pick: pick}))
}
