package sim

import (
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Config is one simulation: a population of identical clients, one policy,
// one server. The zero value is not valid; start from DefaultConfig. A
// Config is a plain value, safe to copy.
type Config struct {
	// Clients each want one successful call.
	Clients int
	// Policy gives every client's delays, attempts and deadline.
	Policy backoff.Policy

	Server ServerModel
	// Capacity is what the server serves, in calls per second (Capacity,
	// Outage, Collapse).
	Capacity float64
	// CapacityWindow is the server's slack: it can absorb
	// Capacity*CapacityWindow calls at once (at least one).
	CapacityWindow time.Duration
	// OutageStart and OutageEnd bound the Outage model's dead time.
	OutageStart, OutageEnd time.Duration
	// CollapseFactor is how fast Collapse's throughput falls with overload
	// (0 = not at all); CollapseWindow is over what the load is measured.
	CollapseFactor float64
	CollapseWindow time.Duration

	// Arrival and ArrivalWindow: burst, uniform over the window, or aligned
	// to a clock of that period.
	Arrival       Arrival
	ArrivalWindow time.Duration

	// Latency is the one-way network delay per hop: fixed when LatencySD
	// is 0, else |N(Latency, LatencySD)|.
	Latency, LatencySD time.Duration

	// RetryAfter is what the server sends with its 503s (0 = nothing).
	// HonorRetryAfter makes clients combine it with their delay as the
	// policy's RetryAfter mode says ("ignore" then means: wait what the
	// server says).
	HonorRetryAfter bool
	RetryAfter      time.Duration

	Budget  Budget
	Breaker Breaker

	// Bucket is the timeline's bucket width; 0 picks one that gives about
	// 200 buckets.
	Bucket time.Duration

	// Horizon stops the simulation at that simulated time (0 = none);
	// MaxCalls stops it after that many tries (calls, occ attempts and
	// calls the breaker refused; 0 = DefaultMaxCalls). Clients still going
	// then count as Unfinished. They keep a run with unlimited attempts
	// finite.
	Horizon  time.Duration
	MaxCalls int
}

// Limits on Config. They keep memory O(clients) bounded and a run finite.
const (
	MaxClients        = 2_000_000
	MaxCapacity       = 1e9
	MaxCalls          = 1_000_000_000
	DefaultMaxCalls   = 50_000_000
	MaxTime           = 365 * 24 * time.Hour // any simulated time or duration
	MaxLatency        = time.Hour
	MaxCollapseFactor = 100.0
	MaxBudgetTokens   = 1e9
	MaxBreakerCalls   = 1_000_000
	MinBucket         = time.Microsecond
)

// DefaultConfig is the teaching default: 1000 clients with the article's
// policy (full jitter, base 1 s, cap 30 s, 6 attempts) call at once into a
// 10 s outage of a server that then serves 100 calls per second.
func DefaultConfig() Config {
	return Config{
		Clients:        1000,
		Policy:         backoff.Default(),
		Server:         Outage,
		Capacity:       100,
		CapacityWindow: 100 * time.Millisecond,
		OutageStart:    0,
		OutageEnd:      10 * time.Second,
		CollapseFactor: 1,
		CollapseWindow: time.Second,
		Arrival:        Burst,
		Latency:        50 * time.Millisecond,
		LatencySD:      10 * time.Millisecond,
		MaxCalls:       DefaultMaxCalls,
	}
}
