package sim

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
	s.countCall(c, tw)
	s.schedule(i, c, tw+s.hop(), phWrite)
}
