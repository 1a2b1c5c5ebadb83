package sim

import (
	"math"
	"testing"
)

// The simulator's inlined draws must be rand.Rand's, draw for draw: the
// golden results (and every seed users have shared) depend on it.
func TestNormMatchesRand(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 63} {
		s := &Sim{lat: 0, sd: 1, src: splitmix{seed}}
		s.rng = newRandOn(&s.src)
		ref := newRand(seed)
		slow := 0
		for k := range 2_000_000 {
			if k%3 == 2 {
				if got, want := s.src.float64(), ref.Float64(); got != want {
					t.Fatalf("seed %d draw %d: float64 %v, rand.Rand %v", seed, k, got, want)
				}
				continue
			}
			before := s.src.s
			got, want := s.hop(), math.Abs(ref.NormFloat64())
			if got != want {
				t.Fatalf("seed %d draw %d: hop %v, |rand.Rand.NormFloat64| %v", seed, k, got, want)
			}
			if _, ok := normFast(splitmixAt(before)); !ok {
				slow++
			}
		}
		if slow == 0 {
			t.Errorf("seed %d: no draw took the slow path; the test covers only the fast one", seed)
		}
	}
}

// splitmixAt is the next Uint64 of a splitmix in state s.
func splitmixAt(s uint64) uint64 {
	x := splitmix{s}
	return x.Uint64()
}
