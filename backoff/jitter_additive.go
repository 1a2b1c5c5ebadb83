package backoff

import "math"

// additiveKind is d + U[0, a): a fixed amount of noise on top of the
// delay (Sidekiq's rand(10 * (count + 1)), tenacity's wait_random), its
// amplitude a scaled by the retry number when JitterAddScaled.
var additiveKind = jitterKind{
	name:    "additive",
	params:  []string{ParamJitterAdd},
	flags:   []string{ParamJitterAddScaled},
	quantum: true,
	defaults: func(p *Policy) {
		if p.JitterAdd == 0 {
			p.JitterAdd = p.Base
		}
	},
	spread: func(p *Policy, n int, g, u float64) float64 {
		return g + AdditiveJitter(p.additiveAmplitude(n), p.Quantum.Seconds(), u)
	},
	dist: func(p *Policy, n int, g float64) dist {
		a := p.additiveAmplitude(n)
		if q := p.Quantum.Seconds(); q > 0 {
			k := int(math.Ceil(a/q-1e-9)) - 1
			return dist{a: g, q: q, k: max(k, 0)}
		}
		return dist{a: g, b: g + a}
	},
	lifts: func(p *Policy) bool { return p.JitterAdd != 0 },
	words: func(p *Policy) string { return "additive jitter + U[0, " + p.additiveText(" * n") + ")" },
	formula: func(p *Policy) string {
		return "d+U[0," + p.additiveText("*n") + ")"
	},
	desc: func(p *Policy) (string, []string) {
		if p.JitterAddScaled {
			return "additive-scaled", []string{ParamJitterAdd}
		}
		return "additive", []string{ParamJitterAdd}
	},
}

// additiveAmplitude is the additive jitter's amplitude for retry n.
func (p *Policy) additiveAmplitude(n int) float64 {
	a := p.JitterAdd.Seconds()
	if p.JitterAddScaled {
		if p.ImmediateFirst {
			n--
		}
		a *= float64(n)
	}
	return a
}

// additiveText is the amplitude in words, with times after it when it
// grows with n.
func (p *Policy) additiveText(times string) string {
	a := FormatDuration(p.JitterAdd)
	if p.JitterAddScaled {
		a += times
	}
	return a
}

// AdditiveJitter is U[0, a). With a quantum q > 0 it is q times a whole
// number drawn uniformly from 0 .. ceil(a/q)-1 (Ruby's rand(a)).
func AdditiveJitter(a, q, u float64) float64 {
	if q > 0 {
		k := math.Ceil(a/q - 1e-9)
		return q * math.Floor(u*k)
	}
	return a * u
}
