package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// unitApart is a number, a plain space and a unit of time.
var unitApart = regexp.MustCompile(`\d (ms|s|min|h|мс|с|мин|ч|сек)([\s,.;:)\]!?»”"]|$)`)

// Every lesson exists in both languages, parses, starts from a query the
// page reads without a notice, and its links too.
func TestLessonFiles(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		files, _ := filepath.Glob(filepath.Join("..", "static", "lessons", lang, "*.txt"))
		if len(files) != lessonCount {
			t.Fatalf("%s: %d lesson files, want %d", lang, len(files), lessonCount)
		}
		for n := 1; n <= lessonCount; n++ {
			b, err := os.ReadFile(filepath.Join("..", "static", strings.TrimPrefix(lessonPath(lang, n), "web/static/")))
			if err != nil {
				t.Fatal(err)
			}
			les, err := parseLesson(string(b))
			if err != nil {
				t.Errorf("%s %d: %v", lang, n, err)
				continue
			}
			// A number keeps its unit on its line: "10 s" broke as "10" /
			// "s" in presenter mode's narrow column.
			for _, line := range strings.Split(string(b), "\n") {
				if k := strings.Index(line, ":"); k > 0 && k < 8 && !strings.Contains(line[:k], " ") {
					continue // a header (query:, view:), Go's syntax
				}
				if m := unitApart.FindString(line); m != "" {
					t.Errorf("%s %d: %q: a plain space between a number and its unit, in %q", lang, n, m, line)
				}
			}
			for _, q := range append([]string{les.Query}, linkQueries(les)...) {
				if _, notes := parseQuery(q); len(notes) > 0 {
					t.Errorf("%s %d: %q: %v", lang, n, q, notes)
				}
			}
		}
	}
}

func linkQueries(l lesson) []string {
	var out []string
	for _, lk := range l.Links {
		out = append(out, lk.Query)
	}
	return out
}
