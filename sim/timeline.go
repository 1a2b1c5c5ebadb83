package sim

import (
	"math"
	"time"
)

// bin counts what happened in one fine slice of time.
// Counts fit in int32: MaxCalls and MaxClients are below 1<<31.
type bin struct {
	calls, retries, ok, rejected, blocked int32
	started, finished                     int32
}

// xbin is a bin's request-level counts, kept beside it (timeline.ext) by
// the request-level engine only: about 1.5 kB, most of it the latencies'
// histogram.
type xbin struct {
	goodput, served, refused, errors, timeouts, outage, throttled, hedges int32
	// hits and misses at the cache (node_cache.go).
	hits, misses int32
	// lost: calls a crash lost (a fleet's are its servers' too).
	lost int32
	// dq and dbusy are the changes in the queue's length and in the busy
	// workers; their running sums are the levels at each bucket's end.
	dq, dbusy int32
	// wasted is work for callers that had gone, in nanoseconds: whole
	// numbers add up to the same sum in any order, so merged bins hold
	// what bins of the merged width would.
	wasted int64
	lat    [coarseBins]uint32
}

func (x *xbin) add(o *xbin) {
	x.goodput += o.goodput
	x.served += o.served
	x.refused += o.refused
	x.errors += o.errors
	x.timeouts += o.timeouts
	x.outage += o.outage
	x.throttled += o.throttled
	x.hedges += o.hedges
	x.hits += o.hits
	x.misses += o.misses
	x.lost += o.lost
	x.dq += o.dq
	x.dbusy += o.dbusy
	x.wasted += o.wasted
	for i := range x.lat {
		x.lat[i] += o.lat[i]
	}
}

// maxReqBins bounds a request-level timeline with a fixed width (its bins
// are 1.5 kB): past it the width grows, as past fixedBins.
const maxReqBins = 4096

// timeline records counts in fine bins whose width grows as simulated time
// does, so memory stays bounded whatever the run's length, and is cut into
// about 200 buckets at the end. Widths are whole nanoseconds: 1 or 2 times
// a power of ten seconds (auto), or the caller's width times 1, 2, 10,
// 20, 100... (fixed); they grow by merging whole bins (x2, then x5), so
// every count lands in exactly one bin and the final bucket width is a
// round number.
//
// A bin is found by exact arithmetic (index): a count at t lands in the
// same bucket whatever the width the timeline started from and however it
// merged, so a run recorded with its final width from the start has the
// same buckets.
type timeline struct {
	width float64 // seconds: wns/1e9
	wns   float64 // the width in nanoseconds, a whole number (+Inf: one bin for all time)
	inv   float64 // 1/width: bins are found by multiplying
	// half is how far from the middle of a bin t*inv may be for at's
	// fast path to take its bin: 1/2 less the error of t*inv against the
	// exact index (the rounding of t to the nanosecond and of the
	// product).
	half float64
	lenF float64 // float64(len(bins)), for at's fast path
	// step is the next merge's factor: 2, then 5, then 2...
	step  int
	bins  []bin
	max   int  // bins before merging
	fixed bool // the caller chose the width: merge only past max
	// ext is the request-level engine's counts, bin for bin (nil for
	// the herd's engine): grow and merge keep len(ext) == len(bins).
	ext []xbin
	req bool
	// cache: the buckets carry the cache's columns.
	cache bool
	// srv is the run's parts' counts, bin for bin (the request-level
	// engine's; nil for the herd's): nslot of them a bin, a fleet's
	// servers first (nsrv, 0 for one server), then the chain's layers
	// above the bottom (nlay).
	// grow and merge keep it in step too.
	srv               []sbin
	nsrv, nlay, nslot int
	none              sbin // where the counts of a part without a slot go
}

// sbin is one part's counts in a bin. A server's: the calls sent to it,
// served, failed (refused, errors, outage and crash refusals), timeouts
// of calls sent to it, calls its crashes lost, and the changes in its
// queue and busy workers. A layer's: the calls it made to the one below,
// and how many of them its timeout cut.
type sbin struct {
	calls, served, failed, timeouts, lost, dq, dbusy int32
}

func (s *sbin) add(o *sbin) {
	s.calls += o.calls
	s.served += o.served
	s.failed += o.failed
	s.timeouts += o.timeouts
	s.lost += o.lost
	s.dq += o.dq
	s.dbusy += o.dbusy
}

// setParts gives the timeline a slot a bin for each of a fleet's servers
// (one server's counts are its bins' own) and each layer of a chain above
// its bottom.
func (tl *timeline) setParts(servers, layers int) {
	if servers > 1 {
		tl.nsrv = servers
	}
	tl.nlay = max(layers-1, 0)
	tl.nslot = tl.nsrv + tl.nlay
}

// server is server k's counts in the bin holding t.
func (tl *timeline) server(t float64, k uint8) *sbin {
	if tl.nsrv == 0 {
		return &tl.none
	}
	return &tl.srv[tl.slot(t)*tl.nslot+int(k)] // slot grows srv with the bins
}

// serverIn is server k's counts in bin i (a slot's index, which exists).
func (tl *timeline) serverIn(i int, k uint8) *sbin {
	if tl.nsrv == 0 {
		return &tl.none
	}
	return &tl.srv[i*tl.nslot+int(k)]
}

// layer is the counts in the bin holding t of the chain's layer l (0 the
// clients', whose calls go to the first service), above the bottom.
func (tl *timeline) layer(t float64, l uint8) *sbin {
	if int(l) >= tl.nlay {
		return &tl.none
	}
	return &tl.srv[tl.slot(t)*tl.nslot+tl.nsrv+int(l)]
}

const (
	autoBins  = 1024
	fixedBins = 1 << 17
	// minFixedBins is the fewest bins a fixed width may grow to before
	// it widens, whatever MaxCalls.
	minFixedBins = autoBins
	// BinCallCost is what a bucket of a fixed width costs a front end, in
	// the time of a herd's call: making it, and an image's averaging and
	// drawing it. Measured through the server's herd image: 2.1 to 2.6 µs
	// a bucket against 110 to 210 ns a call, 10 to 22 calls' time. A
	// run's MaxCalls bounds its timeline with its calls: at most
	// MaxCalls/BinCallCost bins (in request-level calls: times
	// RequestCallCost), so a bucket width cannot make a run cost more
	// than about twice its calls. The herd image of 20 runs a year long
	// with bucket=1ms took 7.8 s where it took 0.19 s without.
	BinCallCost = 24
)

// maxBins is how many bins c's timeline keeps before it widens: a fixed
// width's at most fixedBins (maxReqBins request-level) and its share of
// the run's work (BinCallCost), an auto width's autoBins.
func maxBins(c *Config) int {
	if c.Bucket <= 0 {
		return autoBins
	}
	calls, most := float64(c.MaxCalls), fixedBins
	if calls <= 0 {
		calls = DefaultMaxCalls
	}
	if c.RequestLevel() {
		calls, most = calls*RequestCallCost, maxReqBins
	}
	return int(min(float64(most), max(minFixedBins, calls/BinCallCost)))
}

// MaxBuckets is the most buckets a run of c keeps with its fixed Bucket
// before it widens them (x2, then x5, in turn: 1ms, 2ms, 10ms...), or
// with an automatic width 250: fixedBins and a share of MaxCalls
// (BinCallCost).
func MaxBuckets(c Config) int {
	if c.Bucket <= 0 {
		return 250
	}
	return maxBins(&c)
}

// EstimateBuckets is the most buckets a run of c keeps: MaxBuckets, or
// fewer with a fixed width when the run's end is known (a horizon, the
// window of open and loop traffic).
func EstimateBuckets(c Config) int {
	most := MaxBuckets(c)
	end := math.Inf(1)
	if c.Horizon > 0 {
		end = c.Horizon.Seconds()
	}
	if c.RequestLevel() && c.Traffic != Closed && !c.Drain {
		end = math.Min(end, c.Duration.Seconds())
	}
	if c.Bucket > 0 {
		if n := math.Ceil(end/c.Bucket.Seconds()) + 1; n < float64(most) {
			return int(n)
		}
	}
	return most
}

// newTimeline records with the caller's bucket width, at most most bins
// of it before it widens, or (0) starts from the power of ten at or below
// scale/100 seconds: fine enough for 200 buckets of any run that lasts
// two hops, without merging up from a microsecond in runs that last
// hours.
func newTimeline(bucket time.Duration, scale float64, most int) timeline {
	if bucket > 0 {
		tl := timeline{fixed: true, max: most}
		tl.setWidth(float64(bucket))
		return tl
	}
	exp := -6
	for exp < 6 && math.Pow10(exp+1) <= scale/100 {
		exp++
	}
	tl := timeline{max: autoBins, bins: make([]bin, 0, autoBins)}
	tl.setWidth(math.Pow10(exp + 9))
	return tl
}

// oneBin is a timeline of one bin that every time falls into.
func oneBin() timeline {
	tl := timeline{bins: make([]bin, 1), lenF: 1, max: 2, fixed: true}
	tl.setWidth(math.Inf(1))
	tl.half = 0.5 // t*inv is 0: the fast path takes bin 0
	return tl
}

// setWidth sets the bins' width, wns nanoseconds (a whole number), and
// what at's fast path needs. Every width's first merge is by 2.
func (tl *timeline) setWidth(wns float64) {
	tl.wns, tl.width = wns, wns/1e9
	tl.inv = 1 / tl.width
	// |t*inv - exact| <= 1/wns (t to the nanosecond) plus t*inv's
	// rounding, under 2^-20 for indexes below 2^31.
	tl.half = 0.5 - (1/wns + 1.0/(1<<20))
	if tl.step == 0 {
		tl.step = 2
	}
}

// at returns the bin holding time t (t >= 0).
func (tl *timeline) at(t float64) *bin { return &tl.bins[tl.slot(t)] }

// slot is the index of the bin holding time t (t >= 0), which it makes
// exist. Growing and merging are in grow, to keep the common case short:
// t*inv well inside a bin that exists (within half of its middle), or 0,
// is that bin; one near an edge goes to index's exact arithmetic.
func (tl *timeline) slot(t float64) int {
	if f := t * tl.inv; f < tl.lenF { // t >= 0
		k := int(f)
		if d := f - float64(k) - 0.5; d <= tl.half && d >= -tl.half || t == 0 {
			return k
		}
	}
	return tl.grow(t)
}

func (tl *timeline) grow(t float64) int {
	k := tl.index(t)
	for k >= tl.max {
		tl.coarsen()
		k = tl.index(t)
	}
	if k >= len(tl.bins) {
		// Bins past len are zero: merge clears what it frees.
		if k >= cap(tl.bins) {
			nb := make([]bin, len(tl.bins), max(2*cap(tl.bins), k+1, 64))
			copy(nb, tl.bins)
			tl.bins = nb
		}
		tl.bins = tl.bins[:k+1]
		tl.lenF = float64(len(tl.bins))
		if tl.req {
			// In step with the bins' capacity, as srv below: the
			// timeline holds what its bins' capacity says.
			if len(tl.bins) > cap(tl.ext) {
				ne := make([]xbin, len(tl.ext), cap(tl.bins))
				copy(ne, tl.ext)
				tl.ext = ne
			}
			tl.ext = tl.ext[:len(tl.bins)] // zero past the old length: merges clear it
		}
		if tl.nslot > 0 {
			// In step with the bins' capacity: no slice per new bin.
			need := len(tl.bins) * tl.nslot
			if need > cap(tl.srv) {
				ns := make([]sbin, len(tl.srv), cap(tl.bins)*tl.nslot)
				copy(ns, tl.srv)
				tl.srv = ns
			}
			tl.srv = tl.srv[:need] // zero past the old length: merges clear it
		}
	}
	return k
}

// atx is at with the bin's request-level counts.
func (tl *timeline) atx(t float64) (*bin, *xbin) {
	k := tl.slot(t)
	return &tl.bins[k], &tl.ext[k]
}

// index is the bin holding t: t rounded to the nanosecond, divided by the
// width in nanoseconds and rounded down, in exact arithmetic (whole
// numbers in floats, below 2^53: runs of up to 104 days), so that a
// merged bin holds exactly what a bin of the merged width would. t*inv
// alone differs from it near a bin's edge, by a rounding that depends on
// the width.
func (tl *timeline) index(t float64) int {
	f := t * tl.inv
	if !(f < float64(math.MaxInt32)) {
		return math.MaxInt32
	}
	if f < 0 {
		return 0
	}
	n := math.Floor(t*1e9 + 0.5)
	q := math.Floor(n / tl.wns) // within 1 of the exact quotient
	if q*tl.wns > n {
		q--
	} else if (q+1)*tl.wns <= n {
		q++
	}
	return int(q)
}

// coarsen merges bins by 2 or 5, in turn: an auto width goes 1 -> 2 ->
// 10 x 10^k, a fixed one W -> 2W -> 10W.
func (tl *timeline) coarsen() {
	m := tl.step
	tl.step = 7 - m // 2 <-> 5
	tl.setWidth(tl.wns * float64(m))
	tl.bins = merge(tl.bins, m)
	tl.lenF = float64(len(tl.bins))
	tl.mergeExt(m)
}

// mergeExt merges ext as merge merged bins (nothing for the herd's engine).
func (tl *timeline) mergeExt(m int) {
	if tl.nslot > 0 {
		bins := len(tl.srv) / tl.nslot
		n := (bins + m - 1) / m
		for i := 0; i < n; i++ {
			for k := 0; k < tl.nslot; k++ {
				var s sbin
				for j := i * m; j < min(i*m+m, bins); j++ {
					s.add(&tl.srv[j*tl.nslot+k])
				}
				tl.srv[i*tl.nslot+k] = s
			}
		}
		clear(tl.srv[n*tl.nslot:])
		tl.srv = tl.srv[:n*tl.nslot]
	}
	if !tl.req {
		return
	}
	n := (len(tl.ext) + m - 1) / m
	for i := 0; i < n; i++ {
		var s xbin
		for j := i * m; j < min(i*m+m, len(tl.ext)); j++ {
			s.add(&tl.ext[j])
		}
		tl.ext[i] = s
	}
	clear(tl.ext[n:])
	tl.ext = tl.ext[:n]
}

func merge(bins []bin, m int) []bin {
	n := (len(bins) + m - 1) / m
	for i := 0; i < n; i++ {
		var s bin
		for _, b := range bins[i*m : min(i*m+m, len(bins))] {
			s.calls += b.calls
			s.retries += b.retries
			s.ok += b.ok
			s.rejected += b.rejected
			s.blocked += b.blocked
			s.started += b.started
			s.finished += b.finished
		}
		bins[i] = s
	}
	clear(bins[n:])
	return bins[:n]
}

// roundAbove is the next round width above w nanoseconds: 1, 2 or 5 x
// 10^k.
func roundAbove(w float64) float64 {
	p := math.Pow10(int(math.Floor(math.Log10(w) + 1e-9)))
	for _, d := range []float64{2, 5, 10} {
		if d*p > w*(1+1e-12) {
			return d * p
		}
	}
	return 20 * p
}

// buckets cuts the timeline into about 200 buckets (auto) or the fixed
// width, up to makespan, and fills in Waiting. The peaks of calls and
// retries per bucket are from buckets starting at or after from.
func (tl *timeline) buckets(makespan, from float64, keep bool) (out []Bucket, width float64, peak, peakRetry int) {
	// Keep the bucket holding makespan, even if nothing started in it:
	// before merging, which sets the width this reports.
	if makespan >= 0 {
		tl.at(makespan)
	}
	if !tl.fixed {
		// The smallest round multiple of the bin width (1, 2 or 5 x 10^k
		// seconds) giving <= 250 buckets (at least 1024/5/2 = 102 once
		// bins have merged).
		n := float64(len(tl.bins))
		for w := tl.wns; ; w = roundAbove(w) {
			if m := w / tl.wns; m == math.Trunc(m) && math.Ceil(n/m) <= 250 {
				if m > 1 {
					tl.bins = merge(tl.bins, int(m))
					tl.mergeExt(int(m))
					tl.lenF = float64(len(tl.bins))
					tl.setWidth(w)
				}
				break
			}
		}
	}
	if keep {
		out = make([]Bucket, len(tl.bins))
	}
	waiting, queue, busy := 0, 0, 0
	squeue, sbusy := make([]int, tl.nsrv), make([]int, tl.nsrv)
	for i, b := range tl.bins {
		start := float64(i) * tl.wns / 1e9 // the nearest float to the exact start
		if start >= from {
			peak, peakRetry = max(peak, int(b.calls)), max(peakRetry, int(b.retries))
		}
		if keep {
			waiting += int(b.started - b.finished)
			// Field by field into the zeroed bucket: a whole Bucket (it
			// holds a slice) would be copied under the collector's write
			// barrier, which took most of the time of 100,000 buckets.
			o := &out[i]
			o.Start, o.Calls, o.Retries, o.Started = start, int(b.calls), int(b.retries), int(b.started)
			o.OK, o.Rejected, o.Blocked, o.Waiting = int(b.ok), int(b.rejected), int(b.blocked), waiting
			if tl.req {
				x := &tl.ext[i]
				queue += int(x.dq)
				busy += int(x.dbusy)
				n := 0
				for _, c := range x.lat {
					n += int(c)
				}
				o.req = true
				o.Requests, o.Goodput, o.Served = int(b.started), int(x.goodput), int(x.served)
				o.Refused, o.Errors, o.Timeouts, o.Outage = int(x.refused), int(x.errors), int(x.timeouts), int(x.outage)
				o.Throttled, o.Hedges, o.Queue, o.Busy, o.WastedWork = int(x.throttled), int(x.hedges), queue, busy, float64(x.wasted)/1e9
				if tl.cache {
					o.cache, o.Hits, o.Misses = true, int(x.hits), int(x.misses)
					if n := x.hits + x.misses; n > 0 {
						o.HitRatio = float64(x.hits) / float64(n)
					}
				}
				o.LatencyP50 = histQuantile(x.lat[:], 0.5, n, coarseSub, coarseMin, math.Inf(1))
				o.LatencyP99 = histQuantile(x.lat[:], 0.99, n, coarseSub, coarseMin, math.Inf(1))
				if tl.nsrv > 1 {
					o.Servers = make([]ServerBucket, tl.nsrv)
					for k := range o.Servers {
						s := &tl.srv[i*tl.nslot+k]
						squeue[k] += int(s.dq)
						sbusy[k] += int(s.dbusy)
						o.Servers[k] = ServerBucket{Served: int(s.served), Failed: int(s.failed), Timeouts: int(s.timeouts),
							Lost: int(s.lost), Queue: squeue[k], Busy: sbusy[k]}
					}
				}
			}
		}
	}
	return out, tl.width, peak, peakRetry
}
