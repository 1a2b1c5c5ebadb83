package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func render(t *testing.T, query string) string {
	t.Helper()
	p := newPlayground()
	p.load(query)
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p)
}

func TestPageHasStableIDs(t *testing.T) {
	html := render(t, "")
	for _, id := range []string{"preset", "base", "factor", "cap", "attempts", "jitter", "seed",
		"base-value", "factor-value", "cap-value", "attempts-value", "delay-table", "delay-chart",
		"herd-chart", "compare", "metric-calls", "metric-amplification", "metric-p99", "metric-gave-up",
		"metric-peak", "copy-link", "reroll"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("no element with id %q", id)
		}
	}
}

func TestTableShowsTheCoresNumbers(t *testing.T) {
	html := render(t, "base=1s&factor=2&cap=30s&attempts=6&jitter=none")
	got := cells(html, "nominal")
	if strings.Join(got, " ") != "1 2 4 8 16" {
		t.Fatalf("nominal delays %v, want 1 2 4 8 16", got)
	}
	if v := cells(html, "total_max"); len(v) != 1 || v[0] != "31" {
		t.Fatal("worst-case total is not 31 s")
	}
	if !strings.Contains(html, "= 5 retries") {
		t.Fatal(`attempts 6 not shown as "= 5 retries"`)
	}
	// The cap (30s) is never reached by 16s: no highlighted row.
	if strings.Contains(html, "cap-row") {
		t.Fatal("a cap row is highlighted though the cap is not reached")
	}
	html = render(t, "base=1s&factor=2&cap=5s&attempts=6&jitter=none")
	if strings.Count(html, `class="cap-row"`) != 1 {
		t.Fatal("the row where the cap is reached is not highlighted once")
	}
	// No cap: the ceiling every delay is held at is the row marked, and
	// said so (not "the cap").
	html = render(t, "base=720h&factor=100&cap=0&attempts=5&jitter=none")
	if strings.Count(html, `class="cap-row"`) != 1 || !strings.Contains(html, "No cap, but every delay is held at 1e9 s") ||
		!strings.Contains(html, "reached at retry 3") {
		t.Fatal("the ceiling's row is not marked and said")
	}
}

func TestNoticeListsIgnoredParams(t *testing.T) {
	html := render(t, "bogus=1&base=fast")
	if !strings.Contains(html, `id="notice"`) || !strings.Contains(html, "bogus=1 ignored") || !strings.Contains(html, "base=fast ignored") {
		t.Fatal("ignored parameters not listed")
	}
}

// cells returns the data-seconds of the td cells with that data-col, in
// order (attribute order in the HTML is not fixed).
func cells(html, col string) []string {
	var out []string
	seconds := regexp.MustCompile(`data-seconds="([^"]*)"`)
	for _, td := range regexp.MustCompile(`<td[^>]*>`).FindAllString(html, -1) {
		if !strings.Contains(td, `data-col="`+col+`"`) {
			continue
		}
		if m := seconds.FindStringSubmatch(td); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// A kind's own knobs show only with that kind.
func TestKnobsFollowTheKind(t *testing.T) {
	for _, c := range []struct {
		query    string
		shown    []string
		notShown []string
	}{
		{"", []string{"growth"}, []string{"jitter-lo-value", "jitter-add-value", "steps-value"}},
		{"jitter=proportional", []string{"jitter-lo-value", "jitter-hi-value"}, []string{"jitter-add-value"}},
		{"jitter=additive&jitter-add=250ms", []string{"jitter-add-value"}, []string{"jitter-lo-value"}},
		{"growth=geometric&steps=4", []string{"steps-value"}, nil},
		{"growth=linear", nil, []string{"steps-value"}},
	} {
		html := render(t, c.query)
		for _, id := range c.shown {
			if !strings.Contains(html, `id="`+id+`"`) {
				t.Errorf("%q: no #%s", c.query, id)
			}
		}
		for _, id := range c.notShown {
			if strings.Contains(html, `id="`+id+`"`) {
				t.Errorf("%q: #%s shown", c.query, id)
			}
		}
	}
	if html := render(t, "jitter=additive&jitter-add=250ms"); !strings.Contains(html, `value="250ms"`) {
		t.Error("the amplitude box does not show the link's 250ms")
	}
}
