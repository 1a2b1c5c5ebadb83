package app

import (
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The sweep panel's part of a link: one knob over a range (the CLI's
// --sweep syntax), the result plotted, the lines, the seeds averaged and
// whether to bisect for the threshold.
const (
	keySweep          = "sweep"           // NAME=FROM:TO:STEP or NAME=V1,V2,... (sim.ParseSweep)
	keySweepY         = "sweep-y"         // the result plotted: a sim.SweepMetrics name
	keySweepLines     = "sweep-lines"     // a comma list of jitter kinds (and no-backoff), or ab
	keySweepRuns      = "sweep-runs"      // seeds averaged per point, 1..maxSweepRuns
	keySweepThreshold = "sweep-threshold" // 1: bisect for the largest value that recovers
)

// sweepAB is sweep-lines' value for one line per policy, A and B.
const sweepAB = "ab"

// maxSweepRuns is the most seeds a sweep averages per point; defaultSweepRuns
// what it averages unless the link says.
const (
	maxSweepRuns     = 20
	defaultSweepRuns = 3
)

// sweepState is the sweep a link asks for; Spec "" is none.
type sweepState struct {
	Spec      string
	Y         string // "" the knob's natural result (sweepMetricFor)
	Lines     string // "" the policy's own jitter kind
	Runs      int
	Threshold bool
}

func defaultSweep() sweepState { return sweepState{Runs: defaultSweepRuns} }

// sweepKeys are the sweep's link keys, in the order links write them.
var sweepKeys = []string{keySweep, keySweepY, keySweepLines, keySweepRuns, keySweepThreshold}

// parse reads the sweep's keys over the link's simulation c (its policy
// set) and second policy (b, nil for none): a sweep whose values c
// refuses is noted and dropped, as every other bad value is.
func (w *sweepState) parse(first func(string) (string, bool), known map[string]bool, c sim.Config, b *backoff.Policy) []notice {
	*w = defaultSweep()
	var notes []notice
	for _, k := range sweepKeys {
		known[k] = true
	}
	if v, ok := first(keySweep); ok && v != "" {
		if _, err := sim.ParseSweep(v, c); err != nil {
			// A value its knob refuses is worded by the knob's rule, named.
			inner := valueErr(err, v, c)
			notes = append(notes, notice{Key: keySweep, Value: clip(v, 32), Err: inner, Doc: inner != err})
		} else {
			w.Spec = v
		}
	}
	if v, ok := first(keySweepY); ok && v != "" {
		if _, found := sim.SweepMetricNamed(v); found {
			w.Y = v
		} else {
			notes = append(notes, notice{Key: keySweepY, Value: clip(v, 32), Msg: "notice.choice", Args: []string{strings.Join(sweepMetricNames(), ", ")}})
		}
	}
	if v, ok := first(keySweepLines); ok && v != "" {
		if err := checkSweepLines(v, c); v == sweepAB && b == nil {
			notes = append(notes, notice{Key: keySweepLines, Value: v, Msg: "notice.sweep-ab"})
		} else if err != nil {
			notes = append(notes, notice{Key: keySweepLines, Value: clip(v, 32), Err: err})
		} else {
			w.Lines = v
		}
	}
	if v, ok := first(keySweepRuns); ok {
		if n, err := backoff.ParseInt(keySweepRuns, v, 1, maxSweepRuns); err != nil {
			notes = append(notes, notice{Key: keySweepRuns, Value: clip(v, 32), Err: err})
		} else {
			w.Runs = n
		}
	}
	if v, ok := first(keySweepThreshold); ok {
		if t, err := backoff.ParseBool(keySweepThreshold, v); err != nil {
			notes = append(notes, notice{Key: keySweepThreshold, Value: clip(v, 32), Err: err})
		} else {
			w.Threshold = t
		}
	}
	return notes
}

// query writes the sweep's keys that differ from no sweep's.
func (w *sweepState) query(add func(k, v string)) {
	if w.Spec == "" {
		return
	}
	add(keySweep, w.Spec)
	if w.Y != "" {
		add(keySweepY, w.Y)
	}
	if w.Lines != "" {
		add(keySweepLines, w.Lines)
	}
	if w.Runs != defaultSweepRuns {
		add(keySweepRuns, strconv.Itoa(w.Runs))
	}
	if w.Threshold {
		add(keySweepThreshold, "1")
	}
}

// checkSweepLines reports a kind of a sweep-lines list that is none, or
// that the policy cannot take (ab is checked against the link's second
// policy by its caller).
func checkSweepLines(v string, c sim.Config) error {
	if v == sweepAB {
		return nil
	}
	kinds := sweepLineKinds()
	for _, k := range strings.Split(v, ",") {
		if !contains(kinds, k) {
			return &backoff.FieldError{Field: keySweepLines, Value: k, Code: backoff.CodeChoice, Args: append(kinds, sweepAB),
				Allowed: "jitter kinds, " + sim.NoBackoff + ", or ab"}
		}
		d := c
		if err := sim.ApplyJitter(&d, k); err != nil {
			return err
		}
	}
	return nil
}

// sweepLineKinds are what a line may be: a jitter kind, or no backoff.
func sweepLineKinds() []string { return append([]string{sim.NoBackoff}, backoff.JitterNames()...) }

// sweepMetricNames are sim.SweepMetrics' names, in their order.
func sweepMetricNames() []string {
	out := make([]string, len(sim.SweepMetrics))
	for i, m := range sim.SweepMetrics {
		out[i] = m.Name
	}
	return out
}
