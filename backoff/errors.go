package backoff

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// FieldError is a bad value for one field. Field, Value and Allowed are for
// a person who reads English (the CLI prints Error()); Code, Args, Other and
// Part say the same as data, so a page can word it in any language.
//
// Args hold canonical text: numbers as strconv.FormatFloat(x, 'g', -1, 64)
// or strconv.Itoa, durations as FormatDuration, names as they are.
type FieldError struct {
	Field   string
	Value   string
	Allowed string
	// Code is the rule broken: one of ErrorCodes.
	Code string
	// Args are the rule's parameters; each Code's doc says what they hold.
	Args []string
	// Other is, for a rule between two fields, the other field's name.
	Other string
	// Part is, for a value with several parts (sim's budget
	// tokens:500:5:1), the part at fault as the syntax names it (TOKENS,
	// COST, ...); "" when the whole value is at fault.
	Part string
	// Line is, for a value read from a document (a simulator topology),
	// the line it stands on; 0 for a flag or a URL key. Such a Field is
	// the value's path in the document: "nodes.b.workers".
	Line int
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("topology: line %d: %s: %q is not valid: want %s", e.Line, docField(e.Field), e.Value, e.Allowed)
	}
	return fmt.Sprintf("%s: %q is not valid: want %s", e.Field, e.Value, e.Allowed)
}

// docField is a document's path as a person reads it: "node b: workers"
// for "nodes.b.workers".
func docField(f string) string {
	if rest, ok := strings.CutPrefix(f, "nodes."); ok {
		if name, key, ok := strings.Cut(rest, "."); ok {
			return "node " + name + ": " + key
		}
	}
	return f
}

// Error codes: the rule a FieldError's value breaks.
const (
	// CodeInt: a whole number in [Args[0], Args[1]]. A third Arg, when
	// present, says what 0 means: ZeroNoLimit, or ZeroDefault followed by
	// the default value as a fourth Arg.
	CodeInt = "int"
	// CodeNumber: a finite number in [Args[0], Args[1]].
	CodeNumber = "number"
	// CodePositive: a number or duration above 0 and at most Args[0].
	CodePositive = "positive"
	// CodeDuration: a duration in [Args[0], Args[1]].
	CodeDuration = "duration"
	// CodeChoice: one of the names in Args (case is ignored).
	CodeChoice = "choice"
	// CodeBool: true or false (also 1/0, yes/no, on/off). No Args.
	CodeBool = "bool"
	// CodeAtLeast: at least the field Other, whose value is Args[0].
	CodeAtLeast = "at-least"
	// CodeAtMost: at most the field Other, whose value is Args[0].
	CodeAtMost = "at-most"
	// CodeZeroOrAtLeast: 0 or at least Args[0]. When Other is set, Args[0]
	// is that field's value (cap: 0 or at least base); else a fixed bound.
	CodeZeroOrAtLeast = "zero-or-at-least"
	// CodeNeeds: while the field Other has the value Args[0], this field
	// must lie in [Args[1], Args[2]] (quantum 0s..0s unless jitter is full
	// or additive; factor 1..100 for exponential growth; base 1ns..720h
	// for decorrelated jitter; cap 1ns..720h for geometric growth with
	// steps; collapse-window 1ns..8760h for the collapse server).
	CodeNeeds = "needs"
	// CodeTooLong: longer than Args[0] bytes.
	CodeTooLong = "too-long"
	// CodeUnknown: no such name (a parameter, a preset); Args are the known
	// names.
	CodeUnknown = "unknown"
	// CodeFormat: the value does not follow the syntax; Args are the
	// accepted forms, such as "none", "tokens[:TOKENS[:COST[:REFUND]]]".
	CodeFormat = "format"
	// CodeRetryAfter: an HTTP Retry-After value: delta-seconds from 0 to
	// Args[0], or an HTTP-date no further away than that.
	CodeRetryAfter = "retry-after"
	// CodeMemory: at most Args[0] (a number, or a duration), for a run to
	// fit in Args[1] MB: not a rule of the model but a front end's bound
	// on the memory it gives one job (a server drawing images).
	CodeMemory = "memory"
	// CodeTotalAtLeast: a target total of at least Args[0], the least
	// total the other knobs allow, reached with the solved knob Args[1] at
	// its least value Args[2] (Solve).
	CodeTotalAtLeast = "total-at-least"
	// CodeSampledTotal: while the field Other has the value Args[0], this
	// total is estimated by sampling, not a closed form, so it cannot be
	// solved exactly (Solve's expected total with decorrelated jitter or a
	// deadline); the worst total can.
	CodeSampledTotal = "sampled-total"
	// CodeSweep: a sweep's values (sim.ParseSweep). Args[0] says what is
	// wrong, the rest its numbers: SweepForm (not NAME=FROM:TO:STEP or
	// NAME=V1,V2,...), SweepName (Args[1:] the names), SweepNumbers (not
	// finite numbers; Args[1] the most points), SweepStep (Args[1] the
	// most points, Args[2] the step), SweepOrder (the most, TO, FROM),
	// SweepResolution (the most, the step, the value it does not move),
	// SweepPoints (the most, the count), SweepValue (Args[1] the value
	// its parameter refuses: check it alone for that parameter's rule).
	CodeSweep = "sweep"
	// CodeUnread: the run the other fields describe does not read this
	// one (a simulator's --outage-start with a capacity server): it must
	// be left unset. No Args; Allowed says what would read it.
	CodeUnread = "unread"
)

// What is wrong with a sweep (CodeSweep's Args[0]).
const (
	SweepForm       = "form"
	SweepName       = "name"
	SweepNumbers    = "numbers"
	SweepStep       = "step"
	SweepOrder      = "order"
	SweepResolution = "resolution"
	SweepPoints     = "points"
	SweepValue      = "value"
)

// ErrorCodes lists every Code a FieldError from this module can carry.
var ErrorCodes = []string{
	CodeInt, CodeNumber, CodePositive, CodeDuration, CodeChoice, CodeBool,
	CodeAtLeast, CodeAtMost, CodeZeroOrAtLeast, CodeNeeds, CodeTooLong,
	CodeUnknown, CodeFormat, CodeRetryAfter, CodeMemory, CodeTotalAtLeast, CodeSampledTotal, CodeSweep, CodeUnread,
}

// What 0 means in a CodeInt range (its third Arg).
const (
	ZeroNoLimit = "no-limit" // 0 removes the limit (attempts)
	ZeroDefault = "default"  // 0 picks the default, the fourth Arg (max-calls)
)

// From states a rule between two fields from the side of field, the one
// the user changed: for cap below base when base was changed, base must be
// at most cap. For any other error, or when field is not the rule's other
// field, it returns e unchanged.
func (e *FieldError) From(field string) *FieldError {
	if e == nil || e.Other == "" || field != e.Other || len(e.Args) == 0 {
		return e
	}
	var code string
	switch e.Code {
	case CodeAtLeast, CodeZeroOrAtLeast:
		// field >= other, seen from other: other <= field. (For
		// zero-or-at-least e's value is not 0, or it would be no error.)
		code = CodeAtMost
	case CodeAtMost:
		code = CodeAtLeast
	default:
		return e
	}
	return pairErr(e.Other, e.Args[0], code, e.Field, e.Value)
}

// pairErr is a rule between two fields: field's value must be at least
// (CodeAtLeast) or at most (CodeAtMost) other's value.
func pairErr(field, value, code, other, otherValue string) *FieldError {
	rel := "at least "
	if code == CodeAtMost {
		rel = "at most "
	}
	return &FieldError{Field: field, Value: value, Code: code, Args: []string{otherValue}, Other: other,
		Allowed: rel + other + " (" + otherValue + ")"}
}

// needsErr is a value allowed only while other has another value: field
// must lie in [lo, hi] while other is otherValue.
func needsErr(field, value, other, otherValue, lo, hi, allowed string) *FieldError {
	return &FieldError{Field: field, Value: value, Code: CodeNeeds, Args: []string{otherValue, lo, hi},
		Other: other, Allowed: allowed}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func intErr(field, value string, lo, hi int, zero ...string) *FieldError {
	allowed := fmt.Sprintf("a whole number from %d to %d", lo, hi)
	if len(zero) > 0 {
		switch zero[0] {
		case ZeroNoLimit:
			allowed += " (0 = no limit)"
		case ZeroDefault:
			allowed += " (0 = " + zero[1] + ")"
		}
	}
	return &FieldError{Field: field, Value: value, Allowed: allowed, Code: CodeInt,
		Args: append([]string{strconv.Itoa(lo), strconv.Itoa(hi)}, zero...)}
}

func uintErr(field, value string, lo, hi uint64) *FieldError {
	return &FieldError{Field: field, Value: value, Allowed: fmt.Sprintf("a whole number from %d to %d", lo, hi),
		Code: CodeInt, Args: []string{strconv.FormatUint(lo, 10), strconv.FormatUint(hi, 10)}}
}

func numberErr(field, value string, lo, hi float64) *FieldError {
	return &FieldError{Field: field, Value: value, Allowed: fmt.Sprintf("a number from %g to %g", lo, hi),
		Code: CodeNumber, Args: []string{formatFloat(lo), formatFloat(hi)}}
}

func durationErr(field, value string, lo, hi time.Duration) *FieldError {
	return &FieldError{Field: field, Value: value,
		Allowed: "a duration from " + FormatDuration(lo) + " to " + FormatDuration(hi),
		Code:    CodeDuration, Args: []string{FormatDuration(lo), FormatDuration(hi)}}
}

func choiceErr(field, value string, names []string) *FieldError {
	return &FieldError{Field: field, Value: value, Allowed: "one of " + strings.Join(names, ", "),
		Code: CodeChoice, Args: append([]string(nil), names...)}
}

func unknownErr(field, value string, names []string) *FieldError {
	e := choiceErr(field, value, names)
	e.Code = CodeUnknown
	return e
}

func tooLongErr(field, value string, n int) *FieldError {
	return &FieldError{Field: field, Value: truncate(value, n),
		Allowed: fmt.Sprintf("at most %d characters", n), Code: CodeTooLong, Args: []string{strconv.Itoa(n)}}
}

// CheckInt returns nil when v is in [lo, hi], else a *FieldError
// (CodeInt). zero, when given, says what 0 means (see CodeInt).
func CheckInt(field string, v, lo, hi int, zero ...string) error {
	if v < lo || v > hi {
		return intErr(field, strconv.Itoa(v), lo, hi, zero...)
	}
	return nil
}

// CheckFloat returns nil when v is a number in [lo, hi], else a
// *FieldError (CodeNumber). NaN is refused.
func CheckFloat(field string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) {
		return numberErr(field, formatFloat(v), lo, hi)
	}
	return nil
}

// CheckDuration returns nil when v is in [lo, hi], else a *FieldError
// (CodeDuration).
func CheckDuration(field string, v, lo, hi time.Duration) error {
	if v < lo || v > hi {
		return durationErr(field, FormatDuration(v), lo, hi)
	}
	return nil
}
