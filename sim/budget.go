package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"

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

// budgetForms are the forms of a budget value, as CodeFormat's Args list them.
var budgetForms = []string{"none", "tokens[:TOKENS[:COST[:REFUND]]]", "ratio[:RATIO[:MIN]]"}

// text is b's text form, what Get("budget") returns and parseBudget reads.
func (b *Budget) text() string {
	switch b.Kind {
	case TokenBudget:
		return TokenBudget.String() + ":" + formatFloat(b.Tokens) + ":" + formatFloat(b.RetryCost) + ":" + formatFloat(b.Refund)
	case RatioBudget:
		return RatioBudget.String() + ":" + formatFloat(b.Ratio) + ":" + strconv.Itoa(b.MinRetries)
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
