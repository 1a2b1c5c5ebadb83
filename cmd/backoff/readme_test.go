package main

import (
	"os"
	"strings"
	"testing"
)

// The README's refusals are the CLI's: every "$ backoff ..." line followed
// by a "backoff: ..." line runs, is refused (exit 2) and says that line
// first.
func TestReadmeRefusals(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	n := 0
	for i := 0; i+1 < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "$ backoff ")
		want := lines[i+1]
		if !ok || !strings.HasPrefix(want, "backoff: ") || strings.ContainsAny(cmd, `'"\|<>`) {
			continue
		}
		n++
		code, _, errOut := run(t, strings.Fields(cmd)...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != 2 || first != want {
			t.Errorf("README line %d: backoff %s\nexit %d, says %q\nthe README shows %q", i+1, cmd, code, first, want)
		}
	}
	if n < 5 {
		t.Errorf("%d refusals found in the README, want the sim's and classify's (5)", n)
	}
}
