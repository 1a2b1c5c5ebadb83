package sim

import "math"

// EstimateMemory bounds the bytes one run of c allocates, and so the most
// it can hold at once, for a front end that runs several at a time (a
// server drawing images) to keep them within a budget. Like EstimateCalls
// it simulates nothing.
//
// The model is per simulated caller, fitted to what runs allocate with a
// margin. The herd's loop takes about 40 bytes a client (its event in the
// queue, 32 bytes, and its completion time), 8 more with a
// history-dependent jitter, 16 for occ's reads, and 96 on the slow path a
// budget or a breaker takes. A request-level run takes up to 1 KB a caller
// (the caller, 64 bytes, its events and queue entries, and the garbage
// their slices leave as they grow), twice that with hedges. The
// callers are Clients (closed traffic), Callers (loop), or for open
// traffic the requests that can be in flight: at most Rate*Duration and
// MaxCalls. memMin covers the queue's blocks, the timeline and the
// histograms. Memory follows the callers, not the calls: a run's memory
// is allocated when it starts, whatever MaxCalls.
//
// TestEstimateMemory holds it at or above what runs of every engine and
// server allocate, and within 8 times that plus memMin.
func EstimateMemory(c Config) int64 {
	maxCalls := c.MaxCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCalls
	}
	var n, per float64
	if !c.RequestLevel() {
		n, per = float64(c.Clients), memHerdClient
		if c.Policy.Jitter.HistoryDependent() {
			per += memHistory
		}
		if c.Server == OCC {
			per += memOCCRead
		}
		if c.Budget.Kind != NoBudget || c.Breaker.Kind != NoBreaker {
			per += memSlowPath
		}
	} else {
		switch c.Traffic {
		case Loop:
			n = float64(c.Callers)
		case Open:
			n = math.Min(math.Ceil(c.Rate*c.Duration.Seconds()), float64(maxCalls))
		default:
			n = float64(c.Clients)
		}
		per = memCaller
		if c.Hedge.On() {
			per *= 2
		}
	}
	return memMin + int64(max(n, 0)*per)
}

// The model's bytes, each measured and rounded up (TestEstimateMemory).
const (
	memMin        = 16 << 20
	memHerdClient = 40
	memHistory    = 8
	memOCCRead    = 16
	memSlowPath   = 96
	memCaller     = 1024
)
