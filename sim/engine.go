package sim

import (
	"math"
	"math/rand/v2"

	"github.com/backoff-playground/playground/backoff"
)

// The request-level engine (Config.RequestLevel): requests, calls and the
// server's work, one event at a time, for open and loop traffic, the queue
// server, timeouts, faults, error rates, adaptive throttling and hedging.
// The herd's engine (loop.go) keeps one pending event per client carrying
// its whole state; here a caller can have several pending events at once
// (its call at the server, its timeout, its hedge timer), so callers live
// in a slab indexed by id and events name them. Events that have become
// stale (a timeout after the answer, an answer after the timeout) are
// dropped when popped: each try has a stamp, unique in the run, and an
// event acts only while its caller is still waiting on that stamp.
//
// Memory follows what is in flight, not the run's length: an open-traffic
// caller's slot goes back to a free list when its request ends, the
// latencies go into fixed histograms, the timeline's bins are bounded.

// reqSim is one request-level run. Not safe for concurrent use.
type reqSim struct {
	c      Config
	policy backoff.Policy
	delays backoff.Sampler
	hist   bool
	src    splitmix
	rng    *rand.Rand

	lat, sd  float64 // hop, seconds
	clock    float64 // Clock arrival period, seconds (0 = none)
	horizon  float64 // +Inf if none
	window   float64 // open and loop traffic without Drain: Duration, the run's end; else +Inf
	cutoff   float64 // min(horizon, window): no event after it is handled
	timeout  float64 // 0 = none
	duration float64 // open and loop traffic end, seconds
	hedgeAt  float64 // fixed hedge delay, seconds (0 = none or percentile)
	maxCalls int
	// fast is set when what a caller does on an answer touches no state
	// shared with other callers (no breaker, no shared budget, no hedges):
	// the answer is then handled when the server gives it, as the herd's
	// fast path does, instead of through the queue a hop later.
	fast bool
	// prop: PropagateDeadline.
	prop bool

	h   evQueue
	seq uint64
	// faults is how many of h's events are faults' starts and ends
	// (evFault): once only they are left and no call waits in a queue,
	// nothing more can happen to a call (over).
	faults int
	now    float64
	last   float64 // makespan
	begun  int     // closed and loop callers started
	nBeg   int     // callers to start: Clients (closed), Callers (loop), 0 (open)

	callers []caller
	// most is MaxInFlight's worth of callers in bytes (held).
	most   float64
	free   []uint32 // open traffic: slots to reuse
	active int      // requests started and not finished
	slots  int      // len(callers) at the end: the most callers at once (tests)

	// srvs is the fleet (one server unless Config.Servers), each with its
	// schedule; turn is the balancer's next server in turn.
	srvs   []rserver
	turn   int
	budget rbudget
	br     breaker
	// per caller (CallerScope): each caller's own budget, by id.
	cbudget []rbudget

	// A call chain (Layers > 1): the bottom layer's index, each layer's
	// budget and calls in flight, the calls each layer made to the one
	// below (the bottom's to the server), the bottom's calls for callers
	// that had stopped waiting, and the layers' timeouts.
	bottom     uint8
	lbudget    []rbudget
	lactive    []int
	layerCalls []int
	orphans    int
	// layerTimeout is each layer's wait for a try below, in seconds (the
	// bottom's is timeout's); anyLayerTimeout is set when one is not 0.
	layerTimeout    [MaxLayers]float64
	anyLayerTimeout bool
	// layerTimeoutsAt counts the layers' timeouts by the layer whose call
	// timed out.
	layerTimeoutsAt []int

	// cache is the look-aside cache in front of the servers (nil: none).
	cache *rcache

	tl       timeline
	latency  hist // requests' latencies (success)
	answers  hist // a chain's top-level answers, success or failure
	callLat  hist // calls' latencies (answers reaching a waiting caller), coarse: for percentile hedges
	hedgeP   float64
	hedgeD   float64 // the percentile hedge's current delay (+Inf until warmed up)
	hedgeAge int     // answers since hedgeD was worked out

	// totals
	requests, calls, tries, succeeded, gaveUp   int
	blocked, throttled, timeouts, hedges        int
	served, refused, errs, outageFails, dropped int
	cancelled, lost, shed, limited, expired     int
	ra                                          float64 // the Retry-After of the reply being decided (reply)
	wasted, waitSum                             float64
	waits                                       int

	done, truncated bool
	truncBy         string  // what cut the run short (Result.TruncatedBy)
	stoppedAt       float64 // and when
	halt            bool    // stop before the next event (MaxInFlight)
	fullAt          float64 // when MaxInFlight stopped the run, or 0
	progress        float64
	res             *Result
	violations      int
	touched         uint32 // touch's loads go somewhere

	race  *raceStats // tests: the capture effect on an ethernet channel
	watch queueWatch // tests: the queue server's moves, for its discipline's laws
	fair  fairness   // fairness.go
	spare *buffers   // see Sim.spare
	trace *callTrace // nil: no Tracer (calltrace.go)
}

// caller is one caller's state: its request, its current try and the
// copies of it in flight (two with a hedge).
type caller struct {
	first float64    // the request's start
	sent  [2]float64 // each copy's send time
	prev  float64    // backoff.State.Prev or PrevV2 (history-dependent jitter)
	pos   [2]uint64  // each queued copy's place in its server's ring
	at    [2]uint8   // each copy's server in the fleet (at[0]: the last try's, for RetryOther)
	state uint8      // csIdle, csWaiting, csBackoff
	// copies sent in the current try, and not yet answered
	copies, out uint8
	cq          [2]uint8 // each copy at the queue server: cqNone, cqQueued, cqService
	probe       bool     // the current try is the breaker's half-open probe
	primary     bool     // the try's first copy is not answered yet
	// A call chain's layer (0: the top, whose calls are the requests) and,
	// below the top, the caller above and the stamp of its try this call
	// answers (chain.go).
	layer uint8
	coll  bool   // the channel: the frame in flight collided
	stamp uint32 // the current try's stamp: r.tries when it was made
	tries uint32
	// parent and pstamp: see layer.
	parent uint32
	pstamp uint32
	// key is the request's key at the cache (node_cache.go), its calls'
	// below a chain's top alike.
	key uint32
}

// Caller states.
const (
	csIdle    uint8 = iota // no request, or it has ended
	csWaiting              // a try is in flight
	csBackoff              // waiting out the delay before a retry
)

// Where a copy is at the queue server, as its caller knows it.
const (
	cqNone uint8 = iota
	cqQueued
	cqService
)

// Event kinds, in the low bits of rev.key's meta byte; bit 4 is the copy
// (0, or 1 for a hedge) and bits 5-7 a reply's outcome.
const (
	evNext     = iota + 1 // open traffic: the next request arrives
	evStart               // caller id starts a request (closed, loop)
	evSend                // caller id sends its next try (x unused)
	evArrive              // a copy of try stamp of caller id reaches the server
	evDone                // the queue server finishes it (x: service seconds)
	evReply               // the server's answer reaches caller id
	evTimeout             // caller id's try stamp times out
	evHedge               // caller id's try stamp is due a hedge
	evFault               // the server's condition changes (a fault starts or ends)
	evTxEnd               // the channel: caller id's frame, try stamp, ends
	evChanFree            // the ethernet channel's jam ends
	evFlush               // the cache is flushed (x: when it stores again)

	evKindMask = 0xf
	evCopy     = 1 << 4
	evOutShift = 5
	// doneCut marks an evDone whose work its deadline cut short.
	doneCut = 1 << evOutShift
)

// Outcomes carried by a reply.
const (
	rOK uint8 = iota
	rFail
	rRetryAfter // a 503 with Retry-After
	rRefused    // a refusal without one
	rLost       // the call collided on the channel
)

func newReqSim(c Config, seed uint64, b, spare *buffers) *reqSim {
	r := &reqSim{c: c, policy: c.Policy, src: splitmix{seed}, maxCalls: c.MaxCalls, spare: spare}
	r.rng = newRandOn(&r.src)
	r.h.heap.h = take(&b.revs)[:0] // push grows it by its length, as from nil
	if n := callersAtOnce(&c); n > smallQueue {
		// Thousands of callers keep thousands of events pending. Before
		// the first push: the heap may hold only the current tick's.
		r.h.far = newRevWheel(spreadWidth(reqTimeScale(&c), n))
	}
	if c.HonorRetryAfter && r.policy.RetryAfter == backoff.RetryAfterIgnore {
		r.policy.RetryAfter = backoff.RetryAfterAsIs
	}
	r.delays = backoff.NewSampler(r.policy)
	r.hist = c.Policy.Jitter.HistoryDependent()
	r.lat, r.sd = c.Latency.Seconds(), c.LatencySD.Seconds()
	if !c.Server.Traits().Hops {
		r.lat, r.sd = 0, 0 // the stations are on the medium
	}
	if c.Arrival == Clock {
		r.clock = c.ArrivalWindow.Seconds()
	}
	r.horizon = math.Inf(1)
	if c.Horizon > 0 {
		r.horizon = c.Horizon.Seconds()
	}
	r.timeout = c.Timeout.Seconds()
	r.duration = c.Duration.Seconds()
	r.window = math.Inf(1)
	if c.Traffic != Closed && !c.Drain {
		r.window = r.duration
	}
	r.cutoff = math.Min(r.horizon, r.window)
	r.hedgeAt = c.Hedge.Delay.Seconds()
	r.hedgeP, r.hedgeD = c.Hedge.Percentile/100, math.Inf(1)
	// A chain's calls between layers take no time, so a layer's answer is
	// handled with its bottom's, unless a layer's timeout may come first.
	r.fast = c.Breaker.Kind == NoBreaker && (c.Budget.Kind == NoBudget || c.BudgetScope == CallerScope) && !c.Hedge.On() &&
		(c.Layers == 1 || !c.LayerTimeout.Any()) && c.CacheKeys == 0 && !c.PropagateDeadline
	r.prop = c.PropagateDeadline
	r.srvs = make([]rserver, max(1, c.Servers))
	for k := range r.srvs {
		cs := c.serverConfig(k)
		r.srvs[k] = newRServer(&cs, k)
	}
	r.budget = newRBudget(c.Budget)
	r.br = newBreaker(c.Breaker)
	r.most = float64(c.MaxInFlight) * callerUnit(&c)
	r.bottom = uint8(c.Layers - 1)
	r.layerCalls = make([]int, c.Layers)
	r.layerTimeoutsAt = make([]int, c.Layers)
	if c.Layers > 1 {
		r.lbudget = make([]rbudget, c.Layers)
		for k := range r.lbudget {
			r.lbudget[k] = newRBudget(c.Budget)
		}
		r.lactive = make([]int, c.Layers)
		for k := range c.Layers - 1 {
			r.layerTimeout[k] = c.LayerTimeout.At(k).Seconds()
		}
		r.anyLayerTimeout = c.LayerTimeout.Any()
	}
	r.tl = newTimeline(c.Bucket, reqTimeScale(&c), maxBins(&c))
	r.tl.req = true
	r.tl.cache = c.CacheKeys > 0
	r.tl.setParts(len(r.srvs), c.Layers)
	r.latency = newHist(fineSub, fineMin, fineOctaves)
	if c.Layers > 1 {
		r.answers = newHist(fineSub, fineMin, fineOctaves)
	}
	r.callLat = newHist(coarseSub, coarseMin, coarseOctaves)
	if r.cache = newCache(&c, &r.src); r.cache != nil {
		r.cacheFlushes()
	}
	for k := range r.srvs {
		for i := 1; i < len(r.srvs[k].sched.segs); i++ {
			r.pushAt(r.srvs[k].sched.segs[i].start, evFault, uint8(k), 0, 0, 0)
			r.faults++
		}
	}
	switch c.Traffic {
	case Closed:
		r.nBeg = c.Clients
		r.callers = zeroed(take(&b.callers), c.Clients)
		r.fair = newFairness(c.Clients, false)
	case Loop:
		r.nBeg = c.Callers
		r.callers = zeroed(take(&b.callers), c.Callers)
		r.fair = newFairness(c.Callers, true)
	case Open:
		r.callers = empty(take(&b.callers), 0)
		r.fair = newFairness(0, false)
		r.pushFIFO(fifoNext, r.interarrival(), evNext, 0, 0)
	}
	if c.BudgetScope == CallerScope {
		r.cbudget = make([]rbudget, len(r.callers))
	}
	return r
}

// callersAtOnce is how many callers a closed or loop run has (0 for open
// traffic, whose callers come and go).
func callersAtOnce(c *Config) int {
	switch c.Traffic {
	case Closed:
		return c.Clients
	case Loop:
		return c.Callers
	}
	return 0
}

// reqTimeScale is the config's typical time between a call's events, for
// the timeline's first bin width.
func reqTimeScale(c *Config) float64 {
	s := timeScale(c)
	if c.Server.Traits().Waits == WaitQueue {
		s = min(s, c.Service.Seconds())
	}
	if c.Traffic == Open {
		s = min(s, 10/c.Rate)
	}
	return s
}

// advance handles at most maxEvents events (at least one) and reports
// whether the run is over.
func (r *reqSim) advance(maxEvents int) bool {
	if r.done {
		return true
	}
	for n := 0; n < max(1, maxEvents); n++ {
		if r.begun < r.nBeg {
			r.begin()
			continue
		}
		if over := r.over(); over || r.tries >= r.maxCalls || r.halt {
			if !over && !r.halt {
				r.stop(StopCalls, r.now)
			}
			r.finish()
			return true
		}
		if r.h.far != nil && r.h.refill() {
			r.touch()
		}
		e := r.h.pop()
		if e.t < r.now {
			r.violations++
		}
		if e.t > r.cutoff {
			r.pastCutoff()
			r.finish()
			return true
		}
		r.now = e.t
		r.handle(&e)
	}
	r.updateProgress()
	return false
}

// over reports whether nothing more can happen to a call: no event is
// pending but faults' boundaries, and no call waits in a queue for one of
// them (a stall's end) to be served. The run ends there: a fault after it
// meets nothing, and neither moves the run's clock nor stretches it.
func (r *reqSim) over() bool {
	if r.h.len() > r.faults {
		return false
	}
	for k := range r.srvs {
		if r.srvs[k].live > 0 {
			return false
		}
	}
	return true
}

// stop records that the run was cut short, by what and when: the first
// cause counts. The end of an open or loop run's window is not one.
func (r *reqSim) stop(by string, at float64) {
	if !r.truncated {
		r.truncated, r.truncBy, r.stoppedAt = true, by, at
	}
}

// pastCutoff: something is due after the run's end. The horizon coming
// before the window's end cuts the run short; the window's own end does
// not.
func (r *reqSim) pastCutoff() {
	if r.horizon < r.window {
		r.stop(StopHorizon, r.horizon)
	}
}

// held is the bytes the run holds that grow with the load, from its
// structures: its caller slots (their own budgets, the free list), its
// pending events and the calls waiting in its servers' queues. A slice
// that grows counts at the larger of its capacity and the size its next
// growth makes (growing, appended), so the bound holds before a growth as
// after it.
// MaxInFlight bounds it, in callers' worth (callerUnit).
func (r *reqSim) held() float64 {
	n := len(r.callers)
	if r.c.Traffic != Open && r.c.Layers == 1 {
		n = 0 // closed and loop callers are all there from the start
	}
	b := appended(cap(r.callers), n)*callerBytes + appended(cap(r.cbudget), min(n, len(r.cbudget)))*rbudgetBytes +
		appended(cap(r.free), len(r.free))*4 + r.h.bytes()
	for k := range r.srvs {
		q := &r.srvs[k].q
		b += growing(len(q.buf), q.len()) * qentryBytes
	}
	return b
}

// fill stops the run at t if it holds MaxInFlight callers' worth: its
// memory budget.
func (r *reqSim) fill(t float64) {
	if r.c.MaxInFlight > 0 && r.held() >= r.most && !r.halt {
		r.stop(StopMemory, t)
		r.halt, r.fullAt = true, t
	}
}

// touch reads the callers of the events just brought from the wheel: its
// next few pops. Their slots are scattered over megabytes; the loads,
// independent of each other, wait for memory together here instead of
// one at a time as each event is handled (BenchmarkChain: a miss per
// event was a quarter of the run).
func (r *reqSim) touch() {
	var sum uint32
	h, callers := r.h.far.near[r.h.far.first:], r.callers
	for i := range h {
		if id := h[i].id; id < uint32(len(callers)) {
			sum += callers[id].stamp
		}
	}
	r.touched += sum
}

// begin starts the next closed or loop caller, at 0 or uniform over the
// arrival window.
func (r *reqSim) begin() {
	i := r.begun
	r.begun++
	t := 0.0
	if r.c.Arrival == Uniform {
		t = r.c.ArrivalWindow.Seconds() * r.src.float64()
	}
	r.push(t, evStart, uint32(i), 0, 0)
}

func (r *reqSim) handle(e *rev) {
	meta, k := uint8(e.key), uint8(e.key>>8)
	cp := 0
	if meta&evCopy != 0 {
		cp = 1
	}
	switch meta & evKindMask {
	case evNext:
		r.next(e.t)
	case evStart:
		r.start(e.id, e.t)
	case evSend:
		if c := &r.callers[e.id]; c.state == csBackoff && c.stamp == e.stamp {
			r.try(e.id, e.t)
		}
	case evArrive:
		r.arrive(e.t, k, e.id, e.stamp, cp, e.x)
	case evDone:
		r.done1(e.t, k, e.id, e.stamp, cp, e.x, meta&doneCut != 0)
	case evReply:
		r.reply(e.t, e.id, e.stamp, cp, meta>>evOutShift&7, e.x)
	case evTimeout:
		r.expire(e.t, e.id, e.stamp)
	case evHedge:
		r.hedge(e.t, e.id, e.stamp)
	case evFault:
		r.faults--
		r.fault(e.t, k)
	case evTxEnd:
		r.txEnd(e.t, e.id, e.stamp)
	case evChanFree:
		r.chanFree(e.t)
	case evFlush:
		r.faults--
		r.cache.flush(e.x)
	}
}

// push schedules an event.
func (r *reqSim) push(t float64, meta uint8, id, stamp uint32, x float64) {
	r.pushAt(t, meta, 0, id, stamp, x)
}

// pushAt schedules an event at server k of the fleet: the key is the
// sequence number, then k, then meta, so that ties go in push order.
func (r *reqSim) pushAt(t float64, meta, k uint8, id, stamp uint32, x float64) {
	if t < r.now {
		r.violations++
	}
	e := rev{t: t, key: r.seq<<16 | uint64(k)<<8 | uint64(meta), tag: tag{id, stamp}, x: x}
	if w := r.h.far; w != nil {
		w.push(e)
	} else {
		r.h.heap.push(e)
	}
	r.seq++
}

// FIFOs of the event queue: events pushed in time order.
const (
	fifoTimeout = iota // every timeout is Timeout after its call
	fifoHedge          // every fixed hedge is Hedge.Delay after its call
	fifoNext           // open traffic's arrivals, one at a time
)

// pushFIFO schedules an event on FIFO k, after every other event there.
func (r *reqSim) pushFIFO(k int, t float64, meta uint8, id, stamp uint32) {
	f := &r.h.fifo[k]
	e := rev{t: t, key: r.seq<<16 | uint64(meta), tag: tag{id, stamp}}
	if t < r.now || f.len() > 0 && e.less(f.last()) {
		r.violations++
	}
	r.h.pushFIFO(k, e)
	r.seq++
}

// seen records that something happened at t (the makespan).
func (r *reqSim) seen(t float64) {
	if t > r.last {
		r.last = t
	}
}

// hop is one network delay, seconds (as Sim.hop).
func (r *reqSim) hop() float64 {
	if r.sd == 0 {
		return r.lat
	}
	return math.Abs(r.lat + r.sd*r.normal())
}

// normal is a standard normal draw: rand.Rand.NormFloat64's, its common
// case inlined (see normFast).
func (r *reqSim) normal() float64 {
	x, ok := normFast(r.src.Uint64())
	if !ok {
		r.src.unread()
		x = r.rng.NormFloat64()
	}
	return x
}

// interarrival is the time to the next open-traffic arrival.
func (r *reqSim) interarrival() float64 {
	return -logx(1-r.src.float64()) / r.c.Rate
}

// alloc is a free caller slot: a freed one, or a new one at the end
// (which may move r.callers: take pointers into it afresh after).
func (r *reqSim) alloc() uint32 {
	if n := len(r.free); n > 0 {
		id := r.free[n-1]
		r.free = r.free[:n-1]
		return id
	}
	r.fill(r.now)
	id := uint32(len(r.callers))
	r.callers = append(r.callers, caller{})
	if r.cbudget != nil {
		r.cbudget = append(r.cbudget, rbudget{})
	}
	return id
}

// next: an open-traffic request arrives at t, and the next is scheduled.
func (r *reqSim) next(t float64) {
	id := r.alloc()
	if nt := t + r.interarrival(); nt < r.duration {
		r.pushFIFO(fifoNext, nt, evNext, 0, 0)
	}
	r.start(id, t)
}

// start: caller id starts a request at t.
func (r *reqSim) start(id uint32, t float64) {
	c := &r.callers[id]
	// Cleared in place, not from a literal: under WebAssembly a literal
	// with a field read from c is built aside and copied over, five
	// calls out of the compiled code where this is one.
	stamp := c.stamp
	*c = caller{}
	c.first, c.stamp = t, stamp
	if r.cache != nil {
		c.key = r.cache.draw(&r.src)
	}
	if r.cbudget != nil && (r.c.Traffic != Loop || r.cbudget[id].kind == NoBudget) {
		r.cbudget[id] = newRBudget(r.c.Budget)
	}
	r.requests++
	r.active++
	r.tl.at(t).started++
	if r.trace != nil {
		r.trace.slot(id).req = uint32(r.requests)
	}
	r.try(id, t)
}

// rbudget is a budget with the adaptive throttle, which only
// request-level runs have.
type rbudget struct {
	budget
	adaptive adaptiveThrottle
}

func newRBudget(b Budget) rbudget { return rbudget{newBudget(b), newAdaptive(b)} }

// budgetOf is the budget caller id answers to.
func (r *reqSim) budgetOf(id uint32) *rbudget {
	switch {
	case r.cbudget != nil:
		return &r.cbudget[id]
	case r.lbudget != nil:
		return &r.lbudget[r.callers[id].layer]
	}
	return &r.budget
}

// try: caller id makes a try at t: the breaker and the throttle may
// refuse it at once; else its call goes to the server, with its timeout
// and its hedge timer.
func (r *reqSim) try(id uint32, t float64) {
	c := &r.callers[id]
	if t > r.horizon || r.tries >= r.maxCalls {
		if t > r.horizon {
			r.stop(StopHorizon, r.horizon)
		} else {
			r.stop(StopCalls, t)
		}
		c.state = csIdle // the request stays unfinished
		return
	}
	r.seen(t)
	r.tries++
	c.tries++
	c.stamp = uint32(r.tries)
	if r.fair.trace != nil && c.layer == 0 {
		r.fair.record(r.client(id), t, TraceTry)
	}
	c.state, c.copies, c.out, c.cq, c.primary = csWaiting, 1, 1, [2]uint8{}, true
	dl := math.Inf(1)
	if r.prop {
		if dl = r.tryDeadline(id, t); dl <= t {
			// No time left: the try is not made, nor any after it.
			r.end(id, t, false)
			return
		}
	}
	if c.layer < r.bottom {
		r.callBelow(id, t, dl)
		return
	}
	if r.cache != nil && r.cacheHit(id, t) {
		return
	}
	if r.br.kind != NoBreaker {
		allowed, probe := r.br.allow(t)
		c.probe = probe
		if !allowed {
			r.blocked++
			r.tl.at(t).blocked++
			r.failed(id, t, outBlocked)
			return
		}
	}
	if b := r.budgetOf(id); b.kind == AdaptiveBudget && b.adaptive.throttle(t, r.src.float64()) {
		r.throttled++
		_, x := r.tl.atx(t)
		x.throttled++
		r.failed(id, t, outBlocked)
		return
	}
	r.calls++
	r.layerCalls[r.bottom]++
	// Only a layer's timeout makes a caller above stop waiting on a call
	// still going below: without one there are no orphans to look for.
	if r.anyLayerTimeout && r.orphaned(id) {
		r.orphans++
	}
	bi := r.tl.slot(t)
	b := &r.tl.bins[bi]
	b.calls++
	if c.tries > 1 {
		b.retries++
	}
	c.sent[0] = t
	k := r.pick(id, c.tries > 1)
	c.at[0] = k
	if r.trace != nil {
		r.traceSent(id, 0)
	}
	r.srvs[k].out++
	r.srvs[k].calls++
	r.tl.serverIn(bi, k).calls++
	r.pushAt(t+r.hop(), evArrive, k, id, c.stamp, dl)
	switch {
	case r.prop && dl < math.Inf(1) && (r.timeout == 0 || dl < t+r.timeout):
		r.push(dl, evTimeout, id, c.stamp, 0) // the deadline passed down comes first
	case r.timeout > 0:
		r.pushFIFO(fifoTimeout, t+r.timeout, evTimeout, id, c.stamp)
	}
	switch {
	case r.hedgeAt > 0:
		r.pushFIFO(fifoHedge, t+r.hedgeAt, evHedge, id, c.stamp)
	case r.hedgeD < math.Inf(1):
		r.push(t+r.hedgeD, evHedge, id, c.stamp, 0)
	}
}

// failed: caller id's try failed at t without an answer from the server
// (refused by the breaker or the throttle, or timed out).
func (r *reqSim) failed(id uint32, t float64, out outcome) {
	c := &r.callers[id]
	next, again := r.decide(id, t, out)
	if !again {
		return
	}
	c.state = csBackoff
	r.push(next, evSend, id, c.stamp, 0)
}

// decide: the outcome of caller id's try reaches it at t. The request ends
// (again false) or the caller names the time of its next try (as
// Sim.decide).
func (r *reqSim) decide(id uint32, t float64, out outcome) (next float64, again bool) {
	c := &r.callers[id]
	ok, ra := out == outOK, out == outRetryAfter
	wasRetry := c.tries > 1
	if r.br.kind != NoBreaker && out != outBlocked && c.layer == r.bottom {
		probe := c.probe
		c.probe = false
		r.br.record(t, ok, probe)
	}
	b := r.budgetOf(id)
	switch b.kind {
	case NoBudget:
	case AdaptiveBudget:
		if ok {
			b.adaptive.accept(t)
		}
	default:
		b.answered(wasRetry, ok)
	}
	if ok {
		r.succeed(id, t)
		return 0, false
	}
	n := int(c.tries)
	if a := r.c.LayerAttemptsAt(int(c.layer)); a > 0 && n >= a {
		r.end(id, t, false)
		return 0, false
	}
	d := r.delays.Next(n, &c.prev, r.src.float64())
	if ra && r.c.HonorRetryAfter {
		wait := r.c.RetryAfter.Seconds()
		if r.ra > 0 { // an admission rule's own
			wait = r.ra
		}
		var keep bool
		if d, keep = r.policy.WithRetryAfter(d, wait); !keep {
			r.end(id, t, false)
			return 0, false
		}
	}
	next = t + d
	if r.clock > 0 {
		next = math.Ceil(next/r.clock) * r.clock
	}
	if dl := r.c.Policy.Deadline; dl > 0 && next-c.first > dl.Seconds() {
		r.end(id, t, false)
		return 0, false
	}
	active := r.active
	switch {
	case r.cbudget != nil:
		active = 1
	case r.lactive != nil && c.layer > 0:
		active = r.lactive[c.layer]
	}
	if b.kind != NoBudget && b.kind != AdaptiveBudget && !b.retry(active) {
		r.end(id, t, false)
		return 0, false
	}
	return next, true
}

// succeed: caller id's request succeeded at t.
func (r *reqSim) succeed(id uint32, t float64) {
	c := &r.callers[id]
	if c.layer > 0 {
		r.endCall(id, t, true)
		return
	}
	r.succeeded++
	r.latency.add(t - c.first)
	_, x := r.tl.atx(t)
	x.goodput++
	r.end(id, t, true)
}

// end: caller id's request ended at t. A loop caller thinks, then starts
// its next one while the traffic lasts; an open caller's slot is freed.
func (r *reqSim) end(id uint32, t float64, ok bool) {
	if r.callers[id].layer > 0 {
		r.endCall(id, t, ok)
		return
	}
	if !ok {
		r.gaveUp++
	}
	r.seen(t)
	if r.c.Layers > 1 {
		r.answers.add(t - r.callers[id].first)
	}
	c, k := &r.callers[id], r.client(id)
	r.fair.ended(k, ok, int(c.tries), t-c.first)
	if r.fair.trace != nil {
		kind := TraceGaveUp
		if ok {
			kind = TraceSuccess
		}
		r.fair.record(k, t, kind)
	}
	r.active--
	r.tl.at(t).finished++
	c.state = csIdle
	switch r.c.Traffic {
	case Open:
		r.free = append(r.free, id)
	case Loop:
		if nt := t + r.c.Think.Seconds(); nt < r.duration {
			r.push(nt, evStart, id, 0, 0)
		}
	}
}

// waiting reports whether caller id still waits on try stamp. Stamps are
// unique in a run, so a reused slot never matches an old stamp.
func (r *reqSim) waiting(id, stamp uint32) bool {
	c := &r.callers[id]
	return c.stamp == stamp && c.state == csWaiting
}

// expire: caller id's try stamp times out at t, unless answered already.
func (r *reqSim) expire(t float64, id, stamp uint32) {
	if !r.waiting(id, stamp) {
		return
	}
	r.seen(t)
	c := &r.callers[id]
	if c.layer < r.bottom {
		r.layerTimeoutsAt[c.layer]++
		r.tl.layer(t, c.layer).timeouts++
	} else {
		if r.trace != nil {
			r.traceExpire(id, t)
		}
		r.timeouts++
		_, x := r.tl.atx(t)
		x.timeouts++
		r.srvs[c.at[0]].timeouts++
		r.tl.server(t, c.at[0]).timeouts++
	}
	c.state = csBackoff // no copy of this try is waited for any more
	if c.primary {
		r.censored()
	}
	r.failed(id, t, outFail)
}

// hedge: caller id's try stamp is due its second copy at t.
func (r *reqSim) hedge(t float64, id, stamp uint32) {
	c := &r.callers[id]
	if !r.waiting(id, stamp) || c.copies != 1 || c.out != 1 {
		return
	}
	r.seen(t)
	c.copies, c.out = 2, 2
	c.sent[1] = t
	if r.cache != nil {
		r.cacheMiss(t) // a second call on the try's miss
	}
	r.calls++
	r.hedges++
	r.layerCalls[r.bottom]++
	b, x := r.tl.atx(t)
	b.calls++
	x.hedges++
	k := r.pick(id, false)
	c.at[1] = k
	if r.trace != nil {
		r.traceSent(id, 1)
	}
	r.srvs[k].out++
	r.srvs[k].calls++
	r.tl.server(t, k).calls++
	dl := 0.0
	if r.prop {
		dl = r.tryDeadline(id, c.sent[0])
	}
	r.pushAt(t+r.hop(), evArrive|evCopy, k, id, stamp, dl)
}

// reply: the server's answer to copy cp of caller id's try stamp reaches
// it at t, with the Retry-After it carries (answerAfter).
func (r *reqSim) reply(t float64, id, stamp uint32, cp int, out uint8, ra float64) {
	if !r.waiting(id, stamp) {
		return // a late answer: the caller timed out, or another copy won
	}
	c := &r.callers[id]
	c.out--
	c.cq[cp] = cqNone
	if c.layer < r.bottom {
		// The layer below answered a layer's call: no call to the server.
		if out == rOK {
			r.decide(id, t, outOK)
		} else {
			r.failed(id, t, outFail)
		}
		return
	}
	if r.trace != nil {
		r.traceReply(id, cp, t, out)
	}
	lat := t - c.sent[cp]
	_, x := r.tl.atx(t)
	x.lat[histIndex(lat, coarseSub, coarseMin, coarseBins)]++
	if cp == 0 {
		c.primary = false
		if r.hedgeP > 0 {
			r.primaryLatency(lat)
		}
	}
	switch out {
	case rOK:
		if r.cache != nil {
			r.cache.store(c.key, t)
		}
		if o := 1 - cp; c.copies == 2 && c.cq[o] == cqQueued && r.c.HedgeCancel {
			r.srvs[c.at[o]].cancel(r, c.pos[o], t)
			c.cq[o] = cqNone
		}
		if c.primary {
			r.censored() // the hedge won
		}
		r.decide(id, t, outOK)
	default:
		if c.out > 0 {
			return // the other copy may still succeed
		}
		o := outFail
		if out == rRetryAfter {
			o = outRetryAfter
		}
		r.ra = ra
		r.failed(id, t, o)
	}
}

// primaryLatency records the latency of a try's first copy, of which a
// percentile hedge waits for a percentile: only first copies, since a
// hedge's own latency would pull the percentile down, and with it more
// hedges.
func (r *reqSim) primaryLatency(lat float64) {
	r.callLat.add(lat)
	if r.hedgeAge++; r.hedgeAge >= 16 && r.callLat.n >= hedgeWarmup {
		r.hedgeAge = 0
		r.hedgeD = r.callLat.quantile(r.hedgeP)
	}
}

// censored records a first copy whose answer will not be seen (its hedge
// won, or the try timed out): it took longer than the hedge delay, or the
// timeout, and it counts as longer than anything, which keeps every
// percentile below the hedge delay right.
func (r *reqSim) censored() {
	if r.hedgeP > 0 {
		r.primaryLatency(math.Inf(1))
	}
}

// answer sends the server's answer to copy cp of caller id's try stamp,
// given at t, back to it, if it still waits (otherwise it would drop it).
func (r *reqSim) answer(t float64, id, stamp uint32, cp int, out uint8) {
	r.answerAfter(t, id, stamp, cp, out, 0)
}

// answerAfter is answer with the Retry-After a refusal carries, seconds
// (0: Config.RetryAfter's, where the outcome says it carries one).
func (r *reqSim) answerAfter(t float64, id, stamp uint32, cp int, out uint8, ra float64) {
	if !r.waiting(id, stamp) {
		return
	}
	tr := t + r.hop()
	if r.fast {
		// Unless its timeout comes first (it was scheduled first: on a tie
		// it pops first) or the run stops before.
		if r.timeout > 0 && tr >= r.callers[id].sent[cp]+r.timeout {
			return
		}
		if tr > r.cutoff {
			r.pastCutoff()
			// The run ends before the answer arrives: the request stays
			// unfinished. An open request's slot is free from now, as
			// it would be had the answer come in time, so that what the
			// run holds (MaxInFlight) does not depend on where it ends.
			if r.trace != nil {
				r.report(id, cp, math.NaN(), CallUnfinished)
			}
			if c := &r.callers[id]; r.c.Traffic == Open && c.layer == 0 {
				c.state = csIdle
				r.free = append(r.free, id)
			}
			return
		}
		r.reply(tr, id, stamp, cp, out, ra)
		return
	}
	meta := uint8(evReply) | out<<evOutShift
	if cp == 1 {
		meta |= evCopy
	}
	r.push(tr, meta, id, stamp, ra)
}

// refusal is the outcome of a 503.
func (r *reqSim) refusal() uint8 {
	if r.srvs[0].ra {
		return rRetryAfter
	}
	return rRefused
}

// settle: server k has answered a call, or dropped it: the balancer no
// longer counts it outstanding there.
func (r *reqSim) settle(k uint8) { r.srvs[k].out-- }

// arrive: copy cp of caller id's try stamp, with deadline dl
// (PropagateDeadline), reaches server k at t.
func (r *reqSim) arrive(t float64, k uint8, id, stamp uint32, cp int, dl float64) {
	r.seen(t)
	if r.trace != nil && r.waiting(id, stamp) {
		r.trace.slot(id).arrived[cp] = t
	}
	sv := &r.srvs[k]
	seg := sv.sched.at()
	if seg.outage {
		r.outageFails++
		sv.outage++
		b, x := r.tl.atx(t)
		b.rejected++
		x.outage++
		r.tl.server(t, k).failed++
		r.settle(k)
		r.answer(t, id, stamp, cp, r.refusal())
		return
	}
	if r.c.DropExpired && !r.waiting(id, stamp) {
		r.dropped++
		r.settle(k)
		return
	}
	if sv.waits == WaitMedium {
		r.settle(k)
		if r.waiting(id, stamp) {
			r.transmit(t, id, stamp)
		}
		return
	}
	if r.prop && t >= dl {
		r.expire1(t, k, id, stamp, cp)
		return
	}
	if sv.waits == WaitQueue {
		sv.enqueue(r, t, id, stamp, cp, dl)
		return
	}
	if seg.stall {
		// A rate-limited server takes the call when the stall ends.
		meta := uint8(evArrive)
		if cp == 1 {
			meta |= evCopy
		}
		r.pushAt(sv.sched.end(), meta, k, id, stamp, dl)
		return
	}
	rate := sv.capacity * seg.capacity / seg.slow
	if sv.shaper != nil {
		rate = sv.shaper.rate(t, rate)
	}
	// A registered model's Taker decides instead of the bucket; its
	// served calls cost 1/Capacity seconds of work, as a rate-limited
	// server's.
	var ok bool
	if sv.taker == nil {
		ok = sv.bucket.take(t, rate)
	} else {
		ok = sv.taker.Take(t)
	}
	if !ok {
		sv.refuse(r, t, id, stamp, cp, r.refusal(), 0)
		return
	}
	r.serve(t, k, id, stamp, cp, 1/sv.capacity)
}

// serve: server k has done the work of copy cp of caller id's try stamp,
// cost seconds of it, at t; it succeeds unless an error strikes.
func (r *reqSim) serve(t float64, k uint8, id, stamp uint32, cp int, cost float64) {
	sv := &r.srvs[k]
	r.served++
	sv.served++
	sv.work += cost
	b, x := r.tl.atx(t)
	x.served++
	r.tl.server(t, k).served++
	if !r.waiting(id, stamp) {
		r.wasted += cost
		x.wasted += int64(math.Round(cost * 1e9))
	}
	r.settle(k)
	if p := sv.sched.at().errRate; p > 0 && r.src.float64() < p {
		r.errs++
		sv.errs++
		b.rejected++
		x.errors++
		r.tl.server(t, k).failed++
		r.answer(t, id, stamp, cp, rFail)
		return
	}
	b.ok++
	r.answer(t, id, stamp, cp, rOK)
}

// done1: queue server k finishes copy cp of caller id's try stamp at t,
// after d seconds of service, and takes the next waiting calls; unless
// the server crashed since the call started: the crash lost it. A cut
// call's deadline stopped its work: d seconds for nobody, and a refusal.
func (r *reqSim) done1(t float64, k uint8, id, stamp uint32, cp int, d float64, cut bool) {
	r.seen(t)
	sv := &r.srvs[k]
	if sv.crashedSince(t - d) {
		return // counted lost at the crash, its worker freed then
	}
	sv.account(t)
	sv.busy--
	_, x := r.tl.atx(t)
	x.dbusy--
	r.tl.server(t, k).dbusy--
	if r.waiting(id, stamp) {
		r.callers[id].cq[cp] = cqNone
	}
	if cut {
		sv.work += d
		r.wasted += d
		x.wasted += int64(math.Round(d * 1e9))
		r.expire1(t, k, id, stamp, cp)
	} else {
		r.serve(t, k, id, stamp, cp, d)
	}
	sv.pull(r, t)
}

// fault: server k's condition changes at t. A rate-limited server's
// tokens are brought up to t at the old rate first; the queue server
// takes waiting calls if it has more room than before; a crash loses
// the queue and the calls in service. A change that meets no call is no
// event of the run: a fault's end after the last request has ended does
// not stretch the makespan, which every closed or drained run's rates are
// per second of.
func (r *reqSim) fault(t float64, k uint8) {
	sv := &r.srvs[k]
	old := sv.sched.at()
	if sv.waits != WaitQueue {
		// Tokens refill through an outage or a stall too, up to the
		// bucket's size, as they do in the herd's outage model.
		rate := sv.capacity * old.capacity / old.slow
		if sv.shaper != nil {
			rate = sv.shaper.peek(rate)
		}
		sv.bucket.refill(t, rate)
	}
	wasDown := old.crash
	if sv.waits == WaitQueue {
		sv.account(t)
	}
	for sv.sched.cur+1 < len(sv.sched.segs) && sv.sched.segs[sv.sched.cur+1].start <= t {
		sv.sched.cur++
	}
	if sv.sched.at().crash && !wasDown {
		sv.crash(r, t)
	}
	if sv.waits == WaitQueue {
		sv.pull(r, t)
	}
}

// updateProgress is Progress after a slice of Advance.
func (r *reqSim) updateProgress() {
	var p float64
	switch r.c.Traffic {
	case Closed:
		p = float64(r.succeeded+r.gaveUp) / float64(r.c.Clients)
	default:
		p = r.now / r.duration
	}
	p = math.Max(p, float64(r.tries)/float64(r.maxCalls))
	r.progress = math.Max(r.progress, math.Min(p, 0.999))
}

// callBelow: caller id, above the bottom of a chain, makes its try at t: a
// call to the layer below, which tries in turn, with the layer's timeout
// (or the try's deadline dl, PropagateDeadline).
func (r *reqSim) callBelow(id uint32, t, dl float64) {
	c := &r.callers[id]
	layer, stamp := c.layer, c.stamp
	r.layerCalls[layer]++
	r.tl.layer(t, layer).calls++
	switch {
	case r.prop && dl < math.Inf(1):
		r.push(dl, evTimeout, id, stamp, 0) // its own timeout, or sooner the deadline passed down
	case r.layerTimeout[layer] > 0:
		r.push(t+r.layerTimeout[layer], evTimeout, id, stamp, 0)
	}
	k := r.alloc() // may move r.callers: c is stale from here
	r.callers[k] = caller{first: t, stamp: r.callers[k].stamp, layer: layer + 1, parent: id, pstamp: stamp, key: r.callers[id].key}
	r.lactive[layer+1]++
	if r.trace != nil {
		r.trace.slot(k).req = r.trace.slot(id).req
	}
	r.try(k, t)
}

// endCall: caller id, below the top of a chain, is done at t: its answer
// goes to the caller above if that still waits for it (no time passes
// between layers), and its slot is freed.
func (r *reqSim) endCall(id uint32, t float64, ok bool) {
	c := &r.callers[id]
	c.state = csIdle
	r.seen(t)
	r.lactive[c.layer]--
	parent, pstamp := c.parent, c.pstamp
	r.free = append(r.free, id)
	if r.waiting(parent, pstamp) {
		out := rFail
		if ok {
			out = rOK
		}
		r.reply(t, parent, pstamp, 0, out, 0)
	}
}

// tryDeadline is the deadline of caller id's try made at t: its own
// timeout's, or sooner what its callers above have left, each its try's
// (a caller's try started when the call below it did: that caller's
// first), and the request's; +Inf for none, -Inf when a caller above has
// stopped waiting (PropagateDeadline). Worked out up the chain, so that
// callers keep no deadline of their own.
func (r *reqSim) tryDeadline(id uint32, t float64) float64 {
	c := &r.callers[id]
	dl := math.Inf(1)
	own := r.timeout
	if c.layer < r.bottom {
		own = r.layerTimeout[c.layer]
	}
	if own > 0 {
		dl = t + own
	}
	for c.layer > 0 {
		if !r.waiting(c.parent, c.pstamp) {
			return math.Inf(-1) // its deadline passed, or nobody waits
		}
		if w := r.layerTimeout[c.layer-1]; w > 0 {
			dl = math.Min(dl, c.first+w) // the parent's try began with this call
		}
		c = &r.callers[c.parent]
	}
	if d := r.c.Policy.Deadline; d > 0 {
		dl = math.Min(dl, c.first+d.Seconds())
	}
	return dl
}

// expire1: server k refuses copy cp of caller id's try stamp at t, unserved,
// its deadline passed (PropagateDeadline).
func (r *reqSim) expire1(t float64, k uint8, id, stamp uint32, cp int) {
	r.expired++
	r.srvs[k].refuse(r, t, id, stamp, cp, rRefused, 0)
}

// orphaned reports whether some caller above id in its chain has stopped
// waiting for it (timed out, or given up): then id's calls serve nobody.
func (r *reqSim) orphaned(id uint32) bool {
	for c := &r.callers[id]; c.layer > 0; c = &r.callers[c.parent] {
		if !r.waiting(c.parent, c.pstamp) {
			return true
		}
	}
	return false
}

// client is the client a top-level caller slot stands for: the slot in
// closed and loop traffic, none (-1) in open traffic, where every request
// is a caller of its own.
func (r *reqSim) client(id uint32) int {
	if r.c.Traffic == Open {
		return -1
	}
	return int(id)
}
