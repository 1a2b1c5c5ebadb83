package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// BreakerKind selects a client-side circuit breaker, shared by the
// population like a library's per-host breaker.
type BreakerKind uint8

const (
	NoBreaker BreakerKind = iota
	// ConsecutiveBreaker opens after Failures failures in a row.
	ConsecutiveBreaker
	// RatioBreaker opens when, within a window of Window, at least MinCalls
	// calls finished and at least Ratio of them failed.
	RatioBreaker
)

var breakerNames = []string{"none", "consecutive", "ratio"}

func (k BreakerKind) String() string { return nameOf(breakerNames, int(k)) }

// BreakerNames lists every BreakerKind's name, indexed by BreakerKind: the kinds Set and
// the URL accept. The slice is a copy.
func BreakerNames() []string { return slices.Clone(breakerNames) }

// Breaker is a circuit breaker: closed, it lets calls through; open, it
// fails them at once without calling the server (they count as Blocked and
// cost the client an attempt); after Cooldown it is half-open and lets one
// probe through: success closes it, failure opens it again. Text form
// (Set/Get "breaker"): none | consecutive[:K[:COOLDOWN]] |
// ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]].
type Breaker struct {
	Kind     BreakerKind
	Failures int
	Ratio    float64
	MinCalls int
	Window   time.Duration
	Cooldown time.Duration
}

// Breaker defaults (Hystrix-like: 50% of at least 20 calls in 10 s; Polly's
// and resilience4j's 5 s-scale cool-downs).
const (
	DefaultBreakerFailures = 5
	DefaultBreakerRatio    = 0.5
	DefaultBreakerMinCalls = 20
	DefaultBreakerWindow   = 10 * time.Second
	DefaultBreakerCooldown = 5 * time.Second
)

// breakerForms are the forms of a breaker value, as CodeFormat's Args list them.
var breakerForms = []string{"none", "consecutive[:K[:COOLDOWN]]", "ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]]"}

// text is b's text form, what Get("breaker") returns and parseBreaker
// reads.
func (b *Breaker) text() string {
	d := backoff.FormatDuration
	switch b.Kind {
	case ConsecutiveBreaker:
		return ConsecutiveBreaker.String() + ":" + strconv.Itoa(b.Failures) + ":" + d(b.Cooldown)
	case RatioBreaker:
		return RatioBreaker.String() + ":" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinCalls) + ":" + d(b.Window) + ":" + d(b.Cooldown)
	}
	return NoBreaker.String()
}

// validate checks b; a bad part is named in the error's Part.
func (b *Breaker) validate() error {
	v := b.text()
	switch b.Kind {
	case NoBreaker:
	case ConsecutiveBreaker:
		syntax := fmt.Sprintf("consecutive:K:COOLDOWN with K from 1 to %d", MaxBreakerCalls)
		if err := backoff.CheckInt(ParamBreaker, b.Failures, 1, MaxBreakerCalls); err != nil {
			return partErr(err, v, "K", syntax)
		}
	case RatioBreaker:
		syntax := fmt.Sprintf("ratio:RATIO:MIN-CALLS:WINDOW:COOLDOWN with RATIO in (0, 1], MIN-CALLS from 1 to %d, WINDOW > 0", MaxBreakerCalls)
		if !(b.Ratio > 0 && b.Ratio <= 1) {
			return positiveErr(ParamBreaker, v, "1", "RATIO", syntax)
		}
		if err := backoff.CheckInt(ParamBreaker, b.MinCalls, 1, MaxBreakerCalls); err != nil {
			return partErr(err, v, "MIN-CALLS", syntax)
		}
		if !(b.Window > 0 && b.Window <= MaxTime) {
			return positiveErr(ParamBreaker, v, backoff.FormatDuration(MaxTime), "WINDOW", syntax)
		}
	default:
		return formatErr(ParamBreaker, v, breakerForms)
	}
	if err := backoff.CheckDuration(ParamBreaker, b.Cooldown, 0, MaxTime); err != nil {
		return partErr(err, v, "COOLDOWN", "a cool-down from 0s to "+backoff.FormatDuration(MaxTime))
	}
	return nil
}

// parseBreaker reads a breaker value in one of breakerForms; omitted parts
// take the defaults.
func parseBreaker(v string) (Breaker, error) {
	parts := strings.Split(v, ":")
	b := Breaker{Failures: DefaultBreakerFailures, Ratio: DefaultBreakerRatio, MinCalls: DefaultBreakerMinCalls,
		Window: DefaultBreakerWindow, Cooldown: DefaultBreakerCooldown}
	kind, err := parseEnum[BreakerKind](ParamBreaker, parts[0], breakerNames)
	if err != nil {
		return Breaker{}, formatErr(ParamBreaker, v, breakerForms)
	}
	b.Kind = kind
	args := parts[1:]
	ok := true
	integer := func(i int, dst *int) {
		if i < len(args) {
			n, err := strconv.Atoi(args[i])
			ok = ok && err == nil
			*dst = n
		}
	}
	dur := func(i int, dst *time.Duration) {
		if i < len(args) {
			d, err := backoff.ParseDuration(ParamBreaker, args[i], MaxTime)
			ok = ok && err == nil
			*dst = d
		}
	}
	switch kind {
	case NoBreaker:
		ok = len(args) == 0
		b = Breaker{}
	case ConsecutiveBreaker:
		ok = len(args) <= 2
		integer(0, &b.Failures)
		dur(1, &b.Cooldown)
	case RatioBreaker:
		ok = len(args) <= 4
		if len(args) > 0 {
			f, err := backoff.ParseFloat(ParamBreaker, args[0], -math.MaxFloat64, math.MaxFloat64)
			ok = ok && err == nil
			b.Ratio = f
		}
		integer(1, &b.MinCalls)
		dur(2, &b.Window)
		dur(3, &b.Cooldown)
	}
	if !ok {
		return Breaker{}, formatErr(ParamBreaker, v, breakerForms)
	}
	if err := b.validate(); err != nil {
		err.(*backoff.FieldError).Value = clip(v)
		return Breaker{}, err
	}
	return b, nil
}

// breakerState is where a breaker is in its cycle.
type breakerState uint8

const (
	// breakerClosed lets every call through and counts their answers.
	breakerClosed breakerState = iota
	// breakerOpen refuses every call until its cool-down ends.
	breakerOpen
	// breakerHalfOpen lets one probe through and refuses the rest until
	// the probe's answer closes the breaker or opens it again.
	breakerHalfOpen
)

var breakerStateNames = []string{"closed", "open", "half-open"}

func (s breakerState) String() string { return nameOf(breakerStateNames, int(s)) }

// breaker is a Breaker at work, shared by the whole population: one per
// run, not safe for concurrent use. Its zero value is no breaker.
//
// Invariants: the counters (consecutive, winCalls, winFail) count answers
// to calls sent while closed and are zero whenever the breaker is not
// closed; probing (a probe is in flight) implies half-open. Answers to
// calls sent before it opened are ignored, so a late answer can neither
// trip an open breaker again nor close it.
type breaker struct {
	kind     BreakerKind
	failures int     // ConsecutiveBreaker: failures in a row that trip it
	ratio    float64 // RatioBreaker: failed share that trips it,
	minCalls int     // among at least minCalls answers
	window   float64 // in one window of this many seconds
	cooldown float64 // seconds open before half-open

	state       breakerState
	openUntil   float64 // open: when the cool-down ends
	consecutive int     // failures in a row (consecutive)
	winIdx      int64   // the current window, t/window (ratio)
	winCalls    int     // answers in it
	winFail     int     // failures among them
	probing     bool
}

func newBreaker(b Breaker) breaker {
	return breaker{kind: b.Kind, failures: b.Failures, ratio: b.Ratio, minCalls: b.MinCalls,
		window: b.Window.Seconds(), cooldown: b.Cooldown.Seconds()}
}

// allow reports whether the breaker lets a call through at t, and whether
// it is the half-open probe. An open breaker whose cool-down has ended
// turns half-open here, when a call asks.
func (b *breaker) allow(t float64) (allowed, probe bool) {
	switch b.state {
	case breakerClosed:
		return true, false
	case breakerOpen:
		if t < b.openUntil {
			return false, false
		}
		b.state = breakerHalfOpen
	}
	if b.probing {
		return false, false
	}
	b.probing = true
	return true, true
}

// record feeds the answer at t to a call the breaker let through (probe:
// the half-open probe).
func (b *breaker) record(t float64, ok, probe bool) {
	if probe {
		b.probing = false
		if ok {
			b.state, b.consecutive, b.winCalls, b.winFail = breakerClosed, 0, 0, 0
		} else {
			b.trip(t)
		}
		return
	}
	if b.state != breakerClosed {
		return // an answer to a call sent before the breaker opened
	}
	trip := false
	switch b.kind {
	case ConsecutiveBreaker:
		if ok {
			b.consecutive = 0
		} else {
			b.consecutive++
			trip = b.consecutive >= b.failures
		}
	case RatioBreaker:
		if w := int64(t / b.window); w != b.winIdx {
			b.winIdx, b.winCalls, b.winFail = w, 0, 0
		}
		b.winCalls++
		if !ok {
			b.winFail++
		}
		trip = b.winCalls >= b.minCalls && float64(b.winFail) >= b.ratio*float64(b.winCalls)
	}
	if trip {
		b.trip(t)
	}
}

// trip opens the breaker at t for its cool-down.
func (b *breaker) trip(t float64) {
	b.state, b.openUntil = breakerOpen, t+b.cooldown
	b.consecutive, b.winCalls, b.winFail = 0, 0, 0
}
