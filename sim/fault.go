package sim

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// FaultKind is what goes wrong with the server during a fault.
type FaultKind uint8

const (
	// NoFault marks an unused entry of Faults.
	NoFault FaultKind = iota
	// FaultOutage: every call fails at once (a 503).
	FaultOutage
	// FaultStall: the server takes no work; calls wait (in the queue
	// server's queue, or held at a rate-limited server's door) until it
	// ends, and time out meanwhile if the callers have a timeout.
	FaultStall
	// FaultErrors: each served call fails with probability Arg (on top
	// of Config.ErrorRate).
	FaultErrors
	// FaultSlow: service takes Arg times longer (a rate-limited server
	// serves Arg times fewer calls per second).
	FaultSlow
	// FaultCapacity: the queue server's workers, or a rate-limited
	// server's rate, times Arg.
	FaultCapacity
	// FaultCrash: the server is down: it refuses calls at once (counted
	// as outage) and, as it goes down, loses its queue and the calls in
	// service, whose callers learn it only by their timeout (fleet.go).
	FaultCrash
	// FaultFlush: the cache (node_cache.go) is emptied at Start and
	// stores nothing before End; End may equal Start (an instant). It is
	// the cache's, never a server's.
	FaultFlush
)

var faultNames = []string{"none", "outage", "stall", "errors", "slow", "capacity", "crash", "flush"}

func (k FaultKind) String() string { return nameOf(faultNames, int(k)) }

// HasArg reports whether a fault of kind k takes an argument (Fault.Arg):
// errors' probability, slow's and capacity's factors.
func (k FaultKind) HasArg() bool { return k == FaultErrors || k == FaultSlow || k == FaultCapacity }

// FaultNames lists every FaultKind's name, indexed by FaultKind. The
// slice is a copy.
func FaultNames() []string { return slices.Clone(faultNames) }

// faultForms are the forms of one fault, as CodeFormat's Args list them.
var faultForms = []string{"none", "outage@START-END", "stall@START-END", "errors:F@START-END", "slow:X@START-END", "capacity:X@START-END",
	"crash@START-END", "flush@START-END", "KIND[:ARG]@START-END/S1,S2,..."}

// Fault is one fault over [Start, End) of simulated time, at the servers
// of the set Servers (bit k: server k+1 of a fleet; 0: every server).
type Fault struct {
	Kind       FaultKind
	Arg        float64 // errors: probability (0, 1]; slow: factor [1, 1000]; capacity: factor [0, 1000]
	Start, End time.Duration
	Servers    uint64
}

// MaxFaults is how many faults a Config holds. MaxFaultFactor bounds
// slow's and capacity's factors.
const (
	MaxFaults      = 8
	MaxFaultFactor = 1000.0
)

// Faults is a Config's faults: the first entries, up to the first NoFault,
// in any order; they may overlap (their effects combine: outage and stall
// win, error probabilities combine as independent, factors multiply). It
// is an array so that Config stays comparable with ==. Text form
// (Set/Get "fault"): "none", or faults separated by ";", each
// KIND[:ARG]@START-END, such as "stall@20s-30s;errors:0.5@40s-50s". The
// CLI's --fault may repeat (the values are joined with ";"); the page's
// URL key "fault" holds the list in one value.
type Faults [MaxFaults]Fault

// List is the faults in use.
func (f *Faults) List() []Fault {
	n := 0
	for n < len(f) && f[n].Kind != NoFault {
		n++
	}
	return slices.Clone(f[:n])
}

func (f *Fault) text() string {
	d := backoff.FormatDuration
	s := f.Kind.String()
	if f.Kind.HasArg() {
		s += ":" + formatFloat(f.Arg)
	}
	s += "@" + d(f.Start) + "-" + d(f.End)
	if f.Servers != 0 {
		s += "/" + serversText(f.Servers)
	}
	return s
}

func (f *Faults) text() string {
	l := f.List()
	if len(l) == 0 {
		return NoFault.String()
	}
	parts := make([]string, len(l))
	for i := range l {
		parts[i] = l[i].text()
	}
	return strings.Join(parts, ";")
}

const faultSyntax = "KIND[:ARG]@START-END[/SERVERS], faults separated by ;, with KIND outage, stall, errors:F (F in (0, 1]), slow:X (X from 1 to 1000), capacity:X (X from 0 to 1000), crash or flush (the cache's: emptied at START, storing nothing before END), START < END <= 8760h (flush: START <= END), and SERVERS a fleet's servers numbered from 1, each once, separated by commas (1,3; none: all)"

func (f *Fault) validate(v string) error {
	switch f.Kind {
	case FaultOutage, FaultStall, FaultCrash, FaultFlush:
	case FaultErrors:
		if !(f.Arg > 0 && f.Arg <= 1) {
			return positiveErr(ParamFault, v, "1", "F", faultSyntax)
		}
	case FaultSlow:
		if err := backoff.CheckFloat(ParamFault, f.Arg, 1, MaxFaultFactor); err != nil {
			return partErr(err, v, "X", faultSyntax)
		}
	case FaultCapacity:
		if err := backoff.CheckFloat(ParamFault, f.Arg, 0, MaxFaultFactor); err != nil {
			return partErr(err, v, "X", faultSyntax)
		}
	default:
		return formatErr(ParamFault, v, faultForms)
	}
	if err := backoff.CheckDuration(ParamFault, f.Start, 0, MaxTime); err != nil {
		return partErr(err, v, "START", faultSyntax)
	}
	if !(f.End > f.Start || f.Kind == FaultFlush && f.End == f.Start) || f.End > MaxTime {
		return &backoff.FieldError{Field: ParamFault, Value: clip(v), Code: backoff.CodeDuration, Part: "END",
			Args: []string{backoff.FormatDuration(f.Start + time.Nanosecond), backoff.FormatDuration(MaxTime)}, Allowed: faultSyntax}
	}
	return nil
}

func (f *Faults) validate() error {
	v := f.text()
	used := true
	for i := range f {
		if f[i].Kind == NoFault {
			used = false
			continue
		}
		if !used {
			return formatErr(ParamFault, v, faultForms) // a fault after an unused entry
		}
		if err := f[i].validate(v); err != nil {
			return err
		}
	}
	return nil
}

// parseFaults reads a fault list: "none", "" or faults separated by ";".
func parseFaults(v string) (Faults, error) {
	var fs Faults
	if v == "" || v == NoFault.String() {
		return fs, nil
	}
	items := strings.Split(v, ";")
	if len(items) > MaxFaults {
		return fs, &backoff.FieldError{Field: ParamFault, Value: clip(v), Code: backoff.CodeFormat, Args: slices.Clone(faultForms),
			Allowed: "at most 8 faults separated by ;, each " + faultSyntax}
	}
	for i, item := range items {
		item = strings.TrimSpace(item)
		what, span, ok := strings.Cut(item, "@")
		kind, arg, hasArg := strings.Cut(what, ":")
		span, servers, aimed := strings.Cut(span, "/")
		from, to, ok2 := strings.Cut(span, "-")
		k, err := parseEnum[FaultKind](ParamFault, kind, faultNames)
		needArg := k.HasArg()
		if !ok || !ok2 || err != nil || k == NoFault || hasArg != needArg {
			return Faults{}, formatErr(ParamFault, v, faultForms)
		}
		f := Fault{Kind: k}
		if aimed {
			if f.Servers, ok = parseServers(servers); !ok {
				return Faults{}, partErr(&backoff.FieldError{Field: ParamFault, Code: backoff.CodeFormat,
					Args: slices.Clone(faultForms)}, v, "SERVERS", faultSyntax)
			}
		}
		if hasArg {
			if f.Arg, err = backoff.ParseFloat(ParamFault, arg, -math.MaxFloat64, math.MaxFloat64); err != nil {
				return Faults{}, formatErr(ParamFault, v, faultForms)
			}
		}
		if f.Start, err = backoff.ParseDuration(ParamFault, from, MaxTime); err != nil {
			return Faults{}, partErr(err, v, "START", faultSyntax)
		}
		if f.End, err = backoff.ParseDuration(ParamFault, to, MaxTime); err != nil {
			return Faults{}, partErr(err, v, "END", faultSyntax)
		}
		if err := f.validate(v); err != nil {
			return Faults{}, err
		}
		fs[i] = f
	}
	return fs, nil
}

// segment is a stretch of time over which the server's condition is
// constant: the faults in force combined with the base error rate.
type segment struct {
	start    float64 // seconds
	outage   bool
	crash    bool // a crash: an outage that loses the queue as it starts
	stall    bool
	errRate  float64 // probability that a served call fails
	slow     float64 // service time factor
	capacity float64 // workers or rate factor
}

// schedule is the server's condition over time: segments in order of
// start, the first from 0; cur is the segment in force, which the run
// loop moves on at each boundary (an event), so looking it up is O(1).
type schedule struct {
	segs []segment
	cur  int
}

// newSchedule cuts time at every fault's start and end and works out the
// condition of each piece, for server k of the fleet (0 for one server).
// A model's own faults (the outage model's dead time) are faults like the
// others, at every server.
func newSchedule(c *Config, k int) schedule {
	all := append(c.Faults.List(), c.modelFaults()...)
	cuts := []float64{0}
	var sc schedule
	var fs []Fault
	for _, f := range all {
		if f.aims(k) && f.Kind != FaultFlush {
			fs = append(fs, f)
		}
	}
	for _, f := range fs {
		cuts = append(cuts, f.Start.Seconds(), f.End.Seconds())
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	for _, t := range cuts {
		s := segment{start: t, errRate: c.ErrorRate, slow: 1, capacity: 1}
		for _, f := range fs {
			if t < f.Start.Seconds() || t >= f.End.Seconds() {
				continue
			}
			switch f.Kind {
			case FaultOutage:
				s.outage = true
			case FaultCrash:
				s.outage, s.crash = true, true
			case FaultStall:
				s.stall = true
			case FaultErrors:
				s.errRate = 1 - (1-s.errRate)*(1-f.Arg)
			case FaultSlow:
				s.slow *= f.Arg
			case FaultCapacity:
				s.capacity *= f.Arg
			}
		}
		sc.segs = append(sc.segs, s)
	}
	return sc
}

// modelFaults are the faults c's server model brings (Model.Faults).
func (c *Config) modelFaults() []Fault {
	if m := c.Server.Model(); m != nil {
		return m.Faults(c)
	}
	return nil
}

// OwnOutage is the outage c's model brings of its own, in seconds (the
// outage model's dead time), and whether it has one.
func (c *Config) OwnOutage() (start, end float64, ok bool) {
	for _, f := range c.modelFaults() {
		if f.Kind == FaultOutage && f.End > f.Start {
			return f.Start.Seconds(), f.End.Seconds(), true
		}
	}
	return 0, 0, false
}

// at is the segment in force.
func (sc *schedule) at() *segment { return &sc.segs[sc.cur] }

// end is when the segment in force ends (+Inf for the last).
func (sc *schedule) end() float64 {
	if sc.cur+1 < len(sc.segs) {
		return sc.segs[sc.cur+1].start
	}
	return math.Inf(1)
}
