package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

func runSolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff solve", flag.ContinueOnError)
	pf := addPolicyFlags(fs)
	knob := fs.String("for", "", "the knob to fit: "+choices(backoff.SolveKnobs))
	worst := fs.String("worst-total", "", "the most a run whose every call fails may wait in all (10s, 1m)")
	expected := fs.String("expected-total", "", "the most such a run may wait on average")
	format := fs.String("format", "text", "output: text|json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: backoff solve --for base|factor|cap|attempts [--preset NAME] [policy flags]
                     --worst-total D | --expected-total D [--format text|json]

The largest value of one knob whose total wait stays within D, the other
knobs as given: base, cap and factor exactly (to the nanosecond, the last bit
of a float), attempts as a whole count. The totals are the delay table's
(backoff table): the worst case, or the expected wait of a run whose every
call fails. A target no value reaches exits 2 and says the least total the
other knobs allow.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitCode(stderr, err)
	}
	bad := func(err error) int { return exitCode(stderr, flagged(fs, err)) }
	if err := checkFormat(*format, "text", "json"); err != nil {
		return bad(err)
	}
	p, err := pf.policy()
	if err != nil {
		return bad(err)
	}
	g, err := parseGoal(*knob, *worst, *expected)
	if err != nil {
		return bad(err)
	}
	s, err := backoff.Solve(p, g)
	if err != nil {
		return bad(err)
	}
	if *format == "json" {
		err = writeSolveJSON(stdout, pf.preset, g, s)
	} else {
		err = writeSolveText(stdout, pf.preset, g, s)
	}
	if err != nil {
		return exitCode(stderr, err)
	}
	return 0
}

// parseGoal reads --for and exactly one of --worst-total and
// --expected-total.
func parseGoal(knob, worst, expected string) (backoff.Goal, error) {
	g := backoff.Goal{Knob: strings.TrimSpace(knob)}
	if g.Knob == "" {
		return g, missingError{"for", "one of " + strings.Join(backoff.SolveKnobs, ", ")}
	}
	if !contains(backoff.SolveKnobs, g.Knob) {
		return g, &backoff.FieldError{Field: "for", Value: clip(g.Knob), Code: backoff.CodeChoice,
			Args: backoff.SolveKnobs, Allowed: "one of " + strings.Join(backoff.SolveKnobs, ", ")}
	}
	text := worst
	switch {
	case worst != "" && expected != "":
		return g, &backoff.FieldError{Field: "expected-total", Value: clip(expected), Code: backoff.CodeFormat,
			Args: []string{"--worst-total D", "--expected-total D"}, Allowed: "one target: --worst-total or --expected-total, not both"}
	case worst == "" && expected == "":
		return g, missingError{"worst-total", "a duration, or --expected-total"}
	case expected != "":
		g.Target, text = backoff.ExpectedTotal, expected
	}
	d, err := backoff.ParseDuration(g.Target.String(), text, backoff.MaxDeadline)
	g.Total = d
	return g, err
}

func contains(names []string, s string) bool {
	for _, n := range names {
		if n == s {
			return true
		}
	}
	return false
}

func writeSolveText(w io.Writer, preset string, g backoff.Goal, s backoff.Solution) error {
	if preset != "" {
		fmt.Fprintf(w, "preset: %s\n", preset)
	}
	what := "worst total"
	if g.Target == backoff.ExpectedTotal {
		what = "expected total"
	}
	fmt.Fprintf(w, "%s = %s: the largest that keeps the %s within %s\n", g.Knob, s.Policy.Get(g.Knob), what,
		backoff.FormatDuration(g.Total))
	if !s.Binding {
		if g.Knob == backoff.ParamCap {
			fmt.Fprintf(w, "no cap is needed: without one the %s is %s\n", what, totalOf(g, s))
		} else {
			fmt.Fprintf(w, "that is the most %s allows: the target does not bind\n", g.Knob)
		}
	}
	fmt.Fprintf(w, "policy: %s\n", s.Policy.Describe())
	fmt.Fprintf(w, "worst case %s", backoff.FormatSeconds(s.Worst))
	if s.ExpectedExact {
		fmt.Fprintf(w, ", expected %s", backoff.FormatSeconds(s.Expected))
	}
	fmt.Fprintln(w, " of waiting")
	return nil
}

func totalOf(g backoff.Goal, s backoff.Solution) string {
	if g.Target == backoff.ExpectedTotal {
		return backoff.FormatSeconds(s.Expected)
	}
	return backoff.FormatSeconds(s.Worst)
}

type solveJSON struct {
	For    string         `json:"for"`
	Target string         `json:"target"`
	Total  float64        `json:"target_s"`
	Value  string         `json:"value"`
	Policy map[string]any `json:"policy"`
	// Totals are the solved policy's: worst always, expected when it is
	// a closed form.
	Totals struct {
		Worst    float64  `json:"worst_s"`
		Expected *float64 `json:"expected_s,omitempty"`
	} `json:"total"`
	Binding bool `json:"binding"`
}

func writeSolveJSON(w io.Writer, preset string, g backoff.Goal, s backoff.Solution) error {
	out := solveJSON{For: g.Knob, Target: g.Target.String(), Total: g.Total.Seconds(), Value: s.Policy.Get(g.Knob),
		Policy: policyJSON(preset, s.Policy), Binding: s.Binding}
	out.Totals.Worst = s.Worst
	if s.ExpectedExact {
		e := s.Expected
		out.Totals.Expected = &e
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
