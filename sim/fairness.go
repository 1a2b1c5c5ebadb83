package sim

import (
	"encoding/json"
	"math"
)

// Fairness: how evenly the clients fared. With two clients randomness
// gives little, and an unlucky one may lose again and again (on a shared
// channel, the capture effect); with many, a mean hides the ones that
// waited longest or gave up.
//
// Jain's fairness index (Jain, Chiu and Hawe, DEC-TR-301, 1984) of
// amounts x_1 … x_n is (Σx)² / (n·Σx²): 1 when all are equal, 1/n when
// one has everything. It is taken of the successes per client where
// clients succeed again and again (loop traffic), else of the times from
// a client's first call to its end, success or give-up (closed and open
// traffic). The worst-off client is the one with the fewest successes
// (loop), else one that gave up after the most attempts, else the slowest.

// ClientOutcome is how one client fared. Times are seconds.
type ClientOutcome struct {
	Client int `json:"client"`
	// Attempts are the client's tries over all its requests.
	Attempts  int `json:"attempts"`
	Successes int `json:"successes"`
	GaveUp    int `json:"gave_up"`
	// Time is, in closed and open traffic, from the client's first call to
	// its end (success or give-up); 0 in loop traffic.
	Time float64 `json:"time_s"`
	// Share is the client's part of all successes (loop traffic; else 0).
	Share float64 `json:"share"`
}

// MarshalJSON writes the client as null where there is none to name (a
// request of open traffic, -1 here).
func (o ClientOutcome) MarshalJSON() ([]byte, error) {
	type plain ClientOutcome
	var client *int
	if o.Client >= 0 {
		client = &o.Client
	}
	return json.Marshal(struct {
		Client *int `json:"client"`
		plain
	}{client, plain(o)})
}

// MaxPerClient is the most clients Result.PerClient lists; MaxTraceClients
// the most Result.Trace follows, and MaxTraceEvents its most events.
const (
	MaxPerClient    = 1000
	MaxTraceClients = 300
	MaxTraceEvents  = 100_000
)

// Trace is what the first MaxTraceClients clients did over time, for a
// per-client strip: each try, success and give-up.
type Trace struct {
	Clients int
	Events  []TraceEvent
	// Truncated is set when MaxTraceEvents cut it short.
	Truncated bool
}

// TraceEvent is one thing a traced client did at T.
type TraceEvent struct {
	T      float64
	Client uint16
	Kind   TraceKind
}

// TraceKind is what a traced client did.
type TraceKind uint8

const (
	TraceTry TraceKind = iota
	TraceSuccess
	TraceGaveUp
)

// fairness gathers the clients' outcomes as they end.
type fairness struct {
	loop bool // successes per client, not times
	// closed and open traffic: the times' sums
	n       int
	sum, sq float64
	worst   ClientOutcome
	any     bool
	// per client, when the clients are known and few (closed, loop); loop
	// traffic keeps every caller's successes for the index.
	per   []ClientOutcome
	succ  []uint32
	trace *Trace
}

// newFairness follows clients clients (0: open traffic, a client per
// request), loop ones if loop.
func newFairness(clients int, loop bool) fairness {
	f := fairness{loop: loop}
	if clients > 0 && clients <= MaxPerClient {
		f.per = make([]ClientOutcome, clients)
		for i := range f.per {
			f.per[i].Client = i
		}
	}
	if loop {
		f.succ = make([]uint32, clients)
	}
	if clients > 0 && clients <= MaxTraceClients {
		f.trace = &Trace{Clients: clients}
	}
	return f
}

// record notes what client i (-1: not a known client) did at t.
func (f *fairness) record(i int, t float64, k TraceKind) {
	if tr := f.trace; tr != nil && i >= 0 && i < tr.Clients {
		if len(tr.Events) >= MaxTraceEvents {
			tr.Truncated = true
			return
		}
		tr.Events = append(tr.Events, TraceEvent{T: t, Client: uint16(i), Kind: k})
	}
}

// ended: client i's request ended, ok or given up, after tries tries and
// time seconds since its first call.
//
// Its outcome is written field by field where it is kept, not built
// aside: under WebAssembly a ClientOutcome (six fields) built aside is
// cleared and copied with calls out of the compiled code, once per
// request.
func (f *fairness) ended(i int, ok bool, tries int, time float64) {
	succ, gaveUp := 0, 1
	if ok {
		succ, gaveUp = 1, 0
	}
	if f.loop {
		if ok {
			f.succ[i]++
		}
		if f.per != nil {
			p := &f.per[i]
			p.Attempts += tries
			p.Successes += succ
			p.GaveUp += gaveUp
		}
		return
	}
	f.n++
	f.sum += time
	f.sq += time * time
	if f.per != nil && i >= 0 {
		f.per[i].set(i, tries, succ, gaveUp, time)
	}
	if !f.any || worse(gaveUp, tries, time, &f.worst) {
		f.worst.set(i, tries, succ, gaveUp, time)
		f.any = true
	}
}

// set makes o a closed or open request's outcome.
func (o *ClientOutcome) set(client, tries, succ, gaveUp int, time float64) {
	o.Client, o.Attempts, o.Successes, o.GaveUp, o.Time, o.Share = client, tries, succ, gaveUp, time, 0
}

// worse reports whether an outcome (gave up or not, after tries, in time
// seconds) fared worse than b (closed and open traffic).
func worse(gaveUp, tries int, time float64, b *ClientOutcome) bool {
	switch {
	case gaveUp != b.GaveUp:
		return gaveUp > b.GaveUp
	case gaveUp > 0 && tries != b.Attempts:
		return tries > b.Attempts
	}
	return time > b.Time
}

// result is Jain's index (0 when nothing ended or nobody succeeded in
// loop traffic), the worst-off client, and the per-client outcomes.
func (f *fairness) result() (jain float64, worst *ClientOutcome, per []ClientOutcome) {
	if f.loop {
		var sum, sq float64
		total := 0
		w := -1
		for i, s := range f.succ {
			x := float64(s)
			sum += x
			sq += x * x
			total += int(s)
			if w < 0 || s < f.succ[w] {
				w = i
			}
		}
		if sq > 0 {
			jain = sum * sum / (float64(len(f.succ)) * sq)
		}
		for i := range f.per {
			if total > 0 {
				f.per[i].Share = float64(f.per[i].Successes) / float64(total)
			}
		}
		if w >= 0 {
			o := ClientOutcome{Client: w, Successes: int(f.succ[w])}
			if f.per != nil {
				o = f.per[w]
			} else if total > 0 {
				o.Share = float64(o.Successes) / float64(total)
			}
			worst = &o
		}
		return jain, worst, f.per
	}
	switch {
	case f.n == 0:
	case f.sq == 0:
		jain = 1
	default:
		jain = math.Min(1, f.sum*f.sum/(float64(f.n)*f.sq))
	}
	if f.any {
		w := f.worst
		worst = &w
	}
	return jain, worst, f.per
}
