package sim

import (
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// millionConfig is the benchmark: 1,000,000 clients, a burst into
// a 10 s outage, then 100,000 calls/s of capacity; full jitter, 10 attempts.
func millionConfig() Config {
	c := DefaultConfig()
	c.Clients = 1_000_000
	c.Capacity = 100_000
	c.Policy.Jitter = backoff.Full
	c.Policy.Attempts = 10
	return c
}

func BenchmarkMillionClients(b *testing.B) {
	c := millionConfig()
	b.ReportAllocs()
	var r *Result
	for b.Loop() {
		var err error
		if r, err = Run(c, 1); err != nil {
			b.Fatal(err)
		}
	}
	_ = r
	_ = time.Second
}
