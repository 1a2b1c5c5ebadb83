package backoff

import (
	"errors"
	"math"
	"testing"
	"time"
)

// tenacity's waits, written from tenacity/wait.py (9.1.4) independently
// of Step: wait_exponential is max(max(0, min), min(m * b^(n-1), max)),
// wait_random_exponential is random.uniform(min, that).
func tenacityExp(m, b, lo, hi float64, n int) float64 {
	return math.Max(math.Max(0, lo), math.Min(m*math.Pow(b, float64(n-1)), hi))
}

func TestFloorMatchesTenacity(t *testing.T) {
	for _, c := range []struct{ mult, base, lo, hi float64 }{
		{1, 2, 4, 10}, {0.5, 2, 0, 60}, {2, 3, 5, 100}, {1, 2, 10, 10}, {0.1, 1.5, 1, 1e6},
	} {
		for _, random := range []bool{false, true} {
			p := Policy{Growth: Exponential, Base: Seconds(c.mult), Factor: c.base, Cap: Seconds(c.hi),
				Floor: Seconds(c.lo), Attempts: 13}
			if random {
				p.Jitter = Full
			}
			if err := p.Validate(); err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			for n := 1; n <= 12; n++ {
				for _, u := range []float64{0, 0.25, 0.5, 1 - 0x1p-53} {
					want := tenacityExp(c.mult, c.base, c.lo, c.hi, n)
					if random {
						want = c.lo + (want-c.lo)*u
					}
					got, _ := p.Step(n, State{}, u)
					if math.Abs(got-want) > 1e-12*math.Max(1, want) {
						t.Errorf("%+v random=%v retry %d u=%v: %v, tenacity %v", c, random, n, u, got, want)
					}
				}
			}
		}
	}
}

// The floor's columns are closed forms: each row's bounds, mean and
// percentiles are a jitter's on the part above the floor, shifted by it,
// here checked against the delay integrated over the draw, cap after
// jitter and offset included.
func TestFloorTable(t *testing.T) {
	s := time.Second
	p := Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 20 * s, CapMode: CapAfterJitter,
		Floor: 3 * s, Jitter: Proportional, JitterLo: 0.5, JitterHi: 1.5, Offset: s, Attempts: 7}
	tab, err := NewTable(p, NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	// g = 1 2 4 8 16 32, floored 3 3 4 8 16 32; delay min(3 + (g-3)*(0.5+u), 20) + 1.
	delay := func(n int, u float64) float64 {
		g := math.Max(math.Pow(2, float64(n-1)), 3)
		return math.Min(3+(g-3)*(0.5+u), 20) + 1
	}
	const k = 200000
	var cumMean float64
	for _, r := range tab.Rows {
		var mean float64
		for i := range k {
			mean += delay(r.Retry, (float64(i)+0.5)/k)
		}
		mean /= k
		cumMean += mean
		g := math.Max(math.Pow(2, float64(r.Retry-1)), 3)
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"nominal", r.Nominal, math.Min(g, 20) + 1}, {"min", r.Min, delay(r.Retry, 0)}, {"max", r.Max, delay(r.Retry, 1)},
			{"mean", r.Mean, mean}, {"p50", r.P50, delay(r.Retry, 0.5)}, {"p95", r.P95, delay(r.Retry, 0.95)},
			{"cum mean", r.CumMean, cumMean},
		} {
			if math.Abs(c.got-c.want) > 1e-6*c.want {
				t.Errorf("retry %d: %s %v, want %v", r.Retry, c.what, c.got, c.want)
			}
		}
	}
	if tab.MonteCarlo {
		t.Error("a floor made the table sample")
	}
}

func TestFloorValidate(t *testing.T) {
	p := Default()
	p.Floor = 40 * time.Second // cap 30s
	var fe *FieldError
	if err := p.Validate(); !errors.As(err, &fe) || fe.Field != ParamFloor || fe.Code != CodeAtMost || fe.Other != ParamCap {
		t.Errorf("floor above cap: %v", err)
	}
	p.Floor, p.Jitter = time.Second, Decorrelated
	if err := p.Validate(); !errors.As(err, &fe) || fe.Field != ParamFloor || fe.Code != CodeNeeds {
		t.Errorf("floor with decorrelated jitter: %v", err)
	}
	p.Jitter = Full
	if err := p.Set(ParamFloor, "2,5 с"); err != nil || p.Floor != 2500*time.Millisecond || p.Get(ParamFloor) != "2.5s" {
		t.Errorf("Set floor: %v, %v", err, p.Floor)
	}
	if err := p.Set(ParamFloor, "-1s"); err == nil || p.Floor != 2500*time.Millisecond {
		t.Errorf("Set floor -1s: %v, %v", err, p.Floor)
	}
}
