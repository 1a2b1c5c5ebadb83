package backoff

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// Every error from Set, Validate and the parsers carries a code and the
// rule's parameters as canonical text, and a failed Set changes nothing.
func TestFieldErrorCodes(t *testing.T) {
	sec := time.Second
	for _, c := range []struct {
		name  string
		err   func() error
		field string
		code  string
		args  []string
		other string
	}{
		{"attempts range", func() error { p := Default(); return p.Set(ParamAttempts, "1001") }, ParamAttempts, CodeInt, []string{"0", "1000", ZeroNoLimit}, ""},
		{"steps not a number", func() error { p := Default(); return p.Set(ParamSteps, "x") }, ParamSteps, CodeInt, []string{"0", "1000"}, ""},
		{"factor range", func() error { p := Default(); return p.Set(ParamFactor, "-2") }, ParamFactor, CodeNumber, []string{"0", "100"}, ""},
		{"factor infinite", func() error { p := Default(); return p.Set(ParamFactor, "Inf") }, ParamFactor, CodeNumber, []string{"0", "100"}, ""},
		{"jitter-hi NaN", func() error { p := Default(); return p.Set(ParamJitterHi, "NaN") }, ParamJitterHi, CodeNumber, []string{"0", "10"}, ""},
		{"base range", func() error { p := Default(); return p.Set(ParamBase, "-1s") }, ParamBase, CodeDuration, []string{"0s", "720h"}, ""},
		{"deadline range", func() error { p := Default(); return p.Set(ParamDeadline, "9000h") }, ParamDeadline, CodeDuration, []string{"0s", "8760h"}, ""},
		{"jitter name", func() error { p := Default(); return p.Set(ParamJitter, "wobbly") }, ParamJitter, CodeChoice, jitterNames, ""},
		{"cap-after-jitter", func() error { p := Default(); return p.Set(ParamCapAfterJitter, "maybe") }, ParamCapAfterJitter, CodeBool, nil, ""},
		{"too long", func() error { p := Default(); return p.Set(ParamCap, string(make([]byte, 100))) }, ParamCap, CodeTooLong, []string{"64"}, ""},
		{"unknown parameter", func() error { p := Default(); return p.Set("colour", "red") }, "parameter", CodeUnknown, ParamNames, ""},
		{"unknown preset", func() error { _, err := LookupPreset("nope"); return err }, "preset", CodeUnknown, PresetNames(), ""},
		{"retry-after", func() error { _, err := ParseRetryAfter("soon", time.Time{}); return err }, "Retry-After", CodeRetryAfter, []string{"2592000"}, ""},
		{"bad enum in a struct", func() error { p := Default(); p.Growth = 99; return p.Validate() }, ParamGrowth, CodeChoice, growthNames, ""},
		{"attempts in a struct", func() error { p := Default(); p.Attempts = -1; return p.Validate() }, ParamAttempts, CodeInt, []string{"0", "1000", ZeroNoLimit}, ""},
		{"cap below base", func() error { p := Default(); p.Cap = sec / 2; return p.Validate() }, ParamCap, CodeZeroOrAtLeast, []string{"1s"}, ParamBase},
		{"quantum below 1µs", func() error { p := Default(); p.Quantum = 1; return p.Validate() }, ParamQuantum, CodeZeroOrAtLeast, []string{"1µs"}, ""},
		{"lo above hi", func() error {
			p := Default()
			p.Jitter = Proportional
			p.JitterLo, p.JitterHi = 0.8, 0.5
			return p.Validate()
		}, ParamJitterLo, CodeAtMost, []string{"0.5"}, ParamJitterHi},
		{"factor below 1", func() error { p := Default(); p.Factor = 0.5; return p.Validate() }, ParamFactor, CodeNeeds, []string{"exponential", "1", "100"}, ParamGrowth},
		{"polynomial exponent", func() error { p := Default(); p.Growth = Polynomial; p.Factor = 11; return p.Validate() }, ParamFactor, CodeNeeds, []string{"polynomial", "0", "10"}, ParamGrowth},
		{"quantum with equal", func() error { p := Default(); p.Jitter = Equal; p.Quantum = sec; return p.Validate() }, ParamQuantum, CodeNeeds, []string{"equal", "0s", "0s"}, ParamJitter},
		{"decorrelated zero base", func() error { p := Default(); p.Jitter = Decorrelated; p.Base = 0; p.Cap = 0; return p.Validate() }, ParamBase, CodeNeeds, []string{"decorrelated", "1ns", "720h"}, ParamJitter},
		{"geometric steps without cap", func() error { p := Default(); p.Growth = Geometric; p.Steps = 3; p.Cap = 0; return p.Validate() }, ParamCap, CodeNeeds, []string{"geometric", "1ns", "720h"}, ParamGrowth},
		{"at-least from the other side", func() error {
			p := Default()
			p.Jitter = Proportional
			p.JitterLo, p.JitterHi = 0.8, 0.5
			var fe *FieldError
			errors.As(p.Validate(), &fe)
			return fe.From(ParamJitterHi)
		}, ParamJitterHi, CodeAtLeast, []string{"0.8"}, ParamJitterLo},
	} {
		var fe *FieldError
		if !errors.As(c.err(), &fe) {
			t.Errorf("%s: no *FieldError", c.name)
			continue
		}
		if fe.Field != c.field || fe.Code != c.code || !slices.Equal(fe.Args, c.args) || fe.Other != c.other || fe.Allowed == "" {
			t.Errorf("%s: got %s %s %q other %q (%v); want %s %s %q other %q", c.name,
				fe.Field, fe.Code, fe.Args, fe.Other, fe, c.field, c.code, c.args, c.other)
		}
		if !slices.Contains(ErrorCodes, fe.Code) {
			t.Errorf("%s: code %q not in ErrorCodes", c.name, fe.Code)
		}
	}
}

func TestFieldErrorFrom(t *testing.T) {
	sec := time.Second
	validate := func(edit func(p *Policy)) *FieldError {
		p := Default()
		edit(&p)
		var fe *FieldError
		if !errors.As(p.Validate(), &fe) {
			t.Fatalf("no *FieldError for %+v", p)
		}
		return fe
	}
	loHi := validate(func(p *Policy) { p.Jitter = Proportional; p.JitterLo, p.JitterHi = 0.8, 0.5 })
	capBase := validate(func(p *Policy) { p.Base, p.Cap = 2*sec, sec })
	factor := validate(func(p *Policy) { p.Factor = 0.5 })
	for _, c := range []struct {
		name string
		e    *FieldError
		from string
		want FieldError
		same bool // From returns e itself
	}{
		{"lo > hi, hi changed", loHi, ParamJitterHi,
			FieldError{Field: ParamJitterHi, Value: "0.5", Code: CodeAtLeast, Args: []string{"0.8"}, Other: ParamJitterLo}, false},
		{"lo > hi, lo changed", loHi, ParamJitterLo, *loHi, true},
		{"lo > hi, another field", loHi, ParamBase, *loHi, true},
		{"cap < base, base changed", capBase, ParamBase,
			FieldError{Field: ParamBase, Value: "2s", Code: CodeAtMost, Args: []string{"1s"}, Other: ParamCap}, false},
		{"cap < base, cap changed", capBase, ParamCap, *capBase, true},
		{"needs is stated once", factor, ParamGrowth, *factor, true},
		{"twice gives the first back", loHi.From(ParamJitterHi), ParamJitterLo,
			FieldError{Field: ParamJitterLo, Value: "0.8", Code: CodeAtMost, Args: []string{"0.5"}, Other: ParamJitterHi}, false},
	} {
		got := c.e.From(c.from)
		if c.same != (got == c.e) {
			t.Errorf("%s: From returned e itself = %v, want %v", c.name, got == c.e, c.same)
		}
		if got.Field != c.want.Field || got.Value != c.want.Value || got.Code != c.want.Code ||
			!slices.Equal(got.Args, c.want.Args) || got.Other != c.want.Other || got.Allowed == "" {
			t.Errorf("%s: From(%s) = %+v, want %+v", c.name, c.from, *got, c.want)
		}
	}
	var nilErr *FieldError
	if nilErr.From(ParamBase) != nil {
		t.Error("nil.From != nil")
	}
}

// Set leaves the policy unchanged on error, for every parameter.
func TestSetUnchangedOnError(t *testing.T) {
	for _, name := range ParamNames {
		for _, bad := range []string{"nonsense", "-1", "NaN", "1e999", string(make([]byte, 200))} {
			for _, pr := range Presets() {
				p := pr.Policy
				err := p.Set(name, bad)
				if err == nil && bad == "nonsense" {
					t.Errorf("Set(%s, %q) = nil, want an error", name, bad)
				}
				if err != nil && p != pr.Policy {
					t.Errorf("%s: Set(%s, %q) failed but changed the policy", pr.Name, name, bad)
				}
			}
		}
	}
}

func TestParseNumbers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true}, {" 2 ", 2, true}, {"1,5", 1.5, true}, {"1e1", 10, true},
		{"NaN", 0, false}, {"Inf", 0, false}, {"-Inf", 0, false}, {"1e400", 0, false},
		{"11", 0, false}, {"-0.1", 0, false}, {"1,5.0", 0, false}, {"1,000,5", 0, false}, {"", 0, false},
	} {
		got, err := ParseFloat("f", c.in, 0, 10)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"7", 7, true}, {" 0 ", 0, true}, {"10", 10, true}, {"11", 0, false}, {"1.5", 0, false}, {"x", 0, false},
	} {
		got, err := ParseInt("n", c.in, 0, 10)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseInt(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true}, {" 7 ", 7, true}, {"18446744073709551615", math.MaxUint64, true},
		{"18446744073709551616", 0, false}, {"-1", 0, false}, {"+1", 0, false}, {"1.5", 0, false},
		{"1e3", 0, false}, {"x", 0, false}, {"", 0, false}, {strings.Repeat("1", 65), 0, false},
	} {
		got, err := ParseUint("seed", c.in, 0, math.MaxUint64)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseUint(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
		var fe *FieldError
		if err != nil && (!errors.As(err, &fe) || fe.Field != "seed" || fe.Value == "" && c.in != "" ||
			len(c.in) <= 64 && (fe.Code != CodeInt || !slices.Equal(fe.Args, []string{"0", "18446744073709551615"}) ||
				fe.Allowed != "a whole number from 0 to 18446744073709551615")) {
			t.Errorf("ParseUint(%q): %#v, want a CodeInt *FieldError naming seed, the value and 0..2^64-1", c.in, err)
		}
	}
	if _, err := ParseUint("n", "2", 3, 9); err == nil || err.(*FieldError).Args[0] != "3" {
		t.Errorf("ParseUint below lo: %v", err)
	}
}
