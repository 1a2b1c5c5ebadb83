package sim

import (
	"slices"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// Some parameters mean something only in some runs: the clients of
// closed traffic, a fleet's balancing rule, a cache's time to live. The
// page shows a control only where its run reads it, and the CLI refuses
// a flag its run would not read: --outage-start with a capacity server
// ran without an outage, and said nothing.

// readsWhen is when a run reads a parameter outside the server models'
// own (Model.Fields), and what it needs otherwise, in words.
type readsWhen struct {
	reads func(*Config) bool
	needs string
}

var readsWhens = map[string]readsWhen{
	ParamClients:       {func(c *Config) bool { return c.Traffic == Closed }, "closed traffic (--traffic closed)"},
	ParamArrival:       {func(c *Config) bool { return c.Traffic == Closed }, "closed traffic (--traffic closed)"},
	ParamDuration:      {func(c *Config) bool { return c.Traffic != Closed }, "open or loop traffic (--traffic open:RATE or loop:N)"},
	ParamDrain:         {func(c *Config) bool { return c.Traffic != Closed }, "open or loop traffic (--traffic open:RATE or loop:N)"},
	ParamServers:       {func(c *Config) bool { return c.Server.Traits().Fleet }, "a server model that can be a fleet"},
	ParamBalance:       {func(c *Config) bool { return c.Servers > 1 }, "a fleet (--servers 2 or more)"},
	ParamRetryOther:    {func(c *Config) bool { return c.Servers > 1 }, "a fleet (--servers 2 or more)"},
	ParamLayerAttempts: {func(c *Config) bool { return c.Layers > 1 }, "a chain (--layers 2 or more)"},
	ParamRetryAt:       {func(c *Config) bool { return c.Layers > 1 }, "a chain (--layers 2 or more)"},
	ParamLayerTimeout:  {func(c *Config) bool { return c.Layers > 1 }, "a chain (--layers 2 or more)"},
	ParamBudgetScope:   {func(c *Config) bool { return c.Budget.Kind != NoBudget }, "a retry budget (--budget)"},
	ParamHedgeCancel:   {func(c *Config) bool { return c.Hedge.On() }, "hedging (--hedge)"},
	ParamLatency:       {func(c *Config) bool { return c.Server.Traits().Hops }, "a server model whose calls cross a network"},
	ParamCacheKeys:     {func(c *Config) bool { return c.Server.Traits().Hops }, "a server model whose calls cross a network"},
	ParamCacheTTL:      {func(c *Config) bool { return c.CacheKeys > 0 }, "a cache (--cache-keys above 0)"},
	ParamCacheStart:    {func(c *Config) bool { return c.CacheKeys > 0 }, "a cache (--cache-keys above 0)"},
	ParamCacheZipf:     {func(c *Config) bool { return c.CacheKeys > 0 }, "a cache (--cache-keys above 0)"},
	ParamPropagate: {func(c *Config) bool {
		return c.Timeout > 0 || c.Policy.Deadline > 0 || c.Layers > 1 && c.LayerTimeout.Any() || c.PropagateDeadline
	}, "a deadline to pass on: a timeout, the policy's deadline or a layer timeout"},
}

// Reads reports whether a run of c reads the parameter name: a server
// model's own only with that model (UsesField), and the others of
// readsWhens only where they mean something. Any other parameter, always.
func (c *Config) Reads(name string) bool {
	if !c.UsesField(name) {
		return false
	}
	w, ok := readsWhens[name]
	return !ok || w.reads(c)
}

// NotRead is the refusal of name set to value in a run of c that does
// not read it, saying what would read it; nil when c reads it.
func (c *Config) NotRead(name, value string) error {
	if c.Reads(name) {
		return nil
	}
	needs := readsWhens[name].needs
	if !c.UsesField(name) {
		var models []string
		for _, m := range Models() {
			if slices.Contains(m.Fields(nil), name) {
				models = append(models, m.Name())
			}
		}
		needs = "the server model " + strings.Join(models, " or ") + " (this run's is " + c.Server.String() + ")"
	}
	return &backoff.FieldError{Field: name, Value: clip(value), Code: backoff.CodeUnread, Allowed: "it left unset: only a run with " + needs + " reads it"}
}
