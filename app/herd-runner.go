package app

import (
	"sync/atomic"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Time budgets of a herd run. A run first advances synchronously for
// syncBudget, so a 1,000-client herd repaints in the same frame as the
// slider; what is left runs in chunks of about chunkBudget, each followed by
// a sleep that hands the thread back to the browser (input, paint).
const (
	syncBudget    = 12 * time.Millisecond
	chunkBudget   = 20 * time.Millisecond
	yieldFor      = 4 * time.Millisecond
	progressEvery = 100 * time.Millisecond
	firstChunk    = 4096 // events; then sized from the measured rate
	// The compare runs wait until the page has repainted (and a dragged
	// slider has paused), then run in smaller chunks: they are background
	// work and must not delay the next input.
	compareDelay = 40 * time.Millisecond
	compareChunk = 10 * time.Millisecond
)

// pageCalls bounds the calls of the runs one change makes, about 2 s of
// WebAssembly in the page (8M calls took 4.4 s in Chromium on 2026-12-02,
// 200,000 clients into a year-long outage, run in slices between
// repaints), so no link can make the tab burn minutes: the herd's runs
// (every seed, both policies) share herdShare of it, the compare panel's
// runs (one per jitter kind) the rest. A request-level call counts sim.RequestCallCost
// times. "Run further" multiplies both shares by ten, up to the runs' own
// max-calls.
const (
	pageCalls = 4_000_000
	herdShare = 0.75
)

// pageMemory is what one of the page's request-level runs may hold (they
// run one at a time): requests in flight and queued calls beyond it stop
// the run (sim.Config.MaxInFlight), which then says what to change.
const pageMemory = 512 << 20

// compareKinds are the jitter kinds of the compare panel: every kind the
// core has, in the core's order (its Jitter constants), which puts the AWS
// blog's four (none, full, equal, decorrelated) first and the others after
// them; a kind added to the core gets its panel.
var compareKinds = backoff.JitterNames()

// cmpResult is one small multiple: the herd under one jitter kind.
type cmpResult struct {
	Kind   string
	Config sim.Config // the run's
	Res    *sim.Result
	Err    error
}

// herdRunner runs the herd scenario (for one policy or two, once or over
// several seeds) and the compare runs for the playground, without ever
// holding the browser's thread for long. Its fields are touched on the UI
// goroutine only; the worker goroutine hands results back through
// ctx.Dispatch and checks gen to stop when a newer change has superseded
// it.
type herdRunner struct {
	gen atomic.Uint64

	a, b *herdOut // the first policy's runs and the second's (nil: none)
	// rev counts the runs added to a and b. The charts and cards get it
	// with them: a run added to an output already shown leaves the
	// pointer as it is, and go-app updates a child only when one of its
	// fields changes (without rev, the second policy's run, finishing
	// after the first is drawn, would leave "—" in the cards).
	rev      uint64
	err      error
	running  bool
	progress float64 // 0..1 of all the runs
	ms       float64 // wall time of the last finished set of runs

	cmp        []cmpResult
	cmpPending int // compare runs not finished yet

	// more is how many times "run further" raised the page's bound
	// (pageCalls × 10^more); limit is the bound of the last runs (per
	// run), and bounded tells whether it was below the runs' own max-calls.
	more    int
	limit   int
	bounded bool
	// compare: the page shows the compare runs, made after the herd's.
	compare bool
}

func (h *herdRunner) cancel() { h.gen.Add(1) }

// runView is what the runs show, as the herd's card takes it: a value,
// so go-app redraws the card when any of it changes (Rev counts the runs
// added to A and B, whose pointers stay).
type runView struct {
	A, B      *herdOut
	Rev       uint64
	Run       uint64 // the runner's generation: a new set of runs
	Err       error
	Running   bool
	Progress  float64
	Ms        float64
	PageBound bool
	Limit     int
}

func (h *herdRunner) view() runView {
	return runView{A: h.a, B: h.b, Rev: h.rev, Run: h.gen.Load(), Err: h.err, Running: h.running, Progress: h.progress,
		Ms: h.ms, PageBound: h.pageBound(), Limit: h.limit}
}

// bound applies the page's call limit to c, the herd's share of it shared
// by runs runs.
func (h *herdRunner) bound(c *sim.Config, runs int) {
	h.limit, h.bounded = h.share(c, herdShare, runs)
}

// share sets c's max-calls to its part of the page's bound: fraction of
// it shared by n runs, raised by "run further". limit is that part;
// bounded tells whether it is below the run's own max-calls (and so set).
func (h *herdRunner) share(c *sim.Config, fraction float64, n int) (limit int, bounded bool) {
	own := c.MaxCalls
	if own == 0 {
		own = sim.DefaultMaxCalls
	}
	total := float64(pageCalls)
	for range h.more {
		total *= 10
	}
	per := total * fraction / float64(max(n, 1))
	if c.RequestLevel() {
		per /= sim.RequestCallCost
	}
	limit = int(min(max(per, 1), sim.MaxCalls))
	if c.RequestLevel() {
		c.MaxInFlight = sim.MaxCallersWithin(*c, pageMemory)
	}
	if limit < own {
		c.MaxCalls = limit
		return limit, true
	}
	return limit, false
}

// pageBound reports whether the page's bound, not the runs' own limits,
// stopped the last run of the first policy.
func (h *herdRunner) pageBound() bool {
	if h.a == nil || h.a.first == nil || !h.bounded {
		return false
	}
	r := h.a.first
	return r.Truncated && r.Totals.Calls+r.Totals.Blocked >= h.limit
}

// job is one simulation in progress (a run, a sweep), advanced in
// slices of about a time budget.
type job struct {
	s     stepper
	chunk int
	rate  float64 // events per ms, measured
}

// stepper is work done in slices of events: a run, a sweep.
type stepper interface {
	Advance(maxEvents int) bool
	Progress() float64
}

func (j *job) advance(budget time.Duration) bool {
	t0 := time.Now()
	for {
		done := j.s.Advance(j.chunk)
		el := time.Since(t0)
		if el > 0 {
			r := float64(j.chunk) / (float64(el) / float64(time.Millisecond))
			if j.rate == 0 {
				j.rate = r
			} else {
				j.rate = 0.5*j.rate + 0.5*r
			}
		}
		if j.rate > 0 {
			j.chunk = min(max(int(j.rate*float64(budget/time.Millisecond)/4), 256), 1<<22)
		}
		if done || time.Since(t0) >= budget {
			return done
		}
	}
}

// warm runs the herd's first run for st at once, up to syncBudget, as
// the page's start does, for the compile worker (Warm): the simulator's
// code, and its chart's drawn from the run's figures, are then compiled
// when the page calls them. A run that does not end within the budget
// leaves no figures.
func (h *herdRunner) warm(st *state) {
	if herd, _ := runsOf(st); !herd {
		return
	}
	cfg, _, err := h.plan(st)
	if err != nil {
		return
	}
	if res, _, _ := firstRun(cfg, st.Seed); res != nil {
		h.a = &herdOut{cfg: cfg}
		h.a.add(res)
		h.progress = 1
	}
}

// plan is the first policy's config for st as the runs make it, bounded
// by the page's share of calls (both policies' runs with a second one),
// with the config's own max-calls before the bound, and the config's
// error.
func (h *herdRunner) plan(st *state) (cfg sim.Config, own int, err error) {
	cfg = st.Herd.config(st.Policy)
	own = cfg.MaxCalls
	runs := st.Herd.Runs
	if st.B.On {
		runs *= 2
	}
	h.bound(&cfg, runs)
	return cfg, own, cfg.Validate()
}

// firstRun sets up a run of cfg and advances it for syncBudget: its
// result when it ended by then, else the job that goes on with it.
func firstRun(cfg sim.Config, seed uint64) (*sim.Result, *job, error) {
	s, err := sim.New(cfg, seed)
	if err != nil {
		return nil, nil, err
	}
	j := &job{s: s, chunk: firstChunk}
	if j.advance(syncBudget) {
		return s.Result(), nil, nil
	}
	return nil, j, nil
}

// syncClients is the largest herd set up in the input handler itself:
// sim.New's cost grows with the clients (about 50 ms natively for 100,000),
// so bigger herds are set up after the table has been painted.
const syncClients = 20_000

// task is one run the runner has to make: a policy's config and seed, and
// which output it adds to.
type task struct {
	cfg  sim.Config
	seed uint64
	out  *herdOut
}

// start (re)runs the herd for the page's state st: the first policy's
// first run, then the second policy's, then the further seeds of each
// (runs > 1), showing results as they come. ctx is the page's own: each
// result redraws the page.
func (h *herdRunner) start(ctx app.Context, st *state) {
	gen := h.gen.Add(1)
	if app.IsServer {
		// The pre-rendered page does without the herd: the browser runs it.
		return
	}
	var herd bool
	herd, h.compare = runsOf(st)
	if !herd {
		// An embedded view without the herd (the table, the delay
		// chart): a docs page's other frames share its main thread.
		h.a, h.b, h.err, h.running = nil, nil, nil, false
		return
	}
	runs := st.Herd.Runs
	seed := st.Seed
	t0 := time.Now()
	cfgA, own, err := h.plan(st)
	if err != nil {
		h.a, h.b, h.err, h.running = nil, nil, err, false
		return
	}
	a := &herdOut{cfg: cfgA}
	var b *herdOut
	tasks := []task{{cfgA, seed, a}}
	if st.B.On {
		cfgB := cfgA
		cfgB.Policy = st.B.Policy
		b = &herdOut{cfg: cfgB}
		tasks = append(tasks, task{cfgB, seed, b})
	}
	// Further seeds, alternating policies so both spreads grow together.
	policies := len(tasks)
	for k := 1; k < runs; k++ {
		for _, t := range tasks[:policies] {
			tasks = append(tasks, task{t.cfg, seed + uint64(k), t.out})
		}
	}
	h.err = nil
	// Further seeds share their policy's first bucket width (the worker's
	// own record: results reach the outputs later, through Dispatch).
	widths := map[*herdOut]float64{}

	// The first task may finish within the handler: the common case (1,000
	// clients, one policy, one run) repaints with the table.
	first := tasks[0]
	var j *job
	if first.cfg.Clients <= syncClients {
		res, jj, err := firstRun(first.cfg, first.seed)
		if err != nil {
			h.a, h.b, h.err, h.running = nil, nil, err, false
			return
		}
		j = jj
		if res != nil {
			first.out.add(res)
			h.rev++
			widths[first.out] = res.BucketWidth
			tasks = tasks[1:]
			if len(tasks) == 0 {
				h.a, h.b, h.running, h.progress = a, b, false, 1
				h.ms = float64(time.Since(t0)) / float64(time.Millisecond)
				h.startCompare(ctx, gen, cfgA, own, seed)
				return
			}
		}
	}
	total := len(tasks)
	h.running, h.progress = true, 0
	if b == nil {
		h.b = nil // the second policy was removed: no stale chart of it
	}
	ctx.Async(func() {
		if j == nil {
			// Let the frame with the new table paint before the set-up.
			sleepInTask(chunkBudget)
		}
		last := time.Now()
		for i, t := range tasks {
			if h.gen.Load() != gen {
				return
			}
			if i > 0 || j == nil {
				c := t.cfg
				if w := widths[t.out]; t.seed != seed && w > 0 {
					// Further seeds share the first run's buckets, so the
					// chart can show their spread bucket by bucket.
					c.Bucket = backoff.Seconds(w)
				}
				s, err := sim.New(c, t.seed)
				if err != nil {
					ctx.Dispatch(func(ctx app.Context) {
						if h.gen.Load() == gen {
							h.a, h.b, h.err, h.running = nil, nil, err, false
						}
					})
					return
				}
				j = &job{s: s, chunk: firstChunk}
			}
			for {
				sleepInTask(yieldFor)
				if h.gen.Load() != gen {
					return
				}
				if j.advance(chunkBudget) {
					break
				}
				if time.Since(last) >= progressEvery {
					last = time.Now()
					pr := (float64(i) + j.s.Progress()) / float64(total)
					ctx.Dispatch(func(ctx app.Context) {
						if h.gen.Load() == gen {
							h.progress = pr
						}
					})
				}
			}
			res := j.s.(*sim.Sim).Result()
			if t.seed == seed {
				widths[t.out] = res.BucketWidth
			}
			done := i == len(tasks)-1
			// Show each policy's first run as soon as it is there; further
			// seeds update the means at the end (one repaint).
			show := t.seed == seed || done
			ms := float64(time.Since(t0)) / float64(time.Millisecond)
			out := t.out
			ctx.Dispatch(func(ctx app.Context) {
				if h.gen.Load() != gen {
					return
				}
				out.add(res)
				h.rev++
				if show {
					h.a, h.b = a, b
				}
				if done {
					h.running, h.progress, h.ms = false, 1, ms
					h.startCompare(ctx, gen, cfgA, own, seed)
				}
			})
		}
	})
}

// startCompare runs the scenario once per jitter kind, one after the other,
// in the background, and shows them all at once when the last is done (one
// repaint, on one scale); until then the previous figure stays up.
func (h *herdRunner) startCompare(ctx app.Context, gen uint64, cfg sim.Config, own int, seed uint64) {
	if !h.compare {
		return
	}
	if h.cmp == nil {
		h.cmp = make([]cmpResult, len(compareKinds))
		for i, k := range compareKinds {
			h.cmp[i].Kind = k
		}
	}
	h.cmpPending = len(compareKinds)
	cfg.MaxCalls = own
	h.share(&cfg, 1-herdShare, len(compareKinds))
	ctx.Async(func() {
		sleepInTask(compareDelay)
		out := make([]cmpResult, len(compareKinds))
		for i, k := range compareKinds {
			c := cfg
			c.Policy = comparePolicy(cfg.Policy, k)
			out[i].Kind, out[i].Config = k, c
			s, err := sim.New(c, seed)
			if err != nil {
				out[i].Err = err
				continue
			}
			j := &job{s: s, chunk: firstChunk}
			for {
				if h.gen.Load() != gen {
					return
				}
				if j.advance(compareChunk) {
					break
				}
				sleepInTask(yieldFor)
			}
			out[i].Res = s.Result()
			sleepInTask(yieldFor)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if h.gen.Load() != gen {
				return
			}
			h.cmp = out
			h.cmpPending = 0
		})
	})
}

// comparePolicy is p with jitter kind k. Kinds whose parameters p leaves at
// zero get the values Set gives them (proportional 0.8..1.2, additive
// amplitude = base); a policy invalid under k (decorrelated needs a base)
// is reported by the run.
func comparePolicy(p backoff.Policy, k string) backoff.Policy {
	_ = p.Set(backoff.ParamJitter, k)
	if !p.Jitter.TakesQuantum() {
		p.Quantum = 0
	}
	return p
}

// stopText says, after a space, when and why run r of c stopped before
// every request ended: cut short (r.TruncatedBy), or requests still going
// at the end of an open or loop run's window; "" when all ended.
func stopText(l i18n.Lang, c sim.Config, r *sim.Result) string {
	t := r.Totals
	unfinished := l.Count(int64(t.Unfinished), "herd.requests-n")
	at := ""
	if r.StoppedAt != nil {
		at = l.Seconds(*r.StoppedAt)
	}
	switch r.TruncatedBy {
	case sim.StopCalls:
		most := c.MaxCalls
		if most == 0 {
			most = sim.DefaultMaxCalls
		}
		return " " + l.F("herd.stopped-calls", at, l.Compact(float64(most)), unfinished)
	case sim.StopHorizon:
		return " " + l.F("herd.stopped-horizon", at, unfinished)
	case sim.StopMemory:
		return " " + l.F("herd.stopped-memory", at, errText(l, sim.FullErr(c, r.FullAt, pageMemory), ""))
	}
	if t.Unfinished > 0 && c.Traffic != sim.Closed {
		return " " + l.F("herd.unfinished", unfinished, l.Seconds(c.Duration.Seconds()))
	}
	return ""
}
