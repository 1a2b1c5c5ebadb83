//go:build browser && !wasm

// The charts' numbers as tables: behind a "Show the numbers" toggle that
// the keyboard opens and closes, a <table> per chart whose every cell is
// the same run's number as the CLI computes it for the same parameters and
// seed (backoff sim --format json), written as the page writes numbers in
// its language.

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/chromedp/chromedp/kb"
)

// tbCLI runs backoff sim with args and --format json.
func tbCLI(tb testing.TB, args string) (out struct {
	BucketS  float64 `json:"bucket_s"`
	Timeline []struct {
		Start    float64 `json:"start_s"`
		OK       float64 `json:"ok"`
		Rejected float64 `json:"rejected"`
		Requests float64 `json:"requests"`
		Calls    float64 `json:"calls"`
		Goodput  float64 `json:"goodput"`
		Queue    float64 `json:"queue"`
		Busy     float64 `json:"busy"`
		P50      float64 `json:"latency_p50_s"`
		P99      float64 `json:"latency_p99_s"`
	} `json:"timeline"`
}) {
	tb.Helper()
	cmd := exec.Command("go", append([]string{"run", "../backoff", "sim", "--format", "json"}, strings.Fields(args)...)...)
	b, err := cmd.Output()
	if err != nil {
		tb.Fatalf("backoff sim %s: %v", args, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// tbTableJS reads table id: its caption, headings and per row the row's
// heading and each cell's text and data-value.
func tbTableJS(id string) string {
	return fmt.Sprintf(`(() => { const t = document.getElementById(%q); if (!t) return null;
  return {caption: t.caption ? t.caption.textContent : '', heads: [...t.querySelectorAll('thead th')].map(h => h.getAttribute('scope') + ':' + h.textContent),
    rows: [...t.querySelectorAll('tbody tr')].map(r => ({head: r.querySelector('th[scope=row]').textContent,
      cells: [...r.querySelectorAll('td')].map(d => d.textContent), values: [...r.querySelectorAll('td')].map(d => d.dataset.value)}))}; })()`, id)
}

type tbTable struct {
	Caption string
	Heads   []string
	Rows    []struct {
		Head   string
		Cells  []string
		Values []string
	}
}

func tbNum(tb testing.TB, s string) float64 {
	tb.Helper()
	if s == "" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		tb.Fatalf("data-value %q: %v", s, err)
	}
	return v
}

// tbToggle opens (want "true") or closes id's numbers with the keyboard:
// the focus on its toggle, then Enter; it fails the test unless
// aria-expanded becomes want.
func tbToggle(tb testing.TB, t *tab, id, want string) {
	tb.Helper()
	if !eval[bool](tb, t, fmt.Sprintf(`(document.getElementById('%s-toggle').focus(), document.activeElement.id === '%s-toggle')`, id, id)) {
		tb.Fatalf("#%s-toggle does not take the focus", id)
	}
	wsKey(tb, t, kb.Enter)
	poll[bool](tb, t, fmt.Sprintf("Enter on #%s-toggle to make aria-expanded %s", id, want),
		fmt.Sprintf(`document.getElementById('%s-toggle').getAttribute('aria-expanded') === '%s'`, id, want))
	wsQuiet(tb, t, 60)
}

// TestBrowserDataTables: the herd's table and the steady traffic's, in
// both languages, against the CLI's timeline of the same run.
func TestBrowserDataTables(t *testing.T) {
	herdQ := "base=1s&factor=2&cap=30s&attempts=6&jitter=full&clients=1000&server=outage&outage-end=10s&seed=1"
	herd := tbCLI(t, "--base 1s --factor 2 --cap 30s --attempts 6 --jitter full --clients 1000 --server outage --outage-end 10s --seed 1")
	reqQ := "traffic=open:80&duration=1m&server=queue&concurrency=10&service=100ms&timeout=1s&attempts=3&base=100ms&cap=1s&jitter=full&fault=stall@20s-30s&seed=1"
	req := tbCLI(t, "--traffic open:80 --duration 1m --server queue --concurrency 10 --service 100ms --timeout 1s --attempts 3 --base 100ms --cap 1s --jitter full --fault stall@20s-30s --seed 1")
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			l, _ := i18n.Parse(lang)
			tb := newTab(t, 1280, 900)
			tb.open(t, herdQ+"&lang="+lang)
			poll[bool](t, tb, "the herd run", exHerdDoneJS)
			if got := eval[string](t, tb, `document.getElementById('herd-numbers-toggle').textContent`); got != l.T("numbers.show") {
				t.Errorf("the toggle says %q, want %q", got, l.T("numbers.show"))
			}
			if eval[bool](t, tb, `!!document.getElementById('herd-table')`) {
				t.Error("the herd's table is drawn before the toggle opens it")
			}
			tbToggle(t, tb, "herd-numbers", "true")
			if got := eval[string](t, tb, `document.getElementById('herd-numbers-toggle').textContent`); got != l.T("numbers.hide") {
				t.Errorf("the open toggle says %q, want %q", got, l.T("numbers.hide"))
			}
			// The region scrolls and takes the focus (Tab from the toggle).
			wsKey(t, tb, kb.Tab)
			if got := eval[string](t, tb, `document.activeElement.id`); got != "herd-numbers" {
				t.Errorf("Tab from the toggle focuses #%s, want #herd-numbers", got)
			}
			tab := eval[tbTable](t, tb, tbTableJS("herd-table"))
			wantHeads := []string{"col:" + l.T("numbers.time"), "col:" + l.T("numbers.calls"), "col:" + l.T("numbers.ok"), "col:" + l.T("numbers.rejected"),
				"col:" + l.T("numbers.load"), "col:" + l.T("numbers.down")}
			if strings.Join(tab.Heads, "|") != strings.Join(wantHeads, "|") {
				t.Errorf("headings %q, want %q", tab.Heads, wantHeads)
			}
			if want := l.F("numbers.herd-caption", l.Seconds(herd.BucketS)); tab.Caption != want {
				t.Errorf("caption %q, want %q", tab.Caption, want)
			}
			if len(tab.Rows) != len(herd.Timeline) {
				t.Fatalf("%d rows, the CLI's timeline has %d buckets", len(tab.Rows), len(herd.Timeline))
			}
			capacity := 20.0 // calls per 0.2 s bucket: 100 calls/s
			for i, b := range herd.Timeline {
				r := tab.Rows[i]
				calls := b.OK + b.Rejected
				wantCells := []string{l.Int(int64(calls)), l.Int(int64(b.OK)), l.Int(int64(b.Rejected)), l.Ratio(calls / capacity),
					map[bool]string{true: l.T("numbers.yes"), false: ""}[b.Start < 10]}
				if got := strings.Join(r.Cells, "|"); got != strings.Join(wantCells, "|") {
					t.Errorf("bucket %d (%s): cells %q, want %q", i, r.Head, r.Cells, wantCells)
				}
				if want := l.Seconds(b.Start) + "–" + l.Seconds(b.Start+herd.BucketS); r.Head != want {
					t.Errorf("bucket %d: heading %q, want %q", i, r.Head, want)
				}
				for k, want := range []float64{calls, b.OK, b.Rejected} {
					if got := tbNum(t, r.Values[k]); got != want {
						t.Errorf("bucket %d: column %d's data-value is %v, the CLI's %v", i, k+1, got, want)
					}
				}
				if i > 3 && t.Failed() {
					break
				}
			}
			// Enter again closes it, and the table goes.
			tbToggle(t, tb, "herd-numbers", "false")
			if eval[bool](t, tb, `!!document.getElementById('herd-table')`) {
				t.Error("the herd's table stays after the toggle closed it")
			}

			// Steady traffic: a queue server and a stall.
			tb.open(t, reqQ+"&lang="+lang)
			poll[bool](t, tb, "the request-level run", exHerdDoneJS)
			tbToggle(t, tb, "req-numbers", "true")
			rt := eval[tbTable](t, tb, tbTableJS("req-table"))
			wantHeads = []string{"col:" + l.T("numbers.time"), "col:" + l.T("numbers.offered"), "col:" + l.T("numbers.sent"), "col:" + l.T("numbers.goodput"),
				"col:" + l.T("numbers.queue"), "col:" + l.T("numbers.busy"), "col:" + l.T("numbers.p50"), "col:" + l.T("numbers.p99"), "col:" + l.T("numbers.fault")}
			if strings.Join(rt.Heads, "|") != strings.Join(wantHeads, "|") {
				t.Errorf("request headings %q, want %q", rt.Heads, wantHeads)
			}
			if len(rt.Rows) != len(req.Timeline) {
				t.Fatalf("%d request rows, the CLI's timeline has %d buckets", len(rt.Rows), len(req.Timeline))
			}
			w := req.BucketS
			rate := func(v float64) string { return l.F("metric.per-s", l.Float(v/w, 1)) }
			lat := func(v float64) string {
				if v <= 0 {
					return "—"
				}
				return l.Seconds(v)
			}
			for i, b := range req.Timeline {
				r := rt.Rows[i]
				stall := ""
				if b.Start < 30 && b.Start+w > 20 {
					stall = l.T("fault.stall")
				}
				wantCells := []string{rate(b.Requests), rate(b.Calls), rate(b.Goodput), l.Int(int64(b.Queue)), l.Int(int64(b.Busy)), lat(b.P50), lat(b.P99), stall}
				if got := strings.Join(r.Cells, "|"); got != strings.Join(wantCells, "|") {
					t.Errorf("request bucket %d (%s): cells %q, want %q", i, r.Head, r.Cells, wantCells)
				}
				for k, want := range []float64{b.Requests / w, b.Calls / w, b.Goodput / w, b.Queue, b.Busy} {
					if got := tbNum(t, r.Values[k]); math.Abs(got-want) > 1e-9*math.Max(1, want) {
						t.Errorf("request bucket %d: column %d's data-value is %v, the CLI's %v", i, k+1, got, want)
					}
				}
				if i > 3 && t.Failed() {
					break
				}
			}
			exShot(t, tb, "numbers-"+lang)
			exNoProblems(t, tb)
		})
	}
}
