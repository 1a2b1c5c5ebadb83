package sim

import (
	"math"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// collapse is the collapse model's load meter: the calls arriving in the
// current window of window seconds and in the previous one. Invariant: cur
// counts the arrivals in window idx (t/window), prev those in window
// idx-1, 0 if it had none or is not the one before.
type collapse struct {
	window float64 // seconds, > 0
	factor float64 // CollapseFactor
	idx    int64
	cur    int
	prev   int
}

// rate counts a call arriving at t and returns the throughput that the
// offered load over the previous window leaves of capacity:
// C / (1 + f*(load/C - 1)) above capacity, C at or below it.
func (c *collapse) rate(t, capacity float64) float64 {
	w := int64(t / c.window)
	switch {
	case w == c.idx:
		c.cur++
	case w == c.idx+1:
		c.prev, c.cur, c.idx = c.cur, 1, w
	default:
		c.prev, c.cur, c.idx = 0, 1, w
	}
	if load := float64(c.prev) / c.window / capacity; load > 1 {
		return capacity / (1 + c.factor*(load-1))
	}
	return capacity
}

// peek is the rate the load over the previous window leaves of capacity,
// without counting a call (as rate would).
func (c *collapse) peek(capacity float64) float64 {
	if load := float64(c.prev) / c.window / capacity; load > 1 {
		return capacity / (1 + c.factor*(load-1))
	}
	return capacity
}

// collapseModel is the Collapse model: the token bucket, refilled at the
// rate the offered load leaves of capacity.
type collapseModel struct{ rated }

func init() { registerAt(Collapse, &collapseModel{}) }

// The collapse shapes each server's rate in both engines.
func (*collapseModel) setupHerd(sv *server, c *Config, _ *buffers) { sv.shaper = newCollapse(c) }
func (*collapseModel) setupReq(sv *rserver, c *Config)             { sv.shaper = newCollapse(c) }

func newCollapse(c *Config) *collapse {
	return &collapse{window: c.CollapseWindow.Seconds(), factor: c.CollapseFactor}
}

func (*collapseModel) Name() string                 { return "collapse" }
func (*collapseModel) Describe(c *Config) string    { return describeRated(c) }
func (*collapseModel) Labels() (short, long string) { return "server.collapse", "server.collapse-long" }

func (*collapseModel) Fields(*Config) []string { return collapseFields }

var collapseFields = []string{ParamCapacity, ParamCapacityWindow, ParamCollapseFactor, ParamCollapseWindow}

func (m *collapseModel) Validate(c *Config) error {
	if err := m.rated.Validate(c); err != nil {
		return err
	}
	if c.CollapseWindow <= 0 {
		return &backoff.FieldError{Field: ParamCollapseWindow, Value: backoff.FormatDuration(c.CollapseWindow),
			Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), backoff.FormatDuration(time.Nanosecond), backoff.FormatDuration(MaxTime)},
			Allowed: "a positive duration for the collapse server"}
	}
	return nil
}

func (*collapseModel) NewTaker(c *Config) Taker {
	return &collapseTaker{bucketTaker{b: newBucket(c), rate: c.Capacity},
		collapse{window: c.CollapseWindow.Seconds(), factor: c.CollapseFactor}}
}

type collapseTaker struct {
	bucketTaker
	c collapse
}

func (t *collapseTaker) Take(at float64) bool { return t.b.take(at, t.c.rate(at, t.rate)) }

// estServe: the wave's load over the window, if above capacity, cuts the
// rate as the model does.
func (*collapseModel) estServe(e *estimator, x *estWave) float64 {
	c := e.c
	rate := c.Capacity
	if load := x.n / math.Max(x.busy, c.CollapseWindow.Seconds()); load > rate {
		rate /= 1 + c.CollapseFactor*(load/rate-1)
	}
	return e.tokens(x, rate, 1, x.first)
}
