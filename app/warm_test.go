package app

import (
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// The warm-up renders every page a link can open without mounting it:
// its components' Render must not need OnInit's work. Each page's first
// screen (what the browser warms) and the whole page render, and say
// something.
func TestWarmRendersEveryPage(t *testing.T) {
	for _, q := range []string{"", "lang=ru", "lesson=1", "lesson=8", "lesson=15", "lesson=list", "view=herd", "view=table",
		"view=chart", "compare=full,equal", "scenario=fleet-crash", "import=1&export=go", "embed=herd", "present=1&lesson=4"} {
		for _, stage := range []int{stageFirst, stageAll} {
			p := &playground{st: defaultState(), stage: stage, tableFirst: true, browserLang: i18n.En}
			p.st, p.notes = parseQuery(q)
			p.les.setup = onlyLessonKeys(q)
			p.recompute()
			if n := warm(p); n < 1000 {
				t.Errorf("%q at stage %d: %d bytes of HTML, want a page", q, stage, n)
			}
			if !p.mainPage() {
				continue
			}
			for s := stageFirst; s <= stageAll; s++ {
				if n := warm(p.part(s, p.lang())); n < 100 {
					t.Errorf("%q: part %d warms %d bytes of HTML, want its card", q, s, n)
				}
			}
		}
	}
}
