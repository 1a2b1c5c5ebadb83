package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// millionConfig is the README's million-client benchmark: 1,000,000 clients, a burst into
// a 10 s outage, then 100,000 calls/s of capacity; full jitter, 10 attempts.
func millionConfig() Config {
	c := DefaultConfig()
	c.Clients = 1_000_000
	c.Capacity = 100_000
	c.Policy.Jitter = backoff.Full
	c.Policy.Attempts = 10
	return c
}

// BenchmarkMillionClients reports the time of one run and the bytes it
// allocates per client (all of its memory: nothing is retained between
// runs).
func BenchmarkMillionClients(b *testing.B) {
	c := millionConfig()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var calls int
	for b.Loop() {
		r, err := Run(c, 1)
		if err != nil {
			b.Fatal(err)
		}
		calls = r.Totals.Calls
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(c.Clients), "B/client")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkOCCSweep is the AWS blog's whole experiment: clients 10..190
// step 10, five algorithms, 100 runs each (9500 runs).
func BenchmarkOCCSweep(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		for clients := 10; clients <= 190; clients += 10 {
			for _, a := range occAlgos {
				if _, err := RunMany(occConfig(b, a, clients), 1, 100); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "wall-s")
	}
}

// openMillionConfig is the request-level engine's benchmark: open traffic
// of 10,000 requests per second for 100 s (a million requests) into a
// queue server of 100 workers taking 5 ms each (exponential), at half its
// capacity, with the default hops (50 ms ± 10 ms) and a 1 s timeout.
func openMillionConfig() Config {
	c := DefaultConfig()
	c.Traffic, c.Rate, c.Duration = Open, 10_000, 100*time.Second
	c.Server, c.Concurrency, c.Service = Queue, 100, 5*time.Millisecond
	c.Timeout = time.Second
	return c
}

// BenchmarkOpenMillion reports the time of one run of openMillionConfig
// and its memory (it follows the requests in flight, not all of them).
func BenchmarkOpenMillion(b *testing.B) {
	c := openMillionConfig()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var calls int
	for b.Loop() {
		r, err := Run(c, 1)
		if err != nil {
			b.Fatal(err)
		}
		calls = r.Totals.Calls
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N), "B/run")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkChain is a call chain of five layers of three attempts over
// 10,000 top-level requests into a bottom that always fails: 243 calls at
// the bottom per request, 3.6 million tries in all.
func BenchmarkChain(b *testing.B) {
	c := DefaultConfig()
	c.Clients, c.Server, c.Capacity, c.ErrorRate = 10_000, Capacity, 1e7, 1
	c.Layers, c.LayerAttempts = 5, LayerAttempts{Each: [MaxLayers]uint16{3, 3, 3, 3, 3, 3, 3, 3}}
	benchRuns(b, c)
}

// BenchmarkChannel is 1,000 ethernet stations (802.3's backoff) over
// 100,000 frame times of 1.2 ms (1500 bytes at 10 Mbit/s), each sending a
// frame 1.5 s after its last: 80% of the channel offered. Saturated (no
// pause between frames), the same stations make ten times the calls: all
// that are waiting send the moment the channel frees, and collide.
func BenchmarkChannel(b *testing.B) {
	for _, think := range []time.Duration{1500 * time.Millisecond, 0} {
		name := "think-1.5s"
		if think == 0 {
			name = "saturated"
		}
		b.Run(name, func(b *testing.B) { benchChannel(b, think) })
	}
}

func benchChannel(b *testing.B, think time.Duration) {
	p, err := backoff.LookupPreset("ethernet")
	if err != nil {
		b.Fatal(err)
	}
	c := DefaultConfig()
	c.Policy = p.Policy
	c.Server, c.Channel, c.Frame, c.Slot = Channel, Ethernet, 1200*time.Microsecond, 51200*time.Nanosecond
	c.Traffic, c.Callers, c.Think, c.Duration = Loop, 1000, think, 120*time.Second
	benchRuns(b, c)
}

// benchRuns runs c, seed 1, b.N times and reports its calls.
func benchRuns(b *testing.B, c Config) {
	b.ReportAllocs()
	var calls int
	for b.Loop() {
		r, err := Run(c, 1)
		if err != nil {
			b.Fatal(err)
		}
		calls = r.Totals.Calls
	}
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkCacheFlush is one run of the cache-flush scenario (120,000
// requests through a cache of 10,000 keys into a FIFO database that never
// recovers): it must take under 2 s natively.
func BenchmarkCacheFlush(b *testing.B) {
	c, err := LookupScenario("cache-flush")
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := c.Config()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(cfg, 1); err != nil {
			b.Fatal(err)
		}
	}
}
