package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// policyFlags registers the policy flags on a flag set. Flags override the
// preset's values, in the order they were given.
type policyFlags struct {
	preset string
	set    []kv // backoff params as given, applied to the preset in order
}

type kv struct{ name, value string }

// paramFlag is a flag.Value that records a backoff parameter.
type paramFlag struct {
	pf   *policyFlags
	name string
	bool bool
}

func (f *paramFlag) String() string { return "" }
func (f *paramFlag) Set(v string) error {
	f.pf.set = append(f.pf.set, kv{f.name, v})
	return nil
}
func (f *paramFlag) IsBoolFlag() bool { return f.bool }

var paramHelp = map[string]string{
	backoff.ParamGrowth:          "growth: exponential|linear|constant|none|exp-minus-one|polynomial|geometric",
	backoff.ParamBase:            "base delay (250ms, 1.5s, 2m)",
	backoff.ParamFactor:          "growth factor (exponent for polynomial)",
	backoff.ParamFirstExponent:   "exponent of the first retry: base*factor^(n-1+k)",
	backoff.ParamSteps:           "systemd RestartSteps for geometric growth",
	backoff.ParamCap:             "maximum delay (0 = none)",
	backoff.ParamCapMode:         "where the cap applies: before|after|exact (jitter)",
	backoff.ParamCapAfterJitter:  "clamp the jittered delay to the cap (same as --cap-mode after)",
	backoff.ParamJitter:          "jitter: none|full|equal|decorrelated|decorrelated-v2|proportional|additive",
	backoff.ParamJitterLo:        "proportional jitter: lowest factor",
	backoff.ParamJitterHi:        "proportional jitter: highest factor",
	backoff.ParamJitterAdd:       "additive jitter amplitude",
	backoff.ParamJitterAddScaled: "multiply the additive amplitude by the retry number",
	backoff.ParamQuantum:         "draw full/additive jitter in whole multiples of this",
	backoff.ParamOffset:          "constant added to every delay",
	backoff.ParamImmediateFirst:  "first retry immediate; the schedule starts at retry 2",
	backoff.ParamFirstUnjittered: "first retry exactly its nominal delay",
	backoff.ParamAttempts:        "total tries, the first included (6 = 5 retries; 0 = no limit)",
	backoff.ParamDeadline:        "max elapsed time: no retry starts after it (0 = none)",
	backoff.ParamRetryAfter:      "Retry-After handling: ignore|as-is|floor|clamp|give-up|bounded",
	backoff.ParamRetryAfterSlack: "upper slack for --retry-after bounded",
}

var boolParams = map[string]bool{
	backoff.ParamCapAfterJitter: true, backoff.ParamJitterAddScaled: true,
	backoff.ParamImmediateFirst: true, backoff.ParamFirstUnjittered: true,
}

func addPolicyFlags(fs *flag.FlagSet) *policyFlags {
	pf := &policyFlags{}
	fs.StringVar(&pf.preset, "preset", "", "start from a preset (see 'backoff presets'); other flags override it")
	for _, name := range backoff.ParamNames {
		fs.Var(&paramFlag{pf: pf, name: name, bool: boolParams[name]}, name, paramHelp[name])
	}
	return pf
}

// policy builds and validates the policy. Without a preset it starts from
// backoff.Default().
func (pf *policyFlags) policy() (backoff.Policy, error) {
	p := backoff.Default()
	if pf.preset != "" {
		pr, err := backoff.LookupPreset(pf.preset)
		if err != nil {
			return p, err
		}
		p = pr.Policy
	}
	for _, s := range pf.set {
		if err := p.Set(s.name, s.value); err != nil {
			return p, err
		}
	}
	return p, p.Validate()
}

// usageError marks errors that exit with code 2.
type usageError struct{ error }

func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "backoff: unexpected arguments: %s (flags start with --)\n", strings.Join(fs.Args(), " "))
		return usageError{fmt.Errorf("unexpected arguments")}
	}
	return nil
}

// exitCode reports err on stderr and returns the exit code for it: 0 for
// help, 2 for bad usage (flags, field values), 1 otherwise.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var fe *backoff.FieldError
	var ue usageError
	if errors.As(err, &ue) {
		// flag already printed its message and the usage.
		return 2
	}
	fmt.Fprintln(stderr, "backoff:", err)
	if errors.As(err, &fe) {
		return 2
	}
	return 1
}

func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return &backoff.FieldError{Field: "format", Value: format, Allowed: "one of " + strings.Join(allowed, ", ")}
}
