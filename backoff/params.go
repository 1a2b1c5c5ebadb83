package backoff

import (
	"fmt"
	"math"
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
)

// FieldError is a bad value for one field: its name, the value as given and
// the allowed range. The UI shows it next to the field.
type FieldError struct {
	Field   string
	Value   string
	Allowed string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %q is not valid: want %s", e.Field, e.Value, e.Allowed)
}

func fieldErr(field, value, allowed string) error {
	return &FieldError{Field: field, Value: value, Allowed: allowed}
}

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
	ParamCap, ParamCapMode, ParamCapAfterJitter,
	ParamJitter, ParamJitterLo, ParamJitterHi, ParamJitterAdd, ParamJitterAddScaled, ParamQuantum,
	ParamOffset, ParamImmediateFirst, ParamFirstUnjittered,
	ParamAttempts, ParamDeadline, ParamRetryAfter, ParamRetryAfterSlack,
}

// Set sets one field from text, as a flag or a URL parameter gives it, and
// checks the value alone (Validate checks the fields together). On error the
// policy is unchanged and the error is a *FieldError.
func (p *Policy) Set(name, value string) error {
	v := strings.TrimSpace(value)
	var err error
	switch name {
	case ParamGrowth:
		p.Growth, err = parseEnum[Growth](name, v, growthNames, p.Growth)
	case ParamJitter:
		p.Jitter, err = parseEnum[Jitter](name, v, jitterNames, p.Jitter)
		// Switching kinds should give a useful spread, not a zero one.
		if p.Jitter == Proportional && p.JitterLo == 0 && p.JitterHi == 0 {
			p.JitterLo, p.JitterHi = 0.8, 1.2
		}
		if p.Jitter == Additive && p.JitterAdd == 0 {
			p.JitterAdd = p.Base
		}
	case ParamCapMode:
		p.CapMode, err = parseEnum[CapMode](name, v, capModeNames, p.CapMode)
	case ParamRetryAfter:
		p.RetryAfter, err = parseEnum[RetryAfterMode](name, v, retryAfterNames, p.RetryAfter)
	case ParamCapAfterJitter:
		var b bool
		if b, err = ParseBool(name, v); err == nil {
			p.CapMode = CapBeforeJitter
			if b {
				p.CapMode = CapAfterJitter
			}
		}
	case ParamJitterAddScaled:
		p.JitterAddScaled, err = parseBoolInto(name, v, p.JitterAddScaled)
	case ParamImmediateFirst:
		p.ImmediateFirst, err = parseBoolInto(name, v, p.ImmediateFirst)
	case ParamFirstUnjittered:
		p.FirstUnjittered, err = parseBoolInto(name, v, p.FirstUnjittered)
	case ParamBase:
		p.Base, err = parseDurationInto(name, v, MaxDuration, p.Base)
	case ParamCap:
		p.Cap, err = parseDurationInto(name, v, MaxDuration, p.Cap)
	case ParamJitterAdd:
		p.JitterAdd, err = parseDurationInto(name, v, MaxDuration, p.JitterAdd)
	case ParamQuantum:
		p.Quantum, err = parseDurationInto(name, v, MaxDuration, p.Quantum)
	case ParamOffset:
		p.Offset, err = parseDurationInto(name, v, MaxDuration, p.Offset)
	case ParamRetryAfterSlack:
		p.RetryAfterSlack, err = parseDurationInto(name, v, MaxDuration, p.RetryAfterSlack)
	case ParamDeadline:
		p.Deadline, err = parseDurationInto(name, v, MaxDeadline, p.Deadline)
	case ParamFactor:
		p.Factor, err = parseFloatInto(name, v, 0, MaxFactor, p.Factor)
	case ParamJitterLo:
		p.JitterLo, err = parseFloatInto(name, v, 0, MaxJitterFactor, p.JitterLo)
	case ParamJitterHi:
		p.JitterHi, err = parseFloatInto(name, v, 0, MaxJitterFactor, p.JitterHi)
	case ParamAttempts:
		p.Attempts, err = parseIntInto(name, v, 0, MaxAttempts, "(0 = no limit; attempts count the first try)", p.Attempts)
	case ParamSteps:
		p.Steps, err = parseIntInto(name, v, 0, MaxSteps, "", p.Steps)
	case ParamFirstExponent:
		p.FirstExponent, err = parseIntInto(name, v, 0, MaxExponent, "", p.FirstExponent)
	default:
		return fieldErr("parameter", name, "one of "+strings.Join(ParamNames, ", "))
	}
	return err
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
	if int(p.Growth) >= len(growthNames) {
		return fieldErr(ParamGrowth, p.Growth.String(), "one of "+strings.Join(growthNames, ", "))
	}
	if int(p.Jitter) >= len(jitterNames) {
		return fieldErr(ParamJitter, p.Jitter.String(), "one of "+strings.Join(jitterNames, ", "))
	}
	if int(p.CapMode) >= len(capModeNames) {
		return fieldErr(ParamCapMode, p.CapMode.String(), "one of "+strings.Join(capModeNames, ", "))
	}
	if int(p.RetryAfter) >= len(retryAfterNames) {
		return fieldErr(ParamRetryAfter, p.RetryAfter.String(), "one of "+strings.Join(retryAfterNames, ", "))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
		max  time.Duration
	}{
		{ParamBase, p.Base, MaxDuration}, {ParamCap, p.Cap, MaxDuration},
		{ParamJitterAdd, p.JitterAdd, MaxDuration}, {ParamQuantum, p.Quantum, MaxDuration},
		{ParamOffset, p.Offset, MaxDuration}, {ParamRetryAfterSlack, p.RetryAfterSlack, MaxDuration},
		{ParamDeadline, p.Deadline, MaxDeadline},
	} {
		if d.v < 0 || d.v > d.max {
			return fieldErr(d.name, FormatDuration(d.v), "a duration from 0s to "+FormatDuration(d.max))
		}
	}
	if p.Attempts < 0 || p.Attempts > MaxAttempts {
		return fieldErr(ParamAttempts, strconv.Itoa(p.Attempts), fmt.Sprintf("a whole number from 0 to %d (0 = no limit)", MaxAttempts))
	}
	if math.IsNaN(p.Factor) || p.Factor < 0 || p.Factor > MaxFactor {
		return fieldErr(ParamFactor, p.Get(ParamFactor), fmt.Sprintf("a number from 0 to %g", MaxFactor))
	}
	switch p.Growth {
	case Exponential, ExpMinusOne:
		if p.Jitter != Decorrelated && p.Jitter != DecorrelatedV2 && p.Factor < 1 {
			return fieldErr(ParamFactor, p.Get(ParamFactor), fmt.Sprintf("a number from 1 to %g for %s growth", MaxFactor, p.Growth))
		}
	case Polynomial:
		if p.Factor > 10 {
			return fieldErr(ParamFactor, p.Get(ParamFactor), "an exponent from 0 to 10 for polynomial growth")
		}
	}
	if p.Cap > 0 && p.Cap < p.Base && p.Growth != None {
		return fieldErr(ParamCap, FormatDuration(p.Cap), "0s (no cap) or at least base ("+FormatDuration(p.Base)+")")
	}
	if p.Growth == Geometric && p.Steps > 0 && p.Cap == 0 {
		return fieldErr(ParamCap, "0s", "a positive duration: geometric growth with steps interpolates from base to cap")
	}
	if (p.Jitter == Decorrelated || p.Jitter == DecorrelatedV2) && p.Base <= 0 {
		return fieldErr(ParamBase, FormatDuration(p.Base), "a positive duration for "+p.Jitter.String()+" jitter")
	}
	if p.Jitter == Proportional {
		if math.IsNaN(p.JitterLo) || math.IsNaN(p.JitterHi) || p.JitterLo < 0 || p.JitterHi > MaxJitterFactor || p.JitterLo > p.JitterHi {
			return fieldErr(ParamJitterLo, p.Get(ParamJitterLo)+".."+p.Get(ParamJitterHi),
				fmt.Sprintf("0 <= jitter-lo <= jitter-hi <= %g", MaxJitterFactor))
		}
	}
	if p.Quantum > 0 && p.Jitter != Full && p.Jitter != Additive {
		return fieldErr(ParamQuantum, FormatDuration(p.Quantum), "0s unless jitter is full or additive")
	}
	if p.Quantum > 0 && p.Quantum < time.Microsecond {
		return fieldErr(ParamQuantum, FormatDuration(p.Quantum), "0s or at least 1µs")
	}
	return nil
}

// ParseDuration reads a duration in Go syntax (250ms, 1.5s, 2m) or a bare
// number of seconds, within [0, max]. Errors name the field.
func ParseDuration(field, s string, max time.Duration) (time.Duration, error) {
	allowed := "a duration such as 250ms, 1.5s or 2m, from 0s to " + FormatDuration(max)
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fieldErr(field, s, allowed)
	}
	if len(s) > 64 {
		return 0, fieldErr(field, s[:64]+"…", allowed)
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || f < 0 || f > max.Seconds() {
			return 0, fieldErr(field, s, allowed)
		}
		d = time.Duration(math.Round(f * 1e9))
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, fieldErr(field, s, allowed)
		}
	}
	if d < 0 || d > max {
		return 0, fieldErr(field, s, allowed)
	}
	return d, nil
}

// FormatDuration prints a duration compactly: 1s, 250ms, 1m30s, 0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	// time.Duration prints 2m0s and 1h0m0s; trim the zero units.
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func parseDurationInto(field, s string, max, old time.Duration) (time.Duration, error) {
	d, err := ParseDuration(field, s, max)
	if err != nil {
		return old, err
	}
	return d, nil
}

func parseFloatInto(field, s string, lo, hi, old float64) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		return old, fieldErr(field, s, fmt.Sprintf("a number from %g to %g", lo, hi))
	}
	return f, nil
}

func parseIntInto(field, s string, lo, hi int, note string, old int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		allowed := fmt.Sprintf("a whole number from %d to %d", lo, hi)
		if note != "" {
			allowed += " " + note
		}
		return old, fieldErr(field, s, allowed)
	}
	return n, nil
}

// ParseBool reads a yes/no parameter: 1/0, true/false, yes/no, on/off (an
// empty value is false). Errors name the field. The simulator's parameters
// use it too, so both speak one language.
func ParseBool(field, s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "t", "true", "yes", "on":
		return true, nil
	case "0", "f", "false", "no", "off", "":
		return false, nil
	}
	return false, fieldErr(field, s, "true or false")
}

func parseBoolInto(field, s string, old bool) (bool, error) {
	b, err := ParseBool(field, s)
	if err != nil {
		return old, err
	}
	return b, nil
}

// ParseChoice returns the index of s among names, ignoring case, or a
// *FieldError listing the names.
func ParseChoice(field, s string, names []string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return 0, fieldErr(field, s, "one of "+strings.Join(names, ", "))
}

func parseEnum[T ~uint8](field, s string, names []string, old T) (T, error) {
	i, err := ParseChoice(field, s, names)
	if err != nil {
		return old, err
	}
	return T(i), nil
}
