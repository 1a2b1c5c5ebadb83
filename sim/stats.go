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
	m := MeanTotals{
		Clients: float64(t.Clients), Calls: float64(t.Calls), JainFairness: t.JainFairness, Succeeded: float64(t.Succeeded),
		GaveUp: float64(t.GaveUp), Unfinished: float64(t.Unfinished), Blocked: float64(t.Blocked),
		Amplification: t.Amplification, Completion: t.Completion, Makespan: t.Makespan,
		PeakLoadRatio: t.PeakLoadRatio, PeakRetryLoadRatio: t.PeakRetryLoadRatio,
	}
	if !t.RequestLevel {
		return m
	}
	ch := &m.MeanChainTotals
	ch.BottomLoadRatio, ch.OrphanCalls, ch.LayerTimeouts = t.BottomLoadRatio, float64(t.OrphanCalls), float64(t.LayerTimeouts)
	copy(ch.byLayer[:], t.CallsPerRequestByLayer)
	m.MeanChannelTotals = MeanChannelTotals{t.OfferedLoad, t.ChannelThroughput, float64(t.Collisions)}
	m.MeanCacheTotals = MeanCacheTotals{float64(t.Hits), float64(t.Misses), t.HitRatio, float64(t.Stored)}
	m.RequestLevel, m.shape = true, t.shape
	m.MeanRequestTotals = MeanRequestTotals{
		Requests: float64(t.Requests), GoodputPerS: t.GoodputPerS, ThroughputPerS: t.ThroughputPerS,
		SuccessRatio: t.SuccessRatio, Served: float64(t.Served), Refused: float64(t.Refused),
		Errors: float64(t.Errors), OutageFails: float64(t.OutageFails), Timeouts: float64(t.Timeouts),
		Throttled: float64(t.Throttled), Dropped: float64(t.Dropped), Cancelled: float64(t.Cancelled), Shed: float64(t.Shed),
		Limited: float64(t.Limited), Expired: float64(t.Expired),
		WastedWork: t.WastedWork, Latency: t.Latency, QueueWait: t.QueueWait,
		Hedges: float64(t.Hedges), HedgeLoad: t.HedgeLoad, Lost: float64(t.Lost),
	}
	return m
}

// nFields is how many numbers MeanTotals has (but a fleet's servers').
const nFields = 52 + MaxLayers

// fields lists MeanTotals' numbers, so meanSD need not name each twice.
// An array, not a slice: it stays off the heap.
func (m *MeanTotals) fields() [nFields]*float64 {
	r := &m.MeanRequestTotals
	return [nFields]*float64{&m.Clients, &m.Calls, &m.JainFairness, &m.Succeeded, &m.GaveUp, &m.Unfinished, &m.Blocked,
		&m.Amplification, &m.Completion.Mean, &m.Completion.P50, &m.Completion.P95, &m.Completion.P99,
		&m.Completion.Max, &m.Makespan, &m.PeakLoadRatio, &m.PeakRetryLoadRatio,
		&r.Requests, &r.GoodputPerS, &r.ThroughputPerS, &r.SuccessRatio, &r.Served, &r.Refused, &r.Errors,
		&r.OutageFails, &r.Timeouts, &r.Throttled, &r.Dropped, &r.Cancelled, &r.Shed, &r.Limited, &r.Expired, &r.WastedWork,
		&r.Latency.Mean, &r.Latency.P50, &r.Latency.P95, &r.Latency.P99, &r.Latency.P999, &r.Latency.Max,
		&r.QueueWait, &r.Hedges, &r.HedgeLoad, &r.Lost,
		&m.BottomLoadRatio, &m.OrphanCalls, &m.LayerTimeouts,
		&m.byLayer[0], &m.byLayer[1], &m.byLayer[2], &m.byLayer[3],
		&m.byLayer[4], &m.byLayer[5], &m.byLayer[6], &m.byLayer[7],
		&m.OfferedLoad, &m.ChannelThroughput, &m.Collisions,
		&m.MeanCacheTotals.Hits, &m.MeanCacheTotals.Misses, &m.MeanCacheTotals.HitRatio, &m.MeanCacheTotals.Stored}
}

// setLayers fills CallsPerRequestByLayer from the fixed fields, for a
// chain of layers.
func (m *MeanChainTotals) setLayers(layers int) {
	if layers > 1 {
		m.CallsPerRequestByLayer = append([]float64(nil), m.byLayer[:layers]...)
	}
}

// perServerMeanSD is the mean and standard deviation of each server's
// totals over the runs all (nil for one server).
func perServerMeanSD(all []Totals) (mean, sd []MeanServerTotals) {
	if len(all) == 0 || all[0].PerServer == nil {
		return nil, nil
	}
	n := len(all[0].PerServer)
	mean, sd = make([]MeanServerTotals, n), make([]MeanServerTotals, n)
	runs := make([]MeanTotals, len(all))
	for k := range n {
		for i, t := range all {
			s := t.PerServer[k]
			// Through MeanTotals' fields, to reuse meanSD.
			runs[i] = MeanTotals{MeanRequestTotals: MeanRequestTotals{Served: float64(s.Served), Refused: float64(s.Refused),
				Errors: float64(s.Errors), OutageFails: float64(s.Outage), Timeouts: float64(s.Timeouts), Lost: float64(s.Lost),
				ThroughputPerS: s.ThroughputPerS, GoodputPerS: s.Utilization}}
		}
		m, d := meanSD(runs)
		mean[k], sd[k] = asServer(m.MeanRequestTotals), asServer(d.MeanRequestTotals)
	}
	return mean, sd
}

// perNodeMeanSD is the mean and standard deviation of each node's figures
// over the runs all, which share one topology.
func perNodeMeanSD(all []Totals) (mean, sd []NodeTotals) {
	if len(all) == 0 || all[0].PerNode == nil {
		return nil, nil
	}
	first := all[0].PerNode
	mean, sd = make([]NodeTotals, len(first)), make([]NodeTotals, len(first))
	xs := make([]float64, len(all))
	for k, n := range first {
		mean[k] = NodeTotals{Name: n.Name, Kind: n.Kind, Figures: make([]NodeFigure, len(n.Figures))}
		sd[k] = NodeTotals{Name: n.Name, Kind: n.Kind, Figures: make([]NodeFigure, len(n.Figures))}
		for j, f := range n.Figures {
			for i, t := range all {
				xs[i] = t.PerNode[k].Figures[j].Value
			}
			m, d := meanSDOf(xs)
			mean[k].Figures[j] = NodeFigure{f.Key, m}
			sd[k].Figures[j] = NodeFigure{f.Key, d}
		}
	}
	return mean, sd
}

// asServer is a server's totals carried in MeanRequestTotals' fields
// (perServerMeanSD; its utilization in GoodputPerS).
func asServer(r MeanRequestTotals) MeanServerTotals {
	return MeanServerTotals{Served: r.Served, ThroughputPerS: r.ThroughputPerS, Refused: r.Refused, Errors: r.Errors,
		Outage: r.OutageFails, Timeouts: r.Timeouts, Lost: r.Lost, Utilization: r.GoodputPerS}
}

// recoveryMeanSD is the mean and standard deviation of the recovery times
// of the runs that recovered (nil if none), the share that did among
// those where recovery applies, and whether it applies to any.
func recoveryMeanSD(all []Totals) (mean, sd *float64, share float64, applies bool) {
	var ts []float64
	n := 0 // runs where recovery applies
	for _, t := range all {
		if t.Recovery != "" {
			n++
		}
		if t.RecoveredAt != nil {
			ts = append(ts, *t.RecoveredAt)
		}
	}
	if n > 0 {
		share = float64(len(ts)) / float64(n)
	}
	if len(ts) == 0 {
		return nil, nil, share, n > 0
	}
	m, s := meanSDOf(ts)
	return &m, &s, share, n > 0
}

// meanSDOf is the mean of xs and their sample standard deviation (0 for
// one value).
func meanSDOf(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	n := float64(len(xs))
	mean /= n
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		sd = math.Sqrt(v / (n - 1))
	}
	return mean, sd
}

func meanSD(all []MeanTotals) (mean, sd MeanTotals) {
	mf, sf := mean.fields(), sd.fields()
	af := make([][nFields]*float64, len(all))
	for i := range all {
		af[i] = all[i].fields()
	}
	xs := make([]float64, len(all))
	for k := range mf {
		for i := range all {
			xs[i] = *af[i][k]
		}
		*mf[k], *sf[k] = meanSDOf(xs)
	}
	return mean, sd
}
