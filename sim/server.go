package sim

import "math"

// ServerModel is how the one server answers calls: an index into the
// registry of models (model.go). The built-in ones are constants, which
// the engines' fast paths compare against; others come from Register.
type ServerModel uint8

const (
	// Capacity serves up to Capacity calls per second (a token bucket that
	// holds Capacity*CapacityWindow calls); calls above that fail fast with
	// a 503, optionally carrying Retry-After.
	Capacity ServerModel = iota
	// Outage fails every call during [OutageStart, OutageEnd), then behaves
	// as Capacity: a service coming back up.
	Outage
	// Collapse is Capacity whose useful throughput falls while the offered
	// load exceeds it: capacity / (1 + CollapseFactor*(load/capacity - 1)),
	// load measured over the previous CollapseWindow (metastable failure).
	Collapse
	// OCC is the AWS Architecture Blog's (2015) optimistic-concurrency
	// server: one row with a version; a write succeeds only if it carries
	// the current version.
	OCC
	// Queue is Concurrency workers serving a first-in, first-out queue of
	// calls (of at most QueueLimit), each taking a service time of mean
	// Service from ServiceDist: with exponential times and Poisson
	// arrivals, M/M/c. Calls wait rather than fail when it is busy, so
	// callers with a Timeout give up on calls it will still serve.
	Queue
	// Channel is a shared medium that carries one frame at a time, the
	// callers its stations: ALOHA, slotted ALOHA or Ethernet's CSMA/CD
	// (server_channel.go).
	Channel
)

// server is the herd's one server at work. Its zero value is not usable;
// newServer sets it up, and its model's setupHerd gives it the state of
// its own: the outage model's dead time, the collapse's shaper, occ's
// reads. The built-in models' state sits in the Sim by value, next to
// the rest of the hot loop's, and what a call meets is read from that
// state (an outage that covers nothing, a nil shaper), so no line here
// asks which model it is; a registered model answers through its Taker.
// TestTakersMatchFastPath holds the built-ins' takers to the same
// answers.
type server struct {
	ra       bool    // failures carry Retry-After
	capacity float64 // Capacity, calls per second: the bucket's rate
	bucket   tokenBucket
	outage   outage    // the outage model's (zero: none)
	shaper   *collapse // the collapse model's (nil: none)
	occ      occ
	taker    Taker // a registered model's (nil for the built-in ones)
	// The answers it gave: served, failed (refused for want of capacity,
	// a write's conflict, or down), and down, the part of failed refused
	// during the outage (its node's figures, node_server.go).
	served, failed, down int
}

func newServer(c *Config, b *buffers) server {
	burst := math.Max(1, c.Capacity*c.CapacityWindow.Seconds())
	sv := server{ra: c.RetryAfter > 0, capacity: c.Capacity,
		bucket: tokenBucket{tokens: burst, burst: burst},
		occ:    occ{okT: math.Inf(-1)}}
	sv.taker = takerOf(c)
	if m := c.Server.Model(); m != nil {
		m.setupHerd(&sv, c, b)
	}
	return sv
}

// utilization is the share of the calls the server could have served in
// the first span seconds that it served. Its bucket holds at most burst
// tokens when an up period starts and gains capacity a second while up,
// so it could serve burst per up period (before and after the outage)
// plus capacity times the time up. 0 for a model without a rate (occ).
func (sv *server) utilization(c *Config, span float64) float64 {
	if span <= 0 || sv.capacity <= 0 || !c.Server.Traits().Rated {
		return 0
	}
	can := 0.0
	for _, up := range [2][2]float64{{0, math.Min(sv.outage.start, span)}, {sv.outage.end, span}} {
		if up[1] > up[0] {
			can += sv.bucket.burst + sv.capacity*(up[1]-up[0])
		}
	}
	if can <= 0 {
		return 0
	}
	return float64(sv.served) / can
}

// doomed reports whether a call reaching the server at t fails whatever
// else happens (it arrives during the outage), so that its answer can be
// worked out when it is sent.
func (sv *server) doomed(t float64) bool { return sv.outage.covers(t) }

// serve is the server's answer to a call arriving at t: success, and
// whether a failure carries Retry-After. occ's writes are answered by
// occ.write instead.
func (sv *server) serve(t float64) (ok, ra bool) {
	if sv.outage.covers(t) {
		sv.down++
		return false, sv.ra
	}
	if sv.taker != nil {
		ok = sv.taker.Take(t)
		return ok, !ok && sv.ra
	}
	rate := sv.capacity
	if sv.shaper != nil {
		rate = sv.shaper.rate(t, rate)
	}
	if sv.bucket.take(t, rate) {
		return true, false
	}
	return false, sv.ra
}

// viaTakers makes the engines answer the built-in models' calls through
// their Takers instead of their fast paths, where they have one: a test's
// oracle for the fast paths (TestTakersMatchFastPath).
var viaTakers = false

// takerOf is the Taker that answers c's calls: a registered model's; nil
// for a built-in one, which the engines answer themselves.
func takerOf(c *Config) Taker {
	if int(c.Server) < builtinModels && !viaTakers {
		return nil
	}
	if m := c.Server.Model(); m != nil {
		return m.NewTaker(c)
	}
	return nil
}
