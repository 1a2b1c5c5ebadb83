package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// wellFormed parses s as XML and counts elements by name.
func wellFormed(t *testing.T, s string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	counts := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return counts
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, s)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			if se.Name.Local == "svg" && se.Name.Space != svgNS {
				t.Fatalf("svg without the SVG namespace: %q", se.Name.Space)
			}
		}
	}
}

// table is the table of the article's policy, or of a preset, with the
// fields of q ("jitter=none&attempts=12") set over it.
func table(t *testing.T, q string) *backoff.Table {
	t.Helper()
	p := backoff.Default()
	vals, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if name := vals.Get("preset"); name != "" {
		pr, err := backoff.LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		p = pr.Policy
		vals.Del("preset")
	}
	for _, name := range backoff.ParamNames {
		if v := vals.Get(name); v != "" {
			if err := p.Set(name, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	tb, err := backoff.NewTable(p, backoff.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestDelayChartOnePathPerSeries(t *testing.T) {
	for _, q := range []string{"", "jitter=none", "jitter=decorrelated&attempts=12", "preset=k8s-crashloop", "attempts=1", "preset=sidekiq"} {
		for _, log := range []bool{false, true} {
			tb := table(t, q)
			s := SampleClients(tb.Policy, len(tb.Rows), 1)
			svg, _ := Delays(i18n.En, DelaySeries{T: tb, S: s}, nil, log)
			c := wellFormed(t, svg)
			// band, dots, mean line, mean ticks, grid, cap, the log axis's
			// zero line: never one per dot.
			if c["path"] > 7 {
				t.Errorf("%q log=%v: %d paths", q, log, c["path"])
			}
			if c["circle"]+c["rect"] > 0 {
				t.Errorf("%q: element per point", q)
			}
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("%q log=%v: NaN or Inf in the SVG", q, log)
			}
			h := Histogram(i18n.En, s.Totals, tb.Total, nil)
			wellFormed(t, h)
			if strings.Contains(h, "NaN") || strings.Contains(h, "Inf") {
				t.Errorf("%q: NaN or Inf in the histogram", q)
			}
		}
	}
}

func TestDelayChartDotsAreTheSamples(t *testing.T) {
	tb := table(t, "jitter=full&attempts=4")
	s := SampleClients(tb.Policy, len(tb.Rows), 1)
	svg, _ := Delays(i18n.En, DelaySeries{T: tb, S: s}, nil, false)
	i := strings.Index(svg, `class="dots" d="`)
	if i < 0 {
		t.Fatal("no dots path")
	}
	d := svg[i:]
	d = d[:strings.Index(d, `"></path>`)]
	if got, want := strings.Count(d, "h0"), 3*DotClients; got != want {
		t.Fatalf("%d dots, want %d (one per client and retry)", got, want)
	}
}

func TestSamplesAreSeeded(t *testing.T) {
	p := backoff.Default()
	a, b := SampleClients(p, 5, 7), SampleClients(p, 5, 7)
	c := SampleClients(p, 5, 8)
	if a.Totals[10] != b.Totals[10] || a.Delays[2][3] != b.Delays[2][3] {
		t.Fatal("same seed, different samples")
	}
	if a.Totals[10] == c.Totals[10] {
		t.Fatal("different seeds, same samples")
	}
	// Full jitter: every delay within [0, nominal).
	for i, ds := range a.Delays {
		nom := p.Nominal(i + 1)
		for _, d := range ds {
			if d < 0 || d >= nom {
				t.Fatalf("retry %d: %g outside [0, %g)", i+1, d, nom)
			}
		}
	}
}

func TestSamplesStopAtDeadline(t *testing.T) {
	p := backoff.Default()
	p.Jitter = backoff.NoJitter
	p.Deadline = backoff.Seconds(10).Round(0)
	s := SampleClients(p, 5, 1)
	// 1+2+4 = 7 <= 10, +8 = 15 > 10: retries 4 and 5 never start.
	if len(s.Delays[3]) != 0 || s.Totals[0] != 7 {
		t.Fatalf("retry 4 drawn %d times, total %g", len(s.Delays[3]), s.Totals[0])
	}
}

func TestHerdSVG(t *testing.T) {
	h := Series{Width: 1, OK: []float64{0, 0, 100, 100, 40}, Rejected: []float64{1000, 0, 300, 0, 0},
		Capacity: 100, OutageStart: 0, OutageEnd: 2}
	for _, size := range []HerdSize{HerdWide, HerdSmall, HerdPresent} {
		svg := Herd(i18n.En, h, 0, 0, size, "test <herd>")
		c := wellFormed(t, svg)
		// outage, grid, ok, rejected, hatch line, capacity, clipped marks.
		if c["path"] > 7 {
			t.Errorf("%d paths", c["path"])
		}
		for _, class := range []string{"ok", "rejected", "capacity", "outage"} {
			if !strings.Contains(svg, `class="`+class+`"`) {
				t.Errorf("no %s series", class)
			}
		}
	}
	if svg := Herd(i18n.En, Series{}, 0, 0, HerdWide, "empty"); !strings.Contains(svg, "No calls") {
		t.Error("empty herd draws no message")
	}
}

// TestHerdPresentText holds presenter mode's herd chart to its promise:
// drawn 377 px wide (a 1024x768 projector's widget), text of 20 units is
// 18.9 px, the lesson's type, and the time axis's labels at that size
// neither overlap nor leave the chart, in either language, over runs of
// a few seconds to a day.
func TestHerdPresentText(t *testing.T) {
	if f := herdFrame(HerdPresent); 377/f.W*presentUnits < 18.4 {
		t.Errorf("presenter frame %g units wide: 20-unit text is %.1f px at 377 px", f.W, 377/f.W*presentUnits)
	}
	if f := herdFrame(HerdSmallPresent); 180/f.W*presentUnits < 18.4 {
		t.Errorf("presenter grid cell %g units wide: 20-unit text is %.1f px at 180 px", f.W, 180/f.W*presentUnits)
	}
	for _, l := range i18n.Langs {
		for _, end := range []float64{3, 12, 45, 130, 270, 600, 3700, 86400} {
			h := Series{Width: end / 50, OK: make([]float64, 50), Rejected: make([]float64, 50), Capacity: 10}
			for i := range h.OK {
				h.OK[i] = float64(i % 7)
			}
			svg := Herd(l, h, 0, 0, HerdPresent, "t")
			if !strings.Contains(svg, `viewBox="0 0 400 256"`) {
				t.Fatalf("not presenter mode's frame: %.80s", svg)
			}
			checkPresentText(t, fmt.Sprintf("%s, %gs", l.Code(), end), svg)
			// A grid's cell, on a scale shared with taller cells (a
			// clipped bar's label too).
			svg = Herd(l, h, 5, 0, HerdSmallPresent, "t")
			if !strings.Contains(svg, `viewBox="0 0 190 130"`) || !strings.Contains(svg, `class="clipped"`) {
				t.Fatalf("not a presenter grid cell with a clipped bar: %.80s", svg)
			}
			checkPresentTextIn(t, fmt.Sprintf("%s, %gs, grid cell", l.Code(), end), svg, 190, 2)
		}
	}
}

// TestStripPresentText holds presenter mode's client strip to the same:
// each client's name, the time ticks and the titles at 20 units inside a
// 400-unit frame and apart, for 2 to 300 clients.
func TestStripPresentText(t *testing.T) {
	rowLabel := regexp.MustCompile(`<text class="tick" x="([0-9.]+)" y="([0-9.]+)" text-anchor="end">([^<]*)</text>`)
	for _, l := range i18n.Langs {
		for _, clients := range []int{2, 7, 30, 300} {
			tr := &sim.Trace{Clients: clients}
			for c := range clients {
				tr.Events = append(tr.Events, sim.TraceEvent{T: float64(c%5) + 1, Client: uint16(c), Kind: sim.TraceTry},
					sim.TraceEvent{T: 31.5, Client: uint16(c), Kind: sim.TraceSuccess})
			}
			svg := Strip(l, tr, 0, "t", true)
			if !strings.Contains(svg, `viewBox="0 0 400 `) {
				t.Fatalf("not presenter mode's frame: %.80s", svg)
			}
			checkPresentText(t, fmt.Sprintf("%s, %d clients", l.Code(), clients), svg)
			prevY := -100.0
			for _, m := range rowLabel.FindAllStringSubmatch(svg, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				y, _ := strconv.ParseFloat(m[2], 64)
				if w := float64(len([]rune(m[3]))) * presentLetterW * presentUnits; x-w < 0 {
					t.Errorf("%s, %d clients: %q spans x=%.0f..%.0f", l.Code(), clients, m[3], x-w, x)
				}
				if y-prevY < presentUnits {
					t.Errorf("%s, %d clients: %q at y=%g, %g below the one above", l.Code(), clients, m[3], y, y-prevY)
				}
				prevY = y
			}
		}
	}
}

// TestFleetPresentText holds presenter mode's fleet strips to the same:
// the time ticks and the rate title at 20 units inside a 400-unit frame
// and apart, for two to four servers over a minute to an hour; and the
// strips' own labels (checkFleetLabels).
func TestFleetPresentText(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, servers := range []int{2, 3, 4} {
			for _, end := range []float64{60, 600, 3600} {
				what := fmt.Sprintf("%s, %d servers, %gs", l.Code(), servers, end)
				svg := FleetChart(l, fleetCase(servers, end), "t", true)
				if !strings.Contains(svg, `viewBox="0 0 400 `) {
					t.Fatalf("%s: not presenter mode's frame: %.80s", what, svg)
				}
				checkPresentText(t, what, svg)
				checkFleetLabels(t, what, svg, servers, presentUnits)
				checkFleetLabels(t, what+", wide", FleetChart(l, fleetCase(servers, end), "t", false), servers, 11)
			}
		}
	}
	// The page's own run (lesson 15): two strips of 52 units, drawn 49 px
	// tall at 377 px (they were 44, 41 px: "crash" and the queue's peak
	// crossed by its lines), in 220 units: a 4:3 screen's room.
	if svg := FleetChart(i18n.Ru, fleetCase(2, 60), "t", true); !strings.Contains(svg, `viewBox="0 0 400 220"`) {
		t.Errorf("two strips in presenter mode: %.80s", svg)
	}
}

// fleetCase is a fleet of servers with a crash each and a queue, over end
// seconds.
func fleetCase(servers int, end float64) FleetSeries {
	s := FleetSeries{Width: end / 60, PerCall: 50}
	for range servers {
		v, q := make([]float64, 60), make([]float64, 60)
		for i := range v {
			v[i] = float64(i%9) * s.Width * 6
			q[i] = float64(i * 80) // the queue climbs to its peak at the end, at the strip's top right
		}
		s.Served, s.Failed, s.Queue = append(s.Served, v), append(s.Failed, v), append(s.Queue, q)
		s.Faults = append(s.Faults, []Band{{Kind: "crash", Start: end / 12, End: end / 6}})
	}
	return s
}

// checkFleetLabels holds a fleet chart's texts (size units; a digit of
// DejaVu Sans 0.62 em wide, a letter about 0.55) inside the frame, apart
// from each other, and,
// over the plot, outside every strip (the fault's shade marks a strip's
// height), so that no line of the data crosses one; each strip is named.
func checkFleetLabels(t *testing.T, what, svg string, servers int, size float64) {
	t.Helper()
	anyText := regexp.MustCompile(`<text class="([a-z-]+)" x="([0-9.]+)" y="([0-9.]+)" text-anchor="(start|middle|end)">([^<]*)</text>`)
	band := regexp.MustCompile(`<path class="outage" d="M([0-9.]+) ([0-9.]+)H([0-9.]+)V([0-9.]+)`)
	width, _ := strconv.ParseFloat(regexp.MustCompile(`viewBox="0 0 ([0-9.]+) `).FindStringSubmatch(svg)[1], 64)
	type box struct {
		x0, x1, y0, y1 float64
		what           string
	}
	var strips []box
	left := width
	for _, m := range band.FindAllStringSubmatch(svg, -1) {
		var b box
		b.x0, _ = strconv.ParseFloat(m[1], 64)
		b.y0, _ = strconv.ParseFloat(m[2], 64)
		b.y1, _ = strconv.ParseFloat(m[4], 64)
		strips = append(strips, b)
	}
	if len(strips) != servers {
		t.Fatalf("%s: %d strips' shades, want %d", what, len(strips), servers)
	}
	for _, m := range regexp.MustCompile(`<path class="axis" d="M([0-9.]+) `).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		left = math.Min(left, x)
	}
	var texts []box
	names := 0
	for _, m := range anyText.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[2], 64)
		y, _ := strconv.ParseFloat(m[3], 64)
		w := 0.0
		for _, r := range m[5] {
			w += map[bool]float64{true: presentCharW, false: presentLetterW}[unicode.IsDigit(r)] * size
		}
		x0 := map[string]float64{"start": x, "middle": x - w/2, "end": x - w}[m[4]]
		// The font's box, as a browser measures a text: DejaVu Sans's
		// ascent 0.93 em and descent 0.24 em.
		b := box{x0, x0 + w, y - 0.93*size, y + 0.24*size, m[1] + " " + strconv.Quote(m[5])}
		if b.x0 < 0 || b.x1 > width+8 || b.y0 < 0 {
			t.Errorf("%s: %s spans x=%.0f..%.0f, y from %.0f: out of the frame", what, b.what, b.x0, b.x1, b.y0)
		}
		for _, o := range texts {
			if b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 {
				t.Errorf("%s: %s overlaps %s", what, b.what, o.what)
			}
		}
		if b.x1 > left {
			for k, st := range strips {
				if b.y0 < st.y1 && st.y0 < b.y1 {
					t.Errorf("%s: %s (y %.0f..%.0f) lies over strip %d (y %.0f..%.0f), where its lines run", what, b.what, b.y0, b.y1, k+1, st.y0, st.y1)
				}
			}
		}
		if m[1] == "run-label" {
			names++
		}
		texts = append(texts, b)
	}
	if names != servers {
		t.Errorf("%s: %d strip names", what, names)
	}
}

// Presenter mode's chart text: 20 units, a digit of DejaVu Sans 0.62 em
// wide and a letter about 0.55 em.
const presentUnits, presentCharW, presentLetterW = 20.0, 0.62, 0.55

// checkPresentText checks a presenter-mode chart 400 units wide: its
// time ticks apart and inside it, at least three, and its titles inside.
func checkPresentText(t *testing.T, what, svg string) { checkPresentTextIn(t, what, svg, 400, 3) }

// checkPresentTextIn holds a presenter frame width units wide to text of
// presentUnits: at least minTicks time ticks, none overlapping another or
// running off the frame, titles inside it.
func checkPresentTextIn(t *testing.T, what, svg string, width float64, minTicks int) {
	t.Helper()
	if !strings.Contains(svg, "chart-present") {
		t.Errorf("%s: no chart-present class", what)
	}
	label := regexp.MustCompile(`<text class="axis-label" x="([0-9.]+)" y="[0-9.]+" text-anchor="(start|middle)">([^<]*)</text>`)
	tick := regexp.MustCompile(`<text class="tick" x="([0-9.]+)" y="([0-9.]+)" text-anchor="(middle|end)">([^<]*)</text>`)
	prevRight := -1.0
	n := 0
	for _, m := range tick.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		if m[3] == "end" && x != width-1 {
			continue // the y axis's, at its left
		}
		half := float64(len([]rune(m[4]))) * presentCharW * presentUnits / 2
		if m[3] == "end" { // the last, at the edge
			x -= half
		}
		if x-half < prevRight+4 {
			t.Errorf("%s: tick %q at x=%g overlaps the one before (ends at %g)", what, m[4], x, prevRight)
		}
		if x+half > width+8 {
			t.Errorf("%s: tick %q at x=%g runs off the chart", what, m[4], x)
		}
		prevRight = x + half
		n++
	}
	if n < minTicks {
		t.Errorf("%s: %d time ticks", what, n)
	}
	for _, m := range label.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		w := float64(len([]rune(m[3]))) * presentLetterW * presentUnits
		if m[2] == "middle" {
			x -= w / 2
		}
		if x < 0 || x+w > width {
			t.Errorf("%s: %q spans x=%.0f..%.0f of %g", what, m[3], x, x+w, width)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{0.7, 1}, {1.5, 2}, {3, 5}, {7, 10}, {0.013, 0.02}, {0, 0}} {
		if got := niceStep(c.in); got != c.want {
			t.Errorf("niceStep(%g) = %g, want %g", c.in, got, c.want)
		}
	}
}

// The histogram's two mark labels share a row: they must never overlap and
// must stay inside the chart, wherever the mean and the worst case fall.
func TestLabelSpansNeverCollide(t *testing.T) {
	const right, wa, wb = 640.0, 110.0, 99.0
	for xa := 58.0; xa <= 628; xa += 10 {
		for xb := xa; xb <= 628; xb += 10 {
			aEnd, bX, anchor := labelSpans(xa, xb, wa, wb, right)
			bStart := bX
			if anchor == "end" {
				bStart = bX - wb
			}
			if aEnd-wa < 0 || bStart+wb > right {
				t.Fatalf("xa=%g xb=%g: outside the chart (first %g..%g, second %g..%g)", xa, xb, aEnd-wa, aEnd, bStart, bStart+wb)
			}
			if aEnd > bStart {
				t.Fatalf("xa=%g xb=%g: labels overlap (first ends %g, second starts %g)", xa, xb, aEnd, bStart)
			}
			if anchor == "end" && bX > xb || anchor == "start" && bX < xb {
				t.Fatalf("xa=%g xb=%g: the second label is on the wrong side of its mark", xa, xb)
			}
		}
	}
}

func TestTimeTicks(t *testing.T) {
	for _, c := range []struct {
		hi   float64
		n    int
		want []float64
	}{
		{170, 8, []float64{0, 30, 60, 90, 120, 150}},
		{100, 8, []float64{0, 15, 30, 45, 60, 75, 90}},
		{0.5, 5, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5}},
		{3 * 86400, 8, []float64{0, 43200, 86400, 129600, 172800, 216000, 259200}},
		{30 * 86400, 8, []float64{0, 5 * 86400, 10 * 86400, 15 * 86400, 20 * 86400, 25 * 86400, 30 * 86400}},
	} {
		got := newAxis(0, c.hi, 0, 100, false).timeTicks(c.n)
		if len(got) != len(c.want) {
			t.Errorf("0..%g s in %d: ticks %v, want %v", c.hi, c.n, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-9*math.Max(1, c.want[i]) {
				t.Errorf("0..%g s in %d: ticks %v, want %v", c.hi, c.n, got, c.want)
				break
			}
		}
	}
}

// A time axis counts in round times and keeps its labels in the frame:
// a 5 min cap gave ticks of 1 min 40 s and 3 min 20 s (1.67min and
// 3.33min before), and "3 min 20 s" began 8 units left of the chart.
func TestDelayChartTimeTicks(t *testing.T) {
	yTick := regexp.MustCompile(`<text class="tick" x="([0-9.]+)" y="[0-9.]+" text-anchor="end">([^<]*)</text>`)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"base=3s&cap=5m&attempts=10", []string{"0", "1 min", "2 min", "3 min", "4 min", "5 min"}},
		{"base=1s&cap=2m&attempts=8&jitter=none", []string{"0", "15s", "30s", "45s", "1 min", "1 min 15 s"}},
		{"base=1s&cap=30s", []string{"0", "5s", "10s", "15s", "20s"}},
	} {
		tb := table(t, c.q)
		svg, _ := Delays(i18n.En, DelaySeries{T: tb, S: SampleClients(tb.Policy, len(tb.Rows), 1)}, nil, false)
		var got []string
		for _, m := range yTick.FindAllStringSubmatch(svg, -1) {
			x, _ := strconv.ParseFloat(m[1], 64)
			label := strings.ReplaceAll(m[2], "\u00a0", " ")
			got = append(got, label)
			if w := 6.2 * float64(len([]rune(label))); x-w < 0 {
				t.Errorf("%q: %q spans x=%.0f..%.0f, left of the chart", c.q, label, x-w, x)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: y ticks %q, want %q", c.q, got, c.want)
		}
	}
}
