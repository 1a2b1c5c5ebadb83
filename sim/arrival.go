package sim

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Arrival is when clients make their first call.
type Arrival uint8

const (
	// Burst: every client calls at time 0 (right after a restart).
	Burst Arrival = iota
	// Uniform: first calls uniform over [0, ArrivalWindow).
	Uniform
	// Clock: first calls at 0 and every retry rounded up to the next
	// multiple of ArrivalWindow, as clients that wait "until the next full
	// minute" do. Jitter smaller than the period is erased (the article's
	// orchestra).
	Clock
)

var arrivalNames = []string{"burst", "uniform", "clock"}

func (a Arrival) String() string { return nameOf(arrivalNames, int(a)) }

// ArrivalNames lists every Arrival's name, indexed by Arrival: the kinds Set and
// the URL accept. The slice is a copy.
func ArrivalNames() []string { return slices.Clone(arrivalNames) }

// arrivalForms are the forms of an arrival value, as CodeFormat's Args list them.
var arrivalForms = []string{"burst", "uniform:DURATION", "clock:DURATION"}

// parseArrival reads an arrival value in one of arrivalForms.
func parseArrival(v string) (Arrival, time.Duration, error) {
	kind, arg, hasArg := strings.Cut(v, ":")
	a, err := parseEnum[Arrival](ParamArrival, kind, arrivalNames)
	if err != nil || a == Burst && hasArg || a != Burst && !hasArg {
		return 0, 0, formatErr(ParamArrival, v, arrivalForms)
	}
	if a == Burst {
		return Burst, 0, nil
	}
	d, err := backoff.ParseDuration(ParamArrival, arg, MaxTime)
	if err != nil || d <= 0 {
		return 0, 0, positiveErr(ParamArrival, v, backoff.FormatDuration(MaxTime), "DURATION",
			"burst, uniform:DURATION or clock:DURATION (a positive duration up to 8760h)")
	}
	return a, d, nil
}

// begin starts the next client: its first call, at 0 or uniform over the
// arrival window. Advance begins every client before it pops an event, in
// slices like events, so that a page stays responsive from the start.
func (s *Sim) begin() {
	i := s.begun
	s.begun++
	t := 0.0
	if s.c.Arrival == Uniform {
		t = s.c.ArrivalWindow.Seconds() * s.src.float64()
	}
	var cl client
	if s.fast {
		s.try(i, &cl, t)
	} else {
		s.schedule(i, &cl, t, phSend)
	}
}

// align is when a retry due at t is sent: at t, or on a Clock arrival at
// the next tick of the shared clock.
func (s *Sim) align(t float64) float64 {
	if s.clock > 0 {
		return math.Ceil(t/s.clock) * s.clock
	}
	return t
}
