//go:build (browser || benchserver) && !wasm

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// Chromium's trace of a page's start, read into the main thread's tasks:
// for the browser tests of the start and for make bench-lighthouse, which
// sets the playground's pages against go-app's smallest program in CPU
// time.

// startTask is one task of a start on the page's main thread: its CPU and
// wall time (ms) and what it held (startPhase).
type startTask struct {
	cpu, wall float64
	// lazy is the CPU time the task spent compiling WebAssembly functions
	// on their first call (V8's lazy compilation: wasm.CompileLazy).
	lazy float64
	// compiled counts the functions compiled so (wasm.CompileLazy events).
	compiled int
	// parts counts the marks of the start's parts inside the task
	// (startPartMarks).
	parts int
	phase string
	// steps are the marks of startSteps inside the task.
	steps []string
	// resumes counts the goroutines that went on after sleepInTask in
	// the task (its console.timeStamp).
	resumes int
}

// resumeStamp is app's console.timeStamp where a goroutine goes on after
// sleepInTask, in a task of its own.
const resumeStamp = "backoff:resume"

// startSteps are the marks that end the Go program's steps before its
// first render, each meant to end a task of its own: the runtime's start
// and the first packages' init, the standard library's, the catalog's and
// the policies', the rest (go-app's, the simulator's, the app's), the
// page's state read for the rehearsal, and main's wait before the mount.
var startSteps = []string{"backoff:init", "backoff:init-more", "backoff:init-core", "backoff:main", "backoff:state", "backoff:render"}

// startPartMarks are the marks each of the page's parts after its first
// screen sets when its task begins: the herd's run, a part rehearsed, a
// part mounted.
var startPartMarks = map[string]bool{"backoff:herd-run": true, "backoff:rehearse-part": true, "backoff:part": true}

// startPhase names what a task of the start held, from the events and the
// marks (app.js's and the wasm main's, each set as a step ends) inside it.
func startPhase(names map[string]bool, afterRender bool) string {
	var parts []string
	add := func(ok bool, what string) {
		if ok {
			parts = append(parts, what)
		}
	}
	add(names["v8.wasm.compileConsume"] && !names["wasm.FinishStreaming"], "compile (a slice)")
	add(names["wasm.FinishStreaming"], "compile's end")
	add(names["wasm.SyncInstantiate"], "instantiate")
	add(names["backoff:run"] || names["backoff:init"], "runtime's start")
	add(names["backoff:init"], "first packages' init")
	add(names["backoff:init-more"], "standard library's init")
	add(names["backoff:init-core"], "the catalog's and the policies' init")
	add(names["backoff:main"], "go-app's and the app's init")
	add(names["backoff:state"], "the page's state and parts, for the rehearsal")
	add(names["backoff:render"], "main")
	add(names["backoff:rehearse"], "a rehearsal of the first render")
	add(names["backoff:herd-run"], "the herd's first run")
	add(names["backoff:rehearse-part"], "a part's rehearsal")
	add(names["backoff:part"], "a part's mount")
	add(len(parts) == 0 && afterRender, "go-app: mount, a frame or a slice")
	if len(parts) == 0 {
		return "page (parse, style, layout, paint)"
	}
	return strings.Join(parts, " + ")
}

// traceEvent is one event of Chromium's trace.
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs of wall time
	Tdur float64 `json:"tdur"` // µs of CPU
	Tts  float64 `json:"tts"`  // µs of the thread's CPU clock, where given
	Args struct {
		Name string `json:"name"`
		Data struct {
			DecodedBodyLength int64 `json:"decodedBodyLength"`
			// Message is a console.timeStamp's label (TimeStamp events).
			Message string `json:"message"`
		} `json:"data"`
	} `json:"args"`
}

// traceIn records Chromium's trace of categories in the tab of ctx (a
// chromedp context) from now until the returned func is called, which
// gives its events and the renderers' main threads (pid, tid).
func traceIn(t testing.TB, ctx context.Context, categories ...string) func() ([]traceEvent, map[[2]int]bool) {
	t.Helper()
	var (
		mu     sync.Mutex
		events [][]byte
		done   = make(chan struct{})
	)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				events = append(events, []byte(v))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
		TransferMode: tracing.StartTransferModeReportEvents,
	}); err != nil {
		t.Fatal(err)
	}
	return func() ([]traceEvent, map[[2]int]bool) {
		if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the trace did not complete")
		}
		mu.Lock()
		defer mu.Unlock()
		var evs []traceEvent
		main := map[[2]int]bool{}
		for _, raw := range events {
			var e traceEvent
			if json.Unmarshal(raw, &e) != nil {
				continue
			}
			if e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
				main[[2]int{e.Pid, e.Tid}] = true
			}
			evs = append(evs, e)
		}
		return evs, main
	}
}

// wasmOnMain says what of app.wasm's loading a trace shows on a renderer's
// main thread: the compiler consuming its bytes or ending (V8's events),
// and a response of over a megabyte finishing (the timeline's event; only
// app.wasm is that large on a start), each named once; none when a worker
// fetched and compiled it.
func wasmOnMain(evs []traceEvent, main map[[2]int]bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range evs {
		if !main[[2]int{e.Pid, e.Tid}] || seen[e.Name] {
			continue
		}
		compile := e.Name == "v8.wasm.compileConsume" || e.Name == "wasm.FinishStreaming"
		if compile || e.Name == "ResourceFinish" && e.Args.Data.DecodedBodyLength > 1<<20 {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	return out
}

// startCategories are the trace's categories a start's tasks are read
// from (startTasksOf).
var startCategories = []string{"disabled-by-default-devtools.timeline", "devtools.timeline", "v8.wasm", "blink.user_timing"}

// startTrace is what a trace of a start says of a renderer's main thread.
type startTrace struct {
	// longest is the largest CPU time (thread time, ms) of one task;
	// blocking is what the tasks held the thread past 50 ms each, summed
	// (Lighthouse's total blocking time, of CPU time rather than wall
	// time, which a neighbour's load on a shared machine lengthens).
	longest, blocking float64
	// tasks are the tasks over 10 ms of CPU and those that hold a part or
	// a step of the start, in order.
	tasks []startTask
	// onMain: what of app.wasm's loading was on the thread (wasmOnMain).
	onMain []string
	// compiled counts the WebAssembly functions V8 compiled on their first
	// call on the thread, in every task.
	compiled int
	// cpus is every task's CPU time (ms), for blocking times at other
	// CPU speeds (blockingAt).
	cpus []float64
	// longestSteps is the longest task cut at the marks on the page's
	// timeline inside it (app.js's and the Go program's): what it was
	// made of.
	longestSteps []taskStep
}

// taskStep is a stretch of a task up to a mark on the page's timeline (or
// the task's end): its CPU time and the part of it V8 spent compiling
// WebAssembly functions on their first call (ms).
type taskStep struct {
	until     string
	cpu, lazy float64
}

// blockingAt is the blocking time (ms of CPU past 50 ms a task, summed)
// were the CPU slowdown times slower, as Lighthouse's mobile settings
// simulate a phone's CPU (4x).
func (st startTrace) blockingAt(slowdown float64) float64 {
	sum := 0.0
	for _, c := range st.cpus {
		sum += max(0, slowdown*c-50)
	}
	return sum
}

// stepsOf cuts task e (evs sorted by time, e at index i) at the page's
// marks inside it. A mark's CPU time is its thread clock where the trace
// gives one, else its share of the task's wall time.
func stepsOf(evs []traceEvent, i int) []taskStep {
	e := evs[i]
	cpuAt := func(c traceEvent) float64 {
		if c.Tts > 0 && e.Tts > 0 {
			return min(max(c.Tts-e.Tts, 0), e.Tdur) / 1000
		}
		if e.Dur == 0 {
			return 0
		}
		return (c.Ts - e.Ts) / e.Dur * e.Tdur / 1000
	}
	var steps []taskStep
	from := 0.0
	for _, c := range evs[i+1:] {
		if c.Ts > e.Ts+e.Dur {
			break
		}
		switch {
		case c.Pid == e.Pid && c.Cat == "blink.user_timing" && strings.HasPrefix(c.Name, "backoff:"):
			at := cpuAt(c)
			steps = append(steps, taskStep{until: c.Name, cpu: at - from})
			from = at
		case c.Pid == e.Pid && c.Tid == e.Tid && c.Name == "wasm.CompileLazy":
			if len(steps) == 0 || steps[len(steps)-1].until != "" {
				steps = append(steps, taskStep{})
			}
			steps[len(steps)-1].lazy += c.Tdur / 1000
		}
	}
	// The open step (compiling since the last mark) is the next mark's or
	// the end's.
	var out []taskStep
	lazy := 0.0
	for _, st := range steps {
		if st.until == "" {
			lazy += st.lazy
			continue
		}
		st.lazy += lazy
		lazy = 0
		out = append(out, st)
	}
	return append(out, taskStep{until: "the task's end", cpu: e.Tdur/1000 - from, lazy: lazy})
}

// startTasksOf reads a trace of startCategories (traceIn's).
func startTasksOf(evs []traceEvent, main map[[2]int]bool) startTrace {
	slices.SortStableFunc(evs, func(a, b traceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	var st startTrace
	rendered := -1.0
	for i, e := range evs {
		if e.Cat == "blink.user_timing" && e.Name == "backoff:render" {
			rendered = e.Ts
		}
		if e.Name == "wasm.CompileLazy" && main[[2]int{e.Pid, e.Tid}] {
			st.compiled++
		}
		if e.Name != "RunTask" || e.Ph != "X" || !main[[2]int{e.Pid, e.Tid}] {
			continue
		}
		if e.Tdur/1000 > st.longest {
			st.longest = e.Tdur / 1000
			st.longestSteps = stepsOf(evs, i)
		}
		st.blocking += max(0, e.Tdur/1000-50)
		st.cpus = append(st.cpus, e.Tdur/1000)
		names := map[string]bool{}
		lazy, compiled, parts, resumes := 0.0, 0, 0, 0
		var steps []string
		for _, c := range evs[i+1:] {
			if c.Ts > e.Ts+e.Dur {
				break
			}
			if c.Pid == e.Pid && (c.Tid == e.Tid || c.Cat == "blink.user_timing") {
				names[c.Name] = true
			}
			if c.Pid == e.Pid && c.Tid == e.Tid && c.Name == "wasm.CompileLazy" {
				lazy += c.Tdur / 1000
				compiled++
			}
			if c.Pid == e.Pid && c.Cat == "blink.user_timing" && startPartMarks[c.Name] {
				parts++
			}
			if c.Pid == e.Pid && c.Cat == "blink.user_timing" && slices.Contains(startSteps, c.Name) {
				steps = append(steps, c.Name)
			}
			if c.Pid == e.Pid && c.Tid == e.Tid && c.Name == "TimeStamp" && c.Args.Data.Message == resumeStamp {
				resumes++
			}
		}
		if e.Tdur < 10_000 && parts == 0 && len(steps) == 0 && resumes == 0 {
			continue
		}
		st.tasks = append(st.tasks, startTask{cpu: e.Tdur / 1000, wall: e.Dur / 1000, lazy: lazy, compiled: compiled, parts: parts, steps: steps, resumes: resumes,
			phase: startPhase(names, rendered >= 0 && e.Ts > rendered)})
	}
	st.onMain = wasmOnMain(evs, main)
	return st
}
