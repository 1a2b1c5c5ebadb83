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
