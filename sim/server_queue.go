package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// ServiceKind is the shape of the queue server's service times.
type ServiceKind uint8

const (
	// ExpService: exponential with mean Config.Service (M/M/c).
	ExpService ServiceKind = iota
	// FixedService: always Config.Service (M/D/c).
	FixedService
	// LognormalService: log-normal with mean Config.Service and the
	// log's standard deviation Sigma (a long right tail).
	LognormalService
	// BimodalService: Config.Service, or Slow with probability P (a
	// cache miss, a garbage collection).
	BimodalService
)

var serviceNames = []string{"exp", "fixed", "lognormal", "bimodal"}

func (k ServiceKind) String() string { return nameOf(serviceNames, int(k)) }

// ServiceNames lists every ServiceKind's name, indexed by ServiceKind: the
// kinds Set and the URL accept. The slice is a copy.
func ServiceNames() []string { return slices.Clone(serviceNames) }

// serviceForms are the forms of a service-dist value, as CodeFormat's Args list them.
var serviceForms = []string{"exp", "fixed", "lognormal:SIGMA", "bimodal:P:D2"}

// ServiceDist is the distribution of the queue server's service times.
// Text form (Set/Get "service-dist"): exp | fixed | lognormal:SIGMA |
// bimodal:P:D2.
type ServiceDist struct {
	Kind  ServiceKind
	Sigma float64       // LognormalService: the log's standard deviation, (0, 5]
	P     float64       // BimodalService: the slow mode's probability, [0, 1]
	Slow  time.Duration // BimodalService: the slow mode's service time
}

// MaxSigma bounds a log-normal's sigma: at 5 its mean is e^12.5 times its
// median, and most draws are far below the mean.
const MaxSigma = 5.0

func (d *ServiceDist) text() string {
	switch d.Kind {
	case LognormalService:
		return LognormalService.String() + ":" + formatFloat(d.Sigma)
	case BimodalService:
		return BimodalService.String() + ":" + formatFloat(d.P) + ":" + backoff.FormatDuration(d.Slow)
	}
	return d.Kind.String()
}

func (d *ServiceDist) validate() error {
	v := d.text()
	switch d.Kind {
	case ExpService, FixedService:
	case LognormalService:
		if !(d.Sigma > 0 && d.Sigma <= MaxSigma) {
			return positiveErr(ParamServiceDist, v, formatFloat(MaxSigma), "SIGMA", "lognormal:SIGMA with SIGMA above 0 and at most 5")
		}
	case BimodalService:
		const syntax = "bimodal:P:D2 with P from 0 to 1 and D2 a positive duration up to 1h"
		if err := backoff.CheckFloat(ParamServiceDist, d.P, 0, 1); err != nil {
			return partErr(err, v, "P", syntax)
		}
		if !(d.Slow > 0 && d.Slow <= MaxLatency) {
			return positiveErr(ParamServiceDist, v, backoff.FormatDuration(MaxLatency), "D2", syntax)
		}
	default:
		return formatErr(ParamServiceDist, v, serviceForms)
	}
	return nil
}

func parseServiceDist(v string) (ServiceDist, error) {
	parts := strings.Split(v, ":")
	kind, err := parseEnum[ServiceKind](ParamServiceDist, parts[0], serviceNames)
	if err != nil {
		return ServiceDist{}, formatErr(ParamServiceDist, v, serviceForms)
	}
	d := ServiceDist{Kind: kind}
	args := parts[1:]
	ok := true
	switch kind {
	case ExpService, FixedService:
		ok = len(args) == 0
	case LognormalService:
		ok = len(args) == 1
		if ok {
			d.Sigma, err = backoff.ParseFloat(ParamServiceDist, args[0], -1e300, 1e300)
			ok = err == nil
		}
	case BimodalService:
		ok = len(args) == 2
		if ok {
			d.P, err = backoff.ParseFloat(ParamServiceDist, args[0], -1e300, 1e300)
			ok = err == nil
			if ok {
				d.Slow, err = backoff.ParseDuration(ParamServiceDist, args[1], MaxLatency)
				if err != nil {
					return ServiceDist{}, positiveErr(ParamServiceDist, v, backoff.FormatDuration(MaxLatency), "D2",
						"bimodal:P:D2 with P from 0 to 1 and D2 a positive duration up to 1h")
				}
			}
		}
	}
	if !ok {
		return ServiceDist{}, formatErr(ParamServiceDist, v, serviceForms)
	}
	if err := d.validate(); err != nil {
		err.(*backoff.FieldError).Value = clip(v)
		return ServiceDist{}, err
	}
	return d, nil
}

// mean is the distribution's mean service time in seconds, for a mean
// (or fast mode) of base seconds.
func (d *ServiceDist) mean(base float64) float64 {
	if d.Kind == BimodalService {
		return (1-d.P)*base + d.P*d.Slow.Seconds()
	}
	return base
}

// serviceTime is one service time, in seconds, for a mean (fast mode) of
// base seconds, from a uniform draw u in [0, 1) and a standard normal
// draw z; each kind reads only the draw it needs (exp and bimodal u,
// lognormal z, fixed neither), so a caller draws only that one.
func serviceTime(d *ServiceDist, base, u, z float64) float64 {
	switch d.Kind {
	case ExpService:
		return -base * logx(1-u)
	case LognormalService:
		// exp(mu + sigma z) has mean exp(mu + sigma^2/2) = base.
		return base * expx(d.Sigma*z-d.Sigma*d.Sigma/2)
	case BimodalService:
		if u < d.P {
			return d.Slow.Seconds()
		}
	}
	return base
}

// qentry is a call waiting in the queue server's queue: 24 bytes.
type qentry struct {
	t   float64 // when it reached the server, seconds
	tag         // the caller and its try
	qmark
	// left is the time its deadline left it on arrival (PropagateDeadline;
	// +Inf: none), seconds: a float32 keeps the entry at 24 bytes.
	left float32
}

// qmark is a queued call's marks, a field of qentry's: in four fields the
// entry stays in registers (see rev).
type qmark struct {
	copy  uint8 // 0, or 1 for a hedge
	dead  bool  // cancelled by its caller (a hedge's sibling won)
	class uint8 // what its discipline said on arrival (queueDisc.arrive)
}

// ring is the queue server's queue of waiting calls, taken from either
// end. Positions are absolute, so a caller can name the place of its
// queued call to cancel it; entry p is buf[p&mask]. A position taken from
// the newest end is given again to the next call queued: its caller no
// longer holds it (cqService or cqNone once taken). Invariant:
// head <= tail <= head+len(buf); len(buf) is a power of two. Memory is
// 24 bytes per waiting call, at most twice the longest queue.
type ring struct {
	buf        []qentry
	head, tail uint64
}

func (r *ring) len() int { return int(r.tail - r.head) }

func (r *ring) push(e qentry) uint64 {
	if r.tail-r.head == uint64(len(r.buf)) {
		r.grow()
	}
	p := r.tail
	r.buf[p&uint64(len(r.buf)-1)] = e
	r.tail++
	return p
}

func (r *ring) grow() {
	nb := make([]qentry, max(64, 2*len(r.buf)))
	for p := r.head; p < r.tail; p++ {
		nb[p&uint64(len(nb)-1)] = r.buf[p&uint64(len(r.buf)-1)]
	}
	r.buf = nb
}

// pop removes the oldest entry; the ring must not be empty.
func (r *ring) pop() qentry {
	e := r.buf[r.head&uint64(len(r.buf)-1)]
	r.head++
	return e
}

// queueWatch sees a queue server's moves in a run: a test's, nil in
// every other run (one comparison per queued call).
type queueWatch interface {
	// queued: e has joined sv's queue at t.
	queued(sv *rserver, t float64, e *qentry)
	// taken: a worker of sv takes e from the queue at t, or refuses it
	// (overdue); sv's ring no longer holds it.
	taken(sv *rserver, t float64, e *qentry, overdue bool)
	// admitted: sv's admission rule let a call in at t (ok), or refused
	// it with Retry-After ra.
	admitted(sv *rserver, t float64, ok bool, ra float64)
}

// popNewest removes the newest entry; the ring must not be empty.
func (r *ring) popNewest() qentry {
	r.tail--
	return r.buf[r.tail&uint64(len(r.buf)-1)]
}

// at is the entry at absolute position p, which must be queued.
func (r *ring) at(p uint64) *qentry { return &r.buf[p&uint64(len(r.buf)-1)] }

// rserver is the server of a request-level run: a rate-limited one
// (capacity, outage, collapse: a token bucket, as the herd's server) or
// the queue server. Its condition over time is the run's schedule.
type rserver struct {
	waits    Wait    // its model's Traits.Waits
	ra       bool    // 503s carry Retry-After
	capacity float64 // calls per second (rate-limited models)
	bucket   tokenBucket
	shaper   *collapse // the collapse model's (nil: none)

	// The queue server. Invariant: while busy < room() and the queue has
	// live calls, a worker is about to take one (pull runs after every
	// change that can make room).
	workers int // Concurrency
	busy    int
	q       ring
	live    int // queued calls not cancelled
	limit   int // 0 = none
	service float64
	dist    ServiceDist
	disc    queueDisc // Config.Discipline, resolved for the run
	adm     admitter  // Config.Admission, resolved for the run
	since   float64   // when the queue last went from no live call to one

	ch channel // the Channel server

	taker Taker // a registered model's (nil for the built-in ones)

	// Its place in a fleet, its condition over time, the calls the
	// balancer has sent it and not seen answered, and its own counts
	// (Totals.PerServer): work is seconds of service done.
	k                                    uint8
	sched                                schedule
	out                                  int
	calls, served, refused, errs, outage int
	timeouts                             int
	lost                                 int
	work                                 float64
	// over is the queue server's worker-seconds of calls in service
	// beyond its workers (a call goes on when a fault takes its worker
	// away) up to overAt: with the workers' own, what it could have done.
	over, overAt float64
}

// account brings the queue server's over up to t; called before its
// busy workers or its condition change. After a run's last event no call
// is in service, so a fault handled then adds nothing.
func (sv *rserver) account(t float64) {
	if n := sv.busy - sv.room(sv.sched.at()); n > 0 && t > sv.overAt {
		sv.over += float64(n) * (t - sv.overAt)
	}
	if t > sv.overAt { // not max: a call under WebAssembly, for NaN's sake
		sv.overAt = t
	}
}

func newRServer(c *Config, k int) rserver {
	burst := math.Max(1, c.Capacity*c.CapacityWindow.Seconds())
	sv := rserver{k: uint8(k), sched: newSchedule(c, k), waits: c.Server.Traits().Waits, ra: c.RetryAfter > 0, capacity: c.Capacity,
		// The bucket starts empty: over any span from 0 the server then
		// serves at most capacity x span, so no throughput exceeds it.
		bucket:  tokenBucket{burst: burst},
		workers: c.Concurrency, limit: c.QueueLimit, service: c.Service.Seconds(), dist: c.ServiceDist,
		disc: c.Discipline.start(), adm: c.Admission.start(), ch: newChannel(c), taker: takerOf(c)}
	if m := c.Server.Model(); m != nil {
		m.setupReq(&sv, c)
	}
	return sv
}

// room is how many workers may be busy in the condition seg.
func (sv *rserver) room(seg *segment) int {
	if seg.stall {
		return 0
	}
	if seg.capacity == 1 {
		return sv.workers
	}
	return int(math.Round(float64(sv.workers) * seg.capacity))
}

// draw is one service time at the server's usual speed, seconds.
func (sv *rserver) draw(r *reqSim) float64 {
	switch sv.dist.Kind {
	case FixedService:
		return sv.service
	case LognormalService:
		return serviceTime(&sv.dist, sv.service, 0, r.normal())
	}
	return serviceTime(&sv.dist, sv.service, r.src.float64(), 0)
}

// backlog is how long the queue has held a live call at t, seconds: 0
// while it holds none.
func (sv *rserver) backlog(t float64) float64 {
	if sv.live == 0 {
		return 0
	}
	return t - sv.since
}

// enqueue: copy cp of caller id's try stamp reaches the queue server at t.
// A free worker takes it at once; else it waits, unless the queue is full
// or its discipline refuses it.
func (sv *rserver) enqueue(r *reqSim, t float64, id, stamp uint32, cp int, dl float64) {
	ok, ra := sv.adm.admit(t, sv.live+sv.busy)
	if r.watch != nil {
		r.watch.admitted(sv, t, ok, ra)
	}
	if !ok {
		// A 429: with the rule's Retry-After where it knows one.
		r.limited++
		out := rRefused
		if ra > 0 {
			out = rRetryAfter
		}
		sv.refuse(r, t, id, stamp, cp, out, ra)
		return
	}
	if sv.live == 0 && sv.busy < sv.room(sv.sched.at()) {
		sv.start(r, t, qentry{t: t, tag: tag{id, stamp}, qmark: qmark{copy: uint8(cp)}, left: float32(dl - t)})
		return
	}
	full, class := sv.disc.arrive(sv.live, sv.backlog(t))
	if full || sv.limit > 0 && sv.live >= sv.limit {
		r.shed++
		sv.refuse(r, t, id, stamp, cp, r.refusal(), 0)
		return
	}
	r.fill(t)
	p := sv.q.push(qentry{t: t, tag: tag{id, stamp}, qmark: qmark{copy: uint8(cp), class: class}, left: float32(dl - t)})
	if sv.live == 0 {
		sv.since = t
	}
	sv.live++
	if r.watch != nil {
		r.watch.queued(sv, t, sv.q.at(p))
	}
	_, x := r.tl.atx(t)
	x.dq++
	r.tl.server(t, sv.k).dq++
	if r.waiting(id, stamp) {
		c := &r.callers[id]
		c.cq[cp], c.pos[cp] = cqQueued, p
	}
}

// refuse: the server refuses copy cp of caller id's try stamp at t, with
// outcome out and Retry-After ra (answerAfter): its admission rule (a
// 429), its queue (a 503: no room, or waited longer than its discipline
// allows), its rate, or a deadline passed (PropagateDeadline).
func (sv *rserver) refuse(r *reqSim, t float64, id, stamp uint32, cp int, out uint8, ra float64) {
	r.refused++
	sv.refused++
	b, x := r.tl.atx(t)
	b.rejected++
	x.refused++
	r.tl.server(t, sv.k).failed++
	r.settle(sv.k)
	r.answerAfter(t, id, stamp, cp, out, ra)
}

// start: a worker takes call e at t.
func (sv *rserver) start(r *reqSim, t float64, e qentry) {
	sv.account(t)
	sv.busy++
	_, x := r.tl.atx(t)
	x.dbusy++
	r.tl.server(t, sv.k).dbusy++
	d := sv.draw(r) * sv.sched.at().slow
	sv.adm.taken(t-e.t, sv.live+sv.busy)
	r.waitSum += t - e.t
	r.waits++
	if r.waiting(e.id, e.stamp) {
		r.callers[e.id].cq[e.copy] = cqService
	}
	meta := uint8(evDone)
	if e.copy == 1 {
		meta |= evCopy
	}
	if r.prop {
		if end := e.t + float64(e.left); end < t+d {
			// The caller's deadline ends the work, as a cancelled
			// context ends a handler's.
			d = math.Max(0, end-t)
			meta |= doneCut
		}
	}
	r.pushAt(t+d, meta, sv.k, e.id, e.stamp, d)
}

// pull: free workers take waiting calls at t, from the end the discipline
// says, skipping cancelled ones, with DropExpired those whose caller has
// gone, and refusing those the discipline finds overdue.
func (sv *rserver) pull(r *reqSim, t float64) {
	room := sv.room(sv.sched.at())
	for sv.busy < room && sv.q.len() > 0 {
		var e qentry
		if sv.disc.newest(sv.backlog(t)) {
			e = sv.q.popNewest()
		} else {
			e = sv.q.pop()
		}
		if e.dead {
			continue
		}
		sv.live--
		_, x := r.tl.atx(t)
		x.dq--
		r.tl.server(t, sv.k).dq--
		if r.c.DropExpired && !r.waiting(e.id, e.stamp) {
			r.dropped++
			r.settle(sv.k)
			continue
		}
		if r.prop && t-e.t >= float64(e.left) {
			if r.waiting(e.id, e.stamp) {
				r.callers[e.id].cq[e.copy] = cqNone
			}
			r.expire1(t, sv.k, e.id, e.stamp, int(e.copy))
			continue
		}
		over := sv.disc.overdue(e.class, t-e.t)
		if r.watch != nil {
			r.watch.taken(sv, t, &e, over)
		}
		if over {
			if r.waiting(e.id, e.stamp) {
				r.callers[e.id].cq[e.copy] = cqNone // its place may be given again
			}
			r.shed++
			sv.refuse(r, t, e.id, e.stamp, int(e.copy), r.refusal(), 0)
			continue
		}
		sv.start(r, t, e)
	}
}

// cancel removes the queued call at ring position p (a hedge whose
// sibling won) at t.
func (sv *rserver) cancel(r *reqSim, p uint64, t float64) {
	sv.q.at(p).dead = true
	sv.live--
	r.cancelled++
	_, x := r.tl.atx(t)
	x.dq--
	r.tl.server(t, sv.k).dq--
	r.settle(sv.k)
}

// crash: the server goes down at t and loses its queue and the calls in
// service: no answer comes for them (their callers learn by their
// timeout); done1 skips the lost services' ends (crashedSince).
func (sv *rserver) crash(r *reqSim, t float64) {
	lost := sv.live + sv.busy
	for sv.q.len() > 0 {
		if e := sv.q.pop(); !e.dead {
			r.settle(sv.k)
			if r.waiting(e.id, e.stamp) {
				r.callers[e.id].cq[e.copy] = cqNone // nothing left to cancel
			}
		}
	}
	for range sv.busy {
		r.settle(sv.k)
	}
	if lost == 0 {
		return // it met no call: no event of the run
	}
	r.seen(t)
	_, x := r.tl.atx(t)
	x.dq -= int32(sv.live)
	x.dbusy -= int32(sv.busy)
	x.lost += int32(lost)
	sb := r.tl.server(t, sv.k)
	sb.dq -= int32(sv.live)
	sb.dbusy -= int32(sv.busy)
	sb.lost += int32(lost)
	sv.live, sv.busy = 0, 0
	sv.lost += lost
	r.lost += lost
}

// crashedSince reports whether a crash of the server started at or after
// from (a service's start) and by now: the service was lost.
func (sv *rserver) crashedSince(from float64) bool {
	eps := 1e-9 // from is t - d: rounded (not math.Max, a call under WebAssembly)
	if from > 1 {
		eps *= from
	}
	for i := sv.sched.cur; i > 0; i-- {
		s := &sv.sched.segs[i]
		if s.start < from-eps {
			break
		}
		if s.crash && !sv.sched.segs[i-1].crash {
			return true
		}
	}
	return false
}

// perSecond is what the server serves per second at full speed.
func (sv *rserver) perSecond() float64 {
	switch sv.waits {
	case WaitQueue:
		return float64(sv.workers) / sv.dist.mean(sv.service)
	case WaitMedium:
		return 1 / sv.ch.frame
	}
	return sv.capacity
}

// queueModel is the Queue model: workers and a FIFO queue, in the
// request-level engine's own code (rserver.enqueue, pull, done1).
type queueModel struct{}

func init() { registerAt(Queue, &queueModel{}) }

func (*queueModel) Name() string                 { return "queue" }
func (*queueModel) Labels() (short, long string) { return "server.queue", "server.queue-long" }
func (*queueModel) Faults(*Config) []Fault       { return nil }
func (*queueModel) NewTaker(*Config) Taker       { return nil }

func (*queueModel) Traits() Traits {
	return Traits{Requests: true, Fleet: true, Hops: true, RetryAfter: true, Faults: allFaults, Waits: WaitQueue, Rated: true}
}

// The queue server's state is every request-level server's (rserver).
func (*queueModel) setupHerd(*server, *Config, *buffers) {}
func (*queueModel) setupReq(*rserver, *Config)           {}
func (*queueModel) addTotals(*reqSim, *Totals, float64)  {}
func (*queueModel) shape() jsonShape                     { return 0 }

// Fields: drop-expired only with a timeout, as only then do callers stop
// waiting for calls still queued.
func (*queueModel) Fields(c *Config) []string {
	if c == nil || c.Timeout > 0 {
		return queueFields
	}
	return queueFields[:6:6] // capped: an append copies
}

// queueFields end with the one that needs a timeout.
var queueFields = []string{ParamConcurrency, ParamService, ParamServiceDist, ParamQueueLimit, ParamDiscipline, ParamAdmission,
	ParamDropExpired}

func (*queueModel) Validate(c *Config) error {
	if err := backoff.CheckInt(ParamConcurrency, c.Concurrency, 1, MaxConcurrency); err != nil {
		return err
	}
	if !(c.Service > 0) {
		return &backoff.FieldError{Field: ParamService, Value: backoff.FormatDuration(c.Service),
			Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), backoff.FormatDuration(time.Nanosecond), backoff.FormatDuration(MaxLatency)},
			Allowed: "a positive duration up to 1h for the queue server"}
	}
	return c.ServiceDist.validate()
}

func (*queueModel) Describe(c *Config) string {
	s := "server queue (" + strconv.Itoa(c.Concurrency) + " workers, " + c.Get(ParamService) + " " + c.Get(ParamServiceDist)
	if c.QueueLimit > 0 {
		s += ", at most " + strconv.Itoa(c.QueueLimit) + " waiting"
	}
	if c.Discipline.Kind != 0 {
		s += ", " + c.Discipline.text()
	}
	if c.Admission.Kind != 0 {
		s += ", admission " + c.Admission.text()
	}
	return s + ")"
}

// The herd's estimator sees the queue only for a request's tries
// (triesPerRequest), which its burst does not change.
func (*queueModel) estSetup(e *estimator) { (&rated{}).estSetup(e) }

func (*queueModel) estServe(e *estimator, x *estWave) float64 { return (&rated{}).estServe(e, x) }

// estCycle: a loop caller waits a mean service time besides the hops.
func (*queueModel) estCycle(c *Config, hop float64) (cycle, most float64) {
	return c.Think.Seconds() + 2*hop + c.ServiceDist.mean(c.Service.Seconds()), math.Inf(1)
}
