package sim

import (
	"math"
	"strconv"

	"github.com/backoff-playground/playground/backoff"
)

// outage is the outage model's dead time, [start, end) in seconds; after
// it the server serves as capacity does. The zero value covers nothing.
type outage struct {
	start, end float64
}

// covers reports whether t falls in the outage.
func (o outage) covers(t float64) bool { return t >= o.start && t < o.end }

// outageModel is the Outage model: every call fails during [OutageStart,
// OutageEnd), a fault of its own, then the token bucket serves.
type outageModel struct{ rated }

func init() { registerAt(Outage, &outageModel{}) }

func (*outageModel) Name() string                 { return "outage" }
func (*outageModel) Labels() (short, long string) { return "server.outage", "server.outage-long" }

func (*outageModel) Fields(*Config) []string { return outageFields }

var outageFields = []string{ParamCapacity, ParamCapacityWindow, ParamOutageStart, ParamOutageEnd}

func (m *outageModel) Validate(c *Config) error {
	if err := m.rated.Validate(c); err != nil {
		return err
	}
	if c.OutageEnd < c.OutageStart {
		return &backoff.FieldError{Field: ParamOutageEnd, Value: backoff.FormatDuration(c.OutageEnd),
			Code: backoff.CodeAtLeast, Args: []string{backoff.FormatDuration(c.OutageStart)}, Other: ParamOutageStart,
			Allowed: "at least outage-start (" + backoff.FormatDuration(c.OutageStart) + ")"}
	}
	return nil
}

func (*outageModel) Describe(c *Config) string {
	d := backoff.FormatDuration
	return "server outage (down " + d(c.OutageStart) + "-" + d(c.OutageEnd) + ", then " +
		strconv.FormatFloat(c.Capacity, 'g', 8, 64) + " calls/s)"
}

// Faults is the dead time, as an outage fault at every server (none when
// it is empty).
func (*outageModel) Faults(c *Config) []Fault {
	if c.OutageEnd > c.OutageStart {
		return []Fault{{Kind: FaultOutage, Start: c.OutageStart, End: c.OutageEnd}}
	}
	return nil
}

// setupHerd: the herd's server fails every call in the outage.
func (*outageModel) setupHerd(sv *server, c *Config, _ *buffers) {
	sv.outage = outage{start: c.OutageStart.Seconds(), end: c.OutageEnd.Seconds()}
}

func (*outageModel) NewTaker(c *Config) Taker {
	return &outageTaker{bucketTaker{b: newBucket(c), rate: c.Capacity},
		outage{start: c.OutageStart.Seconds(), end: c.OutageEnd.Seconds()}}
}

type outageTaker struct {
	bucketTaker
	o outage
}

func (t *outageTaker) Take(at float64) bool { return !t.o.covers(at) && t.bucketTaker.Take(at) }

// estServe: none of the wave's share that finds the server down is
// served, and the tokens stayed full through the outage.
func (*outageModel) estServe(e *estimator, x *estWave) float64 {
	c := e.c
	up := 1.0 // share of the wave that finds the server up
	if c.OutageEnd > c.OutageStart {
		s, t := c.OutageStart.Seconds(), c.OutageEnd.Seconds()
		if w := x.w; w.hi <= w.lo {
			if w.lo >= s && w.lo < t {
				up = 0
			}
		} else {
			up = 1 - math.Max(0, math.Min(w.hi, t)-math.Max(w.lo, s))/(w.hi-w.lo)
		}
	}
	return e.tokens(x, c.Capacity, up, x.first || x.prev < c.OutageEnd.Seconds())
}
