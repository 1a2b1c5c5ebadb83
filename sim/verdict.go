package sim

// Verdict is what a request-level run with faults says about its recovery
// from the last one, as facts a front end words in its language: "did not
// recover after the stall: retries hold the offered load at 1.9x capacity",
// "recovered 18s after the stall ended (at 48s)".
type Verdict struct {
	// Fault is the fault that ends last; End is when it ends, seconds.
	Fault FaultKind
	End   float64
	// RecoveredAt is Totals.RecoveredAt: nil when the run did not recover.
	RecoveredAt *float64
	// Load is the calls offered per second from End to the traffic's end
	// over the server's capacity per second; 0 when either is unknown.
	Load float64
	// RetriesHold is set when those calls exceed the requests behind them
	// by more than 10%: the retries, not the callers, are the overload.
	RetriesHold bool
}

// VerdictOf is r's verdict; ok is false when recovery does not apply
// (closed traffic, no fault, or too short a run after the last fault).
func VerdictOf(c Config, r *Result) (v Verdict, ok bool) {
	if r == nil || r.Totals.Recovery == "" || len(r.Faults) == 0 {
		return Verdict{}, false
	}
	last := r.Faults[0]
	for _, f := range r.Faults[1:] {
		if f.End >= last.End {
			last = f
		}
	}
	v = Verdict{Fault: last.Kind, End: last.End.Seconds(), RecoveredAt: r.Totals.RecoveredAt}
	var calls, requests int
	var span float64
	for _, b := range r.Timeline {
		if b.Start >= v.End && b.Start < c.Duration.Seconds() {
			calls += b.Calls
			requests += b.Requests
			span += r.BucketWidth
		}
	}
	if perSecond := r.CapacityPerBucket / r.BucketWidth; span > 0 && perSecond > 0 {
		v.Load = float64(calls) / span / perSecond
		v.RetriesHold = requests > 0 && float64(calls) > 1.1*float64(requests)
	}
	return v, true
}
