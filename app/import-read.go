package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// importFormats are the formats the importer reads, in its documented
// order: in the page from its environment (NewHandler's Env), so that the
// page does not link the readers; natively the registry's own
// (import-read_native.go).
var importFormats = strings.Split(app.Getenv(envImportFormats), ",")

// envImportFormats is the page's environment key of importFormats.
const envImportFormats = "IMPORT_FORMATS"

// importLoadError is a reading that did not happen: the readers' program
// could not be loaded.
type importLoadError struct{ err error }

func (e importLoadError) Error() string {
	return "the config reader could not be loaded: " + e.err.Error()
}

func (e importLoadError) Unwrap() error { return e.err }
