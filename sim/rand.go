package sim

import "math/rand/v2"

// splitmix is SplitMix64 (Steele, Lea, Flood 2014) as a rand.Source. The
// simulator draws several numbers per call; PCG's 128-bit multiply is
// emulated with four 32-bit ones under WebAssembly, which made it the
// largest cost there. SplitMix64 uses 64-bit multiplies only, passes
// BigCrush, and is more than random enough to jitter delays.
type splitmix struct{ s uint64 }

func (x *splitmix) Uint64() uint64 {
	x.s += 0x9e3779b97f4a7c15
	z := x.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// newRand is the one random source of a run with this seed.
func newRand(seed uint64) *rand.Rand { return rand.New(&splitmix{seed}) }
