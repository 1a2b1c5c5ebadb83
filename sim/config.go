package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// ServerModel is how the one server answers calls.
type ServerModel uint8

const (
	// Capacity serves up to Capacity calls per second (a token bucket that
	// holds Capacity*CapacityWindow calls); calls above that fail fast with
	// a 503, optionally carrying Retry-After.
	Capacity ServerModel = iota
	// Outage fails every call during [OutageStart, OutageEnd), then behaves
	// as Capacity: a service coming back up.
	Outage
	// Collapse is Capacity whose useful throughput falls while the offered
	// load exceeds it: capacity / (1 + CollapseFactor*(load/capacity - 1)),
	// load measured over the previous CollapseWindow (metastable failure).
	Collapse
	// OCC is the AWS Architecture Blog's (2015) optimistic-concurrency
	// server: one row with a version; a write succeeds only if it carries
	// the current version.
	OCC
)

var serverNames = []string{"capacity", "outage", "collapse", "occ"}

func (m ServerModel) String() string { return nameOf(serverNames, int(m)) }

// Arrival is when clients make their first call.
type Arrival uint8

const (
	// Burst: every client calls at time 0 (right after a restart).
	Burst Arrival = iota
	// Uniform: first calls uniform over [0, ArrivalWindow).
	Uniform
	// Clock: first calls at 0 and every retry rounded up to the next
	// multiple of ArrivalWindow, as clients that wait "until the next full
	// minute" do. Jitter smaller than the period is erased (the article's
	// orchestra).
	Clock
)

var arrivalNames = []string{"burst", "uniform", "clock"}

func (a Arrival) String() string { return nameOf(arrivalNames, int(a)) }

// BudgetKind selects a client-side retry budget. A budget is shared by the
// whole population, as one SDK client or one Envoy sidecar is shared by the
// callers behind it; a retry the budget refuses makes the client give up.
type BudgetKind uint8

const (
	NoBudget BudgetKind = iota
	// TokenBudget is the AWS SDK's retry quota: a bucket of Tokens, a retry
	// takes RetryCost, a success puts Refund back (never above Tokens).
	TokenBudget
	// RatioBudget is Envoy's retry budget: retries outstanding (waiting or
	// in flight) at most max(MinRetries, Ratio * requests outstanding).
	RatioBudget
)

var budgetNames = []string{"none", "tokens", "ratio"}

func (k BudgetKind) String() string { return nameOf(budgetNames, int(k)) }

// Budget is a retry budget. Its text form (Set/Get "budget") is
// none | tokens[:TOKENS[:COST[:REFUND]]] | ratio[:RATIO[:MIN]].
type Budget struct {
	Kind BudgetKind
	// TokenBudget: capacity, cost of a retry, refund of a success.
	Tokens, RetryCost, Refund float64
	// RatioBudget: fraction of outstanding requests that may be retries,
	// and the number of retries always allowed.
	Ratio      float64
	MinRetries int
}

// Defaults of the budgets: the AWS SDK's 500/5/1 and Envoy's 20%, min 3.
const (
	DefaultBudgetTokens     = 500
	DefaultBudgetRetryCost  = 5
	DefaultBudgetRefund     = 1
	DefaultBudgetRatio      = 0.2
	DefaultBudgetMinRetries = 3
)

// BreakerKind selects a client-side circuit breaker, shared by the
// population like a library's per-host breaker.
type BreakerKind uint8

const (
	NoBreaker BreakerKind = iota
	// ConsecutiveBreaker opens after Failures failures in a row.
	ConsecutiveBreaker
	// RatioBreaker opens when, within a window of Window, at least MinCalls
	// calls finished and at least Ratio of them failed.
	RatioBreaker
)

var breakerNames = []string{"none", "consecutive", "ratio"}

func (k BreakerKind) String() string { return nameOf(breakerNames, int(k)) }

// Breaker is a circuit breaker: closed, it lets calls through; open, it
// fails them at once without calling the server (they count as Blocked and
// cost the client an attempt); after Cooldown it is half-open and lets one
// probe through: success closes it, failure opens it again. Text form
// (Set/Get "breaker"): none | consecutive[:K[:COOLDOWN]] |
// ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]].
type Breaker struct {
	Kind     BreakerKind
	Failures int
	Ratio    float64
	MinCalls int
	Window   time.Duration
	Cooldown time.Duration
}

// Breaker defaults (Hystrix-like: 50% of at least 20 calls in 10 s; Polly's
// and resilience4j's 5 s-scale cool-downs).
const (
	DefaultBreakerFailures = 5
	DefaultBreakerRatio    = 0.5
	DefaultBreakerMinCalls = 20
	DefaultBreakerWindow   = 10 * time.Second
	DefaultBreakerCooldown = 5 * time.Second
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

// Param names, shared by the CLI's flags and the page's URL query. Set and
// Get also accept every backoff.ParamNames name (for the policy).
const (
	ParamClients         = "clients"
	ParamServer          = "server"
	ParamCapacity        = "capacity"
	ParamCapacityWindow  = "capacity-window"
	ParamOutageStart     = "outage-start"
	ParamOutageEnd       = "outage-end"
	ParamCollapseFactor  = "collapse-factor"
	ParamCollapseWindow  = "collapse-window"
	ParamArrival         = "arrival"
	ParamLatency         = "latency"
	ParamLatencySD       = "latency-sd"
	ParamHonorRetryAfter = "honor-retry-after"
	ParamRetryAfterS     = "retry-after-s"
	ParamBudget          = "budget"
	ParamBreaker         = "breaker"
	ParamBucket          = "bucket"
	ParamHorizon         = "horizon"
	ParamMaxCalls        = "max-calls"
)

// ParamNames lists the simulation's own names, in a stable order.
var ParamNames = []string{
	ParamClients, ParamServer, ParamCapacity, ParamCapacityWindow,
	ParamOutageStart, ParamOutageEnd, ParamCollapseFactor, ParamCollapseWindow,
	ParamArrival, ParamLatency, ParamLatencySD,
	ParamHonorRetryAfter, ParamRetryAfterS, ParamBudget, ParamBreaker,
	ParamBucket, ParamHorizon, ParamMaxCalls,
}

// isPolicyParam reports whether name belongs to the policy.
func isPolicyParam(name string) bool {
	for _, n := range backoff.ParamNames {
		if n == name {
			return true
		}
	}
	return false
}

func fieldErr(field, value, allowed string) error {
	if len(value) > 64 {
		value = value[:64] + "…"
	}
	return &backoff.FieldError{Field: field, Value: value, Allowed: allowed}
}

// Set sets one field from text, as a flag or a URL parameter gives it, and
// checks the value alone (Validate checks the fields together). On error the
// config is unchanged and the error is a *backoff.FieldError.
func (c *Config) Set(name, value string) error {
	if isPolicyParam(name) {
		return c.Policy.Set(name, value)
	}
	v := strings.TrimSpace(value)
	n := *c // work on a copy so a failed Set changes nothing
	var err error
	switch name {
	case ParamClients:
		n.Clients, err = parseInt(name, v, 1, MaxClients)
	case ParamServer:
		n.Server, err = parseEnum[ServerModel](name, v, serverNames)
	case ParamCapacity:
		n.Capacity, err = parseFloat(name, v, math.SmallestNonzeroFloat64, MaxCapacity, "calls per second, above 0 and at most 1e9")
	case ParamCapacityWindow:
		n.CapacityWindow, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamOutageStart:
		n.OutageStart, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamOutageEnd:
		n.OutageEnd, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamCollapseFactor:
		n.CollapseFactor, err = parseFloat(name, v, 0, MaxCollapseFactor, "")
	case ParamCollapseWindow:
		n.CollapseWindow, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamArrival:
		n.Arrival, n.ArrivalWindow, err = parseArrival(v)
	case ParamLatency:
		n.Latency, err = backoff.ParseDuration(name, v, MaxLatency)
	case ParamLatencySD:
		n.LatencySD, err = backoff.ParseDuration(name, v, MaxLatency)
	case ParamHonorRetryAfter:
		n.HonorRetryAfter, err = backoff.ParseBool(name, v)
	case ParamRetryAfterS:
		n.RetryAfter, err = backoff.ParseDuration(name, v, backoff.MaxDuration)
	case ParamBudget:
		n.Budget, err = parseBudget(v)
	case ParamBreaker:
		n.Breaker, err = parseBreaker(v)
	case ParamBucket:
		n.Bucket, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamHorizon:
		n.Horizon, err = backoff.ParseDuration(name, v, MaxTime)
	case ParamMaxCalls:
		n.MaxCalls, err = parseInt(name, v, 1, MaxCalls)
	default:
		return fieldErr("parameter", name, "one of "+strings.Join(ParamNames, ", ")+" or a policy parameter")
	}
	if err != nil {
		return err
	}
	*c = n
	return nil
}

// Get returns the text form of one field, the inverse of Set.
func (c *Config) Get(name string) string {
	if isPolicyParam(name) {
		return c.Policy.Get(name)
	}
	d := backoff.FormatDuration
	switch name {
	case ParamClients:
		return strconv.Itoa(c.Clients)
	case ParamServer:
		return c.Server.String()
	case ParamCapacity:
		return formatFloat(c.Capacity)
	case ParamCapacityWindow:
		return d(c.CapacityWindow)
	case ParamOutageStart:
		return d(c.OutageStart)
	case ParamOutageEnd:
		return d(c.OutageEnd)
	case ParamCollapseFactor:
		return formatFloat(c.CollapseFactor)
	case ParamCollapseWindow:
		return d(c.CollapseWindow)
	case ParamArrival:
		if c.Arrival == Burst {
			return "burst"
		}
		return c.Arrival.String() + ":" + d(c.ArrivalWindow)
	case ParamLatency:
		return d(c.Latency)
	case ParamLatencySD:
		return d(c.LatencySD)
	case ParamHonorRetryAfter:
		return strconv.FormatBool(c.HonorRetryAfter)
	case ParamRetryAfterS:
		return d(c.RetryAfter)
	case ParamBudget:
		b := c.Budget
		switch b.Kind {
		case TokenBudget:
			return "tokens:" + formatFloat(b.Tokens) + ":" + formatFloat(b.RetryCost) + ":" + formatFloat(b.Refund)
		case RatioBudget:
			return "ratio:" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinRetries)
		}
		return "none"
	case ParamBreaker:
		b := c.Breaker
		switch b.Kind {
		case ConsecutiveBreaker:
			return "consecutive:" + strconv.Itoa(b.Failures) + ":" + d(b.Cooldown)
		case RatioBreaker:
			return "ratio:" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinCalls) + ":" + d(b.Window) + ":" + d(b.Cooldown)
		}
		return "none"
	case ParamBucket:
		return d(c.Bucket)
	case ParamHorizon:
		return d(c.Horizon)
	case ParamMaxCalls:
		return strconv.Itoa(c.MaxCalls)
	}
	return ""
}

// Validate checks the fields together and returns the first problem as a
// *backoff.FieldError.
func (c *Config) Validate() error {
	if err := c.Policy.Validate(); err != nil {
		return err
	}
	if c.Clients < 1 || c.Clients > MaxClients {
		return fieldErr(ParamClients, strconv.Itoa(c.Clients), fmt.Sprintf("a whole number from 1 to %d", MaxClients))
	}
	if int(c.Server) >= len(serverNames) {
		return fieldErr(ParamServer, c.Server.String(), "one of "+strings.Join(serverNames, ", "))
	}
	if int(c.Arrival) >= len(arrivalNames) {
		return fieldErr(ParamArrival, c.Arrival.String(), "burst, uniform:DURATION or clock:DURATION")
	}
	if c.Server != OCC && !(c.Capacity > 0 && c.Capacity <= MaxCapacity) {
		return fieldErr(ParamCapacity, formatFloat(c.Capacity), "calls per second, above 0 and at most 1e9")
	}
	durs := []struct {
		name   string
		v, max time.Duration
	}{
		{ParamCapacityWindow, c.CapacityWindow, MaxTime}, {ParamOutageStart, c.OutageStart, MaxTime},
		{ParamOutageEnd, c.OutageEnd, MaxTime}, {ParamCollapseWindow, c.CollapseWindow, MaxTime},
		{ParamArrival, c.ArrivalWindow, MaxTime}, {ParamLatency, c.Latency, MaxLatency},
		{ParamLatencySD, c.LatencySD, MaxLatency}, {ParamRetryAfterS, c.RetryAfter, backoff.MaxDuration},
		{ParamBucket, c.Bucket, MaxTime}, {ParamHorizon, c.Horizon, MaxTime},
		{ParamBreaker, c.Breaker.Window, MaxTime}, {ParamBreaker, c.Breaker.Cooldown, MaxTime},
	}
	for _, d := range durs {
		if d.v < 0 || d.v > d.max {
			return fieldErr(d.name, backoff.FormatDuration(d.v), "a duration from 0s to "+backoff.FormatDuration(d.max))
		}
	}
	if c.Server == Outage && c.OutageEnd < c.OutageStart {
		return fieldErr(ParamOutageEnd, backoff.FormatDuration(c.OutageEnd), "at least outage-start ("+backoff.FormatDuration(c.OutageStart)+")")
	}
	if c.Server == Collapse && c.CollapseWindow <= 0 {
		return fieldErr(ParamCollapseWindow, backoff.FormatDuration(c.CollapseWindow), "a positive duration")
	}
	if math.IsNaN(c.CollapseFactor) || c.CollapseFactor < 0 || c.CollapseFactor > MaxCollapseFactor {
		return fieldErr(ParamCollapseFactor, formatFloat(c.CollapseFactor), fmt.Sprintf("a number from 0 to %g", MaxCollapseFactor))
	}
	if c.Arrival != Burst && c.ArrivalWindow <= 0 {
		return fieldErr(ParamArrival, c.Get(ParamArrival), "a positive duration after "+c.Arrival.String()+":")
	}
	if c.Bucket != 0 && c.Bucket < MinBucket {
		return fieldErr(ParamBucket, backoff.FormatDuration(c.Bucket), "0s (automatic) or at least 1µs")
	}
	if c.MaxCalls < 0 || c.MaxCalls > MaxCalls {
		return fieldErr(ParamMaxCalls, strconv.Itoa(c.MaxCalls), fmt.Sprintf("a whole number from 1 to %d (0 = %d)", MaxCalls, DefaultMaxCalls))
	}
	if err := c.Budget.validate(); err != nil {
		return err
	}
	return c.Breaker.validate()
}

func (b *Budget) validate() error {
	bad := func(allowed string) error {
		c := Config{Budget: *b}
		return fieldErr(ParamBudget, c.Get(ParamBudget), allowed)
	}
	switch b.Kind {
	case NoBudget:
	case TokenBudget:
		if !(b.Tokens > 0 && b.Tokens <= MaxBudgetTokens) || !(b.RetryCost > 0 && b.RetryCost <= b.Tokens) ||
			!(b.Refund >= 0 && b.Refund <= b.Tokens) {
			return bad("tokens:TOKENS:COST:REFUND with 0 < COST <= TOKENS <= 1e9 and 0 <= REFUND <= TOKENS")
		}
	case RatioBudget:
		if !(b.Ratio >= 0 && b.Ratio <= 1) || b.MinRetries < 0 || b.MinRetries > MaxClients {
			return bad(fmt.Sprintf("ratio:RATIO:MIN with RATIO from 0 to 1 and MIN from 0 to %d", MaxClients))
		}
	default:
		return bad("none, tokens[:TOKENS[:COST[:REFUND]]] or ratio[:RATIO[:MIN]]")
	}
	return nil
}

func (b *Breaker) validate() error {
	bad := func(allowed string) error {
		c := Config{Breaker: *b}
		return fieldErr(ParamBreaker, c.Get(ParamBreaker), allowed)
	}
	switch b.Kind {
	case NoBreaker:
	case ConsecutiveBreaker:
		if b.Failures < 1 || b.Failures > MaxBreakerCalls {
			return bad(fmt.Sprintf("consecutive:K:COOLDOWN with K from 1 to %d", MaxBreakerCalls))
		}
	case RatioBreaker:
		if !(b.Ratio > 0 && b.Ratio <= 1) || b.MinCalls < 1 || b.MinCalls > MaxBreakerCalls || b.Window <= 0 {
			return bad(fmt.Sprintf("ratio:RATIO:MIN-CALLS:WINDOW:COOLDOWN with RATIO in (0, 1], MIN-CALLS from 1 to %d, WINDOW > 0", MaxBreakerCalls))
		}
	default:
		return bad("none, consecutive[:K[:COOLDOWN]] or ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]]")
	}
	return nil
}

func parseArrival(v string) (Arrival, time.Duration, error) {
	const allowed = "burst, uniform:DURATION or clock:DURATION (a positive duration up to 8760h)"
	kind, arg, hasArg := strings.Cut(v, ":")
	a, err := parseEnum[Arrival](ParamArrival, kind, arrivalNames)
	if err != nil {
		return 0, 0, fieldErr(ParamArrival, v, allowed)
	}
	if a == Burst {
		if hasArg {
			return 0, 0, fieldErr(ParamArrival, v, allowed)
		}
		return Burst, 0, nil
	}
	d, err := backoff.ParseDuration(ParamArrival, arg, MaxTime)
	if err != nil || d <= 0 {
		return 0, 0, fieldErr(ParamArrival, v, allowed)
	}
	return a, d, nil
}

func parseBudget(v string) (Budget, error) {
	const allowed = "none, tokens[:TOKENS[:COST[:REFUND]]] (AWS: tokens:500:5:1) or ratio[:RATIO[:MIN]] (Envoy: ratio:0.2:3)"
	parts := strings.Split(v, ":")
	b := Budget{Tokens: DefaultBudgetTokens, RetryCost: DefaultBudgetRetryCost, Refund: DefaultBudgetRefund,
		Ratio: DefaultBudgetRatio, MinRetries: DefaultBudgetMinRetries}
	kind, err := parseEnum[BudgetKind](ParamBudget, parts[0], budgetNames)
	if err != nil {
		return Budget{}, fieldErr(ParamBudget, v, allowed)
	}
	b.Kind = kind
	args := parts[1:]
	ok := true
	num := func(i int, dst *float64) {
		if i < len(args) {
			f, err := strconv.ParseFloat(args[i], 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				ok = false
			}
			*dst = f
		}
	}
	switch kind {
	case NoBudget:
		if len(args) > 0 {
			ok = false
		}
		b = Budget{}
	case TokenBudget:
		ok = len(args) <= 3
		num(0, &b.Tokens)
		num(1, &b.RetryCost)
		num(2, &b.Refund)
	case RatioBudget:
		ok = len(args) <= 2
		num(0, &b.Ratio)
		if len(args) > 1 {
			n, err := strconv.Atoi(args[1])
			ok = ok && err == nil
			b.MinRetries = n
		}
	}
	if !ok {
		return Budget{}, fieldErr(ParamBudget, v, allowed)
	}
	if err := b.validate(); err != nil {
		return Budget{}, fieldErr(ParamBudget, v, err.(*backoff.FieldError).Allowed)
	}
	return b, nil
}

func parseBreaker(v string) (Breaker, error) {
	const allowed = "none, consecutive[:K[:COOLDOWN]] (e.g. consecutive:5:5s) or ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]] (e.g. ratio:0.5:20:10s:5s)"
	parts := strings.Split(v, ":")
	b := Breaker{Failures: DefaultBreakerFailures, Ratio: DefaultBreakerRatio, MinCalls: DefaultBreakerMinCalls,
		Window: DefaultBreakerWindow, Cooldown: DefaultBreakerCooldown}
	kind, err := parseEnum[BreakerKind](ParamBreaker, parts[0], breakerNames)
	if err != nil {
		return Breaker{}, fieldErr(ParamBreaker, v, allowed)
	}
	b.Kind = kind
	args := parts[1:]
	ok := true
	integer := func(i int, dst *int) {
		if i < len(args) {
			n, err := strconv.Atoi(args[i])
			ok = ok && err == nil
			*dst = n
		}
	}
	dur := func(i int, dst *time.Duration) {
		if i < len(args) {
			d, err := backoff.ParseDuration(ParamBreaker, args[i], MaxTime)
			ok = ok && err == nil
			*dst = d
		}
	}
	switch kind {
	case NoBreaker:
		ok = len(args) == 0
		b = Breaker{}
	case ConsecutiveBreaker:
		ok = len(args) <= 2
		integer(0, &b.Failures)
		dur(1, &b.Cooldown)
	case RatioBreaker:
		ok = len(args) <= 4
		if len(args) > 0 {
			f, err := strconv.ParseFloat(args[0], 64)
			ok = ok && err == nil
			b.Ratio = f
		}
		integer(1, &b.MinCalls)
		dur(2, &b.Window)
		dur(3, &b.Cooldown)
	}
	if !ok {
		return Breaker{}, fieldErr(ParamBreaker, v, allowed)
	}
	if err := b.validate(); err != nil {
		return Breaker{}, fieldErr(ParamBreaker, v, err.(*backoff.FieldError).Allowed)
	}
	return b, nil
}

func parseInt(field, s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fieldErr(field, s, fmt.Sprintf("a whole number from %d to %d", lo, hi))
	}
	return n, nil
}

func parseFloat(field, s string, lo, hi float64, allowed string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		if allowed == "" {
			allowed = fmt.Sprintf("a number from %g to %g", lo, hi)
		}
		return 0, fieldErr(field, s, allowed)
	}
	return f, nil
}

func parseEnum[T ~uint8](field, s string, names []string) (T, error) {
	i, err := backoff.ParseChoice(field, s, names)
	return T(i), err
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func nameOf(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "unknown"
}
