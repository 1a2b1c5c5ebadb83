package app

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// runFlow runs the flow view's run of the link query and traces it all.
func runFlow(t *testing.T, query string) (*sim.Flow, flowLayout, *state) {
	t.Helper()
	s, notes := parseQuery(query)
	if len(notes) > 0 {
		t.Fatalf("%s: %v", query, notes)
	}
	c := flowImageConfig(&s)
	sm, err := sim.New(c, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var rec sim.FlowRecorder
	sm.SetTracer(&rec)
	for !sm.Advance(1 << 20) {
	}
	r := sm.Result()
	f := rec.Flow(r.Totals.Makespan)
	return f, layoutOf(f, c, r), &s
}

// svgDot is one dot of an animated picture at one moment: its class and
// its centre.
type svgDot struct {
	class string
	x, y  float64
}

// framesOf reads an animated flow picture back: each frame's dots (the
// marks in their places at that frame's key time, those off the picture
// left out).
func framesOf(t *testing.T, svg string) [][]svgDot {
	t.Helper()
	type elem struct {
		class      string
		keys, vals []string
	}
	var els []*elem
	class := ""
	d := xml.NewDecoder(strings.NewReader(svg))
	dur := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch se.Name.Local {
		case "g":
			class = attr["class"]
		case "animateTransform":
			els = append(els, &elem{class, strings.Split(attr["keyTimes"], ";"), strings.Split(attr["values"], ";")})
			if dur != "" && attr["dur"] != dur {
				t.Fatalf("durations %s and %s: the dots would drift apart", dur, attr["dur"])
			}
			dur = attr["dur"]
		}
	}
	playS, err := strconv.ParseFloat(strings.TrimSuffix(dur, "s"), 64)
	if err != nil {
		t.Fatalf("dur %q", dur)
	}
	frames := int(math.Round(playS / flowSVGStep))
	out := make([][]svgDot, frames)
	for fr := range frames {
		key := strconv.FormatFloat(math.Round(float64(fr)/float64(frames)*1e4)/1e4, 'f', -1, 64)
		kf, _ := strconv.ParseFloat(key, 64)
		for _, e := range els {
			v := ""
			for i, k := range e.keys {
				if k == key {
					v = e.vals[i] // the last at this key: after a jump
				}
			}
			if v == "" {
				// Between two keys: off the picture at both.
				for i := 1; i < len(e.keys); i++ {
					a, _ := strconv.ParseFloat(e.keys[i-1], 64)
					b, _ := strconv.ParseFloat(e.keys[i], 64)
					if a < kf && kf < b && (e.vals[i-1] != flowOff || e.vals[i] != flowOff) {
						t.Fatalf("frame %d: a dot on its way between keys %v and %v", fr, a, b)
					}
				}
				continue
			}
			if v == flowOff {
				continue
			}
			var x, y float64
			fmt.Sscanf(v, "%g %g", &x, &y)
			out[fr] = append(out[fr], svgDot{e.class, x, y})
		}
	}
	return out
}

func sortDots(d []svgDot) {
	slices.SortFunc(d, func(a, b svgDot) int {
		if c := strings.Compare(a.class, b.class); c != 0 {
			return c
		}
		if a.x != b.x {
			return map[bool]int{true: -1, false: 1}[a.x < b.x]
		}
		return map[bool]int{true: -1, false: 1, a.y == b.y: 0}[a.y < b.y]
	})
}

// The animated picture shows at each of its frames exactly the dots the
// live view draws at that frame's time: every call in flight, in its
// place, as its mark.
func TestFlowAnimatedFrames(t *testing.T) {
	for _, q := range []string{
		"base=500ms&factor=2&cap=4s&attempts=4&jitter=full&clients=60&server=outage&outage-end=2s&seed=3",
		"attempts=4&growth=none&jitter=none&traffic=open:40&duration=8s&servers=2&server=queue&concurrency=3&service=100ms&service-dist=fixed&timeout=1s&fault=crash@2s-4s/1",
	} {
		f, g, _ := runFlow(t, q)
		svg, err := flowAnimated(i18n.En, f, g)
		if err != nil {
			t.Fatal(err)
		}
		frames := framesOf(t, svg)
		want := int(math.Ceil(math.Min(f.EndS, flowSVGSeconds)/flowSVGStep - 1e-9))
		if len(frames) != want {
			t.Errorf("%s: %d frames, want %d (the run's %.2f s)", q, len(frames), want, f.EndS)
		}
		at := make([]int, len(g.nodes))
		total := 0
		for fr, got := range frames {
			tm := float64(fr) * flowSVGStep
			var exp []svgDot
			flowPlace(f, g, at, f.InFlight(tm), tm, func(_, mark int, x, y float64) {
				exp = append(exp, svgDot{flowMarks[mark].class, x, y})
			})
			sortDots(got)
			sortDots(exp)
			if !slices.Equal(got, exp) {
				t.Fatalf("%s: frame %d (%.1f s): %d dots %v…, the view draws %d %v…", q, fr, tm, len(got), head(got), len(exp), head(exp))
			}
			total += len(exp)
		}
		if total < 100 {
			t.Errorf("%s: only %d dots in all: the check would prove little", q, total)
		}
	}
}

func head(d []svgDot) []svgDot { return d[:min(len(d), 3)] }

// A run too busy to draw whole plays fewer seconds, within the bounds,
// and says so; one too busy for its first frame is refused, saying how
// many calls it has at once.
func TestFlowAnimatedBounded(t *testing.T) {
	f, g, _ := runFlow(t, "attempts=3&jitter=full&traffic=open:1500&duration=30s&server=queue&concurrency=200&service=50ms&timeout=1s&seed=1")
	svg, err := flowAnimated(i18n.En, f, g)
	if err != nil {
		t.Fatal(err)
	}
	frames := framesOf(t, svg)
	dots, els := 0, strings.Count(svg, "<use ")
	for _, fr := range frames {
		dots += len(fr)
	}
	if dots > flowSVGSamples || els+strings.Count(svg, `class="flow-wait"`) > flowSVGElements {
		t.Errorf("%d dots, %d elements: past the bounds", dots, els)
	}
	if len(svg) > 2<<20 {
		t.Errorf("%d bytes", len(svg))
	}
	played := float64(len(frames)) * flowSVGStep
	if played >= math.Min(f.EndS, flowSVGSeconds) || !strings.Contains(svg, "the first "+i18n.En.Seconds(played)+" of a run of "+i18n.En.Seconds(f.EndS)) {
		t.Errorf("plays %.1f s of a %.1f s run and does not say so", played, f.EndS)
	}
	t.Logf("%d frames, %d dots, %d elements, %d bytes", len(frames), dots, els, len(svg))

	f, g, _ = runFlow(t, "base=100ms&factor=2&cap=2s&attempts=8&jitter=full&clients=20000&server=capacity&capacity=2000&seed=1")
	for _, l := range i18n.Langs {
		if _, err := flowAnimated(l, f, g); err == nil || !strings.Contains(sweepErrText(l, err), l.Int(20000)) {
			t.Errorf("%s: 20,000 calls at once: %v", l.Code(), err)
		}
	}
}

// A server's workers are drawn from the run's own timeline: busy at the
// end of the last bucket before the time drawn (none before the first:
// "5 of 5 busy" at 0 beside "in flight 0"), in the view and in the
// animated picture; a herd's server has none.
func TestFlowWorkers(t *testing.T) {
	q := "attempts=4&growth=none&jitter=none&traffic=open:40&duration=8s&servers=2&server=queue&concurrency=3&service=100ms&service-dist=fixed&timeout=1s&fault=crash@2s-4s/1"
	s, _ := parseQuery(q)
	c := flowImageConfig(&s)
	r, err := sim.Run(c, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	f, g, _ := runFlow(t, q)
	seen := 0
	for _, tm := range []float64{0, 0.5, 1.05, 2.5, 3.99, 6.3} {
		i := int(tm / r.BucketWidth)
		for k, n := range g.nodes {
			sk := slices.Index(c.ServerNodeNames(), n)
			got, ok := g.busyAt(k, tm)
			want := 0
			if i > 0 {
				want = r.Timeline[i-1].Servers[sk].Busy
			}
			if !ok || got != want {
				t.Errorf("%s at %.2f s: %d busy (%v), the timeline says %d", n, tm, got, ok, want)
			}
			seen += got
		}
	}
	if seen == 0 {
		t.Error("no worker busy at any time checked: the check proves nothing")
	}
	svg, err := flowAnimated(i18n.En, f, g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg, `id="flow-busy-1"`) || !strings.Contains(svg, `<animate attributeName="width" calcMode="discrete"`) {
		t.Error("the animated picture has no busy workers")
	}
	if text := flowText(i18n.En, f, g, 1); !strings.Contains(text, "Workers busy: ") {
		t.Errorf("the second's text says nothing of the workers: %s", text)
	}
	_, herd, _ := runFlow(t, "clients=50&server=outage&outage-end=1s")
	if _, ok := herd.busyAt(0, 0.5); ok {
		t.Error("a herd's server drawn with workers")
	}
}
