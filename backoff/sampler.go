package backoff

import "math"

// Sampler draws retry delays exactly as Policy.Step does, draw for draw,
// for callers that draw millions (the simulator, the table's Monte Carlo).
// Step recomputes the capped nominal delay of retry n (Base.Seconds(),
// Factor^k, the cap) on every call, though for a given n it is always the
// same; a Sampler computes it once per n into a table and applies the
// jitter inline. Kinds it does not cover (quantised, additive, Polly's V2,
// exact caps, an immediate or un-jittered first retry, a floor) call Step.
//
// A Sampler is not safe for concurrent use: its table grows on demand.
type Sampler struct {
	p Policy
	// table is set when the policy is one of the kinds below; g[n] is
	// then the capped nominal delay of retry n (g[0] unused), grown on
	// demand up to maxTable.
	table    bool
	jitter   Jitter
	g        []float64
	lo, span float64 // Proportional: JitterLo, JitterHi-JitterLo
	base     float64 // Decorrelated: Base, seconds
	cap      float64 // seconds; 0 = none
	capAfter bool    // clamp the jittered delay to cap (Policy.capsDelay)
	off      float64 // Offset, seconds
	quantum  float64 // Full: Quantum, seconds (0 = none)
	floor    float64 // Floor, seconds (flooredJitter)
}

// flooredJitter is a Sampler's kind for a state-free jitter under a
// floor: its own case, so the policies without one pay nothing for it.
const flooredJitter Jitter = 255

// maxTable bounds the table: 32 kB of nominal delays. Retries past it
// (unlimited attempts) call Step.
const maxTable = 4096

// NewSampler returns a Sampler for p (copied).
func NewSampler(p Policy) Sampler {
	d := Sampler{p: p, jitter: p.Jitter, cap: p.Cap.Seconds(), off: p.Offset.Seconds(),
		capAfter: p.capsDelay(),
		lo:       p.JitterLo, span: p.JitterHi - p.JitterLo, base: p.Base.Seconds()}
	switch p.Jitter {
	case NoJitter, Full, Equal, Proportional, Decorrelated:
		d.table = !p.ImmediateFirst && !p.FirstUnjittered && p.CapMode != CapExact
	}
	if d.table && p.Floor > 0 {
		d.jitter, d.floor = flooredJitter, p.Floor.Seconds()
	}
	if p.Jitter == Full {
		d.quantum = p.Quantum.Seconds()
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

// Next is d's policy's Step(n, State{Prev: *prev, PrevV2: *prev}, u),
// keeping the new history in *prev: one number per client is all the
// history any kind needs (the previous delay for Decorrelated, the previous
// value of Polly's formula for DecorrelatedV2).
func (d *Sampler) Next(n int, prev *float64, u float64) float64 {
	if !d.table || n >= maxTable {
		st, jit := State{Prev: *prev, PrevV2: *prev}, d.p.Jitter
		v, st := d.p.Step(n, st, u)
		if jit == DecorrelatedV2 {
			*prev = st.PrevV2
		} else {
			*prev = st.Prev
		}
		return v
	}
	var v float64
	switch d.jitter {
	case Decorrelated:
		// DecorrelatedJitter, with Step's start at Base.
		p := *prev
		if p <= 0 {
			p = d.base
		}
		hi := p * 3
		v = d.base + (hi-d.base)*u
		if d.cap > 0 && v > d.cap {
			v = d.cap
		}
		*prev = v
	case flooredJitter:
		// Step's own arithmetic, f + jitter(g - f): the same bits.
		v = d.floor + d.p.jitter(n, d.nominal(n)-d.floor, u)
	default:
		var g float64
		if n < len(d.g) {
			g = d.g[n]
		} else {
			g = d.nominal(n)
		}
		switch d.jitter {
		case Full:
			if d.quantum > 0 {
				v = FullJitter(g, d.quantum, u) // whole slots: Ethernet, Celery
			} else {
				v = g * u
			}
		case Equal:
			v = g/2 + g/2*u
		case Proportional:
			v = g * (d.lo + d.span*u)
		default:
			v = g
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
