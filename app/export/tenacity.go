package export

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(5, target{Target: Target{Name: "tenacity", Language: "Python", Syntax: "python", Library: "tenacity", Version: "9.1.4",
		Source: "tenacity/wait.py, tenacity/stop.py"}, short: "tenacity", write: writeTenacity})
}

// writeTenacity writes a Python module for tenacity.
//
// tenacity 9.1.4 (wait.py, stop.py), with attempt_number the try that just
// failed (1 for the first): wait_exponential(multiplier, max, exp_base) is
// min(multiplier * exp_base^(attempt_number-1), max);
// wait_random_exponential draws U[0, that]; wait_exponential_jitter(initial,
// max, exp_base, jitter) is min(initial * exp_base^(attempt_number-1) +
// U(0, jitter), max); wait_fixed, wait_random(min, max) and
// wait_incrementing(start, increment, max) are what they say, and waits
// add up with +. stop_after_attempt counts the first call;
// stop_before_delay stops when the next retry would start at or after
// max_delay, which is the playground's deadline (stop_after_delay would
// let one retry start past it).
//
// So d * U[lo, hi) on a capped exponential is exact as
// wait_exponential(multiplier=lo*base, max=lo*cap) +
// wait_random_exponential(multiplier=(hi-lo)*base, max=(hi-lo)*cap).
func writeTenacity(j *job) string {
	e := &j.eff
	lib := "tenacity"
	if e.Jitter.HistoryDependent() {
		j.replaceJitter(fullOnGrowth, lib+" has no "+e.Jitter.String()+" jitter (its waits do not depend on the previous one)")
	}
	if e.Jitter == backoff.Additive && e.JitterAddScaled {
		j.replaceJitter(func(e *backoff.Policy) { e.JitterAddScaled = false },
			lib+"'s wait_random does not grow with the retry number: the amplitude stays "+backoff.FormatDuration(e.JitterAdd))
	}
	if e.Jitter == backoff.NoJitter || e.Jitter == backoff.Additive {
		j.fitGrowth(backoff.Exponential, backoff.Constant, backoff.Linear)
	} else {
		// No random wait grows linearly: linear growth with a
		// proportional jitter is approximated by an exponential.
		j.fitGrowth(backoff.Exponential, backoff.Constant)
	}
	// min is a floor on the exponential waits alone, and
	// wait_exponential_jitter has none: with a cap after jitter the
	// floor goes, without a cap wait_exponential(min=) + wait_random is
	// exact.
	additive := e.Jitter == backoff.Additive
	floorOK := e.Growth == backoff.Exponential && (e.Jitter == backoff.NoJitter || e.Jitter == backoff.Full ||
		additive && (e.CapMode != backoff.CapAfterJitter || e.Cap == 0))
	j.dropExtras(true, floorOK)
	// wait_exponential_jitter clamps after adding its jitter: the only
	// cap after jitter tenacity has.
	jitterWait := additive && e.Growth == backoff.Exponential && e.Floor == 0 && (e.CapMode == backoff.CapAfterJitter || e.Cap == 0)
	if !jitterWait {
		j.fitCapMode(backoff.CapBeforeJitter, "caps the exponential wait before adding the random one")
	}
	j.fitRetryAfter(backoff.RetryAfterIgnore, 0, "ignores Retry-After unless a wait_exception reads it")

	s := func(d time.Duration) string { return pySeconds(d) }
	cap := ""
	if e.Cap > 0 {
		cap = ", max=" + s(e.Cap)
	}
	scaled := func(f float64) (time.Duration, string) {
		if e.Cap == 0 {
			return scale(e.Base, f), ""
		}
		return scale(e.Base, f), ", max=" + s(scale(e.Cap, f))
	}
	var waits []string
	var names []string
	use := func(name, call string) {
		waits = append(waits, call)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	expBase := ", exp_base=" + pyFloat(e.Factor)
	if e.Floor > 0 {
		expBase += ", min=" + s(e.Floor)
	}
	switch lo, hi, ok := e.Span(); {
	case jitterWait:
		use("wait_exponential_jitter", fmt.Sprintf("wait_exponential_jitter(initial=%s%s%s, jitter=%s)", s(e.Base), cap, expBase, s(e.JitterAdd)))
	case e.Jitter == backoff.Additive:
		j.baseWait(use, 1, 1, s, scaled, expBase)
		use("wait_random", fmt.Sprintf("wait_random(0, %s)", s(e.JitterAdd)))
	case ok:
		j.baseWait(use, lo, hi, s, scaled, expBase)
	}
	if e.Offset > 0 {
		use("wait_fixed", fmt.Sprintf("wait_fixed(%s)", s(e.Offset)))
	}
	if len(waits) == 0 {
		use("wait_none", "wait_none()")
	}
	var stops []string
	if e.Attempts > 0 {
		names = append(names, "stop_after_attempt")
		stops = append(stops, fmt.Sprintf("stop_after_attempt(%d)", e.Attempts))
	}
	if e.Deadline > 0 {
		names = append(names, "stop_before_delay")
		stops = append(stops, fmt.Sprintf("stop_before_delay(%s)", s(e.Deadline)))
	}
	if len(stops) == 0 {
		names = append(names, "stop_never")
		stops = append(stops, "stop_never")
	}

	var b strings.Builder
	j.header(&b, "# ", "")
	slices.Sort(names)
	fmt.Fprintf(&b, "from tenacity import retry, %s\n\n", strings.Join(names, ", "))
	comment(&b, "# ", "Waits are in seconds; the wait before retry n is "+tenacityFormula(*e)+".")
	if slices.Contains(names, "wait_exponential_jitter") {
		comment(&b, "# ", "(tenacity after 9.1.4 renames wait_exponential_jitter's initial to multiplier.)")
	}
	b.WriteString("retry_policy = retry(\n")
	stop := strings.Join(stops, " | ")
	switch {
	case e.Attempts > 0 && e.Deadline > 0:
		fmt.Fprintf(&b, "    # %s, and no retry starting %s or more after the first call\n", attemptsText(e.Attempts), backoff.FormatDuration(e.Deadline))
		fmt.Fprintf(&b, "    stop=%s,\n", stop)
	case e.Attempts > 0:
		fmt.Fprintf(&b, "    stop=%s,  # %s\n", stop, attemptsText(e.Attempts))
	case e.Deadline > 0:
		fmt.Fprintf(&b, "    stop=%s,  # no attempt limit; no retry starting %s or more after the first call\n", stop, backoff.FormatDuration(e.Deadline))
	default:
		fmt.Fprintf(&b, "    stop=%s,  # no attempt limit, no deadline\n", stop)
	}
	fmt.Fprintf(&b, "    wait=%s,\n", strings.Join(waits, "\n    + "))
	b.WriteString("    reraise=True,\n)\n\n\n@retry_policy\ndef call_service():\n    ...\n")
	return b.String()
}

// baseWait adds the waits of d * U[lo, hi) on the schedule's growth:
// lo * d fixed, plus (hi-lo) * d drawn.
func (j *job) baseWait(use func(name, call string), lo, hi float64, s func(time.Duration) string,
	scaled func(float64) (time.Duration, string), expBase string) {
	e := j.eff
	if lo > 0 {
		b, cap := scaled(lo)
		switch e.Growth {
		case backoff.Exponential:
			use("wait_exponential", fmt.Sprintf("wait_exponential(multiplier=%s%s%s)", s(b), cap, expBase))
		case backoff.Linear:
			use("wait_incrementing", fmt.Sprintf("wait_incrementing(start=%s, increment=%s%s)", s(b), s(b), cap))
		default:
			use("wait_fixed", fmt.Sprintf("wait_fixed(%s)", s(b)))
		}
	}
	if hi > lo {
		b, cap := scaled(hi - lo)
		switch e.Growth {
		case backoff.Exponential:
			use("wait_random_exponential", fmt.Sprintf("wait_random_exponential(multiplier=%s%s%s)", s(b), cap, expBase))
		default:
			use("wait_random", fmt.Sprintf("wait_random(0, %s)", s(b)))
		}
	}
}

// tenacityFormula says the schedule's wait before retry n, for the
// snippet's comment.
func tenacityFormula(e backoff.Policy) string {
	var raw string
	b := backoff.FormatDuration(e.Base)
	switch e.Growth {
	case backoff.Exponential:
		raw = b + " * " + formatFloat(e.Factor) + "^(n-1)"
	case backoff.Linear:
		raw = b + " * n"
	default:
		raw = b
	}
	d := raw
	if e.Cap > 0 && e.Growth != backoff.Constant {
		d = "min(" + raw + ", " + backoff.FormatDuration(e.Cap) + ")"
	}
	lo := "0"
	if e.Floor > 0 {
		lo = backoff.FormatDuration(e.Floor)
		d = "max(" + lo + ", " + d + ")"
	}
	var w string
	switch e.Jitter {
	case backoff.NoJitter:
		w = d
	case backoff.Full:
		w = "U[" + lo + ", d] with d = " + d
	case backoff.Equal:
		w = "d/2 + U[0, d/2] with d = " + d
	case backoff.Proportional:
		w = "d * U[" + shortFloat(e.JitterLo) + ", " + shortFloat(e.JitterHi) + "] with d = " + d
	case backoff.Additive:
		a := backoff.FormatDuration(e.JitterAdd)
		w = "d + U[0, " + a + "] with d = " + d
		if e.Cap > 0 && e.CapMode == backoff.CapAfterJitter {
			w = "min(" + raw + " + U[0, " + a + "], " + backoff.FormatDuration(e.Cap) + ")"
		}
	}
	if e.Offset > 0 {
		w += ", plus " + backoff.FormatDuration(e.Offset)
	}
	return w
}
