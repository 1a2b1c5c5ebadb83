package sim

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

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
// histograms: memHerdMin for the herd, memReqMin for a request-level run.
// Memory follows the callers, not the calls: a run's memory is allocated
// when it starts, whatever MaxCalls.
//
// TestEstimateMemory holds it at or above what runs of every engine and
// server allocate, and within 8 times that plus the minimum.
func EstimateMemory(c Config) int64 {
	fixed, per, n := memoryModel(c)
	return fixed + int64(max(n, 0)*per)
}

// memoryModel is EstimateMemory's terms: fixed bytes, and per bytes for
// each of n callers.
func memoryModel(c Config) (fixed int64, per, n float64) {
	maxCalls := c.MaxCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCalls
	}
	fixed = memReqMin
	if !c.RequestLevel() {
		fixed, n, per = memHerdMin, float64(c.Clients), memHerdClient
		if c.Policy.Jitter.HistoryDependent() {
			per += memHistory
		}
		per += float64(c.Server.Traits().ClientBytes)
		if c.Budget.Kind != NoBudget || c.Breaker.Kind != NoBreaker {
			per += memSlowPath
		}
	} else {
		switch c.Traffic {
		case Loop:
			n = float64(c.Callers)
		case Open:
			n = math.Min(math.Ceil(c.Rate*c.Duration.Seconds()), float64(maxCalls))
			if c.MaxInFlight > 0 {
				n = math.Min(n, float64(c.MaxInFlight))
			}
		default:
			n = float64(c.Clients)
		}
		per = memCaller
		if c.Hedge.On() {
			per *= 2
		}
		if c.Servers > 1 {
			fixed += int64(c.Servers) * memServer // each server's strip of the timeline
		}
	}
	return fixed, per, n
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

// The model's bytes, each measured and rounded up (TestEstimateMemory).
const (
	memHerdMin    = 9 << 20
	memReqMin     = 8 << 20
	memHerdClient = 40
	memHistory    = 8
	memOCCRead    = 16
	memSlowPath   = 96
	memCaller     = 1024
	// memServer is a fleet's server: its strip's bins (24 bytes each, up
	// to maxReqBins, and as they grow), its strip in every bucket of the
	// result (48 bytes), its schedule and counters: 64 servers over
	// 3,600 one-second buckets allocated 49 MB (TestFleetMemory).
	memServer = 768 << 10
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
		most := strconv.Itoa(max(1, c.MaxInFlight-c.Clients*c.Layers))
		fe.Field, fe.Value, fe.Args = ParamQueueLimit, strconv.Itoa(c.QueueLimit), []string{most, mb, MemoryRun}
	default:
		most := strconv.Itoa(max(1, c.MaxInFlight/(2*c.Layers)))
		fe.Field, fe.Value, fe.Args = ParamClients, strconv.Itoa(c.Clients), []string{most, mb, MemoryRun}
	}
	fe.Allowed = fmt.Sprintf("at most %s, for a run within %s MB of memory", fe.Args[0], mb)
	return fe
}
