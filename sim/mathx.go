package sim

import "math"

// logx and expx are math.Log and math.Exp as the portable Go code
// computes them (math/log.go and math/exp.go; Copyright 2009 The Go
// Authors, BSD-style license, see Go's LICENSE). On amd64 the math
// package uses assembly versions that may differ from these in the last
// bit, and under WebAssembly it uses these: a simulator whose runs must
// agree bit for bit natively and in the browser draws its exponential
// and log-normal times through these copies. TestServiceTime checks
// them against the math package to within an ulp.
func logx(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 /* 3fe62e42 fee00000 */
		ln2Lo = 1.90821492927058770002e-10 /* 3dea39ef 35793c76 */
		l1    = 6.666666666666735130e-01   /* 3FE55555 55555593 */
		l2    = 3.999999999940941908e-01   /* 3FD99999 9997FA04 */
		l3    = 2.857142874366239149e-01   /* 3FD24924 94229359 */
		l4    = 2.222219843214978396e-01   /* 3FCC71C5 1D8E78AF */
		l5    = 1.818357216161805012e-01   /* 3FC74664 96CB03DE */
		l6    = 1.531383769920937332e-01   /* 3FC39A09 D078C69F */
		l7    = 1.479819860511658591e-01   /* 3FC2F112 DF3E5244 */
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * (l1 + s4*(l3+s4*(l5+s4*l7)))
	t2 := s4 * (l2 + s4*(l4+s4*l6))
	r := t1 + t2
	hfsq := 0.5 * f * f
	return k*ln2Hi - ((hfsq - (s*(hfsq+r) + k*ln2Lo)) - f)
}

func expx(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
		p1        = 1.66666666666666657415e-01
		p2        = -2.77777777770155933842e-03
		p3        = 6.61375632143793436117e-05
		p4        = -1.65339022054652515390e-06
		p5        = 4.13813679705723846039e-08
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(log2e*x - 0.5)
	case x > 0:
		k = int(log2e*x + 0.5)
	}
	hi := x - float64(k)*ln2Hi
	lo := float64(k) * ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// frexp is math.Frexp for a finite x > 0, which logx has: under
// WebAssembly math.Frexp is a call Go does not inline, a quarter of
// logx's time in open traffic's arrivals (BenchmarkOpenMillion).
// TestFrexpMatches holds it to math.Frexp bit for bit.
func frexp(x float64) (frac float64, exp int) {
	const (
		mask  = 0x7ff
		shift = 64 - 11 - 1
		bias  = 1023
	)
	b := math.Float64bits(x)
	e := int(b>>shift) & mask
	if e == 0 { // subnormal: scale it into the normal range first
		b = math.Float64bits(x * (1 << 52))
		e = int(b>>shift)&mask - 52
	}
	return math.Float64frombits(b&^(mask<<shift) | (bias-1)<<shift), e - bias + 1
}
