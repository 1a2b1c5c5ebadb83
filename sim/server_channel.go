package sim

import (
	"math"
	"slices"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// The shared channel (Server Channel), where backoff was born: the callers
// are stations and a call is a frame sent on one medium, which carries one
// frame at a time. Two transmissions that overlap are both lost.
//
//   - aloha (Abramson, 1970): a station sends when it has a frame; a frame
//     of length F is lost if another starts within F of its start. With
//     transmissions arriving as a Poisson stream of G per frame time, the
//     channel carries S = G·e^(−2G), at most 1/(2e) ≈ 18.4% at G = 0.5.
//   - slotted (Roberts, 1972): transmissions start only at multiples of F,
//     so only frames of the same slot collide: S = G·e^(−G), at most
//     1/e ≈ 36.8% at G = 1.
//   - ethernet (CSMA/CD, 1-persistent, IEEE 802.3): a station senses the
//     carrier and waits while the channel is busy, then sends at once; a
//     transmission is safe once it has run for a slot (the time a signal
//     takes to cross the cable and back), and two started within a slot
//     collide: both stop after a slot (the jam), and retry after their
//     backoff. The preset "ethernet" is 802.3's truncated binary
//     exponential backoff: U{0 … 2^min(n,10) − 1} slots after the n-th
//     collision, the frame dropped after 16 attempts.
//
// Stations retransmit with the policy. The channel has no hops (Latency is
// not used): times are the frame's and the slot's. An outage fault fails
// every frame at once and errors corrupt frames that got through; the
// other faults do not apply to a channel. Results: Totals.OfferedLoad (G,
// transmissions per frame time) and Totals.ChannelThroughput (S, the share
// of time carrying frames that got through).

// ChannelKind is the shared channel's access rule.
type ChannelKind uint8

const (
	Aloha ChannelKind = iota
	SlottedAloha
	Ethernet
)

var channelNames = []string{"aloha", "slotted", "ethernet"}

func (k ChannelKind) String() string { return nameOf(channelNames, int(k)) }

// ChannelNames lists every ChannelKind's name, indexed by ChannelKind. The
// slice is a copy.
func ChannelNames() []string { return slices.Clone(channelNames) }

// Channel limits: a frame and a slot from 1 ns to a minute.
const MaxFrame = time.Minute

// channel is the medium's state.
type channel struct {
	kind        ChannelKind
	frame, slot float64

	// The latest transmission (aloha, slotted), or the one in progress
	// (ethernet): its start and sender. A collided sender's flag is on
	// its caller (caller.coll).
	on          bool
	start       float64
	id, stamp   uint32
	collEnd     float64 // ethernet: the jam ends (the channel is free) at
	jammed      bool
	deferred    []tx // ethernet: stations waiting for the channel
	scratch     []tx // release's copy of them
	attempts    int  // transmissions started
	good        int  // frames that got through
	collisions  int  // transmissions lost in a collision
	freePending bool // ethernet: an evChanFree is scheduled
}

// tx is a station's frame waiting for the channel.
type tx struct{ id, stamp uint32 }

func newChannel(c *Config) channel {
	return channel{kind: c.Channel, frame: c.Frame.Seconds(), slot: c.Slot.Seconds()}
}

// eps is the slack of time comparisons on the channel: two stations whose
// backoffs end in the same slot compute that time in different orders.
func (ch *channel) eps() float64 { return 1e-9 * math.Min(ch.frame, ch.slot) }

// transmit: caller id's try stamp wants to send a frame at t.
func (r *reqSim) transmit(t float64, id, stamp uint32) {
	ch := &r.srvs[0].ch
	switch ch.kind {
	case Aloha, SlottedAloha:
		s := t
		if ch.kind == SlottedAloha {
			s = math.Ceil(t/ch.frame-1e-9) * ch.frame
		}
		ch.attempts++
		c := &r.callers[id]
		c.coll = false
		// Pure ALOHA: another frame started within a frame time; slotted:
		// in the same slot (s - ch.start is then 0).
		if ch.on && s-ch.start < ch.frame-ch.eps() {
			c.coll = true
			if r.waiting(ch.id, ch.stamp) {
				r.callers[ch.id].coll = true
			}
		}
		ch.on, ch.start, ch.id, ch.stamp = true, s, id, stamp
		r.push(s+ch.frame, evTxEnd, id, stamp, 0)
	case Ethernet:
		switch {
		case ch.jammed && t < ch.collEnd-ch.eps(), ch.on && t >= ch.start+ch.slot-ch.eps():
			// Carrier sensed (a frame, or the jam): wait for the channel.
			ch.deferred = append(ch.deferred, tx{id, stamp})
		case ch.on:
			// Within a slot of the transmission in progress: both are lost.
			ch.attempts++
			ch.scratch = append(ch.scratch[:0], tx{ch.id, ch.stamp}, tx{id, stamp})
			r.collide(t, ch.scratch)
		default:
			ch.attempts++
			r.startTx(t, id, stamp)
		}
	}
}

// startTx: caller id starts sending on the free ethernet channel at t.
func (r *reqSim) startTx(t float64, id, stamp uint32) {
	ch := &r.srvs[0].ch
	ch.on, ch.jammed, ch.start, ch.id, ch.stamp = true, false, t, id, stamp
	r.callers[id].coll = false
	r.push(t+ch.frame, evTxEnd, id, stamp, 0)
}

// collide: the ethernet transmissions txs collide at t; they stop after a
// slot of jam, when each learns its loss, and the channel is free again.
func (r *reqSim) collide(t float64, txs []tx) {
	ch := &r.srvs[0].ch
	ch.on, ch.jammed, ch.collEnd = false, true, t+ch.slot
	for _, x := range txs {
		if !r.waiting(x.id, x.stamp) {
			continue
		}
		ch.collisions++
		r.callers[x.id].coll = true
		r.tl.at(t).rejected++
		r.answer(ch.collEnd, x.id, x.stamp, 0, rLost)
	}
	if r.race != nil {
		r.race.collided(r, t, txs)
	}
	if !ch.freePending {
		ch.freePending = true
		r.push(ch.collEnd, evChanFree, 0, 0, 0)
	}
}

// txEnd: caller id's frame, try stamp, ends at t: it got through unless it
// collided.
func (r *reqSim) txEnd(t float64, id, stamp uint32) {
	ch := &r.srvs[0].ch
	if !r.waiting(id, stamp) {
		return
	}
	c := &r.callers[id]
	if c.coll {
		if ch.kind != Ethernet { // ethernet's collide answered it already
			ch.collisions++
			r.tl.at(t).rejected++
			r.answer(t, id, stamp, 0, rLost)
		}
		return
	}
	if ch.kind == Ethernet {
		ch.on = false
	}
	r.served++
	r.srvs[0].served++ // the node's figure, as a queue's
	b, x := r.tl.atx(t)
	x.served++
	if p := r.srvs[0].sched.at().errRate; p > 0 && r.src.float64() < p {
		r.errs++
		r.srvs[0].errs++
		b.rejected++
		x.errors++
		r.answer(t, id, stamp, 0, rFail)
	} else {
		ch.good++
		b.ok++
		if r.race != nil {
			r.race.sent(id)
		}
		r.answer(t, id, stamp, 0, rOK)
	}
	if ch.kind == Ethernet {
		r.release(t)
	}
}

// chanFree: the jam after a collision ends at t.
func (r *reqSim) chanFree(t float64) {
	ch := &r.srvs[0].ch
	ch.freePending = false
	if ch.jammed && t >= ch.collEnd-ch.eps() {
		ch.jammed = false
		r.release(t)
	}
}

// release: the ethernet channel is free at t; the stations waiting for it
// send at once: one gets it, several collide.
func (r *reqSim) release(t float64) {
	ch := &r.srvs[0].ch
	waiting := ch.deferred[:0]
	for _, x := range ch.deferred {
		if r.waiting(x.id, x.stamp) {
			waiting = append(waiting, x)
		}
	}
	ch.deferred = waiting
	switch n := len(waiting); {
	case n == 0:
	case n == 1:
		ch.attempts++
		r.startTx(t, waiting[0].id, waiting[0].stamp)
		ch.deferred = ch.deferred[:0]
	default:
		// collide schedules answers, never a transmission, so the
		// scratch copy is not touched while it runs.
		ch.attempts += n
		ch.scratch = append(ch.scratch[:0], waiting...)
		ch.deferred = ch.deferred[:0]
		r.collide(t, ch.scratch)
	}
}

// raceStats counts, for tests, how the capture effect plays out between two
// saturated ethernet stations: after a collision of a station with a new
// frame (its first try) and one at its n-th collision, whether the new
// frame's station sends first without another collision.
type raceStats struct {
	wins, races [17]int
	// pending race: the new frame's station, and n (0: none)
	fresh uint32
	n     int
}

func (s *raceStats) collided(r *reqSim, t float64, txs []tx) {
	if s.n > 0 {
		s.races[s.n]++ // a collision again: the race is lost
		s.n = 0
	}
	if len(txs) != 2 {
		return
	}
	a, b := &r.callers[txs[0].id], &r.callers[txs[1].id]
	switch {
	case a.tries == 1 && b.tries > 1:
		s.fresh, s.n = txs[0].id, int(b.tries)
	case b.tries == 1 && a.tries > 1:
		s.fresh, s.n = txs[1].id, int(a.tries)
	}
	if s.n >= len(s.races) {
		s.n = 0
	}
}

func (s *raceStats) sent(id uint32) {
	if s.n > 0 {
		s.races[s.n]++
		if id == s.fresh {
			s.wins[s.n]++
		}
		s.n = 0
	}
}

// validateChannel checks the channel's fields.
func (c *Config) validateChannel() error {
	if int(c.Channel) >= len(channelNames) {
		return choiceErr(ParamChannel, c.Channel.String(), channelNames)
	}
	return nil
}

// channelModel is the Channel model: the medium, in the request-level
// engine's own code (transmit and the channel's events).
type channelModel struct{}

func init() { registerAt(Channel, &channelModel{}) }

func (*channelModel) Name() string                 { return "channel" }
func (*channelModel) Labels() (short, long string) { return "server.channel", "server.channel-long" }
func (*channelModel) Faults(*Config) []Fault       { return nil }
func (*channelModel) NewTaker(*Config) Taker       { return nil }

// Traits: one medium, no hops; it can be down (an outage) or garble
// frames (errors), and has no workers, rate or queue for the other
// faults.
func (*channelModel) Traits() Traits {
	return Traits{Requests: true, RetryAfter: true, Faults: FaultSet(FaultOutage, FaultErrors), Waits: WaitMedium, Rated: true}
}

func (*channelModel) setupHerd(*server, *Config, *buffers) {}
func (*channelModel) setupReq(*rserver, *Config)           {}

// addTotals: the offered load G and the throughput S, per frame time.
func (*channelModel) addTotals(r *reqSim, t *Totals, span float64) {
	if ch := &r.srvs[0].ch; span > 0 {
		t.OfferedLoad = float64(ch.attempts) * ch.frame / span
		t.ChannelThroughput = float64(ch.good) * ch.frame / span
		t.Collisions = ch.collisions
	}
}

func (*channelModel) shape() jsonShape { return shapeChannel }

// Fields: the slot only for ethernet, the one rule that senses carrier.
func (*channelModel) Fields(c *Config) []string {
	if c == nil || c.Channel == Ethernet {
		return channelFields
	}
	return channelFields[:2:2]
}

// channelFields end with the one only ethernet has.
var channelFields = []string{ParamChannel, ParamFrame, ParamSlot}

func (*channelModel) Validate(c *Config) error {
	if c.Frame <= 0 {
		return &backoff.FieldError{Field: ParamFrame, Value: backoff.FormatDuration(c.Frame), Code: backoff.CodeNeeds,
			Other: ParamServer, Args: []string{Channel.String(), backoff.FormatDuration(time.Nanosecond), backoff.FormatDuration(MaxFrame)},
			Allowed: "a positive duration up to 1m for the channel"}
	}
	if c.Channel == Ethernet {
		if c.Slot <= 0 {
			return &backoff.FieldError{Field: ParamSlot, Value: backoff.FormatDuration(c.Slot), Code: backoff.CodeNeeds,
				Other: ParamChannel, Args: []string{Ethernet.String(), backoff.FormatDuration(time.Nanosecond), backoff.FormatDuration(MaxFrame)},
				Allowed: "a positive duration up to 1m for ethernet"}
		}
		if c.Frame < c.Slot {
			// A frame shorter than the slot could end before its sender
			// hears the collision.
			return &backoff.FieldError{Field: ParamFrame, Value: backoff.FormatDuration(c.Frame), Code: backoff.CodeAtLeast,
				Args: []string{backoff.FormatDuration(c.Slot)}, Other: ParamSlot,
				Allowed: "at least the slot (" + backoff.FormatDuration(c.Slot) + ")"}
		}
	}
	if c.Hedge.On() {
		return choiceErr(ParamHedge, c.Hedge.text(), []string{"none"})
	}
	return nil
}

func (*channelModel) Describe(c *Config) string {
	s := "a shared channel (" + c.Channel.String() + ", frames of " + c.Get(ParamFrame)
	if c.Channel == Ethernet {
		s += ", slot " + c.Get(ParamSlot)
	}
	return s + ")"
}

func (*channelModel) estSetup(e *estimator) { (&rated{}).estSetup(e) }

func (*channelModel) estServe(e *estimator, x *estWave) float64 { return (&rated{}).estServe(e, x) }

// estCycle: no hops, a frame at least; and the medium carries one frame
// at a time, whoever sends it.
func (*channelModel) estCycle(c *Config, _ float64) (cycle, most float64) {
	return c.Think.Seconds() + c.Frame.Seconds(), math.Ceil(c.Duration.Seconds()/c.Frame.Seconds()) + float64(c.Callers)
}
