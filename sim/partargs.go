package sim

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// A part with arguments (a queue discipline, an admission rule) is written
// NAME[:ARG[:ARG...]]; its file declares the arguments as PartArgs, and
// the helpers here read, write and check them for every such part, so
// that a part's syntax, ranges and defaults have one source.

// MaxPartArgs is how many arguments a part may take.
const MaxPartArgs = 2

// PartArgs are a part's argument values in its declared order, each in
// its ParamKind's unit (nanoseconds for a duration). A fixed array, so
// that a Config holding them stays comparable.
type PartArgs [MaxPartArgs]float64

// PartArg declares one argument of a part.
type PartArg struct {
	// Name is the argument as the syntax writes it: N, M, RATE.
	Name string
	Kind ParamKind
	// Min and Max bound it (inclusive), Default is its value when left
	// out (Optional), and a config built in code starts from it:
	// numbers, or seconds for a DurationParam.
	Min, Max, Default float64
	Optional          bool
}

// checkPartArgs panics on a malformed declaration: a programming error,
// found as the package initialises.
func checkPartArgs(what string, args []PartArg) {
	bad := len(args) > MaxPartArgs
	for i, a := range args {
		bad = bad || !(a.Min <= a.Default && a.Default <= a.Max) || a.Kind > DurationParam ||
			i > 0 && args[i-1].Optional && !a.Optional ||
			a.Kind == DurationParam && (a.Min < 0 || a.Max > MaxOwnDuration.Seconds()) ||
			a.Kind == IntParam && (a.Min != math.Trunc(a.Min) || a.Max > MaxCalls)
	}
	if bad {
		panic("sim: " + what + ": malformed arguments")
	}
}

// partSyntax is a part's text form with its arguments, optional ones in
// brackets: "codel[:N[:M]]", "bounded:N".
func partSyntax(name string, args []PartArg) string {
	s, closing := name, ""
	for _, a := range args {
		if a.Optional {
			s += "["
			closing += "]"
		}
		s += ":" + a.Name
	}
	return s + closing
}

// partRanges words the arguments' ranges and defaults in English: "N from
// 1 to 1000000000, M from 0s to 1h (default 5ms)".
func partRanges(args []PartArg) string {
	var parts []string
	for _, a := range args {
		s := a.Name + " from " + a.format(a.Min*a.scale()) + " to " + a.format(a.Max*a.scale())
		if a.Optional {
			s += " (default " + a.format(a.Default*a.scale()) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// format is a stored value of a's as Get writes it.
func (a *PartArg) format(v float64) string {
	switch a.Kind {
	case DurationParam:
		return backoff.FormatDuration(time.Duration(v))
	case IntParam:
		return strconv.Itoa(int(v))
	}
	return formatFloat(v)
}

// scale is what a value in a's Min/Max/Default unit is multiplied by to
// be stored: nanoseconds per second for a duration.
func (a *PartArg) scale() float64 {
	if a.Kind == DurationParam {
		return float64(time.Second)
	}
	return 1
}

func (a *PartArg) dur(sec float64) time.Duration {
	return time.Duration(math.Round(sec * float64(time.Second)))
}

// partDefaults are args at their defaults (the required ones too).
func partDefaults(args []PartArg) PartArgs {
	var v PartArgs
	for i, a := range args {
		v[i] = a.Default * a.scale()
	}
	return v
}

// partFullText writes name and every one of v's arguments, the optional
// ones at their defaults too: the form a sentence about the part fills
// its {1}, {2} from.
func partFullText(name string, args []PartArg, v *PartArgs) string {
	for i := range args {
		name += ":" + args[i].format(v[i])
	}
	return name
}

// partText writes name and v, trailing optional arguments at their
// defaults left out.
func partText(name string, args []PartArg, v *PartArgs) string {
	n := len(args)
	for n > 0 && args[n-1].Optional && v[n-1] == args[n-1].Default*args[n-1].scale() {
		n--
	}
	for i := range n {
		name += ":" + args[i].format(v[i])
	}
	return name
}

// parsePartArgs reads the arguments after a part's name (rest: what
// follows the first colon; colon: whether there was one). A value out of
// its range or of the wrong form is an error about the whole value v,
// naming the argument and the part's syntax and ranges; too few or too
// many arguments, a CodeFormat error listing forms.
func parsePartArgs(field, v, name, rest string, colon bool, args []PartArg, forms []string) (PartArgs, error) {
	var given []string
	if colon {
		given = strings.Split(rest, ":")
	}
	need := 0
	for _, a := range args {
		if !a.Optional {
			need++
		}
	}
	if len(given) < need || len(given) > len(args) {
		return PartArgs{}, formatErr(field, v, forms)
	}
	out := partDefaults(args)
	for i, s := range given {
		a := &args[i]
		s = strings.TrimSpace(s)
		var err error
		switch a.Kind {
		case IntParam:
			var n int
			n, err = backoff.ParseInt(field, s, int(a.Min), int(a.Max))
			out[i] = float64(n)
		case DurationParam:
			lo, hi := a.dur(a.Min), a.dur(a.Max)
			d, perr := backoff.ParseDuration(field, s, hi)
			if perr != nil { // not a duration: the same words as one out of range
				err = &backoff.FieldError{Field: field, Code: backoff.CodeDuration,
					Args: []string{backoff.FormatDuration(lo), backoff.FormatDuration(hi)}}
			} else {
				err = backoff.CheckDuration(field, d, lo, hi)
			}
			out[i] = float64(d)
		default:
			out[i], err = backoff.ParseFloat(field, s, a.Min, a.Max)
		}
		if err != nil {
			return PartArgs{}, partArgErr(err, v, name, args, a)
		}
	}
	return out, nil
}

// checkPartValues checks values built in code as parsePartArgs would
// have; text is the value as Get writes it.
func checkPartValues(field, text, name string, args []PartArg, v *PartArgs) error {
	for i, a := range args {
		x := v[i]
		var err error
		switch a.Kind {
		case IntParam:
			n := int(x)
			if float64(n) != x { // 2.5, NaN: out of range as ParseInt would find them
				n = int(a.Min) - 1
			}
			err = backoff.CheckInt(field, n, int(a.Min), int(a.Max))
		case DurationParam:
			err = backoff.CheckDuration(field, time.Duration(x), a.dur(a.Min), a.dur(a.Max))
		default:
			err = backoff.CheckFloat(field, x, a.Min, a.Max)
		}
		if err != nil {
			return partArgErr(err, text, name, args, &a)
		}
	}
	return nil
}

// partArgErr restates an argument's range error as one about the whole
// value, naming the argument and the part's syntax and ranges.
func partArgErr(err error, v, name string, args []PartArg, a *PartArg) error {
	return partErr(err, v, a.Name, partSyntax(name, args)+" with "+partRanges(args))
}
