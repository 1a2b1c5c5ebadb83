package backoff

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxInput bounds any text a parser reads: no valid value is longer, and
// it bounds the work and the error message.
const maxInput = 64

// ParseDuration reads a duration within [0, max]: Go syntax (250ms, 1.5s,
// 2m, 1h30m), a bare number of seconds, or what people type: a decimal
// comma, spaces, days and English or Russian units (1,5 с, 250 мс, 2 мин,
// 1 ч, 1 д, 1.5 s, 2 min, 1 d, 1м30с). FormatDuration gives the canonical
// text. Errors are *FieldError naming field: CodeTooLong, or CodeDuration
// with Args {"0s", max}.
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
	} else if d, err = time.ParseDuration(s); err != nil {
		ns, ok := parseSpokenDuration(s)
		if !ok || ns > float64(max) {
			return 0, bad()
		}
		d = time.Duration(math.Round(ns))
	}
	if d < 0 || d > max || !unitsDescend(s) {
		return 0, bad()
	}
	// Below a nanosecond, a value other than 0 became 0 and read as
	// "no delay" (--base 1e-10).
	if d == 0 && strings.ContainsAny(s, "123456789") {
		e := durationErr(field, s, time.Nanosecond, max)
		e.Allowed = "0, or a duration of at least 1ns such as 250ms, 1.5s or 2m, up to " + FormatDuration(max)
		return 0, e
	}
	return d, nil
}

// unitsDescend reports whether the units of s come largest first, each
// once (1h30m, 1м30с). Go's syntax adds any sequence, so "10s30s" (30s
// typed after a box's 10s) would be 40s: such text is refused instead.
func unitsDescend(s string) bool {
	s = strings.ToLower(s)
	prev := time.Duration(math.MaxInt64)
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		if !unicode.IsLetter(r) {
			s = s[n:]
			continue
		}
		j := 0
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) {
				break
			}
			j += n
		}
		if u, ok := durationUnits[s[:j]]; ok {
			if u >= prev {
				return false
			}
			prev = u
		}
		s = s[j:]
	}
	return true
}

// durationUnits are the units parseSpokenDuration knows, lower case:
// Go's, English words and Russian abbreviations and words (the page is in
// both languages, and people type what they say).
var durationUnits = func() map[string]time.Duration {
	m := map[string]time.Duration{}
	for u, names := range map[time.Duration]string{
		time.Nanosecond:  "ns нс",
		time.Microsecond: "us µs μs мкс",
		time.Millisecond: "ms msec мс",
		time.Second:      "s sec secs second seconds с сек секунд секунда секунды секунду",
		time.Minute:      "m min mins minute minutes м мин минут минута минуты минуту",
		time.Hour:        "h hr hrs hour hours ч час часа часов",
		24 * time.Hour:   "d day days д дн день дня дней сут сутки суток",
	} {
		for _, n := range strings.Fields(names) {
			m[n] = u
		}
	}
	return m
}()

// parseSpokenDuration reads one or more "number unit" pairs, with a
// decimal point or comma, optional spaces and an optional dot after a
// unit (2 мин.), or one bare number of seconds. It returns nanoseconds.
func parseSpokenDuration(s string) (float64, bool) {
	s = strings.ToLower(s)
	space := func(s string) string { return strings.TrimLeft(s, " \t\u00a0.") }
	total, pairs := 0.0, 0
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
			i++
		}
		f, err := strconv.ParseFloat(strings.Replace(s[:i], ",", ".", 1), 64)
		if i == 0 || err != nil {
			return 0, false
		}
		s = strings.TrimLeft(s[i:], " \t\u00a0")
		j := 0
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) {
				break
			}
			j += n
		}
		unit := s[:j]
		s = space(s[j:])
		if unit == "" && pairs == 0 && s == "" {
			unit = "s" // a bare number is seconds
		}
		u, ok := durationUnits[unit]
		if !ok {
			return 0, false
		}
		total += f * float64(u)
		pairs++
	}
	return total, pairs > 0 && total < math.MaxInt64
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

// ParseFloat reads a finite number within [lo, hi], with a decimal point
// or comma (1,5). Errors are *FieldError naming field: CodeTooLong, or
// CodeNumber with Args {lo, hi}. NaN and infinities are refused whatever
// the bounds.
func ParseFloat(field, s string, lo, hi float64) (float64, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		f, err = strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	}
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

// ParseUint reads a whole number within [lo, hi] of the uint64 range (a
// seed takes any of it, beyond ParseInt's int). Errors are *FieldError
// naming field: CodeTooLong, or CodeInt with Args {lo, hi}.
func ParseUint(field, s string, lo, hi uint64) (uint64, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxInput {
		return 0, tooLongErr(field, s, maxInput)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, uintErr(field, s, lo, hi)
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
