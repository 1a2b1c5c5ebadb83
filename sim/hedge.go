package sim

import (
	"math"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Hedge is when a caller sends a second copy of a call that has not been
// answered: after Delay, or (Percentile > 0) after that percentile of the
// call latencies seen so far in the run, once hedgeWarmup of them have
// been seen. The first success wins (Dean and Barroso, "The Tail at
// Scale", CACM 2013). The zero value sends no hedges. Text form (Set/Get
// "hedge"): none | DURATION | pNN (p95, p99.9).
type Hedge struct {
	Delay      time.Duration
	Percentile float64 // in (0, 100)
}

// hedgeWarmup is how many call latencies a percentile hedge waits for
// before it sends any.
const hedgeWarmup = 100

var hedgeForms = []string{"none", "DURATION", "pNN"}

// On reports whether h sends hedges.
func (h Hedge) On() bool { return h.Delay > 0 || h.Percentile > 0 }

func (h *Hedge) text() string {
	switch {
	case h.Percentile > 0:
		return "p" + formatFloat(h.Percentile)
	case h.Delay > 0:
		return backoff.FormatDuration(h.Delay)
	}
	return "none"
}

func (h *Hedge) validate() error {
	if h.Percentile != 0 && !(h.Percentile > 0 && h.Percentile < 100) || h.Percentile > 0 && h.Delay != 0 {
		return &backoff.FieldError{Field: ParamHedge, Value: clip(h.text()), Code: backoff.CodeFormat, Args: hedgeForms, Part: "NN",
			Allowed: "none, a duration above 0s and at most " + backoff.FormatDuration(MaxTime) + ", or pNN with NN above 0 and below 100"}
	}
	if err := backoff.CheckDuration(ParamHedge, h.Delay, 0, MaxTime); err != nil {
		return err
	}
	return nil
}

func parseHedge(v string) (Hedge, error) {
	bad := &backoff.FieldError{Field: ParamHedge, Value: clip(v), Code: backoff.CodeFormat, Args: hedgeForms,
		Allowed: "none, a duration above 0s and at most " + backoff.FormatDuration(MaxTime) + ", or pNN with NN above 0 and below 100"}
	switch {
	case v == "none" || v == "":
		return Hedge{}, nil
	case v == "0" || v == "0s":
		// A hedge at once would be two calls for every try: a user who
		// writes 0 more likely means none, so the value is refused.
		return Hedge{}, bad
	case strings.HasPrefix(v, "p"):
		f, err := backoff.ParseFloat(ParamHedge, v[1:], -math.MaxFloat64, math.MaxFloat64)
		if err != nil || !(f > 0 && f < 100) {
			return Hedge{}, bad
		}
		return Hedge{Percentile: f}, nil
	}
	// Any other refusal is the same one: a negative duration was told
	// "from 0s", which the zero's refusal contradicted.
	d, err := backoff.ParseDuration(ParamHedge, v, MaxTime)
	if err != nil {
		return Hedge{}, bad
	}
	return Hedge{Delay: d}, nil
}
