package export

import "github.com/backoff-playground/playground/sim"

// SimOptions are what a simulation adds to a snippet: its try timeout, and
// its budget when that is gRPC's retryThrottling.
func SimOptions(c sim.Config) Options {
	o := Options{TryTimeout: c.Timeout}
	if c.Budget.Kind == sim.GRPCBudget {
		o.Throttling = Throttling{MaxTokens: c.Budget.MaxTokens, TokenRatio: c.Budget.TokenRatio}
	}
	return o
}
