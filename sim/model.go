package sim

import (
	"slices"
	"sync"
)

// Model is one server model: everything about it but the engines' fast
// paths goes through it, so the CLI's --server flag and its help, the
// page's select and the fields it shows, validation and EstimateCalls
// read the registry (Register, Models) instead of listing the models.
// Implementations are stateless values; the state of a run lives in what
// NewTaker returns, or in the engines' own structs for the built-in
// models. The unexported methods keep implementations in this package:
// a model is a file here (see the package doc's recipe).
type Model interface {
	// Name is the model's value for --server and the URL's "server" key.
	Name() string
	// Traits says which engines run it and what it honours.
	Traits() Traits
	// Fields are the parameters (Param names) of the model's own that
	// apply to c, whose server is this model, in the order a form shows
	// them; with c nil, every one it may read (the CLI's help). They are
	// shared names or its own (RegisterParam). A fixed slice, asked for
	// on every render of the page: callers must not change it.
	Fields(c *Config) []string
	// Validate checks the model's fields in c, whose server is this
	// model; Config.Validate has checked each field alone.
	Validate(c *Config) error
	// Describe is the model in c in words, for the CLI's summary line:
	// "server outage (down 0s-10s, then 100 calls/s)".
	Describe(c *Config) string
	// Labels are the catalog keys of its entry in the page's select and
	// of the sentence under it: "server.NAME" and "server.NAME-long" by
	// convention, both languages in app/i18n.
	Labels() (short, long string)
	// Faults are the faults the model itself brings (the outage model's
	// dead time), at every server, on top of Config.Faults.
	Faults(c *Config) []Fault
	// NewTaker is how one server of the model takes calls in a run of c:
	// nil for models whose calls the engines handle in their own code
	// (the built-in ones; a test checks that the three that have a taker
	// agree with it).
	NewTaker(c *Config) Taker

	// estSetup sets what the herd's estimator needs of the model: the
	// hops of a try and the server's burst.
	estSetup(e *estimator)
	// estServe is what the server serves of a wave of tries in the herd's
	// estimator, before the credit (estimator.serve).
	estServe(e *estimator, x *estWave) float64
	// estCycle is a loop caller's mean cycle in seconds (think time, the
	// hops hop, and the server's time) and the most requests the model
	// can carry in c's Duration (+Inf: no such bound).
	estCycle(c *Config, hop float64) (cycle, most float64)
	// setupHerd readies one server of it in the herd's engine beyond
	// what every server has (a token bucket): its own state.
	setupHerd(sv *server, c *Config, b *buffers)
	// setupReq readies one server of it in the request-level engine.
	setupReq(sv *rserver, c *Config)
	// addTotals adds its own figures to a request-level run's totals,
	// span the seconds its rates are per (the channel's G and S).
	addTotals(r *reqSim, t *Totals, span float64)
	// shape is its own group of JSON keys in a request-level run's
	// totals (jsonShape; 0: none).
	shape() jsonShape
}

// Taker is one server of a model at work in a run: it answers the calls
// that reach it, in time order. Not safe for concurrent use.
type Taker interface {
	// Take reports whether the server serves a call reaching it at t
	// seconds; else a 503 refuses it.
	Take(t float64) bool
}

// Traits are what the engines and the front ends need to know about a
// model beyond its fields.
type Traits struct {
	// Herd: the herd's engine runs it; false makes every config with it
	// request-level (Config.RequestLevel).
	Herd bool
	// Requests: the request-level engine runs it; false limits it to
	// closed traffic and the herd's safeguards.
	Requests bool
	// Fleet: more than one server of it may run (Config.Servers).
	Fleet bool
	// Hops: calls cross the network (Config.Latency); false: the callers
	// sit on the server, as a channel's stations on their medium.
	Hops bool
	// RetryAfter: its 503s carry Config.RetryAfter.
	RetryAfter bool
	// Faults are the fault kinds it honours, bit k for FaultKind k
	// (FaultSet); a config with another is refused.
	Faults uint32
	// ClientBytes is what it keeps per client in the herd's engine, for
	// EstimateMemory (occ: each client's last read).
	ClientBytes int
	// Waits is how a call waits at one of its servers.
	Waits Wait
	// Rated: its capacity is a rate of calls (Config.Capacity) that load
	// is measured against and charts draw; false: it has none (occ).
	Rated bool
}

// Wait is how a call waits at a server (Traits.Waits).
type Wait uint8

const (
	// WaitRate: the server answers a call as it arrives, serving it if
	// its rate allows (a token bucket), else refusing it.
	WaitRate Wait = iota
	// WaitQueue: for one of its workers, in its queue (Concurrency,
	// Service, QueueLimit, Discipline, Admission).
	WaitQueue
	// WaitMedium: for the shared medium its callers sit on, the server
	// being the channel itself (Channel, Frame, Slot).
	WaitMedium
)

// FaultSet is the set of kinds, for Traits.Faults.
func FaultSet(kinds ...FaultKind) uint32 {
	var s uint32
	for _, k := range kinds {
		s |= 1 << k
	}
	return s
}

// Honours reports whether the model honours faults of kind k.
func (t Traits) Honours(k FaultKind) bool { return t.Faults&(1<<k) != 0 }

// allFaults is every fault kind.
var allFaults = FaultSet(FaultOutage, FaultStall, FaultErrors, FaultSlow, FaultCapacity, FaultCrash)

// models is the registry, indexed by ServerModel. It is written only
// while the package initialises (by the models' own files), so reading
// it needs no lock.
var models []Model

// registerAt puts a built-in model at its constant's index: the herd's
// and the request-level engine's fast paths compare against the
// constants. Files initialise in name order, not the constants'. Not
// inlined: six inlined copies cost app.wasm 5 KB.
//
//go:noinline
func registerAt(k ServerModel, m Model) {
	for len(models) <= int(k) {
		models = append(models, nil)
	}
	checkName(m)
	models[k] = m
}

// Register adds a model after the built-in ones and returns its
// ServerModel; the engines run it through its Taker. Call it from a
// package-level var of the model's file: "var Gate = Register(&gateModel{})".
// It panics on a name already taken.
func Register(m Model) ServerModel {
	for len(models) < builtinModels {
		models = append(models, nil)
	}
	checkName(m)
	models = append(models, m)
	return ServerModel(len(models) - 1)
}

// checkName panics if m's name is taken: registering twice is a
// programming error, found as the package initialises.
func checkName(m Model) {
	for _, o := range models {
		if o != nil && o.Name() == m.Name() {
			panic("sim: server model " + m.Name() + " registered twice")
		}
	}
}

// builtinModels is how many models have constants (and fast paths).
const builtinModels = int(Channel) + 1

// Model is m's model, nil for no registered model.
func (m ServerModel) Model() Model {
	if int(m) < len(models) {
		return models[m]
	}
	return nil
}

// Traits is m's model's Traits, the zero Traits for no model.
func (m ServerModel) Traits() Traits {
	if x := m.Model(); x != nil {
		return x.Traits()
	}
	return Traits{}
}

func (m ServerModel) String() string {
	if x := m.Model(); x != nil {
		return x.Name()
	}
	return "unknown"
}

// Models lists the registered models, indexed by ServerModel. The slice
// is a copy.
func Models() []Model { return slices.Clone(models) }

// ServerNames lists every model's name, indexed by ServerModel: the kinds
// Set and the URL accept. The slice is a copy.
func ServerNames() []string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name()
	}
	return names
}

// ServerFields are the model parameters (Param names) of any model, in
// the order the models list them: a form shows each one only where its
// config's model reads it (UsesField). The slice is a copy.
func ServerFields() []string { return slices.Clone(serverFields()) }

// serverFields lists the models' parameters once, when first asked (the
// models register as the packages initialise, never later): a form asks
// for each of its fields on every render, and listing them each time took
// 12 ms of the page's start.
var serverFields = sync.OnceValue(func() []string {
	var out []string
	for _, m := range models {
		for _, f := range m.Fields(nil) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
})

// UsesField reports whether c's server model reads the parameter name:
// false for a parameter of another model only, true for every parameter
// that belongs to no model.
func (c *Config) UsesField(name string) bool {
	if !slices.Contains(serverFields(), name) {
		return true
	}
	m := c.Server.Model()
	return m != nil && slices.Contains(m.Fields(c), name)
}

// estWave is one wave of the herd's estimator as a model sees it: n tries
// over w, keeping the server busy for busy seconds in spikes spikes, gap
// seconds after the previous wave whose mean try came at prevMean; first
// for the first wave.
type estWave struct {
	n                       float64
	w                       wave
	busy, spikes, gap, prev float64
	first                   bool
}
