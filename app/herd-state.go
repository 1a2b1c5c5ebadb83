package app

import (
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// herdAlwaysInURL are the herd keys written even at their defaults, so a
// link says how big the herd is and what the server does.
var herdAlwaysInURL = []string{sim.ParamClients, sim.ParamServer}

// herdState is the herd scenario's part of the page state: a simulator
// config whose Policy is ignored (the page's policy is used).
type herdState struct {
	Config sim.Config
	// Runs is how many seeds the page runs and averages (keyRuns).
	Runs int
}

// keyNames are the herd's node names, in its topology's order, when they
// are not the shorthand's (a topology applied with names of its own).
const keyNames = "names"

// nodeNamesFit reports whether v names c's nodes: as many names as it has
// nodes, each a letter then letters, digits, - or _ (at most 32), each
// once.
func nodeNamesFit(c *sim.Config, v string) bool {
	d := *c
	d.Names = ""
	names := strings.Split(v, ",")
	if len(names) != len(d.NodeNames()) {
		return false
	}
	for i, n := range names {
		if n == "" || len(n) > 32 || slices.Contains(names[:i], n) {
			return false
		}
		for j, r := range n {
			letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
			if !letter && (j == 0 || !(r >= '0' && r <= '9' || r == '-' || r == '_')) {
				return false
			}
		}
	}
	return true
}

// keyRuns is the number of runs; maxPageRuns the most the page makes, so
// that a change still repaints within a second or two (the page's call
// bound is shared by the runs).
const (
	keyRuns     = "runs"
	maxPageRuns = 20
)

func defaultHerd() herdState { return herdState{Config: sim.DefaultConfig(), Runs: 1} }

// config is the scenario run under policy p.
func (h *herdState) config(p backoff.Policy) sim.Config {
	c := h.Config
	c.Policy = p
	return c
}

// parse applies the herd keys of a query. first returns a key's first value
// and records duplicates; known collects the keys it understands.
func (h *herdState) parse(first func(string) (string, bool), known map[string]bool) []notice {
	var notes []notice
	c, _ := parseParams(sim.DefaultConfig, sim.ParamNames, first, known, "", "herd", "notice.herd", &notes)
	c.Policy = backoff.Default()
	h.Config = c
	h.Runs = 1
	known[keyNames] = true
	if v, ok := first(keyNames); ok {
		if !nodeNamesFit(&h.Config, v) {
			notes = append(notes, notice{Key: keyNames, Value: clip(v, 32), Msg: "notice.names",
				Args: []string{strings.Join(h.Config.NodeNames(), ",")}})
		} else {
			h.Config.Names = v
		}
	}
	known[keyRuns] = true
	if v, ok := first(keyRuns); ok {
		if n, err := backoff.ParseInt(keyRuns, v, 1, maxPageRuns); err != nil {
			notes = append(notes, notice{Key: keyRuns, Value: clip(v, 32), Err: err})
		} else {
			h.Runs = n
		}
	}
	return notes
}

// query writes the herd keys that differ from the default scenario.
func (h *herdState) query(add func(k, v string)) {
	def := sim.DefaultConfig()
	for _, name := range sim.ParamNames {
		v := h.Config.Get(name)
		if v != def.Get(name) || contains(herdAlwaysInURL, name) {
			add(name, v)
		}
	}
	if h.Config.Names != "" && nodeNamesFit(&h.Config, h.Config.Names) {
		add(keyNames, h.Config.Names) // names of a shape since changed are dropped
	}
	if h.Runs > 1 {
		add(keyRuns, strconv.Itoa(h.Runs))
	}
}
