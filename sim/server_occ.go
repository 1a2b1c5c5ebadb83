package sim

import "math"

// occ is the AWS blog's optimistic-concurrency row: a write succeeds only
// if no other write succeeded since the writer's read. Versions are not
// counted: the row remembers where its last successful write stands in the
// queue order, and each client its last read's place in it. Invariant:
// (okT, okSeq) is the (time, sequence) of the last successful write,
// (-Inf, 0) before any; it only grows, as writes are handled in that
// order.
type occ struct {
	okT   float64
	okSeq uint64
	reads []read // per client
}

// read is an occ client's last read: when it reached the server, and its
// queue sequence number (below 1<<32: see Advance).
type read struct {
	t   float64
	seq uint32
}

// write reports whether client i's write, handled at t with queue
// sequence seq, succeeds: the row's version is unchanged since the read
// iff no write succeeded after the read in queue order (time, then
// sequence).
func (o *occ) write(i int, t float64, seq uint64) bool {
	r := o.reads[i]
	ok := o.okT < r.t || o.okT == r.t && o.okSeq < uint64(r.seq)
	if ok {
		o.okT, o.okSeq = t, seq
	}
	return ok
}

// tryOCC sends client i's read, which reaches the server at ta, and the
// write that follows it. Nothing happens at the read but a look at the
// row, so instead of queueing it the client keeps the read's place in the
// queue order, and the write checks it against the last successful
// write. The version comes back a hop later and the client writes at
// once; the write reaches the server a hop after that.
func (s *Sim) tryOCC(i int, c *client, ta float64) {
	s.srv.occ.reads[i] = read{ta, uint32(s.q.reserve())}
	tw := ta + s.hop()
	s.seen(tw)
	s.countCall(i, c, tw)
	s.schedule(i, c, tw+s.hop(), phWrite)
}

// occModel is the OCC model: reads and writes, which the herd's engine
// handles itself (tryOCC, occ.write); it has no request-level model, so
// faults, timeouts, steady traffic and fleets are refused with it.
type occModel struct{}

func init() { registerAt(OCC, &occModel{}) }

func (*occModel) Name() string                 { return "occ" }
func (*occModel) Labels() (short, long string) { return "server.occ", "server.occ-long" }
func (*occModel) Describe(*Config) string      { return "server occ" }
func (*occModel) Fields(*Config) []string      { return nil }
func (*occModel) Validate(*Config) error       { return nil }
func (*occModel) Faults(*Config) []Fault       { return nil }
func (*occModel) NewTaker(*Config) Taker       { return nil }

// Traits: Fleet is true so that a fleet of occ is refused as what it is,
// request-level (Config.validateRequests).
func (*occModel) Traits() Traits {
	return Traits{Herd: true, Fleet: true, Hops: true, ClientBytes: memOCCRead}
}

// setupHerd: each client's last read, and tries in two steps (tryOCC).
func (*occModel) setupHerd(sv *server, c *Config, b *buffers) {
	sv.occ.reads = zeroed(take(&b.reads), c.Clients)
}
func (*occModel) setupReq(*rserver, *Config)          {}
func (*occModel) addTotals(*reqSim, *Totals, float64) {}
func (*occModel) shape() jsonShape                    { return 0 }

// estSetup: a try is a read there and back, then the write (three hops to
// the server, four to the answer); one write at a time wins.
func (*occModel) estSetup(e *estimator) { e.cycle, e.arrive = 4, 3 }

func (*occModel) estServe(e *estimator, x *estWave) float64 { return e.writes(x.n, x.busy, x.spikes) }

func (*occModel) estCycle(c *Config, hop float64) (cycle, most float64) {
	return c.Think.Seconds() + 4*hop, math.Inf(1)
}

// twoStep reports whether the herd's server is occ's, whose tries are a
// read and then a write (tryOCC).
func (sv *server) twoStep() bool { return sv.occ.reads != nil }
