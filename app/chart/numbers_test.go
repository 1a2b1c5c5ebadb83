package chart

import (
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// The herd's table: a row per bucket with the chart's numbers, the load
// and the outage only when the server has them, the range only over
// several runs, numbers written in the page's language.
func TestHerdTable(t *testing.T) {
	h := Series{Width: 2, OK: []float64{0, 15, 20}, Rejected: []float64{1200, 5, 0}, Capacity: 20, OutageStart: 0, OutageEnd: 3}
	got := HerdTable(i18n.Ru, h, "herd-table", "cap")
	for _, want := range []string{
		`<table id="herd-table" class="numbers-table"><caption>cap</caption>`,
		`<th scope="col">Время</th><th scope="col">Ответы</th><th scope="col">Успешные</th><th scope="col">Отклонённые</th><th scope="col">Нагрузка / пропускная способность</th><th scope="col">Сервер лежит</th></tr>`,
		`<tr><th scope="row">0–2` + "\u00a0" + `с</th><td data-value="1200">1200</td><td data-value="0">0</td><td data-value="1200">1200</td><td data-value="60">60,00×</td><td data-value="1">да</td></tr>`,
		`<tr><th scope="row">2` + "\u00a0" + `с–4` + "\u00a0" + `с</th><td data-value="20">20</td><td data-value="15">15</td><td data-value="5">5</td><td data-value="1">1,00×</td><td data-value="1">да</td></tr>`,
		`<td data-value="0"></td></tr></tbody></table>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("HerdTable lacks\n  %s\nin\n  %s", want, got)
		}
	}
	// No capacity, no outage, several runs: a range column, means to one
	// decimal.
	h = Series{Width: 1, OK: []float64{2.5}, Rejected: []float64{0}, Lo: []float64{1}, Hi: []float64{4}}
	got = HerdTable(i18n.En, h, "t", "c")
	if want := `<tr><th scope="row">0–1s</th><td data-value="2.5">2.5</td><td data-value="2.5">2.5</td><td data-value="0">0</td><td data-value="">1–4</td></tr>`; !strings.Contains(got, want) {
		t.Errorf("HerdTable over runs:\n  %s\nwant a row\n  %s", got, want)
	}
	if n := strings.Count(got, `scope="col"`); n != 5 {
		t.Errorf("%d columns over runs without capacity or outage, want 5", n)
	}
}

// The steady traffic's table: rates per second from the bucket's counts,
// the queue's columns only for a queue server, a dash for a bucket with
// no latency, the faults that were on.
func TestRequestTable(t *testing.T) {
	s := RequestSeries{Width: 0.5, Offered: []float64{40, 10}, Calls: []float64{50, 60}, Goodput: []float64{38, 0},
		Queue: []float64{0, 120}, Busy: []float64{8, 10}, P50: []float64{0.15, 0}, P99: []float64{0.4, 0}, Workers: 10,
		Faults: []Band{{Kind: "stall", Start: 0.5, End: 10}}}
	got := RequestTable(i18n.En, s, "req-table", "c")
	for _, want := range []string{
		`<th scope="col">Time</th><th scope="col">Requests offered</th><th scope="col">Calls sent</th><th scope="col">Goodput</th><th scope="col">Calls waiting</th><th scope="col">Busy workers</th><th scope="col">Latency p50</th><th scope="col">Latency p99</th><th scope="col">Fault</th>`,
		`<tr><th scope="row">0–500ms</th><td data-value="80">80.0/s</td><td data-value="100">100.0/s</td><td data-value="76">76.0/s</td><td data-value="0">0</td><td data-value="8">8</td><td data-value="0.15">150ms</td><td data-value="0.4">400ms</td><td data-value="0"></td></tr>`,
		`<tr><th scope="row">500ms–1s</th><td data-value="20">20.0/s</td><td data-value="120">120.0/s</td><td data-value="0">0.0/s</td><td data-value="120">120</td><td data-value="10">10</td><td data-value="">—</td><td data-value="">—</td><td data-value="1">stall</td></tr>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("RequestTable lacks\n  %s\nin\n  %s", want, got)
		}
	}
	s.Workers, s.Faults = 0, nil
	if got := RequestTable(i18n.En, s, "t", "c"); strings.Contains(got, "Calls waiting") || strings.Contains(got, "Fault") {
		t.Errorf("a server without a queue or faults has their columns: %s", got)
	}
}

// A run with a cache shows its hit ratio per bucket: cache-flush's warm
// cache answers about 84% before the flush at 30 s and, with its FIFO
// database never catching up, under 10% at the end; a run without a cache
// has no such column.
func TestRequestTableHitRatio(t *testing.T) {
	sc, err := sim.LookupScenario("cache-flush")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := RequestSeriesOf(c, r)
	if s.Hits == nil {
		t.Fatal("a run with a cache: no hits per bucket")
	}
	ratio := func(at float64) float64 {
		k := int(at / s.Width)
		return s.Hits[k] / (s.Hits[k] + s.Misses[k])
	}
	if v := ratio(20); v < 0.8 || v > 0.9 {
		t.Errorf("hit ratio at 20 s %.3f, want the warm cache's 0.8-0.9", v)
	}
	if v := ratio(110); v > 0.1 {
		t.Errorf("hit ratio at 110 s %.3f, want under 0.1 (FIFO never recovers)", v)
	}
	html := RequestTable(i18n.Ru, s, "t", "c")
	if !strings.Contains(html, "Доля попаданий") {
		t.Error("the Russian table has no hit ratio column")
	}
	c.CacheKeys = 0
	c.Faults = sim.Faults{}
	r, err = sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s := RequestSeriesOf(c, r); s.Hits != nil || strings.Contains(RequestTable(i18n.En, s, "t", "c"), "Hit ratio") {
		t.Error("a run without a cache has a hit ratio")
	}
}
