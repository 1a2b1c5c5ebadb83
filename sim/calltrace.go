package sim

import "math"

// A run's calls, one by one, as their callers saw them (Sim.SetTracer):
// what `backoff sim --trace` writes and what a drawing of the run's
// traffic replays. A call is one that reached for a server (Totals.Calls
// counts them; a hedge's copy is a call of its own), or a try a cache
// answered (Totals.Hits: node the cache, answered at once); a try the
// breaker or a throttle refused is none. Each is reported once, when its
// caller's view of it ends, and the calls still going when the run stops
// are reported at its end as unfinished, in caller order.

// Call is one call of a run.
type Call struct {
	// Request is the request the call is for, from 1 in order of start
	// (a herd's client i+1's); Try is its caller's try, 1 for the first.
	Request, Try int
	// Node is the server the call went to (or the cache that answered
	// it), by its node name.
	Node string
	// SentS is when it was sent; DoneS when its caller had its answer or
	// stopped waiting for it (NaN for an unfinished call), seconds.
	SentS, DoneS float64
	// Outcome is one of the Call* outcomes.
	Outcome string
}

// A call's outcomes, from its caller's view.
const (
	// CallOK: a success came back; CallError: an error (a served call
	// that failed, by an error rate or an errors fault); CallRefused: a
	// refusal (no capacity, queue room or admission; the server down; a
	// write conflict at occ).
	CallOK      = "ok"
	CallError   = "error"
	CallRefused = "refused"
	// CallTimeout: the caller stopped waiting at its timeout, the call
	// still on its way or at the server (which may serve it late).
	CallTimeout = "timeout"
	// CallLost: no answer could come: a crash of its server lost it (the
	// caller found out at its timeout), or it collided on the channel.
	CallLost = "lost"
	// CallDropped: the caller stopped waiting before the call reached its
	// server, which drops such calls unserved (Config.DropExpired), or
	// refuses them for their deadline (Config.PropagateDeadline).
	CallDropped = "dropped"
	// CallCancelled: a hedge's copy whose sibling succeeded first.
	CallCancelled = "cancelled"
	// CallUnfinished: still going when the run stopped.
	CallUnfinished = "unfinished"
)

// CallOutcomes lists the outcomes, in the order above.
var CallOutcomes = []string{CallOK, CallError, CallRefused, CallTimeout, CallLost, CallDropped, CallCancelled, CallUnfinished}

// Tracer takes a run's calls (Sim.SetTracer).
type Tracer interface {
	Call(Call)
}

// SetTracer makes the run report each of its calls to t; call it before
// the first Advance. A run without one pays nothing for it.
func (s *Sim) SetTracer(t Tracer) {
	if t == nil {
		return
	}
	names := s.c.ServerNodeNames()
	if s.req != nil {
		s.req.trace = &callTrace{t: t, names: names}
		if s.c.CacheKeys > 0 {
			s.req.trace.cache = s.c.NodeNames()[s.c.Layers-1]
		}
		return
	}
	s.trace = &herdTrace{t: t, name: names[0], sent: make([]float64, s.clients), try: make([]int, s.clients)}
	for i := range s.trace.sent {
		s.trace.sent[i] = math.NaN()
	}
}

// callTrace is a request-level run's tracing: per caller slot, the
// request it works for, its copies in flight and when each reached its
// server.
type callTrace struct {
	t     Tracer
	names []string // the servers'
	cache string
	slots []traceSlot
}

// hit: the cache answered caller id's try at t.
func (ct *callTrace) hit(id, try uint32, t float64) {
	ct.t.Call(Call{Request: int(ct.slot(id).req), Try: int(try), Node: ct.cache, SentS: t, DoneS: t, Outcome: CallOK})
}

type traceSlot struct {
	req     uint32
	open    uint8      // the current try's copies not reported yet, a bit each
	arrived [2]float64 // when each reached its server (-1: not yet)
}

// slot is caller id's, made on first use.
func (ct *callTrace) slot(id uint32) *traceSlot {
	for int(id) >= len(ct.slots) {
		ct.slots = append(ct.slots, traceSlot{})
	}
	return &ct.slots[id]
}

// sent: copy cp of caller id's current try goes out.
func (r *reqSim) traceSent(id uint32, cp int) {
	s := r.trace.slot(id)
	if cp == 0 {
		s.open = 0
	}
	s.open |= 1 << cp
	s.arrived[cp] = -1
}

// report reports copy cp of caller id's current try, ended at done with
// outcome, if it is still open.
func (r *reqSim) report(id uint32, cp int, done float64, outcome string) {
	s := r.trace.slot(id)
	if s.open&(1<<cp) == 0 {
		return
	}
	s.open &^= 1 << cp
	c := &r.callers[id]
	r.trace.t.Call(Call{Request: int(s.req), Try: int(c.tries), Node: r.trace.names[c.at[cp]],
		SentS: c.sent[cp], DoneS: done, Outcome: outcome})
}

// traceReply: an answer to copy cp of caller id's try reached it at t.
func (r *reqSim) traceReply(id uint32, cp int, t float64, out uint8) {
	o := CallError
	switch out {
	case rOK:
		o = CallOK
	case rRetryAfter, rRefused:
		o = CallRefused
	case rLost:
		o = CallLost
	}
	r.report(id, cp, t, o)
	if out == rOK {
		r.report(id, 1-cp, t, CallCancelled)
	}
}

// traceExpire: caller id stopped waiting for its try at t (its timeout).
func (r *reqSim) traceExpire(id uint32, t float64) {
	s := r.trace.slot(id)
	c := &r.callers[id]
	for cp := range 2 {
		o := CallTimeout
		switch a := s.arrived[cp]; {
		case a < 0 && (r.c.DropExpired || r.prop):
			o = CallDropped
		case a >= 0 && r.srvs[c.at[cp]].crashedSince(a):
			o = CallLost
		}
		r.report(id, cp, t, o)
	}
}

// traceEnd reports the calls still open when the run stops.
func (r *reqSim) traceEnd() {
	for id := range r.trace.slots {
		for cp := range 2 {
			r.report(uint32(id), cp, math.NaN(), CallUnfinished)
		}
	}
}

// herdTrace is a herd run's tracing: each client's call in flight, by its
// send time (NaN: none) and its try.
type herdTrace struct {
	t    Tracer
	name string
	sent []float64
	try  []int
}

// call: client i sends its try's call at t.
func (h *herdTrace) call(i, try int, t float64) { h.sent[i], h.try[i] = t, try }

// report reports client i's call, ended at done with outcome.
func (h *herdTrace) report(i int, done float64, outcome string) {
	if math.IsNaN(h.sent[i]) {
		return
	}
	h.t.Call(Call{Request: i + 1, Try: h.try[i], Node: h.name, SentS: h.sent[i], DoneS: done, Outcome: outcome})
	h.sent[i] = math.NaN()
}

// end reports the calls in flight when the run stops.
func (h *herdTrace) end() {
	for i := range h.sent {
		h.report(i, math.NaN(), CallUnfinished)
	}
}
