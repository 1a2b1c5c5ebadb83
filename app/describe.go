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
	if p.Floor > 0 {
		g += ", " + l.F("desc.floor", d(p, backoff.ParamFloor))
	}
	if p.ImmediateFirst {
		g += ", " + l.T("desc.immediate-first")
	}
	suffix, fields := p.JitterWords()
	args := make([]string, len(fields))
	for i, f := range fields {
		if isDuration(f) {
			args[i] = d(p, f)
		} else {
			args[i] = l.NumText(p.Get(f))
		}
	}
	j := l.F("desc.jitter."+suffix, args...)
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

// kindName is a jitter kind's short name in l ("full", "полный").
func kindName(l i18n.Lang, kind string) string { return l.T("jname." + kind) }
