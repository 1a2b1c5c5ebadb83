package sim

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/backoff-playground/playground/backoff"
)

// Sim is one simulation in progress: New, then Advance until it reports
// done, then Result. It is not safe for concurrent use; separate Sims are
// independent.
type Sim struct {
	// The state is flat: each concern's part is held by value, so the run
	// loop (loop.go) reaches all of it through one pointer. Per-client
	// state travels in the client's one pending event (client.go, queue.go).
	c      Config
	policy backoff.Policy  // c.Policy, with Retry-After "ignore" read as "as-is" when honoured
	delays backoff.Sampler // policy's delays
	// src is the run's one random source; rng is a *rand.Rand on it, for
	// what has no inlinable twin on splitmix.
	src splitmix
	rng *rand.Rand

	clients int
	begun   int       // clients whose first call has been handled
	state   []float64 // per client: backoff.State.Prev or PrevV2 (hist only)
	q       queue
	tl      timeline

	// fast is set when no client-side state is shared (no budget, no
	// breaker): a client's reply and next send are then worked out when the
	// server answers, and only server arrivals go through the queue.
	fast bool
	// hist is set when the policy's delay depends on the previous one.
	hist bool

	now      float64 // time of the event being handled
	last     float64 // time of the latest thing that happened (makespan)
	lat, sd  float64 // seconds
	clock    float64 // Clock arrival period, seconds (0 = none)
	horizon  float64 // seconds, +Inf if none
	maxCalls int

	// totals
	calls, blocked, succeeded, gaveUp, tries int
	completions                              []float64
	ends                                     HerdEnds // herd_verdict.go

	srv    server  // server*.go
	budget budget  // budget.go; NoBudget: a zero budget
	active int     // clients started and not finished
	br     breaker // breaker.go; NoBreaker: a zero breaker

	done       bool
	truncated  bool
	truncBy    string  // what cut the run short (Result.TruncatedBy)
	stoppedAt  float64 // and when
	noTimeline bool    // RunMany's later runs: totals only
	progress   float64
	res        *Result

	// violations counts causality breaks (an event scheduled before the
	// one that caused it, or popped out of order); tests require 0.
	violations int

	// req runs a request-level config (Config.RequestLevel) instead of
	// the herd's loop; nil otherwise.
	req *reqSim

	fair  fairness   // fairness.go
	trace *herdTrace // nil: no Tracer (calltrace.go)

	// spare gets the run's buffers back when it ends (a Runner's); nil:
	// they are dropped.
	spare *buffers
}

// New checks c and sets up a simulation seeded with seed; it does no
// simulating (Advance does). Memory is about 50 bytes per client, most
// of it allocated here.
func New(c Config, seed uint64) (*Sim, error) { return newSim(c, seed, true, nil) }

// newSim is New; without keepTimeline (RunMany's later runs) only the totals
// are kept, and occ, whose totals need no buckets, records none. With
// spare, the run takes the buffers it needs from it (and leaves the rest)
// and gives them back when it ends.
func newSim(c Config, seed uint64, keepTimeline bool, spare *buffers) (*Sim, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.MaxCalls == 0 {
		c.MaxCalls = DefaultMaxCalls
	}
	var b buffers
	if spare != nil {
		b, *spare = *spare, buffers{}
		defer func() { *spare = b }() // what this run does not take
	}
	if c.RequestLevel() {
		return &Sim{c: c, req: newReqSim(c, seed, &b, spare)}, nil
	}
	s := &Sim{c: c, policy: c.Policy, src: splitmix{seed}, spare: spare}
	s.rng = newRandOn(&s.src)
	if c.HonorRetryAfter && s.policy.RetryAfter == backoff.RetryAfterIgnore {
		s.policy.RetryAfter = backoff.RetryAfterAsIs
	}
	s.delays = backoff.NewSampler(s.policy)
	s.hist = c.Policy.Jitter.HistoryDependent()
	s.fast = c.Budget.Kind == NoBudget && c.Breaker.Kind == NoBreaker
	s.lat, s.sd = c.Latency.Seconds(), c.LatencySD.Seconds()
	if c.Arrival == Clock {
		s.clock = c.ArrivalWindow.Seconds()
	}
	s.horizon = math.Inf(1)
	if c.Horizon > 0 {
		s.horizon = c.Horizon.Seconds()
	}
	s.maxCalls = c.MaxCalls
	s.srv = newServer(&c, &b)
	s.budget = newBudget(c.Budget)
	s.br = newBreaker(c.Breaker)
	s.noTimeline = !keepTimeline
	if !keepTimeline && !c.Server.Traits().Rated {
		// One bin that every time falls into: inv 0 maps all t to bin 0.
		s.tl = oneBin()
	} else {
		s.tl = newTimeline(c.Bucket, timeScale(&c), maxBins(&c))
	}

	s.clients = c.Clients
	if s.hist {
		s.state = zeroed(take(&b.state), c.Clients)
	}
	s.q = newQueue(c.Clients, tickWidth(&c), &b)
	s.completions = empty(take(&b.completions), c.Clients)
	if keepTimeline {
		s.fair = newFairness(c.Clients, false)
	} else {
		s.fair = newFairness(MaxPerClient+1, false) // the index only
	}
	return s, nil
}

// tickWidth picks the queue's tick (0: no wheel, a tournament tree) from the config's time scale: a
// fraction of a hop (or of the base delay) that shrinks with the number of
// clients, so a tick holds few events and few ticks are empty. Any width
// gives the same order; this one only makes it fast.
func tickWidth(c *Config) float64 {
	if c.Clients <= smallQueue {
		// A tree of a few thousand leaves stays in cache: no wheel
		// is fastest.
		return 0
	}
	return spreadWidth(timeScale(c), c.Clients)
}

// spreadWidth is a tick for n clients' events, scale seconds apart each.
func spreadWidth(scale float64, n int) float64 {
	return min(max(scale/min(256, max(1, float64(n)/64)), 1e-6), 1)
}

// smallQueue is the most clients for which the queue is a tournament tree.
const smallQueue = 4096

// timeScale is the config's typical time between a client's events: a hop,
// else the base delay, else a millisecond.
func timeScale(c *Config) float64 {
	switch {
	case c.Latency > 0:
		return c.Latency.Seconds()
	case c.Policy.Base > 0:
		return c.Policy.Base.Seconds()
	}
	return 1e-3
}

// Progress is how far the run is, from 0 to 1: the larger of the share of
// clients finished and the share of MaxCalls used. It never decreases and
// is 1 once done.
func (s *Sim) Progress() float64 { return s.progress }

// Result is the run's result, valid once Advance has reported done (nil
// before).
func (s *Sim) Result() *Result { return s.res }

// Run simulates c with seed to the end.
func Run(c Config, seed uint64) (*Result, error) {
	s, err := New(c, seed)
	if err != nil {
		return nil, err
	}
	for !s.Advance(1 << 20) {
	}
	return s.Result(), nil
}

// RunMany runs c with seeds seed..seed+runs-1 and summarises the totals:
// means and standard deviations. The blog's simulator averaged 100 runs.
func RunMany(c Config, seed uint64, runs int) (*Summary, error) {
	return RunManyTraced(c, seed, runs, nil)
}

// RunManyTraced is RunMany with the first run's calls reported to tr
// (nil: none).
func RunManyTraced(c Config, seed uint64, runs int, tr Tracer) (*Summary, error) {
	m, err := NewMany(c, seed, runs)
	if err != nil {
		return nil, err
	}
	m.SetTracer(tr)
	for !m.Advance(1 << 20) {
	}
	return m.Summary()
}

// Many is RunMany in steps, for a caller that runs it in slices (a page):
// Advance runs the current run for a slice, and starts the next when it
// ends; the summary is RunMany's, the same numbers.
type Many struct {
	c     Config
	seed  uint64
	runs  int
	k     int  // the run going on
	cur   *Sim // nil before the first slice, or once done
	tr    Tracer
	spare buffers // each run reuses the one before's memory
	sum   *Summary
	all   []MeanTotals
	tots  []Totals // for the recovery times and the nodes
	err   error
	done  bool
}

// NewMany is RunMany's runs of c, seeds seed..seed+runs-1, not yet begun.
func NewMany(c Config, seed uint64, runs int) (*Many, error) {
	if runs < 1 || runs > MaxRuns {
		return nil, backoff.CheckInt("runs", runs, 1, MaxRuns)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Many{c: c, seed: seed, runs: runs, sum: &Summary{Runs: runs, Seed: seed},
		all: make([]MeanTotals, 0, runs), tots: make([]Totals, 0, runs)}, nil
}

// SetTracer reports the first run's calls to tr (nil: none); call it
// before the first Advance.
func (m *Many) SetTracer(tr Tracer) { m.tr = tr }

// Advance handles at most maxEvents events of the current run (and
// starts the next when it ends), and reports whether every run is done.
func (m *Many) Advance(maxEvents int) bool {
	if m.done {
		return true
	}
	if m.cur == nil {
		// Only the first run's timeline is returned: skip building the others.
		s, err := newSim(m.c, m.seed+uint64(m.k), m.k == 0, &m.spare)
		if err != nil {
			m.err, m.done = err, true
			return true
		}
		if m.k == 0 {
			s.SetTracer(m.tr)
		}
		m.cur = s
	}
	if !m.cur.Advance(maxEvents) {
		return false
	}
	r := m.cur.Result()
	if m.k == 0 {
		m.sum.First = r
	}
	if r.Truncated {
		m.sum.Truncated++
	}
	m.all = append(m.all, asMean(r.Totals))
	m.tots = append(m.tots, r.Totals)
	m.cur = nil
	if m.k++; m.k < m.runs {
		return false
	}
	m.done = true
	m.summarise()
	return true
}

// Progress is the share of the runs done, the current one's part in it.
func (m *Many) Progress() float64 {
	if m.done {
		return 1
	}
	p := float64(m.k)
	if m.cur != nil {
		p += m.cur.Progress()
	}
	return p / float64(m.runs)
}

// Summary is RunMany's answer once Advance has reported done.
func (m *Many) Summary() (*Summary, error) {
	if m.err != nil {
		return nil, m.err
	}
	if !m.done {
		return nil, errors.New("sim: Many.Summary before the runs are done")
	}
	return m.sum, nil
}

func (m *Many) summarise() {
	sum, tots := m.sum, m.tots
	sum.Mean, sum.SD = meanSD(m.all)
	sum.Mean.setLayers(m.c.Layers)
	sum.SD.setLayers(m.c.Layers)
	sum.Mean.PerNode, sum.SD.PerNode = perNodeMeanSD(tots)
	if tots[0].RequestLevel {
		sum.Mean.RequestLevel, sum.SD.RequestLevel = true, true
		sum.Mean.shape, sum.SD.shape = tots[0].shape, tots[0].shape
		sum.Mean.RecoveredAt, sum.SD.RecoveredAt, sum.Mean.Recovered, sum.Mean.recoverable = recoveryMeanSD(tots)
		sum.Mean.PerServer, sum.SD.PerServer = perServerMeanSD(tots)
	}
	m.all, m.tots = nil, nil
}

// MaxRuns bounds RunMany.
const MaxRuns = 10000
