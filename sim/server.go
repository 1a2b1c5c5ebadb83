package sim

import "slices"

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
