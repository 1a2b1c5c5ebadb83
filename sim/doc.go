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
// The queue and channel models, request-level only, are below.
//
// # A new server model
//
// Each model is a type behind one interface, Model, registered in its own
// file; everything outside the engines' inner loops reads the registry:
// Set and Get of "server", Validate, RequestLevel, the faults a model
// brings and those it honours, EstimateCalls, the CLI's --server help
// and summary line, the page's server select and which of its fields
// show (Config.UsesField). A new model is three things:
//
//  1. Its file, server_NAME.go: a type with Name, Traits (which engines
//     run it, whether it can be a fleet, has hops, sends Retry-After,
//     which fault kinds it honours, how a call waits at it: Waits, and
//     whether its capacity is a rate: Rated), Fields (the parameters it
//     reads, from ParamNames, as a fixed slice), Validate, Describe,
//     Labels, Faults, NewTaker (how one server takes a call: Take(t)
//     reports whether it serves a call reaching it at t), the engines'
//     hooks (setupHerd and setupReq: a server's own state; addTotals and
//     shape: totals of its own and their JSON group) and the estimator's
//     estSetup, estServe and estCycle; embedding rated gives a token
//     bucket's. The file registers it with "var Name =
//     Register(&nameModel{})" (pointer receivers: value ones double each
//     method in app.wasm); the built-ins register with registerAt from
//     init instead, only because constants (Outage, Queue...) index them.
//     Nothing outside a model's file asks which model a config has: the
//     engines, the results, the CLI and the page read its Traits and
//     hooks. A knob no other model has is declared there
//     too: "var nameKnob = RegisterParam(Name, ModelParam{Name:
//     "name-knob", Kind: FloatParam, Min: 0, Max: 1, Default: 0.5, Help:
//     ...})" puts it in ParamNames (so it is a CLI flag, a URL key and a
//     JSON key), Set and Get read and write it in Config.Own, Set and
//     Validate refuse a value outside [Min, Max] naming the field, the
//     value and the range, and the model reads nameKnob.Float(c) (Int,
//     Duration) once, in NewTaker or its setup, never per call.
//  2. Its catalog strings in app/i18n: server.NAME (the select's entry)
//     and server.NAME-long (the sentence under it), and for each knob
//     of its own herd.KNOB and herd.KNOB-hint (the page's typed box and
//     its hint), in both languages (TestEveryKindHasALabel holds every
//     registered model and knob to them).
//  3. Its test, server_NAME_test.go: its answers, its validation and an
//     EstimateCalls bound against real runs.
//
// Both engines then run it through its Taker, after the faults every
// model shares (outage, crash, stall, errors, in the request-level
// engine); a fault kind it does not honour is refused with it. Only a
// model whose calls are not "served or refused at once" (occ's reads
// and writes, the queue's waiting, the channel's collisions) needs code
// in an engine; those are the built-in ones, whose by-value state keeps
// the herd's loop as fast as it was (their takers are held to it by
// TestTakersMatchFastPath). model_test.go's gate, a model that exists
// only in the tests, is written this way, with a parameter of its own
// (gate-open, the share of each second it is open), and touches no other
// file.
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
// # Steady traffic, queues and timeouts
//
// Config.RequestLevel configs run on a request-level engine (engine.go):
// Traffic Open (Poisson arrivals of Rate requests per second for
// Duration, each a caller wanting one success: an open system) or Loop
// (Callers callers, each sending its next request Think after the
// previous one ended: a closed system, Schroeder et al., NSDI 2006); the
// Queue server (Concurrency workers serving a FIFO queue of at most
// QueueLimit calls, service times of mean Service from ServiceDist: M/M/c
// with the defaults); a caller Timeout after which the call has failed
// for the caller but not for the server, which still does its work
// (wasted work) unless DropExpired; ErrorRate and Faults over time
// (outage, stall, errors:F, slow:X, capacity:X; the outage model is an
// outage fault) on every server model but occ; adaptive throttling (the
// SRE book's max(0, (requests - K*accepts)/(requests + 1))); budgets per
// caller; and hedged requests (a second copy after a delay or a
// percentile of the first copies' latencies; the first success wins).
// Retries follow the same policy, budgets and breaker as the herd's.
//
// A metastable failure (Bronson et al., HotOS 2021), in numbers: 30
// workers of 100 ms (300 calls/s), callers with a 1 s timeout and one
// retry, a 10 s stall at 20 s. At 280 requests/s the stall's timed-out
// calls are retried, the queue then holds more than a second of work, so
// every call times out and is retried: the offered load stays at 1.9
// times capacity and Totals.RecoveredAt stays nil. Below capacity/(1 +
// retries) = 150/s, without retries, or (up to about 180/s) with
// DropExpired, it recovers. The threshold of a sweep of the rate is
// 160/s (TestMetastableThreshold).
//
// A look-aside cache (CacheSide, node_cache.go) in front of the server
// answers a request whose key it holds at once; a miss calls the server
// and stores the key only when the answer comes back OK in time. In the
// cache-flush scenario (the same paper) a warm cache lets about 143 of
// 1000 requests/s through to a database of 300 calls/s; flushed, it
// sends all of them, a FIFO database answers each too late to be stored,
// and the cache never warms again (TestCacheFlush).
//
// Memory follows the requests in flight, not the run's length: callers
// live in a slab whose slots an open run reuses, latencies go into
// log-linear histograms (0.8% bins for the totals, 12.5% per bucket). A
// million requests at 10,000 a second into a queue server take about
// 0.4 s and 5.5 MB (BenchmarkOpenMillion).
//
// # Results
//
// Run returns Totals (calls, successes, give-ups, amplification =
// calls/clients, completion-time quantiles of the successful clients, the
// makespan = time of the last event on a call or request (a fault's
// start or end that meets none is none), and the peak calls per bucket over
// what the server can serve in a bucket, for all calls and for retries
// alone) and a Timeline of about 200 buckets. A request-level run adds
// RequestTotals (requests, goodput and throughput per second, failures by
// reason, latency quantiles to p99.9, wasted work, hedges, and the time it
// recovered after its last fault, if it did) and per bucket the goodput,
// the queue, the busy workers, timeouts and the latency p50 and p99; their
// JSON keys appear only in request-level results. RunMany averages runs with
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
