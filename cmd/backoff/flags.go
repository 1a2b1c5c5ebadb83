package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

// policyFlags registers the policy flags on a flag set. Flags override the
// preset's values, in the order they were given.
type policyFlags struct {
	preset string
	// presetGiven is set when --preset was given, even empty.
	presetGiven bool
	set         []kv // backoff params as given, applied to the preset in order
	// importFile is --import's config; imported is what it read.
	importFile string
	imported   *importer.Result
	fs         *flag.FlagSet // its output takes the import's notes
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

// choices is the core's names of a kind, as help text lists them.
func choices(names []string) string { return strings.Join(names, "|") }

var paramHelp = map[string]string{
	backoff.ParamGrowth:          "growth: " + choices(backoff.GrowthNames()),
	backoff.ParamBase:            "base delay (250ms, 1.5s, 2m)",
	backoff.ParamFactor:          "growth factor (exponent for polynomial)",
	backoff.ParamFirstExponent:   "exponent of the first retry: base*factor^(n-1+k)",
	backoff.ParamSteps:           "systemd RestartSteps for geometric growth",
	backoff.ParamCap:             "maximum delay (0 = none)",
	backoff.ParamCapMode:         "where the cap applies: " + choices(backoff.CapModeNames()) + " (jitter)",
	backoff.ParamCapAfterJitter:  "clamp the jittered delay to the cap (same as --cap-mode " + backoff.CapAfterJitter.String() + ")",
	backoff.ParamFloor:           "least delay, at most the cap: the jitter spreads the part above it (tenacity's min; 0 = none)",
	backoff.ParamJitter:          "jitter: " + choices(backoff.JitterNames()),
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
	backoff.ParamRetryAfter:      "Retry-After handling: " + choices(backoff.RetryAfterNames()),
	backoff.ParamRetryAfterSlack: "upper slack for --retry-after " + backoff.RetryAfterBounded.String(),
}

var boolParams = map[string]bool{
	backoff.ParamCapAfterJitter: true, backoff.ParamJitterAddScaled: true,
	backoff.ParamImmediateFirst: true, backoff.ParamFirstUnjittered: true,
}

func addPolicyFlags(fs *flag.FlagSet) *policyFlags {
	pf := &policyFlags{fs: fs}
	fs.Func("preset", "start from a preset (see 'backoff presets'); other flags override it", func(v string) error {
		pf.preset, pf.presetGiven = v, true
		return nil
	})
	fs.StringVar(&pf.importFile, "import", "", "start from the policy of a retry config (see 'backoff import'); other flags override it")
	for _, name := range backoff.ParamNames {
		fs.Var(&paramFlag{pf: pf, name: name, bool: boolParams[name]}, name, paramHelp[name])
	}
	return pf
}

// policy builds and validates the policy. Without a preset it starts from
// backoff.Default().
func (pf *policyFlags) policy() (backoff.Policy, error) {
	p := backoff.Default()
	if pf.preset != "" || pf.presetGiven {
		// --preset "" names no preset: refused, never read as none.
		pr, err := backoff.LookupPreset(pf.preset)
		if err != nil {
			return p, err
		}
		p = pr.Policy
	}
	if pf.importFile != "" {
		if pf.preset != "" || pf.presetGiven {
			return p, &backoff.FieldError{Field: "import", Value: clip(pf.importFile), Code: backoff.CodeFormat,
				Allowed: "--import or --preset, not both"}
		}
		res, err := importedPolicy(pf.importFile, pf.fs.Output())
		if err != nil {
			return p, err
		}
		pf.imported, p = res, res.Policy
	}
	base := p
	for _, s := range pf.set {
		if err := p.Set(s.name, s.value); err != nil {
			return p, err
		}
	}
	err := p.Validate()
	if fe := (*backoff.FieldError)(nil); errors.As(err, &fe) && !pf.typed(fe.Field) {
		return p, pf.blame(base, fe)
	}
	return p, err
}

// typed reports whether the command line gave the policy flag name.
func (pf *policyFlags) typed(name string) bool {
	for _, s := range pf.set {
		if s.name == name {
			return true
		}
	}
	return false
}

// blame restates fe, about a field the command line did not give (the
// preset's, the imported file's or the default's value), as an error
// about the flag that did give what clashes with it: the first whose
// value, applied to base in order, makes the policy invalid.
func (pf *policyFlags) blame(base backoff.Policy, fe *backoff.FieldError) error {
	from := "the default policy's"
	switch {
	case pf.preset != "":
		from = "the preset " + pf.preset + "'s"
	case pf.importFile != "":
		from = "the imported config's"
	}
	q := base
	for _, s := range pf.set {
		if q.Set(s.name, s.value) != nil {
			break
		}
		var now *backoff.FieldError
		if errors.As(q.Validate(), &now) && now.Field == fe.Field {
			return &backoff.FieldError{Field: s.name, Value: clip(s.value), Code: fe.Code, Args: fe.Args, Other: fe.Field,
				Allowed: fmt.Sprintf("a value that goes with %s --%s %s (which wants %s), or --%s too",
					from, fe.Field, fe.Value, fe.Allowed, fe.Field)}
		}
	}
	return fe
}

// intFlag is a whole-number flag kept as text and read after fs.Parse:
// the flag package's own message names neither the range nor the flag
// as the others do.
type intFlag struct {
	text   string
	lo, hi int
}

func newIntFlag(fs *flag.FlagSet, name string, def, lo, hi int, usage string) *intFlag {
	f := &intFlag{text: strconv.Itoa(def), lo: lo, hi: hi}
	fs.Var(f, name, usage)
	return f
}

func (f *intFlag) String() string     { return f.text }
func (f *intFlag) Set(s string) error { f.text = s; return nil }

// parse reads the flag's text, or returns a *FieldError naming name.
func (f *intFlag) parse(name string) (int, error) {
	return backoff.ParseInt(name, f.text, f.lo, f.hi)
}

// seedFlag is a seed: any uint64, kept as text like intFlag.
type seedFlag struct {
	text string
	n    uint64
}

func newSeedFlag(fs *flag.FlagSet, usage string) *seedFlag {
	f := &seedFlag{text: "1", n: 1}
	fs.Var(f, "seed", usage)
	return f
}

func (f *seedFlag) String() string     { return f.text }
func (f *seedFlag) Set(s string) error { f.text = s; return nil }

func (f *seedFlag) parse() (uint64, error) {
	n, err := backoff.ParseUint("seed", f.text, 0, math.MaxUint64)
	if err != nil {
		return 0, err
	}
	f.n = n
	return n, nil
}

// clip shortens a value for a message, as the core does.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// usageError marks errors that exit with code 2 whose message was
// already printed (by the flag package, with the usage).
type usageError struct{ error }

// badInput marks errors that exit with code 2 though they are no
// *backoff.FieldError: a missing flag, a job too big to run.
type badInput interface{ badInput() }

// missingError is a required flag left out.
type missingError struct{ flag, want string }

func (e missingError) Error() string { return fmt.Sprintf("--%s is missing: want %s", e.flag, e.want) }
func (missingError) badInput()       {}

func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "backoff: unexpected arguments: %s (flags start with --)\n", clip(strings.Join(fs.Args(), " ")))
		return usageError{fmt.Errorf("unexpected arguments")}
	}
	return nil
}

// flagged names err's field as the flag the user typed, --name, when fs
// has a flag of that name (the core names fields as the flags are named).
func flagged(fs *flag.FlagSet, err error) error {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || fs.Lookup(fe.Field) == nil || fe.Line > 0 {
		return err // a document's value is named by its path and line
	}
	return asFlag(fe)
}

// asFlag is fe with its field named as the flag of that name, --name.
func asFlag(fe *backoff.FieldError) *backoff.FieldError {
	c := *fe
	c.Field = "--" + fe.Field
	return &c
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
	var bi badInput
	if errors.As(err, &ue) {
		// flag already printed its message and the usage.
		return 2
	}
	fmt.Fprintln(stderr, "backoff:", err)
	if errors.As(err, &fe) || errors.As(err, &bi) {
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
	return &backoff.FieldError{Field: "format", Value: clip(format), Allowed: "one of " + strings.Join(allowed, ", ")}
}
