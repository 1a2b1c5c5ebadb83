package backoff

import (
	"math"
	"slices"
	"time"
)

// Growth is how the nominal (un-jittered) delay grows with the retry number n
// (n = 1 is the first retry).
type Growth uint8

const (
	// Exponential: Base * Factor^(n-1+FirstExponent).
	Exponential Growth = iota
	// Linear: Base * n.
	Linear
	// Constant: Base.
	Constant
	// None: 0, immediate retries (the "no backoff" baseline).
	None
	// ExpMinusOne: Base * (Factor^n - 1), Azure's (2^n - 1) * RetryDelay and
	// Ethernet's 2^k - 1 slots.
	ExpMinusOne
	// Polynomial: Base * (n-1)^Factor, Sidekiq's count^4 (plus Offset 15 s).
	Polynomial
	// Geometric: systemd's interpolation from Base (RestartSec) to Cap
	// (RestartMaxDelaySec) over Steps retries:
	// Base * (Cap/Base)^((n-1)/Steps), Cap after Steps; Base when Steps is 0.
	Geometric
)

var growthNames = []string{"exponential", "linear", "constant", "none", "exp-minus-one", "polynomial", "geometric"}

func (g Growth) String() string { return nameOf(growthNames, int(g)) }

// GrowthNames lists every Growth's name, indexed by Growth: the values
// Set and the URL accept. The slice is a copy.
func GrowthNames() []string { return slices.Clone(growthNames) }

// CapMode says where the cap applies.
type CapMode uint8

const (
	// CapBeforeJitter caps the nominal delay, then jitters it (the article's
	// code, AWS, gRPC, cenkalti). Proportional or additive jitter can then
	// exceed the cap: cenkalti's delays reach Max*(1+r).
	CapBeforeJitter CapMode = iota
	// CapAfterJitter clamps the jittered delay (Azure, Polly's MaxDelay).
	CapAfterJitter
	// CapExact returns exactly Cap, un-jittered, once the nominal delay reaches
	// it (the AWS SDK for Go v2's legacy retryer: 20 s flat from retry 5 on).
	CapExact
)

var capModeNames = []string{"before", "after", "exact"}

func (c CapMode) String() string { return nameOf(capModeNames, int(c)) }

// CapModeNames lists every CapMode's name, indexed by CapMode. The slice
// is a copy.
func CapModeNames() []string { return slices.Clone(capModeNames) }

// RetryAfterMode says how a server's Retry-After combines with the computed
// delay t and the cap. Real libraries differ (see the presets).
type RetryAfterMode uint8

const (
	// RetryAfterIgnore uses t.
	RetryAfterIgnore RetryAfterMode = iota
	// RetryAfterAsIs uses the server's value instead of t, uncapped
	// (go-retryablehttp for 429 and 503).
	RetryAfterAsIs
	// RetryAfterFloor uses max(t, server).
	RetryAfterFloor
	// RetryAfterClamp uses min(server, Cap).
	RetryAfterClamp
	// RetryAfterGiveUp uses the server's value, but gives up when it exceeds
	// Cap (Azure).
	RetryAfterGiveUp
	// RetryAfterBounded uses the server's value clamped to
	// [t, t+RetryAfterSlack] (AWS's x-amz-retry-after, slack 5 s).
	RetryAfterBounded
)

var retryAfterNames = []string{"ignore", "as-is", "floor", "clamp", "give-up", "bounded"}

func (m RetryAfterMode) String() string { return nameOf(retryAfterNames, int(m)) }

// RetryAfterNames lists every RetryAfterMode's name, indexed by
// RetryAfterMode. The slice is a copy.
func RetryAfterNames() []string { return slices.Clone(retryAfterNames) }

// Policy describes the delay before each retry. The zero value is not valid;
// start from a preset or from Default. A Policy is a plain value, safe to
// copy and to use from several goroutines.
//
// The delay before retry n (1-based) is
//
//	growth(n) --cap--> --floor--> jitter --(cap after)--> + Offset
//
// with the cap's place set by CapMode; the jitter spreads the part of the
// delay above the floor.
type Policy struct {
	Growth Growth
	// Base is the first nominal delay (the floor for decorrelated jitter,
	// the median first delay for DecorrelatedV2).
	Base time.Duration
	// Factor is the growth multiplier (Exponential, ExpMinusOne) or the
	// exponent (Polynomial).
	Factor float64
	// FirstExponent shifts the exponential: Base * Factor^(n-1+FirstExponent).
	// The AWS blog's simulator uses 1 (its first retry ceiling is 2*Base).
	FirstExponent int
	// Steps is systemd's RestartSteps for Geometric growth.
	Steps int
	// Cap is the maximum delay; 0 means no cap.
	Cap     time.Duration
	CapMode CapMode
	// Floor is the least delay, tenacity's min: the capped nominal delay
	// is raised to Floor and the jitter spreads only the part above it,
	// so full jitter draws from [Floor, c) (tenacity's
	// wait_random_exponential: random.uniform(min, high)) and no jitter
	// gives max(Floor, c) (wait_exponential). 0 means none. It is at most
	// Cap, and 0 with the decorrelated kinds, whose Base is their floor;
	// an immediate first retry stays immediate.
	Floor time.Duration

	Jitter Jitter
	// JitterLo and JitterHi bound the Proportional factor.
	JitterLo, JitterHi float64
	// JitterAdd is the Additive jitter's amplitude.
	JitterAdd time.Duration
	// JitterAddScaled multiplies JitterAdd by n (Sidekiq).
	JitterAddScaled bool
	// Quantum, when positive, makes Full and Additive jitter draw whole
	// multiples of it (Ethernet slots, Celery's and Sidekiq's whole seconds).
	Quantum time.Duration
	// Offset is added to every delay after jitter and cap (gax's 1ns,
	// Sidekiq's 15 s).
	Offset time.Duration
	// ImmediateFirst makes retry 1 immediate (delay 0); the schedule then
	// starts at retry 2 (kubelet's first restart).
	ImmediateFirst bool
	// FirstUnjittered makes retry 1 exactly its nominal delay (gRPC's
	// connection backoff).
	FirstUnjittered bool

	// Attempts is the total number of tries, the first included: 6 means
	// 5 retries. 0 means no limit (a Deadline or the caller bounds the run).
	Attempts int
	// Deadline is the maximum elapsed time: a retry is scheduled only if it
	// would start at or before Deadline after the first try. 0 means none.
	Deadline time.Duration

	RetryAfter RetryAfterMode
	// RetryAfterSlack is the upper slack of RetryAfterBounded.
	RetryAfterSlack time.Duration
}

// Default is the article's policy: base 1 s, factor 2, cap 30 s, 6 attempts
// (5 retries), full jitter.
func Default() Policy {
	return Policy{Growth: Exponential, Base: time.Second, Factor: 2, Cap: 30 * time.Second,
		Jitter: Full, JitterLo: 0.8, JitterHi: 1.2, Attempts: 6}
}

// Retries is the number of retries Attempts allows, or -1 when unlimited.
func (p *Policy) Retries() int {
	if p.Attempts == 0 {
		return -1
	}
	return p.Attempts - 1
}

// State carries what history-dependent jitter needs between retries. The
// zero value is the state before the first retry.
type State struct {
	// Prev is the kind's history: the previous delay in seconds for the
	// decorrelated kinds, the previous value of Polly's formula f(t) for
	// DecorrelatedV2.
	Prev float64
}

// maxSeconds bounds every delay so that sums of up to MaxAttempts of them
// stay far inside float64 and time.Duration ranges (about 31.7 years).
const maxSeconds = 1e9

// Nominal returns the un-jittered delay of retry n in seconds, before the cap
// and without Offset. It is +Inf-free: results are clamped to maxSeconds.
func (p *Policy) Nominal(n int) float64 {
	if p.ImmediateFirst {
		if n <= 1 {
			return 0
		}
		n--
	}
	b := p.Base.Seconds()
	var d float64
	switch p.Growth {
	case Exponential:
		if k := n - 1 + p.FirstExponent; p.Factor == 2 && k < 1024 {
			d = math.Ldexp(b, k) // exact, and five times cheaper than Pow
		} else {
			d = b * math.Pow(p.Factor, float64(k))
		}
	case Linear:
		d = b * float64(n)
	case Constant:
		d = b
	case None:
		d = 0
	case ExpMinusOne:
		d = b * (math.Pow(p.Factor, float64(n)) - 1)
	case Polynomial:
		d = b * math.Pow(float64(n-1), p.Factor)
	case Geometric:
		c := p.Cap.Seconds()
		switch {
		case p.Steps <= 0 || n <= 1 || c <= b:
			d = b
		case n > p.Steps:
			d = c
		default:
			d = b * math.Pow(c/b, float64(n-1)/float64(p.Steps))
		}
	}
	if !(d < maxSeconds) { // also catches NaN and +Inf
		d = maxSeconds
	}
	// A factor below 1 (allowed only for the decorrelated kinds, which
	// ignore growth) would make exp-minus-one negative.
	return max(d, 0)
}

// capped reports the nominal delay of retry n after a before-jitter cap, and
// whether the cap bit.
func (p *Policy) capped(n int) (float64, bool) {
	d := p.Nominal(n)
	if p.Cap > 0 && p.CapMode != CapAfterJitter && !p.Jitter.HistoryDependent() {
		if c := p.Cap.Seconds(); d >= c {
			return c, true
		}
	}
	return d, false
}

// capsDelay reports whether the cap clamps the delay itself, after any
// jitter (and before Offset): in CapAfterJitter mode, and always for the
// kinds that have no nominal delay to cap before jitter. Decorrelated's
// formula holds its own cap; Polly's V2 has no pre-jitter delay, so its cap
// clamps the delay, as Polly's MaxDelay does.
func (p *Policy) capsDelay() bool {
	return p.Cap > 0 && (p.CapMode == CapAfterJitter || p.Jitter.HistoryDependent())
}

// CapBoundsDelay reports whether the cap bounds every delay: no delay
// exceeds Cap + Offset. It is false without a cap, and when the cap applies
// before a jitter that can add to the capped delay (proportional with
// JitterHi above 1, additive with an amplitude) in CapBeforeJitter or
// CapExact mode: that is AWS's, gRPC's and cenkalti's design (cenkalti's
// delays reach Max*1.5), and a page should say so rather than call the cap
// a maximum.
func (p *Policy) CapBoundsDelay() bool {
	if p.Cap <= 0 {
		return false
	}
	if p.capsDelay() {
		return true
	}
	return !p.Jitter.kind().lifts(p)
}

// Step returns the delay before retry n (1-based) in seconds and the state
// for the next retry, given the state after retry n-1 and a uniform draw u in
// [0, 1). It is pure: the same arguments give the same delay, so tests pin
// exact values and a seeded *rand.Rand makes whole runs reproducible.
func (p *Policy) Step(n int, s State, u float64) (float64, State) {
	if p.ImmediateFirst && n <= 1 {
		return p.Offset.Seconds(), s
	}
	var d float64
	if k := p.Jitter.kind(); k.step != nil {
		d, s = k.step(p, n, s, u)
	} else {
		g, hit := p.capped(n)
		f := p.Floor.Seconds()
		g = max(g, f)
		switch {
		case hit && p.CapMode == CapExact:
			d = g
		case n == 1 && p.FirstUnjittered:
			d = g
		default:
			// The jitter spreads what is above the floor (f = 0 adds
			// nothing and changes no bit).
			d = f + k.spread(p, n, g-f, u)
		}
	}
	// capsDelay, less what the decorrelated kinds did above already: the
	// test stays one comparison for the others on this hot path.
	if p.Cap > 0 && p.CapMode == CapAfterJitter {
		d = math.Min(d, p.Cap.Seconds())
	}
	d += p.Offset.Seconds()
	if !(d < maxSeconds) {
		d = maxSeconds
	}
	return math.Max(d, 0), s
}

// RetryAfter combines a server's Retry-After (server) with the computed
// delay t (both in seconds) as the policy's RetryAfterMode says. ok is false
// when the policy gives up instead (RetryAfterGiveUp above the cap).
func (p *Policy) WithRetryAfter(t, server float64) (delay float64, ok bool) {
	c := p.Cap.Seconds()
	switch p.RetryAfter {
	case RetryAfterAsIs:
		return server, true
	case RetryAfterFloor:
		return math.Max(t, server), true
	case RetryAfterClamp:
		if c > 0 {
			return math.Min(server, c), true
		}
		return server, true
	case RetryAfterGiveUp:
		if c > 0 && server > c {
			return 0, false
		}
		return server, true
	case RetryAfterBounded:
		return math.Min(math.Max(server, t), t+p.RetryAfterSlack.Seconds()), true
	}
	return t, true
}

// Seconds converts seconds to a time.Duration, rounding to the nanosecond.
func Seconds(s float64) time.Duration {
	if !(s < maxSeconds) {
		s = maxSeconds
	}
	return time.Duration(math.Round(s * 1e9))
}

func nameOf(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "unknown"
}
