package sim

import (
	"math"
	"math/rand/v2"

	"github.com/backoff-playground/playground/backoff"
)

// Client phases: what a client's one pending event does. The top bit marks
// a call that is the half-open breaker's probe.
const (
	_           uint8 = iota // a scheduled event always has a phase
	phSend                   // the client sends a call (first or retry)
	phArrive                 // the call reaches the server
	phReplyOK                // the success reaches the client
	phReplyFail              // the failure reaches the client
	phReplyRA                // a 503 with Retry-After reaches the client
	phWrite                  // occ: the write reaches the server

	phProbe uint8 = 0x80
	phMask  uint8 = 0x7f
)

// client is the per-client state, 16 bytes. It travels in the client's one
// pending event; only history-dependent jitter (Sim.state) and occ's
// reads (occ.reads) keep per-client arrays.
type client struct {
	first float64 // time of the first call, seconds
	tp    uint32  // tries<<8 | phase; tries saturate at maxTries
}

const maxTries = 1<<24 - 1

func (c *client) tries() int       { return int(c.tp >> 8) }
func (c *client) phase() uint8     { return uint8(c.tp) }
func (c *client) setPhase(p uint8) { c.tp = c.tp&^0xff | uint32(p) }
func (c *client) addTry() {
	if c.tp>>8 < maxTries {
		c.tp += 1 << 8
	}
}

// Sim is one simulation in progress: New, then Advance until it reports
// done, then Result. It is not safe for concurrent use; separate Sims are
// independent.
type Sim struct {
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

	srv server

	budget budget // NoBudget: a zero budget
	active int    // clients started and not finished

	br breaker // NoBreaker: a zero breaker

	done       bool
	truncated  bool
	noTimeline bool // RunMany's later runs: totals only
	progress   float64
	res        *Result

	// violations counts causality breaks (an event scheduled before the
	// one that caused it, or popped out of order); tests require 0.
	violations int
}

// New checks c and sets up a simulation seeded with seed; it does no
// simulating (Advance does). Memory is about 50 bytes per client, most
// of it allocated here.
func New(c Config, seed uint64) (*Sim, error) { return newSim(c, seed, true) }

// newSim is New; without keepTimeline (RunMany's later runs) only the totals
// are kept, and occ, whose totals need no buckets, records none.
func newSim(c Config, seed uint64, keepTimeline bool) (*Sim, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.MaxCalls == 0 {
		c.MaxCalls = DefaultMaxCalls
	}
	s := &Sim{c: c, policy: c.Policy, src: splitmix{seed}}
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
	s.srv = newServer(&c)
	s.budget = newBudget(c.Budget)
	s.br = newBreaker(c.Breaker)
	s.noTimeline = !keepTimeline
	if !keepTimeline && c.Server == OCC {
		// One bin that every time falls into: inv 0 maps all t to bin 0.
		s.tl = timeline{width: math.Inf(1), bins: make([]bin, 1), lenF: 1, max: 2, fixed: true}
	} else {
		s.tl = newTimeline(c.Bucket.Seconds(), timeScale(&c))
	}

	s.clients = c.Clients
	if s.hist {
		s.state = make([]float64, c.Clients)
	}
	s.q = newQueue(c.Clients, tickWidth(&c))
	s.completions = make([]float64, 0, c.Clients)
	return s, nil
}

// begin starts the next client: its first call, at 0 or uniform over the
// arrival window. Advance begins every client before it pops an event, in
// slices like events, so that a page stays responsive from the start.
func (s *Sim) begin() {
	i := s.begun
	s.begun++
	t := 0.0
	if s.c.Arrival == Uniform {
		t = s.c.ArrivalWindow.Seconds() * s.src.float64()
	}
	var cl client
	if s.fast {
		s.try(i, &cl, t)
	} else {
		s.schedule(i, &cl, t, phSend)
	}
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
	scale := timeScale(c)
	return min(max(scale/min(256, max(1, float64(c.Clients)/64)), 1e-6), 1)
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

// hop is one network delay, seconds.
func (s *Sim) hop() float64 {
	if s.sd == 0 {
		return s.lat
	}
	x, ok := normFast(s.src.Uint64())
	if !ok {
		s.src.unread()
		x = s.rng.NormFloat64()
	}
	return math.Abs(s.lat + s.sd*x)
}

func (s *Sim) schedule(i int, c *client, t float64, phase uint8) {
	if t < s.now {
		s.violations++
	}
	c.setPhase(phase | c.phase()&phProbe)
	s.q.push(t, i, *c)
}

func (s *Sim) seen(t float64) {
	if t > s.last {
		s.last = t
	}
}

// Advance handles at most maxEvents events (at least one) and reports
// whether the run is over. A page calls it in slices of a few milliseconds.
func (s *Sim) Advance(maxEvents int) (done bool) {
	if s.done {
		return true
	}
	for n := 0; n < max(1, maxEvents); n++ {
		if s.begun < s.clients {
			s.begin()
			continue
		}
		// At most 4 sequence numbers per try and MaxCalls tries keep
		// them below 1<<32 (read.seq); the second test is a guard.
		if s.q.len() == 0 || s.tries >= s.maxCalls || s.q.seq >= 1<<32-8 {
			s.finish()
			return true
		}
		e := s.q.pop()
		if e.t < s.now {
			s.violations++
		}
		if e.t > s.horizon {
			s.finish()
			return true
		}
		s.now = e.t
		s.seen(e.t)
		s.handle(e.client(), &e.c, e.t, e.key>>clientBits)
	}
	s.updateProgress()
	return false
}

func (s *Sim) handle(i int, c *client, t float64, seq uint64) {
	switch c.phase() & phMask {
	case phSend:
		s.try(i, c, t)
	case phArrive:
		ok, ra := s.srv.serve(t)
		s.served(t, ok)
		s.answer(i, c, t, outcomeOf(ok, ra))
	case phReplyOK:
		s.reply(i, c, t, outOK)
	case phReplyFail:
		s.reply(i, c, t, outFail)
	case phReplyRA:
		s.reply(i, c, t, outRetryAfter)
	case phWrite:
		ok := s.srv.occ.write(i, t, seq)
		s.served(t, ok)
		s.answer(i, c, t, outcomeOf(ok, false))
	}
}

// try: client i starts a try at t (a read for occ), and goes on trying for
// as long as each try's fate is known without the queue: a call refused by
// the open breaker, or (fast path) one that reaches the server during the
// outage, fails whatever else happens, so the client's next try is worked
// out at once. A loop, not recursion: unlimited attempts stay flat.
func (s *Sim) try(i int, c *client, t float64) {
	for {
		if t > s.horizon || s.tries >= s.maxCalls {
			s.truncated = true // the client stays unfinished
			return
		}
		s.seen(t)
		if c.tries() == 0 {
			c.first = t
			s.tl.at(t).started++
			s.active++
		}
		c.addTry()
		s.tries++
		out := outFail
		if s.br.kind != NoBreaker {
			allowed, probe := s.br.allow(t)
			if probe {
				c.setPhase(c.phase() | phProbe)
			}
			if !allowed {
				s.blocked++
				s.tl.at(t).blocked++
				out = outBlocked
			}
		}
		tr := t // when the client learns the outcome
		if out != outBlocked {
			ta := t + s.hop()
			if s.srv.model == OCC {
				s.tryOCC(i, c, ta)
				return
			}
			s.countCall(c, t)
			if !s.fast || !s.srv.doomed(ta) {
				s.schedule(i, c, ta, phArrive)
				return
			}
			s.tl.at(ta).rejected++
			if s.srv.ra {
				out = outRetryAfter
			}
			tr = ta + s.hop()
			s.seen(tr)
		}
		next, again := s.decide(i, c, tr, out)
		if !again {
			return
		}
		if s.br.kind != NoBreaker {
			s.schedule(i, c, next, phSend)
			return
		}
		t = next
	}
}

func (s *Sim) countCall(c *client, t float64) {
	s.calls++
	b := s.tl.at(t)
	b.calls++
	if c.tries() > 1 {
		b.retries++
	}
}

// served counts the server's answer at t.
func (s *Sim) served(t float64, ok bool) {
	b := s.tl.at(t)
	if ok {
		b.ok++
	} else {
		b.rejected++
	}
}

// answer sends the server's answer back to client i. On the fast path
// nothing shared waits for it, so the client handles it now.
func (s *Sim) answer(i int, c *client, t float64, out outcome) {
	tr := t + s.hop()
	if !s.fast {
		ph := phReplyFail
		switch out {
		case outOK:
			ph = phReplyOK
		case outRetryAfter:
			ph = phReplyRA
		}
		s.schedule(i, c, tr, ph)
		return
	}
	s.seen(tr)
	if next, again := s.decide(i, c, tr, out); again {
		s.try(i, c, next)
	}
}

// reply is a reply event: the slow path's answer reaching client i.
func (s *Sim) reply(i int, c *client, t float64, out outcome) {
	next, again := s.decide(i, c, t, out)
	switch {
	case !again:
	case s.br.kind != NoBreaker:
		// The breaker's state when the retry is sent decides it.
		s.schedule(i, c, next, phSend)
	default:
		// Nothing shared changes when a retry is sent (the ratio budget
		// counted it already), so send it now.
		s.try(i, c, next)
	}
}

// outcome is how a try ended, as the client sees it.
type outcome uint8

const (
	outOK outcome = iota
	outFail
	outRetryAfter // a 503 with Retry-After
	outBlocked    // the open breaker refused it
)

func outcomeOf(ok, ra bool) outcome {
	switch {
	case ok:
		return outOK
	case ra:
		return outRetryAfter
	}
	return outFail
}

// decide: the outcome of client i's try reaches it at t. It finishes
// (again false) or names the time of its next try.
func (s *Sim) decide(i int, c *client, t float64, out outcome) (next float64, again bool) {
	ok, ra := out == outOK, out == outRetryAfter
	wasRetry := c.tries() > 1
	if s.br.kind != NoBreaker && out != outBlocked {
		probe := c.phase()&phProbe != 0
		c.setPhase(c.phase() &^ phProbe)
		s.br.record(t, ok, probe)
	}
	if s.budget.kind != NoBudget {
		s.budget.answered(wasRetry, ok)
	}
	if ok {
		s.succeeded++
		s.completions = append(s.completions, t-c.first)
		s.end(t)
		return 0, false
	}
	n := c.tries()
	if a := s.c.Policy.Attempts; a > 0 && n >= a {
		s.giveUp(t)
		return 0, false
	}
	var prev float64
	pp := &prev
	if s.hist {
		pp = &s.state[i]
	}
	d := s.delays.Next(n, pp, s.src.float64())
	if ra && s.c.HonorRetryAfter {
		var keep bool
		if d, keep = s.policy.WithRetryAfter(d, s.c.RetryAfter.Seconds()); !keep {
			s.giveUp(t)
			return 0, false
		}
	}
	next = t + d
	if s.clock > 0 {
		next = math.Ceil(next/s.clock) * s.clock
	}
	if dl := s.c.Policy.Deadline; dl > 0 && next-c.first > dl.Seconds() {
		s.giveUp(t)
		return 0, false
	}
	if s.budget.kind != NoBudget && !s.budget.retry(s.active) {
		s.giveUp(t)
		return 0, false
	}
	return next, true
}

func (s *Sim) giveUp(t float64) {
	s.gaveUp++
	s.end(t)
}

// end: a client finished at t (its state is simply dropped).
func (s *Sim) end(t float64) {
	s.tl.at(t).finished++
	s.active--
}

func (s *Sim) updateProgress() {
	p := float64(s.succeeded+s.gaveUp) / float64(s.clients)
	p = math.Max(p, float64(s.tries)/float64(s.maxCalls))
	if p > 0.999 {
		p = 0.999 // 1 only when done
	}
	s.progress = math.Max(s.progress, p)
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
