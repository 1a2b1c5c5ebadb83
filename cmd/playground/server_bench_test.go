//go:build !wasm

package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/backoff-playground/playground/static"
	"github.com/backoff-playground/playground/web"
)

// hostileQuery is the most expensive page a link could ask for when pages
// were rendered per request: about 110 ms of CPU and 1.25 MB each.
const hostileQuery = "/?jitter=decorrelated-v2&attempts=1000&clients=2000000"

// BenchmarkServerHostilePages: 200 concurrent requests for the page with a
// hostile query, over real loopback connections. cpu-ms/op is the process's
// user+system CPU for the 200 (server and client together).
func BenchmarkServerHostilePages(b *testing.B) {
	h, _ := newServer(serverConfig{}, web.FS, static.FS)
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}}
	get := func() {
		res, err := client.Get(srv.URL + hostileQuery)
		if err != nil {
			b.Error(err)
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Errorf("status %d", res.StatusCode)
		}
	}
	get() // warm: the first request may build caches
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		var wg sync.WaitGroup
		for range 200 {
			wg.Go(get)
		}
		wg.Wait()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
