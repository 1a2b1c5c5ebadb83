package sim

import (
	"fmt"
	"math"
	"slices"
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

// ServerNames lists every ServerModel's name, indexed by ServerModel: the kinds Set and
// the URL accept. The slice is a copy.
func ServerNames() []string { return slices.Clone(serverNames) }

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

// ArrivalNames lists every Arrival's name, indexed by Arrival: the kinds Set and
// the URL accept. The slice is a copy.
func ArrivalNames() []string { return slices.Clone(arrivalNames) }

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

// BudgetNames lists every BudgetKind's name, indexed by BudgetKind: the kinds Set and
// the URL accept. The slice is a copy.
func BudgetNames() []string { return slices.Clone(budgetNames) }

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

// BreakerNames lists every BreakerKind's name, indexed by BreakerKind: the kinds Set and
// the URL accept. The slice is a copy.
func BreakerNames() []string { return slices.Clone(breakerNames) }

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
		n.Clients, err = backoff.ParseInt(name, v, 1, MaxClients)
	case ParamServer:
		n.Server, err = parseEnum[ServerModel](name, v, serverNames)
	case ParamCapacity:
		n.Capacity, err = parsePositive(name, v, MaxCapacity)
	case ParamCollapseFactor:
		n.CollapseFactor, err = backoff.ParseFloat(name, v, 0, MaxCollapseFactor)
	case ParamArrival:
		n.Arrival, n.ArrivalWindow, err = parseArrival(v)
	case ParamHonorRetryAfter:
		n.HonorRetryAfter, err = backoff.ParseBool(name, v)
	case ParamBudget:
		n.Budget, err = parseBudget(v)
	case ParamBreaker:
		n.Breaker, err = parseBreaker(v)
	case ParamMaxCalls:
		n.MaxCalls, err = backoff.ParseInt(name, v, 0, MaxCalls, backoff.ZeroDefault, strconv.Itoa(DefaultMaxCalls))
	default:
		dst, max := n.duration(name)
		if dst == nil {
			return &backoff.FieldError{Field: "parameter", Value: clip(name), Code: backoff.CodeUnknown,
				Args:    append(slices.Clone(ParamNames), backoff.ParamNames...),
				Allowed: "one of " + strings.Join(ParamNames, ", ") + " or a policy parameter"}
		}
		*dst, err = backoff.ParseDuration(name, v, max)
	}
	if err != nil {
		return err
	}
	*c = n
	return nil
}

// duration returns the plain duration field name and its upper bound, or
// nil.
func (c *Config) duration(name string) (*time.Duration, time.Duration) {
	switch name {
	case ParamCapacityWindow:
		return &c.CapacityWindow, MaxTime
	case ParamOutageStart:
		return &c.OutageStart, MaxTime
	case ParamOutageEnd:
		return &c.OutageEnd, MaxTime
	case ParamCollapseWindow:
		return &c.CollapseWindow, MaxTime
	case ParamLatency:
		return &c.Latency, MaxLatency
	case ParamLatencySD:
		return &c.LatencySD, MaxLatency
	case ParamRetryAfterS:
		return &c.RetryAfter, backoff.MaxDuration
	case ParamBucket:
		return &c.Bucket, MaxTime
	case ParamHorizon:
		return &c.Horizon, MaxTime
	}
	return nil, 0
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
			return Burst.String()
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
			return TokenBudget.String() + ":" + formatFloat(b.Tokens) + ":" + formatFloat(b.RetryCost) + ":" + formatFloat(b.Refund)
		case RatioBudget:
			return RatioBudget.String() + ":" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinRetries)
		}
		return NoBudget.String()
	case ParamBreaker:
		b := c.Breaker
		switch b.Kind {
		case ConsecutiveBreaker:
			return ConsecutiveBreaker.String() + ":" + strconv.Itoa(b.Failures) + ":" + d(b.Cooldown)
		case RatioBreaker:
			return RatioBreaker.String() + ":" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinCalls) + ":" + d(b.Window) + ":" + d(b.Cooldown)
		}
		return NoBreaker.String()
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
	if err := backoff.CheckInt(ParamClients, c.Clients, 1, MaxClients); err != nil {
		return err
	}
	if int(c.Server) >= len(serverNames) {
		return choiceErr(ParamServer, c.Server.String(), serverNames)
	}
	if int(c.Arrival) >= len(arrivalNames) {
		return formatErr(ParamArrival, c.Arrival.String(), arrivalForms)
	}
	if c.Server != OCC && !(c.Capacity > 0 && c.Capacity <= MaxCapacity) {
		return positiveErr(ParamCapacity, formatFloat(c.Capacity), formatFloat(MaxCapacity), "", "calls per second, above 0 and at most 1e9")
	}
	for _, name := range ParamNames {
		if d, max := c.duration(name); d != nil {
			if err := backoff.CheckDuration(name, *d, 0, max); err != nil {
				return err
			}
		}
	}
	if err := backoff.CheckDuration(ParamArrival, c.ArrivalWindow, 0, MaxTime); err != nil {
		return err
	}
	if c.Server == Outage && c.OutageEnd < c.OutageStart {
		return &backoff.FieldError{Field: ParamOutageEnd, Value: backoff.FormatDuration(c.OutageEnd),
			Code: backoff.CodeAtLeast, Args: []string{backoff.FormatDuration(c.OutageStart)}, Other: ParamOutageStart,
			Allowed: "at least outage-start (" + backoff.FormatDuration(c.OutageStart) + ")"}
	}
	if c.Server == Collapse && c.CollapseWindow <= 0 {
		return &backoff.FieldError{Field: ParamCollapseWindow, Value: backoff.FormatDuration(c.CollapseWindow),
			Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), backoff.FormatDuration(time.Nanosecond), backoff.FormatDuration(MaxTime)},
			Allowed: "a positive duration for the collapse server"}
	}
	if err := backoff.CheckFloat(ParamCollapseFactor, c.CollapseFactor, 0, MaxCollapseFactor); err != nil {
		return err
	}
	if c.Arrival != Burst && c.ArrivalWindow <= 0 {
		return positiveErr(ParamArrival, c.Get(ParamArrival), backoff.FormatDuration(MaxTime), "DURATION",
			"a positive duration after "+c.Arrival.String()+":")
	}
	if c.Bucket != 0 && c.Bucket < MinBucket {
		return &backoff.FieldError{Field: ParamBucket, Value: backoff.FormatDuration(c.Bucket),
			Code: backoff.CodeZeroOrAtLeast, Args: []string{backoff.FormatDuration(MinBucket)},
			Allowed: "0s (automatic) or at least 1µs"}
	}
	if err := backoff.CheckInt(ParamMaxCalls, c.MaxCalls, 0, MaxCalls, backoff.ZeroDefault, strconv.Itoa(DefaultMaxCalls)); err != nil {
		return err
	}
	if err := c.Budget.validate(); err != nil {
		return err
	}
	return c.Breaker.validate()
}

// The forms of the values with parts, as CodeFormat's Args list them.
var (
	arrivalForms = []string{"burst", "uniform:DURATION", "clock:DURATION"}
	budgetForms  = []string{"none", "tokens[:TOKENS[:COST[:REFUND]]]", "ratio[:RATIO[:MIN]]"}
	breakerForms = []string{"none", "consecutive[:K[:COOLDOWN]]", "ratio[:RATIO[:MIN-CALLS[:WINDOW[:COOLDOWN]]]]"}
)

// validate checks b; a bad part is named in the error's Part.
func (b *Budget) validate() error {
	c := Config{Budget: *b}
	v := c.Get(ParamBudget)
	const syntax = "tokens:TOKENS:COST:REFUND with 0 < COST <= TOKENS <= 1e9 and 0 <= REFUND <= TOKENS"
	switch b.Kind {
	case NoBudget:
	case TokenBudget:
		tokens := formatFloat(b.Tokens)
		switch {
		case !(b.Tokens > 0 && b.Tokens <= MaxBudgetTokens):
			return positiveErr(ParamBudget, v, formatFloat(MaxBudgetTokens), "TOKENS", syntax)
		case !(b.RetryCost > 0 && b.RetryCost <= b.Tokens):
			return positiveErr(ParamBudget, v, tokens, "COST", syntax)
		case !(b.Refund >= 0 && b.Refund <= b.Tokens):
			return partErr(backoff.CheckFloat(ParamBudget, b.Refund, 0, b.Tokens), v, "REFUND", syntax)
		}
	case RatioBudget:
		const syntax = "ratio:RATIO:MIN with RATIO from 0 to 1 and MIN from 0 to 2000000"
		if err := backoff.CheckFloat(ParamBudget, b.Ratio, 0, 1); err != nil {
			return partErr(err, v, "RATIO", syntax)
		}
		if err := backoff.CheckInt(ParamBudget, b.MinRetries, 0, MaxClients); err != nil {
			return partErr(err, v, "MIN", syntax)
		}
	default:
		return formatErr(ParamBudget, v, budgetForms)
	}
	return nil
}

// validate checks b; a bad part is named in the error's Part.
func (b *Breaker) validate() error {
	c := Config{Breaker: *b}
	v := c.Get(ParamBreaker)
	switch b.Kind {
	case NoBreaker:
	case ConsecutiveBreaker:
		syntax := fmt.Sprintf("consecutive:K:COOLDOWN with K from 1 to %d", MaxBreakerCalls)
		if err := backoff.CheckInt(ParamBreaker, b.Failures, 1, MaxBreakerCalls); err != nil {
			return partErr(err, v, "K", syntax)
		}
	case RatioBreaker:
		syntax := fmt.Sprintf("ratio:RATIO:MIN-CALLS:WINDOW:COOLDOWN with RATIO in (0, 1], MIN-CALLS from 1 to %d, WINDOW > 0", MaxBreakerCalls)
		if !(b.Ratio > 0 && b.Ratio <= 1) {
			return positiveErr(ParamBreaker, v, "1", "RATIO", syntax)
		}
		if err := backoff.CheckInt(ParamBreaker, b.MinCalls, 1, MaxBreakerCalls); err != nil {
			return partErr(err, v, "MIN-CALLS", syntax)
		}
		if !(b.Window > 0 && b.Window <= MaxTime) {
			return positiveErr(ParamBreaker, v, backoff.FormatDuration(MaxTime), "WINDOW", syntax)
		}
	default:
		return formatErr(ParamBreaker, v, breakerForms)
	}
	if err := backoff.CheckDuration(ParamBreaker, b.Cooldown, 0, MaxTime); err != nil {
		return partErr(err, v, "COOLDOWN", "a cool-down from 0s to "+backoff.FormatDuration(MaxTime))
	}
	return nil
}

// partErr restates err, about one part of a value with parts, as an error
// about the whole value v.
func partErr(err error, v, part, allowed string) error {
	fe := err.(*backoff.FieldError)
	fe.Value, fe.Part, fe.Allowed = clip(v), part, allowed
	return fe
}

func positiveErr(field, v, max, part, allowed string) error {
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodePositive, Args: []string{max},
		Part: part, Allowed: allowed}
}

func formatErr(field, v string, forms []string) error {
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodeFormat, Args: slices.Clone(forms),
		Allowed: strings.Join(forms[:len(forms)-1], ", ") + " or " + forms[len(forms)-1]}
}

func choiceErr(field, v string, names []string) error {
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodeChoice, Args: slices.Clone(names),
		Allowed: "one of " + strings.Join(names, ", ")}
}

// clip bounds a value quoted in an error.
func clip(v string) string {
	if len(v) > 64 {
		return v[:64] + "…"
	}
	return v
}

func parseArrival(v string) (Arrival, time.Duration, error) {
	kind, arg, hasArg := strings.Cut(v, ":")
	a, err := parseEnum[Arrival](ParamArrival, kind, arrivalNames)
	if err != nil || a == Burst && hasArg || a != Burst && !hasArg {
		return 0, 0, formatErr(ParamArrival, v, arrivalForms)
	}
	if a == Burst {
		return Burst, 0, nil
	}
	d, err := backoff.ParseDuration(ParamArrival, arg, MaxTime)
	if err != nil || d <= 0 {
		return 0, 0, positiveErr(ParamArrival, v, backoff.FormatDuration(MaxTime), "DURATION",
			"burst, uniform:DURATION or clock:DURATION (a positive duration up to 8760h)")
	}
	return a, d, nil
}

func parseBudget(v string) (Budget, error) {
	parts := strings.Split(v, ":")
	b := Budget{Tokens: DefaultBudgetTokens, RetryCost: DefaultBudgetRetryCost, Refund: DefaultBudgetRefund,
		Ratio: DefaultBudgetRatio, MinRetries: DefaultBudgetMinRetries}
	kind, err := parseEnum[BudgetKind](ParamBudget, parts[0], budgetNames)
	if err != nil {
		return Budget{}, formatErr(ParamBudget, v, budgetForms)
	}
	b.Kind = kind
	args := parts[1:]
	ok := true
	num := func(i int, dst *float64) {
		if i < len(args) {
			f, err := backoff.ParseFloat(ParamBudget, args[i], -math.MaxFloat64, math.MaxFloat64)
			ok = ok && err == nil
			*dst = f
		}
	}
	switch kind {
	case NoBudget:
		ok = len(args) == 0
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
		return Budget{}, formatErr(ParamBudget, v, budgetForms)
	}
	if err := b.validate(); err != nil {
		err.(*backoff.FieldError).Value = clip(v)
		return Budget{}, err
	}
	return b, nil
}

func parseBreaker(v string) (Breaker, error) {
	parts := strings.Split(v, ":")
	b := Breaker{Failures: DefaultBreakerFailures, Ratio: DefaultBreakerRatio, MinCalls: DefaultBreakerMinCalls,
		Window: DefaultBreakerWindow, Cooldown: DefaultBreakerCooldown}
	kind, err := parseEnum[BreakerKind](ParamBreaker, parts[0], breakerNames)
	if err != nil {
		return Breaker{}, formatErr(ParamBreaker, v, breakerForms)
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
			f, err := backoff.ParseFloat(ParamBreaker, args[0], -math.MaxFloat64, math.MaxFloat64)
			ok = ok && err == nil
			b.Ratio = f
		}
		integer(1, &b.MinCalls)
		dur(2, &b.Window)
		dur(3, &b.Cooldown)
	}
	if !ok {
		return Breaker{}, formatErr(ParamBreaker, v, breakerForms)
	}
	if err := b.validate(); err != nil {
		err.(*backoff.FieldError).Value = clip(v)
		return Breaker{}, err
	}
	return b, nil
}

// parsePositive reads a number above 0 and at most max (CodePositive).
func parsePositive(field, s string, max float64) (float64, error) {
	f, err := backoff.ParseFloat(field, s, 0, max)
	if err != nil || f == 0 {
		return 0, positiveErr(field, s, formatFloat(max), "", "calls per second, above 0 and at most 1e9")
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
