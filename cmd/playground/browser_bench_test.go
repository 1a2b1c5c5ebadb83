//go:build browser && !wasm

package main

import (
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/web"
)

// The browser benchmarks measure fixed samples, whatever b.N is: run them
// with -benchtime 1x (make bench-browser does). Each prints a summary line
// and reports its figures as benchmark metrics.

// wireLimit is the budget for app.wasm over the wire (brotli): 1.75 MB.
const wireLimit = 1_750_000

func BenchmarkBrowserWasmSize(b *testing.B) {
	sizes := map[string]int64{}
	for _, name := range []string{"app.wasm", "app.wasm.gz", "app.wasm.br"} {
		st, err := fs.Stat(web.FS, name)
		if err != nil {
			b.Fatalf("%s: %v (run make wasm)", name, err)
		}
		sizes[name] = st.Size()
	}
	for range b.N {
	}
	b.ReportMetric(float64(sizes["app.wasm"]), "raw-bytes")
	b.ReportMetric(float64(sizes["app.wasm.gz"]), "gzip-bytes")
	b.ReportMetric(float64(sizes["app.wasm.br"]), "brotli-bytes")
	fmt.Printf("app.wasm: raw %s, gzip -9 %s, brotli -q 11 %s (budget over the wire %s)\n",
		mb(sizes["app.wasm"]), mb(sizes["app.wasm.gz"]), mb(sizes["app.wasm.br"]), mb(wireLimit))
	if over := sizes["app.wasm.br"] - wireLimit; over > 0 {
		fmt.Printf("app.wasm: OVER the budget by %d bytes (TestBrowserWasmBudget fails)\n", over)
	}
}

func mb(n int64) string { return strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64) + " MB" }

// BenchmarkBrowserTimeToInteractive loads the default page in a fresh
// browser context (empty cache, no service worker: a first visit), then
// again in the same context (the worker's cache), and reports the time from
// navigation start until go-app has mounted the app (its loader is removed:
// event handlers are live), checked by one slider move.
func BenchmarkBrowserTimeToInteractive(b *testing.B) {
	const samples = 7
	var cold, warm, fetched []float64
	for range samples {
		tb := newTab(b, 1280, 900, chromedp.WithNewBrowserContext())
		cold = append(cold, tb.open(b, ""))
		// When the page's own fetch of app.wasm ended (the loader streams
		// it into the compiler, so compiling overlaps the download).
		fetched = append(fetched, eval[float64](b, tb, `(performance.getEntriesByType('resource').find(e => e.name.endsWith('/web/app.wasm')) || {responseEnd: 0}).responseEnd`))
		// The worker installs after the first load; wait for it to control.
		poll[bool](b, tb, "the service worker", `navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))`)
		warm = append(warm, tb.open(b, ""))
		eval[string](b, tb, setRangeJS("attempts", "4"))
		poll[bool](b, tb, "the page to answer a slider", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	}
	for range b.N {
	}
	cm, cp := stats(cold)
	wm, wp := stats(warm)
	fm, _ := stats(fetched)
	b.ReportMetric(cm, "cold-median-ms")
	b.ReportMetric(cp, "cold-max-ms")
	b.ReportMetric(wm, "warm-median-ms")
	b.ReportMetric(fm, "wasm-fetched-median-ms")
	fmt.Printf("time to interactive on loopback, %d loads: first visit median %.0f ms (max %.0f; app.wasm fetched at %.0f ms), cached by the worker median %.0f ms (max %.0f); target < 1500 ms\n",
		samples, cm, cp, fm, wm, wp)
}

// moveJS moves a range input to each position in turn, as a dragged slider
// fires input events, and times each move until the delay table and the
// herd chart both show the new state (the herd run finished), then until
// the next animation frame (the repaint); it also notes when the table alone
// changed. Between moves it idles, so compare runs may still be going, as
// they are for a user. It also reports the longest task that held the main
// thread (Long Tasks API: tasks over 50 ms), the page's worst freeze.
const moveJS = `async (id, positions, idleMs) => {
  const el = document.getElementById(id);
  const out = [];
  const long = [];
  const lo = new PerformanceObserver(list => { for (const e of list.getEntries()) long.push(e.duration); });
  lo.observe({type: 'longtask'});
  const frame = () => new Promise(r => requestAnimationFrame(r));
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  for (const pos of positions) {
    const body = () => document.querySelector('#delay-table tbody');
    const tableBefore = body() ? body().textContent : '';
    const herdBefore = document.querySelector('#herd-chart svg');
    const done = () => {
      const p = document.getElementById('herd-progress');
      const h = document.querySelector('#herd-chart svg');
      return body() && body().textContent !== tableBefore && h && h !== herdBefore && (!p || p.hidden);
    };
    let tDom = 0, tTable = 0;
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => { mo.disconnect(); reject(new Error('no repaint within 30 s at position ' + pos)); }, 30000);
      const mo = new MutationObserver(() => {
        if (!tTable && body() && body().textContent !== tableBefore) tTable = performance.now();
        if (done()) { tDom = performance.now(); mo.disconnect(); clearTimeout(timer); resolve(); }
      });
      mo.observe(document.body, {childList: true, subtree: true, attributes: true, characterData: true});
      el.value = String(pos);
      el.dispatchEvent(new Event('input', {bubbles: true}));
    });
    await frame();
    out.push([tDom - t0, performance.now() - t0, tTable - t0]);
    await sleep(idleMs);
  }
  lo.disconnect();
  return {moves: out, longest: Math.max(0, ...long), long: long.length};
}`

// BenchmarkBrowserSliderRepaint moves the base slider back and forth with
// a herd of 1,000, 100,000 and 1,000,000 clients.
func BenchmarkBrowserSliderRepaint(b *testing.B) {
	for _, tc := range []struct {
		clients, moves int
	}{{1000, 41}, {100_000, 11}, {1_000_000, 4}} {
		b.Run(fmt.Sprintf("clients=%d", tc.clients), func(b *testing.B) {
			tb := newTab(b, 1280, 900)
			tb.open(b, fmt.Sprintf("clients=%d", tc.clients))
			poll[bool](b, tb, "the first herd run", `(() => { const p = document.getElementById('herd-progress');
			  return !!document.querySelector('#herd-chart svg') && (!p || p.hidden); })()`)
			start := eval[int](b, tb, `Number(document.getElementById('base').value)`)
			positions := make([]int, tc.moves)
			for i := range positions {
				positions[i] = start + 30*((i+1)%2) // 1 s and about 1.4 s, alternately
			}
			js := fmt.Sprintf(`(%s)('base', %s, 300)`, moveJS, intsJS(positions))
			out, err := chromedp.Run(tb.ctx, chromedp.Evaluate[moveResult](js, chromedp.EvalAwaitPromise))
			if err != nil {
				b.Fatalf("moving the slider: %v\n%s", err, tb.messages())
			}
			res := out.Moves[1:] // the first move warms up the code paths
			var dom, paint, table []float64
			for _, r := range res {
				dom = append(dom, r[0])
				paint = append(paint, r[1])
				table = append(table, r[2])
			}
			for range b.N {
			}
			pm, pp := percentiles(paint)
			dm, dp := percentiles(dom)
			tm, tp := percentiles(table)
			b.ReportMetric(pm, "median-ms")
			b.ReportMetric(pp, "p95-ms")
			b.ReportMetric(tm, "table-median-ms")
			b.ReportMetric(out.Longest, "longest-task-ms")
			fmt.Printf("slider to repaint, %d clients, %d moves: median %.1f ms, p95 %.1f ms (table and herd in the DOM: median %.1f, p95 %.1f; the table alone: median %.1f, p95 %.1f); longest main-thread task %.0f ms (%d over 50 ms)\n",
				tc.clients, len(paint), pm, pp, dm, dp, tm, tp, out.Longest, out.Long)
			if p := tb.problems(b); len(p) > 0 {
				b.Errorf("problems: %v", p)
			}
		})
	}
}

// moveResult is what moveJS returns: per move [DOM updated, next frame,
// table changed] in ms after the input event, and the long tasks seen.
type moveResult struct {
	Moves   [][3]float64 `json:"moves"`
	Longest float64      `json:"longest"`
	Long    int          `json:"long"`
}

func intsJS(v []int) string {
	s := "["
	for i, n := range v {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(n)
	}
	return s + "]"
}

// stats returns the median and the maximum.
func stats(v []float64) (median, maximum float64) {
	m, _ := percentiles(v)
	return m, slices.Max(v)
}

// percentiles returns the median and the 95th percentile (nearest rank).
func percentiles(v []float64) (p50, p95 float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return rank(0.5), rank(0.95)
}
