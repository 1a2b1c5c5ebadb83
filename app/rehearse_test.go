package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The rehearsal draws the first screen's largest parts alone, initialised
// as the mount initialises them (the table drawn, not an empty card), and
// then the whole page, without a panic.
func TestRehearsal(t *testing.T) {
	for _, tc := range []struct {
		query      string
		tableFirst bool
		parts      int
		want       []string // in the whole page's HTML
	}{
		{"", true, 3, []string{`id="delay-table"`, `class="playground"`}},
		{"", false, 2, []string{`class="playground"`}},
		{"base=250ms&lang=ru", true, 3, []string{`id="delay-table"`, `lang`}},
		{"lesson=1", true, 3, []string{`lessons`}},
		{"lesson=4&present=1", true, 3, []string{`lessons`}},
		{"lesson=list", true, 1, []string{`lesson`}},
		{"view=herd", true, 2, []string{`view-herd`}},
		{"view=flow", true, 2, []string{`view-flow`}},
		{"view=compare", true, 2, []string{`view-compare`}},
		{"view=table", true, 2, []string{`view-table`}},
	} {
		st, _ := parseQuery(tc.query)
		p := &playground{st: st}
		p.start = startStages{stage: stageFirst, tableFirst: tc.tableFirst, mainPage: p.st.mainPage}
		parts := rehearsal(p)
		if len(parts) != tc.parts {
			t.Errorf("%q: %d parts, want %d", tc.query, len(parts), tc.parts)
		}
		for i, part := range parts {
			if err := rehearse(part); err != nil {
				t.Errorf("%q: part %d panicked: %v", tc.query, i, err)
			}
		}
		if parts[len(parts)-1] != app.UI(p) {
			t.Errorf("%q: the last part is not the whole page", tc.query)
		}
		var html strings.Builder
		for _, part := range parts {
			html.WriteString(app.HTMLString(part))
		}
		for _, w := range tc.want {
			if !strings.Contains(html.String(), w) {
				t.Errorf("%q: the rehearsal drew no %s", tc.query, w)
			}
		}
	}
}

// Each part of the results the start draws after the first screen is
// rehearsed alone, as the start's stage draws it: the card, not an empty
// place for it.
func TestRehearsalOfParts(t *testing.T) {
	st, _ := parseQuery("")
	p := &playground{st: st}
	v := p.view()
	for _, tc := range []struct {
		stage int
		want  string
	}{
		{stageTable, `id="delay-table"`},
		{stageHerd, `card herd`},
		{stageHerdControls, `herd-controls`},
		{stageCharts, `card delay-charts`},
		{stageCompare, `card compare`},
		{stageClassify, `card classify`},
		{stageSweep, `card sweep`},
	} {
		part := resultPart(tc.stage, tc.stage, v)
		if err := rehearse(part); err != nil {
			t.Errorf("stage %d: panicked: %v", tc.stage, err)
			continue
		}
		if html := app.HTMLString(part); !strings.Contains(html, tc.want) || strings.Contains(html, `aria-busy="true"`) {
			t.Errorf("stage %d: the rehearsal drew no %s, or an empty card:\n%.300s", tc.stage, tc.want, html)
		}
	}
}

// The compile worker's warming mounts the whole page, as go-app's engine
// does, for every kind of page, without a panic or an error.
func TestWarmMount(t *testing.T) {
	for _, q := range []string{"", "base=250ms&lang=ru", "lesson=1", "lesson=4&present=1", "lesson=list", "view=herd", "view=flow", "view=compare", "view=table", "view=nope&base=-1"} {
		if err := warmMount(warmPage(q)); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// The warming runs the herd's first run where the page shows the herd, so
// that its card draws the chart from the run's figures.
func TestWarmHerd(t *testing.T) {
	for _, tc := range []struct {
		query string
		run   bool
	}{{"", true}, {"view=herd", true}, {"lesson=1", true}, {"view=table", false}} {
		p := warmPage(tc.query)
		p.herd.warm(&p.st)
		if got := p.herd.a != nil; got != tc.run {
			t.Errorf("%q: a run made: %v, want %v", tc.query, got, tc.run)
			continue
		}
		if !tc.run {
			continue
		}
		if html := app.HTMLString(resultPart(stageHerd, stageHerd, p.view())); !strings.Contains(html, `id="herd-numbers-toggle"`) {
			t.Errorf("%q: the herd's card drew no figures:\n%.400s", tc.query, html)
		}
	}
}
