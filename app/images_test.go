//go:build !wasm

package app

import (
	"encoding/xml"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

func TestChartSVG(t *testing.T) {
	for _, kind := range ImageKinds {
		svg, err := ChartSVG(kind, "preset=gax&attempts=4&clients=200&lang=ru&theme=dark")
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", kind, err)
			}
		}
		if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(svg, "--card: #1a1f25") {
			t.Errorf("%s: not a dark standalone SVG", kind)
		}
	}
	if _, err := ChartSVG("pie", ""); err != ErrUnknownImage {
		t.Errorf("pie: %v", err)
	}
	if a, b := CanonicalQuery("attempts=4&base=1s"), CanonicalQuery("base=1s&attempts=4&bogus=1"); a != b {
		t.Errorf("canonical queries differ: %q %q", a, b)
	}
	// The page's bound holds: a link asking for hours draws in bounded work.
	svg, err := ChartSVG("herd", "clients=200000&attempts=1000&cap=1s&outage-end=8760h&max-calls=1000000000")
	if err != nil || !strings.Contains(svg, "<path") {
		t.Fatalf("bounded herd: %v", err)
	}
}

// TestImageMemory holds ImageMemory at or above what the biggest links
// allocate: a table and its delays (and an export snippet) in all, a herd
// or compare image per run.
func TestImageMemory(t *testing.T) {
	allocated := func(f func()) int64 {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return int64(b.TotalAlloc - a.TotalAlloc)
	}
	for _, q := range []string{
		"jitter=decorrelated-v2&attempts=1000&cap=1h",
		"attempts=1000&cap=1s&deadline=8760h",
		"jitter=decorrelated-v2&attempts=3",
		"jitter=decorrelated-v2&attempts=50&cap=1h",
		"attempts=0&deadline=1h",
	} {
		for _, kind := range []string{"table", "delays"} {
			if got, est := allocated(func() { ChartSVG(kind, q) }), ImageMemory(kind, q); got > est {
				t.Errorf("%s?%s: allocated %d B, estimate %d B", kind, q, got, est)
			}
		}
		for _, to := range export.TargetNames() {
			if got, est := allocated(func() { export.To(to, PolicyFromQuery(q)) }), ImageMemory("export", q); got > est {
				t.Errorf("export %s?%s: allocated %d B, estimate %d B", to, q, got, est)
			}
		}
	}
	q := "clients=200000&attempts=1000&cap=1s&outage-end=8760h&runs=20"
	s, _ := parseQuery(q)
	cfgs := append([]sim.Config{herdImageConfig(&s)}, compareImageConfigs(&s)...)
	for i, c := range cfgs {
		kind := "herd"
		if i > 0 {
			kind = "compare"
		}
		got := allocated(func() { sim.Run(c, 1) })
		if est := ImageMemory(kind, q) - tableMemory(s.Policy); got > est {
			t.Errorf("%s run %d: allocated %d B, estimate %d B", kind, i, got, est)
		}
	}
	if a, b := ImageMemory("herd", q), ImageMemory("herd", "clients=2000&"+q); a <= b {
		t.Errorf("ImageMemory does not follow the clients: %d, %d", a, b)
	}
}

// Every scenario's images are ones the server draws: none is refused for
// its memory, and none fills an open run's.
func TestScenarioImagesFit(t *testing.T) {
	for _, sc := range scenarios {
		for _, kind := range []string{"herd", "compare"} {
			if err := ImageFits(kind, sc.query, ImageBudget); err != nil {
				t.Errorf("%s %s: %v", sc.name, kind, err)
			}
		}
		if _, err := ChartSVG("herd", sc.query); err != nil {
			t.Errorf("%s herd: %v", sc.name, err)
		}
	}
}

// /svg/herd.svg's text alternative says what the page's verdict says, in
// both languages (the chart's own words come from the same function):
// aws-standard's clients all gave up long before the server came back.
func TestHerdImageLabelIsTheVerdict(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		q := "preset=aws-standard&lang=" + lang
		svg, err := ChartSVG("herd", q)
		if err != nil {
			t.Fatal(err)
		}
		p := newPlayground()
		p.load(q)
		c := herdImageConfig(&p.st)
		r, err := sim.Run(c, p.st.Seed)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := sim.HerdVerdictOf(c, r)
		want := chart.HerdVerdictText(p.lang(), v)
		if !v.AllGaveUp() || !strings.Contains(svg, want+`"`) {
			t.Errorf("%s: the image's label lacks the verdict %q:\n%.600s", lang, want, svg)
		}
	}
}

// The server's picture keeps only the calls it draws, yet equals the
// page's, drawn from the whole run; both say how many seconds they play.
func TestFlowServerImage(t *testing.T) {
	q := "base=1s&factor=2&cap=30s&attempts=6&jitter=full&clients=300&server=outage&outage-end=10s&seed=1"
	f, g, s := runFlow(t, q)
	if f.EndS <= flowSVGSeconds+5 {
		t.Fatalf("the run ends at %.1f s: it must outlast the picture", f.EndS)
	}
	for _, l := range i18n.Langs {
		page, err := flowAnimated(l, f, g)
		if err != nil {
			t.Fatal(err)
		}
		server, err := flowServerImage(l, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if server != page {
			t.Errorf("%s: the server's picture (%d B) differs from the page's (%d B)", l.Code(), len(server), len(page))
		}
		if want := l.Seconds(20); !strings.Contains(page, want) {
			t.Errorf("%s: the picture does not say it plays %s", l.Code(), want)
		}
	}
	// A herd making more calls in the first seconds than the picture keeps
	// (it reports them client by client, so what is kept is exact only
	// up to 0) is refused, saying so, within the image's memory.
	big, _ := parseQuery("clients=3000&attempts=100&base=10ms&cap=50ms&server=outage&outage-end=30s")
	if _, err := flowServerImage(i18n.En, &big, nil); err == nil || !strings.Contains(sweepErrText(i18n.En, err), "first seconds make more than") {
		t.Errorf("a herd too busy to keep: %v", err)
	}
	if m := ImageMemory("flow", "clients=3000&attempts=100&base=10ms&cap=50ms&server=outage&outage-end=30s"); m > ImageBudget {
		t.Errorf("the flow image holds %d bytes, over the %d budget", m, ImageBudget)
	}
	// The fault shading turns on and off with the fault.
	f, g, _ = runFlow(t, "attempts=4&growth=none&jitter=none&traffic=open:40&duration=8s&servers=2&server=queue&concurrency=3&service=100ms&service-dist=fixed&timeout=1s&fault=crash@2s-4s/1")
	svg, err := flowAnimated(i18n.En, f, g)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg, `class="flow-fault"`); n != 1 {
		t.Errorf("%d shaded nodes, want 1", n)
	}
	frames := int(math.Ceil(f.EndS/flowSVGStep - 1e-9))
	key := func(s float64) string {
		return strconv.FormatFloat(math.Round(s/flowSVGStep/float64(frames)*1e4)/1e4, 'f', -1, 64)
	}
	if want := `values="hidden;visible;hidden" keyTimes="0;` + key(2) + ";" + key(4) + `"`; !strings.Contains(svg, want) {
		t.Errorf("the crash's shading: no %s", want)
	}
}
