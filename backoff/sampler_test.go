package backoff

import (
	"math"
	"testing"
	"time"
)

// A Sampler must give Step's delays bit for bit, for every preset and the
// kinds it covers, or seeds would change meaning.
func TestSamplerMatchesStep(t *testing.T) {
	var policies []Policy
	for _, pr := range Presets() {
		policies = append(policies, pr.Policy)
	}
	for _, g := range []Growth{Exponential, Linear, None, Polynomial} {
		for j := range Jitter(len(JitterNames())) {
			for _, cm := range []CapMode{CapBeforeJitter, CapAfterJitter, CapExact} {
				for _, big := range []bool{false, true} {
					p := Default()
					p.Growth, p.Jitter, p.CapMode = g, j, cm
					p.Factor = 3
					if big {
						// Delays that reach backoff's bound.
						p.Base, p.Cap, p.Offset = MaxDuration, 0, 1500*time.Millisecond
					}
					policies = append(policies, p)
					// A floor above the first delays, below the cap.
					p.Floor = 7 * time.Second
					policies = append(policies, p)
				}
			}
		}
	}
	us := []float64{0, 0x1p-53, 0.25, 0.5, 0.999, 1 - 0x1p-53}
	for _, p := range policies {
		if err := p.Validate(); err != nil {
			continue
		}
		d := NewSampler(p)
		var prev float64
		var st State
		for n := 1; n <= maxTable+3; n++ {
			if n == 300 {
				n = maxTable - 3 // the table's end
			}
			u := us[n%len(us)]
			want, wst := p.Step(n, st, u)
			got := d.Next(n, &prev, u)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: retry %d, u %v: delays %v, Step %v", p.Describe(), n, u, got, want)
			}
			st = wst
			if prev != st.Prev {
				t.Fatalf("%s: retry %d: state %v, Step's %v", p.Describe(), n, prev, st.Prev)
			}
		}
	}
}
