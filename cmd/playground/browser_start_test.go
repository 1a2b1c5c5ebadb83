//go:build browser && !wasm

package main

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// startWatch runs before any page script: it records the main thread's long
// tasks (over 50 ms), the layout shifts not caused by input, and each
// <main> the page shows with its class (the first is the server's, the next
// the app's), so a test can tell which pages a start drew.
const startWatch = `(() => {
  const w = window.__start = {tasks: [], shifts: [], sources: [], mains: []};
  new PerformanceObserver(l => { for (const e of l.getEntries()) w.tasks.push(e.duration); }).observe({type: 'longtask', buffered: true});
  const name = n => !n ? '?' : n.nodeType !== 1 ? '#text in ' + name(n.parentElement) : n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (n.className && typeof n.className === 'string' ? '.' + n.className.trim().split(/\s+/).join('.') : '');
  const rect = r => [r.x, r.y, r.width, r.height].map(Math.round).join(',');
  new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) {
    w.shifts.push(e.value);
    w.sources.push(Math.round(performance.now()) + ' ms, ' + e.value.toFixed(4) + ': ' + (e.sources || []).map(s => name(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect)).join('; '));
  } }).observe({type: 'layout-shift', buffered: true});
  const seen = new WeakSet();
  new MutationObserver(() => {
    for (const m of document.querySelectorAll('main')) if (!seen.has(m)) { seen.add(m); w.mains.push(m.className); }
  }).observe(document, {childList: true, subtree: true});
})()`

// startTaskCPUBound bounds the CPU time of the start's longest task on the
// page's main thread (Chromium's trace: a task's thread time, which a
// neighbour's load on the shared machine lengthens far less than its wall
// time). Before the start was drawn in slices it was 408-489 ms (one task
// ran the Go program and drew the page; its wall time 1.7-3.4 s at a load
// of 10-15 on 2 cores); after, 175-213 ms at a load of 3-6 and up to 412 ms
// at 15. The bound is loose for CI: the pages shown and the layout shift
// are what fail on the old start.
const startTaskCPUBound = 450.0

// startCompiledBound is how many WebAssembly functions V8 may compile on
// the page's thread on their first call in a start the worker warmed.
const startCompiledBound = 800

// startCLSBound is the layout shift a start may cause (Lighthouse's goal on
// its mobile settings).
const startCLSBound = 0.02

type startFigures struct {
	Tasks  []float64 `json:"tasks"`
	Shifts []float64 `json:"shifts"`
	// Sources: each shift's time, value and the elements that moved (their
	// rectangles before and after), so a failing run says what moved.
	Sources []string `json:"sources"`
	Mains   []string `json:"mains"`
}

// A cold start of the page, a lesson and a view, on a laptop's screen and a
// phone's: the app draws the linked page from its first render (never the
// whole page first, which the lesson or view then replaced), nothing moves
// (the server sends the same page; the herd's chart keeps its place), and
// no task of the start holds the main thread long (the page's parts below
// its first screen come one task each).
func TestBrowserStartSlices(t *testing.T) {
	// The playground's count of functions compiled on the page's thread,
	// per screen, which a lesson's start (its page is smaller) stays
	// within.
	pageCompiled := map[int64]int{}
	for _, tc := range []struct {
		query, main, whole string // main: the class of the page's <main>; whole: true once every part is drawn
	}{
		{"", "playground", `!document.querySelector('[aria-busy=true]') && !!document.querySelector('#herd-chart svg') && !!document.querySelector('.herd-controls') && !!document.getElementById('classify-verdict')`},
		{"lesson=1", "playground lessons", `!!document.querySelector('#lesson-title:not(.pending)') && document.querySelectorAll('#delay-table tbody tr').length === 5`},
		{"view=herd", "playground embed view-herd", `!!document.querySelector('#herd-chart svg') && !!document.getElementById('herd-status').textContent`},
	} {
		for _, size := range []struct{ w, h int64 }{{1350, 940}, {412, 823}} {
			name := tc.query
			if name == "" {
				name = "page"
			}
			t.Run(fmt.Sprintf("%s/%dx%d", name, size.w, size.h), func(t *testing.T) {
				// The CPU time of a task still grows with a neighbour's load
				// on the shared machine: the bound holds the least of up to
				// three cold starts; the other checks hold the last one.
				var tb *tab
				var f startFigures
				var onMain []string
				var tasks []startTask
				var compiled int
				cpu := 0.0
				for try := 1; try <= 3; try++ {
					tb = newTab(t, size.w, size.h, chromedp.WithNewBrowserContext())
					if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: startWatch}); err != nil {
						t.Fatal(err)
					}
					stopTrace := traceTasks(t, tb)
					tb.open(t, tc.query)
					poll[bool](t, tb, "the whole page", tc.whole)
					// A frame and a pause for shifts and tasks to be reported.
					eval[bool](t, tb, `new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 300)))`)
					st := stopTrace()
					c := st.longest
					onMain, tasks, compiled = st.onMain, st.tasks, st.compiled
					var b strings.Builder
					for _, tk := range tasks {
						fmt.Fprintf(&b, "\n  %6.1f ms of CPU (%6.1f wall, %5.1f compiling %d functions on first call): %s", tk.cpu, tk.wall, tk.lazy, tk.compiled, tk.phase)
					}
					t.Logf("try %d: the start's tasks over 10 ms of CPU and those that end a step or hold a part, in order:%s", try, b.String())
					f = eval[startFigures](t, tb, `window.__start`)
					if try == 1 || c < cpu {
						cpu = c
					}
					if cpu <= startTaskCPUBound {
						break
					}
					t.Logf("try %d: longest task %.0f ms of CPU; starting again", try, c)
				}
				longest, cls := 0.0, 0.0
				for _, d := range f.Tasks {
					longest = max(longest, d)
				}
				for _, v := range f.Shifts {
					cls += v
				}
				t.Logf("%s at %dx%d: longest task %.0f ms of CPU (trace), %.0f ms of wall time (%d long tasks); %d functions compiled on first call; layout shift %.4f; pages shown %q",
					name, size.w, size.h, cpu, longest, len(f.Tasks), compiled, cls, f.Mains)
				// The first render is rehearsed before the mount, in tasks of its
				// own, so that the mount's task does not compile the render.
				if n := eval[int](t, tb, `performance.getEntriesByName('backoff:rehearse', 'mark').filter(m => m.startTime < performance.getEntriesByName('backoff:render', 'mark')[0].startTime).length`); n < 1 {
					t.Errorf("no rehearsal of the first render before it: %d parts rehearsed", n)
				}
				for _, m := range f.Mains {
					if m != tc.main {
						t.Errorf("the start showed <main class=%q>, want only %q (the linked page from the first render)", m, tc.main)
					}
				}
				// The program's steps before its first render are tasks of
				// their own, each ended by its mark.
				seen := map[string]bool{}
				for _, tk := range tasks {
					if len(tk.steps) > 1 {
						t.Errorf("one task of %.0f ms of CPU held the steps %v, want one a task", tk.cpu, tk.steps)
					}
					for _, s := range tk.steps {
						seen[s] = true
					}
				}
				for _, s := range startSteps {
					if !seen[s] {
						t.Errorf("no task of the start ended with the step %s", s)
					}
				}
				// A first visit's app.wasm is fetched and compiled by a worker
				// (app.js's inWorker): on the page's thread its bytes' arrival
				// and the compiler's steps were tasks of 10-50 ms each, and its
				// response's end 80 ms of CPU with the browser's developer
				// tools attached (as Lighthouse is), which copy the response.
				if len(onMain) > 0 {
					t.Errorf("app.wasm loaded on the page's main thread: %v, want none (a worker fetches and compiles it)", onMain)
				}
				// The worker runs the program's start and the page's first
				// render and mount before the page does (Warm), so the page's
				// thread finds their functions compiled: 1,900-2,900 compiled
				// there on their first call when it ran them first, 150-240
				// after the warming.
				if w := eval[bool](t, tb, `window.backoffWarmed === true`); !w || compiled > startCompiledBound {
					t.Errorf("the worker warmed the program: %v; %d functions compiled on the page's thread, want <= %d", w, compiled, startCompiledBound)
				}
				// The page carries a lesson's text, and hands it to the worker,
				// whose warming then draws the lesson whole: without it, 230
				// functions compiled here on a lesson's start, against the
				// playground's 213-218.
				switch tc.query {
				case "":
					pageCompiled[size.w] = compiled
				case "lesson=1":
					if most := pageCompiled[size.w]; most > 0 && compiled > most {
						t.Errorf("a lesson's start compiled %d functions on the page's thread, more than the playground's %d: the worker warmed it without its text?", compiled, most)
					}
				}
				if cls > startCLSBound {
					t.Errorf("layout shift %.4f, want <= %.2f; the shifts:\n  %s", cls, startCLSBound, strings.Join(f.Sources, "\n  "))
				}
				if cpu > startTaskCPUBound {
					t.Errorf("longest task of the start %.0f ms of CPU, want <= %.0f ms", cpu, startTaskCPUBound)
				}
				if p := tb.problems(t); len(p) > 0 {
					t.Errorf("console problems: %s", strings.Join(p, "; "))
				}
			})
		}
	}
}

// The page's background runs (the herd's further runs, the compare panel's)
// go on after each pause in a task of their own: a run's chunk never
// lengthens a part's mount or another run's task. Sleeping on a Go timer,
// a chunk due while the program drew a part ran in that part's task.
func TestBrowserBackgroundRunsOwnTasks(t *testing.T) {
	tb := newTab(t, 1350, 940, chromedp.WithNewBrowserContext())
	stop := traceTasks(t, tb)
	// Three runs and a second policy: the herd's further runs and the
	// compare panel's go on in the background beside the start's parts.
	tb.open(t, "runs=3&b.preset=gax")
	poll[bool](t, tb, "the runs", settledJS+` && !!document.getElementById('classify-verdict')`)
	eval[bool](t, tb, `new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 300)))`)
	st := stop()
	resumes := 0
	for _, tk := range st.tasks {
		resumes += tk.resumes
		if tk.resumes > 1 || tk.resumes > 0 && tk.parts > 0 {
			t.Errorf("a task of %.1f ms of CPU holds %d background resumptions and %d of the start's parts, want one or the other", tk.cpu, tk.resumes, tk.parts)
		}
	}
	if resumes < 5 {
		t.Errorf("%d background resumptions in the trace, want the runs' pauses (5 or more)", resumes)
	}
	t.Logf("%d resumptions", resumes)
}

// Where there is no worker to compile app.wasm (or it fails), the page
// compiles the module itself, and starts as ever.
func TestBrowserStartWithoutWorker(t *testing.T) {
	tb := newTab(t, 1350, 940, chromedp.WithNewBrowserContext())
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `Object.defineProperty(window, 'Worker', {value: undefined})`}); err != nil {
		t.Fatal(err)
	}
	stopTrace := traceTasks(t, tb)
	tb.open(t, "")
	poll[bool](t, tb, "the herd's chart", `!!document.querySelector('#herd-chart svg') && !!document.getElementById('herd-status').textContent`)
	if on := stopTrace().onMain; !slices.Contains(on, "wasm.FinishStreaming") {
		t.Errorf("app.wasm's loading on the page's thread: %v, want its compile there (no worker)", on)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("console problems: %s", strings.Join(p, "; "))
	}
}

// On a slow CPU (Chromium's throttling, 6x) each part of the start still
// comes in a task of its own: the herd's run, each part's rehearsal and
// each part's mount. (Chained by a Go timer instead, a part's timer was due
// before the program paused, and the runtime ran the next part in the same
// task.)
func TestBrowserStartPartsApart(t *testing.T) {
	tb := newTab(t, 1350, 2400, chromedp.WithNewBrowserContext())
	if _, err := chromedp.Call(tb.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 6}); err != nil {
		t.Fatal(err)
	}
	stopTrace := traceTasks(t, tb)
	tb.open(t, "")
	poll[bool](t, tb, "the whole page", `!document.querySelector('[aria-busy=true]') && !!document.getElementById('classify-verdict')`)
	eval[bool](t, tb, `new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 300)))`)
	tasks := stopTrace().tasks
	marks := 0
	for _, tk := range tasks {
		marks += tk.parts
		if tk.parts > 1 {
			t.Errorf("one task of %.0f ms of CPU held %d of the start's parts (%s), want one a task", tk.cpu, tk.parts, tk.phase)
		}
	}
	// The table is a part of the first screen here; the herd's run, then
	// five parts (the herd's card, its controls, the charts, the compare
	// panel, the classify panel), each rehearsed in a task before its own.
	if marks < 11 {
		t.Errorf("%d marks of the start's parts, want the herd's run and five parts, each rehearsed (11)", marks)
	}
	rehearsed, mounted := eval[int](t, tb, `performance.getEntriesByName('backoff:rehearse-part', 'mark').length`), eval[int](t, tb, `performance.getEntriesByName('backoff:part', 'mark').length`)
	if rehearsed != mounted {
		t.Errorf("%d parts rehearsed, %d mounted: want each rehearsed once before its mount", rehearsed, mounted)
	}
}

// The parts of the page below its first screen wait for the reader. On a
// phone the first screen is the policy's controls: the table, the herd's
// card and its run wait until the reader scrolls; on a laptop the table
// and the herd (run and card) come at once, and the parts below them
// after restIdle (four seconds) with no event at all.
func TestBrowserStartWaitsForTheReader(t *testing.T) {
	// Each reading says how long after the mount it was taken: past 3.5 s
	// the parts may have come after restIdle, and a loaded machine's
	// reading says nothing about the wait.
	const state = `(() => { const busy = s => !!document.querySelector('main ' + s + '[aria-busy=true]');
	  return {table: busy('.card.delays'), herd: busy('.card.herd'), charts: busy('.card.delay-charts'),
	    ran: !!(document.getElementById('herd-status') || {}).textContent, ms: performance.now() - window.__pg.mountedAt}; })()`
	type parts struct{ Table, Herd, Charts, Ran bool }
	type reading struct {
		parts
		Ms float64
	}
	const late = 3500.0
	open := func(w, h int64) *tab {
		tb := newTab(t, w, h)
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(env.url)); err != nil {
			t.Fatal(err)
		}
		poll[bool](t, tb, "the mount", `!!(window.__pg && window.__pg.mountedAt)`)
		return tb
	}
	phone := open(412, 823)
	eval[bool](t, phone, `new Promise(r => setTimeout(() => r(true), 700))`)
	switch got := eval[reading](t, phone, state); {
	case got.Ms > late:
		t.Logf("a phone's reading came %.0f ms after the mount: the wait is not checked", got.Ms)
	case got.parts != (parts{Table: true, Herd: true, Charts: true}):
		t.Errorf("a phone, %.0f ms after the mount, without scrolling: %+v, want the table, the herd and the charts waiting and no run", got.Ms, got.parts)
	}
	if _, err := chromedp.Call(phone.ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel, X: 200, Y: 400, DeltaX: 0.5, DeltaY: 600}); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, phone, "the whole page after a scroll", `!document.querySelector('main [aria-busy=true]') && !!(document.getElementById('herd-status') || {}).textContent`)

	laptop := open(1350, 940)
	poll[bool](t, laptop, "the table and the herd, drawn and run", `!document.querySelector('main .card.delays[aria-busy=true], main .card.herd[aria-busy=true]') && !!(document.getElementById('herd-status') || {}).textContent`)
	switch got := eval[reading](t, laptop, state); {
	case got.Ms > late:
		t.Logf("a laptop's reading came %.0f ms after the mount: the wait is not checked", got.Ms)
	case !got.Charts:
		t.Errorf("a laptop, %.0f ms after the mount, with no event: the delay charts are drawn, want them waiting", got.Ms)
	}
	poll[bool](t, laptop, "the whole page four seconds on, with no event", `!document.querySelector('main [aria-busy=true]')`)
}

// traceLongest records the largest CPU time (thread time, ms) of one task
// on a renderer's main thread from now until the returned func is called,
// of the tasks that start after the page's mark after (its performance
// timeline's; every task when after is ""). It traces Chromium's
// top-level tasks (and the marks) only: the timeline's categories took the
// trace service about 0.3 s of CPU in 2.5 s of the flow's play, load the
// test itself laid beside the frames it measured.
func traceLongest(t *testing.T, tb *tab, after string) func() float64 {
	categories := []string{"toplevel"}
	if after != "" {
		categories = append(categories, "blink.user_timing")
	}
	stop := trace(t, tb, categories...)
	return func() float64 {
		evs, main := stop()
		from := math.Inf(-1)
		if after != "" {
			from = math.Inf(1)
			for _, e := range evs {
				if e.Cat == "blink.user_timing" && e.Name == after {
					from = min(from, e.Ts)
				}
			}
			if math.IsInf(from, 1) {
				t.Fatalf("the trace has no mark %s", after)
			}
		}
		longest := 0.0
		for _, e := range evs {
			if e.Name == "ThreadControllerImpl::RunTask" && e.Ph == "X" && main[[2]int{e.Pid, e.Tid}] && e.Ts >= from {
				longest = max(longest, e.Tdur/1000)
			}
		}
		return longest
	}
}

// traceTasks records Chromium's trace of a start from now until the
// returned func is called, which gives the largest CPU time (thread time,
// ms) of one task on a renderer's main thread, the start's tasks over 10 ms
// of CPU, in order, and what of app.wasm's loading was on a main thread
// (wasmOnMain).
func traceTasks(t *testing.T, tb *tab) func() startTrace {
	t.Helper()
	stop := trace(t, tb, startCategories...)
	return func() startTrace { return startTasksOf(stop()) }
}

// trace records Chromium's trace of categories in tb from now until the
// returned func is called (traceIn).
func trace(t *testing.T, tb *tab, categories ...string) func() ([]traceEvent, map[[2]int]bool) {
	t.Helper()
	return traceIn(t, tb.ctx, categories...)
}

// On a first visit app.js hands app.wasm to the compiler in slices of at
// most 128 KiB, a task each (the browser consumes a streamed module's bytes
// on the main thread, and a large chunk was a long task): a 300 KiB chunk
// arrives as three slices, whole and in order, and a task queued before the
// first slice runs before it, another queued then runs before the second.
func TestBrowserWasmSlices(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "view=table")
	type result struct {
		Sizes  []int    `json:"sizes"`
		Intact bool     `json:"intact"`
		Order  []string `json:"order"`
	}
	got := eval[result](t, tb, `(async () => {
  const n = 300 << 10, src = new Uint8Array(n);
  for (let i = 0; i < n; i++) src[i] = i * 7 % 251;
  const order = [], ch = new MessageChannel();
  let tasks = 0;
  ch.port1.onmessage = () => { order.push('task'); if (++tasks < 2) ch.port2.postMessage(0); };
  const reader = slices(new ReadableStream({start(c) { c.enqueue(src); c.close(); }})).getReader();
  ch.port2.postMessage(0);
  const sizes = [], parts = [];
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    order.push('slice');
    sizes.push(value.length);
    parts.push(value);
  }
  const all = new Uint8Array(await new Blob(parts).arrayBuffer());
  return {sizes, intact: all.length === n && all.every((v, i) => v === src[i]), order};
})()`)
	if len(got.Sizes) == 0 || !got.Intact {
		t.Fatalf("slices gave %v, intact %v", got.Sizes, got.Intact)
	}
	for _, s := range got.Sizes {
		if s > 128<<10 {
			t.Errorf("a slice of %d bytes, want at most %d: %v", s, 128<<10, got.Sizes)
		}
	}
	if len(got.Order) < 3 || got.Order[0] != "task" || got.Order[1] != "slice" || got.Order[2] != "task" {
		t.Errorf("tasks and slices came %v, want a task before the first slice and another before the second", got.Order)
	}
}

// Until the app has mounted, the server's page takes no pointer on its
// controls (a value moved then would be lost when the app draws its own),
// and the page still scrolls, by wheel and by finger. app.wasm never comes
// here: a proxy holds its request. The loader's empty layer over the page
// does it; a rule on every control while the loader was there restyled
// them all when the parser reached the loader and again when it went.
func TestBrowserControlsWaitForTheApp(t *testing.T) {
	setup(t)
	proxy := holdingProxy(t, env.url, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/app.wasm") })

	for _, c := range []struct {
		name  string
		w, h  int64
		touch bool
	}{{"laptop", 1350, 940, false}, {"phone", 412, 823, true}} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTab(t, c.w, c.h, chromedp.WithNewBrowserContext())
			if err := chromedp.Do(tb.ctx, chromedp.Navigate(proxy+"/?lang=en")); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, tb, "the server's page with the loader", `document.readyState === 'complete' && !!document.getElementById('app-wasm-loader') && !!document.getElementById('base')`)
			// Each control on the first screen: what the pointer meets at
			// its middle.
			hits := eval[[]string](t, tb, `[...document.querySelectorAll('main :is(input, select, button, textarea)')].flatMap(el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || r.bottom > innerHeight || r.top < 0 || r.right > innerWidth) return [];
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return [(el.id || el.tagName) + ' -> ' + (at && at.closest('input, select, button, textarea') ? 'the control' : at ? (at.id || at.tagName) : 'nothing')];
})`)
			if len(hits) < 5 {
				t.Fatalf("only %d controls on the first screen: %q", len(hits), hits)
			}
			for _, h := range hits {
				if strings.HasSuffix(h, "-> the control") {
					t.Errorf("before the app, the pointer at a control meets it (%s), want it to pass the control by", h)
				}
			}
			if c.touch {
				if _, err := chromedp.Call(tb.ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
					t.Fatal(err)
				}
				// A finger drawn up the screen, as the browser gets it.
				for i, y := range []float64{600, 560, 500, 420, 340, 260, 200, 200} {
					typ := input.DispatchTouchEventTypeTouchMove
					switch i {
					case 0:
						typ = input.DispatchTouchEventTypeTouchStart
					case 7:
						typ = input.DispatchTouchEventTypeTouchEnd
					}
					pts := []*input.TouchPoint{{X: 200, Y: y}}
					if typ == input.DispatchTouchEventTypeTouchEnd {
						pts = []*input.TouchPoint{}
					}
					if _, err := chromedp.Call(tb.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
						t.Fatal(err)
					}
				}
			} else if _, err := chromedp.Call(tb.ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel, X: 600, Y: 500, DeltaX: 0.5, DeltaY: 400}); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, tb, "the page to scroll under the loader's layer", `scrollY > 100 && !!document.getElementById('app-wasm-loader')`)
			// app.wasm failed, as app.js shows it: the icon stops; the
			// page's text is the reader's again.
			if got := eval[string](t, tb, `(() => { scrollTo(0, 0); document.getElementById('app-wasm-loader-icon').className = 'goapp-logo';
  const r = document.querySelector('h1').getBoundingClientRect(), at = document.elementFromPoint(r.x + 5, r.y + r.height / 2);
  return at ? at.tagName : 'nothing'; })()`); got != "H1" {
				t.Errorf("after app.wasm failed, the pointer on the heading meets %s, want the heading", got)
			}
		})
	}
}

// go-app's loader keeps its place however much of it the browser has drawn:
// the HTML parser may paint the page while the loader's markup is half
// read (its icon and no label, or a part of the label), and a box sized
// by its content then moved when the rest came (a shift of 0.0276 on a
// phone, which failed the start's bound on a loaded machine). Each stage
// of the markup here must start at the same point, and so must its label.
func TestBrowserLoaderKeepsItsPlace(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1350, 940}, {412, 823}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			tb := newTab(t, size.w, size.h)
			tb.open(t, "")
			got := eval[[]string](t, tb, `(() => {
  const label = document.querySelector('main') && 'Loading the playground… / Загрузка песочницы…';
  const out = [];
  for (const text of [null, '', 'Load', label]) {
    const a = document.createElement('aside');
    a.id = 'app-wasm-loader'; a.className = 'goapp-app-info';
    a.innerHTML = '<img class="goapp-logo goapp-spin" alt="" src="/web/static/icon-192.png">';
    if (text !== null) { const p = document.createElement('p'); p.className = 'goapp-label'; p.textContent = text; a.append(p); }
    document.body.append(a);
    const r = a.getBoundingClientRect(), p = a.querySelector('p');
    const q = p ? p.getBoundingClientRect() : null;
    out.push([r.x, r.y, r.width, r.height].map(Math.round).join(',') + (q ? ' label at ' + [q.x, q.y].map(Math.round).join(',') : ''));
    a.remove();
  }
  return out;
})()`)
			box := func(s string) string { return strings.Join(strings.Split(strings.SplitN(s, " ", 2)[0], ",")[:2], ",") }
			for i, g := range got {
				if box(g) != box(got[len(got)-1]) {
					t.Errorf("stage %d of the loader's markup starts at %s, the whole loader at %s (all stages: %q)", i, g, got[len(got)-1], got)
				}
			}
			if a, b := strings.SplitN(got[2], "label at ", 2), strings.SplitN(got[3], "label at ", 2); len(a) != 2 || len(b) != 2 || a[1] != b[1] {
				t.Errorf("the label starts at %q with a part of its text, at %q with all of it", got[2], got[3])
			}
		})
	}
}
