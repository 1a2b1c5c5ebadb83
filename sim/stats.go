package sim

import "math"

// quantiles of xs, which it reorders. Quantiles interpolate linearly
// between order statistics, as backoff's tables do. It selects rather than
// sorts: O(n) expected, which matters at a million clients.
func quantiles(xs []float64) Quantiles {
	n := len(xs)
	if n == 0 {
		return Quantiles{}
	}
	var q Quantiles
	sum, mx := 0.0, xs[0]
	for _, x := range xs {
		sum += x
		mx = math.Max(mx, x)
	}
	q.Mean, q.Max = sum/float64(n), mx
	// Select in increasing order so each search only looks above the last.
	lo := 0
	at := func(p float64) float64 {
		pos := p * float64(n-1)
		i := int(pos)
		selectK(xs[lo:], i-lo)
		lo = i
		v := xs[i]
		if f := pos - float64(i); f > 0 && i+1 < n {
			next := xs[i+1]
			for _, x := range xs[i+1:] {
				next = math.Min(next, x)
			}
			v = v*(1-f) + next*f
		}
		return v
	}
	q.P50 = at(0.50)
	q.P95 = at(0.95)
	q.P99 = at(0.99)
	return q
}

// selectK reorders xs so that xs[k] is the k-th smallest, smaller ones
// before it and larger ones after (Hoare's quickselect, median-of-three).
func selectK(xs []float64, k int) {
	lo, hi := 0, len(xs)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

func asMean(t Totals) MeanTotals {
	return MeanTotals{
		Clients: float64(t.Clients), Calls: float64(t.Calls), Succeeded: float64(t.Succeeded),
		GaveUp: float64(t.GaveUp), Unfinished: float64(t.Unfinished), Blocked: float64(t.Blocked),
		Amplification: t.Amplification, Completion: t.Completion, Makespan: t.Makespan,
		PeakLoadRatio: t.PeakLoadRatio, PeakRetryLoadRatio: t.PeakRetryLoadRatio,
	}
}

// fields lists MeanTotals' numbers, so meanSD need not name each twice.
func (m *MeanTotals) fields() []*float64 {
	return []*float64{&m.Clients, &m.Calls, &m.Succeeded, &m.GaveUp, &m.Unfinished, &m.Blocked,
		&m.Amplification, &m.Completion.Mean, &m.Completion.P50, &m.Completion.P95, &m.Completion.P99,
		&m.Completion.Max, &m.Makespan, &m.PeakLoadRatio, &m.PeakRetryLoadRatio}
}

func meanSD(all []MeanTotals) (mean, sd MeanTotals) {
	mf, sf := mean.fields(), sd.fields()
	n := float64(len(all))
	for k := range mf {
		s := 0.0
		for i := range all {
			s += *all[i].fields()[k]
		}
		m := s / n
		v := 0.0
		for i := range all {
			d := *all[i].fields()[k] - m
			v += d * d
		}
		*mf[k] = m
		if len(all) > 1 {
			*sf[k] = math.Sqrt(v / (n - 1))
		}
	}
	return mean, sd
}
