package sim

import "math"

// tokenBucket is the classic rate limiter (golang.org/x/time/rate's, and
// most API gateways'): a bucket of BURST tokens, full at the start,
// refilled at RATE a second; a call takes one or is refused. Over any
// span it lets in at most RATE x span + BURST calls; a refused call is
// told to come back when the next token is due, (1 - tokens) / RATE.
type tokenBucketRule struct {
	rate, burst, tokens, last float64
}

func init() { registerAdmission(1, &tokenBucketRule{}) }

func (*tokenBucketRule) Name() string { return "token-bucket" }

func (*tokenBucketRule) Args() []PartArg {
	return []PartArg{
		{Name: "RATE", Kind: FloatParam, Min: 1e-3, Max: MaxCapacity, Default: 100},
		{Name: "BURST", Kind: IntParam, Min: 1, Max: MaxQueueLimit, Default: 10},
	}
}

func (*tokenBucketRule) Help() string {
	return "a bucket of BURST tokens refilled at RATE a second; a call takes one or is refused (429, Retry-After: when the next token is due)"
}

func (*tokenBucketRule) start(a *Admission) admitter {
	return &tokenBucketRule{rate: a.Args[0], burst: a.Args[1], tokens: a.Args[1]}
}

func (b *tokenBucketRule) admit(t float64, _ int) (bool, float64) {
	b.tokens = math.Min(b.burst, b.tokens+(t-b.last)*b.rate)
	b.last = t
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, comeBack(t, t+(1-b.tokens)/b.rate)
}

func (*tokenBucketRule) taken(float64, int) {}
