package sim

import (
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Config is one simulation: a population of identical clients, one policy,
// one server or a fleet. The zero value is not valid; start from
// DefaultConfig. A Config is a plain value, safe to copy and to compare
// with ==. Its fields come in parts by concern, embedded so that each
// reads as c.Field: who calls (Load), the server or fleet (ServerSide),
// what goes wrong with it (Failures), the network between (Network), the
// clients' safeguards (Safeguards), the call chain (Chain), the run's
// bounds (Bounds) and its output (Output). The flags, URL keys and JSON
// keys name the fields, not the parts.
type Config struct {
	// Policy gives every client's delays, attempts and deadline.
	Policy backoff.Policy
	Load
	ServerSide
	Failures
	Network
	Safeguards
	Chain
	CacheSide
	Bounds
	Output
}

// Load is who calls the server, and when.
type Load struct {
	// Clients each want one successful call (closed traffic).
	Clients int
	// Arrival and ArrivalWindow: burst, uniform over the window, or aligned
	// to a clock of that period.
	Arrival       Arrival
	ArrivalWindow time.Duration
	// Traffic is who calls: Closed (Clients, Arrival), Open (Poisson
	// arrivals of Rate requests per second for Duration) or Loop
	// (Callers, each sending its next request Think after the previous
	// one finished, until Duration). Text form (Set/Get "traffic"):
	// closed | open:RATE | loop:N[:THINK].
	//
	// Duration is the run's window for open and loop traffic: the run
	// ends there, and requests still queued or in flight count as
	// unfinished, every rate being per second of the window. With Drain
	// the run goes on until every request has ended (no new ones start
	// after Duration) and rates are per second of the makespan. Either
	// way no throughput exceeds the server's capacity.
	Traffic  Traffic
	Rate     float64
	Callers  int
	Think    time.Duration
	Duration time.Duration
	Drain    bool
}

// ServerSide is the server, or a fleet of them: its model (model.go) and
// the model's fields.
type ServerSide struct {
	Server ServerModel
	// Servers is the fleet's size (1: one server), each a server of the
	// model with its own capacity or workers; Balance is how calls are
	// spread over them and RetryOther sends a retry elsewhere (fleet.go).
	Servers    int
	Balance    Balance
	RetryOther bool
	// PerServer gives some servers of the fleet knobs of their own
	// (per_server.go): "2:concurrency=3,service=200ms".
	PerServer string
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
	// The Queue server: Concurrency workers take waiting calls first in,
	// first out; a call takes a service time of mean Service drawn from
	// ServiceDist. QueueLimit bounds the calls waiting (0 = none): a call
	// finding the queue full is refused at once with a 503.
	Concurrency int
	Service     time.Duration
	ServiceDist ServiceDist
	QueueLimit  int
	// Discipline orders and refuses the calls waiting in the queue
	// (discipline.go): which one a free worker takes, which finds no
	// room, which has waited too long. The zero value is fifo.
	Discipline Discipline
	// Admission decides, as a call reaches the queue server, whether it
	// is let in at all (admission.go): a rate or concurrency limit whose
	// refusals are 429s. The zero value lets every call in.
	Admission Admission
	// DropExpired: the server skips calls whose caller has stopped
	// waiting (Safeguards.Timeout).
	DropExpired bool
	// RetryAfter is what the server sends with its 503s (0 = nothing).
	RetryAfter time.Duration
	// The Channel server: its access rule, a frame's transmission time,
	// and (ethernet) the slot, the time within which two transmissions
	// collide.
	Channel     ChannelKind
	Frame, Slot time.Duration
	// Own are the values of the parameters models declare of their own
	// (RegisterParam), which each model reads through its handles.
	Own OwnValues
}

// Failures are what goes wrong with the server, on any model that
// honours it (Traits.Faults): ErrorRate is the probability that a call
// the server serves fails (independently of the others); Faults change
// the server's condition over time (fault.go).
type Failures struct {
	ErrorRate float64
	Faults    Faults
}

// Network is the network between the callers and the server.
type Network struct {
	// Latency is the one-way network delay per hop: fixed when LatencySD
	// is 0, else |N(Latency, LatencySD)|.
	Latency, LatencySD time.Duration
}

// Safeguards are what the clients do to protect the server and
// themselves, beyond the policy's delays.
type Safeguards struct {
	// HonorRetryAfter makes clients combine the server's Retry-After
	// with their delay as the policy's RetryAfter mode says ("ignore"
	// then means: wait what the server says).
	HonorRetryAfter bool
	Budget          Budget
	// BudgetScope is who shares the budget: the whole population (as one
	// SDK client or sidecar) or each caller its own.
	BudgetScope BudgetScope
	Breaker     Breaker
	// Timeout is how long a caller waits for an answer to a call (0 =
	// for ever): then the call has failed for it and it retries as its
	// policy says, but the server still does the call's work when it
	// reaches it (wasted work), unless ServerSide.DropExpired.
	Timeout time.Duration
	// Hedge sends a second copy of a call not answered in time;
	// HedgeCancel removes the other copy from the server's queue when one
	// wins (else its work is wasted).
	Hedge       Hedge
	HedgeCancel bool
}

// Chain is a call chain between the callers and the server.
type Chain struct {
	// Layers is the call chain's depth (1: callers call the server
	// directly); each layer tries the one below LayerAttempts times (top
	// first), or only the top retries (RetryAt Top); LayerTimeout is how
	// long each layer above the bottom waits for a try of the layer below
	// (0 = for ever). See chain.go.
	Layers        int
	LayerAttempts LayerAttempts
	RetryAt       RetryAt
	LayerTimeout  LayerTimeouts
	// PropagateDeadline passes each try's deadline down, as gRPC does:
	// a layer's call below carries what is left of the caller's, and a
	// server refuses a call whose deadline has passed instead of serving
	// it (see chain.go).
	PropagateDeadline bool
}

// Output is what the run reports besides its totals.
type Output struct {
	// Bucket is the timeline's bucket width; 0 picks one that gives about
	// 200 buckets.
	Bucket time.Duration
	// Names are the names a topology gave its nodes, for labels, in the
	// order Config.Topology lists the nodes, separated by commas; "" for
	// the names Topology gives them (server; lb, s1..sN;
	// layer1..layerK).
	Names string
}

// Bounds are the run's limits.
type Bounds struct {
	// Horizon stops the simulation at that simulated time (0 = none);
	// MaxCalls stops it after that many tries (calls, occ attempts and
	// calls the breaker refused; 0 = DefaultMaxCalls). Clients still going
	// then count as Unfinished. They keep a run with unlimited attempts
	// finite.
	Horizon  time.Duration
	MaxCalls int
	// MaxInFlight bounds a request-level run's memory, in callers'
	// worth: the run stops (Result.TruncatedBy StopMemory,
	// Result.FullAt) once what it holds that grows with the load (caller
	// slots, chains' calls between layers included, pending events and
	// queued calls) takes as many bytes as that many callers and their
	// events (0 = no bound). A queued call takes about a sixth of a
	// caller's worth. For a front end that runs others' configs in a
	// memory budget (MaxCallersWithin); not a parameter of the model.
	MaxInFlight int
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
	MaxConcurrency    = 1_000_000
	MaxQueueLimit     = 1_000_000_000
)

// DefaultConfig is the teaching default: 1000 clients with the article's
// policy (full jitter, base 1 s, cap 30 s, 6 attempts) call at once into a
// 10 s outage of a server that then serves 100 calls per second. For the
// other traffic and the queue server it holds a minute of traffic and 10
// workers taking 100 ms each (exponential): 100 calls per second too.
func DefaultConfig() Config {
	return Config{
		Policy: backoff.Default(),
		Load: Load{
			Clients:  1000,
			Arrival:  Burst,
			Duration: time.Minute,
		},
		ServerSide: ServerSide{
			Server:         Outage,
			Servers:        1,
			Capacity:       100,
			CapacityWindow: 100 * time.Millisecond,
			OutageStart:    0,
			OutageEnd:      10 * time.Second,
			CollapseFactor: 1,
			CollapseWindow: time.Second,
			Concurrency:    10,
			Service:        100 * time.Millisecond,
			Frame:          time.Millisecond,
			Slot:           51200 * time.Nanosecond,
			Own:            ownDefaults(),
		},
		Network:   Network{Latency: 50 * time.Millisecond, LatencySD: 10 * time.Millisecond},
		Chain:     Chain{Layers: 1},
		CacheSide: CacheSide{CacheTTL: DefaultCacheTTL},
		Bounds:    Bounds{MaxCalls: DefaultMaxCalls},
	}
}

// RequestLevel reports whether c needs the request-level engine: open or
// loop traffic, a server model the herd's engine does not run (queue,
// channel: Traits.Herd), a fleet, a timeout, an error rate or faults,
// adaptive throttling, per-caller budgets, hedging or a call chain. The herd's engine
// (one pending event per client, 32 bytes) runs every other config; both
// share the policy, budgets, breaker and results.
func (c *Config) RequestLevel() bool {
	return c.Traffic != Closed || !c.Server.Traits().Herd || c.Servers > 1 || c.Timeout > 0 || c.ErrorRate > 0 ||
		c.Faults[0].Kind != NoFault || c.Budget.Kind == AdaptiveBudget || c.BudgetScope != SharedScope ||
		c.Hedge.On() || c.Layers > 1 || c.CacheKeys > 0 || c.PropagateDeadline
}
