package sim

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// exactIndex is index's definition with big integers: t to the
// nanosecond (a whole number), over wns, rounded down.
func exactIndex(t, wns float64) int {
	n, _ := big.NewFloat(math.Floor(t*1e9 + 0.5)).Int(nil)
	return int(new(big.Int).Quo(n, big.NewInt(int64(wns))).Int64())
}

// index and at's fast path give the exact bin, at and near every edge,
// for widths that are no binary fraction of a second (10 ms, 0.1 s) and
// one that is no round number (7 ms).
func TestTimelineIndexExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, w := range []time.Duration{time.Microsecond, 10 * time.Millisecond, 20 * time.Millisecond, 7 * time.Millisecond,
		100 * time.Millisecond, time.Second, 2 * time.Hour} {
		tl := newTimeline(w, 0, fixedBins)
		for range 20000 {
			k := rng.IntN(4000)
			var x float64
			switch rng.IntN(4) {
			case 0: // an edge, as a sum of floats gives it
				x = float64(k) * tl.width
			case 1: // an ulp or a few either side of one
				x = float64(k) * tl.width
				for range rng.IntN(6) {
					x = math.Nextafter(x, math.Inf(2*rng.IntN(2)-1))
				}
			case 2: // within a nanosecond of one
				x = float64(k)*tl.width + (rng.Float64()-0.5)*2e-9
			default:
				x = rng.Float64() * 4000 * tl.width
			}
			x = math.Abs(x)
			want := exactIndex(x, tl.wns)
			if got := tl.index(x); got != want {
				t.Fatalf("width %v: index(%v) = %d, want %d", w, x, got, want)
			}
			if got := tl.slot(x); got != want {
				t.Fatalf("width %v: slot(%v) = %d, want %d", w, x, got, want)
			}
		}
	}
}

// The calls of a herd in lockstep happen at 0, 0.2 and 0.5 s (tries 100
// ms apart after answers a round trip of 100 ms later); its timeline
// shows them there whatever the width, picked or given. The auto width's
// bins once merged twice for the output (their width left stale) and put
// 2000 calls at 0 and 1000 at 0.1 s.
func TestTimelineLockstep(t *testing.T) {
	set := []string{"server", "outage", "clients", "1000", "outage-end", "60s", "attempts", "3", "base", "100ms",
		"jitter", "none", "latency", "50ms", "latency-sd", "0s", "timeout", "1s"}
	for _, bucket := range []string{"0s", "10ms", "100ms", "50ms"} {
		r := runOf(t, 1, append(set, "bucket", bucket)...)
		at := map[float64]int{}
		for _, b := range r.Timeline {
			if b.Calls == 0 {
				continue
			}
			found := false
			for _, x := range []float64{0, 0.2, 0.5} {
				if b.Start <= x+1e-12 && x < b.Start+r.BucketWidth-1e-12 {
					at[x] += b.Calls
					found = true
				}
			}
			if !found {
				t.Errorf("bucket %s: %d calls in [%g, %g) s, where none happen", bucket, b.Calls, b.Start, b.Start+r.BucketWidth)
			}
		}
		if r.BucketWidth <= 0.2 && (at[0] != 1000 || at[0.2] != 1000 || at[0.5] != 1000) {
			t.Errorf("bucket %s (width %g s): calls at 0, 0.2 and 0.5 s: %v, want 1000 each", bucket, r.BucketWidth, at)
		}
	}
}

// 29 workers serving 14 ms each finish at most 2 calls each in 20 ms:
// no bucket of a run holds more completions than the workers can make.
// Auto widths once showed 85 in a 20 ms bucket.
func TestTimelineCompletionsPossible(t *testing.T) {
	set := []string{"server", "queue", "clients", "279", "concurrency", "29", "service", "14ms", "service-dist", "fixed",
		"latency", "98ms", "timeout", "10s", "fault", "errors:0.5@500ms-3s"}
	for _, bucket := range []string{"0s", "20ms", "10ms", "7ms"} {
		r := runOf(t, 1, append(set, "bucket", bucket)...)
		most := 29 * (math.Floor(r.BucketWidth/0.014+1e-9) + 1)
		for _, b := range r.Timeline {
			if float64(b.Served) > most {
				t.Errorf("bucket %s: %d served in [%g, %g) s; 29 workers of 14 ms serve at most %g", bucket, b.Served, b.Start,
					b.Start+r.BucketWidth, most)
			}
		}
	}
}

// A fixed width keeps at most MaxCalls/BinCallCost buckets (counting a
// request-level call as RequestCallCost), at least minFixedBins, and
// widens past them, x2 then x5: a bucket cannot make a run cost more than
// twice its calls. A herd image asking for 1 ms buckets of a year-long
// run made 20 runs of 120,000 buckets each, 7.8 s of the server's CPU
// against 0.19 s without the bucket.
func TestTimelineBoundedByCalls(t *testing.T) {
	for _, c := range []struct {
		name string
		set  []string
		want float64 // width, seconds
	}{
		// 2 h of tries a second: 7.2 million buckets of 1 ms; 240,000
		// calls allow 10,000, so 1 s (1 ms x 10^3) holds them: 7,201.
		{"herd", []string{"clients", "1", "attempts", "0", "cap", "1s", "base", "1s", "jitter", "none", "outage-end", "2h",
			"deadline", "2h", "bucket", "1ms", "max-calls", "240000"}, 1},
		// The same in the request-level engine (a timeout): 160,000 x 6
		// / 24 = 40,000 buckets, but at most 4,096: 2 s.
		{"request-level", []string{"clients", "1", "attempts", "0", "cap", "1s", "base", "1s", "jitter", "none", "outage-end", "2h",
			"deadline", "2h", "bucket", "1ms", "max-calls", "160000", "timeout", "10s"}, 2},
		// Few calls keep minFixedBins: 2 h over 1,024 buckets, 10 s.
		{"few calls", []string{"clients", "1", "attempts", "0", "cap", "1s", "base", "1s", "jitter", "none", "outage-end", "2h",
			"deadline", "2h", "bucket", "1ms", "max-calls", "10000"}, 10},
	} {
		cfg := configOf(t, c.set...)
		r := runOf(t, 1, c.set...)
		if r.BucketWidth != c.want || len(r.Timeline) > MaxBuckets(cfg) {
			t.Errorf("%s: %d buckets of %g s, want %g s and at most %d", c.name, len(r.Timeline), r.BucketWidth, c.want, MaxBuckets(cfg))
		}
		if n := EstimateBuckets(cfg); n < len(r.Timeline) {
			t.Errorf("%s: %d buckets, estimated %d", c.name, len(r.Timeline), n)
		}
	}
}
