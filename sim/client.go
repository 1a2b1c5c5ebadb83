package sim

// Client phases: what a client's one pending event does. The top bit marks
// a call that is the half-open breaker's probe.
const (
	_           uint8 = iota // a scheduled event always has a phase
	phSend                   // the client sends a call (first or retry)
	phArrive                 // the call reaches the server
	phReplyOK                // the success reaches the client
	phReplyFail              // the failure reaches the client
	phReplyRA                // a 503 with Retry-After reaches the client
	phWrite                  // occ: the write reaches the server

	phProbe uint8 = 0x80
	phMask  uint8 = 0x7f
)

// client is the per-client state, 16 bytes. It travels in the client's one
// pending event; only history-dependent jitter (Sim.state) and occ's
// reads (occ.reads) keep per-client arrays.
type client struct {
	first float64 // time of the first call, seconds
	tp    uint32  // tries<<8 | phase; tries saturate at maxTries
}

const maxTries = 1<<24 - 1

func (c *client) tries() int       { return int(c.tp >> 8) }
func (c *client) phase() uint8     { return uint8(c.tp) }
func (c *client) setPhase(p uint8) { c.tp = c.tp&^0xff | uint32(p) }
func (c *client) addTry() {
	if c.tp>>8 < maxTries {
		c.tp += 1 << 8
	}
}

// outcome is how a try ended, as the client sees it.
type outcome uint8

const (
	outOK outcome = iota
	outFail
	outRetryAfter // a 503 with Retry-After
	outBlocked    // the open breaker refused it
)

func outcomeOf(ok, ra bool) outcome {
	switch {
	case ok:
		return outOK
	case ra:
		return outRetryAfter
	}
	return outFail
}
