// Package sim is a deterministic discrete-event simulation of many clients
// retrying against one server: the thundering herd, how it forms and how
// jitter, budgets and breakers dissolve it. It is pure (no I/O, no clocks,
// no goroutines) and draws all randomness from one seeded source per run
// (SplitMix64, not backoff.NewRand's PCG: see splitmix), so a seed gives
// the same result natively and under WebAssembly.
//
// # Model
//
// Time is simulated, in seconds. Each of Config.Clients clients wants one
// successful call. A call is one network hop to the server, the server's
// answer, and one hop back; a hop takes Latency, or |N(Latency, LatencySD)|.
// After a failure the client asks its policy for the delay before retry n
// (backoff.Policy.Step), waits, and tries again, until it succeeds or runs
// out of attempts, deadline or budget ("gave up": the article's dead-letter
// queue). First calls come in a burst at 0, uniformly over a window, or on a
// shared clock that also rounds every retry up to the next multiple of its
// period (the article's orchestra: jitter smaller than the period is
// erased).
//
// Servers:
//
//   - capacity: a token bucket refilled at Capacity calls/s holding
//     max(1, Capacity*CapacityWindow); a call finding no token fails fast
//     with a 503 (with Retry-After when RetryAfter > 0).
//   - outage: every call fails during [OutageStart, OutageEnd), then
//     capacity.
//   - collapse: capacity whose refill rate falls while the offered load
//     (calls arriving in the previous CollapseWindow) exceeds it:
//     rate = C / (1 + CollapseFactor*(load/C - 1)). Retries that overload
//     it keep it down: a metastable failure.
//   - occ: the AWS Architecture Blog's 2015 simulator
//     (aws-samples/aws-arch-backoff-simulator): one row with a version; a
//     client reads it (a hop there and back), writes with that version (a
//     hop), and the write succeeds only if no other write succeeded since
//     the read; the answer takes a hop back; a failed client waits its
//     backoff and reads again. Calls count writes. The blog's setting:
//     hops |N(10, 2)|, base 5, cap 2000 (presets aws-blog-*), unlimited
//     attempts, 10 to 190 clients, time units passed as seconds.
//
// Client-side safeguards are shared by the whole population, as one SDK
// client or sidecar is shared by the callers behind it: a token budget
// (the AWS SDK's retry quota: 500 tokens, a retry costs 5, a success
// refunds 1), a ratio budget (Envoy: retries outstanding at most
// max(3, 20% of the clients still trying)), and a circuit breaker that
// opens after K consecutive failures or a failure ratio in a window, fails
// calls at once while open (Blocked; they cost an attempt), and lets one
// probe through after its cool-down.
//
// # Results
//
// Run returns Totals (calls, successes, give-ups, amplification =
// calls/clients, completion-time quantiles of the successful clients, the
// makespan = time of the last event, and the peak calls per bucket over
// what the server can serve in a bucket, for all calls and for retries
// alone) and a Timeline of about 200 buckets. RunMany averages runs with
// consecutive seeds, as the blog averaged 100. New and Advance run a
// simulation in slices, so a page can keep drawing while a million
// clients run.
//
// # Worked example
//
// The default is 1000 clients with the article's policy (base 1 s, factor
// 2, cap 30 s, 6 attempts) calling at t = 0 into a 10 s outage of a server
// that then serves 100 calls/s. Without jitter every client fails at the
// same moments, so its retries come at 1, 3, 7, 15 and 31 s plus the hops:
// the ones at 15 s and 31 s find the server up and 1000 calls arrive within
// a few milliseconds, ten times what it serves in a second; the bucket
// peaks are 10 x capacity with 1 s buckets, and only about 60 clients get
// through before their attempts run out. With full jitter the retries of
// retry n spread over [0, 2^(n-1)) s: by the time the server is back they
// arrive at about 100-150 per second, the retry peak stays near 1.5 x
// capacity, and over 800 clients succeed. (backoff sim --jitter none
// --bucket 1s shows the first case.)
//
// # Speed
//
// The event queue is ordered by (time, sequence), so ties pop first in,
// first out. Each client has at most one pending event, which carries the
// client's whole state (16 bytes), so handling an event touches no
// per-client array. Big runs put a hierarchical timing wheel in front of a
// small heap; small ones (up to 4096 clients, such as occ's) use a
// tournament tree with a leaf per client (see queue). Only what the server sees must happen in time
// order: with no budget or breaker nothing a client does on an answer
// affects the others, so its answer and next try are worked out when the
// server gives it; calls whose fate is known when they are sent (into an
// outage, or refused by an open breaker) skip the queue altogether, and
// so do occ's reads, which keep their place in the order to be checked
// against the last successful write. Memory is O(clients): about 50
// bytes per client in all at a million clients (BenchmarkMillionClients),
// no allocation per event.
package sim
