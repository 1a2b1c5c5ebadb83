package sim

import (
	"math"
	"slices"

	"github.com/backoff-playground/playground/backoff"
)

// EstimateCalls is an upper-ish estimate of the tries one run of c makes:
// calls, occ writes and calls an open breaker refused, what MaxCalls
// counts and what a run's time grows with. A front end multiplies it by
// its runs to refuse a job before running it. It simulates no client: it
// takes about 12 µs whatever c is (BenchmarkEstimateCalls).
//
// The model: every client follows one schedule while it fails. estPaths
// sample paths of it come from the policy's own Sampler with evenly
// spread draws, so jitter, cap, offset, Retry-After mode, deadline,
// horizon and clock rounding are the simulator's; hops take their mean.
// The clients go through the schedule as a cohort: wave k is everyone's
// k-th try, spread in time as the paths are (plus the hops' spread). Each
// wave the server serves what its model allows over that spread, less
// what earlier waves overlapping it took: capacity's tokens (none during
// the outage, fewer while collapse's load is high), or for occ about one
// write per read-to-write time (two hops), since a write fails when
// another succeeded in between. A tripped breaker lets a probe, a round
// trip's share of the wave and a few more calls through per cool-down,
// and refuses the rest at once, without hops. Only estService of that is
// credited, and at most
// estServed of a wave, since herds are lumpier than waves and clients
// arriving at random collide even below capacity. The served leave;
// budgets cut the retries; waves after estWaves are extrapolated from the
// last. The sum, times estMargin, is capped at MaxCalls.
//
// A request-level config (Config.RequestLevel) is estimated as its
// requests times the tries a request makes while every try fails (its
// attempts, or the cohort's paths until deadline or horizon; in a call
// chain, every layer's, the product of the attempts above it), doubled for
// hedges, times estMargin: an upper bound, about the number of attempts
// over a healthy run's count. Its requests are Clients, Rate*Duration (plus
// five standard deviations), or for a loop each caller's Duration over its
// mean cycle (think time, two hops and a service time).
//
// TestEstimateCalls holds it at or above real runs' tries and within 20
// times them when MaxCalls does not bound it. It can fall short where a
// herd does worse than the model: a collapse that feeds on its own
// retries within one wide wave, or a breaker that trips again and again
// under occ's contention (by up to about three times in random trials).
func EstimateCalls(c Config) float64 {
	if c.MaxCalls <= 0 {
		c.MaxCalls = DefaultMaxCalls
	}
	if c.Server.Model() == nil { // not a valid config: assume the worst
		return float64(c.MaxCalls)
	}
	if c.RequestLevel() {
		return estimateRequests(&c)
	}
	if c.Clients <= 0 {
		return 0
	}
	e := newEstimator(&c)
	n := estMargin * e.run()
	if !(n >= 0) { // NaN: no estimate, so assume the worst
		n = math.Inf(1)
	}
	return math.Min(n, float64(c.MaxCalls))
}

// estimateRequests is EstimateCalls for a request-level config.
func estimateRequests(c *Config) float64 {
	var requests float64
	switch c.Traffic {
	case Closed:
		requests = float64(c.Clients)
	case Open:
		n := c.Rate * c.Duration.Seconds()
		requests = n + 5*math.Sqrt(n) + 1
	case Loop:
		hop, _ := foldedNormal(c.Latency.Seconds(), c.LatencySD.Seconds())
		cycle, most := c.Server.Model().estCycle(c, hop)
		requests = math.Min(float64(c.Callers)*(math.Ceil(c.Duration.Seconds()/cycle)+1), most)
	}
	n := requests * triesPerRequest(c)
	if c.Hedge.On() {
		n *= 2
	}
	n *= estMargin
	if !(n >= 0) {
		n = math.Inf(1)
	}
	return math.Min(n, float64(c.MaxCalls))
}

// triesPerRequest follows estFollowTries tries of its paths one by one
// (about 2 ms); a path still going then is extrapolated to its end at the
// pace of its last estPaceTries. Following up to 20,000 tries took 25 to
// 90 ms for a request with no attempt limit and a long deadline, 205 ms on
// a loaded machine.
const (
	estFollowTries = 1024
	estPaceTries   = 64
)

// triesPerRequest is the tries a request makes if every one fails: its
// attempts, or the mean over the estimator's paths of the tries before
// the deadline or the horizon; +Inf when nothing bounds them. A path
// followed estFollowTries tries makes its remaining ones at its recent
// pace: a schedule's delays grow or hold steady as it goes on, so that
// counts as many or more than it makes.
func triesPerRequest(c *Config) float64 {
	if c.Layers > 1 {
		// Every layer's tries, each as many times as the layers above
		// tried: 3 + 9 + 27 + 81 + 243 for five layers of three.
		var total, above, policy float64 = 0, 1, -1
		for k := range c.Layers {
			t := float64(c.LayerAttemptsAt(k))
			if t == 0 {
				if policy < 0 { // the policy's own tries, worked out once
					one := *c
					one.Layers = 1
					policy = triesPerRequest(&one)
				}
				t = policy
			}
			above *= t
			total += above
		}
		return total
	}
	if a := c.Policy.Attempts; a > 0 {
		return float64(a)
	}
	cc := *c
	cc.Arrival = Burst // every request's schedule starts at its own 0
	e := newEstimator(&cc)
	if e.ra == 0 && math.IsInf(e.deadline, 1) && math.IsInf(e.horizon, 1) {
		// Only those end a path (advance).
		return math.Inf(1)
	}
	total := 0.0
	var mark [estPaths]float64 // each path's try estPaceTries before the last followed
	for k := 1; k <= estFollowTries; k++ {
		alive := 0
		for i := range e.paths {
			if !e.paths[i].done {
				alive++
			}
		}
		if alive == 0 {
			return total / estPaths
		}
		total += float64(alive)
		if k == estFollowTries-estPaceTries+1 {
			for i := range e.paths {
				mark[i] = e.paths[i].t
			}
		}
		e.advance(k)
	}
	for i := range e.paths {
		p := &e.paths[i]
		if p.done {
			continue
		}
		// p.t is its next try, estPaceTries gaps after mark; each later
		// try comes a pace after the one before, while within both.
		pace := (p.t - mark[i]) / estPaceTries
		end := math.Min(p.first+e.deadline, e.horizon)
		if !(pace > 0) {
			return math.Inf(1) // tries at no interval: nothing ends them
		}
		total += 1 + math.Floor((end-p.t)/pace)
	}
	return total / estPaths
}

const (
	// estPaths sample paths of one client's schedule: enough that their
	// spread stands for the jitter's, few enough that a sweep of 1000
	// points estimates in well under a second.
	estPaths = 16
	// estWaves waves are followed one by one; the rest are extrapolated
	// with the last wave's gap and service.
	estWaves = 256
	// estService is the share of the model's service credited, estServed
	// the most of a wave credited as served.
	estService = 0.5
	estServed  = 0.8
	// estMargin covers what the paths' means miss: one run's clients are
	// a sample, and some draw shorter delays than the paths.
	estMargin = 1.3
)

// estPath is one sample path: its first try, its latest try and the gap
// before it, in seconds, and the jitter's history.
type estPath struct {
	first, t, gap, prev float64
	done                bool
}

// wave is one try of the cohort as the server sees it: [lo, hi] holds its
// arrivals, tries of them were made and the model served used of them
// (more than the served credited).
type wave struct {
	lo, hi, tries, used float64
}

type estimator struct {
	c      *Config
	model  Model
	policy backoff.Policy
	delays backoff.Sampler
	// hop is a hop's mean and sd2 its variance.
	hop, sd2 float64
	// cycle is the hops from a try to its answer; arrive those to the
	// server (occ: a read there and back, then the write).
	cycle, arrive     float64
	clock             float64 // Clock arrival period, 0 = none
	deadline, horizon float64 // +Inf when none
	ra                float64 // Retry-After every failure carries and clients honour, 0 = none
	burst             float64 // tokens the server holds (1 for occ)
	paths             [estPaths]estPath
	waves             []wave
}

func newEstimator(c *Config) *estimator {
	e := &estimator{c: c, policy: c.Policy, cycle: 2, arrive: 1, deadline: math.Inf(1), horizon: math.Inf(1), burst: 1}
	e.hop, e.sd2 = foldedNormal(c.Latency.Seconds(), c.LatencySD.Seconds())
	e.model = c.Server.Model()
	e.model.estSetup(e)
	if c.Breaker.Kind != NoBreaker {
		// An open breaker fails a try at once, without its hops.
		e.cycle = 0
	}
	// As newSim: honouring Retry-After with mode "ignore" means as-is.
	if c.HonorRetryAfter && e.policy.RetryAfter == backoff.RetryAfterIgnore {
		e.policy.RetryAfter = backoff.RetryAfterAsIs
	}
	// occ sends no Retry-After, nor does an open breaker's refusal.
	if c.HonorRetryAfter && c.RetryAfter > 0 && e.model.Traits().RetryAfter && c.Breaker.Kind == NoBreaker {
		e.ra = c.RetryAfter.Seconds()
	}
	e.delays = backoff.NewSampler(e.policy)
	if c.Arrival == Clock {
		e.clock = c.ArrivalWindow.Seconds()
	}
	if c.Policy.Deadline > 0 {
		e.deadline = c.Policy.Deadline.Seconds()
	}
	if c.Horizon > 0 {
		e.horizon = c.Horizon.Seconds()
	}
	for i := range e.paths {
		p := &e.paths[i]
		if c.Arrival == Uniform {
			p.first = c.ArrivalWindow.Seconds() * (float64(i) + 0.5) / estPaths
		}
		p.t, p.gap = p.first, math.Inf(1)
		p.done = p.first > e.horizon
	}
	return e
}

// foldedNormal is the mean and variance of |N(mu, sd)|, a hop's time.
func foldedNormal(mu, sd float64) (mean, variance float64) {
	if sd == 0 {
		return mu, 0
	}
	z := mu / sd
	mean = sd*math.Sqrt(2/math.Pi)*math.Exp(-z*z/2) + mu*math.Erf(z/math.Sqrt2)
	return mean, math.Max(0, mu*mu+sd*sd-mean*mean)
}

// draw is path i's uniform draw for retry k: the paths' draws are evenly
// spread over [0, 1), and rotated by the golden ratio from one retry to
// the next so that no path is always the slow one.
func draw(i, k int) float64 {
	u := (float64(i)+0.5)/estPaths + float64(k)*0.6180339887498949
	return u - math.Floor(u)
}

// advance moves every path from its k-th try to its next, or ends it as
// the simulator's client would give up or be stopped.
func (e *estimator) advance(k int) {
	for i := range e.paths {
		p := &e.paths[i]
		if p.done {
			continue
		}
		if a := e.c.Policy.Attempts; a > 0 && k >= a {
			p.done = true
			continue
		}
		d := e.delays.Next(k, &p.prev, draw(i, k))
		if e.ra > 0 {
			var keep bool
			if d, keep = e.policy.WithRetryAfter(d, e.ra); !keep {
				p.done = true
				continue
			}
		}
		next := p.t + e.cycle*e.hop + d
		if e.clock > 0 {
			next = math.Ceil(next/e.clock) * e.clock
		}
		if next-p.first > e.deadline || next > e.horizon {
			p.done = true
			continue
		}
		p.gap, p.t = next-p.t, next
	}
}

// spread is the live paths' k-th tries: how many, the mean arrival at the
// server, the width of a uniform spread with their variance (the hops'
// included; spike: the hops' alone), the mean gap since the previous try,
// and for a clock the ticks they fall on.
type spread struct {
	alive                   int
	mean, width, spike, gap float64
	ticks                   float64
}

func (e *estimator) spread(k int) spread {
	var s spread
	var ts [estPaths]float64
	var sum, gaps float64
	for i := range e.paths {
		if p := &e.paths[i]; !p.done {
			ts[s.alive] = p.t
			s.alive++
			sum += p.t
			gaps += p.gap
		}
	}
	if s.alive == 0 {
		return s
	}
	n := float64(s.alive)
	mean := sum / n
	var v float64
	for _, t := range ts[:s.alive] {
		v += (t - mean) * (t - mean)
	}
	v /= n
	hops := e.arrive + float64(k-1)*e.cycle
	if e.clock > 0 {
		hops = e.arrive // the clock erases the earlier hops' spread
		slices.Sort(ts[:s.alive])
		s.ticks = float64(len(slices.Compact(ts[:s.alive])))
		s.ticks = math.Max(s.ticks, math.Sqrt(12*v)/e.clock)
	}
	s.mean = mean + e.arrive*e.hop
	s.spike = math.Sqrt(12 * hops * e.sd2)
	s.width = math.Sqrt(12 * (v + hops*e.sd2))
	s.gap = gaps / n
	return s
}

// run follows the cohort wave by wave and returns the tries.
func (e *estimator) run() float64 {
	c := e.c
	m := float64(c.Clients) // clients still trying
	calls, served := 0.0, 0.0
	// The token budget allows Tokens/RetryCost retries and one more per
	// RetryCost/Refund successes: bounded as if refunds never overflowed.
	retries, allowed := 0.0, c.Budget.Tokens/c.Budget.RetryCost
	prevAlive, prevMean := estPaths, math.Inf(-1)
	for k := 1; ; k++ {
		s := e.spread(k)
		if s.alive == 0 {
			return calls
		}
		left := m - served
		// Clients whose path ended gave up.
		m = left * float64(s.alive) / float64(prevAlive)
		if k > 1 {
			switch c.Budget.Kind {
			case TokenBudget:
				m = math.Min(m, allowed-retries)
				retries += m
			case RatioBudget:
				// Retries outstanding at once: at most the ratio of the
				// clients active, and a wave wider than the gap between
				// tries has only a gap's worth outstanding at once.
				overlap := math.Max(1, s.width/s.gap)
				m = math.Min(m, overlap*math.Max(float64(c.Budget.MinRetries), c.Budget.Ratio*left))
			}
		}
		if m < 0.5 {
			return calls
		}
		calls += m
		if calls >= float64(c.MaxCalls) {
			return calls
		}
		served = e.serve(m, s, k == 1, prevMean)
		if c.Budget.Kind == TokenBudget {
			allowed += served * c.Budget.Refund / c.Budget.RetryCost
		}
		prevAlive, prevMean = s.alive, s.mean
		if k == estWaves {
			return calls + e.extrapolate(k, m-served, served, s.alive, allowed-retries)
		}
		e.advance(k)
	}
}

// serve is how many of the wave's m clients are credited as served, and
// records the wave.
func (e *estimator) serve(m float64, s spread, first bool, prevMean float64) float64 {
	c := e.c
	w := wave{lo: s.mean - s.width/2, hi: s.mean + s.width/2, tries: m}
	// What earlier waves overlapping this one tried and took.
	var before, taken float64
	for _, o := range e.waves {
		f := overlap(o, w)
		before += f * o.tries
		taken += f * o.used
	}
	gap := s.gap
	if first {
		gap = math.Inf(1)
	}
	// The time the wave keeps the server busy: its width, or its spikes'
	// on a clock.
	busy, spikes := s.width, 1.0
	if e.clock > 0 {
		spikes = math.Max(1, s.ticks)
		busy = spikes * s.spike
	}
	model := e.model.estServe(e, &estWave{n: m + before, w: w, busy: busy, spikes: spikes, gap: gap, prev: prevMean, first: first})
	model = math.Min(m, math.Max(0, model-taken))
	// A breaker trips when the wave fails enough (K failures in a row, or
	// the ratio of at least its minimum calls). Then each cool-down it
	// lets a probe through, then the calls sent before the first answers
	// come back (a round trip's share of the wave), then until it trips
	// again the successes among about K*(1-f)/f calls, or among its
	// minimum calls.
	fail, trips, per := 1-model/m, false, 1.0
	switch b := c.Breaker; b.Kind {
	case ConsecutiveBreaker:
		trips = m*math.Pow(fail, float64(b.Failures)) >= 1
		per += float64(b.Failures) * (1 - fail) / fail
	case RatioBreaker:
		trips = fail >= b.Ratio && m >= float64(b.MinCalls)
		per += float64(b.MinCalls) * (1 - fail)
	}
	if cd := c.Breaker.Cooldown.Seconds(); trips && cd > 0 {
		rtt := 2 * e.arrive * e.hop
		if w.hi > w.lo {
			per += model * math.Min(1, rtt/(w.hi-w.lo))
		} else {
			per = model
		}
		model = math.Min(model, per*math.Max(math.Min(gap, cd), math.Min(busy, gap))/cd)
	}
	w.used = model
	e.waves = append(e.waves, w)
	return math.Min(estServed*m, estService*model)
}

// overlap is the share of o's arrivals that fall within w.
func overlap(o, w wave) float64 {
	if o.hi <= o.lo {
		if o.lo >= w.lo && o.lo <= w.hi {
			return 1
		}
		return 0
	}
	return math.Max(0, math.Min(o.hi, w.hi)-math.Max(o.lo, w.lo)) / (o.hi - o.lo)
}

// writes is how many of n occ writes spread over busy seconds succeed: a
// write fails when another succeeded between its read and itself (two
// hops), so about busy/two windows each hold a success once some write
// falls in them, and a write alone in its window succeeds.
func (e *estimator) writes(n, busy, spikes float64) float64 {
	two := 2 * e.hop
	switch {
	case two == 0:
		// Reads and writes at the same instant keep the clients' order:
		// every write finds the version it read.
		return n
	case busy == 0:
		return math.Min(n, spikes)
	}
	return math.Min(n, spikes+busy/two*(1-math.Exp(-n*two/busy)))
}

// tokens is what a token-bucket server refilled at rate serves of the
// wave x, up the share of it that finds the server up: the tokens at its
// start (full when fresh, else what the idle time since the previous wave
// refilled) and those refilled while it is busy. The models pass their
// rate and share (server_*.go: none during the outage, less rate while
// collapse's offered load is high).
func (e *estimator) tokens(x *estWave, rate, up float64, fresh bool) float64 {
	if up <= 0 {
		return 0
	}
	width := x.w.hi - x.w.lo
	tokens := e.burst
	if !fresh {
		tokens = math.Min(e.burst, rate*math.Max(0, x.gap-width))
	}
	tokens += (x.spikes - 1) * math.Min(e.burst, rate*e.clock)
	return math.Min(x.n*up, tokens+rate*x.busy*up)
}

// extrapolate adds the tries after wave k: m clients left, served per
// wave as the last, each path going on with its last gap until its
// attempts, deadline or horizon run out; retries is what a token budget
// still allows.
func (e *estimator) extrapolate(k int, m, served float64, alive int, retries float64) float64 {
	c := e.c
	if m < 0.5 {
		return 0
	}
	waves := math.Inf(1) // to serve them all
	if served > 0 {
		waves = math.Ceil(m / served)
	}
	total := 0.0
	for i := range e.paths {
		p := &e.paths[i]
		if p.done {
			continue
		}
		r := math.Inf(1)
		if a := c.Policy.Attempts; a > 0 {
			r = float64(a - k)
		}
		if limit := math.Min(p.first+e.deadline, e.horizon); p.gap > 0 && !math.IsInf(limit, 1) {
			r = math.Min(r, math.Floor((limit-p.t)/p.gap))
		}
		// Waves j = 0..r-1 find 1 - j/waves of the clients still trying.
		if n := math.Min(r, waves); !math.IsInf(waves, 1) {
			r = n - n*(n-1)/(2*waves)
		}
		total += r
	}
	total *= m / float64(alive)
	if c.Budget.Kind == TokenBudget {
		total = math.Min(total, retries+m*c.Budget.Refund/c.Budget.RetryCost)
	}
	return total
}

// RequestCallCost is what a request-level call costs in time against a
// herd's call, for bounds on work that count calls: the request-level
// engine makes 1.5 to 4 million calls a second (1.5 with percentile
// hedges, 1.9 with a breaker, 2.4 into a queue server, 4 into a
// rate-limited one), the herd's about 10 million (go test -bench ./sim).
const RequestCallCost = 6
