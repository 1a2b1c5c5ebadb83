package app

import (
	"github.com/backoff-playground/playground/sim"
)

// nodeTotals are one node's figures over a run, in its kind's order, as
// the topology view draws them under its box.
type nodeTotals struct {
	Name, Kind string
	Figures    []nodeFigure
}

// nodeFigure is one figure of a node: its key (the catalog has
// node.fig.KEY) and its value.
type nodeFigure struct {
	Key   string
	Value float64
}

// shareFigures are the figures that are a share of a whole (0 to 1),
// shown as a percentage; the others are counts.
var shareFigures = []string{"hit_ratio", "utilization"}

// perNode are the figures of t (nil: none) for each node of c's
// topology, read from the run's totals: a fleet's servers from
// PerServer, one server from the request-level totals, the cache from
// its own, a balancer's calls from the clients' when nothing stands
// between them. Figures the totals do not give node by node are left out
// rather than guessed.
func perNode(c *sim.Config, t *sim.Totals) []nodeTotals {
	if t == nil {
		return nil
	}
	tp := c.Topology()
	direct := c.Layers <= 1 && c.CacheKeys == 0 // the clients call the balancer or the server
	var out []nodeTotals
	server := 0
	for _, n := range tp.Nodes {
		nt := nodeTotals{Name: n.Name, Kind: n.Kind}
		add := func(key string, v float64) { nt.Figures = append(nt.Figures, nodeFigure{key, v}) }
		switch n.Kind {
		case "server":
			switch {
			case !t.RequestLevel:
				if direct {
					add("calls", float64(t.Calls))
				}
			case c.Servers > 1 && server < len(t.PerServer):
				s := t.PerServer[server]
				add("served", float64(s.Served))
				add("refused", float64(s.Refused))
				add("errors", float64(s.Errors))
				add("outage", float64(s.Outage))
				add("timeouts", float64(s.Timeouts))
				add("lost", float64(s.Lost))
				add("utilization", s.Utilization)
			default:
				if direct {
					add("calls", float64(t.Calls))
				}
				add("served", float64(t.Served))
				add("refused", float64(t.Refused))
				add("errors", float64(t.Errors))
				add("outage", float64(t.OutageFails))
				add("timeouts", float64(t.Timeouts))
				add("lost", float64(t.Lost))
			}
			server++
		case "balancer":
			if direct {
				add("calls", float64(t.Calls))
			}
		case "cache":
			add("calls", float64(t.Hits+t.Misses))
			add("hits", float64(t.Hits))
			add("misses", float64(t.Misses))
			add("hit_ratio", t.HitRatio)
		}
		out = append(out, nt)
	}
	return out
}
