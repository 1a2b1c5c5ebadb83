package sim

import (
	"math"
	"strconv"
)

// tokenBucket is the capacity model: tokens refill at the rate the caller
// passes (capacity, or less while collapse's load is high) up to burst,
// and a call takes one or fails. The refill is lazy, worked out when a
// call arrives. Invariant: tokens <= burst, and last is the time of the
// latest call (calls arrive in time order).
type tokenBucket struct {
	tokens, burst float64
	last          float64 // seconds
}

// take refills the bucket up to t at rate tokens per second and takes a
// token for a call arriving at t, if there is one.
func (b *tokenBucket) take(t, rate float64) bool {
	// Not the builtin min, a call under WebAssembly: the tokens and the
	// burst are finite.
	if n := b.tokens + (t-b.last)*rate; n < b.burst {
		b.tokens = n
	} else {
		b.tokens = b.burst
	}
	b.last = t
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// refill brings the bucket up to t at rate tokens per second without
// taking one: at a fault's boundary, where the rate changes, so that
// each stretch refills at its own rate.
func (b *tokenBucket) refill(t, rate float64) {
	b.tokens = min(b.burst, b.tokens+(t-b.last)*rate)
	b.last = t
}

// rated is what the token-bucket models (capacity, outage, collapse)
// share: Capacity calls per second, a bucket of Capacity*CapacityWindow,
// every fault honoured.
type rated struct{}

func (*rated) Traits() Traits {
	return Traits{Herd: true, Requests: true, Fleet: true, Hops: true, RetryAfter: true, Faults: allFaults,
		Waits: WaitRate, Rated: true}
}

// A rate-limited model's servers need nothing beyond the token bucket
// every server has, and add no totals of their own.
func (*rated) setupHerd(*server, *Config, *buffers) {}
func (*rated) setupReq(*rserver, *Config)           {}
func (*rated) addTotals(*reqSim, *Totals, float64)  {}
func (*rated) shape() jsonShape                     { return 0 }

// Fields and the other models' are fixed slices, not built per call: the
// page asks for them for every field on every render. Callers must not
// change them.
func (*rated) Fields(*Config) []string { return ratedFields }

var ratedFields = []string{ParamCapacity, ParamCapacityWindow}

func (*rated) Validate(c *Config) error {
	if !(c.Capacity > 0 && c.Capacity <= MaxCapacity) {
		return positiveErr(ParamCapacity, formatFloat(c.Capacity), formatFloat(MaxCapacity), "", "calls per second, above 0 and at most 1e9")
	}
	return nil
}

func (*rated) Faults(*Config) []Fault { return nil }

func (*rated) estSetup(e *estimator) {
	e.burst = math.Max(1, e.c.Capacity*e.c.CapacityWindow.Seconds())
}

func (*rated) estServe(e *estimator, x *estWave) float64 {
	return e.tokens(x, e.c.Capacity, 1, x.first)
}

func (*rated) estCycle(c *Config, hop float64) (cycle, most float64) {
	return c.Think.Seconds() + 2*hop, math.Inf(1)
}

// describeRated is a rated model in words: "server capacity (100 calls/s)".
func describeRated(c *Config) string {
	return "server " + c.Server.String() + " (" + strconv.FormatFloat(c.Capacity, 'g', 8, 64) + " calls/s)"
}

// capacityModel is the Capacity model: the token bucket alone.
type capacityModel struct{ rated }

func init() { registerAt(Capacity, &capacityModel{}) }

func (*capacityModel) Name() string                 { return "capacity" }
func (*capacityModel) Describe(c *Config) string    { return describeRated(c) }
func (*capacityModel) Labels() (short, long string) { return "server.capacity", "server.capacity-long" }

func (*capacityModel) NewTaker(c *Config) Taker {
	return &bucketTaker{b: newBucket(c), rate: c.Capacity}
}

// newBucket is a run's full bucket.
func newBucket(c *Config) tokenBucket {
	burst := math.Max(1, c.Capacity*c.CapacityWindow.Seconds())
	return tokenBucket{tokens: burst, burst: burst}
}

// bucketTaker is the capacity model as a Taker: the herd engine's fast
// path, through the interface (TestTakersMatchFastPath).
type bucketTaker struct {
	b    tokenBucket
	rate float64
}

func (t *bucketTaker) Take(at float64) bool { return t.b.take(at, t.rate) }
