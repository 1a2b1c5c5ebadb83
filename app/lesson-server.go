//go:build !wasm

package app

import (
	"io/fs"
	"strings"

	"github.com/backoff-playground/playground/static"
)

// On the server, lessons are read from the embedded static files (served
// at web/static/), so a lesson page arrives with its text.
func init() {
	lessonSource = func(path string) (string, bool) {
		b, err := fs.ReadFile(static.FS, strings.TrimPrefix(path, "web/static/"))
		return string(b), err == nil
	}
}
