package app

import (
	"sync/atomic"
	"time"

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

// pageCalls bounds the calls of one herd run in the page: about 1.2 s of
// WebAssembly (6M calls ran in 0.9 s under Node on 2026-12-02, a million
// clients into an outage), so no link can make the tab burn minutes.
// "Run further" multiplies it by ten, up to the run's own max-calls. Each
// compare run gets a quarter: there are seven of them.
const pageCalls = 8_000_000

// maxBuckets bounds the bars of one chart; longer timelines are re-binned.
const maxBuckets = 2000

// compareKinds are the jitter kinds of the compare panel, the AWS blog's
// four first.
var compareKinds = []string{"none", "full", "equal", "decorrelated", "decorrelated-v2", "proportional", "additive"}

// cmpResult is one small multiple: the herd under one jitter kind.
type cmpResult struct {
	Kind string
	Res  *sim.Result
	Err  error
}

// herdRunner runs the herd scenario and the compare runs for the
// playground, without ever holding the browser's thread for long. Its
// fields are touched on the UI goroutine only; the worker goroutine hands
// results back through ctx.Dispatch and checks gen to stop when a newer
// change has superseded it.
type herdRunner struct {
	gen atomic.Uint64

	res      *sim.Result
	err      error
	running  bool
	progress float64 // 0..1 of the main run
	ms       float64 // wall time of the last finished main run

	cmp        []cmpResult
	cmpPending int // compare runs not finished yet

	// more is how many times "run further" raised the page's bound
	// (pageCalls × 10^more); limit is the bound of the last run, and
	// bounded tells whether it was below the run's own max-calls.
	more    int
	limit   int
	bounded bool
}

// bound applies the page's call limit to c.
func (h *herdRunner) bound(c *sim.Config) {
	own := c.MaxCalls
	if own == 0 {
		own = sim.DefaultMaxCalls
	}
	limit := pageCalls
	for range h.more {
		limit = min(limit*10, sim.MaxCalls)
	}
	h.limit, h.bounded = limit, limit < own
	if h.bounded {
		c.MaxCalls = limit
	}
}

// pageBound reports whether the page's bound, not the run's own limits,
// stopped the last run.
func (h *herdRunner) pageBound() bool {
	return h.res != nil && h.res.Truncated && h.bounded && h.res.Totals.Calls+h.res.Totals.Blocked >= h.limit
}

func (h *herdRunner) cancel() { h.gen.Add(1) }

// job is one simulation in progress.
type job struct {
	s     *sim.Sim
	chunk int
	rate  float64 // events per ms, measured
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

// syncClients is the largest herd set up in the input handler itself:
// sim.New's cost grows with the clients (about 50 ms natively for 100,000),
// so bigger herds are set up after the table has been painted.
const syncClients = 20_000

// start (re)runs the herd for the playground's current state.
func (h *herdRunner) start(ctx app.Context, p *playground) {
	gen := h.gen.Add(1)
	if app.IsServer {
		// The pre-rendered page does without the herd: the browser runs it.
		return
	}
	cfg := p.st.Herd.config(p.st.Policy)
	h.bound(&cfg)
	seed := p.st.Seed
	t0 := time.Now()
	if err := cfg.Validate(); err != nil {
		h.res, h.err, h.running = nil, err, false
		return
	}
	h.err = nil
	var j *job
	if cfg.Clients <= syncClients {
		s, err := sim.New(cfg, seed)
		if err != nil {
			h.res, h.err, h.running = nil, err, false
			return
		}
		j = &job{s: s, chunk: firstChunk}
		if j.advance(syncBudget) {
			h.res, h.running, h.progress = s.Result(), false, 1
			h.ms = float64(time.Since(t0)) / float64(time.Millisecond)
			h.startCompare(ctx, gen, cfg, seed)
			return
		}
		h.progress = s.Progress()
	} else {
		h.progress = 0
	}
	h.running = true
	ctx.Async(func() {
		if j == nil {
			// Let the frame with the new table paint before the set-up.
			time.Sleep(chunkBudget)
			if h.gen.Load() != gen {
				return
			}
			s, err := sim.New(cfg, seed)
			if err != nil {
				ctx.Dispatch(func(ctx app.Context) {
					if h.gen.Load() == gen {
						h.res, h.err, h.running = nil, err, false
					}
				})
				return
			}
			j = &job{s: s, chunk: firstChunk}
		}
		s := j.s
		last := time.Now()
		for {
			time.Sleep(yieldFor)
			if h.gen.Load() != gen {
				return
			}
			if j.advance(chunkBudget) {
				res := s.Result()
				ms := float64(time.Since(t0)) / float64(time.Millisecond)
				ctx.Dispatch(func(ctx app.Context) {
					if h.gen.Load() != gen {
						return
					}
					h.res, h.running, h.progress, h.ms = res, false, 1, ms
					h.startCompare(ctx, gen, cfg, seed)
				})
				return
			}
			if time.Since(last) >= progressEvery {
				last = time.Now()
				pr := s.Progress()
				ctx.Dispatch(func(ctx app.Context) {
					if h.gen.Load() == gen {
						h.progress = pr
					}
				})
			}
		}
	})
}

// startCompare runs the scenario once per jitter kind, one after the other,
// in the background, and shows them all at once when the last is done (one
// repaint, on one scale); until then the previous figure stays up.
func (h *herdRunner) startCompare(ctx app.Context, gen uint64, cfg sim.Config, seed uint64) {
	if h.cmp == nil {
		h.cmp = make([]cmpResult, len(compareKinds))
		for i, k := range compareKinds {
			h.cmp[i].Kind = k
		}
	}
	h.cmpPending = len(compareKinds)
	ctx.Async(func() {
		time.Sleep(compareDelay)
		out := make([]cmpResult, len(compareKinds))
		for i, k := range compareKinds {
			c := cfg
			c.Policy = comparePolicy(cfg.Policy, k)
			if h.bounded {
				c.MaxCalls = max(cfg.MaxCalls/4, 1)
			}
			out[i].Kind = k
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
				time.Sleep(yieldFor)
			}
			out[i].Res = s.Result()
			time.Sleep(yieldFor)
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
	if k != "full" && k != "additive" {
		p.Quantum = 0
	}
	return p
}
