package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

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
	// AdaptiveBudget is client-side adaptive throttling (Beyer et al.,
	// "Site Reliability Engineering", O'Reilly 2016, chapter 21): every
	// call, first or retry, is rejected locally with probability
	// max(0, (requests - K*accepts) / (requests + 1)), requests and
	// accepts (successes) counted over the last Window. A rejected call
	// fails at once without reaching the server (Throttled) and costs an
	// attempt, as a call the breaker refuses does.
	AdaptiveBudget
	// GRPCBudget is gRPC's retryThrottling (gRFC A6; grpc-go's
	// retryThrottler): a token count that starts at MaxTokens, falls by 1
	// on every failed try (floored at 0) and rises by TokenRatio on every
	// success (capped at MaxTokens); retries stop while it is at or below
	// MaxTokens/2. A failure is counted before the retry is decided, so
	// the failure that crosses the half stops its own retry.
	GRPCBudget
)

var budgetNames = []string{"none", "tokens", "ratio", "adaptive", "grpc"}

func (k BudgetKind) String() string { return nameOf(budgetNames, int(k)) }

// BudgetNames lists every BudgetKind's name, indexed by BudgetKind: the kinds Set and
// the URL accept. The slice is a copy.
func BudgetNames() []string { return slices.Clone(budgetNames) }

// Budget is a retry budget. Its text form (Set/Get "budget") is
// none | tokens[:TOKENS[:COST[:REFUND]]] | ratio[:RATIO[:MIN]] |
// adaptive[:K[:WINDOW]].
type Budget struct {
	Kind BudgetKind
	// TokenBudget: capacity, cost of a retry, refund of a success.
	Tokens, RetryCost, Refund float64
	// RatioBudget: fraction of outstanding requests that may be retries,
	// and the number of retries always allowed.
	Ratio      float64
	MinRetries int
	// AdaptiveBudget: the multiplier K (2 in the SRE book; lower throttles
	// sooner) and the window requests and accepts are counted over.
	K      float64
	Window time.Duration
	// GRPCBudget: the token count's ceiling and start (maxTokens, in
	// (0, 1000]) and what a success adds (tokenRatio, above 0).
	MaxTokens, TokenRatio float64
}

// Defaults of the budgets: the AWS SDK's 500/5/1, Envoy's 20%, min 3,
// and the SRE book's K = 2 over two minutes.
const (
	DefaultBudgetTokens     = 500
	DefaultBudgetRetryCost  = 5
	DefaultBudgetRefund     = 1
	DefaultBudgetRatio      = 0.2
	DefaultBudgetMinRetries = 3
	DefaultBudgetK          = 2
	DefaultBudgetWindow     = 2 * time.Minute
	MaxBudgetK              = 1000
	// gRFC A6's example retryThrottling: maxTokens 10, tokenRatio 0.1.
	// A6 sets no defaults; grpc-go accepts maxTokens in (0, 1000] and any
	// tokenRatio above 0.
	DefaultGRPCMaxTokens  = 10
	DefaultGRPCTokenRatio = 0.1
	MaxGRPCTokens         = 1000
)

// budgetForms are the forms of a budget value, as CodeFormat's Args list them.
var budgetForms = []string{"none", "tokens[:TOKENS[:COST[:REFUND]]]", "ratio[:RATIO[:MIN]]", "adaptive[:K[:WINDOW]]", "grpc[:MAX[:RATIO]]"}

// text is b's text form, what Get("budget") returns and parseBudget reads.
func (b *Budget) text() string {
	switch b.Kind {
	case TokenBudget:
		return TokenBudget.String() + ":" + formatFloat(b.Tokens) + ":" + formatFloat(b.RetryCost) + ":" + formatFloat(b.Refund)
	case RatioBudget:
		return RatioBudget.String() + ":" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinRetries)
	case AdaptiveBudget:
		return AdaptiveBudget.String() + ":" + formatFloat(b.K) + ":" + backoff.FormatDuration(b.Window)
	case GRPCBudget:
		return GRPCBudget.String() + ":" + formatFloat(b.MaxTokens) + ":" + formatFloat(b.TokenRatio)
	}
	return NoBudget.String()
}

// validate checks b; a bad part is named in the error's Part.
func (b *Budget) validate() error {
	v := b.text()
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
	case AdaptiveBudget:
		const syntax = "adaptive:K:WINDOW with K above 0 and at most 1000 and WINDOW a positive duration up to 8760h"
		if !(b.K > 0 && b.K <= MaxBudgetK) {
			return positiveErr(ParamBudget, v, formatFloat(MaxBudgetK), "K", syntax)
		}
		if !(b.Window > 0 && b.Window <= MaxTime) {
			return positiveErr(ParamBudget, v, backoff.FormatDuration(MaxTime), "WINDOW", syntax)
		}
	case GRPCBudget:
		const syntax = "grpc:MAX:RATIO with MAX and RATIO above 0 and at most 1000"
		if !(b.MaxTokens > 0 && b.MaxTokens <= MaxGRPCTokens) {
			return positiveErr(ParamBudget, v, formatFloat(MaxGRPCTokens), "MAX", syntax)
		}
		if !(b.TokenRatio > 0 && b.TokenRatio <= MaxGRPCTokens) {
			return positiveErr(ParamBudget, v, formatFloat(MaxGRPCTokens), "RATIO", syntax)
		}
	default:
		return formatErr(ParamBudget, v, budgetForms)
	}
	return nil
}

// parseBudget reads a budget value in one of budgetForms; omitted parts
// take the defaults.
func parseBudget(v string) (Budget, error) {
	parts := strings.Split(v, ":")
	b := Budget{Tokens: DefaultBudgetTokens, RetryCost: DefaultBudgetRetryCost, Refund: DefaultBudgetRefund,
		Ratio: DefaultBudgetRatio, MinRetries: DefaultBudgetMinRetries, K: DefaultBudgetK, Window: DefaultBudgetWindow,
		MaxTokens: DefaultGRPCMaxTokens, TokenRatio: DefaultGRPCTokenRatio}
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
	case AdaptiveBudget:
		ok = len(args) <= 2
		num(0, &b.K)
		if len(args) > 1 {
			d, err := backoff.ParseDuration(ParamBudget, args[1], MaxTime)
			ok = ok && err == nil
			b.Window = d
		}
	case GRPCBudget:
		ok = len(args) <= 2
		num(0, &b.MaxTokens)
		num(1, &b.TokenRatio)
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

// budget is a Budget at work, shared by the whole population: one per
// run, not safe for concurrent use. kind says which part is live; its
// zero value is no budget, which grants every retry.
//
// A retry asks the budget when the client has decided to make it (after
// its delay is known, before it waits); every answer a client gets, a
// refusal by the breaker included, is reported to it.
type budget struct {
	kind   BudgetKind
	tokens tokenBudget
	ratio  ratioBudget
	grpc   grpcThrottle
}

func newBudget(b Budget) budget {
	return budget{kind: b.Kind,
		tokens: tokenBudget{tokens: b.Tokens, max: b.Tokens, cost: b.RetryCost, refund: b.Refund},
		ratio:  ratioBudget{ratio: b.Ratio, min: b.MinRetries},
		grpc:   grpcThrottle{tokens: b.MaxTokens, max: b.MaxTokens, ratio: b.TokenRatio}}
}

// answered reports an answer to a client's try: a retry's (wasRetry) or a
// first call's, a success or not.
func (b *budget) answered(wasRetry, ok bool) {
	switch b.kind {
	case TokenBudget:
		if ok {
			b.tokens.success()
		}
	case RatioBudget:
		if wasRetry {
			b.ratio.answered()
		}
	case GRPCBudget:
		b.grpc.answered(ok)
	}
}

// retry reports whether the budget grants a retry, and takes it if so;
// active is the clients that have started and not finished.
func (b *budget) retry(active int) bool {
	switch b.kind {
	case TokenBudget:
		return b.tokens.retry()
	case RatioBudget:
		return b.ratio.retry(active)
	case GRPCBudget:
		return b.grpc.retry()
	}
	return true
}

// tokenBudget is the AWS SDK's retry quota: a retry takes cost tokens, a
// success puts refund back. Invariant: 0 <= tokens <= max.
type tokenBudget struct {
	tokens, max, cost, refund float64
}

func (b *tokenBudget) retry() bool {
	if b.tokens < b.cost {
		return false
	}
	b.tokens -= b.cost
	return true
}

func (b *tokenBudget) success() { b.tokens = math.Min(b.max, b.tokens+b.refund) }

// ratioBudget is Envoy's retry budget: out counts the retries granted and
// not yet answered (waiting out their delay or in flight), and a retry is
// granted while out < max(min, ratio*active). Invariant: out >= 0.
type ratioBudget struct {
	out   int
	ratio float64
	min   int
}

func (b *ratioBudget) retry(active int) bool {
	limit := math.Max(float64(b.min), b.ratio*float64(active))
	if float64(b.out) >= limit {
		return false
	}
	b.out++
	return true
}

func (b *ratioBudget) answered() { b.out-- }

// grpcThrottle is gRPC's retryThrottling, as grpc-go's retryThrottler
// (clientconn.go; throttle on a failed try in stream.go shouldRetry,
// successfulRPC on a committed success): tokens falls by 1 on a failure,
// floored at 0, and rises by ratio on a success, capped at max; a retry is
// granted while tokens > max/2. A grant takes nothing: the retry's own
// answer counts. Invariant: 0 <= tokens <= max.
type grpcThrottle struct {
	tokens, max, ratio float64
}

func (g *grpcThrottle) answered(ok bool) {
	if ok {
		g.tokens = math.Min(g.max, g.tokens+g.ratio)
	} else {
		g.tokens = math.Max(0, g.tokens-1)
	}
}

func (g *grpcThrottle) retry() bool { return g.tokens > g.max/2 }

// adaptiveSlots is how many slots the adaptive throttle's window is cut
// into: its counts move on a slot at a time (7.5 s of the default two
// minutes).
const adaptiveSlots = 16

// adaptiveThrottle is the SRE book's client-side throttle: requests and
// accepts over the last window, kept in adaptiveSlots slots of slot
// seconds each; slot idx is the current one, held at (idx mod
// adaptiveSlots). Invariant: reqs and accs are the sums of req and acc.
type adaptiveThrottle struct {
	k          float64
	slot       float64 // seconds
	idx        int64
	req, acc   [adaptiveSlots]int32
	reqs, accs int
}

func newAdaptive(b Budget) adaptiveThrottle {
	return adaptiveThrottle{k: b.K, slot: b.Window.Seconds() / adaptiveSlots}
}

// move brings the window to t, dropping the slots that fell out of it.
func (a *adaptiveThrottle) move(t float64) {
	s := int64(t / a.slot)
	if s <= a.idx {
		return
	}
	for i := a.idx + 1; i <= s && i <= a.idx+adaptiveSlots; i++ {
		j := i % adaptiveSlots
		a.reqs -= int(a.req[j])
		a.accs -= int(a.acc[j])
		a.req[j], a.acc[j] = 0, 0
	}
	a.idx = s
}

// rejectP is the probability of rejecting a call now:
// max(0, (requests - K*accepts) / (requests + 1)).
func rejectP(requests, accepts int, k float64) float64 {
	return max(0, (float64(requests)-k*float64(accepts))/float64(requests+1))
}

// throttle counts a call at t and reports whether to reject it locally,
// from a uniform draw u in [0, 1).
func (a *adaptiveThrottle) throttle(t, u float64) bool {
	a.move(t)
	p := rejectP(a.reqs, a.accs, a.k)
	a.req[a.idx%adaptiveSlots]++
	a.reqs++
	return u < p
}

// accept counts a success at t.
func (a *adaptiveThrottle) accept(t float64) {
	a.move(t)
	a.acc[a.idx%adaptiveSlots]++
	a.accs++
}

// BudgetScope is who shares a budget.
type BudgetScope uint8

const (
	// SharedScope: one budget for the whole population, as one SDK client
	// or sidecar serves the callers behind it.
	SharedScope BudgetScope = iota
	// CallerScope: each caller has its own budget (and its own adaptive
	// throttle), as callers in separate processes do. An open-traffic
	// caller lives for one request, so its budget starts full each time.
	CallerScope
)

var scopeNames = []string{"shared", "caller"}

func (s BudgetScope) String() string { return nameOf(scopeNames, int(s)) }

// ScopeNames lists every BudgetScope's name, indexed by BudgetScope. The
// slice is a copy.
func ScopeNames() []string { return slices.Clone(scopeNames) }
