package sim

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

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

// The event's size, checked by the compiler: 32 bytes, two to a cache
// line. client has 4 bytes of padding (and tp 4 unused phase bits) that a
// new per-call field can take without growing it.
var _ [32]byte = [unsafe.Sizeof(event{})]byte{}

// clientBits holds a client index; MaxClients < 1<<clientBits.
const clientBits = 21

// The key's layout, checked by the compiler: each constant below is
// negative, which a uint64 cannot hold, if a client index outgrows
// clientBits, if MaxCalls tries at 4 sequence numbers each outgrow the 32
// bits Sim's run loop keeps them in, or if those do not fit above the
// client bits.
const (
	_ uint64 = 1<<clientBits - 1 - MaxClients
	_ uint64 = 1<<32 - 4*MaxCalls
	_ uint64 = 1<<(64-clientBits) - 1<<32
)

func (e event) client() int { return int(e.key & (1<<clientBits - 1)) }

func (a event) less(b event) bool { return a.t < b.t || (a.t == b.t && a.key < b.key) }

// heap4 is a 4-ary min-heap of events ordered by (t, key). Invariant:
// h[i] is not less than h[(i-1)/4] for every i < n; push and pop move
// O(log4 n) entries, and four siblings share a cache line. Its length is
// n, not len(h): push and pop then write no slice header, which would cost
// a GC write barrier per event while a collection runs.
type heap4 struct {
	h []event
	n int
}

func (hp *heap4) push(e event) {
	if hp.n == len(hp.h) {
		hp.grow()
	}
	h := hp.h
	i := hp.n
	hp.n++
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (hp *heap4) grow() {
	hp.h = append(hp.h, make([]event, max(64, len(hp.h)))...)
}

// pop moves the hole left by the top down to a leaf along the smaller
// children, then sifts the last entry up from there (Floyd's bottom-up
// deletion): the last entry nearly always belongs near the bottom, so this
// saves the unpredictable comparison with it on every level.
func (hp *heap4) pop() event {
	h := hp.h
	top := h[0]
	hp.n--
	n := hp.n
	if n == 0 {
		return top
	}
	e := h[n]
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
		h[i] = h[m]
		i = m
	}
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
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
	width  float64  // seconds per tick
	inv    float64  // 1/width: t*inv is monotone in t, all the order needs
	flat   bool     // no wheel: everything is in small
	small  *tourney // flat only
	cur    int64    // the current tick; the wheel holds only later ticks
	near   heap4    // events whose tick is cur (or earlier)
	*wheel          // nil when flat
	// Blocks of blockLen events: block b is pool[b*blockLen:][:blockLen],
	// holding fill[b] events, followed by next[b].
	pool     []event
	fill     []int32
	next     []int32
	blockLen int32
	free     int32 // first free block, or none
	n        int
	seq      uint64
}

const (
	levels    = 8 // 8 digits of 8 bits: any int64 tick
	slotBits  = 8
	slots     = 1 << slotBits
	slotMask  = slots - 1
	none      = -1
	maxTickF  = 1 << 62
	minTickSz = 1e-9
)

// wheel is the queue's slot table, 16 kB: allocated only for big runs.
type wheel struct {
	head [levels][slots]int32
	tail [levels][slots]int32
	used [levels][slots / 64]uint64 // non-empty slots
}

// newQueue makes a queue for up to clients pending events with ticks of
// width seconds; width 0 makes it a tournament tree (tourney) of clients
// leaves instead.
func newQueue(clients int, width float64, b *buffers) queue {
	if width <= 0 {
		return queue{flat: true, small: newTourney(clients)}
	}
	bl, nb := queueBlocks(clients)
	width = max(width, minTickSz)
	return queue{width: width, inv: 1 / width, free: none, blockLen: bl, wheel: newWheel(),
		pool: empty(take(&b.pool), nb*int(bl)), fill: empty(take(&b.fill), nb), next: empty(take(&b.next), nb)}
}

// queueBlocks is the block length and the blocks of the pool of a queue
// for up to clients pending events. Big blocks scan fastest; small ones
// waste less when a few events spread over many slots. Pending events
// fill at most clients/blockLen blocks plus one partial block per used
// slot: reserve that much, so the pool never regrows (and never copies).
func queueBlocks(clients int) (bl int32, nb int) {
	bl = 4
	for bl < 128 && int(bl)*256 < clients {
		bl *= 2
	}
	return bl, clients/int(bl) + min(clients, levels*slots) + 1
}

func (q *queue) len() int { return q.n }

func (q *queue) tick(t float64) int64 { return tickOf(t, q.inv) }

// tickOf is the tick of time t at inv ticks a second, clamped to
// [0, maxTickF] (t may be +Inf).
func tickOf(t, inv float64) int64 {
	f := t * inv
	if !(f < maxTickF) {
		return maxTickF
	}
	if f < 0 {
		return 0
	}
	return int64(f)
}

// reserve takes a sequence number for an event that is worked out without
// going through the queue, so that it still has its place in the order.
func (q *queue) reserve() uint64 {
	q.seq++
	return q.seq - 1
}

// push schedules an event for client i, carrying its state c, at t.
func (q *queue) push(t float64, i int, c client) {
	key := q.seq<<clientBits | uint64(i)
	q.seq++
	q.n++
	q.place(event{t, key, c})
}

func (q *queue) place(e event) {
	if q.flat {
		q.small.push(e)
		return
	}
	tk := q.tick(e.t)
	if tk <= q.cur {
		q.near.push(e)
		return
	}
	l := (bits.Len64(uint64(tk^q.cur)) - 1) / slotBits
	s := int(tk>>(l*slotBits)) & slotMask
	b := q.tail[l][s]
	if b == none || q.fill[b] == q.blockLen {
		nb := q.alloc()
		if b == none {
			q.head[l][s] = nb
			q.used[l][s/64] |= 1 << (s % 64)
		} else {
			q.next[b] = nb
		}
		q.tail[l][s] = nb
		b = nb
	}
	q.pool[b*q.blockLen+q.fill[b]] = e
	q.fill[b]++
}

func (q *queue) alloc() int32 {
	if b := q.free; b != none {
		q.free = q.next[b]
		q.fill[b], q.next[b] = 0, none
		return b
	}
	q.pool = append(q.pool, make([]event, q.blockLen)...)
	q.fill = append(q.fill, 0)
	q.next = append(q.next, none)
	return int32(len(q.fill) - 1)
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	if q.flat {
		q.n--
		return q.small.pop()
	}
	for q.near.n == 0 {
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
			for k := int32(0); k < q.fill[b]; k++ {
				q.place(q.pool[b*q.blockLen+k])
			}
			next := q.next[b]
			q.next[b] = q.free
			q.free = b
			b = next
		}
		return
	}
	panic("sim: pop from an empty queue")
}

// nextUsed is the first non-empty slot of level l at or after from, or -1.
func (w *wheel) nextUsed(l, from int) int {
	for i := from / 64; i < slots/64 && from < slots; i++ {
		m := w.used[l][i]
		if i == from/64 {
			m &= ^uint64(0) << (from % 64)
		}
		if m != 0 {
			return i*64 + bits.TrailingZeros64(m)
		}
	}
	return -1
}

// newWheel is an empty slot table.
func newWheel() *wheel {
	w := new(wheel)
	for l := range w.head {
		for s := range w.head[l] {
			w.head[l][s], w.tail[l][s] = none, none
		}
	}
	return w
}

// tourney is the queue of small runs: a tournament (winner) tree with a
// leaf per client, which holds the client's one pending event. Node x of
// [1, 2*size) holds the least (t, key) below it (the key names the
// client); leaf i is node size+i, and empty leaves hold (+Inf, max). A
// push or a removal replays one leaf-to-root path: log2(size)
// comparisons against the sibling, whose load does not wait on the one
// before. A popped event stays in its leaf until the client's next push,
// which nearly always follows at once, so a pop and its push cost one
// replay, where a heap's pop and push cost two walks with three
// comparisons a level (4-ary).
type tourney struct {
	node  []tentry
	cl    []client // per leaf: the state the event carries
	size  int
	stale int // the leaf popped last and not yet replayed, or none
}

// tentry is an event without the client's state: 16 bytes. t holds the
// time's float64 bits, which order as the times do because times are
// never negative (sums of hops and delays from 0; push maps -0 to +0):
// (t, key) is then one 128-bit number, compared without a branch.
type tentry struct {
	t   uint64
	key uint64
}

var emptyLeaf = tentry{math.Float64bits(math.Inf(1)), math.MaxUint64}

func newTourney(clients int) *tourney {
	size := 1
	for size < clients {
		size *= 2
	}
	tr := &tourney{node: make([]tentry, 2*size), cl: make([]client, size), size: size, stale: none}
	for x := range tr.node {
		tr.node[x] = emptyLeaf
	}
	return tr
}

// set puts leaf i's entry and replays its path. Which of two entries is
// less is as likely either way, so the choice is a mask, not a branch.
func (tr *tourney) set(i int, e tentry) {
	node := tr.node
	x := tr.size + i
	node[x] = e
	for x > 1 {
		o := node[x^1]
		_, b := bits.Sub64(o.key, e.key, 0)
		_, b = bits.Sub64(o.t, e.t, b) // 1 iff o < e
		m := -b
		e.t ^= (e.t ^ o.t) & m
		e.key ^= (e.key ^ o.key) & m
		x >>= 1
		node[x] = e
	}
}

func (tr *tourney) push(e event) {
	i := e.client()
	if s := tr.stale; s != none && s != i {
		tr.set(s, emptyLeaf)
	}
	tr.stale = none
	tr.cl[i] = e.c
	tr.set(i, tentry{math.Float64bits(e.t + 0), e.key}) // + 0: -0 is +0
}

// pop returns the least event; there must be one.
func (tr *tourney) pop() event {
	if s := tr.stale; s != none {
		tr.stale = none
		tr.set(s, emptyLeaf)
	}
	e := tr.node[1]
	i := int(e.key & (1<<clientBits - 1))
	tr.stale = i
	return event{math.Float64frombits(e.t), e.key, tr.cl[i]}
}

// rev is an event of the request-level engine (engine.go): 32 bytes, no
// pointers. key is seq<<8 | meta, so (t, key) orders ties first in, first
// out whatever the meta (kind, copy, outcome); id names the caller, stamp
// its try, x carries a number (a service time).
//
// It has four fields (id and stamp are one, embedded): Go keeps a struct
// of at most four fields and 32 bytes in registers (SSA), and moves any
// other of more than 16 bytes through memory, which its WebAssembly port
// does with memory.copy, a call out of the compiled code in the browser.
// TestHotStructsInRegisters holds rev and qentry to it.
type rev struct {
	t   float64
	key uint64
	tag
	x float64
}

// tag names a caller's try: the caller (id) and its try's stamp.
type tag struct{ id, stamp uint32 }

var _ [32]byte = [unsafe.Sizeof(rev{})]byte{}

func (a *rev) less(b *rev) bool { return a.t < b.t || (a.t == b.t && a.key < b.key) }

// rheap is heap4 for rev: a 4-ary min-heap ordered by (t, key), with
// Floyd's bottom-up pop. The request-level engine's pending events are
// those in flight (a few per caller waiting), so one heap serves; the
// herd's wheel is for a million clients' events at once.
type rheap struct {
	h []rev
	n int
}

func (hp *rheap) push(e rev) {
	if hp.n == len(hp.h) {
		hp.h = append(hp.h, make([]rev, max(64, len(hp.h)))...)
	}
	h := hp.h
	i := hp.n
	hp.n++
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// pop removes and returns the earliest event; there must be one.
func (hp *rheap) pop() (top rev) {
	h := hp.h
	top = h[0]
	hp.n--
	n := hp.n
	if n == 0 {
		return top
	}
	e := h[n]
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].less(&h[m]) {
				m = j
			}
		}
		h[i] = h[m]
		i = m
	}
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	return top
}

// revFIFO is a first-in, first-out ring of rev: events pushed in (t, key)
// order, such as those of one constant delay (every timeout is Timeout
// after its call), which need no heap. Positions only grow; entry p is
// buf[p&mask], len(buf) a power of two.
type revFIFO struct {
	buf        []rev
	mask       uint32
	head, tail uint32 // tail-head <= len(buf); wrapping is harmless
}

func (f *revFIFO) len() int { return int(f.tail - f.head) }

func (f *revFIFO) push(e rev) {
	if int(f.tail-f.head) == len(f.buf) {
		f.grow()
	}
	f.buf[f.tail&f.mask] = e
	f.tail++
}

func (f *revFIFO) grow() {
	nb := make([]rev, max(64, 2*len(f.buf)))
	m := uint32(len(nb) - 1)
	for p := f.head; p != f.tail; p++ {
		nb[p&m] = f.buf[p&f.mask]
	}
	f.buf, f.mask = nb, m
}

// peek is the first event; there must be one.
func (f *revFIFO) peek() *rev { return &f.buf[f.head&f.mask] }

// last is the latest event pushed; there must be one.
func (f *revFIFO) last() *rev { return &f.buf[(f.tail-1)&f.mask] }

func (f *revFIFO) pop() rev {
	e := f.buf[f.head&f.mask]
	f.head++
	return e
}

// evQueue is the request-level engine's event queue: a heap for events
// at varied delays, and FIFOs for events that come in order: each
// constant delay's (timeouts, fixed hedges) and open traffic's arrivals.
// Pop takes the least (t, key) of the heap's top and the FIFOs' heads:
// with a 1 s timeout at 10,000 requests a second the heap holds the ~1,000
// calls in flight instead of ~11,000 events, and pops cost about half
// (BenchmarkOpenMillion). With many callers a timing wheel (far) takes
// the heap's place: a pop from a heap of 10,000 spent ~130 ns in its seven
// levels of unpredictable comparisons (BenchmarkChain).
type evQueue struct {
	heap   rheap
	far    *revWheel // nil: the heap holds every event but the FIFOs'
	fifo   [3]revFIFO
	inFIFO int // events in the FIFOs: none, and pop looks at none
}

func (q *evQueue) len() int {
	n := q.heap.n + q.inFIFO
	if w := q.far; w != nil {
		n += w.n + len(w.near) - w.first
	}
	return n
}

// bytes is what the queue's slices hold, each counted at the larger of
// its capacity and twice what it uses (the size its next growth makes).
func (q *evQueue) bytes() float64 {
	n := growing(cap(q.heap.h), q.heap.n)
	for i := range q.fifo {
		n += growing(len(q.fifo[i].buf), q.fifo[i].len())
	}
	if w := q.far; w != nil {
		n += growing(cap(w.near), len(w.near)-w.first) + growing(cap(w.pool), len(w.pool))
		n += float64(cap(w.fill)+cap(w.next)) * 4 / revBytes
	}
	return n * revBytes
}

// growing is a slice of capacity c using n elements, in elements, as its
// memory bound counts it: c, or 2n if more (the size its growth by
// doubling makes).
func growing(c, n int) float64 { return float64(max(c, 2*n)) }

// appended is growing for a slice that append grows: by a quarter and
// 192 elements once it holds 256 (runtime.growslice), by doubling
// before.
func appended(c, n int) float64 {
	if n < 256 {
		return growing(c, n)
	}
	return float64(max(c, n+(n+3*256)/4))
}

// push schedules an event at any time.
func (q *evQueue) push(e rev) {
	if w := q.far; w != nil {
		w.push(e)
		return
	}
	q.heap.push(e)
}

// pushFIFO schedules an event on FIFO k, after every event there.
func (q *evQueue) pushFIFO(k int, e rev) {
	q.fifo[k].push(e)
	q.inFIFO++
}

// refill brings the wheel's next tick into its sorted run once that is
// used up, and reports whether it did.
func (q *evQueue) refill() bool {
	w := q.far
	if w == nil || w.first < len(w.near) || w.n == 0 {
		return false
	}
	w.advance()
	return true
}

// pop removes and returns the least event; there must be one.
func (q *evQueue) pop() rev {
	var best *rev
	src := -1
	if w := q.far; w != nil {
		if w.first == len(w.near) && w.n > 0 {
			w.advance()
		}
		if w.first < len(w.near) {
			best = &w.near[w.first]
		}
	} else if q.heap.n > 0 {
		best = &q.heap.h[0]
	}
	for i := range q.fifo {
		if f := &q.fifo[i]; q.inFIFO > 0 && f.head != f.tail {
			if e := f.peek(); best == nil || e.less(best) {
				best, src = e, i
			}
		}
	}
	switch {
	case src >= 0:
		q.inFIFO--
		return q.fifo[src].pop()
	case q.far != nil:
		q.far.first++
		return *best
	}
	return q.heap.pop()
}

// revWheel is the herd's timing wheel (queue) for rev. Events of ticks
// after cur wait unordered in its slots; those of cur (a handful) are
// sorted into near, which orders them exactly, so any width gives the
// same order. A slot keeps its events in the order pushed, so events
// pushed in time order (ties, clock-aligned retries) sort in one pass.
type revWheel struct {
	inv float64 // ticks per second
	cur int64   // the current tick
	// near holds the events of ticks up to cur, from first on, in (t,
	// key) order.
	near  []rev
	first int
	*wheel
	// Blocks of revBlockLen events, as queue's.
	pool []rev
	fill []int32
	next []int32
	free int32
	n    int // events in the slots
}

// revBlockLen is small: a slot holds a few events (BenchmarkChain: 8
// missed the caches least, of 4 to 16).
const revBlockLen = 8

func newRevWheel(width float64) *revWheel {
	width = max(width, minTickSz)
	return &revWheel{inv: 1 / width, wheel: newWheel(), free: none}
}

func (w *revWheel) tick(t float64) int64 { return tickOf(t, w.inv) }

// push schedules e: in near if its tick has come, else in its slot.
func (w *revWheel) push(e rev) {
	if tk := w.tick(e.t); tk > w.cur {
		w.place(e, tk)
		return
	}
	if w.first >= 256 && 2*w.first >= len(w.near) {
		// Drop what was popped, so that a tick that never runs out
		// holds only what is pending.
		w.near = w.near[:copy(w.near, w.near[w.first:])]
		w.first = 0
	}
	// After every event of near not after it: usually at the end.
	i := len(w.near)
	for i > w.first && e.less(&w.near[i-1]) {
		i--
	}
	w.near = slices.Insert(w.near, i, e)
}

// place puts e, of tick tk > cur, in its slot.
func (w *revWheel) place(e rev, tk int64) {
	w.n++
	l := (bits.Len64(uint64(tk^w.cur)) - 1) / slotBits
	s := int(tk>>(l*slotBits)) & slotMask
	b := w.tail[l][s]
	if b == none || w.fill[b] == revBlockLen {
		nb := w.alloc()
		if b == none {
			w.head[l][s] = nb
			w.used[l][s/64] |= 1 << (s % 64)
		} else {
			w.next[b] = nb
		}
		w.tail[l][s] = nb
		b = nb
	}
	w.pool[b*revBlockLen+w.fill[b]] = e
	w.fill[b]++
}

func (w *revWheel) alloc() int32 {
	if b := w.free; b != none {
		w.free = w.next[b]
		w.fill[b], w.next[b] = 0, none
		return b
	}
	w.pool = append(w.pool, make([]rev, revBlockLen)...)
	w.fill = append(w.fill, 0)
	w.next = append(w.next, none)
	return int32(len(w.fill) - 1)
}

// advance moves cur to the next tick that has events, as queue.advance
// does, and sorts those of cur into near, which must be used up; there
// must be some.
func (w *revWheel) advance() {
	w.near, w.first = w.near[:0], 0
	for len(w.near) == 0 {
		w.enter()
	}
	// Insertion sort: a few events, often in order already.
	near := w.near
	for i := 1; i < len(near); i++ {
		e := near[i]
		j := i
		for j > 0 && e.less(&near[j-1]) {
			near[j] = near[j-1]
			j--
		}
		near[j] = e
	}
}

// enter moves cur into the next used slot of the lowest level that has
// one, to its first tick, and the slot's events to lower levels, or to
// near for that tick's.
func (w *revWheel) enter() {
	for l := 0; l < levels; l++ {
		s := w.nextUsed(l, int(w.cur>>(l*slotBits))&slotMask+1)
		if s < 0 {
			continue
		}
		shift := l * slotBits
		w.cur = w.cur&^(int64(slots)<<shift-1) | int64(s)<<shift
		b := w.head[l][s]
		w.head[l][s], w.tail[l][s] = none, none
		w.used[l][s/64] &^= 1 << (s % 64)
		for b != none {
			if l == 0 {
				// A tick's own slot: all its events are cur's.
				w.near = append(w.near, w.pool[b*revBlockLen:][:w.fill[b]]...)
				w.n -= int(w.fill[b])
			} else {
				// place may grow pool: index it afresh each time.
				for k := int32(0); k < w.fill[b]; k++ {
					e := w.pool[b*revBlockLen+k]
					w.n--
					if tk := w.tick(e.t); tk > w.cur {
						w.place(e, tk)
					} else {
						w.near = append(w.near, e)
					}
				}
			}
			next := w.next[b]
			w.next[b] = w.free
			w.free = b
			b = next
		}
		return
	}
	panic("sim: pop from an empty queue")
}
