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

// server is the one server at work: model picks which of its parts
// answers. Its zero value is not usable; newServer sets it up.
//
// For the built-in models it is a switch on the model's byte over
// per-model structs held by value, so their state sits in the Sim next to
// the rest of the hot loop's; a registered model answers through its
// Taker. serve runs once per call; an interface with a type per model
// measured the same within noise (BenchmarkMillionClients, interleaved:
// 229-244 ms against 234-246 ms), and so did the nil Taker check the
// registry added (CPU time 0.98 of the switch alone's, medians of 8
// interleaved runs on a loaded machine); TestTakersMatchFastPath holds
// the built-ins' takers to the same answers as the switch.
type server struct {
	model    ServerModel
	ra       bool    // failures carry Retry-After
	capacity float64 // Capacity, calls per second: the bucket's rate
	bucket   tokenBucket
	outage   outage
	collapse collapse
	occ      occ
	taker    Taker // a registered model's (nil for the built-in ones)
}

func newServer(c *Config, b *buffers) server {
	burst := math.Max(1, c.Capacity*c.CapacityWindow.Seconds())
	sv := server{model: c.Server, ra: c.RetryAfter > 0, capacity: c.Capacity,
		bucket:   tokenBucket{tokens: burst, burst: burst},
		collapse: collapse{window: c.CollapseWindow.Seconds(), factor: c.CollapseFactor},
		occ:      occ{okT: math.Inf(-1)}}
	sv.taker = takerOf(c)
	switch c.Server {
	case Outage:
		sv.outage = outage{start: c.OutageStart.Seconds(), end: c.OutageEnd.Seconds()}
	case OCC:
		sv.occ.reads = zeroed(take(&b.reads), c.Clients)
	}
	return sv
}

// doomed reports whether a call reaching the server at t fails whatever
// else happens (it arrives during the outage), so that its answer can be
// worked out when it is sent.
func (sv *server) doomed(t float64) bool { return sv.model == Outage && sv.outage.covers(t) }

// serve is the server's answer to a call arriving at t: success, and
// whether a failure carries Retry-After. occ's writes are answered by
// occ.write instead.
func (sv *server) serve(t float64) (ok, ra bool) {
	if sv.model == Outage && sv.outage.covers(t) {
		return false, sv.ra
	}
	if sv.taker != nil {
		ok = sv.taker.Take(t)
		return ok, !ok && sv.ra
	}
	rate := sv.capacity
	if sv.model == Collapse {
		rate = sv.collapse.rate(t, rate)
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
