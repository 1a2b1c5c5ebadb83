package backoff

import (
	"math"
	"math/rand/v2"
	"slices"
)

// UnlimitedRows is how many retries a table shows when Attempts is 0 (no
// limit) and no deadline stops it sooner.
const UnlimitedRows = 30

// Monte Carlo sizing: enough paths that each mean is within 1% at three
// standard errors, within a budget of draws. Every draw of a
// history-dependent kind is kept (4 bytes each) for the percentiles.
const (
	minMCPaths = 2000
	maxMCPaths = 1 << 20
	maxMCDraws = 1 << 23 // draws per table: 32 MB kept at most
	mcTarget   = 0.01    // default relative error of a mean, at 3 standard errors
)

// Row is one retry of a delay table. Times are in seconds.
type Row struct {
	Retry   int     // 1 = the first retry (the second attempt)
	Nominal float64 // un-jittered delay, after the cap and the floor, with Offset
	Min     float64 // smallest possible delay (an infimum for open ranges)
	Max     float64 // largest possible delay (a supremum for open ranges)
	Mean    float64
	P50     float64
	P95     float64
	Sample  float64 // this retry's delay in one seeded run
	CumMin  float64 // total wait up to and including this retry
	CumMean float64
	CumMax  float64
	// Capped is true once the nominal delay has reached the cap, or the
	// ceiling of 1e9 s (about 31.7 years) that holds every delay.
	Capped bool
	// PastDeadline is true when some runs stop before this retry because the
	// deadline is reached (CumMax exceeds it).
	PastDeadline bool
}

// Totals summarises the whole wait of a run that retries until attempts or
// the deadline run out (every call failing). Times are in seconds.
type Totals struct {
	Min, Mean, Max float64
}

// Table is the delay table of a policy.
type Table struct {
	Policy Policy
	Rows   []Row
	Total  Totals
	// CapRow is the first retry whose nominal delay reaches the cap, 0 if none.
	CapRow int
	// Unlimited is true when Attempts is 0 and the rows stop at UnlimitedRows
	// (or the deadline): totals then cover the rows shown.
	Unlimited bool
	// MonteCarlo is true when means and percentiles were estimated from
	// seeded sampled runs (decorrelated jitter kinds, or totals under a
	// deadline that can bind); Paths runs were sampled and MeanError is the
	// largest relative error of a mean at three standard errors.
	// QuantileError is the same for the sampled P50 and P95 (0 when they
	// are closed forms): they come from all Paths runs.
	MonteCarlo    bool
	Paths         int
	MeanError     float64
	QuantileError float64
}

// NewTable computes the delay table of p. The Sample column and any Monte
// Carlo estimate draw from r, so the same seed gives the same table.
//
// Closed forms give every column for none, full, equal, proportional and
// additive jitter; decorrelated kinds get exact bounds and sampled means and
// percentiles.
func NewTable(p Policy, r *rand.Rand) (*Table, error) {
	return NewTableWith(p, r, TableOptions{})
}

// TableOptions tunes the Monte Carlo estimate. The zero value asks for
// means within 1% at three standard errors.
type TableOptions struct {
	// MeanError is the target relative error of a sampled mean at three
	// standard errors (0 means 0.01). A page redrawing on every slider move
	// may ask for 0.03: about nine times fewer runs.
	MeanError float64
	// MaxDraws bounds the sampled delays in all (0 means 2^23, about 0.2 s
	// natively); MinRuns is the pilot's and the least number of runs (0
	// means 2000). A page that must answer within a frame bounds both and
	// shows the MeanError it got.
	MaxDraws, MinRuns int
}

// NewTableWith is NewTable with options.
func NewTableWith(p Policy, r *rand.Rand, o TableOptions) (*Table, error) {
	if o.MeanError <= 0 || math.IsNaN(o.MeanError) {
		o.MeanError = mcTarget
	}
	if o.MaxDraws <= 0 {
		o.MaxDraws = maxMCDraws
	}
	if o.MinRuns <= 0 {
		o.MinRuns = minMCPaths
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	t := &Table{Policy: p}
	n := p.Retries()
	if n < 0 {
		n = UnlimitedRows
		t.Unlimited = true
	}
	deadline := p.Deadline.Seconds()
	hasDeadline := p.Deadline > 0
	rows := make([]Row, 0, n)
	var cumMin, cumMean, cumMax float64
	for i := 1; i <= n; i++ {
		row := p.analyticRow(i)
		cumMin += row.Min
		cumMean += row.Mean
		cumMax += row.Max
		if hasDeadline && cumMin > deadline {
			break // no run reaches this retry
		}
		row.CumMin, row.CumMean, row.CumMax = cumMin, cumMean, cumMax
		row.PastDeadline = hasDeadline && cumMax > deadline
		if row.Capped && t.CapRow == 0 {
			t.CapRow = i
		}
		rows = append(rows, row)
	}
	t.Rows = rows
	// One seeded run for the Sample column.
	var st State
	for i := range rows {
		rows[i].Sample, st = p.Step(i+1, st, r.Float64())
	}
	binds := len(rows) > 0 && rows[len(rows)-1].PastDeadline
	if len(rows) > 0 {
		last := rows[len(rows)-1]
		t.Total = Totals{Min: last.CumMin, Mean: last.CumMean, Max: last.CumMax}
	}
	if p.Jitter.HistoryDependent() || binds {
		t.monteCarlo(r, o)
	}
	if binds {
		t.Total.Min = t.deadlineBest()
		t.Total.Max = math.Min(t.Total.Max, deadline)
	}
	return t, nil
}

// deadlineBest is the least total wait when the deadline can stop a run
// early: a run stops after retry k when the next delay would pass the
// deadline D, so its total is at least max(CumMin_k, D - Max_(k+1)), for
// the k where that is still reachable; after the last row it is CumMin.
func (t *Table) deadlineBest() float64 {
	d := t.Policy.Deadline.Seconds()
	rows := t.Rows
	best := rows[len(rows)-1].CumMin
	var cumMin, cumMax float64 // before retry k+1
	for _, row := range rows {
		if low := math.Max(cumMin, d-row.Max); low <= math.Min(cumMax, d) {
			best = math.Min(best, low)
		}
		cumMin, cumMax = row.CumMin, row.CumMax
	}
	return best
}

// dist is the distribution of one delay before the after-jitter cap and
// Offset: U[a, b) when q == 0 (a point when a == b), else a + q*U{0..k}.
type dist struct {
	a, b float64
	q    float64
	k    int
}

func (p *Policy) dist(n int) dist {
	if p.ImmediateFirst && n <= 1 {
		return dist{}
	}
	g, hit := p.capped(n)
	f := p.Floor.Seconds()
	g = max(g, f)
	if (hit && p.CapMode == CapExact) || (n == 1 && p.FirstUnjittered) {
		return dist{a: g, b: g}
	}
	// Step jitters what is above the floor and adds the floor back.
	d := p.jitterDist(n, g-f)
	d.a += f
	d.b += f
	return d
}

// jitterDist is the distribution of the state-free jitter of g.
func (p *Policy) jitterDist(n int, g float64) dist { return p.Jitter.kind().dist(p, n, g) }

// analyticRow fills the per-retry columns. For decorrelated kinds it gives
// the exact bounds; the mean and percentiles are placeholders until
// monteCarlo replaces them.
func (p *Policy) analyticRow(n int) Row {
	off := p.Offset.Seconds()
	// Step clamps the delay to the cap when capsDelay, then adds Offset,
	// then clamps to maxSeconds: one clamp c before Offset does both.
	c := maxSeconds - off
	if p.capsDelay() {
		c = math.Min(c, p.Cap.Seconds())
	}
	g, _ := p.capped(n)
	g = max(g, p.Floor.Seconds())
	if p.ImmediateFirst && n <= 1 {
		g = 0
	}
	row := Row{Retry: n, Nominal: math.Min(g, c) + off}
	if p.Cap > 0 {
		row.Capped = p.Nominal(n) >= p.Cap.Seconds() && !(p.ImmediateFirst && n <= 1)
	}
	// The ceiling every delay is held at is a cap too, if none is set:
	// without the mark, 720h * 100^(n-1) showed 11574d from retry 3 on,
	// "not capped".
	held := !(p.ImmediateFirst && n <= 1) && p.Nominal(n) >= maxSeconds
	row.Capped = row.Capped || held
	if p.ImmediateFirst && n <= 1 {
		row.Min, row.Max, row.Mean, row.P50, row.P95 = off, off, off, off, off
		return row
	}
	m := n // the history-dependent kinds' step: retry 1 is immediate
	if p.ImmediateFirst {
		m--
	}
	if k := p.Jitter.kind(); k.bounds != nil {
		lo, hi := k.bounds(p, m)
		row.Min, row.Max = math.Min(lo, c)+off, math.Min(hi, c)+off
		row.Capped = p.Cap > 0 && hi >= p.Cap.Seconds() || hi >= maxSeconds // its own bound, not Nominal
		row.Mean = (row.Min + row.Max) / 2
		row.P50, row.P95 = row.Mean, row.Max
		return row
	}
	d := p.dist(n)
	row.Min, row.Max, row.Mean = d.stats(c)
	row.P50, row.P95 = d.quantile(0.5, c), d.quantile(0.95, c)
	row.Min += off
	row.Max += off
	row.Mean += off
	row.P50 += off
	row.P95 += off
	return row
}

// stats returns the min, max and mean of min(X, c).
func (d dist) stats(c float64) (lo, hi, mean float64) {
	if d.q > 0 {
		top := d.a + d.q*float64(d.k)
		lo, hi = math.Min(d.a, c), math.Min(top, c)
		if c >= top {
			return lo, hi, (d.a + top) / 2
		}
		// j values lie below the cap; the rest are clamped to it.
		j := math.Min(math.Max(math.Ceil((c-d.a)/d.q), 0), float64(d.k+1))
		sum := j*d.a + d.q*j*(j-1)/2 + (float64(d.k+1)-j)*c
		return lo, hi, sum / float64(d.k+1)
	}
	lo, hi = math.Min(d.a, c), math.Min(d.b, c)
	switch {
	case c >= d.b:
		mean = (d.a + d.b) / 2
	case c <= d.a:
		mean = c
	default:
		w := d.b - d.a
		mean = (c-d.a)/w*(d.a+c)/2 + (d.b-c)/w*c
	}
	return lo, hi, mean
}

// quantile is the p-quantile of min(X, c): for the discrete case the
// smallest value whose cumulative probability reaches p.
func (d dist) quantile(p, c float64) float64 {
	if d.q > 0 {
		i := int(math.Ceil(p*float64(d.k+1))) - 1
		i = min(max(i, 0), d.k)
		return math.Min(d.a+d.q*float64(i), c)
	}
	return math.Min(d.a+p*(d.b-d.a), c)
}

// monteCarlo estimates means, percentiles and deadline-bound totals from
// seeded sampled runs. Means stream over every run; percentiles come from
// every run's delays, kept.
func (t *Table) monteCarlo(r *rand.Rand, o TableOptions) {
	target, minRuns := o.MeanError, o.MinRuns
	p := &t.Policy
	rows := t.Rows
	nr := len(rows)
	if nr == 0 {
		return
	}
	// A pilot sizes the sample: runs >= (3*cv/target)^2 for every row and
	// for the total.
	pilot := t.runPaths(r, minRuns, false)
	paths := minRuns
	for i := 0; i <= nr; i++ {
		m, sd := pilot.mean[i], pilot.sd(i)
		if m > 0 {
			paths = max(paths, int(math.Ceil(math.Pow(3*sd/m/(0.8*target), 2)))) // 20% margin: the pilot is noisy
		}
	}
	paths = min(paths, maxMCPaths, max(minRuns, o.MaxDraws/nr))
	hist := p.Jitter.HistoryDependent()
	ps := t.runPaths(r, paths, hist)
	t.MonteCarlo, t.Paths, t.MeanError = true, paths, 0
	for i := 0; i <= nr; i++ {
		if i < nr && !hist {
			continue // closed forms already hold for this row
		}
		if m := ps.mean[i]; m > 0 {
			t.MeanError = math.Max(t.MeanError, 3*ps.sd(i)/math.Sqrt(float64(paths))/m)
		}
	}
	if hist {
		var cum float64
		for i := range rows {
			rows[i].Mean = ps.mean[i]
			cum += ps.mean[i]
			rows[i].CumMean = cum
		}
		t.quantiles(ps)
		if cb := p.Jitter.kind().cumBounds; cb != nil {
			cb(t)
		} else {
			// The other decorrelated kinds: the all-low and all-high runs
			// are attainable, so the bounds add up.
			var lo, hi float64
			for i := range rows {
				lo += rows[i].Min
				hi += rows[i].Max
				rows[i].CumMin, rows[i].CumMax = lo, hi
			}
		}
	}
	last := rows[nr-1]
	t.Total = Totals{Min: last.CumMin, Mean: ps.mean[nr], Max: last.CumMax}
}

// pathStats are streamed statistics of sampled runs: per row i < rows the
// sum and sum of squares of the delay, and at index rows those of the run's
// total wait (stopping at the deadline). When kept, kept[i*n + j] is the
// delay of retry i+1 in run j less Offset (so a large Offset costs no
// precision), as float32: 4 bytes a draw, and far finer than the sampling
// error.
type pathStats struct {
	n        int
	mean, sq []float64 // after runPaths: means and mean squares
	kept     []float32
}

func (ps *pathStats) sd(i int) float64 {
	return math.Sqrt(math.Max(ps.sq[i]-ps.mean[i]*ps.mean[i], 0))
}

// column is retry i+1's delays over every run.
func (ps *pathStats) column(i int) []float32 { return ps.kept[i*ps.n : (i+1)*ps.n] }

func (t *Table) runPaths(r *rand.Rand, n int, keep bool) *pathStats {
	nr := len(t.Rows)
	ps := &pathStats{n: n, mean: make([]float64, nr+1), sq: make([]float64, nr+1)}
	if keep {
		ps.kept = make([]float32, nr*n)
	}
	p := &t.Policy
	deadline, hasDeadline := p.Deadline.Seconds(), p.Deadline > 0
	off := p.Offset.Seconds()
	sum, sq := ps.mean, ps.sq
	smp := NewSampler(*p)
	for j := 0; j < n; j++ {
		var prev, total float64
		stopped := false
		for i := 0; i < nr; i++ {
			d := smp.Next(i+1, &prev, r.Float64())
			sum[i] += d
			sq[i] += d * d
			if keep {
				ps.kept[i*n+j] = float32(max(d-off, 0))
			}
			if !stopped {
				if hasDeadline && total+d > deadline {
					stopped = true
				} else {
					total += d
				}
			}
		}
		sum[nr] += total
		sq[nr] += total * total
	}
	for i := range sum {
		sum[i] /= float64(n)
		sq[i] /= float64(n)
	}
	return ps
}

// quantiles sets the sampled rows' P50 and P95 and t.QuantileError.
//
// Decorrelated jitter's delay, given the previous one x, is
// min(cap, U[base, 3x)): its distribution is known exactly, so the CDF of
// retry n is the mean over runs of that conditional CDF at retry n-1's
// delays, an estimate with a fraction of the empirical CDF's variance
// (conditional Monte Carlo). It is solved exactly for each percentile. The
// true percentiles never fall from one retry to the next (each delay grows
// with the previous one), so the estimates are made monotone too.
//
// Polly's V2 gets the order statistics of every run. Either way the error
// stated is three standard errors of the percentile over its value: for
// order statistics from the binomial interval of its rank.
func (t *Table) quantiles(ps *pathStats) {
	p, rows := &t.Policy, t.Rows
	off := p.Offset.Seconds()
	c := maxSeconds - off
	if p.capsDelay() {
		c = math.Min(c, p.Cap.Seconds())
	}
	var h colHist
	t.QuantileError = 0
	uniform := p.Jitter.kind().uniformAbovePrev
	conditional := uniform && p.Base.Seconds()*math.Pow(3, float64(len(rows))) < c
	if uniform && p.Cap > 0 {
		conditional = true // every delay is below the cap, so never clamped to maxSeconds
	}
	b := p.Base.Seconds()
	for i := range rows {
		if p.ImmediateFirst && i == 0 {
			continue // the immediate retry: Offset, already exact
		}
		first := i == 0 || p.ImmediateFirst && i == 1
		switch {
		case conditional && first:
		case conditional:
			h.build(ps.column(i-1), rows[i-1].Min-off, rows[i-1].Max-off, b)
		default:
			h.build(ps.column(i), rows[i].Min-off, rows[i].Max-off, 0)
		}
		for _, q := range [...]struct {
			p   float64
			dst *float64
		}{{0.5, &rows[i].P50}, {0.95, &rows[i].P95}} {
			var v, se float64
			switch {
			case conditional && first:
				// The first step: U[base, 3 base) exactly.
				v = math.Min(b+q.p*2*b, c)
			case conditional:
				v, se = h.conditional(ps.column(i-1), b, c, q.p)
			default:
				v, se = h.quantile(ps.column(i), q.p)
			}
			// Kept draws are float32: clamp their rounding into the bounds.
			*q.dst = min(max(v+off, rows[i].Min), rows[i].Max)
			if v+off > 0 {
				t.QuantileError = math.Max(t.QuantileError, 3*se/(v+off))
			}
		}
	}
	if conditional {
		isotonic(rows, func(r *Row) *float64 { return &r.P50 })
		isotonic(rows, func(r *Row) *float64 { return &r.P95 })
	}
}

// isotonic replaces the column col of rows by its least-squares
// non-decreasing fit (pool adjacent violators): averages of the runs of
// estimates that fall.
func isotonic(rows []Row, col func(*Row) *float64) {
	type block struct {
		sum float64
		n   int
	}
	var st []block
	for i := range rows {
		st = append(st, block{*col(&rows[i]), 1})
		for len(st) > 1 {
			a, b := st[len(st)-2], st[len(st)-1]
			if a.sum/float64(a.n) <= b.sum/float64(b.n) {
				break
			}
			st = append(st[:len(st)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	i := 0
	for _, b := range st {
		for k := 0; k < b.n; k++ {
			*col(&rows[i]) = b.sum / float64(b.n)
			i++
		}
	}
}

// colHist finds percentiles of a column of float32 values >= 0 without
// sorting it: the bits of such a float order like its value, so bits>>16
// (exponent and 7 mantissa bits) number buckets less than 1% wide. One pass
// counts the buckets, another gathers the few values of the bucket that
// holds the answer, and only those are sorted. Its buffers are reused from
// row to row.
type colHist struct {
	lo          int // the first bucket's key
	count       []int32
	sumW, sumW2 []float64 // Decorrelated: sums of 1/(3x-b) and its square
	vals        []float32
}

const histShift = 16

func histKey(x float32) int { return int(math.Float32bits(x) >> histShift) }

// histEdge is the smallest value of the bucket with key k.
func histEdge(k int) float64 { return float64(math.Float32frombits(uint32(k) << histShift)) }

// build counts col's values, which lie in [lo, hi] but for rounding; with
// b > 0 it also sums Decorrelated's weights 1/(3x-b) per bucket.
func (h *colHist) build(col []float32, lo, hi, b float64) {
	kl, kh := histKey(float32(math.Max(lo*(1-1e-6), 0))), histKey(float32(hi*(1+1e-6)))
	n := kh - kl + 1
	h.lo = kl
	count := slices.Grow(h.count[:0], n)[:n]
	clear(count)
	clamp := func(x float32) int { return min(max(histKey(x), kl), kh) - kl }
	if b <= 0 {
		for _, x := range col {
			count[clamp(x)]++
		}
		h.count = count
		return
	}
	sw := slices.Grow(h.sumW[:0], n)[:n]
	sw2 := slices.Grow(h.sumW2[:0], n)[:n]
	clear(sw)
	clear(sw2)
	for _, x := range col {
		k := clamp(x)
		w := 1 / (3*float64(x) - b)
		count[k]++
		sw[k] += w
		sw2[k] += w * w
	}
	h.count, h.sumW, h.sumW2 = count, sw, sw2
}

// gather returns col's values in buckets from..to (indexes of count),
// sorted.
func (h *colHist) gather(col []float32, from, to int) []float32 {
	vals := h.vals[:0]
	// Compare values, not keys: bucket k holds [edge(k), edge(k+1)), the
	// first and last also what rounding put outside the column's bounds.
	lo, hi := float32(math.Inf(-1)), float32(math.Inf(1))
	if from > 0 {
		lo = float32(histEdge(h.lo + from))
	}
	if to < len(h.count)-1 {
		hi = float32(histEdge(h.lo + to + 1))
	}
	for _, x := range col {
		if x >= lo && x < hi {
			vals = append(vals, x)
		}
	}
	slices.Sort(vals)
	h.vals = vals
	return vals
}

// quantile is the p-quantile of the built column col by linear
// interpolation between order statistics, and its standard error: a sixth
// of the span of the order statistics at ranks p*n -+ 3*sqrt(n*p*(1-p)),
// the binomial interval.
func (h *colHist) quantile(col []float32, p float64) (v, se float64) {
	n := len(col)
	if n == 0 {
		return 0, 0
	}
	pos := p * float64(n-1)
	i := int(pos)
	half := 3 * math.Sqrt(float64(n)*p*(1-p))
	rlo := max(min(int(math.Floor(pos-half)), i), 0)
	rhi := min(max(int(math.Ceil(pos+half)), i+1), n-1)
	// The buckets of ranks rlo and rhi, and the count below the first.
	from, to, below, cum := -1, len(h.count)-1, 0, 0
	for k, c := range h.count {
		if from < 0 && cum+int(c) > rlo {
			from, below = k, cum
		}
		cum += int(c)
		if cum > rhi {
			to = k
			break
		}
	}
	vals := h.gather(col, from, to)
	at := func(r int) float64 { return float64(vals[min(r-below, len(vals)-1)]) }
	v = at(i)
	if f := pos - float64(i); f > 0 && i+1 < n {
		v = v*(1-f) + at(i+1)*f
	}
	return v, (at(rhi) - at(rlo)) / 6
}

// conditional is the p-quantile of Decorrelated's next delay
// min(c, U[b, 3x)) given the delays x of the previous retry in prev (built
// with weights), and its standard error. The CDF estimate is F(y) = mean
// over x of min(1, (y-b)/(3x-b)) for y < c: continuous, piecewise linear,
// with a corner at each 3x, so it is solved exactly segment by segment,
// buckets that cannot hold the answer skipped whole.
func (h *colHist) conditional(prev []float32, b, c, p float64) (v, se float64) {
	n := float64(len(prev))
	var sat, sumW, sumW2 float64 // saturated count; unsaturated sums of w, w^2
	for k := range h.count {
		sumW += h.sumW[k]
		sumW2 += h.sumW2[k]
	}
	target := p * n
	var y float64
	solve := func(until float64) bool {
		if sumW <= 0 {
			return false
		}
		y = b + (target-sat)/sumW
		return y <= until
	}
	found := false
	for k, cnt := range h.count {
		if cnt == 0 {
			continue
		}
		e, next := histEdge(k+h.lo), histEdge(k+h.lo+1)
		if found = solve(3 * e); found {
			break
		}
		// All of bucket k is saturated by 3*next: skip it whole if F is
		// still below p there.
		w, w2 := h.sumW[k], h.sumW2[k]
		if sat+float64(cnt)+(3*next-b)*(sumW-w) < target {
			sat, sumW, sumW2 = sat+float64(cnt), sumW-w, sumW2-w2
			continue
		}
		for _, x := range h.gather(prev, k, k) {
			if found = solve(3 * float64(x)); found {
				break
			}
			w := 1 / (3*float64(x) - b)
			sat, sumW, sumW2 = sat+1, sumW-w, sumW2-w*w
		}
		if found || solve(3*next) {
			found = true
			break
		}
	}
	if !found || y >= c { // past the cap, or rounding left F just below p
		return c, 0
	}
	// The variance of the conditional CDF at y over runs, then the delta
	// method: se(y) = se(F(y)) / F'(y).
	d := y - b
	g2 := (sat + d*d*sumW2) / n
	sdF := math.Sqrt(math.Max(g2-p*p, 0) / n)
	if sumW <= 0 {
		return y, 0
	}
	return y, sdF / (sumW / n)
}

// NewRand returns the seeded source of tables and sampled runs: PCG seeded
// with (seed, seed ^ 0x9e3779b97f4a7c15). The simulator draws from its own
// seeded SplitMix64 instead, which is cheaper under WebAssembly.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
