package backoff

import "math"

// Sampler draws retry delays exactly as Policy.Step does, draw for draw,
// for callers that draw millions (the simulator, the table's Monte Carlo).
// Step recomputes the capped nominal delay of retry n (Base.Seconds(),
// Factor^k, the cap) on every call, though for a given n it is always the
// same; a Sampler computes it once per n into a table, and draws the kinds
// that are d * U[lo, hi) inline. Exact caps and an immediate or
// un-jittered first retry call Step.
//
// A Sampler is not safe for concurrent use: its table grows on demand.
type Sampler struct {
	p Policy
	k *jitterKind
	// table is set for a state-free kind; g[n] is then the capped nominal
	// delay of retry n raised to the floor (g[0] unused), grown on
	// demand up to maxTable.
	table bool
	// linear: the kind is d * U[lo, lo+span) with no floor under it.
	linear   bool
	history  bool // a history-dependent kind, drawn by its step
	g        []float64
	lo, span float64
	cap      float64 // seconds; 0 = none
	capAfter bool    // clamp the jittered delay to cap (Policy.capsDelay)
	off      float64 // Offset, seconds
	floor    float64 // Floor, seconds
}

// maxTable bounds the table: 32 kB of nominal delays. Retries past it
// (unlimited attempts) call Step.
const maxTable = 4096

// NewSampler returns a Sampler for p (copied).
func NewSampler(p Policy) Sampler {
	k := p.Jitter.kind()
	d := Sampler{p: p, k: k, cap: p.Cap.Seconds(), off: p.Offset.Seconds(), capAfter: p.capsDelay(),
		floor: p.Floor.Seconds()}
	plain := !p.ImmediateFirst && !p.FirstUnjittered && p.CapMode != CapExact
	d.history = k.step != nil && !p.ImmediateFirst
	d.table = k.step == nil && plain
	if lo, hi, ok := p.Span(); ok && d.table && d.floor == 0 && p.Quantum == 0 {
		d.linear, d.lo, d.span = true, lo, hi-lo
	}
	if d.table {
		d.g = make([]float64, 1, 16)
	}
	return d
}

// nominal is g[n], the table grown to hold it: the capped nominal delay,
// raised to the floor as Step raises it.
func (d *Sampler) nominal(n int) float64 {
	for len(d.g) <= n {
		g, _ := d.p.capped(len(d.g))
		d.g = append(d.g, max(g, d.floor))
	}
	return d.g[n]
}

// Next is d's policy's Step(n, State{Prev: *prev}, u), keeping the new
// history in *prev: one number per client is all the history any kind
// needs.
func (d *Sampler) Next(n int, prev *float64, u float64) float64 {
	var v float64
	switch {
	case d.history:
		var st State
		v, st = d.k.step(&d.p, n, State{Prev: *prev}, u)
		*prev = st.Prev
	case !d.table || n >= maxTable:
		v, st := d.p.Step(n, State{Prev: *prev}, u)
		*prev = st.Prev
		return v
	default:
		var g float64
		if n < len(d.g) {
			g = d.g[n]
		} else {
			g = d.nominal(n)
		}
		if d.linear {
			v = linearSpread(g, d.lo, d.span, u)
		} else {
			// Step's own arithmetic, f + jitter(g - f): the same bits.
			v = d.floor + d.k.spread(&d.p, n, g-d.floor, u)
		}
	}
	// The rest of Step: cap after jitter, offset, bounds. Min and Max only
	// when they can change the value (their asm is a call natively).
	if d.capAfter && !(v <= d.cap) {
		v = math.Min(v, d.cap)
	}
	v += d.off
	if !(v < maxSeconds) {
		v = maxSeconds
	}
	if !(v > 0) {
		v = math.Max(v, 0)
	}
	return v
}
