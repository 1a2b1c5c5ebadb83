package sim

import (
	"encoding/json"
	"strconv"
)

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
	// Truncated is set when something other than the run's own end
	// stopped it early: TruncatedBy says what (StopCalls, StopHorizon or
	// StopMemory) and StoppedAt when, in simulated seconds. Requests still
	// going then count as Unfinished. An open or loop run that reaches
	// the end of its Duration is not truncated: that is its window.
	Truncated   bool     `json:"truncated,omitempty"`
	TruncatedBy string   `json:"truncated_by,omitempty"`
	StoppedAt   *float64 `json:"stopped_at_s,omitempty"`
	// FullAt is when the run came to hold Config.MaxInFlight callers'
	// worth of requests, events and queued calls and stopped (StopMemory;
	// 0: it did not): with Duration at most FullAt the run is the same up
	// to then and never fills.
	FullAt float64 `json:"full_at_s,omitempty"`
	// PerClient is each client's outcome when there are at most
	// MaxPerClient of them (closed and loop traffic); Trace what the first
	// MaxTraceClients did over time.
	PerClient []ClientOutcome `json:"per_client,omitempty"`
	Trace     *Trace          `json:"-"`
	// Faults are the run's faults (an outage model's outage included),
	// for a chart to shade; nil when there are none or the run is the
	// herd's (whose outage is OutageStart and OutageEnd).
	Faults []Fault `json:"-"`
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
	// Unfinished counts clients still trying when the run stopped: cut
	// short (Result.TruncatedBy), or, for open and loop traffic without
	// Config.Drain, at the end of Duration with calls still queued or in
	// flight (never counted as lost).
	Unfinished int `json:"unfinished"`
	// Blocked counts calls an open circuit breaker failed at once, without
	// reaching the server (not in Calls).
	Blocked int `json:"blocked"`
	// Amplification is Calls / Clients.
	Amplification float64 `json:"amplification"`
	// Completion is the time from a successful client's first call to its
	// success.
	Completion Quantiles `json:"completion_s"`
	// Makespan is the time of the last event on a call or request: a
	// fault's start or end that meets none is no event, and does not
	// stretch the span closed and drained runs' rates are per second of.
	Makespan float64 `json:"makespan_s"`
	// HerdEnds are the last success's and give-up's times (herd runs).
	HerdEnds
	// JainFairness is Jain's fairness index of the clients' outcomes, and
	// Worst the worst-off client (fairness.go); 0 and nil (JSON's null)
	// when no client ended.
	JainFairness float64        `json:"jain_fairness"`
	Worst        *ClientOutcome `json:"worst_client"`
	// PeakLoadRatio is the most calls started in one bucket while the
	// server is up (for outage: from its end on), divided by
	// CapacityPerBucket; PeakRetryLoadRatio counts retries only. 0 for occ.
	PeakLoadRatio      float64 `json:"peak_load_ratio"`
	PeakRetryLoadRatio float64 `json:"peak_retry_load_ratio"`

	// RequestLevel is set when the run was simulated request by request
	// (Config.RequestLevel): open or loop traffic, the queue server,
	// timeouts, faults, error rates, adaptive throttling, per-caller
	// budgets or hedging. Only then are the fields below set, and only
	// then does the JSON carry their keys. Clients then counts requests
	// (each a caller wanting one success).
	RequestLevel bool `json:"-"`
	RequestTotals
	ChainTotals
	ChannelTotals
	CacheTotals
	// PerNode is every node of the run's topology (Config.Topology), in
	// its order, with its kind's figures (node_*.go): the client-side
	// view of the calls it was sent and what became of them. A herd's is
	// its one server.
	PerNode []NodeTotals `json:"per_node"`
	// shape is which of the model's groups of keys the JSON carries:
	// every key of each, zero or not (jsonShape).
	shape jsonShape
}

// ChannelTotals are the shared channel's totals (Server Channel; zero,
// and left out of the JSON, otherwise).
type ChannelTotals struct {
	// OfferedLoad is G: transmissions started per frame time (first
	// tries and retransmissions), over the traffic's duration (closed:
	// the makespan).
	OfferedLoad float64 `json:"offered_load"`
	// ChannelThroughput is S: the share of that time the channel carried
	// frames that got through.
	ChannelThroughput float64 `json:"channel_throughput"`
	// Collisions counts transmissions lost to a collision.
	Collisions int `json:"collisions"`
}

// CacheTotals are the cache's totals (Config.CacheKeys > 0; zero, and
// left out of the JSON, otherwise): the calls into it that it answered
// (Hits) and passed below (Misses: the tries that missed, and hedges'
// copies), the hits' share of them, and the keys it stored (answers OK
// that came back to a caller still waiting).
type CacheTotals struct {
	Hits     int     `json:"hits"`
	Misses   int     `json:"misses"`
	HitRatio float64 `json:"hit_ratio"`
	Stored   int     `json:"stored"`
}

// ChainTotals are a call chain's totals (Config.Layers > 1; zero, and left
// out of the JSON, otherwise).
type ChainTotals struct {
	// CallsPerRequestByLayer is the calls each layer made to the one
	// below (the bottom's to the server) per top-level request, top first.
	CallsPerRequestByLayer []float64 `json:"calls_per_request_by_layer"`
	// BottomLoadRatio is the bottom's calls over the requests offered at
	// the top: the amplification the server sees.
	BottomLoadRatio float64 `json:"bottom_load_ratio"`
	// OrphanCalls are the bottom's calls made after a caller above in
	// its chain had stopped waiting (LayerTimeout): work for nobody.
	OrphanCalls int `json:"orphan_calls"`
	// LayerTimeouts counts the calls between layers that timed out.
	LayerTimeouts int `json:"layer_timeouts"`
	// Answer is the time from a top-level request's start to its answer,
	// success or failure.
	Answer *Quantiles `json:"answer_s"`
}

// RequestTotals are a request-level run's totals.
type RequestTotals struct {
	// Requests made: Clients for closed traffic, the arrivals for open
	// traffic, the requests all callers made for a loop.
	Requests int `json:"requests"`
	// GoodputPerS is successful requests per second, ThroughputPerS calls
	// the server finished (served) per second: over Duration for open and
	// loop traffic, over the makespan for closed.
	GoodputPerS    float64 `json:"goodput_per_s"`
	ThroughputPerS float64 `json:"throughput_per_s"`
	// SuccessRatio is Succeeded / Requests.
	SuccessRatio float64 `json:"success_ratio"`
	// Served counts calls the server did the work of (ok or an error,
	// wasted or not); Refused, Errors and OutageFails the failures it
	// answered (503s for want of capacity or queue room, errors by
	// ErrorRate or an errors fault, calls during an outage); Timeouts the
	// calls callers stopped waiting for; Throttled the calls an adaptive
	// throttle refused locally; Dropped the calls the server skipped
	// because their caller had gone (DropExpired) and Cancelled the hedges
	// removed from the queue (HedgeCancel). Shed are the refusals that
	// were the queue server's queue's (a part of Refused): calls that
	// found it full (QueueLimit, or its Discipline's bound) or waited
	// longer than its Discipline allows; Limited those of its Admission
	// rule (429s), a part of Refused too; Expired those for a deadline
	// passed down that had passed (PropagateDeadline), a part of Refused.
	Served      int `json:"served"`
	Refused     int `json:"refused"`
	Errors      int `json:"errors"`
	OutageFails int `json:"outage"`
	Timeouts    int `json:"timeouts"`
	Throttled   int `json:"throttled"`
	Dropped     int `json:"dropped"`
	Cancelled   int `json:"cancelled"`
	Shed        int `json:"shed"`
	Limited     int `json:"limited"`
	Expired     int `json:"expired"`
	// WastedWork is seconds of server work on calls whose caller had
	// stopped waiting for them (timed out, or a sibling hedge won); a
	// rate-limited server's call costs 1/Capacity seconds.
	WastedWork float64 `json:"wasted_work_s"`
	// Latency is the successful requests' latencies (first call to
	// success, retries included): Completion, with p99.9.
	Latency LatencyQuantiles `json:"latency_s"`
	// QueueWait is the mean time calls waited in the queue server's queue
	// before service, seconds.
	QueueWait float64 `json:"queue_wait_s"`
	// Hedges counts second copies sent; HedgeLoad is Hedges over the
	// calls made without them (the extra load).
	Hedges    int     `json:"hedges"`
	HedgeLoad float64 `json:"hedge_load"`
	// RecoveredAt is, for open and loop traffic with a fault, the first
	// time after the last fault ends from which goodput stays at least
	// 90% of the requests offered over every 5 s until the traffic ends;
	// nil if it never does (a metastable failure) or there is nothing to
	// recover from (Recovery says which).
	RecoveredAt *float64 `json:"recovered_at_s"`
	// PerServer is each server of a fleet (Config.Servers > 1; else nil),
	// and Lost the calls crashes lost (no answer came for them).
	PerServer []ServerTotals `json:"per_server"`
	Lost      int            `json:"lost"`
	// Recovery is "recovered", "not-recovered", or "" when it does not
	// apply (closed traffic, no fault, or too short a run after the last
	// fault to tell).
	Recovery string `json:"recovery"`
}

// NodeTotals is one node's figures over a run (or their mean or spread
// over runs): its name, its kind, and the figures its kind declares, in
// their order. In JSON, one object: name, kind and each figure's key.
type NodeTotals struct {
	Name, Kind string
	Figures    []NodeFigure
}

// NodeFigure is one figure of a node: calls, served, hit_ratio...
type NodeFigure struct {
	Key   string
	Value float64
}

// Figure is the value of n's figure key, and whether n's kind has it.
func (n NodeTotals) Figure(key string) (float64, bool) {
	for _, f := range n.Figures {
		if f.Key == key {
			return f.Value, true
		}
	}
	return 0, false
}

// MarshalJSON writes n as one object, its figures in their order.
func (n NodeTotals) MarshalJSON() ([]byte, error) {
	b := []byte(`{"name":`)
	b = strconv.AppendQuote(b, n.Name)
	b = append(b, `,"kind":`...)
	b = strconv.AppendQuote(b, n.Kind)
	for _, f := range n.Figures {
		b = append(b, ',')
		b = strconv.AppendQuote(b, f.Key)
		b = append(b, ':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// What stopped a run early (Result.TruncatedBy).
const (
	// StopCalls: Config.MaxCalls tries were made.
	StopCalls = "calls"
	// StopHorizon: simulated time reached Config.Horizon.
	StopHorizon = "horizon"
	// StopMemory: the run held Config.MaxInFlight callers' worth of
	// requests, events and queued calls at once.
	StopMemory = "memory"
)

// Recovery verdicts.
const (
	Recovered    = "recovered"
	NotRecovered = "not-recovered"
)

// MarshalJSON writes the keys of the run's model, every one, zero or
// not: the herd's, and a request-level run's with its fleet's, chain's
// and channel's groups when it has them (cmd/backoff/sim.schema.json).
func (t Totals) MarshalJSON() ([]byte, error) {
	type plain Totals
	b, err := json.Marshal(plain(t))
	if err != nil {
		return nil, err
	}
	return t.shape.keep(b, t.RequestLevel)
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
	// Started are the clients whose first try was in the bucket: Calls
	// less Retries, and first tries an open breaker refused (not calls).
	// Not in the JSON, whose herd keys stay as they were (a request-level
	// bucket writes it as requests).
	Started int `json:"-"`
	// OK and Rejected are the server's answers, counted when it gave them.
	OK       int `json:"ok"`
	Rejected int `json:"rejected"`
	// Blocked are calls the open breaker refused in the bucket.
	Blocked int `json:"blocked"`
	// Waiting is the number of clients that had started and not finished
	// at the end of the bucket.
	Waiting int `json:"waiting"`

	// Request-level runs only (Totals.RequestLevel), else zero and left
	// out of the JSON: requests started (offered), requests that
	// succeeded (goodput), calls the server finished, its failures by
	// reason, calls timed out, refused locally by an adaptive throttle,
	// and hedges sent; the queue's length and the busy workers at the
	// bucket's end; the p50 and p99 latency of the calls whose answer
	// reached a waiting caller in the bucket (12.5% bins); and seconds of
	// work done for callers that had gone.
	Requests   int     `json:"requests"`
	Goodput    int     `json:"goodput"`
	Served     int     `json:"served"`
	Refused    int     `json:"refused"`
	Errors     int     `json:"errors"`
	Outage     int     `json:"outage"`
	Timeouts   int     `json:"timeouts"`
	Throttled  int     `json:"throttled"`
	Hedges     int     `json:"hedges"`
	Queue      int     `json:"queue"`
	Busy       int     `json:"busy"`
	LatencyP50 float64 `json:"latency_p50_s"`
	LatencyP99 float64 `json:"latency_p99_s"`
	WastedWork float64 `json:"wasted_work_s"`
	// Servers is each server of a fleet in the bucket (Config.Servers >
	// 1; else nil, and left out of the JSON).
	Servers []ServerBucket `json:"servers"`
	// Hits and Misses at the cache (Config.CacheKeys > 0; else left out
	// of the JSON), and the hits' share of them (0 when none).
	Hits     int     `json:"hits"`
	Misses   int     `json:"misses"`
	HitRatio float64 `json:"hit_ratio"`
	// Nodes is every node of the topology in the bucket, in PerNode's
	// order, each with the figures its kind counts per bucket (a herd's
	// one server: its calls, served and failed).
	Nodes []NodeBucket `json:"nodes"`
	req   bool
	cache bool
}

// NodeBucket is one node's figures in one bucket: its kind's keys for a
// bucket (shared by every bucket) and their values. In JSON, an object
// of them in their order.
type NodeBucket struct {
	Keys   []string
	Values []float64
}

// Figure is the value of n's figure key, and whether n's kind has it.
func (n NodeBucket) Figure(key string) (float64, bool) {
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i], true
		}
	}
	return 0, false
}

// MarshalJSON writes n as one object.
func (n NodeBucket) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range n.Keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		v, err := json.Marshal(n.Values[i])
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// ServerBucket is one server of a fleet in one bucket: the calls it
// served and failed (refused, errors, and refused while down), the calls
// sent to it that timed out, the calls a crash lost, and its queue and
// busy workers at the bucket's end.
type ServerBucket struct {
	Served   int `json:"served"`
	Failed   int `json:"failed"`
	Timeouts int `json:"timeouts"`
	Lost     int `json:"lost"`
	Queue    int `json:"queue"`
	Busy     int `json:"busy"`
}

// ServerTotals is one server of a fleet over the run: the calls it
// served (ThroughputPerS of them a second of the span), refused (no
// capacity or queue room), failed with an error, refused while down
// (an outage or a crash), the calls sent to it that timed out, the calls
// its crashes lost, and Utilization: its work over what it could have
// done in the span (seconds of service over workers x span for the queue
// server, calls over capacity x span for a rate-limited one).
type ServerTotals struct {
	Served         int     `json:"served"`
	ThroughputPerS float64 `json:"throughput_per_s"`
	Refused        int     `json:"refused"`
	Errors         int     `json:"errors"`
	Outage         int     `json:"outage"`
	Timeouts       int     `json:"timeouts"`
	Lost           int     `json:"lost"`
	Utilization    float64 `json:"utilization"`
}

// MarshalJSON writes the request-level keys only for a request-level
// run's buckets, a fleet's servers only for a fleet's, and the cache's
// columns only for a run with a cache.
func (b Bucket) MarshalJSON() ([]byte, error) {
	type plain Bucket
	// Fields of the outer struct hide the embedded ones of the same JSON
	// name: nil and omitempty, they leave their keys out.
	type none = *struct{}
	switch {
	case !b.req:
		return json.Marshal(herdBucket{b.Start, b.Calls, b.Retries, b.OK, b.Rejected, b.Blocked, b.Waiting, b.Nodes})
	case b.Servers == nil && !b.cache:
		return json.Marshal(struct {
			plain
			Servers  none `json:"servers,omitempty"`
			Hits     none `json:"hits,omitempty"`
			Misses   none `json:"misses,omitempty"`
			HitRatio none `json:"hit_ratio,omitempty"`
		}{plain: plain(b)})
	case b.Servers == nil:
		return json.Marshal(struct {
			plain
			Servers none `json:"servers,omitempty"`
		}{plain: plain(b)})
	case !b.cache:
		return json.Marshal(struct {
			plain
			Hits     none `json:"hits,omitempty"`
			Misses   none `json:"misses,omitempty"`
			HitRatio none `json:"hit_ratio,omitempty"`
		}{plain: plain(b)})
	}
	return json.Marshal(plain(b))
}

// herdBucket is a herd run's bucket in JSON: Bucket's first keys.
type herdBucket struct {
	Start    float64      `json:"start_s"`
	Calls    int          `json:"calls"`
	Retries  int          `json:"retries"`
	OK       int          `json:"ok"`
	Rejected int          `json:"rejected"`
	Blocked  int          `json:"blocked"`
	Waiting  int          `json:"waiting"`
	Nodes    []NodeBucket `json:"nodes"`
}

// MeanTotals is Totals averaged over runs (or their spread): the same
// fields as numbers.
type MeanTotals struct {
	Clients            float64   `json:"clients"`
	Calls              float64   `json:"calls"`
	JainFairness       float64   `json:"jain_fairness"`
	Succeeded          float64   `json:"succeeded"`
	GaveUp             float64   `json:"gave_up"`
	Unfinished         float64   `json:"unfinished"`
	Blocked            float64   `json:"blocked"`
	Amplification      float64   `json:"amplification"`
	Completion         Quantiles `json:"completion_s"`
	Makespan           float64   `json:"makespan_s"`
	PeakLoadRatio      float64   `json:"peak_load_ratio"`
	PeakRetryLoadRatio float64   `json:"peak_retry_load_ratio"`

	// RequestLevel: as Totals'; only then are the fields below set and
	// written.
	RequestLevel bool `json:"-"`
	MeanRequestTotals
	MeanChainTotals
	MeanChannelTotals
	MeanCacheTotals
	// PerNode is each node's figures averaged (Totals.PerNode).
	PerNode []NodeTotals `json:"per_node"`
	shape   jsonShape    // as Totals'
	// recoverable: recovery applied to at least one of the runs, so
	// Recovered is a share of them (SweepMetrics).
	recoverable bool
}

// MeanChannelTotals are ChannelTotals averaged over runs (or their spread).
type MeanChannelTotals struct {
	OfferedLoad       float64 `json:"offered_load"`
	ChannelThroughput float64 `json:"channel_throughput"`
	Collisions        float64 `json:"collisions"`
}

// MeanCacheTotals are CacheTotals averaged over runs (or their spread).
type MeanCacheTotals struct {
	Hits     float64 `json:"hits"`
	Misses   float64 `json:"misses"`
	HitRatio float64 `json:"hit_ratio"`
	Stored   float64 `json:"stored"`
}

// MeanChainTotals are ChainTotals averaged over runs (or their spread).
type MeanChainTotals struct {
	CallsPerRequestByLayer []float64 `json:"calls_per_request_by_layer"`
	BottomLoadRatio        float64   `json:"bottom_load_ratio"`
	OrphanCalls            float64   `json:"orphan_calls"`
	LayerTimeouts          float64   `json:"layer_timeouts"`
	// byLayer holds CallsPerRequestByLayer for meanSD's fixed fields.
	byLayer [MaxLayers]float64
}

// MeanRequestTotals are RequestTotals averaged over runs (or their
// spread). RecoveredAt is over the runs that recovered (nil if none did),
// and Recovered is the share of runs that did (of those where recovery
// applies).
type MeanRequestTotals struct {
	Requests       float64          `json:"requests"`
	GoodputPerS    float64          `json:"goodput_per_s"`
	ThroughputPerS float64          `json:"throughput_per_s"`
	SuccessRatio   float64          `json:"success_ratio"`
	Served         float64          `json:"served"`
	Refused        float64          `json:"refused"`
	Errors         float64          `json:"errors"`
	OutageFails    float64          `json:"outage"`
	Timeouts       float64          `json:"timeouts"`
	Throttled      float64          `json:"throttled"`
	Dropped        float64          `json:"dropped"`
	Cancelled      float64          `json:"cancelled"`
	Shed           float64          `json:"shed"`
	Limited        float64          `json:"limited"`
	Expired        float64          `json:"expired"`
	WastedWork     float64          `json:"wasted_work_s"`
	Latency        LatencyQuantiles `json:"latency_s"`
	QueueWait      float64          `json:"queue_wait_s"`
	Hedges         float64          `json:"hedges"`
	HedgeLoad      float64          `json:"hedge_load"`
	RecoveredAt    *float64         `json:"recovered_at_s"`
	Recovered      float64          `json:"recovered"`
	// PerServer is each server of a fleet, its totals averaged (nil for
	// one server), and Lost the calls crashes lost.
	PerServer []MeanServerTotals `json:"per_server"`
	Lost      float64            `json:"lost"`
}

// MeanServerTotals is ServerTotals averaged over runs (or their spread).
type MeanServerTotals struct {
	Served         float64 `json:"served"`
	ThroughputPerS float64 `json:"throughput_per_s"`
	Refused        float64 `json:"refused"`
	Errors         float64 `json:"errors"`
	Outage         float64 `json:"outage"`
	Timeouts       float64 `json:"timeouts"`
	Lost           float64 `json:"lost"`
	Utilization    float64 `json:"utilization"`
}

// MarshalJSON writes the keys of the runs' model, as Totals'.
func (m MeanTotals) MarshalJSON() ([]byte, error) {
	type plain MeanTotals
	b, err := json.Marshal(plain(m))
	if err != nil {
		return nil, err
	}
	return m.shape.keep(b, m.RequestLevel)
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
	// Truncated counts the runs cut short (Result.Truncated): their
	// totals are what they made before they stopped.
	Truncated int `json:"-"`
}

// finish stops the run and builds its Result.
func (s *Sim) finish() {
	if s.done {
		return
	}
	s.done = true
	if s.trace != nil {
		s.trace.end()
	}
	unfinished := s.clients - s.succeeded - s.gaveUp
	if unfinished > 0 {
		s.stop(StopCalls, s.now) // only a cap leaves clients going here
	}
	c := &s.c
	// Load peaks count once the server is up for a whole bucket.
	start, end, down := c.OwnOutage()
	from := 0.0
	if down {
		from = end
	}
	tl, width, peak, peakRetry := s.tl.buckets(s.last, from, !s.noTimeline)
	r := &Result{Timeline: tl, BucketWidth: width, Truncated: s.truncated, TruncatedBy: s.truncBy}
	if s.truncated {
		r.StoppedAt = &s.stoppedAt
	}
	if c.Server.Traits().Rated {
		r.CapacityPerBucket = c.Capacity * width
	}
	r.OutageStart, r.OutageEnd = start, end
	r.Totals = Totals{
		Clients: s.clients, Calls: s.calls, Succeeded: s.succeeded, GaveUp: s.gaveUp,
		Unfinished: unfinished, Blocked: s.blocked,
		Amplification: float64(s.calls) / float64(s.clients),
		Completion:    quantiles(s.completions),
		Makespan:      s.last,
		HerdEnds:      s.ends,
	}
	if r.CapacityPerBucket > 0 {
		r.Totals.PeakLoadRatio = float64(peak) / r.CapacityPerBucket
		r.Totals.PeakRetryLoadRatio = float64(peakRetry) / r.CapacityPerBucket
	}
	r.Totals.PerNode = []NodeTotals{herdNode(s, c.NodeNames()[0], s.last)}
	herdNodeBuckets(tl)
	r.Totals.JainFairness, r.Totals.Worst, r.PerClient = s.fair.result()
	r.Trace = s.fair.trace
	s.res = r
	s.progress = 1
	if sp := s.spare; sp != nil {
		giveBack(&sp.completions, s.completions)
		giveBack(&sp.state, s.state)
		giveBack(&sp.reads, s.srv.occ.reads)
		giveBack(&sp.pool, s.q.pool)
		giveBack(&sp.fill, s.q.fill)
		giveBack(&sp.next, s.q.next)
	}
	s.completions = nil
	s.state, s.srv.occ.reads = nil, nil
	s.q = queue{}
}
