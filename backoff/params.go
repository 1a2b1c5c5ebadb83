package backoff

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Bounds on every knob. They keep a table or a simulation finite and every
// sum of delays inside float64's exact range.
const (
	MaxAttempts     = 1000
	MaxDuration     = 30 * 24 * time.Hour  // base, cap, offsets, amplitudes
	MaxDeadline     = 365 * 24 * time.Hour // overall deadline
	MaxFactor       = 100.0
	MaxJitterFactor = 10.0
	MaxSteps        = 1000
	MaxExponent     = 100
	// MaxPolynomialExponent bounds Factor for Polynomial growth: 1000^10
	// seconds already saturates every delay.
	MaxPolynomialExponent = 10.0
)

// Param names, shared by the CLI's flags and the page's URL query.
const (
	ParamGrowth          = "growth"
	ParamBase            = "base"
	ParamFactor          = "factor"
	ParamFirstExponent   = "first-exponent"
	ParamSteps           = "steps"
	ParamCap             = "cap"
	ParamCapMode         = "cap-mode"
	ParamCapAfterJitter  = "cap-after-jitter"
	ParamFloor           = "floor"
	ParamJitter          = "jitter"
	ParamJitterLo        = "jitter-lo"
	ParamJitterHi        = "jitter-hi"
	ParamJitterAdd       = "jitter-add"
	ParamJitterAddScaled = "jitter-add-scaled"
	ParamQuantum         = "quantum"
	ParamOffset          = "offset"
	ParamImmediateFirst  = "immediate-first"
	ParamFirstUnjittered = "first-unjittered"
	ParamAttempts        = "attempts"
	ParamDeadline        = "deadline"
	ParamRetryAfter      = "retry-after"
	ParamRetryAfterSlack = "retry-after-slack"
)

// ParamNames lists every name Set accepts, in a stable order.
var ParamNames = []string{
	ParamGrowth, ParamBase, ParamFactor, ParamFirstExponent, ParamSteps,
	ParamCap, ParamCapMode, ParamCapAfterJitter, ParamFloor,
	ParamJitter, ParamJitterLo, ParamJitterHi, ParamJitterAdd, ParamJitterAddScaled, ParamQuantum,
	ParamOffset, ParamImmediateFirst, ParamFirstUnjittered,
	ParamAttempts, ParamDeadline, ParamRetryAfter, ParamRetryAfterSlack,
}

// Set sets one field from text, as a flag or a URL parameter gives it, and
// checks the value alone (Validate checks the fields together). On error the
// policy is unchanged and the error is a *FieldError.
func (p *Policy) Set(name, value string) error {
	v := strings.TrimSpace(value)
	n := *p // work on a copy so a failed Set changes nothing
	var err error
	switch name {
	case ParamGrowth:
		n.Growth, err = parseEnum[Growth](name, v, growthNames)
	case ParamJitter:
		n.Jitter, err = parseEnum[Jitter](name, v, jitterNames)
		// Switching kinds should give a useful spread, not a zero one.
		if k := n.Jitter.kind(); err == nil && k.defaults != nil {
			k.defaults(&n)
		}
	case ParamCapMode:
		n.CapMode, err = parseEnum[CapMode](name, v, capModeNames)
	case ParamRetryAfter:
		n.RetryAfter, err = parseEnum[RetryAfterMode](name, v, retryAfterNames)
	case ParamCapAfterJitter:
		var after bool
		after, err = ParseBool(name, v)
		n.CapMode = CapBeforeJitter
		if after {
			n.CapMode = CapAfterJitter
		}
	case ParamJitterAddScaled:
		n.JitterAddScaled, err = ParseBool(name, v)
	case ParamImmediateFirst:
		n.ImmediateFirst, err = ParseBool(name, v)
	case ParamFirstUnjittered:
		n.FirstUnjittered, err = ParseBool(name, v)
	case ParamFactor:
		n.Factor, err = ParseFloat(name, v, 0, MaxFactor)
	case ParamJitterLo:
		n.JitterLo, err = ParseFloat(name, v, 0, MaxJitterFactor)
	case ParamJitterHi:
		n.JitterHi, err = ParseFloat(name, v, 0, MaxJitterFactor)
	case ParamAttempts:
		n.Attempts, err = ParseInt(name, v, 0, MaxAttempts, ZeroNoLimit)
		if err != nil {
			err.(*FieldError).Allowed += "; attempts count the first try"
		}
	case ParamSteps:
		n.Steps, err = ParseInt(name, v, 0, MaxSteps)
	case ParamFirstExponent:
		n.FirstExponent, err = ParseInt(name, v, 0, MaxExponent)
	default:
		dst, max := n.duration(name)
		if dst == nil {
			return unknownErr("parameter", truncate(name, maxInput), ParamNames)
		}
		*dst, err = ParseDuration(name, v, max)
	}
	if err != nil {
		return err
	}
	*p = n
	return nil
}

// duration returns the duration field name and its upper bound, or nil.
func (p *Policy) duration(name string) (*time.Duration, time.Duration) {
	switch name {
	case ParamBase:
		return &p.Base, MaxDuration
	case ParamCap:
		return &p.Cap, MaxDuration
	case ParamFloor:
		return &p.Floor, MaxDuration
	case ParamJitterAdd:
		return &p.JitterAdd, MaxDuration
	case ParamQuantum:
		return &p.Quantum, MaxDuration
	case ParamOffset:
		return &p.Offset, MaxDuration
	case ParamRetryAfterSlack:
		return &p.RetryAfterSlack, MaxDuration
	case ParamDeadline:
		return &p.Deadline, MaxDeadline
	}
	return nil, 0
}

func parseEnum[T ~uint8](field, s string, names []string) (T, error) {
	i, err := ParseChoice(field, s, names)
	return T(i), err
}

// IsDuration reports whether the field name is a duration.
func IsDuration(name string) bool {
	var p Policy
	d, _ := p.duration(name)
	return d != nil
}

// Number is the value of a numeric field: a duration's in seconds (and
// seconds true), a number's as it is; ok is false for a field that is not
// a number (a kind, a switch) or no field at all.
func (p *Policy) Number(name string) (v float64, seconds, ok bool) {
	if d, _ := p.duration(name); d != nil {
		return d.Seconds(), true, true
	}
	switch name {
	case ParamFactor:
		return p.Factor, false, true
	case ParamJitterLo:
		return p.JitterLo, false, true
	case ParamJitterHi:
		return p.JitterHi, false, true
	case ParamAttempts:
		return float64(p.Attempts), false, true
	case ParamSteps:
		return float64(p.Steps), false, true
	case ParamFirstExponent:
		return float64(p.FirstExponent), false, true
	}
	return 0, false, false
}

// Get returns the text form of one field, the inverse of Set.
func (p *Policy) Get(name string) string {
	switch name {
	case ParamGrowth:
		return p.Growth.String()
	case ParamJitter:
		return p.Jitter.String()
	case ParamCapMode:
		return p.CapMode.String()
	case ParamRetryAfter:
		return p.RetryAfter.String()
	case ParamCapAfterJitter:
		return strconv.FormatBool(p.CapMode == CapAfterJitter)
	case ParamJitterAddScaled:
		return strconv.FormatBool(p.JitterAddScaled)
	case ParamImmediateFirst:
		return strconv.FormatBool(p.ImmediateFirst)
	case ParamFirstUnjittered:
		return strconv.FormatBool(p.FirstUnjittered)
	case ParamBase:
		return FormatDuration(p.Base)
	case ParamCap:
		return FormatDuration(p.Cap)
	case ParamFloor:
		return FormatDuration(p.Floor)
	case ParamJitterAdd:
		return FormatDuration(p.JitterAdd)
	case ParamQuantum:
		return FormatDuration(p.Quantum)
	case ParamOffset:
		return FormatDuration(p.Offset)
	case ParamRetryAfterSlack:
		return FormatDuration(p.RetryAfterSlack)
	case ParamDeadline:
		return FormatDuration(p.Deadline)
	case ParamFactor:
		return strconv.FormatFloat(p.Factor, 'g', -1, 64)
	case ParamJitterLo:
		return strconv.FormatFloat(p.JitterLo, 'g', -1, 64)
	case ParamJitterHi:
		return strconv.FormatFloat(p.JitterHi, 'g', -1, 64)
	case ParamAttempts:
		return strconv.Itoa(p.Attempts)
	case ParamSteps:
		return strconv.Itoa(p.Steps)
	case ParamFirstExponent:
		return strconv.Itoa(p.FirstExponent)
	}
	return ""
}

// Validate checks the fields together. It returns the first problem found as
// a *FieldError.
func (p *Policy) Validate() error {
	for _, e := range []struct {
		field string
		v     uint8
		names []string
	}{
		{ParamGrowth, uint8(p.Growth), growthNames}, {ParamJitter, uint8(p.Jitter), jitterNames},
		{ParamCapMode, uint8(p.CapMode), capModeNames}, {ParamRetryAfter, uint8(p.RetryAfter), retryAfterNames},
	} {
		if int(e.v) >= len(e.names) {
			return choiceErr(e.field, strconv.Itoa(int(e.v)), e.names)
		}
	}
	for _, name := range []string{ParamBase, ParamCap, ParamFloor, ParamJitterAdd, ParamQuantum, ParamOffset, ParamRetryAfterSlack, ParamDeadline} {
		d, max := p.duration(name)
		if err := CheckDuration(name, *d, 0, max); err != nil {
			return err
		}
	}
	if err := CheckInt(ParamAttempts, p.Attempts, 0, MaxAttempts, ZeroNoLimit); err != nil {
		return err
	}
	if err := CheckInt(ParamSteps, p.Steps, 0, MaxSteps); err != nil {
		return err
	}
	if err := CheckInt(ParamFirstExponent, p.FirstExponent, 0, MaxExponent); err != nil {
		return err
	}
	if err := CheckFloat(ParamFactor, p.Factor, 0, MaxFactor); err != nil {
		return err
	}
	factor := p.Get(ParamFactor)
	switch p.Growth {
	case Exponential, ExpMinusOne:
		if !p.Jitter.HistoryDependent() && p.Factor < 1 {
			return needsErr(ParamFactor, factor, ParamGrowth, p.Growth.String(), "1", formatFloat(MaxFactor),
				fmt.Sprintf("a number from 1 to %g for %s growth", MaxFactor, p.Growth))
		}
	case Polynomial:
		if p.Factor > MaxPolynomialExponent {
			return needsErr(ParamFactor, factor, ParamGrowth, p.Growth.String(), "0", formatFloat(MaxPolynomialExponent),
				fmt.Sprintf("an exponent from 0 to %g for polynomial growth", MaxPolynomialExponent))
		}
	}
	if p.Cap > 0 && p.Cap < p.Base && p.Growth != None {
		return &FieldError{Field: ParamCap, Value: FormatDuration(p.Cap), Code: CodeZeroOrAtLeast,
			Args: []string{FormatDuration(p.Base)}, Other: ParamBase,
			Allowed: "0s (no cap) or at least base (" + FormatDuration(p.Base) + ")"}
	}
	if p.Floor > 0 && p.Jitter.HistoryDependent() {
		return needsErr(ParamFloor, FormatDuration(p.Floor), ParamJitter, p.Jitter.String(), "0s", "0s",
			"0s with "+p.Jitter.String()+" jitter: base is its floor")
	}
	if p.Cap > 0 && p.Floor > p.Cap {
		return pairErr(ParamFloor, FormatDuration(p.Floor), CodeAtMost, ParamCap, FormatDuration(p.Cap))
	}
	if p.Growth == Geometric && p.Steps > 0 && p.Cap == 0 {
		return needsErr(ParamCap, "0s", ParamGrowth, p.Growth.String(), FormatDuration(time.Nanosecond), FormatDuration(MaxDuration),
			"a positive duration: geometric growth with steps interpolates from base to cap")
	}
	if p.Jitter.HistoryDependent() && p.Base <= 0 {
		return needsErr(ParamBase, FormatDuration(p.Base), ParamJitter, p.Jitter.String(), FormatDuration(time.Nanosecond), FormatDuration(MaxDuration),
			"a positive duration for "+p.Jitter.String()+" jitter")
	}
	if v := p.Jitter.kind().validate; v != nil {
		if err := v(p); err != nil {
			return err
		}
	}
	if p.Quantum > 0 && !p.Jitter.TakesQuantum() {
		return needsErr(ParamQuantum, FormatDuration(p.Quantum), ParamJitter, p.Jitter.String(), "0s", "0s",
			"0s unless jitter is "+quantumKinds())
	}
	if p.Quantum > 0 && p.Quantum < time.Microsecond {
		return &FieldError{Field: ParamQuantum, Value: FormatDuration(p.Quantum), Code: CodeZeroOrAtLeast,
			Args: []string{FormatDuration(time.Microsecond)}, Allowed: "0s or at least 1µs"}
	}
	return nil
}
