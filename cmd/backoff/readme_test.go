package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The documentation's refusals are the CLI's: every "$ backoff ..." line
// followed by a "backoff: ..." line, in the README and in docs/, runs, is
// refused (exit 2) and says that line first.
func TestReadmeRefusals(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range append([]string{"../../README.md"}, docs...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, "../../")
		lines := strings.Split(string(b), "\n")
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
				t.Errorf("%s line %d: backoff %s\nexit %d, says %q\nthe document shows %q", name, i+1, cmd, code, first, want)
			}
		}
	}
	if n < 5 {
		t.Errorf("%d refusals found in the README and docs/, want the sim's and classify's (5)", n)
	}
}
