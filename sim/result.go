package sim

// Result is one run as plain data, for any front end to print or draw.
// Times are in seconds of simulated time.
type Result struct {
	Totals   Totals   `json:"totals"`
	Timeline []Bucket `json:"timeline"`
	// BucketWidth is the width of every timeline bucket, in seconds.
	BucketWidth float64 `json:"bucket_s"`
	// CapacityPerBucket is what the server can serve in one bucket (the
	// capacity line of a chart); 0 for occ.
	CapacityPerBucket float64 `json:"capacity_per_bucket"`
	// OutageStart and OutageEnd shade the outage (0, 0 if none).
	OutageStart float64 `json:"outage_start_s"`
	OutageEnd   float64 `json:"outage_end_s"`
	// Truncated is set when Horizon or MaxCalls stopped the run early.
	Truncated bool `json:"truncated,omitempty"`
}

// Totals sums up one run.
type Totals struct {
	Clients int `json:"clients"`
	// Calls is the work: every call that reached the server (for occ:
	// every write).
	Calls     int `json:"calls"`
	Succeeded int `json:"succeeded"`
	// GaveUp counts clients that ran out of attempts, deadline or budget,
	// or whose Retry-After exceeded their cap (the dead-letter queue).
	GaveUp int `json:"gave_up"`
	// Unfinished counts clients still trying when Horizon or MaxCalls
	// stopped the run.
	Unfinished int `json:"unfinished,omitempty"`
	// Blocked counts calls an open circuit breaker failed at once, without
	// reaching the server (not in Calls).
	Blocked int `json:"blocked,omitempty"`
	// Amplification is Calls / Clients.
	Amplification float64 `json:"amplification"`
	// Completion is the time from a successful client's first call to its
	// success.
	Completion Quantiles `json:"completion_s"`
	// Makespan is the time of the last event.
	Makespan float64 `json:"makespan_s"`
	// PeakLoadRatio is the most calls started in one bucket while the
	// server is up (for outage: from its end on), divided by
	// CapacityPerBucket; PeakRetryLoadRatio counts retries only. 0 for occ.
	PeakLoadRatio      float64 `json:"peak_load_ratio"`
	PeakRetryLoadRatio float64 `json:"peak_retry_load_ratio"`
}

// Quantiles of a set of durations, in seconds. All zero when the set is
// empty.
type Quantiles struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// Bucket is one slice of the timeline: [Start, Start+BucketWidth).
type Bucket struct {
	Start float64 `json:"start_s"`
	// Calls started by clients in the bucket; Retries is the part of them
	// that were not first attempts.
	Calls   int `json:"calls"`
	Retries int `json:"retries"`
	// OK and Rejected are the server's answers, counted when it gave them.
	OK       int `json:"ok"`
	Rejected int `json:"rejected"`
	// Blocked are calls the open breaker refused in the bucket.
	Blocked int `json:"blocked,omitempty"`
	// Waiting is the number of clients that had started and not finished
	// at the end of the bucket.
	Waiting int `json:"waiting"`
}

// MeanTotals is Totals averaged over runs (or their spread): the same
// fields as numbers.
type MeanTotals struct {
	Clients            float64   `json:"clients"`
	Calls              float64   `json:"calls"`
	Succeeded          float64   `json:"succeeded"`
	GaveUp             float64   `json:"gave_up"`
	Unfinished         float64   `json:"unfinished,omitempty"`
	Blocked            float64   `json:"blocked,omitempty"`
	Amplification      float64   `json:"amplification"`
	Completion         Quantiles `json:"completion_s"`
	Makespan           float64   `json:"makespan_s"`
	PeakLoadRatio      float64   `json:"peak_load_ratio"`
	PeakRetryLoadRatio float64   `json:"peak_retry_load_ratio"`
}

// Summary is RunMany's answer: the totals of runs with seeds
// Seed..Seed+Runs-1, their means and standard deviations, and the first
// run's result for its timeline.
type Summary struct {
	Runs  int        `json:"runs"`
	Seed  uint64     `json:"seed"`
	Mean  MeanTotals `json:"mean"`
	SD    MeanTotals `json:"sd"`
	First *Result    `json:"-"`
}

// finish stops the run and builds its Result.
func (s *Sim) finish() {
	if s.done {
		return
	}
	s.done = true
	unfinished := s.clients - s.succeeded - s.gaveUp
	if unfinished > 0 {
		s.truncated = true
	}
	c := &s.c
	// Load peaks count once the server is up for a whole bucket.
	from := 0.0
	if c.Server == Outage && c.OutageEnd > c.OutageStart {
		from = s.srv.outage.end
	}
	tl, width, peak, peakRetry := s.tl.buckets(s.last, from, !s.noTimeline)
	r := &Result{Timeline: tl, BucketWidth: width, Truncated: s.truncated}
	if c.Server != OCC {
		r.CapacityPerBucket = c.Capacity * width
	}
	if c.Server == Outage && c.OutageEnd > c.OutageStart {
		r.OutageStart, r.OutageEnd = s.srv.outage.start, s.srv.outage.end
	}
	r.Totals = Totals{
		Clients: s.clients, Calls: s.calls, Succeeded: s.succeeded, GaveUp: s.gaveUp,
		Unfinished: unfinished, Blocked: s.blocked,
		Amplification: float64(s.calls) / float64(s.clients),
		Completion:    quantiles(s.completions),
		Makespan:      s.last,
	}
	if r.CapacityPerBucket > 0 {
		r.Totals.PeakLoadRatio = float64(peak) / r.CapacityPerBucket
		r.Totals.PeakRetryLoadRatio = float64(peakRetry) / r.CapacityPerBucket
	}
	s.res = r
	s.progress = 1
	s.completions = nil
	s.state, s.srv.occ.reads = nil, nil
	s.q = queue{}
}
