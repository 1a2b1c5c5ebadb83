package backoff

import (
	"math"
	"strconv"
	"strings"
)

// Century is 100 years of 365.25 days in seconds: FormatSeconds prints any
// longer time as ">100y". Such a wait only comes from a policy without a
// cap whose growth has run away (factor 100, 1000 attempts), and its digits
// would mean nothing.
const Century = 100 * 365.25 * 86400

// FormatSeconds prints a time in seconds for people: three significant
// digits in the largest unit that keeps the number at least 1 (µs, ms, s,
// min, h, d), ">100y" beyond a Century (and +Inf). 0 prints as 0.
func FormatSeconds(sec float64) string {
	switch {
	case math.IsNaN(sec):
		return "-"
	case sec == 0:
		return "0"
	case sec < 0:
		return "-" + FormatSeconds(-sec)
	case sec > Century:
		return ">100y"
	case sec < 1e-3:
		return sig3(sec*1e6) + "µs"
	case sec < 1:
		return sig3(sec*1e3) + "ms"
	case sec < 60:
		return sig3(sec) + "s"
	case sec < 3600:
		return sig3(sec/60) + "min"
	case sec < 86400:
		return sig3(sec/3600) + "h"
	}
	return sig3(sec/86400) + "d"
}

// sig3 prints x with three significant digits, dropping trailing zeros.
func sig3(x float64) string {
	digits := 2 - int(math.Floor(math.Log10(x)))
	if digits < 0 {
		digits = 0
	}
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if digits > 0 {
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		if s[len(s)-1] == '.' {
			s = s[:len(s)-1]
		}
	}
	return s
}

// Describe says in one line what the policy does, attempts stated with
// retries: "exponential: 1s * 2^(n-1), cap 30s before jitter; full jitter;
// 6 attempts = 5 retries".
func (p *Policy) Describe() string {
	b := FormatDuration(p.Base)
	f := strconv.FormatFloat(p.Factor, 'g', -1, 64)
	var g string
	switch p.Growth {
	case Exponential:
		e := "n-1"
		if p.FirstExponent != 0 {
			e = "n-1+" + strconv.Itoa(p.FirstExponent)
		}
		g = "exponential: " + b + " * " + f + "^(" + e + ")"
	case Linear:
		g = "linear: " + b + " * n"
	case Constant:
		g = "constant: " + b
	case None:
		g = "none: immediate retries"
	case ExpMinusOne:
		g = "exp-minus-one: " + b + " * (" + f + "^n - 1)"
	case Polynomial:
		g = "polynomial: " + b + " * (n-1)^" + f
	case Geometric:
		if p.Steps > 0 {
			g = "geometric: " + b + " to " + FormatDuration(p.Cap) + " over " + strconv.Itoa(p.Steps) + " steps"
		} else {
			g = "geometric without steps: " + b
		}
	}
	if p.Offset > 0 {
		g += " + " + FormatDuration(p.Offset)
	}
	if p.Cap > 0 && p.Growth != Geometric {
		g += ", cap " + FormatDuration(p.Cap)
		switch {
		case p.Jitter.HistoryDependent():
			g += " on each delay" // whatever the mode: see Policy.capsDelay
		case p.CapMode == CapBeforeJitter:
			g += " before jitter"
		case p.CapMode == CapAfterJitter:
			g += " after jitter"
		case p.CapMode == CapExact:
			g += " exact (un-jittered once reached)"
		}
	}
	if p.Floor > 0 {
		g += ", floor " + FormatDuration(p.Floor)
	}
	if p.ImmediateFirst {
		g += ", first retry immediate"
	}
	j := p.jitterWords()
	if p.Quantum > 0 {
		j += " in steps of " + FormatDuration(p.Quantum)
	}
	if p.FirstUnjittered {
		j += " (not on retry 1)"
	}
	a := "no attempt limit"
	if p.Attempts > 0 {
		a = strconv.Itoa(p.Attempts) + " attempts = " + strconv.Itoa(p.Attempts-1) + " retries"
		if p.Attempts == 2 {
			a = "2 attempts = 1 retry"
		}
		if p.Attempts == 1 {
			a = "1 attempt = no retries"
		}
	}
	out := g + "; " + j + "; " + a
	if p.Deadline > 0 {
		out += "; deadline " + FormatDuration(p.Deadline)
	}
	return out
}

// FormatShort prints f to prec significant digits (-1: as many as it
// needs) with a plain exponent, 1e300 rather than 1e+300: a number quoted
// in an error.
func FormatShort(f float64, prec int) string {
	s := strconv.FormatFloat(f, 'g', prec, 64)
	m, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return m + "e" + sign + strings.TrimLeft(exp, "+-0")
}

// FormatCount prints a count: whole below 100,000, else two significant
// digits and an exponent (1.5e6).
func FormatCount(f float64) string {
	if f < 1e5 {
		return strconv.FormatFloat(math.Round(f), 'f', 0, 64)
	}
	return FormatShort(f, 2)
}
