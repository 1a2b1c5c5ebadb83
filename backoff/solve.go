package backoff

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Target is the total a Goal bounds: the worst case or the expected wait of
// a run whose every call fails, as a Table's Total.Max and Total.Mean give
// them.
type Target uint8

const (
	// WorstTotal bounds Table.Total.Max: exact for every jitter kind.
	WorstTotal Target = iota
	// ExpectedTotal bounds Table.Total.Mean: exact only where the table's
	// mean is a closed form (no decorrelated jitter, no deadline).
	ExpectedTotal
)

var targetNames = []string{"worst-total", "expected-total"}

// String is the target's name, as the CLI's flag and the page spell it.
func (t Target) String() string { return nameOf(targetNames, int(t)) }

// SolveKnobs are the knobs Solve can fit, as Set names them.
var SolveKnobs = []string{ParamBase, ParamFactor, ParamCap, ParamAttempts}

// Goal asks for the largest value of Knob (one of SolveKnobs) whose Target
// total stays within Total, the policy's other knobs as they are.
type Goal struct {
	Knob   string
	Target Target
	Total  time.Duration
}

// Solution is a solved policy and its totals, in seconds.
type Solution struct {
	// Policy is the input with the knob set to the largest value that fits.
	Policy Policy
	Worst  float64
	// Expected is exact when ExpectedExact; otherwise it is left 0 (a
	// table of Policy estimates it).
	Expected      float64
	ExpectedExact bool
	// Binding is false when even the knob's largest allowed value fits (or,
	// for the cap, no cap at all): the target does not limit the knob.
	Binding bool
}

// within is the comparison every solve makes: the total as a table sums it,
// in float64 seconds, at most the target. No tolerance: the answer is the
// largest value the table itself keeps within the target.
func within(total, target float64) bool { return total <= target }

// Solve finds the largest value of g.Knob whose total stays within
// g.Total. Durations are exact to the nanosecond, the factor to the last
// bit of a float64, attempts to one. Monotonicity makes bisection exact:
// every total grows (weakly) with base, factor, cap and attempts.
//
// Errors are *FieldErrors: a bad knob or a knob that does not change this
// policy's total (field "for", the knobs that do as the choices); an
// expected total that is sampled rather than exact (CodeSampledTotal); a
// target below the least total the other knobs allow (CodeTotalAtLeast,
// with that total); a policy that does not validate.
func Solve(p Policy, g Goal) (Solution, error) {
	if err := p.Validate(); err != nil {
		return Solution{}, err
	}
	field := g.Target.String()
	if int(g.Target) >= len(targetNames) {
		return Solution{}, choiceErr("target", strconv.Itoa(int(g.Target)), targetNames)
	}
	if err := CheckDuration(field, g.Total, 0, MaxDeadline); err != nil {
		return Solution{}, err
	}
	useful := p.solvableKnobs()
	if !contains(useful, g.Knob) {
		e := choiceErr("for", truncate(g.Knob, maxInput), useful)
		if contains(SolveKnobs, g.Knob) {
			e.Allowed += "; " + g.Knob + " does not change this policy's total"
		}
		return Solution{}, e
	}
	if g.Target == ExpectedTotal {
		switch {
		case p.Jitter.HistoryDependent():
			return Solution{}, sampledErr(field, g.Total, ParamJitter, p.Jitter.String())
		case p.Deadline > 0:
			return Solution{}, sampledErr(field, g.Total, ParamDeadline, FormatDuration(p.Deadline))
		}
	}
	if g.Knob != ParamAttempts && p.Deadline > 0 {
		// Under a deadline the total falls as well as rises with these
		// knobs (a larger base lets fewer retries start before it), so no
		// largest value is well defined; attempts stay monotone.
		return Solution{}, needsErr(ParamDeadline, FormatDuration(p.Deadline), "for", g.Knob, "0s", "0s",
			"0s when solving for "+g.Knob+": under a deadline the total falls as well as rises with it; solve for attempts, or drop the deadline")
	}
	if g.Knob != ParamAttempts && p.Attempts == 0 {
		return Solution{}, &FieldError{Field: ParamAttempts, Value: "0", Code: CodeInt,
			Args:    []string{"1", strconv.Itoa(MaxAttempts)},
			Allowed: fmt.Sprintf("a whole number from 1 to %d: without a limit the total has no bound (or solve for attempts)", MaxAttempts)}
	}
	target := g.Total.Seconds()
	total := func(q *Policy) float64 {
		w, m := q.exactTotals()
		if g.Target == ExpectedTotal {
			return m
		}
		return w
	}
	q := p
	var binding bool
	switch g.Knob {
	case ParamAttempts:
		q.Attempts, binding = p.solveAttempts(g.Target, target)
	case ParamFactor:
		lo, hi := 1.0, MaxFactor
		if p.Growth == Polynomial {
			lo, hi = 0, MaxPolynomialExponent
		}
		fits := func(f float64) bool { q.Factor = f; return within(total(&q), target) }
		if !fits(lo) {
			return Solution{}, atLeastErr(field, g.Total, total(&q), ParamFactor, formatFloat(lo))
		}
		var f float64
		f, binding = largestFloat(lo, hi, fits)
		q.Factor = f
	case ParamBase, ParamCap:
		dst := &q.Base
		lo, hi := time.Duration(0), MaxDuration
		if p.Jitter.HistoryDependent() {
			lo = time.Nanosecond
		}
		if g.Knob == ParamBase && p.Cap > 0 && p.Growth != None {
			hi = p.Cap // a cap below the base does not validate
		}
		if g.Knob == ParamCap {
			dst = &q.Cap
			lo = max(p.Base, p.Floor, time.Nanosecond) // nor one below the floor
			// No cap at all is larger than any: the cap does not bind.
			q.Cap = 0
			if within(total(&q), target) {
				w, m := q.exactTotals()
				return Solution{Policy: q, Worst: w, Expected: m, ExpectedExact: q.meanExact()}, nil
			}
		}
		fits := func(d time.Duration) bool { *dst = d; return within(total(&q), target) }
		if !fits(lo) {
			return Solution{}, atLeastErr(field, g.Total, total(&q), g.Knob, FormatDuration(lo))
		}
		var d time.Duration
		d, binding = largestDuration(lo, hi, fits)
		*dst = d
		if g.Knob == ParamCap {
			binding = true // a cap was needed: without one the total is over
		}
	}
	w, m := q.exactTotals()
	return Solution{Policy: q, Worst: w, Expected: m, ExpectedExact: q.meanExact(), Binding: binding}, nil
}

// solvableKnobs are the knobs that change p's totals.
func (p *Policy) solvableKnobs() []string {
	var ks []string
	hist := p.Jitter.HistoryDependent()
	if p.Growth != None || hist {
		ks = append(ks, ParamBase)
	}
	if !hist && (p.Growth == Exponential || p.Growth == ExpMinusOne || p.Growth == Polynomial) {
		ks = append(ks, ParamFactor)
	}
	if p.Growth != None || hist {
		ks = append(ks, ParamCap)
	}
	return append(ks, ParamAttempts)
}

// meanExact reports whether a table's expected total of p is a closed form.
func (p *Policy) meanExact() bool { return !p.Jitter.HistoryDependent() && p.Deadline == 0 }

// cumTotals walks p's retries 1..n as NewTable does, without the Monte
// Carlo: after each retry i it calls f with the worst and expected totals
// of a run of i retries, and stops when f returns false or no run reaches
// the next retry (the deadline). The worst case is exact for every kind,
// Polly's V2 by its telescoped sum (v2CumBounds), a binding deadline
// clipping it; the expected total only where meanExact.
func (p *Policy) cumTotals(n int, f func(i int, worst, mean float64) bool) {
	deadline := p.Deadline.Seconds()
	off := p.Offset.Seconds()
	var cumMin, cumMean, sumMax float64
	for i := 1; i <= n; i++ {
		row := p.analyticRow(i)
		if p.Deadline > 0 && cumMin+row.Min > deadline {
			return // no run reaches this retry
		}
		cumMin += row.Min
		cumMean += row.Mean
		sumMax += row.Max
		worst := sumMax
		if f := p.Jitter.kind().sumMax; f != nil {
			m := i
			if p.ImmediateFirst {
				m--
			}
			worst = math.Min(sumMax, f(p, m)+off*float64(i))
		}
		if p.Deadline > 0 {
			worst = math.Min(worst, deadline)
		}
		if !f(i, worst, cumMean) {
			return
		}
	}
}

// exactTotals are the worst and expected totals in seconds, as NewTable
// gives Total.Max and Total.Mean (see cumTotals). Attempts must be
// positive.
func (p *Policy) exactTotals() (worst, mean float64) {
	p.cumTotals(p.Retries(), func(_ int, w, m float64) bool { worst, mean = w, m; return true })
	return worst, mean
}

// solveAttempts is the largest attempt count whose total stays within
// target, from 1 (no retries, no wait) to MaxAttempts, in one pass over
// the retries; binding is false when MaxAttempts fits.
func (p *Policy) solveAttempts(t Target, target float64) (attempts int, binding bool) {
	attempts = MaxAttempts
	p.cumTotals(MaxAttempts-1, func(i int, worst, mean float64) bool {
		total := worst
		if t == ExpectedTotal {
			total = mean
		}
		if !within(total, target) {
			attempts, binding = i, true // i attempts make i-1 retries
			return false
		}
		return true
	})
	return attempts, binding
}

// largestDuration is the largest d in [lo, hi] with fits(d), given
// fits(lo); binding is false when that is hi. fits must be monotone.
func largestDuration(lo, hi time.Duration, fits func(time.Duration) bool) (time.Duration, bool) {
	if fits(hi) {
		return hi, false
	}
	for hi-lo > 1 { // fits(lo), !fits(hi)
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}

// largestFloat is largestDuration for a float64 knob: it stops when lo and
// hi are adjacent floats, so the answer is exact to the last bit.
func largestFloat(lo, hi float64, fits func(float64) bool) (float64, bool) {
	if fits(hi) {
		return hi, false
	}
	for range 2100 { // 2 * 1075 halvings reach adjacent floats from any range
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}

func atLeastErr(field string, target time.Duration, least float64, knob, at string) *FieldError {
	l := FormatDuration(Seconds(least))
	return &FieldError{Field: field, Value: FormatDuration(target), Code: CodeTotalAtLeast,
		Args:    []string{l, knob, at},
		Allowed: fmt.Sprintf("at least %s: the least total the other knobs allow, with %s at its least (%s)", l, knob, at)}
}

func sampledErr(field string, target time.Duration, other, otherValue string) *FieldError {
	return &FieldError{Field: field, Value: FormatDuration(target), Code: CodeSampledTotal,
		Args: []string{otherValue}, Other: other,
		Allowed: fmt.Sprintf("a worst-total instead: with %s %s the expected total is sampled, not exact", other, otherValue)}
}
