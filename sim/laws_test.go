package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLaws holds every result of a few hundred random valid request-level
// configurations (every traffic, server, fault, budget, breaker, hedge and
// chain, windowed and drained, some cut short by a cap) to the laws of
// the system they describe:
//   - succeeded + gave up + unfinished = requests, and unfinished only
//     for a run cut short (which says by what and when) or at the end of
//     an open or loop run's window;
//   - the timeline's buckets add up to the totals, counter by counter;
//   - no server serves above its capacity over the span the rates are
//     per second of (a token bucket: its rate's integral; the queue
//     server: its workers' time), goodput <= throughput, the channel's
//     0 <= S <= 1, wasted work <= the server's time over the span;
//   - latency percentiles in order, no NaN or Inf (the JSON would refuse
//     them), no negative count;
//   - a cache's laws (checkCache): every miss goes below or is refused
//     by the clients' own safeguards, so the servers never see more
//     calls than misses; a key is stored only from an answer OK that
//     reached a caller still waiting;
//   - the same seed gives the same bytes.
func TestLaws(t *testing.T) {
	n := 400
	if runtime.GOARCH == "wasm" {
		n = 60 // the same laws, fewer configs, under Node
	}
	rng := rand.New(rand.NewPCG(15, 2026))
	valid, fleets, caches := 0, 0, 0
	for i := 0; valid < n; i++ {
		if i > 20*n {
			t.Fatalf("only %d valid configs of %d", valid, i)
		}
		c, desc := randomConfig(rng)
		if err := c.Validate(); err != nil {
			continue
		}
		valid++
		if c.Servers > 1 {
			fleets++
		}
		if c.CacheKeys > 0 {
			caches++
		}
		seed := rng.Uint64()
		r := run(t, c, seed)
		if err := checkLaws(c, r); err != nil {
			t.Errorf("config %d (%s), seed %d: %v", valid, desc, seed, err)
			continue
		}
		if valid%8 == 0 {
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(run(t, c, seed))
			if !bytes.Equal(a, b) {
				t.Errorf("config %d (%s), seed %d: two runs differ", valid, desc, seed)
			}
		}
	}
	if fleets < n/10 || caches < n/10 {
		t.Errorf("%d fleets, %d caches in %d configs", fleets, caches, n)
	}
	t.Logf("%d configs, %d of them fleets, %d with a cache", n, fleets, caches)
}

// randomConfig is a random request-level config of bounded size, and its
// parameters as text. It may be invalid (Validate says): the draws are
// independent.
func randomConfig(rng *rand.Rand) (Config, string) {
	c := DefaultConfig()
	desc := ""
	set := func(k, v string) {
		if err := c.Set(k, v); err == nil {
			desc += k + "=" + v + " "
		}
	}
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	ms := func(lo, hi int) string { return strconv.Itoa(lo+rng.IntN(hi-lo+1)) + "ms" }
	server := pick("capacity", "outage", "collapse", "queue", "queue", "channel")
	set("server", server)
	servers := 1
	if server != "channel" && rng.IntN(3) == 0 {
		servers = 2 + rng.IntN(3)
		set("servers", strconv.Itoa(servers))
		set("balance", pick(BalanceNames()...))
		set("retry-other", pick("true", "false"))
	}
	switch pick("closed", "open", "open", "loop") {
	case "closed":
		set("clients", strconv.Itoa(1+rng.IntN(300)))
		set("arrival", pick("burst", "uniform:2s", "clock:500ms"))
	case "open":
		set("traffic", "open:"+strconv.Itoa(1+rng.IntN(300)))
		set("duration", strconv.Itoa(1+rng.IntN(20))+"s")
	default:
		set("traffic", "loop:"+strconv.Itoa(1+rng.IntN(40))+":"+ms(0, 500))
		set("duration", strconv.Itoa(1+rng.IntN(20))+"s")
	}
	set("capacity", strconv.Itoa(10+rng.IntN(400)))
	set("capacity-window", ms(1, 500))
	set("outage-start", strconv.Itoa(rng.IntN(5))+"s")
	set("outage-end", strconv.Itoa(5+rng.IntN(10))+"s")
	set("collapse-factor", strconv.FormatFloat(rng.Float64()*3, 'g', 3, 64))
	set("concurrency", strconv.Itoa(1+rng.IntN(30)))
	set("service", ms(1, 200))
	set("service-dist", pick("exp", "fixed", "lognormal:1", "bimodal:0.1:300ms"))
	if rng.IntN(3) == 0 {
		set("queue-limit", strconv.Itoa(1+rng.IntN(100)))
	}
	set("latency", ms(0, 100))
	set("latency-sd", ms(0, 20))
	set("attempts", strconv.Itoa(rng.IntN(7)))
	set("jitter", pick("none", "full", "equal", "decorrelated"))
	set("base", ms(10, 1000))
	set("deadline", pick("0s", "5s", "30s"))
	if rng.IntN(2) == 0 {
		set("timeout", ms(50, 3000))
		set("drop-expired", pick("true", "false"))
	}
	if rng.IntN(3) == 0 {
		set("error-rate", strconv.FormatFloat(rng.Float64()*0.6, 'g', 3, 64))
	}
	faults := ""
	for k := rng.IntN(4); k > 0; k-- {
		from := rng.IntN(15)
		f := pick("outage", "stall", "errors:0.5", "slow:3", "capacity:0.5", "capacity:2", "crash")
		if server == "channel" {
			f = pick("outage", "errors:0.5")
		}
		if faults != "" {
			faults += ";"
		}
		faults += fmt.Sprintf("%s@%ds-%ds", f, from, from+1+rng.IntN(8))
		if servers > 1 && rng.IntN(2) == 0 {
			faults += "/" + strconv.Itoa(1+rng.IntN(servers))
		}
	}
	if faults != "" {
		set("fault", faults)
	}
	set("budget", pick("none", "tokens", "tokens:20:5:1", "ratio", "adaptive", "grpc", "grpc:100:0.5"))
	set("budget-scope", pick("shared", "shared", "caller"))
	set("breaker", pick("none", "none", "consecutive:5:1s", "ratio"))
	if rng.IntN(4) == 0 {
		set("hedge", pick("p90", "200ms"))
		set("hedge-cancel", pick("true", "false"))
	}
	if rng.IntN(4) == 0 {
		layers := 2 + rng.IntN(2)
		set("layers", strconv.Itoa(layers))
		set("layer-attempts", pick("policy", "2", "3"))
		set("retry-at", pick("all", "top"))
		switch rng.IntN(3) {
		case 0:
			set("layer-timeout", ms(200, 3000))
		case 1: // a wait of each layer's own
			waits := make([]string, layers-1)
			for i := range waits {
				waits[i] = ms(0, 3000)
			}
			set("layer-timeout", strings.Join(waits, ","))
		}
	}
	if rng.IntN(4) == 0 {
		set("propagate-deadline", "true")
	}
	if rng.IntN(4) == 0 {
		set("per-server", pick("2:error-rate=0.5", "2:concurrency=2,service=300ms", "1:capacity=20;2:capacity=200", "3:queue-limit=5"))
	}
	set("channel", pick("aloha", "slotted", "ethernet"))
	set("frame", ms(1, 20))
	set("slot", "1ms")
	if rng.IntN(2) == 0 {
		set("drain", "true")
	}
	switch rng.IntN(8) {
	case 0:
		set("max-calls", strconv.Itoa(50+rng.IntN(2000)))
	case 1:
		set("horizon", strconv.Itoa(1+rng.IntN(10))+"s")
	}
	if !c.RequestLevel() {
		set("timeout", "2s") // the herd's engine has laws of its own (sim_test.go)
	}
	if server == "queue" && rng.IntN(2) == 0 {
		set("discipline", pick("lifo", "bounded:10", "codel", "codel:50ms:10ms", "adaptive-lifo"))
		set("admission", pick("none", "token-bucket:50:5", "fixed-window:20:500ms", "sliding-window:20:500ms", "concurrency:15", "aimd"))
	}
	if server != "channel" && rng.IntN(4) == 0 {
		set("cache-keys", strconv.Itoa(1+rng.IntN(300)))
		set("cache-ttl", ms(100, 5000))
		set("cache-start", pick("cold", "warm"))
		set("cache-zipf", pick("0", "0", "0.8", "1.2"))
		if rng.IntN(2) == 0 {
			from := rng.IntN(15)
			f := fmt.Sprintf("flush@%ds-%ds", from, from+rng.IntN(3))
			if c.Faults[0].Kind != NoFault {
				f = c.Get("fault") + ";" + f
			}
			set("fault", f)
		}
	}
	return c, desc
}

// checkLaws is TestLaws' list, for one config and its result.
func checkLaws(c Config, r *Result) error {
	tt := r.Totals
	if !tt.RequestLevel {
		return fmt.Errorf("not request-level")
	}
	if _, err := json.Marshal(r); err != nil {
		return fmt.Errorf("JSON: %v", err) // NaN or Inf somewhere
	}
	if tt.Succeeded+tt.GaveUp+tt.Unfinished != tt.Requests || tt.Requests != tt.Clients {
		return fmt.Errorf("succeeded %d + gave up %d + unfinished %d != requests %d", tt.Succeeded, tt.GaveUp, tt.Unfinished, tt.Requests)
	}
	windowed := c.Traffic != Closed && !c.Drain
	if tt.Unfinished > 0 && !r.Truncated && !windowed {
		return fmt.Errorf("%d unfinished, not truncated, not windowed", tt.Unfinished)
	}
	if r.Truncated != (r.TruncatedBy != "") || r.Truncated != (r.StoppedAt != nil) {
		return fmt.Errorf("truncated %v by %q at %v", r.Truncated, r.TruncatedBy, r.StoppedAt)
	}
	for name, v := range map[string]int{"calls": tt.Calls, "served": tt.Served, "refused": tt.Refused, "errors": tt.Errors,
		"outage": tt.OutageFails, "timeouts": tt.Timeouts, "throttled": tt.Throttled, "dropped": tt.Dropped,
		"cancelled": tt.Cancelled, "hedges": tt.Hedges, "blocked": tt.Blocked, "collisions": tt.Collisions} {
		if v < 0 {
			return fmt.Errorf("%s %d", name, v)
		}
	}
	// The timeline adds up to the totals.
	sum := sumTimeline(r.Timeline)
	// The chart's limit of busy workers is QueueWorkers (times a capacity
	// fault's factor, which may add workers).
	workers := float64(c.QueueWorkers())
	for _, f := range c.Faults {
		if f.Kind == FaultCapacity {
			workers *= max(1, f.Arg)
		}
	}
	for _, b := range r.Timeline {
		if b.LatencyP50 > b.LatencyP99 || b.Queue < 0 || b.Busy < 0 || b.Waiting < 0 {
			return fmt.Errorf("bucket at %g s: %+v", b.Start, b)
		}
		if float64(b.Busy) > workers && c.RequestLevel() {
			return fmt.Errorf("bucket at %g s: %d busy of %g workers", b.Start, b.Busy, workers)
		}
	}
	for _, x := range []struct {
		name      string
		got, want int
	}{
		{"requests", sum.Requests, tt.Requests}, {"goodput", sum.Goodput, tt.Succeeded}, {"calls", sum.Calls, tt.Calls},
		{"blocked", sum.Blocked, tt.Blocked}, {"timeouts", sum.Timeouts, tt.Timeouts}, {"hedges", sum.Hedges, tt.Hedges},
		{"served", sum.Served, tt.Served}, {"refused", sum.Refused, tt.Refused}, {"errors", sum.Errors, tt.Errors},
		{"outage", sum.Outage, tt.OutageFails}, {"throttled", sum.Throttled, tt.Throttled},
	} {
		if x.got != x.want {
			return fmt.Errorf("timeline %s %d, totals %d", x.name, x.got, x.want)
		}
	}
	if d := sum.WastedWork - tt.WastedWork; math.Abs(d) > 1e-6*math.Max(1, tt.WastedWork) {
		return fmt.Errorf("timeline wasted %g s, totals %g s", sum.WastedWork, tt.WastedWork)
	}
	// The span every rate is per second of.
	span := tt.Makespan
	if windowed {
		span = c.Duration.Seconds()
	}
	if r.StoppedAt != nil {
		span = math.Min(span, *r.StoppedAt)
	}
	if span > 0 {
		if d := tt.ThroughputPerS - float64(tt.Served)/span; math.Abs(d) > 1e-9*math.Max(1, tt.ThroughputPerS) {
			return fmt.Errorf("throughput %g/s is not %d served over %g s", tt.ThroughputPerS, tt.Served, span)
		}
	}
	// A cache's hits succeed with no server's work.
	if tt.Succeeded > tt.Served+tt.Hits || tt.Hits == 0 && tt.GoodputPerS > tt.ThroughputPerS*(1+1e-12) {
		return fmt.Errorf("goodput %g/s (%d) above throughput %g/s (%d) and %d hits", tt.GoodputPerS, tt.Succeeded, tt.ThroughputPerS, tt.Served, tt.Hits)
	}
	most, work := 0.0, 0.0
	for k := range max(1, c.Servers) {
		m, w := capacityOver(c, k, span)
		most, work = most+m, work+w
		if ps := tt.PerServer; ps != nil && float64(ps[k].Served) > m {
			return fmt.Errorf("server %d served %d in %g s, over its %g", k+1, ps[k].Served, span, m)
		}
	}
	if float64(tt.Served) > most {
		return fmt.Errorf("served %d in %g s, over the server's %g", tt.Served, span, most)
	} else if tt.WastedWork > work*(1+1e-9)+1e-9 {
		return fmt.Errorf("wasted %g s of work in %g s, over the server's %g s", tt.WastedWork, span, work)
	}
	if err := checkFleet(c, r); err != nil {
		return err
	}
	if err := checkNodes(c, r); err != nil {
		return err
	}
	if err := checkCache(c, r); err != nil {
		return err
	}
	if s := tt.ChannelThroughput; s < 0 || s > 1 || tt.OfferedLoad < 0 {
		return fmt.Errorf("channel S %g, G %g", s, tt.OfferedLoad)
	}
	l := tt.Latency
	if tt.Succeeded > 0 && !(0 <= l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.P999 && l.P999 <= l.Max && l.Mean <= l.Max) {
		return fmt.Errorf("latency quantiles out of order: %+v", l)
	}
	return nil
}

// capacityOver is the most calls c's server can serve over [0, span]
// and the most seconds of work it can do: a token bucket that starts
// empty serves at most the integral of its rate (the faults' factors
// included: tokens refill through outages and stalls too); the queue
// server with fixed service times, its busiest room of workers over the
// span, one call per service time each; with random times, a bound five
// standard deviations over the mean for Poisson completions; the
// channel, one frame at a time.
func capacityOver(c Config, k int, span float64) (calls, work float64) {
	sc := newSchedule(&c, k)
	integral, most := 0.0, 0.0
	for i, s := range sc.segs {
		end := span
		if i+1 < len(sc.segs) {
			end = math.Min(span, sc.segs[i+1].start)
		}
		if end > s.start {
			integral += (end - s.start) * s.capacity / s.slow
		}
		if s.start <= span {
			most = math.Max(most, s.capacity)
		}
	}
	switch c.Server {
	case Queue:
		workers := math.Round(float64(c.Concurrency) * most)
		work = workers * span
		mean := c.ServiceDist.mean(c.Service.Seconds())
		if c.ServiceDist.Kind == FixedService {
			return workers*math.Floor(span/c.Service.Seconds()+1e-9) + 1e-9, work
		}
		m := workers * span / (mean * 0.999)
		return m + 5*math.Sqrt(m) + workers, work
	case Channel:
		return span/c.Frame.Seconds() + 1e-9, span
	}
	calls = c.Capacity*integral + 1e-6
	return calls, calls / c.Capacity
}

// checkCache holds a run with a cache to its laws: hits and misses add
// up over the buckets, each bucket's hit ratio is its hits' share; every
// miss is a call below or one the clients' breaker or throttle refused
// (so the servers see no more calls than misses); and without a chain,
// where a success at the cache is the request's, each success is a hit
// or a miss answered OK in time, which stored its key (fewer stores while
// a flush refuses them). A run without a cache has no cache figures.
func checkCache(c Config, r *Result) error {
	tt := r.Totals
	if c.CacheKeys == 0 {
		if tt.CacheTotals != (CacheTotals{}) {
			return fmt.Errorf("no cache, cache totals %+v", tt.CacheTotals)
		}
		return nil
	}
	var hits, misses int
	for _, b := range r.Timeline {
		hits += b.Hits
		misses += b.Misses
		want := 0.0
		if b.Hits+b.Misses > 0 {
			want = float64(b.Hits) / float64(b.Hits+b.Misses)
		}
		if b.HitRatio != want {
			return fmt.Errorf("bucket at %g s: hits %d misses %d, hit ratio %g", b.Start, b.Hits, b.Misses, b.HitRatio)
		}
	}
	if hits != tt.Hits || misses != tt.Misses {
		return fmt.Errorf("timeline hits %d misses %d, totals %d, %d", hits, misses, tt.Hits, tt.Misses)
	}
	if tt.Misses != tt.Calls+tt.Blocked+tt.Throttled {
		return fmt.Errorf("misses %d != calls %d + blocked %d + throttled %d", tt.Misses, tt.Calls, tt.Blocked, tt.Throttled)
	}
	if n := tt.Hits + tt.Misses; n > 0 && tt.HitRatio != float64(tt.Hits)/float64(n) || n == 0 && tt.HitRatio != 0 {
		return fmt.Errorf("hit ratio %g of %d hits, %d misses", tt.HitRatio, tt.Hits, tt.Misses)
	}
	if c.Layers > 1 {
		return nil
	}
	refusing := false // a flush that refuses stores for a while
	for _, f := range c.Faults.List() {
		refusing = refusing || f.Kind == FaultFlush && f.End > f.Start
	}
	if tt.Hits+tt.Stored > tt.Succeeded || !refusing && tt.Hits+tt.Stored != tt.Succeeded {
		return fmt.Errorf("hits %d + stored %d, succeeded %d", tt.Hits, tt.Stored, tt.Succeeded)
	}
	return nil
}

// sumTimeline adds up a timeline's counters, bucket by bucket.
func sumTimeline(tl []Bucket) Bucket {
	var sum Bucket
	for _, b := range tl {
		sum.Requests += b.Requests
		sum.Goodput += b.Goodput
		sum.Calls += b.Calls
		sum.Blocked += b.Blocked
		sum.Timeouts += b.Timeouts
		sum.Hedges += b.Hedges
		sum.Served += b.Served
		sum.Refused += b.Refused
		sum.Errors += b.Errors
		sum.Outage += b.Outage
		sum.Throttled += b.Throttled
		sum.OK += b.OK
		sum.Rejected += b.Rejected
		sum.WastedWork += b.WastedWork
	}
	return sum
}

// checkFleet: a fleet's servers add up to its totals, and each server's
// timeline to its own totals.
func checkFleet(c Config, r *Result) error {
	tt := r.Totals
	if c.Servers <= 1 {
		if tt.PerServer != nil {
			return fmt.Errorf("one server with per_server %+v", tt.PerServer)
		}
		return nil
	}
	if len(tt.PerServer) != c.Servers {
		return fmt.Errorf("%d servers, per_server %d", c.Servers, len(tt.PerServer))
	}
	var served, refused, errs, outage, timeouts, lost int
	for k, s := range tt.PerServer {
		served += s.Served
		refused += s.Refused
		errs += s.Errors
		outage += s.Outage
		timeouts += s.Timeouts
		lost += s.Lost
		var b ServerBucket
		for _, x := range r.Timeline {
			if len(x.Servers) != c.Servers {
				return fmt.Errorf("bucket at %g s: %d servers", x.Start, len(x.Servers))
			}
			o := x.Servers[k]
			b.Served += o.Served
			b.Failed += o.Failed
			b.Timeouts += o.Timeouts
			b.Lost += o.Lost
			if o.Queue < 0 || o.Busy < 0 {
				return fmt.Errorf("server %d at %g s: %+v", k+1, x.Start, o)
			}
		}
		if b.Served != s.Served || b.Failed != s.Refused+s.Errors+s.Outage || b.Timeouts != s.Timeouts || b.Lost != s.Lost {
			return fmt.Errorf("server %d: timeline %+v, totals %+v", k+1, b, s)
		}
	}
	if served != tt.Served || refused != tt.Refused || errs != tt.Errors || outage != tt.OutageFails || timeouts != tt.Timeouts || lost != tt.Lost {
		return fmt.Errorf("servers add up to served %d refused %d errors %d outage %d timeouts %d lost %d; totals %+v",
			served, refused, errs, outage, timeouts, lost, tt.RequestTotals)
	}
	return nil
}

// checkNodes: per_node names every node of the shape in order, and its
// figures agree with the totals: the servers' calls are the run's, none
// answers more calls than it was sent, the balancer passes on every call,
// a service's calls are its layer's, a cache's are its hits and misses.
func checkNodes(c Config, r *Result) error {
	tt := r.Totals
	names := c.NodeNames()
	if len(tt.PerNode) != len(names) {
		return fmt.Errorf("%d nodes, per_node %d", len(names), len(tt.PerNode))
	}
	fig := func(n NodeTotals, key string) float64 {
		v, _ := n.Figure(key)
		return v
	}
	var calls, layer, timeouts int
	for k, n := range tt.PerNode {
		if n.Name != names[k] {
			return fmt.Errorf("node %d is %q, want %q", k, n.Name, names[k])
		}
		for _, f := range n.Figures {
			if f.Value < 0 || math.IsNaN(f.Value) {
				return fmt.Errorf("node %s: %s %g", n.Name, f.Key, f.Value)
			}
		}
		sent := fig(n, "calls")
		switch n.Kind {
		case kindServer:
			calls += int(sent)
			if got := fig(n, "served") + fig(n, "refused") + fig(n, "outage") + fig(n, "lost"); got > sent {
				return fmt.Errorf("node %s answered %g of %g calls", n.Name, got, sent)
			}
			if fig(n, "errors") > fig(n, "served") || fig(n, "timeouts") > sent || fig(n, "utilization") > 1+1e-9 {
				return fmt.Errorf("node %s: %+v", n.Name, n.Figures)
			}
		case kindBalancer:
			if int(sent) != tt.Calls {
				return fmt.Errorf("balancer passed on %g calls of %d", sent, tt.Calls)
			}
		case kindService:
			layer++
			want := tt.CallsPerRequestByLayer[layer-1] * float64(tt.Requests)
			if math.Abs(sent-want) > 1e-6*math.Max(1, want) {
				return fmt.Errorf("node %s: %g calls, its layer made %g", n.Name, sent, want)
			}
			timeouts += int(fig(n, "timeouts"))
		case kindCache:
			if int(sent) != tt.Hits+tt.Misses || int(fig(n, "hits")) != tt.Hits || fig(n, "hit_ratio") != tt.HitRatio {
				return fmt.Errorf("node %s: %+v, totals hits %d misses %d", n.Name, n.Figures, tt.Hits, tt.Misses)
			}
		default:
			return fmt.Errorf("node %s of kind %q", n.Name, n.Kind)
		}
	}
	if calls != tt.Calls || timeouts != tt.LayerTimeouts {
		return fmt.Errorf("servers sent %d calls of %d; services timed out %d of %d", calls, tt.Calls, timeouts, tt.LayerTimeouts)
	}
	return checkNodeBuckets(r)
}

// checkNodeBuckets: every bucket has every node, and a node's counts
// over the buckets add up to its totals (a server's failed to its
// refused, errors and outage), its hit ratio in a bucket is its hits'
// share there.
func checkNodeBuckets(r *Result) error {
	tt := r.Totals
	sums := make([]map[string]float64, len(tt.PerNode))
	for i := range sums {
		sums[i] = map[string]float64{}
	}
	for _, b := range r.Timeline {
		if len(b.Nodes) != len(tt.PerNode) {
			return fmt.Errorf("bucket at %gs has %d nodes, per_node %d", b.Start, len(b.Nodes), len(tt.PerNode))
		}
		for j, n := range b.Nodes {
			if len(n.Keys) != len(n.Values) {
				return fmt.Errorf("bucket at %gs, node %s: keys %q, values %v", b.Start, tt.PerNode[j].Name, n.Keys, n.Values)
			}
			for m, key := range n.Keys {
				if v := n.Values[m]; v < 0 || math.IsNaN(v) {
					return fmt.Errorf("bucket at %gs, node %s: %s %g", b.Start, tt.PerNode[j].Name, key, v)
				}
				sums[j][key] += n.Values[m]
			}
			hits, _ := n.Figure("hits")
			misses, _ := n.Figure("misses")
			ratio, _ := n.Figure("hit_ratio")
			if hits+misses > 0 && ratio != hits/(hits+misses) {
				return fmt.Errorf("bucket at %gs, node %s: %v, a hit ratio not its hits' share", b.Start, tt.PerNode[j].Name, n)
			}
		}
	}
	for j, n := range tt.PerNode {
		for key, sum := range sums[j] {
			if key == "hit_ratio" {
				continue
			}
			want, ok := n.Figure(key)
			if key == "failed" {
				want = 0
				for _, k := range []string{"refused", "errors", "outage"} {
					v, _ := n.Figure(k)
					want += v
				}
				ok = true
			}
			if !ok || sum != want {
				return fmt.Errorf("node %s: its buckets' %s add up to %g, its total is %g (%v)", n.Name, key, sum, want, ok)
			}
		}
	}
	return nil
}

// The laws' own checks must fail on an impossible result: a throughput
// above capacity, S above 1, a timeline that does not add up.
func TestLawsCatch(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:300"}, {"duration", "30s"}, {"server", "queue"},
		{"concurrency", "10"}, {"service", "100ms"}, {"service-dist", "fixed"}, {"attempts", "1"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, c, 1)
	if err := checkLaws(c, r); err != nil {
		t.Fatalf("a lawful run: %v", err)
	}
	// Ten workers of exactly 100 ms, saturated from the first arrival
	// (about 50 ms in) to the window's end: 2,990 calls, 3,000 at most.
	if n := r.Totals.Served; n < 2980 || n > 3000 {
		t.Errorf("10 workers of 100 ms over 30 s served %d, want 2,980 to 3,000", n)
	}
	for name, spoil := range map[string]func(*Result){
		"over capacity": func(r *Result) {
			r.Totals.Served = 3100
			r.Timeline[0].Served += 3100 - 3000
			r.Totals.ThroughputPerS = 3100.0 / 30
		},
		"timeline":    func(r *Result) { r.Timeline[3].Goodput++ },
		"unfinished":  func(r *Result) { r.Totals.Unfinished++ },
		"S above 1":   func(r *Result) { r.Totals.ChannelThroughput = 1.5 },
		"NaN":         func(r *Result) { r.Totals.WastedWork = math.NaN() },
		"node calls":  func(r *Result) { r.Totals.PerNode[0].Figures[0].Value++ },
		"node name":   func(r *Result) { r.Totals.PerNode[0].Name = "db" },
		"node bucket": func(r *Result) { r.Timeline[2].Nodes[0].Values[0]++ },
	} {
		bad := run(t, c, 1)
		spoil(bad)
		if err := checkLaws(c, bad); err == nil {
			t.Errorf("%s: passed the laws", name)
		}
	}
}

// randomEither is randomHerdConfig's config if herd, else randomConfig's.
func randomEither(rng *rand.Rand, herd bool) (Config, string) {
	if herd {
		return randomHerdConfig(rng)
	}
	return randomConfig(rng)
}

// randomHerdConfig is a random config of the herd's engine (closed
// traffic, no request-level feature), and its parameters as text. It may
// be invalid (Validate says).
func randomHerdConfig(rng *rand.Rand) (Config, string) {
	c := DefaultConfig()
	desc := ""
	set := func(k, v string) {
		if err := c.Set(k, v); err == nil {
			desc += k + "=" + v + " "
		}
	}
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	ms := func(lo, hi int) string { return strconv.Itoa(lo+rng.IntN(hi-lo+1)) + "ms" }
	set("server", pick("capacity", "outage", "outage", "collapse", "occ"))
	set("clients", strconv.Itoa(1+rng.IntN(3000)))
	set("arrival", pick("burst", "burst", "uniform:"+ms(1, 5000), "clock:"+ms(1, 1000)))
	set("capacity", strconv.Itoa(5+rng.IntN(400)))
	set("capacity-window", ms(1, 500))
	set("outage-start", ms(0, 3000))
	set("outage-end", pick(ms(3000, 20000), "1m", "5m"))
	set("collapse-factor", strconv.FormatFloat(rng.Float64()*3, 'g', 3, 64))
	set("latency", pick("0s", ms(0, 200), "50ms"))
	set("latency-sd", pick("0s", ms(0, 30)))
	set("attempts", strconv.Itoa(rng.IntN(8)))
	set("jitter", pick("none", "full", "equal", "decorrelated", "decorrelated-v2"))
	set("growth", pick("exponential", "exponential", "linear", "constant", "none"))
	set("base", pick(ms(1, 1000), "100ms", "1s"))
	set("cap", pick("0s", "1s", "30s", ms(10, 5000)))
	set("deadline", pick("0s", "5s", "30s"))
	set("budget", pick("none", "none", "tokens:20:5:1", "ratio", "grpc"))
	set("breaker", pick("none", "none", "consecutive:5:1s", "ratio"))
	if rng.IntN(4) == 0 {
		set("retry-after-s", ms(100, 3000))
		set("honor-retry-after", "true")
	}
	switch rng.IntN(6) {
	case 0:
		set("max-calls", strconv.Itoa(50+rng.IntN(5000)))
	case 1:
		set("horizon", strconv.Itoa(1+rng.IntN(20))+"s")
	}
	if c.Policy.Attempts == 0 && c.Policy.Deadline == 0 && c.Horizon == 0 {
		set("horizon", "2m") // unlimited tries: something ends them
	}
	return c, desc
}

// TestTimelineWidth: a run's timeline does not depend on how its width
// was chosen. Random herd and request-level runs, with the width picked
// automatically, give exactly the result (timeline, totals, bytes) of the
// same run with the bucket set to the width they reported: counts at a
// bucket's edge land in the same bucket whether the bins started finer
// and merged or started at that width.
func TestTimelineWidth(t *testing.T) {
	n := 240
	if runtime.GOARCH == "wasm" {
		n = 40
	}
	rng := rand.New(rand.NewPCG(25, 1))
	for i, valid := 0, 0; valid < n; i++ {
		if i > 20*n {
			t.Fatalf("only %d valid configs of %d", valid, i)
		}
		c, desc := randomEither(rng, valid%2 == 0)
		if c.Validate() != nil {
			continue
		}
		valid++
		seed := rng.Uint64()
		auto := run(t, c, seed)
		fixed := c
		fixed.Bucket = time.Duration(math.Round(auto.BucketWidth * 1e9))
		if float64(fixed.Bucket) != math.Round(auto.BucketWidth*1e9) || fixed.Bucket < MinBucket {
			t.Fatalf("config %d (%s): width %v s is no whole number of nanoseconds", valid, desc, auto.BucketWidth)
		}
		got := run(t, fixed, seed)
		if !reflect.DeepEqual(auto, got) {
			a, _ := json.Marshal(auto)
			b, _ := json.Marshal(got)
			t.Errorf("config %d (%s), seed %d: auto width %v s and --bucket %v differ:\n%s", valid, desc, seed,
				auto.BucketWidth, fixed.Bucket, firstDiff(a, b))
		}
	}
}

// firstDiff shows where two byte strings first differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("  auto:  …%s…\n  fixed: …%s…", a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

// TestFaultAfterEnd: the makespan is the time of the run's last event on a
// call, and a fault that meets no call is none. A fault added after the
// last event (or, for open and loop traffic, after the window) changes
// nothing: not the makespan, which closed and drained runs' rates are per
// second of, nor any count, rate or bucket. Only the faults listed and
// the recovery verdict, which is judged after the last fault, may differ.
func TestFaultAfterEnd(t *testing.T) {
	n := 200
	if runtime.GOARCH == "wasm" {
		n = 30
	}
	rng := rand.New(rand.NewPCG(25, 2))
	for i, valid := 0, 0; valid < n; i++ {
		if i > 20*n {
			t.Fatalf("only %d valid configs of %d", valid, i)
		}
		c, desc := randomConfig(rng)
		if c.Validate() != nil {
			continue
		}
		seed := rng.Uint64()
		base := run(t, c, seed)
		end := base.Totals.Makespan
		if c.Traffic != Closed && !c.Drain {
			end = math.Max(end, c.Duration.Seconds())
		}
		from := int(end) + 1 + rng.IntN(30)
		kind := map[ServerModel]string{Queue: pickOf(rng, "crash", "slow:3", "stall"), Channel: "errors:0.5"}[c.Server]
		if kind == "" {
			kind = pickOf(rng, "outage", "capacity:0.5", "errors:0.5")
		}
		late := c
		list := c.Get(ParamFault)
		if list == NoFault.String() {
			list = ""
		} else {
			list += ";"
		}
		if late.Set(ParamFault, fmt.Sprintf("%s%s@%ds-%ds", list, kind, from, from+1+rng.IntN(60))) != nil || late.Validate() != nil {
			continue // MaxFaults already
		}
		valid++
		got := run(t, late, seed)
		for _, r := range []*Result{base, got} {
			r.Faults, r.Totals.RecoveredAt, r.Totals.Recovery = nil, nil, ""
		}
		if !reflect.DeepEqual(base, got) {
			a, _ := json.Marshal(base)
			b, _ := json.Marshal(got)
			t.Errorf("config %d (%s), seed %d: a fault %s from %d s, after the run's end at %g s, changed it:\n%s",
				valid, desc, seed, kind, from, end, firstDiff(a, b))
		}
	}
}

// The herd's engine and the request-level one agree on when a run ends:
// 1000 clients in lockstep give up after three tries, by 0.6 s, within a
// minute's outage; a timeout no call reaches makes the run request-level
// and changes nothing else.
func TestMakespanEngines(t *testing.T) {
	set := []string{"server", "outage", "clients", "1000", "outage-end", "60s", "attempts", "3", "base", "100ms",
		"jitter", "none", "latency", "50ms", "latency-sd", "0s"}
	herd := runOf(t, 1, set...)
	req := runOf(t, 1, append(set, "timeout", "1h")...)
	if herd.Totals.RequestLevel || !req.Totals.RequestLevel {
		t.Fatalf("engines: herd %v, request-level %v", herd.Totals.RequestLevel, req.Totals.RequestLevel)
	}
	for _, r := range []*Result{herd, req} {
		if m := r.Totals.Makespan; math.Abs(m-0.6) > 1e-9 || r.Totals.Calls != 3000 || r.Totals.GaveUp != 1000 {
			t.Errorf("request-level %v: makespan %g s, %d calls, %d gave up; want 0.6 s, 3000, 1000",
				r.Totals.RequestLevel, m, r.Totals.Calls, r.Totals.GaveUp)
		}
	}
	if herd.BucketWidth != req.BucketWidth || len(herd.Timeline) != len(req.Timeline) {
		t.Errorf("herd %d buckets of %g s, request-level %d of %g s", len(herd.Timeline), herd.BucketWidth, len(req.Timeline), req.BucketWidth)
	}
	// A drained open run's rates are per second of its makespan: a
	// slowdown after the traffic has drained leaves them alone.
	open := []string{"traffic", "open:100", "duration", "10s", "server", "queue", "concurrency", "5", "service", "20ms",
		"timeout", "1s", "drain", "true"}
	a, b := runOf(t, 1, open...), runOf(t, 1, append(open, "fault", "slow:3@50s-60s")...)
	if a.Totals.GoodputPerS != b.Totals.GoodputPerS || a.Totals.Makespan != b.Totals.Makespan || a.Totals.Makespan > 11 {
		t.Errorf("goodput %g/s over %g s, with a slowdown at 50-60 s %g/s over %g s", a.Totals.GoodputPerS, a.Totals.Makespan,
			b.Totals.GoodputPerS, b.Totals.Makespan)
	}
}

func pickOf(rng *rand.Rand, vs ...string) string { return vs[rng.IntN(len(vs))] }
