package sim

import "testing"

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
	} {
		t.Run(c.name, func(t *testing.T) { runBudget(t, c.cfg, c.steps) })
	}
}
