//go:build !wasm

package app

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareRuns are the compare grid's runs of a link's state, as the
// server's picture makes them.
func compareRuns(t *testing.T, q string) []cmpResult {
	t.Helper()
	s, _ := parseQuery(q)
	var out []cmpResult
	for i, c := range compareImageConfigs(&s) {
		r, err := sim.Run(c, s.Seed)
		out = append(out, cmpResult{Kind: compareKinds[i], Config: c, Res: r, Err: err})
	}
	return out
}

// Lesson 4's panels do not share one axis: no jitter's run lasts 15.7 h
// and the others about a minute, which made three of them slivers at 0 of
// a 0-12 h axis. Each then has its own scales, and the grid says so; the
// page's own herd keeps one scale for all.
func TestCompareGridScales(t *testing.T) {
	les, err := parseLesson(must(lessonSource(lessonPath("en", 4))))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q      string
		shared bool
	}{{les.Query, false}, {"", true}} {
		runs := compareRuns(t, c.q)
		series := make([]chart.Series, len(runs))
		for i, r := range runs {
			series[i] = chart.SeriesOf(r.Config, r.Res)
		}
		_, _, xMax, shared, shortest, longest := chart.GridScale(series)
		if shared != c.shared {
			t.Errorf("%q: shared %v (runs from %gs to %gs), want %v", c.q, shared, shortest, longest, c.shared)
		}
		if !shared && xMax != 0 {
			t.Errorf("%q: own scales, yet a common time axis to %gs", c.q, xMax)
		}
		for _, l := range i18n.Langs {
			html := app.HTMLString(&compareGrid{Results: runs, Lang: l})
			own := strings.SplitN(l.T("compare.note-own"), "{", 2)[0]
			if strings.Contains(html, own) == c.shared {
				t.Errorf("%q, %s: the grid's note says own scales: %v, want %v", c.q, l.Code(), !c.shared, !c.shared)
			}
			pic := compareSVG(l, runs)
			if tag := strings.SplitN(l.T("chart.own-scale"), " ", 2)[1]; strings.Contains(pic, tag) == c.shared {
				t.Errorf("%q, %s: the picture's titles say own scales: %v", c.q, l.Code(), !c.shared)
			}
		}
	}
}
