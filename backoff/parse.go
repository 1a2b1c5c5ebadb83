package backoff

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// maxInput bounds any text a parser reads: no valid value is longer, and
// it bounds the work and the error message.
const maxInput = 64

// ParseDuration reads a duration in Go syntax (250ms, 1.5s, 2m) or a bare
// number of seconds, within [0, max]. Errors are *FieldError naming field:
// CodeTooLong, or CodeDuration with Args {"0s", max}.
func ParseDuration(field, s string, max time.Duration) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := func() error {
		e := durationErr(field, s, 0, max)
		e.Allowed = "a duration such as 250ms, 1.5s or 2m, from 0s to " + FormatDuration(max)
		return e
	}
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	if s == "" {
		return 0, bad()
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if !(f >= 0 && f <= max.Seconds()) {
			return 0, bad()
		}
		d = time.Duration(math.Round(f * 1e9))
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, bad()
		}
	}
	if d < 0 || d > max {
		return 0, bad()
	}
	return d, nil
}

// FormatDuration prints a duration compactly: 1s, 250ms, 1m30s, 0s. It is
// the canonical text of a duration (URL values, error Args).
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

// ParseFloat reads a finite number within [lo, hi]. Errors are *FieldError
// naming field: CodeTooLong, or CodeNumber with Args {lo, hi}. NaN and
// infinities are refused whatever the bounds.
func ParseFloat(field, s string, lo, hi float64) (float64, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || !(f >= lo && f <= hi) {
		return 0, numberErr(field, s, lo, hi)
	}
	return f, nil
}

// ParseInt reads a whole number within [lo, hi]. Errors are *FieldError
// naming field: CodeTooLong, or CodeInt with Args {lo, hi} and, when zero
// is given, what 0 means (see CodeInt).
func ParseInt(field, s string, lo, hi int, zero ...string) (int, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, intErr(field, s, lo, hi, zero...)
	}
	return n, nil
}

// ParseBool reads a yes/no parameter: 1/0, true/false, yes/no, on/off (an
// empty value is false). Errors are *FieldError with CodeBool. The
// simulator's parameters use it too, so both speak one language.
func ParseBool(field, s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "yes", "on":
		return true, nil
	case "0", "f", "false", "no", "off", "":
		return false, nil
	}
	if len(s) > maxInput {
		return false, tooLongErr(field, s, maxInput)
	}
	return false, &FieldError{Field: field, Value: s, Allowed: "true or false", Code: CodeBool}
}

// ParseChoice returns the index of s among names, ignoring case, or a
// *FieldError with CodeChoice listing the names.
func ParseChoice(field, s string, names []string) (int, error) {
	s = strings.TrimSpace(s)
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	return 0, choiceErr(field, s, names)
}

// set stores v in *dst unless err is set: Set's cases go through it, so a
// failed Set changes nothing.
func set[T any](dst *T, v T, err error) error {
	if err == nil {
		*dst = v
	}
	return err
}
