package app

import (
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Every part of a page that shows a table asks tableOf: the same policy and
// seed give the same table (made once, the core's own numbers), another
// policy or seed its own, and the memo keeps only the last few.
func TestTableOfIsTheCoresTableMadeOnce(t *testing.T) {
	st := defaultState()
	a, err := tableOf(st.Policy, st.Seed)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := backoff.NewTableWith(st.Policy, backoff.NewRand(st.Seed), tableBudget)
	if a.Total.Max != want.Total.Max || a.Total.Mean != want.Total.Mean || len(a.Rows) != len(want.Rows) {
		t.Errorf("tableOf: total max %v mean %v (%d rows), the core's %v %v (%d)", a.Total.Max, a.Total.Mean, len(a.Rows),
			want.Total.Max, want.Total.Mean, len(want.Rows))
	}
	if again, _ := tableOf(st.Policy, st.Seed); again != a {
		t.Error("the same policy and seed made a second table")
	}
	other := st.Policy
	other.Base = 3 * time.Second
	b, _ := tableOf(other, st.Seed)
	if b == a || b.Rows[0].Nominal != 3 {
		t.Errorf("another policy got the first's table, or a wrong one: first delay %v", b.Rows[0].Nominal)
	}
	if c, _ := tableOf(st.Policy, st.Seed+1); c == a {
		t.Error("another seed got the first seed's table")
	}
	// A zero policy and seed are a key like any other, not the memo's empty
	// slots.
	if z, err := tableOf(backoff.Policy{}, 0); z == nil && err == nil {
		t.Error("the zero policy found an empty slot: no table and no error")
	}
	for i := range 5 {
		p := st.Policy
		p.Base = time.Duration(i+10) * time.Second
		tableOf(p, st.Seed)
	}
	if again, _ := tableOf(st.Policy, st.Seed); again == a {
		t.Error("the memo kept a table five others later: it grows without bound")
	}
}

// A link that names only a lesson (and the language, presenter mode, the
// theme or the widget) is bare: the lesson's setup applies, and keeps those.
func TestLessonSetupAppliesToABareLink(t *testing.T) {
	for _, c := range []struct {
		q    string
		bare bool
	}{
		{"lesson=3", true},
		{"lesson=3&lang=ru&present=1&theme=dark&view=flow", true},
		{"lesson=3&base=2s", false},
		{"lesson=3&clients=10", false},
		{"", false},
		{"lesson=list", false},
	} {
		st, _ := parseQuery(c.q)
		if got := st.bare(); got != c.bare {
			t.Errorf("%q: bare %v, want %v", c.q, got, c.bare)
		}
	}
	st, _ := parseQuery("lesson=3&lang=ru&present=1&theme=dark")
	set := st.withLesson(lesson{Query: "base=2s&clients=10"}, "flow")
	if set.Lesson != 3 || set.Lang != "ru" || !set.Present || set.Theme != "dark" || set.View != "flow" ||
		set.Policy.Base != 2*time.Second || set.Herd.Config.Clients != 10 || set.bare() {
		t.Errorf("the setup gave %s", set.query())
	}
}
