package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// describe says in one line, in l, what the policy does: the page's
// counterpart of backoff's Policy.Describe (which the CLI prints).
func describe(l i18n.Lang, p backoff.Policy) string {
	d := func(v backoff.Policy, name string) string { return l.Duration(durationOf(v, name), v.Get(name)) }
	b := d(p, backoff.ParamBase)
	f := l.NumText(p.Get(backoff.ParamFactor))
	var g string
	switch p.Growth {
	case backoff.Exponential:
		e := "n-1"
		if p.FirstExponent != 0 {
			e += "+" + p.Get(backoff.ParamFirstExponent)
		}
		g = l.F("desc.exponential", b, f, e)
	case backoff.Linear:
		g = l.F("desc.linear", b)
	case backoff.Constant:
		g = l.F("desc.constant", b)
	case backoff.None:
		g = l.T("desc.none")
	case backoff.ExpMinusOne:
		g = l.F("desc.exp-minus-one", b, f)
	case backoff.Polynomial:
		g = l.F("desc.polynomial", b, f)
	case backoff.Geometric:
		if p.Steps > 0 {
			g = l.F("desc.geometric", b, d(p, backoff.ParamCap), p.Get(backoff.ParamSteps))
		} else {
			g = l.F("desc.geometric-0", b)
		}
	}
	if p.Offset > 0 {
		g += " + " + d(p, backoff.ParamOffset)
	}
	if p.Cap > 0 && p.Growth != backoff.Geometric {
		g += ", " + l.F("desc.cap-"+p.CapMode.String(), d(p, backoff.ParamCap))
	}
	if p.ImmediateFirst {
		g += ", " + l.T("desc.immediate-first")
	}
	var j string
	switch p.Jitter {
	case backoff.NoJitter:
		j = l.T("desc.no-jitter")
	case backoff.Proportional:
		j = l.F("desc.jitter-proportional", l.NumText(p.Get(backoff.ParamJitterLo)), l.NumText(p.Get(backoff.ParamJitterHi)))
	case backoff.Additive:
		a := d(p, backoff.ParamJitterAdd)
		if p.JitterAddScaled {
			a += " × n"
		}
		j = l.F("desc.jitter-additive", a)
	default:
		j = l.F("desc.jitter", kindName(l, "jitter", p.Jitter.String()))
	}
	if p.Quantum > 0 {
		j += " " + l.F("desc.quantum", d(p, backoff.ParamQuantum))
	}
	if p.FirstUnjittered {
		j += " " + l.T("desc.first-unjittered")
	}
	a := l.T("desc.unlimited")
	if p.Attempts > 0 {
		a = l.F("desc.attempts", l.Count(int64(p.Attempts), "unit.attempts"), l.Count(int64(p.Attempts-1), "unit.retries"))
	}
	out := g + "; " + j + "; " + a
	if p.Deadline > 0 {
		out += "; " + l.F("desc.deadline", d(p, backoff.ParamDeadline))
	}
	return out
}

// kindName is a kind's short name in l: the catalog label up to its colon
// ("full: U[0, d)" -> "full").
func kindName(l i18n.Lang, family, name string) string {
	s := l.T(family + "." + name)
	for i := 0; i < len(s); i++ {
		if s[i] == ':' || s[i] == '(' {
			for i > 0 && s[i-1] == ' ' {
				i--
			}
			return s[:i]
		}
	}
	return s
}
