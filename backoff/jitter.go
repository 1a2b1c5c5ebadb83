package backoff

import (
	"slices"
	"strings"
)

// Jitter is the kind of randomisation applied to the nominal delay d.
// Each kind is a row of jitterKinds, written with its math in its own
// file (jitter_NAME.go); everything else in the module reads the row.
type Jitter uint8

const (
	// NoJitter: d.
	NoJitter Jitter = iota
	// Full: U[0, d). With Quantum q: q * U{0 .. floor(d/q)}.
	Full
	// Equal: d/2 + U[0, d/2).
	Equal
	// Decorrelated (AWS): min(Cap, U[Base, prev*3)), prev starting at Base.
	// It ignores Growth: the delay depends on the previous delay, not on n.
	Decorrelated
	// DecorrelatedV2 (Polly): t = (n-1) + U[0,1), f(t) = 2^t * tanh(sqrt(4t)),
	// delay = (f(t) - f(t_prev)) / 1.4 * Base. Medians near Base, 2 Base, 4 Base...
	// A cap clamps the delay in every CapMode (Polly's MaxDelay); the
	// formula's history goes on unclamped, as in Polly.
	DecorrelatedV2
	// Proportional: d * U[JitterLo, JitterHi), as gRPC's 0.8-1.2.
	Proportional
	// Additive: d + U[0, A), A = JitterAdd (times n when JitterAddScaled).
	// With Quantum q: d + q * U{0 .. ceil(A/q)-1}, Sidekiq's rand(10*(count+1)).
	Additive
	// DecorrelatedClamped (Polly's first, in its wiki from 2017):
	// min(Cap, max(Base, prev*3*U[0,1))), prev starting at Base. The draw
	// is clamped at both ends, so a share of the delays is exactly Base (a
	// third of first retries) and, once prev*3 passes Cap, a growing share
	// exactly Cap: with Cap = 10 Base, about 35% by retry 10.
	DecorrelatedClamped
)

// jitterKind is one jitter kind: its name and its math. A kind is either
// state-free (spread and dist: the delay is a function of the retry's
// capped nominal delay and one draw) or history-dependent (step and
// bounds: the delay depends on the previous one, so it has no closed
// form; its tables sample means and percentiles).
type jitterKind struct {
	// name is the kind's value for flags and URLs, and the suffix of its
	// catalog keys (jitter.NAME, jname.NAME, desc.jitter.NAME).
	name string
	// params are the policy's values (numbers, durations) the kind reads
	// of its own, in a form's order: a form shows a box for each while the
	// kind is chosen.
	params []string
	// flags are its own switches (Param names), set by presets and links
	// rather than a form's box.
	flags []string
	// quantum: the kind can draw whole multiples of Policy.Quantum.
	quantum bool
	// defaults gives the kind's own fields useful values when a policy
	// switches to it with them unset (Set), nil for none.
	defaults func(p *Policy)
	// validate checks the kind's own fields, nil for none.
	validate func(p *Policy) error

	// span: the kind is d * U[lo, hi) (no quantum), nil when it is not.
	span func(p *Policy) (lo, hi float64)
	// fit makes p's jitter this kind with span [lo, hi) and reports
	// whether the kind can express it (setSpan tries the kinds in turn).
	fit func(p *Policy, lo, hi float64) bool

	// spread jitters g, retry n's nominal delay past the cap and the
	// floor, with the draw u in [0, 1) (state-free kinds).
	spread func(p *Policy, n int, g, u float64) float64
	// dist is the distribution of spread(p, n, g, U).
	dist func(p *Policy, n int, g float64) dist
	// lifts reports whether spread can return more than g: a cap before
	// the jitter then does not bound the delay (CapBoundsDelay).
	lifts func(p *Policy) bool

	// step is the delay before retry n (history-dependent kinds), before
	// Offset and without the after-jitter cap, and the next state.
	step func(p *Policy, n int, s State, u float64) (float64, State)
	// bounds are the least and the supremum of the m-th delay of step
	// (m counts the kind's own steps), before the cap and Offset.
	bounds func(p *Policy, m int) (lo, hi float64)
	// sumMax bounds the sum of the first m steps' delays (before the cap
	// and Offset) where it is less than their bounds summed (V2's sum
	// telescopes), nil where the bounds add up; cumBounds then sets a
	// table's cumulative columns.
	sumMax    func(p *Policy, m int) float64
	cumBounds func(t *Table)
	// uniformAbovePrev: given the previous delay prev, a delay is
	// U[base, 3 prev), capped; a table's percentiles are then read from
	// the previous retry's draws, more exactly than from its own.
	uniformAbovePrev bool

	// words are the kind's own words for Describe ("proportional jitter
	// x U[0.8, 1.2)") and formula its delay as a short formula over the
	// capped nominal delay d ("U[0,d)"), for export warnings.
	words   func(p *Policy) string
	formula func(p *Policy) string
	// desc is the suffix of the page's catalog key desc.jitter.SUFFIX
	// for p and the policy fields its {1}, {2}... stand for.
	desc func(p *Policy) (suffix string, fields []string)
}

// jitterKinds is the one table of jitter kinds, indexed by Jitter, and
// jitterNames their names. Each row lives in its kind's file. They are
// filled in init: a row's math reads the table (through a policy's
// methods), which a variable's initialiser may not.
var (
	jitterKinds [DecorrelatedClamped + 1]*jitterKind
	jitterNames []string
)

func init() {
	jitterKinds = [...]*jitterKind{
		NoJitter:       &noJitterKind,
		Full:           &fullKind,
		Equal:          &equalKind,
		Decorrelated:   &decorrelatedKind,
		DecorrelatedV2: &decorrelatedV2Kind,
		Proportional:   &proportionalKind,
		Additive:       &additiveKind,
		// Last, so the older kinds keep their numbers.
		DecorrelatedClamped: &decorrelatedClampedKind,
	}
	jitterNames = make([]string, len(jitterKinds))
	for i, k := range jitterKinds {
		jitterNames[i] = k.name
	}
}

// kind is j's row; an unknown kind (which Validate refuses) reads as none.
func (j Jitter) kind() *jitterKind {
	if int(j) < len(jitterKinds) {
		return jitterKinds[j]
	}
	return &noJitterKind
}

func (j Jitter) String() string { return nameOf(jitterNames, int(j)) }

// JitterNames lists every Jitter's name, indexed by Jitter. The slice is a
// copy.
func JitterNames() []string { return slices.Clone(jitterNames) }

// HistoryDependent reports whether a delay of j depends on the previous
// delay, not only on the retry number (the decorrelated kinds). Such
// kinds have no closed form: a table gives their exact bounds but samples
// their means and percentiles. The others' columns are all closed forms.
func (j Jitter) HistoryDependent() bool {
	return int(j) < len(jitterKinds) && jitterKinds[j].step != nil
}

// Params are the policy's values (Param names) j reads of its own, in a
// form's order: a form's boxes for the kind. The slice is a copy.
func (j Jitter) Params() []string { return slices.Clone(j.kind().params) }

// Flags are the policy's switches (Param names) j reads of its own. The
// slice is a copy.
func (j Jitter) Flags() []string { return slices.Clone(j.kind().flags) }

// TakesQuantum reports whether j draws whole multiples of a quantum.
func (j Jitter) TakesQuantum() bool { return j.kind().quantum }

// quantumKinds names the kinds that take a quantum, for an error's text.
func quantumKinds() string {
	var names []string
	for _, k := range jitterKinds {
		if k.quantum {
			names = append(names, k.name)
		}
	}
	return strings.Join(names, " or ")
}

// Span returns p's jitter as d * U[lo, hi) when it is one (none [1, 1],
// full [0, 1], equal [0.5, 1], proportional [JitterLo, JitterHi]): the
// form most libraries' jitter takes. A quantum (Full's) draws whole
// steps of that span.
func (p *Policy) Span() (lo, hi float64, ok bool) {
	k := p.Jitter.kind()
	if k.span == nil {
		return 0, 0, false
	}
	lo, hi = k.span(p)
	return lo, hi, true
}

// SetSpan makes p's jitter d * U[lo, hi), as the first kind in the
// table's order that can say it (so [0, 1] is full jitter, not
// proportional), and clears the other kinds' fields (not Quantum).
func (p *Policy) SetSpan(lo, hi float64) {
	p.JitterLo, p.JitterHi, p.JitterAdd, p.JitterAddScaled = 0, 0, 0, false
	for i, k := range jitterKinds {
		if k.fit != nil && k.fit(p, lo, hi) {
			p.Jitter = Jitter(i)
			return
		}
	}
}

// JitterFormula is p's jitter as a short formula over the capped nominal
// delay d: "d", "U[0,d)", "d*U[0.8,1.2)", "d+U[0,1s)", or the kind's name
// for the history-dependent kinds, which have no d.
func (p *Policy) JitterFormula() string {
	if f := p.Jitter.kind().formula; f != nil {
		return f(p)
	}
	return p.Jitter.String()
}

// JitterWords says which sentence describes p's jitter on a page: the
// suffix of the catalog key desc.jitter.SUFFIX, and the policy fields
// (Param names) whose values fill its {1}, {2}...
func (p *Policy) JitterWords() (suffix string, fields []string) {
	if d := p.Jitter.kind().desc; d != nil {
		return d(p)
	}
	return p.Jitter.String(), nil
}

// jitterWords is p's jitter in Describe's words.
func (p *Policy) jitterWords() string {
	if w := p.Jitter.kind().words; w != nil {
		return w(p)
	}
	return p.Jitter.String() + " jitter"
}

// fixedSpan is the fit of a kind with a fixed span [a, b): it can say
// exactly that span.
func fixedSpan(a, b float64) func(p *Policy, lo, hi float64) bool {
	return func(_ *Policy, lo, hi float64) bool { return lo == a && hi == b }
}

// linearSpread is d * U[lo, hi): the spread of every kind with a span.
// Step and Sampler both draw it so, to the bit.
func linearSpread(g, lo, span, u float64) float64 { return g * (lo + span*u) }
