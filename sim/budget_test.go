package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// budgetStep is one thing that happens to a budget: a retry asks for
// permission with active clients started and not finished (ask), or an
// answer comes back to a retry (wasRetry) or a first call, a success or
// not. granted is what the ask must get; left is the budget's level
// afterwards: tokens for a token budget, retries outstanding for a ratio
// budget.
type budgetStep struct {
	ask      bool
	active   int
	granted  bool
	wasRetry bool
	ok       bool
	left     float64
}

func runBudget(t *testing.T, cfg Budget, steps []budgetStep) {
	t.Helper()
	b := newBudget(cfg)
	for i, s := range steps {
		if s.ask {
			if got := b.retry(s.active); got != s.granted {
				t.Fatalf("step %d: retry(%d) = %v, want %v", i, s.active, got, s.granted)
			}
		} else {
			b.answered(s.wasRetry, s.ok)
		}
		var left float64
		switch b.kind {
		case TokenBudget:
			left = b.tokens.tokens
			if left < 0 || left > b.tokens.max {
				t.Fatalf("step %d: %v tokens, outside [0, %v]", i, left, b.tokens.max)
			}
		case RatioBudget:
			left = float64(b.ratio.out)
			if left < 0 {
				t.Fatalf("step %d: %v retries outstanding", i, left)
			}
		case GRPCBudget:
			left = b.grpc.tokens
			if left < 0 || left > b.grpc.max {
				t.Fatalf("step %d: %v tokens, outside [0, %v]", i, left, b.grpc.max)
			}
		}
		if left != s.left {
			t.Fatalf("step %d: left %v, want %v", i, left, s.left)
		}
	}
}

func TestBudget(t *testing.T) {
	ask := func(active int, granted bool, left float64) budgetStep {
		return budgetStep{ask: true, active: active, granted: granted, left: left}
	}
	answer := func(wasRetry, ok bool, left float64) budgetStep {
		return budgetStep{wasRetry: wasRetry, ok: ok, left: left}
	}
	for _, c := range []struct {
		name  string
		cfg   Budget
		steps []budgetStep
	}{
		{"no budget grants every retry", Budget{}, []budgetStep{
			ask(0, true, 0), ask(0, true, 0), answer(true, false, 0), ask(1, true, 0),
		}},
		{"a retry takes its cost until the tokens run short", Budget{Kind: TokenBudget, Tokens: 12, RetryCost: 5, Refund: 1}, []budgetStep{
			ask(100, true, 7), ask(100, true, 2), ask(100, false, 2), ask(100, false, 2),
		}},
		{"a success refunds, a failure does not", Budget{Kind: TokenBudget, Tokens: 10, RetryCost: 5, Refund: 2}, []budgetStep{
			ask(1, true, 5), ask(1, true, 0), answer(true, false, 0), answer(false, true, 2),
			answer(true, true, 4), ask(1, false, 4), answer(true, true, 6), ask(1, true, 1),
		}},
		{"refunds stop at the bucket's size", Budget{Kind: TokenBudget, Tokens: 10, RetryCost: 5, Refund: 3}, []budgetStep{
			ask(1, true, 5), answer(true, true, 8), answer(false, true, 10), answer(false, true, 10),
		}},
		{"ratio: at least the minimum, whatever the clients", Budget{Kind: RatioBudget, Ratio: 0.2, MinRetries: 2}, []budgetStep{
			ask(1, true, 1), ask(1, true, 2), ask(1, false, 2), ask(0, false, 2),
		}},
		{"ratio: a share of the active clients above the minimum", Budget{Kind: RatioBudget, Ratio: 0.2, MinRetries: 1}, []budgetStep{
			ask(20, true, 1), ask(20, true, 2), ask(20, true, 3), ask(20, true, 4), ask(20, false, 4),
			// Fewer active clients: the share shrinks below those out.
			ask(10, false, 4),
		}},
		{"ratio: a retry's answer frees its place, a first call's does not", Budget{Kind: RatioBudget, Ratio: 0, MinRetries: 1}, []budgetStep{
			ask(5, true, 1), ask(5, false, 1), answer(false, false, 1), answer(false, true, 1),
			answer(true, false, 0), ask(5, true, 1),
		}},
		{"ratio 0 and minimum 0 grant nothing", Budget{Kind: RatioBudget}, []budgetStep{
			ask(1000, false, 0),
		}},
		// gRFC A6: tokens start at maxTokens 10; a failure takes 1 and a
		// retry is granted while more than 5 are left; a grant takes
		// nothing. The fifth failure leaves exactly 5: no retry.
		{"grpc: failures fall to the half, where retries stop", Budget{Kind: GRPCBudget, MaxTokens: 10, TokenRatio: 0.5}, []budgetStep{
			ask(1, true, 10), answer(false, false, 9), ask(1, true, 9), answer(true, false, 8), answer(true, false, 7),
			answer(true, false, 6), ask(1, true, 6), answer(true, false, 5), ask(1, false, 5),
			// Successes add tokenRatio: 5.5 is above the half again.
			answer(false, true, 5.5), ask(1, true, 5.5),
		}},
		{"grpc: the count stays within [0, maxTokens]", Budget{Kind: GRPCBudget, MaxTokens: 2, TokenRatio: 1.5}, []budgetStep{
			answer(false, true, 2), answer(false, false, 1), answer(false, false, 0), answer(false, false, 0),
			ask(1, false, 0), answer(false, true, 1.5), ask(1, true, 1.5), answer(true, true, 2),
		}},
	} {
		t.Run(c.name, func(t *testing.T) { runBudget(t, c.cfg, c.steps) })
	}
}

// A shared gRPC throttle against an outage that outlasts every retry:
// maxTokens 10 lets exactly the first four failures retry (tokens 9, 8,
// 7, 6 > 5); the fifth leaves 5, and no success ever refills it. 1,000
// clients make 1,004 calls, where 6 attempts each would make 6,000.
func TestGRPCThrottleHerd(t *testing.T) {
	for _, c := range []struct {
		budget      string
		calls, gave int
	}{
		{"grpc:10:0.1", 1004, 1000},
		{"grpc:10", 1004, 1000},
		// Half of 3 is 1.5: failures leave 2 (a retry), then 1 (none).
		{"grpc:3:1", 1001, 1000},
		{"none", 6000, 1000},
	} {
		cfg := variant{c.budget, [][2]string{{"clients", "1000"}, {"outage-end", "1h"}, {"attempts", "6"}, {"budget", c.budget}}}.config(t)
		r, err := Run(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Totals.Calls != c.calls || r.Totals.GaveUp != c.gave || r.Totals.Succeeded != 0 {
			t.Errorf("%s: %d calls, %d gave up, %d succeeded; want %d, %d, 0", c.budget, r.Totals.Calls, r.Totals.GaveUp, r.Totals.Succeeded, c.calls, c.gave)
		}
	}
}

// The text form: defaults from gRFC A6's example, parts in range.
func TestGRPCBudgetText(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"grpc", "grpc:10:0.1", ""},
		{"grpc:100", "grpc:100:0.1", ""},
		{"grpc:1000:0.25", "grpc:1000:0.25", ""},
		{"grpc:0", "", "MAX"},
		{"grpc:1001", "", "MAX"},
		{"grpc:10:0", "", "RATIO"},
		{"grpc:10:1:1", "", "grpc[:MAX[:RATIO]]"},
	} {
		b, err := parseBudget(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error()+fmt.Sprint(err.(*backoff.FieldError).Part, err.(*backoff.FieldError).Args), c.err) {
				t.Errorf("%s: error %v, want one naming %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || b.text() != c.want {
			t.Errorf("%s: %q %v, want %q", c.in, b.text(), err, c.want)
		}
	}
}

// The metastable storm (a 10 s stall under 200 requests/s, timeouts of
// 1 s, three attempts): without a budget the retries hold the queue past
// capacity and it never recovers; gRPC's throttling, shared, stops the
// retries once failures pass half its tokens, and the run recovers.
func TestGRPCThrottleEndsStorm(t *testing.T) {
	storm := [][2]string{{"traffic", "open:200"}, {"duration", "2m"}, {"server", "queue"}, {"concurrency", "30"},
		{"service", "100ms"}, {"timeout", "1s"}, {"fault", "stall@20s-30s"}, {"attempts", "3"}}
	for _, c := range []struct {
		budget    string
		recovered bool
	}{{"none", false}, {"grpc:10:0.1", true}} {
		cfg := variant{c.budget, append(append([][2]string{}, storm...), [2]string{"budget", c.budget})}.config(t)
		r, err := Run(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Totals.RecoveredAt != nil; got != c.recovered {
			t.Errorf("budget %s: recovered %v, want %v (%s)", c.budget, got, c.recovered, r.Totals.Recovery)
		}
	}
}
