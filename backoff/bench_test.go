package backoff

import "testing"

func BenchmarkStep(b *testing.B) {
	for _, j := range []Jitter{NoJitter, Full, Equal, Decorrelated, DecorrelatedV2, Proportional, Additive, DecorrelatedClamped} {
		p := Default()
		p.Jitter = j
		p.JitterAdd = p.Base
		b.Run(j.String(), func(b *testing.B) {
			b.ReportAllocs()
			r := NewRand(1)
			var st State
			var sink float64
			for i := 0; b.Loop(); i++ {
				var d float64
				d, st = p.Step(i%10+1, st, r.Float64())
				sink += d
			}
			_ = sink
		})
	}
}

func BenchmarkNewTable(b *testing.B) {
	for _, name := range []string{"aws-standard", "sidekiq", "cenkalti", "aws-blog-decorrelated"} {
		pr, _ := LookupPreset(name)
		p := pr.Policy
		if p.Attempts == 0 {
			p.Attempts = 8
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewTable(p, NewRand(1)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The CLI's decorrelated table (no attempt limit: 30 retries, 1% at
	// three standard errors) and the page's, within its draw budget.
	pr, _ := LookupPreset("aws-blog-decorrelated")
	for _, c := range []struct {
		name string
		o    TableOptions
	}{{"decorrelated-cli", TableOptions{}}, {"decorrelated-page", TableOptions{MaxDraws: 1 << 18, MinRuns: 200}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewTableWith(pr.Policy, NewRand(1), c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("article-default", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NewTable(Default(), NewRand(1))
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	c := Call{Method: "GET", Status: 400, Header: map[string][]string{"Retry-After": {"5"}},
		Body: `{"error":"the model is temporarily unavailable, try again later"}`}
	rules := DefaultRules()
	b.ReportAllocs()
	for b.Loop() {
		Classify(c, rules)
	}
}
