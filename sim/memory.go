package sim

import (
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/backoff-playground/playground/backoff"
)

// EstimateMemory bounds the bytes one run of c holds at once, for a
// front end that runs several at a time (a server drawing images) to keep
// them within a budget. Like EstimateCalls it simulates nothing.
//
// It adds up what the run's structures take, from their types' sizes:
// the herd's engine holds each client's one pending event (32 bytes) and
// its completion time (8), 8 more with a history-dependent jitter, 16 for
// occ's reads and 64 on the slow path a budget or a breaker takes, and
// its queue's spare blocks. A request-level run holds its callers (80
// bytes each, 256 more with a budget of its own, and their events: about
// two of 32 bytes, in slices that grow by doubling); the callers are
// Clients (closed traffic) and Callers (loop), each layer's in a call
// chain, or for open traffic the requests that can be in flight: at most
// Rate*Duration, MaxCalls and MaxInFlight's worth. Calls that pile up in
// a queue (24 bytes each) count against MaxInFlight as the run goes
// (reqSim.held). Both engines add their timeline (its bins, and its
// buckets: up to 131,072 with a fixed Bucket, 31 MB, EstimateBuckets),
// histograms, per-client outcomes and trace.
//
// TestMemoryPeak holds it at or above the most a run holds (its live
// heap, sampled as it goes) and within twice that, over a set of
// configurations; a retry storm of 10,000 requests a second was refused
// at 43 s as needing 1024 MB, 1 KB a request or queued call, where it
// held 54 MB.
func EstimateMemory(c Config) int64 {
	fixed, per, n := memoryModel(c)
	return fixed + int64(max(n, 0)*per)
}

// memoryModel is EstimateMemory's terms: fixed bytes, and per bytes for
// each of n callers.
func memoryModel(c Config) (fixed int64, per, n float64) {
	if c.MaxCalls <= 0 {
		c.MaxCalls = DefaultMaxCalls
	}
	fixed = runBytes + timelineBytes(&c) + traceBytes(&c)
	if !c.RequestLevel() {
		clients := max(c.Clients, 0)
		per = eventBytes + 8 // its event in the queue, its completion time
		if c.Policy.Jitter.HistoryDependent() {
			per += 8
		}
		if m := c.Server.Model(); m != nil {
			per += float64(m.Traits().ClientBytes)
		}
		if c.Budget.Kind != NoBudget || c.Breaker.Kind != NoBreaker {
			// The slow path queues every step: a burst's first tries
			// wait in the near heap, which grows by doubling.
			per += 2 * eventBytes
		}
		extra := float64(min(clients, MaxPerClient)) * outcomeBytes
		if clients > smallQueue {
			// The wheel's spare blocks, one per slot it may use.
			bl, _ := queueBlocks(clients)
			extra += float64(bl)*float64(min(clients, levels*slots))*eventBytes + wheelBytes
		} else {
			// The tournament tree: two nodes and a client a leaf.
			size := 1
			for size < clients {
				size *= 2
			}
			extra += float64(size) * (2*tentryBytes + clientBytes)
			per -= eventBytes
		}
		fixed += int64(extra)
		return fixed, per, float64(clients)
	}
	fixed += int64(reqFixedBytes + float64(max(1, c.Servers))*serverBytes)
	fixed += cacheBytes(&c)
	layers := chainCallers(&c)
	switch c.Traffic {
	case Loop:
		n = float64(c.Callers) * layers
		fixed += int64(c.Callers) * 4 // successes a caller
	case Open:
		n = math.Min(math.Ceil(c.Rate*c.Duration.Seconds()), float64(c.MaxCalls)) * layers
	default:
		n = float64(c.Clients) * layers
	}
	if c.Traffic != Open {
		fixed += int64(float64(min(callersAtOnce(&c), MaxPerClient)) * outcomeBytes)
	}
	per = callerUnit(&c)
	if c.MaxInFlight > 0 && c.Traffic == Open {
		// Closed and loop callers are all there from the start; open
		// ones stop arriving once the run holds MaxInFlight's worth.
		n = math.Min(n, float64(c.MaxInFlight))
	}
	return fixed, per, n
}

// callerUnit is what a request-level caller holds, its slot and its
// events (about two, four with hedges: a copy's arrival and the hedge's
// timer, at twice their size: the event queue's slices grow by
// doubling), in bytes: MaxInFlight's unit (reqSim.held).
func callerUnit(c *Config) float64 {
	events := 2.0
	if c.Hedge.On() {
		events = 4
	}
	return slotBytes(c) + 2*events*revBytes
}

// slotBytes is a request-level caller's slot: the caller, its own budget
// if it has one, and for callers that come and go (open traffic, a
// chain's layers) its entry in the free list, in slices that grow by
// append's quarter (appended).
func slotBytes(c *Config) float64 {
	slot := callerBytes
	if c.BudgetScope == CallerScope {
		slot += rbudgetBytes
	}
	if c.Traffic == Open || c.Layers > 1 {
		slot = 1.25 * (slot + 4)
	}
	return slot
}

// timelineBytes is what c's timeline holds: its bins (1024, or up to
// MaxBuckets with a fixed width), each with its request-level counts and a
// fleet's servers', and the buckets of the result.
func timelineBytes(c *Config) int64 {
	bins, out := int64(autoBins), int64(250)
	if c.Bucket > 0 {
		out = int64(EstimateBuckets(*c))
		bins = 64 // the bins' slice doubles from 64 (timeline.grow)
		for bins < out {
			bins *= 2
		}
	}
	per, perOut := binBytes, bucketBytes
	perOut += float64(len(shapeParts(c.Layers, c.Servers, c.CacheKeys > 0))) * nodeBucketBytes
	if c.RequestLevel() {
		per += xbinBytes
		if c.Servers > 1 {
			per += float64(c.Servers) * sbinBytes
		}
		per += float64(max(c.Layers-1, 0)) * sbinBytes
		if c.Servers > 1 {
			perOut += float64(c.Servers) * serverBucketBytes
		}
	}
	return int64(float64(bins)*per + float64(out)*perOut)
}

// traceBytes bounds the trace of the first MaxTraceClients clients: an
// event for each of their tries (EstimateCalls') and their ends, up to
// MaxTraceEvents, in a slice that grows by doubling.
func traceBytes(c *Config) int64 {
	clients := callersAtOnce(c)
	if !c.RequestLevel() {
		clients = c.Clients
	}
	if clients <= 0 || clients > MaxTraceClients {
		return 0
	}
	n := math.Min(EstimateCalls(*c)+float64(clients), MaxTraceEvents)
	return int64(2 * n * traceEventBytes)
}

// MaxCallersWithin is the most callers c's run may have for
// EstimateMemory to fit budget bytes (at least 1): for open traffic, the
// MaxInFlight that keeps it there.
func MaxCallersWithin(c Config, budget int64) int {
	fixed, per, _ := memoryModel(c)
	return int(max(1, math.Floor(float64(budget-fixed)/per)))
}

// FitMemory reports whether c's run fits budget bytes by EstimateMemory,
// for a front end that runs others' configs within a bound of its own
// (a server drawing images): nil, or a *backoff.FieldError (CodeMemory)
// naming what sets the callers (clients, traffic's N, or for open traffic
// duration) and the most it may be.
func FitMemory(c Config, budget int64) error {
	fixed, per, n := memoryModel(c)
	if fixed+int64(max(n, 0)*per) <= budget {
		return nil
	}
	most := max(0, math.Floor(float64(budget-fixed)/per)) // callers
	mb := strconv.FormatInt(budget>>20, 10)
	if least := leastCallers(&c); most < least && c.Servers > 1 {
		// What the run holds whatever its load (a fleet's strips of the
		// timeline) leaves no room for the least of it: a duration or
		// a count of 0 would be no answer. Fewer servers leave room.
		for k := c.Servers - 1; k >= 1; k-- {
			fewer := c
			fewer.Servers = k
			if f, p, _ := memoryModel(fewer); math.Floor(float64(budget-f)/p) >= least {
				return &backoff.FieldError{Field: ParamServers, Value: strconv.Itoa(c.Servers), Code: backoff.CodeMemory,
					Args: []string{strconv.Itoa(k), mb}, Allowed: fmt.Sprintf("at most %d, to fit %s MB", k, mb)}
			}
		}
	}
	if chain := chainCallers(&c); chain > float64(c.Layers) && most < chain {
		// Not even one request's overlapping tries fit (a layer timeout
		// keeps every try going): fewer attempts a layer do. The most A
		// for every layer that fits the requests asked for.
		requests := n / chain
		a := 0
		for a < MaxLayerAttempts && chainCallers(uniformAttempts(c, a+1))*requests <= most {
			a++
		}
		if a > 0 {
			return &backoff.FieldError{Field: ParamLayerAttempts, Value: c.LayerAttempts.text(), Code: backoff.CodeMemory,
				Args: []string{strconv.Itoa(a), mb}, Allowed: fmt.Sprintf("at most %d a layer with a layer timeout, to fit %s MB", a, mb)}
		}
	}
	switch {
	case c.RequestLevel() && c.Traffic == Open:
		// n is the requests in the duration (or MaxCalls, when fewer):
		// a shorter run fits.
		d := time.Duration(most / c.Rate * float64(time.Second)).Truncate(time.Millisecond)
		return &backoff.FieldError{Field: ParamDuration, Value: c.Duration.String(), Code: backoff.CodeMemory,
			Args: []string{d.String(), mb}, Allowed: fmt.Sprintf("at most %s at this rate, to fit %s MB", d, mb)}
	case c.RequestLevel() && c.Traffic == Loop:
		return &backoff.FieldError{Field: ParamTraffic, Value: c.trafficText(), Code: backoff.CodeMemory, Part: "N",
			Args: []string{strconv.Itoa(int(most)), mb}, Allowed: fmt.Sprintf("loop:N with N at most %d, to fit %s MB", int(most), mb)}
	}
	return &backoff.FieldError{Field: ParamClients, Value: strconv.Itoa(c.Clients), Code: backoff.CodeMemory,
		Args: []string{strconv.Itoa(int(most)), mb}, Allowed: fmt.Sprintf("at most %d, to fit %s MB", int(most), mb)}
}

// chainCallers is the most callers a request holds at once: one, one a
// layer of a call chain, or with a layer timeout every try of the layers
// above at once (a layer's call below goes on after it timed out, while
// it tries again): 1 + a0 + a0*a1 + ... for a_k tries at layer k (the
// policy's, as EstimateCalls counts them; +Inf for no limit).
func chainCallers(c *Config) float64 {
	if c.Layers <= 1 || !c.LayerTimeout.Any() {
		return float64(max(1, c.Layers))
	}
	total, above := 0.0, 1.0
	for k := range c.Layers {
		total += above
		a := float64(c.LayerAttemptsAt(k))
		if a == 0 {
			one := *c
			one.Layers = 1
			a = triesPerRequest(&one)
		}
		above *= a
	}
	return total
}

// uniformAttempts is c with a tries at every layer of its chain.
func uniformAttempts(c Config, a int) *Config {
	c.LayerAttempts = LayerAttempts{}
	for k := range c.Layers {
		c.LayerAttempts.Each[k] = uint16(a)
	}
	c.RetryAt = RetryAll
	return &c
}

// leastCallers is the fewest callers a run of c can be asked for: one,
// or for open traffic a millisecond's arrivals.
func leastCallers(c *Config) float64 {
	if c.RequestLevel() && c.Traffic == Open {
		return math.Max(1, math.Ceil(c.Rate/1000))
	}
	return 1
}

// The structures' sizes, from their types.
const (
	eventBytes        = float64(unsafe.Sizeof(event{}))
	tentryBytes       = float64(unsafe.Sizeof(tentry{}))
	clientBytes       = float64(unsafe.Sizeof(client{}))
	wheelBytes        = float64(unsafe.Sizeof(wheel{}))
	revBytes          = float64(unsafe.Sizeof(rev{}))
	callerBytes       = float64(unsafe.Sizeof(caller{}))
	qentryBytes       = float64(unsafe.Sizeof(qentry{}))
	rbudgetBytes      = float64(unsafe.Sizeof(rbudget{}))
	binBytes          = float64(unsafe.Sizeof(bin{}))
	xbinBytes         = float64(unsafe.Sizeof(xbin{}))
	sbinBytes         = float64(unsafe.Sizeof(sbin{}))
	bucketBytes       = float64(unsafe.Sizeof(Bucket{}))
	serverBucketBytes = float64(unsafe.Sizeof(ServerBucket{}))
	// nodeBucketBytes is one node in a bucket: its slice's header and at
	// most five figures (a server's).
	nodeBucketBytes = float64(unsafe.Sizeof(NodeBucket{})) + 5*8
	outcomeBytes    = float64(unsafe.Sizeof(ClientOutcome{}))
	traceEventBytes = float64(unsafe.Sizeof(TraceEvent{}))
	// runBytes is a run's own small things: its state, its random
	// source, its result's structs.
	runBytes = 8 << 10
	// reqFixedBytes is a request-level run's own: its histograms (two
	// fine, one coarse) and an event wheel's slot table.
	reqFixedBytes = 2*4*(fineOctaves<<fineSub+2) + 4*coarseBins + wheelBytes
	// memOCCRead is occ's read a client.
	memOCCRead = int(unsafe.Sizeof(read{}))
	// serverBytes is a fleet's server's own: its state and schedule.
	serverBytes = float64(unsafe.Sizeof(rserver{})) + 1<<10
)

// MemoryRun marks a CodeMemory error about a run's own budget (FullErr),
// as its third Arg: not an image's.
const MemoryRun = "run"

// FullErr is the error of a run of c, bounded by MaxInFlight for budget
// bytes (MaxCallersWithin), that filled at fullAt seconds (Result.FullAt,
// TruncatedBy StopMemory): a *backoff.FieldError (CodeMemory) naming what
// to change and the most it may be. Open and loop traffic name the
// duration, which runs the same up to fullAt and then ends before it
// fills; closed traffic into the queue server names the queue limit that
// keeps its waiting calls within the budget; any other closed run, the
// clients.
func FullErr(c Config, fullAt float64, budget int64) error {
	mb := strconv.FormatInt(budget>>20, 10)
	fe := &backoff.FieldError{Code: backoff.CodeMemory}
	switch {
	case c.Traffic != Closed:
		d := backoff.FormatDuration(time.Duration(fullAt * float64(time.Second)).Truncate(time.Millisecond))
		fe.Field, fe.Value, fe.Args = ParamDuration, backoff.FormatDuration(c.Duration), []string{d, mb, MemoryRun}
	case c.UsesField(ParamQueueLimit): // a model with a queue: bound it
		// What the callers leave of the budget, in queued calls (a ring
		// that grows by doubling: twice an entry each).
		left := float64(c.MaxInFlight)*callerUnit(&c) - float64(c.Clients*c.Layers)*callerUnit(&c)
		most := strconv.Itoa(max(1, int(left/(2*qentryBytes)/float64(max(1, c.Servers)))))
		fe.Field, fe.Value, fe.Args = ParamQueueLimit, strconv.Itoa(c.QueueLimit), []string{most, mb, MemoryRun}
	default:
		most := strconv.Itoa(max(1, c.MaxInFlight/(2*c.Layers)))
		fe.Field, fe.Value, fe.Args = ParamClients, strconv.Itoa(c.Clients), []string{most, mb, MemoryRun}
	}
	fe.Allowed = fmt.Sprintf("at most %s, for a run within %s MB of memory", fe.Args[0], mb)
	return fe
}
