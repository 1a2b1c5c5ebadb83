package app

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/chart"
)

// The totals sit under the columns they sum however many optional columns
// the style sheet hides: each footer row, read as the browser lays it out
// (a hidden cell takes no column; a colspan takes as many as it says),
// puts Σ mean and Σ max (and the best case) in the slots of their columns.
func TestTotalsRowUnderItsColumns(t *testing.T) {
	html := render(t, "base=1s&factor=2&cap=30s&attempts=6&jitter=none")
	foot := html[strings.Index(html, "<tfoot"):strings.Index(html, "</tfoot>")]
	rows := strings.Split(foot, "</tr>")
	cell := regexp.MustCompile(`<t[hd]([^>]*)>`)
	attr := func(s, name string) string {
		m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(s)
		if m == nil {
			return ""
		}
		return m[1]
	}
	var optional []string
	for _, c := range chart.Columns {
		if c.Optional {
			optional = append(optional, c.ID)
		}
	}
	// The optional columns hidden: none, all, and each alone.
	hides := [][]string{nil, optional}
	for _, id := range optional {
		hides = append(hides, []string{id})
	}
	for _, hidden := range hides {
		var shown []string // the visible columns' ids, in order
		for _, c := range chart.Columns {
			if !slices.Contains(hidden, c.ID) {
				shown = append(shown, c.ID)
			}
		}
		for _, fr := range []struct {
			first string            // the row's first total
			want  map[string]string // total -> the column it sits under
		}{{"total_mean", map[string]string{"total_mean": "cum_mean", "total_max": "cum_max"}}, {"total_min", map[string]string{"total_min": "cum_max"}}} {
			var row string
			for _, r := range rows {
				if strings.Contains(r, `data-col="`+fr.first+`"`) {
					row = r
				}
			}
			if row == "" {
				t.Fatalf("no footer row with %s: %s", fr.first, foot)
			}
			slot, got := 0, map[string]string{}
			for _, m := range cell.FindAllStringSubmatch(row, -1) {
				col := attr(m[1], "data-col")
				if slices.Contains(hidden, col) {
					continue
				}
				if _, ok := fr.want[col]; ok {
					got[col] = "a column past the last"
					if slot < len(shown) {
						got[col] = shown[slot]
					}
				}
				span, _ := strconv.Atoi(attr(m[1], "colspan"))
				slot += max(span, 1)
			}
			if slot != len(shown) {
				t.Errorf("hiding %v: the %s row takes %d columns of %d: %s", hidden, fr.first, slot, len(shown), row)
			}
			for k, v := range fr.want {
				if got[k] != v {
					t.Errorf("hiding %v: %s sits under %q, want %q", hidden, k, got[k], v)
				}
			}
		}
	}
}

// The page's style sheet hides delay-table columns only by data-col, and
// only optional ones: the footer keeps a cell for those alone.
func TestStyleHidesOnlyOptionalColumns(t *testing.T) {
	css, err := os.ReadFile("../static/playground.css")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\[data-col="([a-z_0-9]+)"\]`)
	n := 0
	for _, line := range strings.Split(string(css), "\n") {
		// Presenter mode's rules may hide a Projector column too: its
		// totals' label spans only what a projector keeps.
		present := strings.HasPrefix(line, ".present ")
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			n++
			i := slices.IndexFunc(chart.Columns, func(c chart.Column) bool { return c.ID == m[1] })
			if i < 0 || !chart.Columns[i].Optional && !(present && chart.Columns[i].Projector) {
				t.Errorf("playground.css hides column %q, which is not an optional column of chart.Columns (nor a Projector one in a .present rule)", m[1])
			}
		}
	}
	if n == 0 {
		t.Fatal("no [data-col] rule in playground.css: the test reads the wrong file")
	}
}

func TestLabelSpan(t *testing.T) {
	for _, c := range []struct {
		opt      string // o: optional, -: always shown
		from, to int
	}{{"-o---ooo", 2, 5}, {"-o---ooo-", 2, 5}, {"--o-", 0, 2}, {"-o-", 2, 3}, {"----", 0, 4}, {"oo", 2, 2}} {
		cols := make([]chart.Column, len(c.opt))
		for i := range cols {
			cols[i].Optional = c.opt[i] == 'o'
		}
		if from, to := labelSpan(cols, false); from != c.from || to != c.to {
			t.Errorf("labelSpan(%s) = %d, %d; want %d, %d", c.opt, from, to, c.from, c.to)
		}
	}
	// Presenter mode: the label spans only the columns a projector keeps
	// (of retry, nominal, min, max, mean: max, nearer the totals).
	if from, to := labelSpan(chart.Columns[:5], true); from != 3 || to != 4 {
		t.Errorf("labelSpan(presenter) = %d, %d; want 3, 4 (max)", from, to)
	}
	if from, to := labelSpan(chart.Columns[:5], false); from != 2 || to != 5 {
		t.Errorf("labelSpan = %d, %d; want 2, 5 (min, max, mean)", from, to)
	}
}
