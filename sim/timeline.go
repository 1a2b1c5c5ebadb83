package sim

import "math"

// bin counts what happened in one fine slice of time.
// Counts fit in int32: MaxCalls and MaxClients are below 1<<31.
type bin struct {
	calls, retries, ok, rejected, blocked int32
	started, finished                     int32
}

// xbin is a bin's request-level counts, kept beside it (timeline.ext) by
// the request-level engine only: about 1.1 kB, most of it the latencies'
// histogram.
type xbin struct {
	goodput, served, refused, errors, timeouts, outage, throttled, hedges int32
	// dq and dbusy are the changes in the queue's length and in the busy
	// workers; their running sums are the levels at each bucket's end.
	dq, dbusy int32
	wasted    float64 // seconds of work for callers that had gone
	lat       [coarseBins]uint32
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
	x.dq += o.dq
	x.dbusy += o.dbusy
	x.wasted += o.wasted
	for i := range x.lat {
		x.lat[i] += o.lat[i]
	}
}

// maxReqBins bounds a request-level timeline with a fixed width (its bins
// are 1.1 kB): past it the width doubles, as past fixedBins.
const maxReqBins = 4096

// timeline records counts in fine bins whose width grows as simulated time
// does, so memory stays bounded whatever the run's length, and is cut into
// about 200 buckets at the end. Widths are 1 or 2 times a power of ten
// seconds and grow by merging whole bins (x2, then x5), so the final
// bucket width is a round number and every count lands in exactly one bin.
type timeline struct {
	width float64 // seconds
	inv   float64 // 1/width: bins are found by multiplying
	lenF  float64 // float64(len(bins)), for at's fast path
	mant  int     // width = mant * 10^exp, mant 1 or 2
	exp   int
	bins  []bin
	max   int  // bins before merging
	fixed bool // the caller chose the width: merge only past max
	// ext is the request-level engine's counts, bin for bin (nil for
	// the herd's engine): grow and merge keep len(ext) == len(bins).
	ext []xbin
	req bool
	// srv is a fleet's counts per server, bin for bin (nsrv of them a
	// bin; nil for one server): grow and merge keep it in step too.
	srv  []sbin
	nsrv int
	none sbin // where one server's counts go
}

// sbin is one server's counts in a bin: calls it served, failed (refused,
// errors, outage and crash refusals), timeouts of calls sent to it, calls
// its crashes lost, and the changes in its queue and busy workers.
type sbin struct {
	served, failed, timeouts, lost, dq, dbusy int32
}

func (s *sbin) add(o *sbin) {
	s.served += o.served
	s.failed += o.failed
	s.timeouts += o.timeouts
	s.lost += o.lost
	s.dq += o.dq
	s.dbusy += o.dbusy
}

// server is server k's counts in the bin holding t.
func (tl *timeline) server(t float64, k uint8) *sbin {
	if tl.nsrv <= 1 {
		return &tl.none
	}
	tl.at(t) // grows srv with the bins
	return &tl.srv[min(tl.index(t), len(tl.bins)-1)*tl.nsrv+int(k)]
}

const (
	autoBins  = 1024
	fixedBins = 1 << 17
)

// newTimeline records with the caller's bucket width, or (0) starts from
// the power of ten at or below scale/100 seconds: fine enough for 200
// buckets of any run that lasts two hops, without merging up from a
// microsecond in runs that last hours.
func newTimeline(bucketSeconds, scale float64) timeline {
	if bucketSeconds > 0 {
		return timeline{width: bucketSeconds, inv: 1 / bucketSeconds, fixed: true, max: fixedBins}
	}
	exp := -6
	for exp < 6 && math.Pow10(exp+1) <= scale/100 {
		exp++
	}
	w := math.Pow10(exp)
	return timeline{width: w, inv: 1 / w, mant: 1, exp: exp, max: autoBins, bins: make([]bin, 0, autoBins)}
}

// at returns the bin holding time t (t >= 0). Growing and merging are in
// grow, to keep the common case short; it does not inline (cost 81, over
// the budget of 80, of which the call to grow is 57).
func (tl *timeline) at(t float64) *bin {
	if f := t * tl.inv; f < tl.lenF { // t >= 0
		return &tl.bins[uint(f)]
	}
	return tl.grow(t)
}

func (tl *timeline) grow(t float64) *bin {
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
			tl.ext = append(tl.ext, make([]xbin, len(tl.bins)-len(tl.ext))...)
		}
		if tl.nsrv > 1 {
			// In step with the bins' capacity: no slice per new bin.
			need := len(tl.bins) * tl.nsrv
			if need > cap(tl.srv) {
				ns := make([]sbin, len(tl.srv), cap(tl.bins)*tl.nsrv)
				copy(ns, tl.srv)
				tl.srv = ns
			}
			tl.srv = tl.srv[:need] // zero past the old length: merges clear it
		}
	}
	return &tl.bins[k]
}

// atx is at with the bin's request-level counts.
func (tl *timeline) atx(t float64) (*bin, *xbin) {
	b := tl.at(t)
	return b, &tl.ext[min(tl.index(t), len(tl.ext)-1)]
}

func (tl *timeline) index(t float64) int {
	f := t * tl.inv
	if !(f < float64(math.MaxInt32)) {
		return math.MaxInt32
	}
	if f < 0 {
		return 0
	}
	return int(f)
}

// coarsen merges bins by 2 (1 -> 2 x 10^k) or 5 (2 -> 10 x 10^k); a fixed
// width just doubles.
func (tl *timeline) coarsen() {
	m := 2
	if !tl.fixed {
		if tl.mant == 2 {
			m = 5
			tl.mant, tl.exp = 1, tl.exp+1
		} else {
			tl.mant = 2
		}
		tl.width = float64(tl.mant) * math.Pow10(tl.exp)
	} else {
		tl.width *= 2
	}
	tl.inv = 1 / tl.width
	tl.bins = merge(tl.bins, m)
	tl.lenF = float64(len(tl.bins))
	tl.mergeExt(m)
}

// mergeExt merges ext as merge merged bins (nothing for the herd's engine).
func (tl *timeline) mergeExt(m int) {
	if tl.nsrv > 1 {
		bins := len(tl.srv) / tl.nsrv
		n := (bins + m - 1) / m
		for i := 0; i < n; i++ {
			for k := 0; k < tl.nsrv; k++ {
				var s sbin
				for j := i * m; j < min(i*m+m, bins); j++ {
					s.add(&tl.srv[j*tl.nsrv+k])
				}
				tl.srv[i*tl.nsrv+k] = s
			}
		}
		clear(tl.srv[n*tl.nsrv:])
		tl.srv = tl.srv[:n*tl.nsrv]
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

// buckets cuts the timeline into about 200 buckets (auto) or the fixed
// width, up to makespan, and fills in Waiting. The peaks of calls and
// retries per bucket are from buckets starting at or after from.
func (tl *timeline) buckets(makespan, from float64, keep bool) (out []Bucket, width float64, peak, peakRetry int) {
	if !tl.fixed {
		// The smallest round multiple of the bin width giving <= 250
		// buckets (at least 1024/5/2 = 102 once bins have merged): widths
		// 1, 2, 5 x 10^k that the bins divide.
		n := len(tl.bins)
		for _, m := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000} {
			if tl.mant == 2 && (m == 5 || m == 50 || m == 500 || m == 5000) {
				continue // 2.5 x 10^k would not be round
			}
			if (n+m-1)/m <= 250 {
				if m > 1 {
					tl.bins = merge(tl.bins, m)
					tl.mergeExt(m)
					tl.lenF = float64(len(tl.bins))
					tl.width = float64(tl.mant*m) * math.Pow10(tl.exp)
					tl.inv = 1 / tl.width
				}
				break
			}
		}
	}
	// Keep the bucket holding makespan, even if nothing started in it.
	if makespan >= 0 {
		tl.at(makespan)
	}
	if keep {
		out = make([]Bucket, len(tl.bins))
	}
	waiting, queue, busy := 0, 0, 0
	squeue, sbusy := make([]int, tl.nsrv), make([]int, tl.nsrv)
	for i, b := range tl.bins {
		start := float64(i) * tl.width
		if start >= from {
			peak, peakRetry = max(peak, int(b.calls)), max(peakRetry, int(b.retries))
		}
		if keep {
			waiting += int(b.started - b.finished)
			out[i] = Bucket{Start: start, Calls: int(b.calls), Retries: int(b.retries), Started: int(b.started),
				OK: int(b.ok), Rejected: int(b.rejected), Blocked: int(b.blocked), Waiting: waiting}
			if tl.req {
				x := &tl.ext[i]
				queue += int(x.dq)
				busy += int(x.dbusy)
				n := 0
				for _, c := range x.lat {
					n += int(c)
				}
				o := &out[i]
				o.req = true
				o.Requests, o.Goodput, o.Served = int(b.started), int(x.goodput), int(x.served)
				o.Refused, o.Errors, o.Timeouts, o.Outage = int(x.refused), int(x.errors), int(x.timeouts), int(x.outage)
				o.Throttled, o.Hedges, o.Queue, o.Busy, o.WastedWork = int(x.throttled), int(x.hedges), queue, busy, x.wasted
				o.LatencyP50 = histQuantile(x.lat[:], 0.5, n, coarseSub, coarseMin, math.Inf(1))
				o.LatencyP99 = histQuantile(x.lat[:], 0.99, n, coarseSub, coarseMin, math.Inf(1))
				if tl.nsrv > 1 {
					o.Servers = make([]ServerBucket, tl.nsrv)
					for k := range o.Servers {
						s := &tl.srv[i*tl.nsrv+k]
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
