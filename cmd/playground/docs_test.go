//go:build !wasm

package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

// TestDocsServerFlags: docs/server.md shows the server's flags exactly as
// `playground -h` prints them, so the reference cannot drift from them.
func TestDocsServerFlags(t *testing.T) {
	b, err := os.ReadFile("../../docs/server.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- playground -h -->\n```text\n"
	_, block, ok := strings.Cut(string(b), marker)
	block, _, closed := strings.Cut(block, "```\n")
	if !ok || !closed {
		t.Fatalf("docs/server.md has no %q block", strings.TrimSpace(marker))
	}
	var help bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &help); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("playground -h: %v, want flag.ErrHelp", err)
	}
	if block != help.String() {
		t.Errorf("docs/server.md's flags are not `playground -h`'s output:\n--- docs:\n%s\n--- command:\n%s", block, help.String())
	}
}
