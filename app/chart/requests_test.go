package chart

import (
	"html"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// storm is the page's metastable scenario: 200 requests/s into 30 workers
// of 100 ms (300/s), a 1 s timeout, one retry, a 10 s stall at 20 s.
func storm(t *testing.T, set ...string) (sim.Config, *sim.Result) {
	t.Helper()
	c := sim.DefaultConfig()
	for i, kv := 0, append([]string{"attempts", "2", "traffic", "open:200", "duration", "2m", "server", "queue", "concurrency", "30",
		"service", "100ms", "timeout", "1s", "fault", "stall@20s-30s"}, set...); i+1 < len(kv); i += 2 {
		if err := c.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := sim.Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return c, r
}

func TestRequestSeriesOf(t *testing.T) {
	c, r := storm(t)
	s := RequestSeriesOf(c, r)
	sum := func(v []float64) (n float64) {
		for _, x := range v {
			n += x
		}
		return n
	}
	tt := r.Totals
	if s.Width != r.BucketWidth || s.Capacity != 300 || s.Workers != 30 || s.Timeout != 1 {
		t.Errorf("width %g capacity %g workers %g timeout %g; want %g, 300/s, 30, 1 s", s.Width, s.Capacity, s.Workers, s.Timeout, r.BucketWidth)
	}
	// A fleet's busy workers are every server's: the limit drawn was one
	// server's (5 of a fleet of 10 busy).
	fc, fr := storm(t, "servers", "2", "concurrency", "5")
	fs := RequestSeriesOf(fc, fr)
	if fs.Workers != 10 || slices.Max(fs.Busy) != 10 {
		t.Errorf("two servers of 5 workers: the limit at %g, busy up to %g; want 10 and 10", fs.Workers, slices.Max(fs.Busy))
	}
	if sum(s.Offered) != float64(tt.Requests) || sum(s.Calls) != float64(tt.Calls) || sum(s.Goodput) != float64(tt.Succeeded) {
		t.Errorf("sums: offered %g calls %g goodput %g; totals %d, %d, %d", sum(s.Offered), sum(s.Calls), sum(s.Goodput), tt.Requests, tt.Calls, tt.Succeeded)
	}
	if len(s.Faults) != 1 || s.Faults[0] != (Band{"stall", 20, 30}) {
		t.Errorf("faults %v, want the stall over 20-30 s", s.Faults)
	}
	// The storm: after the stall the calls stay near twice the requests,
	// over capacity, while goodput is near zero.
	k := int(60 / s.Width)
	if calls, good := s.Calls[k]/s.Width, s.Goodput[k]/s.Width; calls < 300 || good > 20 {
		t.Errorf("at 60 s: %g calls/s and %g successes/s; want over capacity and near none", calls, good)
	}
	// Re-binned past MaxBuckets, counts add up and the queue is the group's last.
	r2 := *r
	r2.Timeline = nil
	for range 3 {
		r2.Timeline = append(r2.Timeline, r.Timeline...)
	}
	for len(r2.Timeline) <= MaxBuckets {
		r2.Timeline = append(r2.Timeline, r2.Timeline...)
	}
	s2 := RequestSeriesOf(c, &r2)
	if len(s2.Offered) > MaxBuckets || sum(s2.Offered) != float64(len(r2.Timeline)/len(r.Timeline))*sum(s.Offered) {
		t.Errorf("re-binned: %d buckets, %g offered", len(s2.Offered), sum(s2.Offered))
	}
}

func TestRequestCharts(t *testing.T) {
	c, r := storm(t)
	s := RequestSeriesOf(c, r)
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		for which, want := range map[string][]string{
			ChartGoodput: {`class="goodput"`, `class="offered"`, `class="calls-line"`, `class="capacity"`, `class="outage"`, l.T("fault.stall")},
			ChartQueue:   {`class="queue"`, `class="busy"`, l.T("chart.workers")},
			ChartLatency: {`class="p99"`, `class="p50"`, l.F("chart.timeout", l.Seconds(1))},
		} {
			svg := RequestChart(l, which, s, 0, 0, which)
			wellFormed(t, svg)
			for _, w := range want {
				if !strings.Contains(svg, w) {
					t.Errorf("%s chart (%s) lacks %s", which, l.Code(), w)
				}
			}
		}
	}
	// The y axis fits the calls: the storm's peak is over capacity.
	if p := RequestPeak(ChartGoodput, s); p < 330 {
		t.Errorf("goodput chart's peak %g; want the calls' (over 330/s)", p)
	}
	// The herd's picture stays the herd's; a request-level run's is the stack.
	herd := sim.DefaultConfig()
	hr, _ := sim.Run(herd, 1)
	if got := RunImage(i18n.En, herd, hr, SeriesOf(herd, hr)); got != Herd(i18n.En, SeriesOf(herd, hr), 0, 0, HerdWide, i18n.En.T("chart.herd")) {
		t.Error("RunImage of the herd is not the herd chart")
	}
	stack := RunImage(i18n.En, c, r, Series{})
	wellFormed(t, stack)
	if strings.Count(stack, "<svg ") != 4 || !strings.Contains(stack, "Offered load") {
		t.Errorf("the stack has %d svgs, want 1 + 3", strings.Count(stack, "<svg "))
	}
}

// The busy workers have a scale of their own: in the storm thousands wait
// behind 30 workers, and on the queue's scale their line lay flat along
// the axis. On theirs, all 30 busy reach the workers' line, which sits a
// fifth below the plot's top (y 30) so that its label clears the title.
func TestQueueChartBusyScale(t *testing.T) {
	c, r := storm(t)
	s := RequestSeriesOf(c, r)
	if q := maxOf(s.Queue); q < 300 {
		t.Fatalf("the storm's queue peaks at %g; the test needs one far over the 30 workers", q)
	}
	svg := RequestChart(i18n.En, ChartQueue, s, 0, 0, "queue")
	_, rest, ok := strings.Cut(svg, `class="busy" d="`)
	if !ok {
		t.Fatal("no busy line")
	}
	d, _, _ := strings.Cut(rest, `"`)
	top := 1e9
	// The path is M x y, then V y and H x: read the ys.
	toks := strings.Fields(strings.NewReplacer("M", " M ", "V", " V ", "H", " H ", ",", " ").Replace(d))
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "M":
			top = min(top, atof(t, toks[i+2]))
		case "V":
			top = min(top, atof(t, toks[i+1]))
		}
	}
	// The workers' line, a fifth below the scale's top (40).
	_, rest, ok = strings.Cut(svg, `class="capacity" d="M`)
	if !ok {
		t.Fatal("no workers' line")
	}
	xy, _, _ := strings.Cut(rest, "H") // "M58 66H596"
	_, ys, _ := strings.Cut(xy, " ")
	limit := atof(t, ys)
	if math.Abs(top-limit) > 0.5 || limit < 30+0.2*130 {
		t.Errorf("the busy line's highest point is y %g, the workers' line at %g; with all 30 workers busy it should reach it, below the top (30)", top, limit)
	}
	for _, want := range []string{`class="tick busy-tick"`, ">30<", i18n.En.T("chart.busy-axis")} {
		if !strings.Contains(svg, want) {
			t.Errorf("the queue chart lacks %s", want)
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// The time axis's labels never run into each other, even at a phone's
// type size (phoneCharW a character): a two-minute run in Russian labels
// its ticks "1 мин 30 с", and eight of them (every 15 s) overlapped.
func TestRequestChartTicksApart(t *testing.T) {
	for _, secs := range []int{10, 60, 120, 300, 3600} {
		n := secs
		s := RequestSeries{Width: 1, Offered: make([]float64, n), Calls: make([]float64, n), Goodput: make([]float64, n),
			Queue: make([]float64, n), Busy: make([]float64, n), P50: make([]float64, n), P99: make([]float64, n)}
		for _, l := range i18n.Langs {
			svg := RequestChart(l, ChartGoodput, s, 0, 0, "x")
			ticks := regexp.MustCompile(`<text class="tick" x="([0-9.]+)" y="[0-9.]+" text-anchor="middle">([^<]*)</text>`).FindAllStringSubmatch(svg, -1)
			if len(ticks) < 3 {
				t.Errorf("%s, %d s: %d ticks, want at least 3", l.Code(), secs, len(ticks))
			}
			for i := 1; i < len(ticks); i++ {
				x0, _ := strconv.ParseFloat(ticks[i-1][1], 64)
				x1, _ := strconv.ParseFloat(ticks[i][1], 64)
				w0 := phoneCharW * float64(len([]rune(html.UnescapeString(ticks[i-1][2]))))
				w1 := phoneCharW * float64(len([]rune(html.UnescapeString(ticks[i][2]))))
				if x1-x0 < (w0+w1)/2 {
					t.Errorf("%s, %d s: ticks %q at %.0f and %q at %.0f overlap at a phone's type size", l.Code(), secs, ticks[i-1][2], x0, ticks[i][2], x1)
				}
			}
		}
	}
}

// The y axis's labels fit left of the plot as a phone draws them (21
// units, phoneCharW a character): "10 000" ran off the queue chart's
// left edge.
func TestRequestChartYLabelsFit(t *testing.T) {
	c, r := storm(t)
	s := RequestSeriesOf(c, r)
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		for _, which := range RequestCharts {
			svg := RequestChart(l, which, s, 0, 0, "x")
			n := 0
			for _, m := range regexp.MustCompile(`<text class="tick" x="([0-9.]+)" y="[0-9.]+" text-anchor="end">([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
				x := atof(t, m[1])
				if x > 320 {
					continue // the last time tick, at the right edge
				}
				n++
				if w := phoneCharW * float64(len([]rune(m[2]))); x-w < 0 {
					t.Errorf("%v %s: %q ends at x=%g, %g wide: off the edge", l, which, m[2], x, w)
				}
			}
			if n < 3 {
				t.Errorf("%v %s: %d y labels", l, which, n)
			}
		}
	}
}
