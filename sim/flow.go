package sim

import (
	"math"
	"sort"
)

// A flow is a run's calls (its Tracer's) ready to be drawn at any moment:
// which are in flight at time t, where each is on its way, and what
// happened in a window of time, for a page that animates the run.
//
// A call is in flight from SentS until DoneS (its caller had its answer or
// stopped waiting), an unfinished one to the run's end. The trace knows
// only those two times, so a drawing splits a call's life in three: the
// first FlowOut of it on the way to its node, the last FlowBack on the way
// home (answered calls only: a call whose caller gave up, or that was
// lost, never comes back), the rest at the node.
//
// A call sent at 1 s and answered at 1.4 s is in flight at 1.2 s, out to
// its node until 1.1 s, at it until 1.3 s, then on its way back.

// The shares of a call's life on the way out and on the way back.
const (
	FlowOut  = 0.25
	FlowBack = 0.25
)

// MaxFlowCalls bounds the calls a flow holds: a page draws the first ones
// and says so.
const MaxFlowCalls = 200_000

// Flow is a run's calls in the order they were sent.
type Flow struct {
	Calls []Call
	// EndS is when the last call ended (or the run stopped).
	EndS float64
	// Truncated: the run made more calls than the flow holds (the first
	// MaxFlowCalls, or its recorder's Max, that the tracer gave: calls
	// are given as they end). ExactUntil is the earliest time a call left
	// out was sent: the flow is the run's whole until then (+Inf when
	// nothing was left out).
	Truncated  bool
	ExactUntil float64
	// longest is the longest call's flight: no call sent before t minus
	// it is in flight at t.
	longest float64
	// Waits are the clients' waits between a call's end and their next
	// try, by start; longestWait the longest of them.
	Waits       []FlowWait
	longestWait float64
}

// FlowWait is a client waiting to retry: request Request from FromS, when
// its call ended, until UntilS, when its next try went out.
type FlowWait struct {
	Request       int
	FromS, UntilS float64
}

// FlowRecorder is a Tracer that keeps at most Max calls (MaxFlowCalls by
// default); with Before set, only the calls sent before it (a drawing of a
// run's first seconds holds only what it draws). Of a call left out it
// keeps what a wait needs: for a request with a call kept, the first call
// left out ends its client's wait after its last call kept.
type FlowRecorder struct {
	Before float64
	// Max bounds the calls kept (0: MaxFlowCalls).
	Max       int
	calls     []Call
	truncated bool
	firstLost float64 // the earliest send of a call Max left out
	// last is each request's last call kept (its index in calls); next
	// the first call left out after it. A request's tries end in the
	// order they were sent, so a call left out follows every call kept.
	last map[int]int
	next map[int]Call
}

// Call records one call.
func (r *FlowRecorder) Call(c Call) {
	if r.last == nil {
		r.last, r.next = map[int]int{}, map[int]Call{}
	}
	before := r.Before <= 0 || c.SentS < r.Before
	if before && len(r.calls) < r.max() {
		r.last[c.Request] = len(r.calls)
		r.calls = append(r.calls, c)
		return
	}
	if before {
		if !r.truncated || c.SentS < r.firstLost {
			r.firstLost = c.SentS
		}
		r.truncated = true
	}
	if _, kept := r.last[c.Request]; kept {
		if n, ok := r.next[c.Request]; !ok || c.SentS < n.SentS {
			r.next[c.Request] = c
		}
	}
}

func (r *FlowRecorder) max() int {
	if r.Max > 0 {
		return min(r.Max, MaxFlowCalls)
	}
	return MaxFlowCalls
}

// Flow is the calls recorded, sorted by send time; endS is the run's end,
// which unfinished calls last until.
func (r *FlowRecorder) Flow(endS float64) *Flow {
	f := &Flow{Calls: r.calls, Truncated: r.truncated, ExactUntil: math.Inf(1)}
	if r.truncated {
		f.ExactUntil = r.firstLost
	}
	// The waits a call left out ends, before the calls move in sorting.
	for req, c := range r.next {
		if p := &r.calls[r.last[req]]; !math.IsNaN(p.DoneS) && c.SentS > p.DoneS && c.Try > p.Try {
			f.Waits = append(f.Waits, FlowWait{req, p.DoneS, c.SentS})
		}
	}
	sort.SliceStable(f.Calls, func(i, j int) bool { return f.Calls[i].SentS < f.Calls[j].SentS })
	f.EndS = endS
	for _, c := range f.Calls {
		if !math.IsNaN(c.DoneS) {
			f.EndS = math.Max(f.EndS, c.DoneS)
		}
	}
	for i := range f.Calls {
		f.longest = math.Max(f.longest, f.done(&f.Calls[i])-f.Calls[i].SentS)
	}
	// A request's calls in order of their try: the gap between one's end
	// and the next's send is its client's wait (a hedge's copy, sent
	// while the first is out, makes none).
	last := map[int]int{}
	for i := range f.Calls {
		c := &f.Calls[i]
		if j, ok := last[c.Request]; ok {
			p := &f.Calls[j]
			if !math.IsNaN(p.DoneS) && c.SentS > p.DoneS && c.Try > p.Try {
				f.Waits = append(f.Waits, FlowWait{c.Request, p.DoneS, c.SentS})
			}
		}
		last[c.Request] = i
	}
	// SliceStable, which the calls' sort has brought in already: each
	// other sort costs app.wasm kilobytes.
	sort.SliceStable(f.Waits, func(i, j int) bool {
		a, b := &f.Waits[i], &f.Waits[j]
		if a.FromS != b.FromS {
			return a.FromS < b.FromS
		}
		return a.Request < b.Request // a request waits once at a time
	})
	for _, w := range f.Waits {
		f.longestWait = math.Max(f.longestWait, w.UntilS-w.FromS)
	}
	return f
}

// done is when call c stops being in flight.
func (f *Flow) done(c *Call) float64 {
	if math.IsNaN(c.DoneS) {
		return f.EndS
	}
	return c.DoneS
}

// sentBy is how many calls were sent at or before t.
func (f *Flow) sentBy(t float64) int {
	return sort.Search(len(f.Calls), func(i int) bool { return f.Calls[i].SentS > t })
}

// InFlight are the indices of the calls in flight at t: sent at or
// before t and not yet done (an unfinished call until EndS).
func (f *Flow) InFlight(t float64) []int { return f.InFlightInto(nil, t) }

// InFlightInto is InFlight appended to buf[:0]: a page drawing frames
// reuses one buffer.
func (f *Flow) InFlightInto(buf []int, t float64) []int {
	out := buf[:0]
	for i := f.sentBy(t - f.longest - 1e-9*(1+math.Abs(t))); i < f.sentBy(t); i++ {
		c := &f.Calls[i]
		if t < f.done(c) || math.IsNaN(c.DoneS) && t <= f.EndS {
			out = append(out, i)
		}
	}
	return out
}

// WaitingInto appends to buf[:0] the indices of the waits under way at
// t: begun at or before it, and not yet over.
func (f *Flow) WaitingInto(buf []int, t float64) []int {
	out := buf[:0]
	from := sort.Search(len(f.Waits), func(i int) bool { return f.Waits[i].FromS >= t-f.longestWait-1e-9*(1+math.Abs(t)) })
	for i := from; i < len(f.Waits) && f.Waits[i].FromS <= t; i++ {
		if t < f.Waits[i].UntilS {
			out = append(out, i)
		}
	}
	return out
}

// Where a call is on its way (FlowPos.Leg).
const (
	LegOut  = "out"
	LegAt   = "at"
	LegBack = "back"
)

// FlowPos is where call i is at a time: its leg, and how far along it
// (0 to 1).
type FlowPos struct {
	I    int
	Leg  string
	Frac float64
}

// Pos is where call i is at t, which must be within its flight.
func (f *Flow) Pos(i int, t float64) FlowPos {
	c := &f.Calls[i]
	d := f.done(c) - c.SentS
	if d <= 0 {
		return FlowPos{i, LegAt, 1}
	}
	x := (t - c.SentS) / d
	back := c.Outcome == CallOK || c.Outcome == CallError || c.Outcome == CallRefused || c.Outcome == CallCancelled
	switch {
	case x < FlowOut:
		return FlowPos{i, LegOut, x / FlowOut}
	case back && x > 1-FlowBack:
		return FlowPos{i, LegBack, (x - (1 - FlowBack)) / FlowBack}
	case back:
		return FlowPos{i, LegAt, (x - FlowOut) / (1 - FlowOut - FlowBack)}
	}
	return FlowPos{i, LegAt, (x - FlowOut) / (1 - FlowOut)}
}

// FlowWindow is what happened in a window of time: the calls sent in it,
// those that ended in it by outcome, and those in flight at its end.
type FlowWindow struct {
	Sent     int
	Ended    map[string]int
	InFlight int
}

// Window is what happened in [t0, t1).
func (f *Flow) Window(t0, t1 float64) FlowWindow {
	w := FlowWindow{Ended: map[string]int{}}
	w.Sent = f.sentBy(math.Nextafter(t1, math.Inf(-1))) - f.sentBy(math.Nextafter(t0, math.Inf(-1)))
	for i := range f.sentBy(t1) {
		c := &f.Calls[i]
		if !math.IsNaN(c.DoneS) && c.DoneS >= t0 && c.DoneS < t1 {
			w.Ended[c.Outcome]++
		}
	}
	w.InFlight = len(f.InFlight(t1))
	return w
}
