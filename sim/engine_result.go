package sim

import "math"

// finish stops a request-level run and builds its Result.
func (r *reqSim) finish() {
	if r.done {
		return
	}
	r.done = true
	if r.trace != nil {
		r.traceEnd()
	}
	c := &r.c
	unfinished := r.requests - r.succeeded - r.gaveUp
	// The span rates are per second of: the window (open and loop
	// traffic), or the makespan (closed traffic, Drain).
	span := r.last
	if !math.IsInf(r.window, 1) {
		span = r.window
	} else if unfinished > 0 {
		r.stop(StopCalls, r.now) // only a cap leaves requests going here
	}
	if r.truncated {
		span = math.Min(span, r.stoppedAt)
	}
	// The timeline reaches the span's end; a bucket starting there is
	// kept only if something happened at that instant (the timeline
	// places times to the nanosecond: a nanosecond before is the bucket
	// before).
	lastEnd := r.faultsEnd(math.Max(r.last, span))
	tl, width, peak, peakRetry := r.tl.buckets(math.Max(r.last, span-1e-9), lastEnd, true)
	r.nodeBuckets(tl)
	res := &Result{Timeline: tl, BucketWidth: width, Truncated: r.truncated, TruncatedBy: r.truncBy, FullAt: r.fullAt,
		CapacityPerBucket: r.perSecond() * width}
	if r.truncated {
		res.StoppedAt = &r.stoppedAt
	}
	res.OutageStart, res.OutageEnd, _ = c.OwnOutage()
	res.Faults = append(c.Faults.List(), c.modelFaults()...)
	if len(res.Faults) == 0 {
		res.Faults = nil
	}
	lq := r.latency.latency()
	t := Totals{
		Clients: r.requests, Calls: r.calls, Succeeded: r.succeeded, GaveUp: r.gaveUp,
		Unfinished: unfinished, Blocked: r.blocked,
		Completion:   Quantiles{Mean: lq.Mean, P50: lq.P50, P95: lq.P95, P99: lq.P99, Max: lq.Max},
		Makespan:     r.last,
		RequestLevel: true,
		shape:        shapeOf(c),
	}
	if r.requests > 0 {
		t.Amplification = float64(r.calls) / float64(r.requests)
		t.SuccessRatio = float64(r.succeeded) / float64(r.requests)
	}
	if res.CapacityPerBucket > 0 {
		t.PeakLoadRatio = float64(peak) / res.CapacityPerBucket
		t.PeakRetryLoadRatio = float64(peakRetry) / res.CapacityPerBucket
	}
	rt := &t.RequestTotals
	rt.Requests = r.requests
	if span > 0 {
		rt.GoodputPerS = float64(r.succeeded) / span
		rt.ThroughputPerS = float64(r.served) / span
	}
	rt.Served, rt.Refused, rt.Errors, rt.OutageFails = r.served, r.refused, r.errs, r.outageFails
	rt.Timeouts, rt.Throttled, rt.Dropped, rt.Cancelled = r.timeouts, r.throttled, r.dropped, r.cancelled
	rt.Shed, rt.Limited, rt.Expired = r.shed, r.limited, r.expired
	rt.WastedWork, rt.Latency, rt.Hedges = r.wasted, lq, r.hedges
	rt.PerServer, rt.Lost = r.perServer(span), r.lost
	t.PerNode = r.perNode(span)
	if r.waits > 0 {
		rt.QueueWait = r.waitSum / float64(r.waits)
	}
	if base := r.calls - r.hedges; base > 0 {
		rt.HedgeLoad = float64(r.hedges) / float64(base)
	}
	if c.Traffic != Closed && lastEnd > 0 {
		rt.RecoveredAt, rt.Recovery = recovery(tl, width, lastEnd, math.Min(r.duration, span))
	}
	if m := c.Server.Model(); m != nil {
		m.addTotals(r, &t, span)
	}
	if r.cache != nil {
		t.CacheTotals = r.cache.totals()
	}
	if c.Layers > 1 {
		ch := &t.ChainTotals
		ch.CallsPerRequestByLayer = make([]float64, c.Layers)
		for k, n := range r.layerCalls {
			if r.requests > 0 {
				ch.CallsPerRequestByLayer[k] = float64(n) / float64(r.requests)
			}
		}
		ch.BottomLoadRatio = ch.CallsPerRequestByLayer[c.Layers-1]
		ch.OrphanCalls = r.orphans
		for _, n := range r.layerTimeoutsAt {
			ch.LayerTimeouts += n
		}
		aq := r.answers.latency()
		ch.Answer = &Quantiles{Mean: aq.Mean, P50: aq.P50, P95: aq.P95, P99: aq.P99, Max: aq.Max}
	}
	t.JainFairness, t.Worst, res.PerClient = r.fair.result()
	res.Trace = r.fair.trace
	res.Totals = t
	r.res = res
	r.progress = 1
	r.slots = len(r.callers)
	if r.spare != nil {
		giveBack(&r.spare.callers, r.callers)
		giveBack(&r.spare.revs, r.h.heap.h)
	}
	r.callers, r.free, r.cbudget = nil, nil, nil
	r.h = evQueue{}
	for k := range r.srvs {
		r.srvs[k].q = ring{}
	}
}

// faultsEnd is when the last fault that started before end (the run's)
// ends, at any server, or 0: load peaks and recovery are judged from
// then on. A fault that starts after the run has ended meets nothing.
func (r *reqSim) faultsEnd(end float64) float64 {
	last := 0.0
	for _, f := range append(r.c.Faults.List(), r.c.modelFaults()...) {
		if f.Start.Seconds() < end {
			last = math.Max(last, f.End.Seconds())
		}
	}
	return last
}

// perSecond is what the fleet serves per second at full speed.
func (r *reqSim) perSecond() float64 {
	var n float64
	for k := range r.srvs {
		n += r.srvs[k].perSecond()
	}
	return n
}

// perNode is every node's figures over span seconds, in Topology's order.
func (r *reqSim) perNode(span float64) []NodeTotals {
	c := &r.c
	names := c.NodeNames()
	parts := shapeParts(c.Layers, c.Servers, c.CacheKeys > 0)
	out := make([]NodeTotals, len(parts))
	for k, p := range parts {
		out[k] = NodeTotals{Name: names[k], Kind: p.kind.Name(), Figures: p.kind.figures(r, p.i, span, nil)}
	}
	return out
}

// nodeBuckets gives each bucket its nodes' figures, in perNode's order,
// from the bucket, its bin's request-level counts and the timeline's
// slots for it (the servers', then the layers'): the buckets are the
// timeline's bins, one for one.
func (r *reqSim) nodeBuckets(tl []Bucket) {
	c := &r.c
	parts := shapeParts(c.Layers, c.Servers, c.CacheKeys > 0)
	np, ns := len(parts), r.tl.nslot
	// Two allocations for the whole timeline: its nodes, and their
	// figures (at most five a node).
	all := make([]NodeBucket, len(tl)*np)
	figs := make([]float64, 0, len(tl)*np*5)
	for i := range tl {
		o := &tl[i]
		var srv, lay []sbin
		if ns > 0 {
			slots := r.tl.srv[i*ns : (i+1)*ns]
			srv, lay = slots[:r.tl.nsrv], slots[r.tl.nsrv:]
		}
		o.Nodes = all[i*np : (i+1)*np : (i+1)*np]
		for k, p := range parts {
			from := len(figs)
			figs = p.kind.bucket(o, &r.tl.ext[i], srv, lay, p.i, figs)
			o.Nodes[k] = NodeBucket{p.kind.bucketKeys(), figs[from:len(figs):len(figs)]}
		}
	}
}

// perServer is each server's totals over span seconds (a fleet's).
func (r *reqSim) perServer(span float64) []ServerTotals {
	if len(r.srvs) < 2 {
		return nil
	}
	out := make([]ServerTotals, len(r.srvs))
	for k := range r.srvs {
		sv := &r.srvs[k]
		o := &out[k]
		o.Served, o.Refused, o.Errors, o.Outage = sv.served, sv.refused, sv.errs, sv.outage
		o.Timeouts, o.Lost = sv.timeouts, sv.lost
		if span > 0 {
			o.ThroughputPerS = float64(sv.served) / span
		}
		o.Utilization = sv.utilization(span)
	}
	return out
}

// utilization is the server's work over what it could have done in span
// seconds, faults included (a capacity fault that doubles the workers
// doubles what it could do): seconds of service over its worker-seconds
// for the queue server, calls over its rate's integral for a
// rate-limited one, whose tokens come only at that rate (0 for no span).
func (sv *rserver) utilization(span float64) float64 {
	if span <= 0 {
		return 0
	}
	if sv.waits == WaitMedium {
		// A medium's work is its frames that got through (served, an
		// error or not): they never overlap, so at most the span.
		return float64(sv.served) * sv.ch.frame / span
	}
	can := sv.perSecond() * span
	if sv.taker == nil {
		can = 0
		segs := sv.sched.segs
		for i := range segs {
			g := &segs[i]
			end := span
			if i+1 < len(segs) {
				end = math.Min(span, segs[i+1].start)
			}
			if end <= g.start {
				continue
			}
			if sv.waits == WaitQueue {
				can += float64(sv.room(g)) * (end - g.start)
			} else {
				can += sv.capacity * g.capacity / g.slow * (end - g.start)
			}
		}
	}
	if sv.waits == WaitQueue {
		can += sv.over
		if can <= 0 {
			return 0
		}
		return sv.work / can
	}
	if can > 0 {
		return float64(sv.served) / can
	}
	return 0
}

// Recovery is judged over windows of recoveryWindow seconds: goodput at
// least recoveryShare of the requests offered in each.
const (
	recoveryWindow = 5.0
	recoveryShare  = 0.9
)

// recovery is the first bucket start T at or after from such that every
// window of recoveryWindow seconds starting at a bucket from T on, and
// ending by until, has goodput at least recoveryShare of its offered
// requests: the server recovered at T and stayed recovered while traffic
// came. Goodput counts requests when they succeed, offered ones when they
// start; over a window of 5 s the difference is a latency's worth. A
// bucket wider than the window is a window. The verdict is "" when no
// window fits between from and until.
func recovery(tl []Bucket, width, from, until float64) (*float64, string) {
	n := max(1, int(math.Round(recoveryWindow/width)))
	good := make([]int, len(tl)+1)
	offered := make([]int, len(tl)+1)
	for i, b := range tl {
		good[i+1] = good[i] + b.Goodput
		offered[i+1] = offered[i] + b.Requests
	}
	eps := 1e-9 * math.Max(1, until)
	k0, last, bad := -1, -1, -1
	for k := range tl {
		if tl[k].Start < from-eps || k+n > len(tl) || tl[k].Start+float64(n)*width > until+eps {
			continue
		}
		if k0 < 0 {
			k0 = k
		}
		last = k
		if float64(good[k+n]-good[k]) < recoveryShare*float64(offered[k+n]-offered[k]) {
			bad = k
		}
	}
	switch {
	case k0 < 0:
		return nil, ""
	case bad == last:
		return nil, NotRecovered
	}
	at := tl[max(k0, bad+1)].Start
	return &at, Recovered
}
