package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

var update = flag.Bool("update", false, "rewrite the help blocks of docs/cli.md from the commands' -h output")

// helpBlock is a command's help in docs/cli.md: a marker naming the
// command, then its -h output as a text block.
var helpBlock = regexp.MustCompile("(?s)<!-- (backoff(?: [a-z]+)?) -h -->\n```text\n(.*?)```\n")

// TestDocsCLIHelp: docs/cli.md shows every command's flags exactly as
// `backoff <command> -h` prints them, so the reference cannot drift from
// the flags. After a change to a command's flags or help, rewrite the
// blocks with: go test ./cmd/backoff -run TestDocsCLIHelp -update
func TestDocsCLIHelp(t *testing.T) {
	const path = "../../docs/cli.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	_, usage, _ := run(t, "help")
	want := []string{"backoff"}
	_, cmds, _ := strings.Cut(usage, "Commands:\n")
	for _, l := range strings.Split(cmds, "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(l, "  ") {
			want = append(want, "backoff "+f[0])
		}
	}
	if len(want) < 8 {
		t.Fatalf("%d commands read from backoff help, want 7 and the usage:\n%s", len(want)-1, usage)
	}
	seen := map[string]bool{}
	out := helpBlock.ReplaceAllStringFunc(doc, func(block string) string {
		m := helpBlock.FindStringSubmatch(block)
		name, shown := m[1], m[2]
		seen[name] = true
		args := append(strings.Fields(name)[1:], "-h")
		if name == "backoff" {
			args = []string{"help"}
		}
		code, stdout, stderr := run(t, args...)
		help := stdout + stderr
		if code != 0 {
			t.Errorf("%s: exit %d", strings.Join(append([]string{"backoff"}, args...), " "), code)
		}
		if shown != help && !*update {
			t.Errorf("docs/cli.md: the help of %q is not `%s -h`'s output (go test ./cmd/backoff -run TestDocsCLIHelp -update rewrites it)\n--- docs:\n%s\n--- command:\n%s", name, name, shown, help)
		}
		return "<!-- " + name + " -h -->\n```text\n" + help + "```\n"
	})
	for _, name := range want {
		if !seen[name] {
			t.Errorf("docs/cli.md has no help block of %q (<!-- %s -h --> followed by a text block)", name, name)
		}
	}
	if *update && out != doc {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDocsPresets: docs/presets.md names every preset, and no other.
func TestDocsPresets(t *testing.T) {
	b, err := os.ReadFile("../../docs/presets.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^- \\*\\*`([a-z0-9-]+)`\\*\\*").FindAllStringSubmatch(string(b), -1) {
		listed[m[1]] = true
	}
	for _, name := range backoff.PresetNames() {
		if !listed[name] {
			t.Errorf("docs/presets.md does not list the preset %q", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("docs/presets.md lists %q, which is no preset", name)
	}
}
