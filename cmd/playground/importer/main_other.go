//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says what the program is for: it runs only in the page.
func main() {
	fmt.Fprintln(os.Stderr, "importer is the page's config reader, built with GOOS=js GOARCH=wasm into web/import.wasm (make wasm); the CLI's is `backoff import`")
	os.Exit(2)
}
