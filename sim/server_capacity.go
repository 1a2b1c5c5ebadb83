package sim

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
	// The builtin min is math.Min (NaN and -0 alike) and keeps take
	// inlinable.
	b.tokens = min(b.burst, b.tokens+(t-b.last)*rate)
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
