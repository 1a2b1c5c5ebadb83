package sim

import "math"

// hist is a log-linear histogram of positive durations in seconds: each
// power of two from 2^minExp to 2^(minExp+octaves) is cut into 2^sub
// equal bins, so a bin is at most 2^-sub of its value wide; bin 0 holds
// what is below the range (0 included), the last bin what is above. It
// takes O(1) per value and fixed memory whatever the run's length,
// where keeping every latency would take 8 bytes per request.
type hist struct {
	sub, minExp int
	counts      []uint32
	n           int
	sum, max    float64
}

// The totals' histogram: 2^-30 s (1 ns) to 2^25 s (388 days, past
// MaxTime), bins 0.8% wide. A bucket's: 2^-20 s (1 µs) to 2^25 s too,
// bins 12.5% wide, 1.4 kB each: any latency a run can have is in range.
const (
	fineSub, fineMin, fineOctaves       = 7, -30, 55
	coarseSub, coarseMin, coarseOctaves = 3, -20, 45
	coarseBins                          = coarseOctaves<<coarseSub + 2
)

func newHist(sub, minExp, octaves int) hist {
	return hist{sub: sub, minExp: minExp, counts: make([]uint32, octaves<<sub+2)}
}

// histIndex is the bin of x among n bins.
func histIndex(x float64, sub, minExp, n int) int {
	if !(x > 0) {
		return 0
	}
	b := math.Float64bits(x)
	e := int(b>>52&0x7ff) - 1023
	i := (e-minExp)<<sub + int(b>>(52-sub)&(1<<sub-1)) + 1
	if e < minExp || i < 1 {
		return 0
	}
	return min(i, n-1)
}

// histValue is the middle of bin i (0 for the bin below the range, the
// bottom of the bin above it).
func histValue(i, sub, minExp, n int) float64 {
	if i <= 0 {
		return 0
	}
	k := i - 1
	if i == n-1 {
		return math.Ldexp(1, minExp+k>>sub)
	}
	m := float64(k&(1<<sub-1)) + 0.5
	return math.Ldexp(1+m/float64(int(1)<<sub), minExp+k>>sub)
}

func (h *hist) add(x float64) {
	h.counts[histIndex(x, h.sub, h.minExp, len(h.counts))]++
	h.n++
	h.sum += x
	if x > h.max { // not math.Max: a call under WebAssembly, for NaN's sake
		h.max = x
	}
}

// quantile is the p-quantile (nearest rank: the ceil(p*n)-th smallest),
// as the middle of its bin, at most the largest value; 0 when empty.
func (h *hist) quantile(p float64) float64 {
	return histQuantile(h.counts, p, h.n, h.sub, h.minExp, h.max)
}

func histQuantile(counts []uint32, p float64, n, sub, minExp int, mx float64) float64 {
	if n == 0 {
		return 0
	}
	rank := max(1, int(math.Ceil(p*float64(n))))
	seen := 0
	for i, c := range counts {
		seen += int(c)
		if seen >= rank {
			return math.Min(histValue(i, sub, minExp, len(counts)), mx)
		}
	}
	return mx
}

// LatencyQuantiles are quantiles of the requests' latencies, in seconds:
// from a histogram whose bins are 0.8% wide, so each is within 0.4% of
// the exact order statistic (Mean and Max are exact). All zero when no
// request succeeded.
type LatencyQuantiles struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

func (h *hist) latency() LatencyQuantiles {
	if h.n == 0 {
		return LatencyQuantiles{}
	}
	// Rounding in the sum can put the mean of equal values a hair above
	// them: it is at most the largest.
	return LatencyQuantiles{Mean: min(h.sum/float64(h.n), h.max), P50: h.quantile(0.5), P95: h.quantile(0.95),
		P99: h.quantile(0.99), P999: h.quantile(0.999), Max: h.max}
}
