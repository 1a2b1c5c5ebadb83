// Package backoff computes retry delays: exponential backoff with a cap and
// jitter, the other schedules real systems use, exact delay tables, presets
// read from those systems' source code, and retry classification.
//
// # The formula
//
// The delay before retry n (n = 1 is the first retry, the second attempt) is
//
//	g(n)  = growth: Base * Factor^(n-1)          exponential
//	                Base * n                     linear
//	                Base                         constant
//	                0                            none
//	                Base * (Factor^n - 1)        exp-minus-one (Azure, Ethernet)
//	                Base * (n-1)^Factor          polynomial (Sidekiq)
//	                Base * (Cap/Base)^((n-1)/Steps)  geometric (systemd)
//	c(n)  = max(Floor, min(g(n), Cap))           cap before jitter (default),
//	                                             Floor 0 unless set (tenacity's min)
//	d(n)  = jitter(c(n)):
//	        none          c
//	        full          U[0, c)
//	        equal         c/2 + U[0, c/2)
//	        proportional  c * U[lo, hi)          (gRPC 0.8-1.2, cenkalti 0.5-1.5)
//	        additive      c + U[0, A)            (tenacity, Sidekiq)
//	        decorrelated  min(Cap, U[Base, 3*d(n-1)))   (AWS; ignores g)
//	        decorrelated-v2  Polly's DecorrelatedJitterBackoffV2
//	        decorrelated-clamped  min(Cap, max(Base, 3*d(n-1)*U[0,1)))  (Polly's first)
//
// A Floor F shifts the state-free jitters: d(n) = F + jitter(c(n) - F), so
// full jitter draws from [F, c) as tenacity's wait_random_exponential does.
// Then optionally min(d, Cap) (cap after jitter) and + Offset. Attempts
// count the first try: Attempts = 6 allows 5 retries. A Deadline stops
// scheduling retries that would start after it.
//
// # A worked example
//
// The article's policy, base 1 s, factor 2, cap 30 s, 6 attempts:
//
//	retry  nominal  full jitter range  mean   cumulative worst
//	    1       1s  [0, 1s)            500ms  1s
//	    2       2s  [0, 2s)            1s     3s
//	    3       4s  [0, 4s)            2s     7s
//	    4       8s  [0, 8s)            4s     15s
//	    5      16s  [0, 16s)           8s     31s
//
// so the worst case is 31 s of waiting and the expected 15.5 s: the reason
// interactive requests budget their retries in hundreds of milliseconds.
//
// # Purity
//
// Nothing here does I/O, reads the clock or starts goroutines. Randomness
// comes in as a uniform draw u (Policy.Step, FullJitter...) or a seeded
// *rand.Rand (NewTable, NewRand), so the same seed gives the same numbers
// natively and in WebAssembly.
package backoff
