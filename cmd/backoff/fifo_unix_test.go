//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO given where a file is read or written is refused at once:
// opening one to read blocks until a writer comes, and import, --import
// and --body-file waited forever for none; --trace wrote into it until its
// buffer filled, then waited forever for a reader.
func TestReadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{
		{"import", fifo},
		{"table", "--import", fifo},
		{"sim", "--import", fifo},
		{"export", "--to", "polly", "--import", fifo},
		{"classify", "--status", "503", "--body-file", fifo},
		{"sim", "--clients", "10", "--trace", fifo}, // lost the calls, or held the run once its buffer filled
		{"sim", "--clients", "2000", "--trace", fifo},
	} {
		done := make(chan string, 1)
		go func() {
			code, _, errOut := run(t, args...)
			done <- strings.TrimSpace(errOut) + " (exit " + string(rune('0'+code)) + ")"
		}()
		select {
		case got := <-done:
			if !strings.Contains(got, "not a regular file") || strings.HasSuffix(got, "(exit 0)") {
				t.Errorf("%v: %s, want refused: not a regular file", args, got)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%v: still reading the FIFO after 30 s", args) // the old way: forever
		}
	}
}
