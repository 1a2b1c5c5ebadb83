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
// standard errors, but never more than maxMCValues stored draws in all.
const (
	minMCPaths  = 2000
	maxMCPaths  = 1 << 20
	maxMCDraws  = 1 << 23 // draws per table, streamed
	maxMCValues = 1 << 18 // draws kept for percentiles
	mcTarget    = 0.01    // default relative error of a mean, at 3 standard errors
)

// Row is one retry of a delay table. Times are in seconds.
type Row struct {
	Retry   int     // 1 = the first retry (the second attempt)
	Nominal float64 // un-jittered delay, after the cap, with Offset
	Min     float64 // smallest possible delay (an infimum for open ranges)
	Max     float64 // largest possible delay (a supremum for open ranges)
	Mean    float64
	P50     float64
	P95     float64
	Sample  float64 // this retry's delay in one seeded run
	CumMin  float64 // total wait up to and including this retry
	CumMean float64
	CumMax  float64
	// Capped is true once the nominal delay has reached the cap.
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
	MonteCarlo bool
	Paths      int
	MeanError  float64
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
	if hasDeadline && t.Total.Max > deadline {
		t.Total.Max = deadline
	}
	return t, nil
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
	if (hit && p.CapMode == CapExact) || (n == 1 && p.FirstUnjittered) {
		return dist{a: g, b: g}
	}
	switch p.Jitter {
	case Full:
		if q := p.Quantum.Seconds(); q > 0 {
			return dist{q: q, k: int(math.Floor(g/q + 1e-9))}
		}
		return dist{a: 0, b: g}
	case Equal:
		return dist{a: g / 2, b: g}
	case Proportional:
		return dist{a: g * p.JitterLo, b: g * p.JitterHi}
	case Additive:
		a := p.additiveAmplitude(n)
		if q := p.Quantum.Seconds(); q > 0 {
			k := int(math.Ceil(a/q-1e-9)) - 1
			return dist{a: g, q: q, k: max(k, 0)}
		}
		return dist{a: g, b: g + a}
	}
	return dist{a: g, b: g}
}

// analyticRow fills the per-retry columns. For decorrelated kinds it gives
// the exact bounds; the mean and percentiles are placeholders until
// monteCarlo replaces them.
func (p *Policy) analyticRow(n int) Row {
	c := math.Inf(1)
	if p.Cap > 0 && (p.CapMode == CapAfterJitter || p.Jitter == Decorrelated) {
		c = p.Cap.Seconds()
	}
	off := p.Offset.Seconds()
	g, _ := p.capped(n)
	if p.ImmediateFirst && n <= 1 {
		g = 0
	}
	row := Row{Retry: n, Nominal: math.Min(g, c) + off}
	if p.Cap > 0 {
		row.Capped = p.Nominal(n) >= p.Cap.Seconds() && !(p.ImmediateFirst && n <= 1)
	}
	if p.ImmediateFirst && n <= 1 {
		row.Min, row.Max, row.Mean, row.P50, row.P95 = off, off, off, off, off
		return row
	}
	switch p.Jitter {
	case Decorrelated:
		b := p.Base.Seconds()
		m := n
		if p.ImmediateFirst {
			m--
		}
		hi := math.Min(b*math.Pow(3, float64(m)), maxSeconds)
		row.Min, row.Max = math.Min(b, c)+off, math.Min(hi, c)+off
		row.Capped = p.Cap > 0 && hi >= c
		row.Mean = (row.Min + row.Max) / 2
		row.P50, row.P95 = row.Mean, row.Max
		return row
	case DecorrelatedV2:
		f := func(t float64) float64 { return pollyV2(t) / 1.4 * p.Base.Seconds() }
		m := n
		if p.ImmediateFirst {
			m--
		}
		hi := f(float64(m)) - f(float64(m-2))
		row.Min, row.Max = off, math.Min(hi, c)+off
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
// the first keep runs, stored.
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
	pilot := t.runPaths(r, minRuns, minRuns)
	paths := minRuns
	for i := 0; i <= nr; i++ {
		m, sd := pilot.mean[i], pilot.sd(i)
		if m > 0 {
			paths = max(paths, int(math.Ceil(math.Pow(3*sd/m/(0.8*target), 2)))) // 20% margin: the pilot is noisy
		}
	}
	paths = min(paths, maxMCPaths, max(minRuns, o.MaxDraws/nr))
	// Percentiles need stored draws; a tight budget stores fewer (sorting
	// them is the cost that dominates under WebAssembly).
	keep := min(paths, max(minRuns, min(maxMCValues, o.MaxDraws/4)/nr))
	ps := t.runPaths(r, paths, keep)
	t.MonteCarlo, t.Paths, t.MeanError = true, paths, 0
	hist := p.Jitter.HistoryDependent()
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
			col := ps.kept[i*keep : (i+1)*keep]
			slices.Sort(col)
			rows[i].Mean = ps.mean[i]
			rows[i].P50 = quantileSorted(col, 0.5)
			rows[i].P95 = quantileSorted(col, 0.95)
			cum += ps.mean[i]
			rows[i].CumMean = cum
		}
		switch {
		case p.Jitter == DecorrelatedV2 && p.Cap > 0:
			// No closed form: the sampled extremes of the cumulative wait.
			for i := range rows {
				rows[i].CumMin, rows[i].CumMax = ps.cumMin[i], ps.cumMax[i]
			}
		case p.Jitter == DecorrelatedV2:
			// The sum telescopes: cum_n = f(t_n) / 1.4 * Base + n*Offset,
			// t_n in [n-1, n).
			f := func(x float64) float64 { return pollyV2(x) / 1.4 * p.Base.Seconds() }
			off := p.Offset.Seconds()
			shift := 0
			if p.ImmediateFirst {
				shift = 1
			}
			for i := range rows {
				m := float64(i + 1 - shift)
				k := float64(i + 1)
				rows[i].CumMin = f(m-1) + off*k
				rows[i].CumMax = f(m) + off*k
			}
		default:
			// Decorrelated: the all-low and all-high runs are attainable, so
			// the bounds add up.
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
// total wait (stopping at the deadline). kept[i*keep + j] is retry i+1 of
// run j < keep.
type pathStats struct {
	n              int
	mean, sq       []float64 // after runPaths: means and mean squares
	cumMin, cumMax []float64
	kept           []float64
}

func (ps *pathStats) sd(i int) float64 {
	return math.Sqrt(math.Max(ps.sq[i]-ps.mean[i]*ps.mean[i], 0))
}

func (t *Table) runPaths(r *rand.Rand, n, keep int) *pathStats {
	nr := len(t.Rows)
	ps := &pathStats{n: n, mean: make([]float64, nr+1), sq: make([]float64, nr+1),
		cumMin: make([]float64, nr), cumMax: make([]float64, nr), kept: make([]float64, nr*keep)}
	for i := range ps.cumMin {
		ps.cumMin[i] = math.Inf(1)
	}
	p := &t.Policy
	deadline, hasDeadline := p.Deadline.Seconds(), p.Deadline > 0
	sum, sq := ps.mean, ps.sq
	smp := NewSampler(*p)
	for j := 0; j < n; j++ {
		var prev, cum, total float64
		stopped := false
		for i := 0; i < nr; i++ {
			d := smp.Next(i+1, &prev, r.Float64())
			sum[i] += d
			sq[i] += d * d
			if j < keep {
				ps.kept[i*keep+j] = d
			}
			if !stopped {
				if hasDeadline && total+d > deadline {
					stopped = true
				} else {
					total += d
				}
			}
			cum += d
			if cum < ps.cumMin[i] {
				ps.cumMin[i] = cum
			}
			if cum > ps.cumMax[i] {
				ps.cumMax[i] = cum
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

// quantileSorted is the p-quantile of sorted xs by linear interpolation.
func quantileSorted(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	pos := p * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	f := pos - float64(i)
	return xs[i]*(1-f) + xs[i+1]*f
}

// NewRand returns the seeded source used throughout: PCG seeded with
// (seed, seed). Every run, table and simulation takes one of these.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
