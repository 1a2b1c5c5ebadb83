//go:build !wasm

// Package static embeds the playground's style sheet and icons (this
// directory) so the server binary runs from any directory. They are served
// under /web/static/.
package static

import "embed"

// FS holds every file of this directory. The "*" pattern keeps the build
// working whichever assets exist yet; the server serves only asset types
// (see cmd/playground), never this source file.
//
//go:embed *
var FS embed.FS
