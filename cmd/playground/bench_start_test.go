//go:build benchserver && !wasm

// The start's CPU on the page's main thread against go-app's smallest
// program: run with `make bench-start` (part of `make bench`), which builds
// bin/playground and the floor (tmp/floor). CHROME_PATH names the browser
// (default Debian's /usr/bin/chromium), FLOOR_DIR the floor, START_RUNS the
// cold starts per page and screen (default 5; medians are printed),
// PLAYGROUND_BASE_BIN an older build of the server (`make bench-start
// LH_BASE=rev`), loaded in the same rounds.

package main

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// quietWatch runs before any page script: it keeps the end of the last
// long task (50 ms of wall time or more) the page had, so that a start is
// traced until it has been quiet for a second, as Lighthouse waits.
const quietWatch = `(() => { const w = window.__quiet = {last: 0};
  new PerformanceObserver(l => { for (const e of l.getEntries()) w.last = Math.max(w.last, e.startTime + e.duration); }).observe({type: 'longtask', buffered: true}); })()`

// quietNow says whether a start is over: the page loaded, the Go program
// at its first mount (backoff:render, which the floor's main marks too),
// and no long task for a second since. With app.wasm compiled in a worker
// the page's thread is quiet while it downloads: a second of quiet alone
// ended some traces before the program had started.
const quietNow = `document.readyState === 'complete' && performance.getEntriesByName('backoff:render', 'mark').length > 0 &&
  performance.now() - Math.max(window.__quiet.last, performance.getEntriesByName('backoff:render', 'mark')[0].startTime) > 1000`

// startScreens are the screens a start is measured on: a laptop's, whose
// tasks are counted as Lighthouse's desktop settings count them, and a
// phone's, counted as its mobile settings do (the CPU 4x slower).
var startScreens = []struct {
	name     string
	w, h     int64
	mobile   bool
	slowdown float64
}{{"desktop", 1350, 940, false, 1}, {"mobile", 412, 823, true, 4}}

// BenchmarkStartCPU loads each page cold (a new browser profile: no cache,
// no service worker) in one headless Chromium, traces the start until the
// Go program has mounted its page and the page has been quiet for a second
// (quietNow), and reads its main thread's tasks in
// CPU time (the thread's own clock), which a neighbour's load on a shared
// machine lengthens far less than the wall time Lighthouse reads: the
// blocking time (what each task held the thread past 50 ms, summed; on the
// phone's screen each task counted 4x, as Lighthouse's mobile settings
// simulate) and the longest task, against the slim floor's in the same
// rounds. The longest task of the median start is cut at the marks on the
// page's timeline: app.js's (backoff:compiled, backoff:instantiated,
// backoff:run, Go's start) and the Go program's (the floor's:
// backoff:main when its packages' init has run, backoff:render before
// go-app's first mount; the playground's own besides).
func BenchmarkStartCPU(b *testing.B) {
	chrome := chromePath(b)
	pages := benchPages(b, lhPage{"floor slim", startFloorSlim(b, filepath.Join(floorDirOf(b, "bench-start"), "slim")), true, ""})
	runs := envInt("START_RUNS", 5)
	browser, stop := headlessChromium(b, chrome)
	defer stop()
	if err := chromedp.Do(browser); err != nil {
		b.Fatalf("starting Chromium: %v", err)
	}

	type key struct{ page, screen string }
	results := map[key][]startTrace{}
	fmt.Printf("\nthe start's main thread in CPU time, %d cold loads per page and screen (Chromium %s, headless), one at a time, interleaved\n", runs, chrome)
	for range runs {
		for _, pg := range pages {
			for _, sc := range startScreens {
				st := coldStart(b, browser, pg.url, sc.w, sc.h, sc.mobile)
				results[key{pg.name, sc.name}] = append(results[key{pg.name, sc.name}], st)
				fmt.Printf("  %-16s %-8s blocking %6.0f ms  longest task %5.1f ms of CPU  load %s\n",
					pg.name, sc.name, st.blockingAt(sc.slowdown), st.longest, uptimeLoad())
			}
		}
	}
	for range b.N {
	}
	// medianOf gives the start of median blocking time and its figures.
	medianOf := func(name string, sc int) (startTrace, float64, float64) {
		rs := slices.Clone(results[key{name, startScreens[sc].name}])
		slices.SortFunc(rs, func(a, b startTrace) int {
			return cmp.Compare(a.blockingAt(startScreens[sc].slowdown), b.blockingAt(startScreens[sc].slowdown))
		})
		longest := make([]float64, len(rs))
		for i, r := range rs {
			longest[i] = r.longest
		}
		slices.Sort(longest)
		mid := rs[len(rs)/2]
		return mid, mid.blockingAt(startScreens[sc].slowdown), longest[len(longest)/2]
	}
	fmt.Printf("\nmedians of %d loads, ms of CPU; x floor and + floor: blocking time over the slim floor's and past it; + floor (longest): the longest task minus the floor's\n", runs)
	fmt.Printf("%-16s %-8s %12s %8s %9s %11s %9s\n", "page", "screen", "blocking ms", "x floor", "+ floor", "longest ms", "+ floor")
	for sc, screen := range startScreens {
		_, fb, fl := medianOf("floor slim", sc)
		for _, pg := range pages {
			_, bl, lo := medianOf(pg.name, sc)
			ratio := tbtRatio(bl, fb)
			fmt.Printf("%-16s %-8s %12.0f %8s %+9.0f %11.1f %+9.1f\n", pg.name, screen.name, bl, fmtRatio(ratio), bl-fb, lo, lo-fl)
			name := strings.Trim(strings.NewReplacer("/", "-", "?", "", "=", "-", " ", "-").Replace(pg.name), "-")
			if name == "" || name == "base" {
				name += "-root"
			}
			b.ReportMetric(bl, name+"-"+screen.name+"-blocking-cpu-ms")
			if !pg.floor {
				b.ReportMetric(ratio, name+"-"+screen.name+"-blocking-x-floor")
			}
		}
	}
	mid, _, _ := medianOf("floor slim", 0)
	fmt.Printf("\nthe slim floor's median start (laptop): its main thread's tasks over 10 ms of CPU, in order\n")
	for _, tk := range mid.tasks {
		fmt.Printf("  %6.1f ms of CPU (%5.1f compiling %d functions on first call): %s\n", tk.cpu, tk.lazy, tk.compiled, tk.phase)
	}
	fmt.Printf("\nthe tasks that count on a phone (over %.1f ms of CPU, 50 ms at 4x) of each page's median start there, in order: ms of CPU (of which compiling WebAssembly on first call), what it held\n", 50/startScreens[1].slowdown)
	for _, pg := range pages {
		mid, _, _ := medianOf(pg.name, 1)
		fmt.Printf("  %s\n", pg.name)
		for _, tk := range mid.tasks {
			if tk.cpu*startScreens[1].slowdown > 50 {
				fmt.Printf("    %6.1f (%5.1f): %s\n", tk.cpu, tk.lazy, tk.phase)
			}
		}
	}
	fmt.Printf("\nthe longest task of each page's median start (laptop), cut at the marks on its timeline: ms of CPU up to each mark (of which compiling WebAssembly on first call)\n")
	for _, pg := range pages {
		mid, _, _ := medianOf(pg.name, 0)
		var steps []string
		for _, s := range mid.longestSteps {
			if s.cpu < 0.5 && s.lazy < 0.5 {
				continue
			}
			steps = append(steps, fmt.Sprintf("%s %.1f (%.1f)", s.until, s.cpu, s.lazy))
		}
		fmt.Printf("  %-16s %5.1f ms: %s\n", pg.name, mid.longest, strings.Join(steps, ", "))
	}
}

// coldStart loads url in a new browser context (no cache, no service
// worker) on a w x h screen and traces its start until it is over
// (quietNow), 30 s at most.
func coldStart(b *testing.B, browser context.Context, url string, w, h int64, mobile bool) startTrace {
	b.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	emulate := chromedp.EmulateViewport(w, h)
	if mobile {
		emulate = chromedp.EmulateViewport(w, h, chromedp.EmulateScale(1.75), chromedp.EmulateMobile)
	}
	if err := chromedp.Do(ctx, emulate); err != nil {
		b.Fatalf("%s: %v", url, err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: quietWatch}); err != nil {
		b.Fatal(err)
	}
	stop := traceIn(b, ctx, startCategories...)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		b.Fatalf("%s: %v", url, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		quiet, err := chromedp.Run(ctx, chromedp.Evaluate[bool](quietNow))
		if err != nil {
			b.Fatalf("%s: %v", url, err)
		}
		if quiet {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s: not quiet 30 s after its load", url)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return startTasksOf(stop())
}
