package chart

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

func TestTableMarkdown(t *testing.T) {
	tb := table(t, "jitter=none&cap=10s")
	got := TableMarkdown(i18n.En, tb)
	want := `| retry | nominal | min | max | mean | p50 | p95 | sample | Σ mean | Σ max |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| 1 | 1s | 1s | 1s | 1s | 1s | 1s | 1s | 1s | 1s |
| 2 | 2s | 2s | 2s | 2s | 2s | 2s | 2s | 3s | 3s |
| 3 | 4s | 4s | 4s | 4s | 4s | 4s | 4s | 7s | 7s |
| 4 | 8s | 8s | 8s | 8s | 8s | 8s | 8s | 15s | 15s |
| 5 (cap) | 10s | 10s | 10s | 10s | 10s | 10s | 10s | 25s | 25s |

Total wait: best 25s, expected 25s, worst 25s.
`
	if got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
	if ru := TableMarkdown(i18n.Ru, tb); !strings.Contains(ru, "| повтор |") || !strings.Contains(ru, "| 5 (потолок) | 10\u00a0с |") {
		t.Errorf("Russian markdown:\n%s", ru)
	}
}

func TestTableCSV(t *testing.T) {
	got := TableCSV(table(t, "jitter=none&attempts=3"))
	want := "retry,nominal_s,min_s,max_s,mean_s,p50_s,p95_s,sample_s,cum_min_s,cum_mean_s,cum_max_s,capped,past_deadline\n" +
		"1,1,1,1,1,1,1,1,1,1,1,false,false\n2,2,2,2,2,2,2,2,3,3,3,false,false\n"
	if got != want {
		t.Errorf("csv:\n%s\nwant:\n%s", got, want)
	}
}

// count counts the elements of well-formed XML by name.
func count(t *testing.T, s string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	n := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			n[se.Name.Local]++
		}
	}
}

func TestTableSVG(t *testing.T) {
	tb := table(t, "jitter=none&cap=10s")
	svg := Standalone(TableSVG(i18n.Ru, tb), "light")
	n := count(t, svg)
	// A heading and a row of 10 cells per retry, the totals line.
	if n["text"] != 10*6+1 || !strings.Contains(svg, "25\u00a0с") {
		t.Errorf("%d texts", n["text"])
	}
	if !strings.Contains(svg, `class="table-cap"`) {
		t.Error("the cap's row is not shaded")
	}
}

func TestGrid(t *testing.T) {
	s := Series{Width: 1, OK: []float64{1, 2}, Rejected: []float64{0, 1}, Capacity: 1}
	svg := Grid(i18n.En, []Series{s, s, s}, []string{"a", "b", "c"}, "grid")
	n := count(t, svg)
	if n["svg"] != 4 || !strings.Contains(svg, `<svg x="320" y="0" width="320" height="170"`) {
		t.Errorf("%d svgs:\n%s", n["svg"], svg[:200])
	}
}
