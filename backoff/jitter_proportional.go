package backoff

import "strconv"

// proportionalKind is d * U[lo, hi): gRPC's 0.8-1.2, cenkalti's
// randomization factor. With hi above 1 a delay can pass a cap applied
// before the jitter.
var proportionalKind = jitterKind{
	name:   "proportional",
	params: []string{ParamJitterLo, ParamJitterHi},
	defaults: func(p *Policy) {
		if p.JitterLo == 0 && p.JitterHi == 0 {
			p.JitterLo, p.JitterHi = 0.8, 1.2
		}
	},
	validate: func(p *Policy) error {
		if err := CheckFloat(ParamJitterLo, p.JitterLo, 0, MaxJitterFactor); err != nil {
			return err
		}
		if err := CheckFloat(ParamJitterHi, p.JitterHi, 0, MaxJitterFactor); err != nil {
			return err
		}
		if p.JitterLo > p.JitterHi {
			return pairErr(ParamJitterLo, p.Get(ParamJitterLo), CodeAtMost, ParamJitterHi, p.Get(ParamJitterHi))
		}
		return nil
	},
	span: func(p *Policy) (lo, hi float64) { return p.JitterLo, p.JitterHi },
	fit: func(p *Policy, lo, hi float64) bool {
		p.JitterLo, p.JitterHi = lo, hi
		return true
	},
	spread: func(p *Policy, _ int, g, u float64) float64 { return ProportionalJitter(g, p.JitterLo, p.JitterHi, u) },
	dist:   func(p *Policy, _ int, g float64) dist { return dist{a: g * p.JitterLo, b: g * p.JitterHi} },
	lifts:  func(p *Policy) bool { return p.JitterHi > 1 },
	words: func(p *Policy) string {
		return "proportional jitter x U[" + strconv.FormatFloat(p.JitterLo, 'g', 12, 64) + ", " + strconv.FormatFloat(p.JitterHi, 'g', 12, 64) + ")"
	},
	formula: func(p *Policy) string {
		return "d*U[" + strconv.FormatFloat(p.JitterLo, 'g', 10, 64) + "," + strconv.FormatFloat(p.JitterHi, 'g', 10, 64) + ")"
	},
	desc: func(*Policy) (string, []string) { return "proportional", []string{ParamJitterLo, ParamJitterHi} },
}

// ProportionalJitter is d * U[lo, hi).
func ProportionalJitter(d, lo, hi, u float64) float64 { return linearSpread(d, lo, hi-lo, u) }
