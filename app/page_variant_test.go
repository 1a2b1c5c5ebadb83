//go:build !wasm

package app

import (
	"slices"
	"testing"
)

func TestPageVariant(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"", ""},
		{"lesson=3", "lesson=3"},
		{"lesson=3&base=2s&lang=ru", "lesson=3"},
		{"lesson=15&present=1", "lesson=15&present=1"},
		{"lesson=16", "lesson=16"},
		{"lesson=17", ""}, // not a lesson: the whole page, as the app shows it
		{"lesson=0", ""},
		{"view=herd", "view=herd"},
		{"view=herd&clients=5000", "view=herd"},
		{"view=nonsense", ""},
		{"lesson=2&view=delays", "lesson=2"}, // a lesson's one-click setup may name a view: still the lesson's page
		{"base=2s", ""},
		{"lesson=list&lang=ru", "lesson=list"},
		{"lesson=list&present=1&base=2s", "lesson=list&present=1"},
	} {
		if got := PageVariant(c.query); got != c.want {
			t.Errorf("PageVariant(%q) = %q, want %q", c.query, got, c.want)
		}
	}
	if n := len(PageVariants()); n != 2*(lessonCount+1)+len(views) {
		t.Errorf("%d variants, want %d (each lesson and the index, in presenter mode too, and each view)", n, 2*(lessonCount+1)+len(views))
	}
}

// Whatever the link, the variant is "" or one of PageVariants: the server
// renders and keeps a bounded set.
func FuzzPageVariant(f *testing.F) {
	for _, s := range []string{"", "lesson=1", "lesson=1&present=1", "view=compare", "lesson=%31", "view=herd&view=table", "present=1&lesson=14&lang=ru"} {
		f.Add(s)
	}
	all := PageVariants()
	f.Fuzz(func(t *testing.T, q string) {
		if v := PageVariant(q); v != "" && !slices.Contains(all, v) {
			t.Fatalf("PageVariant(%q) = %q: not one of PageVariants", q, v)
		}
	})
}
