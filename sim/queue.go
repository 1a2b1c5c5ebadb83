package sim

import "math/bits"

// event is one queue entry: 32 bytes, no pointers, so the queue costs the
// garbage collector nothing. A client has at most one pending event, and
// the event carries the client's whole state: handling it touches no
// per-client array, so a million clients cost no cache misses beyond the
// queue's own sequential scans.
type event struct {
	t   float64 // seconds
	key uint64  // seq<<clientBits | client: ties in t pop in FIFO order
	c   client
}

// clientBits holds a client index; MaxClients < 1<<clientBits.
const clientBits = 21

func (e event) client() int { return int(e.key & (1<<clientBits - 1)) }

func (a event) less(b event) bool { return a.t < b.t || (a.t == b.t && a.key < b.key) }

// heap4 is a 4-ary min-heap of events ordered by (t, key). Invariant:
// h[i] is not less than h[(i-1)/4] for every i > 0; push and pop move
// O(log4 n) entries, and four siblings share a cache line.
type heap4 []event

func (hp *heap4) push(e event) {
	h := append(*hp, e)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	*hp = h
}

func (hp *heap4) pop() event {
	h := *hp
	top := h[0]
	n := len(h) - 1
	e := h[n]
	h = h[:n]
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].less(h[m]) {
				m = j
			}
		}
		if !h[m].less(e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = e
	}
	*hp = h
	return top
}

// queue orders events by (t, seq): a hierarchical timing wheel in front of
// a small heap. Time is cut into ticks of width seconds; the heap holds the
// events of the current tick, exactly ordered; later events wait unordered
// in wheel slots, at the level of the highest base-256 digit in which
// their tick differs from the current one. When the current tick enters a
// slot, its events move down a level (at most 7 moves, usually 1 or 2), so
// push and pop are O(1) amortised and only the current tick's events are
// ever compared. Slots are chains of fixed blocks from a free list, scanned
// in order: a single heap of a million entries, or per-event linked
// lists, spend most of their time in cache misses, and growing slices
// churns the allocator. Memory is 32 bytes per pending event (at most one
// per client) plus at most one partly filled block per used slot.
type queue struct {
	width float64 // seconds per tick
	cur   int64   // the current tick; the wheel holds only later ticks
	near  heap4   // events whose tick is cur (or earlier)
	head  [levels][slots]int32
	tail  [levels][slots]int32
	used  [levels][slots / 64]uint64 // non-empty slots
	pool  []block
	free  int32 // first free block, or none
	n     int
	seq   uint64
}

// block is a piece of a slot's chain.
type block struct {
	ev   [blockLen]event
	n    int32
	next int32
}

const (
	levels    = 8 // 8 digits of 8 bits: any int64 tick
	slotBits  = 8
	slots     = 1 << slotBits
	slotMask  = slots - 1
	blockLen  = 128
	none      = -1
	maxTickF  = 1 << 62
	minTickSz = 1e-9
)

func newQueue(width float64) queue {
	q := queue{width: max(width, minTickSz), free: none}
	for l := range q.head {
		for s := range q.head[l] {
			q.head[l][s], q.tail[l][s] = none, none
		}
	}
	return q
}

func (q *queue) len() int { return q.n }

func (q *queue) tick(t float64) int64 {
	f := t / q.width
	if !(f < maxTickF) {
		return maxTickF
	}
	if f < 0 {
		return 0
	}
	return int64(f)
}

// push schedules an event for client i, carrying its state c, at t.
func (q *queue) push(t float64, i int, c client) {
	key := q.seq<<clientBits | uint64(i)
	q.seq++
	q.n++
	q.place(event{t, key, c})
}

func (q *queue) place(e event) {
	tk := q.tick(e.t)
	if tk <= q.cur {
		q.near.push(e)
		return
	}
	l := (bits.Len64(uint64(tk^q.cur)) - 1) / slotBits
	s := int(tk>>(l*slotBits)) & slotMask
	b := q.tail[l][s]
	if b == none || q.pool[b].n == blockLen {
		nb := q.alloc()
		if b == none {
			q.head[l][s] = nb
			q.used[l][s/64] |= 1 << (s % 64)
		} else {
			q.pool[b].next = nb
		}
		q.tail[l][s] = nb
		b = nb
	}
	blk := &q.pool[b]
	blk.ev[blk.n] = e
	blk.n++
}

func (q *queue) alloc() int32 {
	if b := q.free; b != none {
		q.free = q.pool[b].next
		q.pool[b].n, q.pool[b].next = 0, none
		return b
	}
	q.pool = append(q.pool, block{next: none})
	return int32(len(q.pool) - 1)
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	for len(q.near) == 0 {
		q.advance()
	}
	q.n--
	return q.near.pop()
}

// advance moves cur to the next tick that has events and brings them down.
func (q *queue) advance() {
	for l := 0; l < levels; l++ {
		digit := int(q.cur>>(l*slotBits)) & slotMask
		s := q.nextUsed(l, digit+1)
		if s < 0 {
			continue
		}
		// Enter slot s of level l: digits below l restart at 0. Its events
		// all go to lower levels or to near, never back to this slot.
		shift := l * slotBits
		q.cur = q.cur&^(int64(slots)<<shift-1) | int64(s)<<shift
		b := q.head[l][s]
		q.head[l][s], q.tail[l][s] = none, none
		q.used[l][s/64] &^= 1 << (s % 64)
		for b != none {
			// place may grow pool: index it afresh each time.
			for k := int32(0); k < q.pool[b].n; k++ {
				q.place(q.pool[b].ev[k])
			}
			next := q.pool[b].next
			q.pool[b].next = q.free
			q.free = b
			b = next
		}
		return
	}
	panic("sim: pop from an empty queue")
}

// nextUsed is the first non-empty slot of level l at or after from, or -1.
func (q *queue) nextUsed(l, from int) int {
	for w := from / 64; w < slots/64 && from < slots; w++ {
		m := q.used[l][w]
		if w == from/64 {
			m &= ^uint64(0) << (from % 64)
		}
		if m != 0 {
			return w*64 + bits.TrailingZeros64(m)
		}
	}
	return -1
}
