package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// simFlag records a sim parameter as given; they are applied in order.
type simFlag struct {
	set  *[]kv
	name string
	bool bool
}

func (f *simFlag) String() string     { return "" }
func (f *simFlag) IsBoolFlag() bool   { return f.bool }
func (f *simFlag) Set(v string) error { *f.set = append(*f.set, kv{f.name, v}); return nil }

// The kinds' lists come from the core, so a kind added there shows here;
// the syntax of each kind's arguments is the CLI's to explain.
var (
	arrivalForms = forms(sim.ArrivalNames(), map[string]string{
		sim.Burst.String():   "burst",
		sim.Uniform.String(): "uniform:D",
		sim.Clock.String():   "clock:D",
	})
	budgetForms = forms(sim.BudgetNames(), map[string]string{
		sim.NoBudget.String():    "none",
		sim.TokenBudget.String(): fmt.Sprintf("tokens[:%g[:%g[:%g]]]", float64(sim.DefaultBudgetTokens), float64(sim.DefaultBudgetRetryCost), float64(sim.DefaultBudgetRefund)),
		sim.RatioBudget.String(): fmt.Sprintf("ratio[:%g[:%d]]", sim.DefaultBudgetRatio, sim.DefaultBudgetMinRetries),
		sim.AdaptiveBudget.String(): fmt.Sprintf("adaptive[:%g[:%s]]", float64(sim.DefaultBudgetK),
			backoff.FormatDuration(sim.DefaultBudgetWindow)),
		sim.GRPCBudget.String(): fmt.Sprintf("grpc[:%g[:%g]]", float64(sim.DefaultGRPCMaxTokens), sim.DefaultGRPCTokenRatio),
	})
	serviceForms = forms(sim.ServiceNames(), map[string]string{
		sim.LognormalService.String(): "lognormal:SIGMA",
		sim.BimodalService.String():   "bimodal:P:D2",
	})
	breakerForms = forms(sim.BreakerNames(), map[string]string{
		sim.NoBreaker.String():          "none",
		sim.ConsecutiveBreaker.String(): "consecutive[:K[:COOLDOWN]]",
		sim.RatioBreaker.String():       "ratio[:R[:MIN[:WINDOW[:COOLDOWN]]]]",
	})
)

// forms is each name's syntax, the name itself where none is given.
func forms(names []string, syntax map[string]string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if f, ok := syntax[n]; ok {
			out[i] = f
		}
	}
	return out
}

var simHelp = map[string]string{
	sim.ParamClients:         fmt.Sprintf("clients, each wanting one successful call (1 to %d)", sim.MaxClients),
	sim.ParamServer:          "server model: " + choices(sim.ServerNames()) + modelFields(),
	sim.ParamServers:         fmt.Sprintf("a fleet of this many servers of the model, 1 to %d, each with its own --capacity or --concurrency workers", sim.MaxServers),
	sim.ParamBalance:         "how the load balancer picks a fleet's server: " + choices(sim.BalanceNames()) + " (least: fewest calls outstanding; p2c: the better of two at random)",
	sim.ParamRetryOther:      "a retry goes to a server other than its previous try's, when the fleet has one (Envoy's previous_hosts)",
	sim.ParamDrain:           "run open or loop traffic until every request has ended (none starts after --duration) and give rates per second of the whole run; without it the run ends at --duration and what is still going counts as unfinished",
	sim.ParamCapacity:        "calls per second the server serves",
	sim.ParamCapacityWindow:  "the server absorbs capacity*window calls at once, and at least one",
	sim.ParamOutageStart:     "outage: when everything starts failing",
	sim.ParamOutageEnd:       "outage: when the server is back",
	sim.ParamCollapseFactor:  "collapse: throughput = capacity / (1 + f*(load/capacity - 1)) above capacity",
	sim.ParamCollapseWindow:  "collapse: window the offered load is measured over",
	sim.ParamArrival:         "first calls: " + strings.Join(arrivalForms, " | ") + " (uniform: spread over D; clock: every retry rounded up to a multiple of D)",
	sim.ParamLatency:         "one-way network latency per hop",
	sim.ParamLatencySD:       "latency spread: hops are |N(latency, sd)|",
	sim.ParamHonorRetryAfter: "clients honour the server's Retry-After (as --retry-after says; " + backoff.RetryAfterIgnore.String() + " = " + backoff.RetryAfterAsIs.String() + ")",
	sim.ParamRetryAfterS:     "Retry-After the server sends with its 503s (0 = none)",
	sim.ParamBudget:          "retry budget shared by the clients: " + strings.Join(budgetForms, " | ") + " (tokens: the AWS SDK's; ratio: Envoy's; adaptive: the SRE book's client-side throttling of every call; grpc: gRPC's retryThrottling, maxTokens and tokenRatio)",
	sim.ParamBreaker:         "circuit breaker shared by the clients: " + strings.Join(breakerForms, " | "),
	sim.ParamBucket:          "timeline bucket width (0 = about 200 buckets)",
	sim.ParamHorizon:         "stop at this simulated time (0 = none)",
	sim.ParamMaxCalls:        fmt.Sprintf("stop after this many calls, 1 to %d (default %d)", sim.MaxCalls, sim.DefaultMaxCalls),
	sim.ParamTraffic: "who calls: closed (--clients, each wanting one success) | open:RATE (Poisson arrivals of RATE requests/s for --duration) | " +
		"loop:N[:THINK] (N callers, each sending its next request THINK after the previous one finished, for --duration)",
	sim.ParamDuration:    fmt.Sprintf("how long open and loop traffic lasts (at most %g requests: rate x duration)", float64(sim.MaxRequests)),
	sim.ParamConcurrency: fmt.Sprintf("queue server: workers (1 to %d)", sim.MaxConcurrency),
	sim.ParamService:     "queue server: mean service time of a call",
	sim.ParamServiceDist: "queue server: service times " + strings.Join(serviceForms, " | ") +
		" (bimodal: D2 with probability P, else --service)",
	sim.ParamQueueLimit:  "queue server: most calls waiting; a call over it is refused at once with a 503 (0 = no limit)",
	sim.ParamDiscipline:  "queue server: its queue discipline, " + disciplineHelp(),
	sim.ParamAdmission:   "queue server: its admission rule, " + admissionHelp() + "; clients with --honor-retry-after wait a 429's Retry-After",
	sim.ParamTimeout:     "a caller stops waiting for a call after this and retries as its policy says; the server still does the work (0 = no timeout)",
	sim.ParamDropExpired: "the server skips calls whose caller has stopped waiting",
	sim.ParamErrorRate:   "each call the server serves fails with this probability",
	sim.ParamFault: "a fault, repeatable: KIND[:ARG]@START-END[/SERVERS] with KIND " + strings.Join(faultKinds, ", ") +
		" (e.g. stall@20s-30s, errors:0.5@10s-20s, slow:3@5s-15s, crash@5s-10s/1: a crash refuses calls and loses its queue and calls in service); " +
		"SERVERS are a fleet's, numbered from 1 (2,3; none: all); several in one value separated by ;",
	sim.ParamBudgetScope:   "who shares the budget: " + choices(sim.ScopeNames()),
	sim.ParamHedge:         "send a second copy of a call not answered after D, or after the NN-th percentile of latencies so far (pNN); none = no hedging",
	sim.ParamHedgeCancel:   "when one copy of a hedged call wins, remove the other from the server's queue",
	sim.ParamLayers:        fmt.Sprintf("a call chain of this many layers, 1 to %d, each calling the one below (the bottom calls the server)", sim.MaxLayers),
	sim.ParamLayerAttempts: fmt.Sprintf("each layer's attempts: policy (the policy's), A (1 to %d) or A1,A2,... one per layer, top first", sim.MaxLayerAttempts),
	sim.ParamRetryAt:       "which layers retry: " + choices(sim.RetryAtNames()) + " (top: the others try once)",
	sim.ParamLayerTimeout:  "a layer stops waiting for the layer below after this and retries, while the one below goes on (0 = waits): D for every layer above the bottom, or D1,D2,... one each, the clients' first",
	sim.ParamPerServer:     "a fleet whose servers differ: K:KEY=VALUE[,KEY=VALUE...][;K:...] gives server K (from 1) knobs of its own, such as 2:concurrency=3,service=200ms",
	sim.ParamPropagate:     "pass each try's deadline down (gRPC's): a call below gets what is left of its caller's, and a server refuses a call whose deadline has passed instead of serving it",
	sim.ParamChannel:       "the shared channel's rule (--server channel): " + choices(sim.ChannelNames()),
	sim.ParamFrame:         "the channel: one frame's transmission time",
	sim.ParamSlot:          "the ethernet channel: the slot, within which two transmissions collide (802.3: 51.2µs)",
	sim.ParamCacheKeys:     fmt.Sprintf("a look-aside cache in front of the server: the keys the requests ask for, 0 to %d (0 = no cache); a hit answers at once, a miss calls the server and stores the key when its answer comes back OK within the timeout", sim.MaxCacheKeys),
	sim.ParamCacheTTL:      "the cache: how long a stored key stays",
	sim.ParamCacheStart:    "the cache: " + choices(sim.CacheStartNames()) + " (warm: every key stored, expiring uniformly over one --cache-ttl)",
	sim.ParamCacheZipf:     fmt.Sprintf("the cache: 0 = keys drawn uniformly; S (up to %g) = Zipf's law, the k-th key with weight 1/k^S", sim.MaxCacheZipf),
}

// modelFields lists each server model's own flags, from the registry:
// " (capacity: --capacity --capacity-window; ...)".
func modelFields() string {
	var parts []string
	for _, m := range sim.Models() {
		f := m.Fields(nil)
		if len(f) == 0 {
			parts = append(parts, m.Name()+": no flags of its own")
			continue
		}
		parts = append(parts, m.Name()+": --"+strings.Join(f, " --"))
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// disciplineHelp lists the queue disciplines, from the registry: each
// one's syntax, help and ranges.
func disciplineHelp() string {
	return partsHelp(sim.Disciplines(), sim.DisciplineSyntax, sim.DisciplineRanges)
}

// admissionHelp lists the admission rules, from the registry.
func admissionHelp() string {
	return partsHelp(sim.AdmissionRules(), sim.AdmissionSyntax, sim.AdmissionRanges)
}

// partsHelp lists registered parts as "SYNTAX (help; ranges) | ...".
func partsHelp[P interface{ Help() string }](parts []P, syntax, ranges func(P) string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		s := syntax(p) + " (" + p.Help()
		if r := ranges(p); r != "" {
			s += "; " + r
		}
		out[i] = s + ")"
	}
	return strings.Join(out, " | ")
}

// faultKinds are the fault kinds as --fault writes them.
var faultKinds = forms(sim.FaultNames()[1:], map[string]string{
	"errors": "errors:F", "slow": "slow:X", "capacity": "capacity:X",
})

// noBackoff is the extra --jitter list entry for the blog's "no backoff"
// baseline (growth none), which is not a jitter kind.
const noBackoff = sim.NoBackoff

// simJob is a parsed 'backoff sim' command line.
type simJob struct {
	cfg     sim.Config
	preset  string
	jitters []string // a --jitter comma list, else nil
	sweep   *sim.Sweep
	seed    uint64
	runs    int
	format  string
	// calls is the job's estimated work: sim.EstimateCalls summed over
	// its runs and rows.
	calls float64
	// budget is each run's memory (runBudget).
	budget int64
	// printTopology: print cfg's topology instead of running it;
	// listScenarios: list the named scenarios.
	printTopology, listScenarios bool
	// trace is --trace's file ("" for none).
	trace string
}

// maxJobCalls bounds a command's work, in calls as sim.EstimateCalls
// counts them: about two minutes. Measured on 2026-12-02 on this
// project's machine (2 shared cores; go test -run '^$' -bench . ./sim/
// and a run of each server model, budget and breaker at 2000 to 1000000
// clients), the simulator makes 6 to 47 million calls a second natively:
// 6 with a token budget (every event through the queue), 25 in
// BenchmarkMillionClients, 47 into a long outage, 10 to 15 in most
// configs; 120 s at 10 million a second. The estimate runs 1.3 to 2
// times over real counts, which leaves room for the slowest kinds.
const maxJobCalls = 1.2e9

// maxJobMemory bounds what a job's runs hold at once: 512 MB by
// sim.EstimateMemory, which counts what their structures take (within
// twice the live heap, TestMemoryPeak; the heap grows to about twice the
// live bytes before the collector runs, so a process stays near 1 GB),
// shared by the rows a sweep runs at once (one per core). A
// request-level run is given its share as sim.Config.MaxInFlight
// (sim.MaxCallersWithin): one that would hold more callers than that is
// refused before it starts, and one whose queue or open arrivals pile up
// past it stops there and is refused with what to change (sim.FullErr).
const maxJobMemory int64 = 512 << 20

// runBudget is one run's part of maxJobMemory when rows run at once.
func runBudget(rows int) int64 {
	return maxJobMemory / int64(max(1, min(runtime.GOMAXPROCS(0), rows)))
}

// boundMemory gives a request-level run of c its memory budget.
func boundMemory(c *sim.Config, budget int64) {
	if c.RequestLevel() {
		c.MaxInFlight = sim.MaxCallersWithin(*c, budget)
	}
}

func parseSim(args []string, stderr io.Writer) (*simJob, error) {
	fs := flag.NewFlagSet("backoff sim", flag.ContinueOnError)
	j, err := parseSimFlags(fs, args, stderr)
	return j, flagged(fs, err)
}

func parseSimFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (*simJob, error) {
	pf := addPolicyFlags(fs)
	var simSet []kv
	for _, name := range sim.ParamNames {
		help := simHelp[name]
		if p := sim.ParamOwn(name); p != nil {
			help = p.Help // a model's own parameter brings its line
		}
		fs.Var(&simFlag{set: &simSet, name: name, bool: slices.Contains(sim.BoolParams, name)}, name, help)
	}
	seed := newSeedFlag(fs, "seed of the first run")
	runs := newIntFlag(fs, "runs", 1, 1, sim.MaxRuns, fmt.Sprintf("runs with seeds seed..seed+runs-1, 1 to %d; totals are their means", sim.MaxRuns))
	sweep := fs.String("sweep", "", fmt.Sprintf("run a range of one parameter: NAME=FROM:TO:STEP or NAME=V1,V2,... (e.g. clients=10:190:10), at most %d values", sim.MaxSweepPoints))
	format := fs.String("format", "text", "output: text|csv|json|svg (svg: the first run's timeline as an image; no --sweep)")
	tf := addTopoFlags(fs)
	trace := addTraceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: backoff sim [--preset NAME] [policy flags] [--clients N] [--server %s]
       [--capacity N] [--outage-start D --outage-end D] [--arrival %s]
       [--latency D --latency-sd D] [--budget ...] [--breaker ...] [--honor-retry-after]
       [--traffic closed|open:RATE|loop:N[:THINK] --duration D] [--concurrency N --service D
       --service-dist ... --queue-limit N --discipline fifo|lifo|bounded:N|...
       --admission none|token-bucket:RATE:BURST|...] [--timeout D [--drop-expired]] [--error-rate F]
       [--fault KIND[:ARG]@START-END[/SERVERS]]... [--hedge D|pNN [--hedge-cancel]]
       [--servers N --balance round-robin|random|least|p2c --retry-other] [--drain]
       [--layers L --layer-attempts A|A1,A2,... --retry-at top|all --layer-timeout D|D1,D2,...] [--propagate-deadline]
       [--channel aloha|slotted|ethernet --frame D --slot D]
       [--cache-keys N --cache-ttl D --cache-start cold|warm --cache-zipf S]
       [--topology FILE | --scenario NAME|list] [--set NODE.KEY=VALUE]... [--print-topology]
       [--runs R] [--seed S] [--trace FILE] [--bucket D] [--sweep NAME=FROM:TO:STEP] [--format text|csv|json|svg]

Many clients retrying against one server, in simulated time. The default: 1000
clients call at once into a 10 s outage of a server that then serves 100
calls/s. With --sweep, one row per value (and per jitter kind when --jitter is
a comma list; "%s" there means growth none); --sweep rate=... sweeps open
traffic's rate. The AWS blog's figures:

  backoff sim --preset aws-blog-full --server occ --latency 10s --latency-sd 2s \
    --sweep clients=10:190:10 --jitter no-backoff,none,full,equal,decorrelated --runs 100

Steady traffic, a queue and a stall (Bronson et al., HotOS 2021): at 280
requests/s a server of 300/s does not recover, as each timed-out call's retry
keeps the load near twice its capacity; the sweep shows the threshold:

  backoff sim --traffic open:280 --duration 5m --server queue --concurrency 30 \
    --service 100ms --timeout 1s --attempts 2 --fault stall@20s-30s --sweep rate=100:280:20

Five layers of three attempts against a bottom that always fails: 3^5 = 243
calls at the server per request (--retry-at top: 3):

  backoff sim --clients 100 --server capacity --error-rate 1 --layers 5 --layer-attempts 3

The shared channel, pure ALOHA: the share of time carrying frames that got
through peaks at 1/(2e) = 18.4%% when 0.5 frames are sent per frame time:

  backoff sim --server channel --channel aloha --frame 1ms --attempts 1 \
    --traffic open:100 --duration 60s --sweep rate=100:1000:100

A topology document names the nodes and who calls whom; the flags above are
a shorthand for one (--print-topology prints it). A p2c balancer over three
queue servers, b crashing from 10 s to 15 s:

  traffic: open:150
  duration: 30s
  timeout: 1s
  nodes:
    lb: {kind: balancer, rule: p2c, to: [a, b, c]}
    a: {kind: server, model: queue, workers: 5, service: 100ms}
    b: {kind: server, model: queue, workers: 5, service: 100ms}
    c: {kind: server, model: queue, workers: 5, service: 100ms}
  faults:
    - crash@10s-15s/b

  backoff sim --topology fleet.yaml --attempts 3 --set b.workers=5

The engine runs one server, or a balancer over alike servers, behind an
optional look-aside cache ({kind: cache, miss: NEXT, keys: N, ttl: D, start:
cold|warm, zipf: S}; the fault flush@START-END/CACHE empties it) under an
optional chain of service nodes ({kind: service, to: NEXT, retry: {attempts:
N}, timeout: D}). --scenario NAME runs one of the page's scenarios (--scenario
list names them); flags given with it override its values. Bronson et al.'s
cache that cannot warm again after a flush, and a LIFO database that ends it:

  backoff sim --scenario cache-flush --set db.discipline=lifo

A job estimated to take more than about two minutes (%s calls) is refused
before it starts.

`, choices(sim.ServerNames()), choices(arrivalForms), noBackoff, backoff.FormatCount(maxJobCalls))
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := checkFormat(*format, "text", "csv", "json", "svg"); err != nil {
		return nil, err
	}
	j := &simJob{preset: pf.preset, format: *format}
	var err error
	if j.runs, err = runs.parse("runs"); err != nil {
		return nil, err
	}
	if j.seed, err = seed.parse(); err != nil {
		return nil, err
	}
	if j.jitters, err = takeJitterList(pf); err != nil {
		return nil, err
	}
	p, err := pf.policy()
	if err != nil {
		return nil, err
	}
	if tf.scenario.v == "list" {
		return &simJob{listScenarios: true}, nil
	}
	j.cfg = sim.DefaultConfig()
	j.cfg.Policy = p
	topo, scenario, err := tf.topology()
	if err != nil {
		return nil, err
	}
	switch {
	case topo != nil:
		if err := tf.applySets(topo); err != nil {
			return nil, err
		}
		if j.cfg, err = topo.Config(j.cfg); err != nil {
			return nil, fmt.Errorf("%s: %w", clip(tf.file.v), err)
		}
	case scenario != nil:
		j.cfg = *scenario
		if pf.preset != "" || pf.presetGiven || pf.importFile != "" {
			j.cfg.Policy = p
		}
	}
	if topo != nil || scenario != nil {
		// The policy flags given override the document's retry: and the
		// scenario's policy.
		for _, s := range pf.set {
			if err := j.cfg.Policy.Set(s.name, s.value); err != nil {
				return nil, err
			}
		}
	}
	if b := pf.imported.BudgetFlag(); b != "" && !slices.ContainsFunc(simSet, func(s kv) bool { return s.name == sim.ParamBudget }) {
		if err := j.cfg.Set(sim.ParamBudget, b); err != nil {
			fmt.Fprintf(stderr, "backoff: the imported retryThrottling (--budget %s) is not simulated: %v\n", b, err)
		}
	}
	joined, err := joinFaults(sortParams(simSet))
	if err != nil {
		return nil, err
	}
	for _, s := range joined {
		if err := j.cfg.Set(s.name, s.value); err != nil {
			return nil, err
		}
	}
	if len(tf.sets) > 0 && topo == nil {
		// --set on the flags' own topology (or the scenario's).
		t := j.cfg.Topology()
		if err := tf.applySets(t); err != nil {
			return nil, err
		}
		base := sim.DefaultConfig()
		base.Policy = j.cfg.Policy
		if j.cfg, err = t.Config(base); err != nil {
			return nil, err
		}
	}
	if err := j.cfg.Validate(); err != nil {
		return nil, err
	}
	if j.printTopology, err = tf.printing(); err != nil {
		return nil, err
	}
	if err := checkTyped(j.cfg, simSet); err != nil {
		return nil, err
	}
	if *sweep != "" {
		sw, err := sim.ParseSweep(*sweep, j.cfg)
		if err != nil {
			return nil, err
		}
		j.sweep = &sw
	} else if len(j.jitters) > 1 {
		j.sweep = &sim.Sweep{} // a jitter list alone sweeps the jitter kinds
	}
	if j.sweep != nil && j.format == "svg" {
		return nil, &backoff.FieldError{Field: "format", Value: "svg", Code: backoff.CodeChoice,
			Args: []string{"text", "csv", "json"}, Allowed: "text, csv or json with --sweep or a list of jitter kinds (svg draws one run)"}
	}
	if err := j.checkTrace(trace); err != nil {
		return nil, err
	}
	return j, j.estimate()
}

// checkTyped refuses what the command line gave that the run does not
// read (sim.Config.NotRead), and what the core reads in another way than
// the help says: --max-calls 0 (the core's "default",
// for the page's links; the help says 1 to 1e9), and --drain with closed
// traffic, which runs until every client has ended anyway (the page
// keeps its box's value, hidden, when the traffic turns closed).
func checkTyped(c sim.Config, set []kv) error {
	defaults := sim.DefaultConfig()
	for _, s := range set {
		switch {
		case s.name == sim.ParamMaxCalls && c.MaxCalls == 0:
			return backoff.CheckInt(sim.ParamMaxCalls, 0, 1, sim.MaxCalls)
		case s.name == sim.ParamDrain && c.Drain && c.Traffic == sim.Closed:
			return &backoff.FieldError{Field: sim.ParamDrain, Value: clip(s.value), Code: backoff.CodeNeeds, Other: sim.ParamTraffic,
				Args:    []string{sim.Closed.String(), "false", "false"},
				Allowed: "false with closed traffic, which runs until every client has ended: --drain is for open:RATE and loop:N"}
		}
		// A flag the run does not read, unless at its default: the run
		// would go on without it and say nothing (--outage-start with a
		// capacity server).
		if c.Get(s.name) != defaults.Get(s.name) {
			if err := c.NotRead(s.name, s.value); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortParams orders the sim flags as sim.ParamNames lists them, keeping
// the order of a flag given twice: the core's Set reads some values in the
// light of others set before (a latency of 0 clears the spread, which a
// later --latency-sd sets again), as the page's query is read.
func sortParams(set []kv) []kv {
	out := slices.Clone(set)
	slices.SortStableFunc(out, func(a, b kv) int {
		return slices.Index(sim.ParamNames, a.name) - slices.Index(sim.ParamNames, b.name)
	})
	return out
}

// faultForms are the forms of one --fault value.
var faultForms = append([]string{sim.NoFault.String()}, forms(sim.FaultNames()[1:], map[string]string{
	"outage": "outage@START-END", "stall": "stall@START-END", "errors": "errors:F@START-END",
	"slow": "slow:X@START-END", "capacity": "capacity:X@START-END", "crash": "crash@START-END", "flush": "flush@START-END"})...)

// joinFaults makes the repeated --fault flags one value, the list the
// core's "fault" parameter takes (faults separated by ";"), where the
// first was; "none" clears the faults before it.
func joinFaults(set []kv) ([]kv, error) {
	var out []kv
	at := -1
	for _, s := range set {
		if s.name != sim.ParamFault {
			out = append(out, s)
			continue
		}
		if at < 0 {
			at = len(out)
			out = append(out, kv{sim.ParamFault, ""})
		}
		v := strings.TrimSpace(s.value)
		if v == "" {
			// An empty --fault names no fault: refused, never read as none.
			return nil, &backoff.FieldError{Field: sim.ParamFault, Value: "", Code: backoff.CodeFormat, Args: faultForms,
				Allowed: "none or " + strings.Join(faultForms[1:], ", ")}
		}
		switch {
		case v == sim.NoFault.String() || out[at].value == "":
			out[at].value = v
		case out[at].value == sim.NoFault.String():
			out[at].value = v
		default:
			out[at].value += ";" + v
		}
	}
	return out, nil
}

// estimate sets j.calls, the job's estimated work, and refuses a job over
// maxJobCalls before it runs.
func (j *simJob) estimate() error {
	// The rows the job runs: each sweep value, each jitter of a --jitter
	// list (runSweep's cells).
	sw := sim.Sweep{}
	if j.sweep != nil {
		sw = *j.sweep
	}
	rows, err := sw.Cells(j.cfg, j.jitters)
	if err != nil {
		return err
	}
	j.budget = runBudget(len(rows))
	var most float64 // calls per run of the biggest row
	weighted := false
	for i := range rows {
		c := &rows[i].Config
		boundMemory(c, j.budget)
		if err := sim.FitMemory(*c, j.budget); err != nil {
			return err
		}
		n := sim.EstimateCalls(*c)
		if c.RequestLevel() {
			n *= requestCost
			weighted = true
		}
		most = max(most, n)
	}
	// The first run keeps its timeline: its buckets cost time too (the
	// later runs' only totals).
	j.calls = sim.SweepCost(rows, j.runs)
	if j.calls > maxJobCalls {
		return tooMuchWork{calls: j.calls, perRun: most, runs: j.runs, rows: len(rows), weighted: weighted}
	}
	return nil
}

// tooMuchWork is a job estimated to run longer than maxJobCalls allows.
type tooMuchWork struct {
	calls, perRun float64
	runs, rows    int
	weighted      bool // request-level calls counted requestCost times
}

func (e tooMuchWork) Error() string {
	shape := fmt.Sprintf("%s x %s calls per run", plural(e.runs, "run"), backoff.FormatCount(e.perRun))
	if e.rows > 1 {
		shape = fmt.Sprintf("%s x %d rows x up to %s calls per run", plural(e.runs, "run"), e.rows, backoff.FormatCount(e.perRun))
	}
	if e.weighted {
		shape += fmt.Sprintf(", a request-level call counting as %d", requestCost)
		return fmt.Sprintf("job too big: about %s calls estimated (%s), over the limit of %s (about two minutes); "+
			"ask for fewer --runs or sweep values, a lower rate, a shorter --duration, fewer --attempts or callers, or a lower --max-calls",
			backoff.FormatCount(e.calls), shape, backoff.FormatCount(maxJobCalls))
	}
	return fmt.Sprintf("job too big: about %s calls estimated (%s), over the limit of %s (about two minutes); "+
		"ask for fewer --runs, --clients, --attempts or sweep values, a shorter outage or --deadline, or a lower --max-calls",
		backoff.FormatCount(e.calls), shape, backoff.FormatCount(maxJobCalls))
}

func (tooMuchWork) badInput() {}

// fullErr is sim.FullErr with its field named as the flag: the fields it
// names (duration, queue-limit, clients) are all flags of sim, and the
// error reached the user as "duration: ..." where every other says
// "--duration: ...".
func fullErr(c sim.Config, fullAt float64, budget int64) error {
	err := sim.FullErr(c, fullAt, budget)
	if fe, ok := err.(*backoff.FieldError); ok {
		return asFlag(fe)
	}
	return err
}

func runSim(args []string, stdout, stderr io.Writer) int {
	j, err := parseSim(args, stderr)
	if err != nil {
		return exitCode(stderr, err)
	}
	return exitCode(stderr, j.run(stdout, stderr))
}

func (j *simJob) run(stdout, stderr io.Writer) error {
	c := j.cfg
	if j.listScenarios {
		return listScenarios(stdout)
	}
	if j.printTopology {
		_, err := io.WriteString(stdout, c.Topology().String())
		return err
	}
	if j.sweep != nil {
		rows, err := runSweep(c, j.sweep, j.jitters, j.seed, j.runs, j.budget)
		if err != nil {
			return err
		}
		switch j.format {
		case "json":
			return writeSweepJSON(stdout, c, j.sweep, j.seed, j.runs, rows)
		case "csv":
			return writeSweepCSV(stdout, c, j.sweep, rows)
		}
		return writeSweepText(stdout, c, j.sweep, j.seed, j.runs, rows)
	}
	if len(j.jitters) == 1 {
		if err := sim.ApplyJitter(&c, j.jitters[0]); err != nil {
			return err
		}
	}
	boundMemory(&c, j.budget)
	var tr sim.Tracer
	if j.trace != "" {
		f, err := createTrace(j.trace)
		if err != nil {
			return err
		}
		defer f.close()
		tr = f
	}
	s, err := sim.RunManyTraced(c, j.seed, j.runs, tr)
	if err != nil {
		return err
	}
	if f, ok := tr.(*traceFile); ok {
		if err := f.close(); err != nil {
			return err
		}
	}
	if s.First.TruncatedBy == sim.StopMemory {
		return fullErr(c, s.First.FullAt, j.budget)
	}
	if w := time.Duration(math.Round(s.First.BucketWidth * 1e9)); c.Bucket > 0 && w != c.Bucket {
		// The config echoed (JSON's) says what was asked: say what the
		// timeline holds.
		fmt.Fprintf(stderr, "backoff: --bucket %s gives this run more than %d buckets, the most one keeps: the timeline's are %s\n",
			backoff.FormatDuration(c.Bucket), sim.MaxBuckets(c), backoff.FormatDuration(w))
	}
	switch j.format {
	case "json":
		return writeSimJSON(stdout, c, j.seed, s)
	case "csv":
		if s.First.Totals.RequestLevel {
			return writeRequestTimelineCSV(stdout, c, s.First)
		}
		return writeTimelineCSV(stdout, s.First)
	case "svg":
		// The page's herd card picture, drawn by the same code, as a file.
		_, err := io.WriteString(stdout, chart.Standalone(chart.RunImage(i18n.En, c, s.First, chart.SeriesOf(c, s.First)), "light")+"\n")
		return err
	}
	return writeSimText(stdout, j.preset, c, j.seed, s)
}

// takeJitterList removes the --jitter values from the policy flags when
// one of them is a comma list, checks each, and returns them in order.
func takeJitterList(pf *policyFlags) ([]string, error) {
	var list []string
	kept := pf.set[:0:0]
	for _, s := range pf.set {
		if s.name != backoff.ParamJitter || !strings.Contains(s.value, ",") {
			kept = append(kept, s)
			continue
		}
		kinds := append(backoff.JitterNames(), noBackoff)
		bad := &backoff.FieldError{Field: backoff.ParamJitter, Value: clip(s.value),
			Allowed: fmt.Sprintf("one of %s, or a comma list of at most %d of them", strings.Join(kinds, ", "), len(kinds))}
		if strings.Count(s.value, ",") >= len(kinds) {
			return nil, bad
		}
		list = nil
		for _, j := range strings.Split(s.value, ",") {
			j = strings.TrimSpace(j)
			if j != noBackoff {
				var p backoff.Policy
				if err := p.Set(backoff.ParamJitter, j); err != nil {
					return nil, bad
				}
			}
			list = append(list, j)
		}
	}
	pf.set = kept
	return list, nil
}

// sweepRow is one client count (or other value) and jitter kind.
type sweepRow struct {
	Value  string          `json:"value"`
	Jitter string          `json:"jitter"`
	Totals sim.MeanTotals  `json:"totals"`
	SD     *sim.MeanTotals `json:"sd"` // null for one run a row
	// recovery is the first run's Totals.Recovery ("" when it does not
	// apply).
	recovery string
}

func runSweep(c sim.Config, sw *sim.Sweep, jitters []string, seed uint64, runs int, budget int64) ([]sweepRow, error) {
	// The cells, in output order; their configs are made (and checked)
	// before any runs, so an error is the same whatever the core count.
	cells, err := sw.Cells(c, jitters)
	if err != nil {
		return nil, err
	}
	for i := range cells {
		boundMemory(&cells[i].Config, budget)
	}
	// Each cell is an independent seeded simulation (the core stays single
	// threaded and deterministic): the CLI runs them on every core, each
	// into its own slot, so the rows are identical to a serial run and in
	// the same order.
	rows := make([]sweepRow, len(cells))
	errs := make([]error, len(cells))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cells)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s, err := sim.RunMany(cells[i].Config, seed, runs)
				if err == nil && s.First.TruncatedBy == sim.StopMemory {
					err = fmt.Errorf("row %s: %w", cells[i].Value, fullErr(cells[i].Config, s.First.FullAt, budget))
				}
				if err != nil {
					errs[i] = err
					continue
				}
				rows[i] = sweepRow{Value: cells[i].Value, Jitter: cells[i].Jitter, Totals: s.Mean, recovery: s.First.Totals.Recovery}
				if runs > 1 {
					sd := s.SD
					rows[i].SD = &sd
				}
			}
		}()
	}
	for i := range cells {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// configParams is the config as parameter text, for the JSON header.
func configParams(c sim.Config) map[string]string {
	m := map[string]string{}
	for _, n := range sim.ParamNames {
		m[n] = c.Get(n)
	}
	for _, n := range backoff.ParamNames {
		m[n] = c.Get(n)
	}
	return m
}

// writeSimJSON writes one run's document, or the means of several: the
// keys of its model, every one, zero or not (sim.schema.json, checked
// by TestSimJSONSchema).
func writeSimJSON(w io.Writer, c sim.Config, seed uint64, s *sim.Summary) error {
	r := s.First
	out := struct {
		Config map[string]string `json:"config"`
		// Seed is a string of digits (tableJSON's Seed).
		Seed              uint64              `json:"seed,string"`
		Runs              int                 `json:"runs"`
		Totals            any                 `json:"totals"`
		SD                *sim.MeanTotals     `json:"sd"`
		Truncated         bool                `json:"truncated"`
		TruncatedBy       *string             `json:"truncated_by"`
		StoppedAt         *float64            `json:"stopped_at_s"`
		BucketWidth       float64             `json:"bucket_s"`
		CapacityPerBucket float64             `json:"capacity_per_bucket"`
		OutageStart       float64             `json:"outage_start_s"`
		OutageEnd         float64             `json:"outage_end_s"`
		Faults            []faultJSON         `json:"faults"`
		PerClient         []sim.ClientOutcome `json:"per_client"`
		Verdict           *herdVerdictJSON    `json:"verdict,omitempty"`
		Timeline          []sim.Bucket        `json:"timeline"`
	}{Config: configParams(c), Seed: seed, Runs: s.Runs, Totals: r.Totals, Truncated: r.Truncated,
		StoppedAt: r.StoppedAt, Verdict: herdVerdictOf(c, r), Faults: faultsJSON(r.Faults), PerClient: r.PerClient,
		BucketWidth: r.BucketWidth, CapacityPerBucket: r.CapacityPerBucket,
		OutageStart: r.OutageStart, OutageEnd: r.OutageEnd, Timeline: r.Timeline}
	if r.Truncated {
		out.TruncatedBy = &r.TruncatedBy
	}
	if s.Runs > 1 {
		out.Totals, out.SD = s.Mean, &s.SD
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeSweepJSON(w io.Writer, c sim.Config, sw *sim.Sweep, seed uint64, runs int, rows []sweepRow) error {
	out := struct {
		Config map[string]string `json:"config"`
		Seed   uint64            `json:"seed,string"`
		Runs   int               `json:"runs"`
		Sweep  *string           `json:"sweep"` // null: a list of jitter kinds alone
		Rows   []sweepRow        `json:"rows"`
	}{configParams(c), seed, runs, nil, rows}
	if sw.Name != "" {
		out.Sweep = &sw.Name
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', 8, 64) }

func writeTimelineCSV(w io.Writer, r *sim.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"start_s", "calls", "retries", "ok", "rejected", "blocked", "waiting"})
	for _, b := range r.Timeline {
		cw.Write([]string{num(b.Start), strconv.Itoa(b.Calls), strconv.Itoa(b.Retries), strconv.Itoa(b.OK),
			strconv.Itoa(b.Rejected), strconv.Itoa(b.Blocked), strconv.Itoa(b.Waiting)})
	}
	cw.Flush()
	return cw.Error()
}

var sweepColumns = []string{"clients", "calls", "succeeded", "gave_up", "amplification",
	"completion_mean_s", "completion_p50_s", "completion_p95_s", "completion_p99_s", "completion_max_s",
	"makespan_s", "peak_load_ratio", "peak_retry_load_ratio"}

func sweepCells(t sim.MeanTotals) []string {
	q := t.Completion
	return []string{num(t.Clients), num(t.Calls), num(t.Succeeded), num(t.GaveUp), num(t.Amplification),
		num(q.Mean), num(q.P50), num(q.P95), num(q.P99), num(q.Max), num(t.Makespan), num(t.PeakLoadRatio), num(t.PeakRetryLoadRatio)}
}

func writeSweepCSV(w io.Writer, c sim.Config, sw *sim.Sweep, rows []sweepRow) error {
	cw := csv.NewWriter(w)
	head := []string{}
	if sw.Name != "" && sw.Name != sim.ParamClients {
		head = append(head, sw.Name)
	}
	req, chn := anyRequestLevel(rows), c.Server.Traits().Waits == sim.WaitMedium
	head = append(append(head, "jitter"), sweepColumns...)
	if req {
		head = append(head, sweepRequestColumns...)
	}
	if chn {
		head = append(head, "offered_load", "channel_throughput", "collisions")
	}
	cw.Write(head)
	for _, r := range rows {
		cells := []string{}
		if sw.Name != "" && sw.Name != sim.ParamClients {
			cells = append(cells, r.Value)
		}
		cells = append(append(cells, r.Jitter), sweepCells(r.Totals)...)
		if req {
			cells = append(cells, sweepRequestCells(r.Totals)...)
		}
		if chn {
			cells = append(cells, num(r.Totals.OfferedLoad), num(r.Totals.ChannelThroughput), num(r.Totals.Collisions))
		}
		cw.Write(cells)
	}
	cw.Flush()
	return cw.Error()
}

func writeSweepText(w io.Writer, c sim.Config, sw *sim.Sweep, seed uint64, runs int, rows []sweepRow) error {
	desc := describe(c)
	if sw.Name == sim.ParamClients {
		_, desc, _ = strings.Cut(desc, ", ")
		desc = "clients swept, " + desc
	}
	fmt.Fprintf(w, "%s\nseed %d, %s per row\n\n", desc, seed, plural(runs, "run"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if sw.Name != "" && sw.Name != sim.ParamClients {
		fmt.Fprintf(tw, "%s\t", sw.Name)
	}
	req := anyRequestLevel(rows)
	switch {
	case c.Server.Traits().Waits == sim.WaitMedium:
		fmt.Fprintln(tw, "jitter\tframes\ttransmissions\tsent\tdropped\tG\tS\tcollisions\t")
	case req:
		fmt.Fprintln(tw, "jitter\trequests\tcalls\tsucceeded\tgave up\tcalls/request\tgoodput/s\tp99\tp99.9\twasted\trecovered\t")
	default:
		fmt.Fprintln(tw, "jitter\tclients\tcalls\tsucceeded\tgave up\tcalls/client\tmean\tp99\tmakespan\tpeak load\t")
	}
	f := backoff.FormatSeconds
	if !c.Server.Traits().Rated {
		// The blog's abstract time units, passed as seconds one for one.
		f = func(v float64) string { return strconv.FormatFloat(math.Round(v), 'f', 0, 64) }
	}
	for _, r := range rows {
		t := r.Totals
		if sw.Name != "" && sw.Name != sim.ParamClients {
			fmt.Fprintf(tw, "%s\t", r.Value)
		}
		if c.Server.Traits().Waits == sim.WaitMedium {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.4f\t%.4f\t%s\t\n", r.Jitter, num(math.Round(t.Requests*10)/10),
				num(math.Round(t.Calls*10)/10), num(math.Round(t.Succeeded*10)/10), num(math.Round(t.GaveUp*10)/10),
				t.OfferedLoad, t.ChannelThroughput, num(math.Round(t.Collisions*10)/10))
			continue
		}
		if req {
			q := t.Latency
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%.1f\t%s\t%s\t%s\t%s\t\n", r.Jitter, num(math.Round(t.Requests*10)/10),
				num(math.Round(t.Calls*10)/10), num(math.Round(t.Succeeded*10)/10), num(math.Round(t.GaveUp*10)/10),
				t.Amplification, t.GoodputPerS, f(q.P99), f(q.P999), f(t.WastedWork), recoveredText(r, runs))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t\n", r.Jitter, num(t.Clients), num(math.Round(t.Calls*10)/10),
			num(t.Succeeded), num(t.GaveUp), t.Amplification, f(t.Completion.Mean), f(t.Completion.P99), f(t.Makespan), ratio(c, t.PeakLoadRatio))
	}
	return tw.Flush()
}

// stoppedText says when and why a run stopped early (Result.TruncatedBy).
func stoppedText(c sim.Config, r *sim.Result) string {
	at := "?"
	if r.StoppedAt != nil {
		at = backoff.FormatSeconds(*r.StoppedAt)
	}
	of := ""
	if c.Traffic != sim.Closed {
		of = " of " + c.Get(sim.ParamDuration)
	}
	why := r.TruncatedBy
	switch r.TruncatedBy {
	case sim.StopCalls:
		max := c.MaxCalls
		if max == 0 {
			max = sim.DefaultMaxCalls
		}
		why = fmt.Sprintf("--max-calls %d tries were made", max)
	case sim.StopHorizon:
		why = "--horizon " + c.Get(sim.ParamHorizon) + " was reached"
	case sim.StopMemory:
		why = "the run filled its memory"
	}
	return fmt.Sprintf("STOPPED EARLY at %s%s: %s; the figures below cover the run up to then", at, of, why)
}

// unfinishedNote says why requests are unfinished: a run cut short, or
// (open and loop traffic) the end of the window with calls still going.
func unfinishedNote(r *sim.Result) string {
	if r.Truncated {
		return "(still going when the run stopped early: see above)"
	}
	return "(queued or in flight when --duration ended; --drain runs them to their end)"
}

func ratio(c sim.Config, r float64) string {
	if !c.Server.Traits().Rated {
		return "-"
	}
	return fmt.Sprintf("%.2fx", r)
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	if strings.HasSuffix(s, "s") {
		return fmt.Sprintf("%d %ses", n, s) // successes
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// describe is a one-line summary of the scenario.
func describe(c sim.Config) string {
	var sb strings.Builder
	if c.RequestLevel() {
		fmt.Fprintf(&sb, "%s, %s", describeTraffic(c), describeServer(c))
		if c.Server.Traits().Hops { // a channel's stations are on the medium
			fmt.Fprintf(&sb, ", latency %s", c.Get(sim.ParamLatency))
			if c.LatencySD > 0 {
				fmt.Fprintf(&sb, " ± %s", c.Get(sim.ParamLatencySD))
			}
		}
		if more := describeRequests(c); more != "" {
			sb.WriteString(", " + more)
		}
		if c.Budget.Kind != sim.NoBudget {
			fmt.Fprintf(&sb, ", budget %s", c.Get(sim.ParamBudget))
		}
		if c.Breaker.Kind != sim.NoBreaker {
			fmt.Fprintf(&sb, ", breaker %s", c.Get(sim.ParamBreaker))
		}
		return sb.String()
	}
	fmt.Fprintf(&sb, "%d clients, arrival %s, %s", c.Clients, c.Get(sim.ParamArrival), c.Server.Model().Describe(&c))
	fmt.Fprintf(&sb, ", latency %s", c.Get(sim.ParamLatency))
	if c.LatencySD > 0 {
		fmt.Fprintf(&sb, " ± %s", c.Get(sim.ParamLatencySD))
	}
	if c.Budget.Kind != sim.NoBudget {
		fmt.Fprintf(&sb, ", budget %s", c.Get(sim.ParamBudget))
	}
	if c.Breaker.Kind != sim.NoBreaker {
		fmt.Fprintf(&sb, ", breaker %s", c.Get(sim.ParamBreaker))
	}
	if c.RetryAfter > 0 {
		fmt.Fprintf(&sb, ", Retry-After %s", c.Get(sim.ParamRetryAfterS))
		if c.HonorRetryAfter {
			sb.WriteString(" (honoured)")
		}
	}
	return sb.String()
}

func writeSimText(w io.Writer, preset string, c sim.Config, seed uint64, s *sim.Summary) error {
	if preset != "" {
		fmt.Fprintf(w, "preset: %s\n", preset)
	}
	fmt.Fprintf(w, "policy: %s\n", c.Policy.Describe())
	fmt.Fprintf(w, "%s\n", describe(c))
	r := s.First
	if r.Truncated {
		fmt.Fprintf(w, "%s\n", stoppedText(c, r))
	}
	if s.Runs > 1 {
		fmt.Fprintf(w, "%s, seeds %d..%d: mean ± sd\n\n", plural(s.Runs, "run"), seed, seed+uint64(s.Runs)-1)
	} else {
		fmt.Fprintf(w, "seed %d\n\n", seed)
	}
	if r.Totals.RequestLevel {
		writeRequestTotals(w, c, s)
		writeFairness(w, c, s)
		if s.Runs > 1 {
			fmt.Fprintf(w, "\ntimeline of the first run (seed %d):\n", seed)
		} else {
			fmt.Fprintln(w)
		}
		return writeChart(w, r, 72, 10)
	}
	m, sd := s.Mean, s.SD
	f := backoff.FormatSeconds
	pm := func(mean, sd float64, unit func(float64) string) string {
		if s.Runs == 1 {
			return unit(mean)
		}
		return unit(mean) + " ± " + unit(sd)
	}
	count := func(v float64) string { return num(math.Round(v*10) / 10) }
	// Two decimals, or three digits with an exponent for a ratio so large
	// that its decimals would run to hundreds of digits (a capacity near
	// zero).
	two := func(v float64) string {
		if math.Abs(v) >= 1e6 {
			return fmt.Sprintf("%.3g", v)
		}
		return fmt.Sprintf("%.2f", v)
	}
	line := func(label, value, note string) {
		fmt.Fprintf(w, "%-11s %s", label, value)
		if note != "" {
			fmt.Fprintf(w, "  %s", note)
		}
		fmt.Fprintln(w)
	}
	line("calls", pm(m.Calls, sd.Calls, count), "("+pm(m.Amplification, sd.Amplification, two)+" per client)")
	line("succeeded", pm(m.Succeeded, sd.Succeeded, count), fmt.Sprintf("of %d clients", c.Clients))
	line("gave up", pm(m.GaveUp, sd.GaveUp, count), "")
	if m.Unfinished > 0 {
		line("unfinished", pm(m.Unfinished, sd.Unfinished, count), unfinishedNote(r))
	}
	if m.Blocked > 0 {
		line("blocked", pm(m.Blocked, sd.Blocked, count), "(refused by the open breaker)")
	}
	q := m.Completion
	line("completion", fmt.Sprintf("mean %s  p50 %s  p95 %s  p99 %s  max %s", f(q.Mean), f(q.P50), f(q.P95), f(q.P99), f(q.Max)), "")
	line("makespan", pm(m.Makespan, sd.Makespan, f), "(time of the last event)")
	if c.Server.Traits().Rated {
		line("peak load", pm(m.PeakLoadRatio, sd.PeakLoadRatio, two)+" x capacity", "(retries alone "+pm(m.PeakRetryLoadRatio, sd.PeakRetryLoadRatio, two)+")")
	}
	writeFairness(w, c, s)
	if v, ok := sim.HerdVerdictOf(c, r); ok {
		note := ""
		if s.Runs > 1 {
			note = "(the first run)"
		}
		line("verdict", chart.HerdVerdictText(i18n.En, v), note)
	}
	if s.Runs > 1 {
		fmt.Fprintf(w, "\ntimeline of the first run (seed %d):\n", seed)
	} else {
		fmt.Fprintln(w)
	}
	return writeChart(w, r, 72, 10)
}

// herdVerdictJSON is a herd run's verdict in JSON: the sentence and its
// facts (seconds of simulated time; back_s is the outage's end).
// Every key is there; a time that does not apply is null.
type herdVerdictJSON struct {
	Text       string `json:"text"`
	Clients    int    `json:"clients"`
	Succeeded  int    `json:"succeeded"`
	GaveUp     int    `json:"gave_up"`
	Unfinished int    `json:"unfinished"`
	// BackAt is when the outage ended (null: no outage).
	BackAt        *float64 `json:"back_s"`
	LastSuccessAt *float64 `json:"last_success_s"`
	LastGaveUpAt  *float64 `json:"last_gave_up_s"`
	// GaveUpBeforeBack is how long before the server came back the last
	// give-up was: null unless there was an outage and the last client to
	// give up did so before its end (never negative).
	GaveUpBeforeBack *float64 `json:"gave_up_before_back_s"`
}

func herdVerdictOf(c sim.Config, r *sim.Result) *herdVerdictJSON {
	v, ok := sim.HerdVerdictOf(c, r)
	if !ok {
		return nil
	}
	ptr := func(x float64) *float64 { return &x }
	out := &herdVerdictJSON{Text: chart.HerdVerdictText(i18n.En, v), Clients: v.Clients, Succeeded: v.Succeeded,
		GaveUp: v.GaveUp, Unfinished: v.Unfinished}
	if v.Returned {
		out.BackAt = ptr(v.Back)
	}
	if v.Succeeded > 0 {
		out.LastSuccessAt = ptr(v.LastSuccess)
	}
	if v.GaveUp > 0 {
		out.LastGaveUpAt = ptr(v.LastGaveUp)
		if v.Returned && v.LastGaveUp <= v.Back {
			out.GaveUpBeforeBack = ptr(v.Back - v.LastGaveUp)
		}
	}
	return out
}

// writeFairness writes Jain's index and the worst-off client of the first
// run: "fairness   Jain 0.501 (1 = all alike); worst off: client 1, 1
// success in 17 attempts (0.1% of the successes)".
func writeFairness(w io.Writer, c sim.Config, s *sim.Summary) {
	t := s.First.Totals
	if t.Worst == nil {
		return
	}
	o := *t.Worst
	var who string
	switch {
	case c.Traffic == sim.Loop:
		who = fmt.Sprintf("client %d, %s in %s (%.1f%% of the successes)", o.Client, plural(o.Successes, "success"),
			plural(o.Attempts, "attempt"), 100*o.Share)
	case o.GaveUp > 0:
		who = fmt.Sprintf("gave up after %s and %s", plural(o.Attempts, "attempt"), backoff.FormatSeconds(o.Time))
	default:
		who = fmt.Sprintf("succeeded after %s and %s", plural(o.Attempts, "attempt"), backoff.FormatSeconds(o.Time))
	}
	if c.Traffic != sim.Open && c.Traffic != sim.Loop {
		who = fmt.Sprintf("client %d %s", o.Client, who)
	} else if c.Traffic == sim.Open {
		who = "a request that " + who
	}
	of := "of the times to an end"
	if c.Traffic == sim.Loop {
		of = "of the successes per client"
	}
	width := 11 // the herd's labels' column
	if t.RequestLevel {
		width = 12
	}
	fmt.Fprintf(w, "%-*s Jain %.3f %s (1 = all alike); worst off: %s\n", width, "fairness", m3(t.JainFairness, s.Mean.JainFairness, s.Runs), of, who)
}

// m3 is a first run's value, or the mean over runs (the first run's
// worst-off client goes with it).
func m3(first, mean float64, runs int) float64 {
	if runs > 1 {
		return mean
	}
	return first
}

// writeChart draws calls started per column as a bar chart, the capacity
// as a dotted line and the outage under the axis.
func writeChart(w io.Writer, r *sim.Result, width, height int) error {
	n := len(r.Timeline)
	if n == 0 {
		return nil
	}
	per := (n + width - 1) / width // buckets per column
	cols := (n + per - 1) / per
	calls := make([]float64, cols)
	for i, b := range r.Timeline {
		calls[i/per] += float64(b.Calls)
	}
	capCol := r.CapacityPerBucket * float64(per)
	top := capCol * 1.25
	for _, v := range calls {
		top = math.Max(top, v)
	}
	if top == 0 {
		top = 1
	}
	label := fmt.Sprintf("%.0f", top)
	pad := strings.Repeat(" ", len(label))
	capRow := -1
	if capCol > 0 {
		capRow = max(1, int(math.Round(capCol/top*float64(height))))
	}
	var sb strings.Builder
	for row := height; row >= 1; row-- {
		switch row {
		case height:
			sb.WriteString(label)
		default:
			sb.WriteString(pad)
		}
		sb.WriteString(" │")
		lo := top * float64(row-1) / float64(height)
		for _, v := range calls {
			switch {
			case v > lo && v >= top*(float64(row)-0.5)/float64(height):
				sb.WriteString("█")
			case v > lo:
				sb.WriteString("▄")
			case row == capRow:
				sb.WriteString("┈")
			default:
				sb.WriteString(" ")
			}
		}
		if row == capRow {
			sb.WriteString(" capacity")
		}
		sb.WriteString("\n")
	}
	sb.WriteString(pad + " └" + strings.Repeat("─", cols) + "\n")
	if len(r.Faults) > 0 {
		colW := r.BucketWidth * float64(per)
		sb.WriteString(pad + "  ")
		var kinds []string
		for k := range cols {
			s, mark := float64(k)*colW, " "
			for _, f := range r.Faults {
				if s < f.End.Seconds() && s+colW > f.Start.Seconds() {
					mark = "▀"
				}
			}
			sb.WriteString(mark)
		}
		for _, f := range r.Faults {
			if !slices.Contains(kinds, f.Kind.String()) {
				kinds = append(kinds, f.Kind.String())
			}
		}
		sb.WriteString(" " + strings.Join(kinds, ", ") + "\n")
	} else if r.OutageEnd > r.OutageStart {
		colW := r.BucketWidth * float64(per)
		sb.WriteString(pad + "  ")
		for k := range cols {
			if s := float64(k) * colW; s < r.OutageEnd && s+colW > r.OutageStart {
				sb.WriteString("▀")
			} else {
				sb.WriteString(" ")
			}
		}
		sb.WriteString(" outage\n")
	}
	end := backoff.FormatSeconds(float64(cols*per) * r.BucketWidth)
	gap := max(1, cols-len(end)-1)
	fmt.Fprintf(&sb, "%s  0%s%s\n", pad, strings.Repeat(" ", gap), end)
	fmt.Fprintf(&sb, "%s  calls started per %s\n", pad, backoff.FormatSeconds(r.BucketWidth*float64(per)))
	_, err := io.WriteString(w, sb.String())
	return err
}
