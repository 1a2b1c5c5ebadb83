package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// kindFamilies are the core's kinds that the page offers, by the catalog
// prefix of their labels: every name comes from the core, every label from
// the catalog ("jitter.full"), and a test ties the two.
var kindFamilies = map[string]func() []string{
	"jitter":       backoff.JitterNames,
	"growth":       backoff.GrowthNames,
	"cap-mode":     backoff.CapModeNames,
	"retry-after":  backoff.RetryAfterNames,
	"server":       sim.ServerNames,
	"arrival":      sim.ArrivalNames,
	"budget":       sim.BudgetNames,
	"breaker":      sim.BreakerNames,
	"traffic":      sim.TrafficNames,
	"service-dist": sim.ServiceNames,
	"budget-scope": sim.ScopeNames,
	"fault":        sim.FaultNames,
	"fault-word":   sim.FaultNames,
	"channel":      sim.ChannelNames,
	"retry-at":     sim.RetryAtNames,
	"discipline":   sim.DisciplineNames,
	"admission":    sim.AdmissionNames,
}

// kindOptions are the entries of a select of one family's kinds.
func kindOptions(l i18n.Lang, family string) []option {
	names := kindFamilies[family]()
	opts := make([]option, len(names))
	for i, n := range names {
		opts[i] = option{n, l.T(family + "." + n)}
	}
	return opts
}
