package sim

import (
	"net/url"
	"slices"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// Scenario is a named setup, one click away on the page (?scenario=NAME)
// and one flag away in the CLI (backoff sim --scenario NAME): its
// parameters as a query of the page's keys (Config.Set's and Policy.Set's
// names, and preset for a policy preset). The catalog has
// "scenario.NAME" (its title) and "scenario.NAME-long" (what to look
// at), and "scenario.group-GROUP" for its row.
type Scenario struct {
	Name, Group, Query string
	// Names are its nodes' names, as Config.Names ("" for the
	// shorthand's: server; lb, s1..sN; ...), which the CLI gives its
	// topology (--set NODE.KEY=VALUE, --print-topology). Config leaves
	// them out: they are labels, not what runs, and a page's link does
	// not carry them.
	Names string
}

// scenarios are the built-in ones, in the order the page shows them.
var scenarios = []Scenario{
	// Bronson et al. (HotOS 2021): a server of 30 workers x 10 calls/s,
	// 200 requests/s (2/3 of capacity), one retry after a 1 s timeout, a
	// 10 s stall: the calls the stall timed out come back with the new
	// ones, the queue never drains, and goodput stays near zero.
	{"metastable", "traffic", "attempts=2&traffic=open:200&duration=2m&server=queue&concurrency=30&service=100ms&timeout=1s&fault=stall@20s-30s", ""},
	// The same with the AWS SDK's retry quota: retries stop when the
	// bucket is empty, and the server recovers about 18 s after the stall.
	{"metastable-budget", "traffic", "attempts=2&traffic=open:200&duration=2m&server=queue&concurrency=30&service=100ms&timeout=1s&fault=stall@20s-30s&budget=tokens:500:5:1", ""},
	// Dean and Barroso, "The Tail at Scale" (2013): a second copy after
	// the p95 adds about 5% load and cuts the p99.9.
	{"hedge", "traffic", "attempts=1&traffic=open:200&duration=1m&server=queue&concurrency=100&service=10ms&service-dist=lognormal:1.5&latency=1ms&latency-sd=0&hedge=p95&hedge-cancel=true", ""},
	// Brooker, "Open and Closed, Omission and Collapse" (2023): utilisation
	// 0.8 with calls of 0.1 ms, or 10 ms one time in a thousand; Poisson
	// arrivals queue behind the slow calls, one looping caller never does.
	{"open", "traffic", "attempts=1&traffic=open:7280&duration=20s&server=queue&concurrency=1&service=100us&service-dist=bimodal:0.001:10ms&latency=0s&latency-sd=0s", ""},
	{"closed", "traffic", "attempts=1&traffic=loop:1:27.5us&duration=20s&server=queue&concurrency=1&service=100us&service-dist=bimodal:0.001:10ms&latency=0s&latency-sd=0s", ""},
	// The Amazon Builders' Library: five layers of three attempts over a
	// bottom that always fails make 3^5 = 243 calls at it per request;
	// retrying at the top only, 3.
	{"chain", "chains", "clients=100&server=capacity&capacity=1000000&error-rate=1&layers=5&layer-attempts=3", ""},
	{"chain-top", "chains", "clients=100&server=capacity&capacity=1000000&error-rate=1&layers=5&layer-attempts=3&retry-at=top", ""},
	// ALOHA at G = 0.5 and slotted ALOHA at G = 1, each frame sent once:
	// their best throughputs, 1/(2e) and 1/e.
	{"aloha", "chains", "attempts=1&server=channel&channel=aloha&frame=1ms&traffic=open:500&duration=20s", ""},
	{"slotted", "chains", "attempts=1&server=channel&channel=slotted&frame=1ms&traffic=open:1000&duration=20s", ""},
	// Sixteen saturated stations, frames of 85 slots (Metcalfe and Boggs's
	// long frames), 802.3's backoff.
	{"ethernet", "chains", "preset=ethernet&server=channel&channel=ethernet&frame=4352us&slot=51.2us&traffic=loop:16&duration=2s", ""},
	// Two servers of 50 calls/s behind a balancer, 70 requests/s, a 1 s
	// timeout and 3 immediate retries; server 1 crashes from 5 s to 10 s.
	// Round-robin: the crash's fast failures retry onto server 2, which
	// falls behind, times out, and the storm keeps both down after the
	// crash. Least outstanding: the crashed server, failing fast, draws
	// the calls, and the fleet recovers when it comes back.
	{"fleet-crash", "fleet", "attempts=4&growth=none&jitter=none&traffic=open:70&duration=1m&servers=2&server=queue&concurrency=5&service=100ms&service-dist=fixed&timeout=1s&fault=crash@5s-10s/1", ""},
	{"fleet-least", "fleet", "attempts=4&growth=none&jitter=none&traffic=open:70&duration=1m&servers=2&balance=least&server=queue&concurrency=5&service=100ms&service-dist=fixed&timeout=1s&fault=crash@5s-10s/1", ""},
	// The article's two clients: the capture effect.
	{"two-clients", "chains", "preset=ethernet&server=channel&channel=ethernet&frame=51.2us&slot=51.2us&traffic=loop:2&duration=100ms", ""},
	// Bronson et al. (HotOS 2021), the look-aside cache: 1000 requests/s
	// over 10,000 keys stored for 60 s let at most 10,000/60 = 167
	// misses/s through to a database of 30 workers x 100 ms (300
	// calls/s); a flush at 30 s sends all 1000/s there. With FIFO the
	// queue then holds more than the 1 s timeout's worth of work, every
	// answer comes back late and stores nothing, and the cache never
	// warms again (TestCacheFlush holds the figures).
	{"cache-flush", "cache", "attempts=1&traffic=open:1000&duration=2m&server=queue&concurrency=30&service=100ms&timeout=1s&fault=flush@30s-30s&cache-keys=10000&cache-ttl=1m&cache-start=warm", "app,db"},
}

// ScenarioPreset is the query key of a scenario's policy preset.
const ScenarioPreset = "preset"

// Scenarios lists the built-in scenarios. The slice is a copy.
func Scenarios() []Scenario { return slices.Clone(scenarios) }

// LookupScenario is the scenario called name; the error, a
// *backoff.FieldError, lists the names.
func LookupScenario(name string) (Scenario, error) {
	for _, s := range scenarios {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(scenarios))
	for i, s := range scenarios {
		names[i] = s.Name
	}
	return Scenario{}, &backoff.FieldError{Field: "scenario", Value: clip(name), Code: backoff.CodeUnknown, Args: names,
		Allowed: "one of " + strings.Join(names, ", ")}
}

// Config is the scenario's config: DefaultConfig with its preset's
// policy, then its policy's and the simulator's parameters in the order
// their name lists give (as the CLI and the page apply them).
func (s Scenario) Config() (Config, error) {
	c := DefaultConfig()
	q, err := url.ParseQuery(s.Query)
	if err != nil {
		return c, err
	}
	if p := q.Get(ScenarioPreset); p != "" {
		pr, err := backoff.LookupPreset(p)
		if err != nil {
			return c, err
		}
		c.Policy = pr.Policy
	}
	for _, names := range [][]string{backoff.ParamNames, ParamNames} {
		for _, n := range names {
			if v, ok := q[n]; ok {
				if err := c.Set(n, v[0]); err != nil {
					return c, err
				}
			}
		}
	}
	return c, c.Validate()
}
