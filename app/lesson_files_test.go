package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
