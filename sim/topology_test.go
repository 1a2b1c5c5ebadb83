//go:build !wasm

// The document reader is not in the WebAssembly build (topology_yaml.go).

package sim

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// issueExample is the topology the CLI's docs show: a p2c balancer over
// three queue servers, b crashing from 10 s to 15 s.
const issueExample = `traffic: open:150
duration: 30s
timeout: 1s
nodes:
  lb: {kind: balancer, rule: p2c, to: [a, b, c]}
  a: {kind: server, model: queue, workers: 5, service: 100ms}
  b: {kind: server, model: queue, workers: 5, service: 100ms}
  c: {kind: server, model: queue, workers: 5, service: 100ms}
faults:
  - crash@10s-15s/b
`

// The example is a fleet of three with the crash on server 2, and it is
// the shorthand's config with its node names kept.
func TestTopologyExample(t *testing.T) {
	tp, err := ParseTopology(issueExample)
	if err != nil {
		t.Fatal(err)
	}
	if got := tp.String(); got != issueExample {
		t.Errorf("canonical form:\n%s\nwant the document as written:\n%s", got, issueExample)
	}
	got, err := tp.Config(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	for _, kv := range [][2]string{{"traffic", "open:150"}, {"duration", "30s"}, {"timeout", "1s"}, {"server", "queue"},
		{"servers", "3"}, {"balance", "p2c"}, {"concurrency", "5"}, {"service", "100ms"}, {"fault", "crash@10s-15s/2"}} {
		if err := want.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want.Names = "lb,a,b,c"
	if got != want {
		t.Errorf("lowered:\n%+v\nwant\n%+v", got, want)
	}
	if n := got.ServerNodeNames(); strings.Join(n, ",") != "a,b,c" {
		t.Errorf("server names %v", n)
	}
	// Back to a document: the same text, names and all.
	// Back to a document: the same, names and all, but for the service
	// time, the default, which a printed topology leaves out.
	if s := got.Topology().String(); s != strings.ReplaceAll(issueExample, ", service: 100ms", "") {
		t.Errorf("Config.Topology:\n%s\nwant\n%s", s, issueExample)
	}
}

// A balancer in front of one server balances nothing: the run is one
// server, named as the document names it, and its names fit the run's
// nodes (a fuzzed link, a balancer A to a server b, kept "A,b" for one
// node, which the page's link then dropped).
func TestTopologyBalancerOfOne(t *testing.T) {
	tp, err := ParseTopology("nodes:\n  A: {kind: balancer, to: [b]}\n  b: {kind: server}\n")
	if err != nil {
		t.Fatal(err)
	}
	c, err := tp.Config(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if c.Servers != 1 || c.Names != "b" || !slices.Equal(c.NodeNames(), []string{"b"}) {
		t.Errorf("servers %d, names %q, node names %v; want one server named b", c.Servers, c.Names, c.NodeNames())
	}
}

// Errors name the node, the key, the value and what is allowed, with the
// document's line.
// topologyErrorCase is a document that does not run, the field and
// line its error names and (when given) its whole message.
type topologyErrorCase struct {
	doc, field string
	line       int
	msg        string
}

// topologyErrorCases are TestTopologyErrors' documents.
func topologyErrorCases() []topologyErrorCase {
	node := func(lines ...string) string { return "nodes:\n" + strings.Join(lines, "\n") + "\n" }
	return []topologyErrorCase{
		{node("  a: {kind: server, workers: 0}"), "nodes.a.workers", 2,
			`topology: line 2: node a: workers: "0" is not valid: want a whole number from 1 to 1000000`},
		{"nodes:\n  a:\n    kind: server\n    model: queue\n    service: -1s\n", "nodes.a.service", 5,
			`topology: line 5: node a: service: "-1s" is not valid: want a duration such as 250ms, 1.5s or 2m, from 0s to 1h`},
		{node("  a: {kind: queue}"), "nodes.a.kind", 2,
			`topology: line 2: node a: kind: "queue" is not valid: want one of balancer, cache, server, service`},
		{node("  app: {kind: cache, miss: db, keys: 0}", "  db: {kind: server}"), "nodes.app.keys", 2,
			`topology: line 2: node app: keys: "0" is not valid: want a whole number from 1 to 1000000`},
		{node("  app: {kind: cache, miss: db, ttl: 0s}", "  db: {kind: server}"), "nodes.app.ttl", 2,
			`topology: line 2: node app: ttl: "0s" is not valid: want a duration above 0s and at most 8760h`},
		{node("  app: {kind: cache, miss: db, start: hot}", "  db: {kind: server}"), "nodes.app.start", 2,
			`topology: line 2: node app: start: "hot" is not valid: want one of cold, warm`},
		{node("  app: {kind: cache, miss: db, zipf: 11}", "  db: {kind: server}"), "nodes.app.zipf", 2,
			`topology: line 2: node app: zipf: "11" is not valid: want a number from 0 to 10`},
		{node("  app: {kind: cache, miss: [a, b]}", "  a: {kind: server}", "  b: {kind: server}"), "nodes.app.miss", 2, ""},
		{node("  app: {kind: cache, miss: nope}", "  db: {kind: server}") + "entry: app\n", "nodes.app.miss", 2, ""},
		{node("  app: {kind: cache, miss: app2}", "  app2: {kind: cache, miss: db}", "  db: {kind: server}"), "nodes.app.miss", 2, ""},
		{node("  db: {kind: server}") + "faults:\n  - flush@30s-30s/db\n", "faults", 4, ""},
		{node("  app: {kind: cache, miss: db}", "  db: {kind: server}") + "faults:\n  - flush@30s-30s/db\n", "faults", 5, ""},
		{node("  app: {kind: cache, miss: db}", "  db: {kind: server}") + "faults:\n  - stall@30s-40s/app\n", "faults", 5, ""},
		{node("  a: {kind: server, model: queue, capacity: 5}"), "nodes.a.capacity", 2,
			`topology: line 2: node a: capacity: "5" is not valid: want a key the queue model reads: model, workers, service, service-dist, queue-limit, discipline, admission, drop-expired, error-rate, retry-after-s`},
		{node("  a: {kind: server, size: 5}"), "nodes.a.size", 2,
			`topology: line 2: node a: size: "size" is not valid: want a key of a server node: model, workers, capacity, capacity-window, outage-start, outage-end, collapse-factor, collapse-window, service, service-dist, queue-limit, discipline, admission, drop-expired, channel, frame, slot, gate-open, error-rate, retry-after-s`},
		{node("  lb: {kind: balancer, to: [a, b]}", "  a: {kind: server, model: queue}", "  b: {kind: server, model: capacity}"), "nodes.b.model", 4,
			`topology: line 4: node b: model: "capacity" is not valid: want queue as node a has: a balancer's servers share their model and what their callers read`},
		{node("  lb: {kind: balancer, to: [a, x]}", "  a: {kind: server}"), "nodes.lb.to", 2,
			`topology: line 2: node lb: to: "x" is not valid: want one of the nodes: lb, a`},
		{node("  up: {kind: service, to: lb}", "  lb: {kind: balancer, to: [a, up]}", "  a: {kind: server}") + "entry: up\n", "nodes.lb.to", 3,
			`topology: line 3: node lb: to: "up" is not valid: want a graph the engine runs: the clients call one server, or a balancer over servers of one model and the same keys, optionally through a cache in front of them and a chain of services above (each calling the next), every node called once (a balancer's nodes are servers, each once; node up is a service)`},
		// The walk's order: a cache calls what comes after it in the
		// engine's shape, a service may call a service, calls never go
		// round, and a chain is at most MaxLayers-1 services long.
		{node("  app: {kind: cache, miss: up}", "  up: {kind: service, to: db}", "  db: {kind: server}") + "entry: app\n", "nodes.app.miss", 2,
			`topology: line 2: node app: miss: "up" is not valid: want a graph the engine runs: the clients call one server, or a balancer over servers of one model and the same keys, optionally through a cache in front of them and a chain of services above (each calling the next), every node called once (a cache calls a balancer or a server; node up is a service)`},
		{node("  x: {kind: service, to: y}", "  y: {kind: service, to: x}") + "entry: x\n", "nodes.y.to", 3,
			`topology: line 3: node y: to: "x" is not valid: want a graph the engine runs: the clients call one server, or a balancer over servers of one model and the same keys, optionally through a cache in front of them and a chain of services above (each calling the next), every node called once (the calls go round in a circle)`},
		{node("  s1: {kind: service, to: s2}", "  s2: {kind: service, to: s3}", "  s3: {kind: service, to: s4}", "  s4: {kind: service, to: s5}",
			"  s5: {kind: service, to: s6}", "  s6: {kind: service, to: s7}", "  s7: {kind: service, to: s8}", "  s8: {kind: service, to: db}", "  db: {kind: server}"), "nodes.s7.to", 8,
			`topology: line 8: node s7: to: "s8" is not valid: want a graph the engine runs: the clients call one server, or a balancer over servers of one model and the same keys, optionally through a cache in front of them and a chain of services above (each calling the next), every node called once (at most 7 services in a chain)`},
		{node("  a: {kind: server}", "  b: {kind: server}"), "entry", 1,
			`topology: line 1: entry: "" is not valid: want the node the clients call (entry:), one of a, b`},
		{node("  a: {kind: server}") + "faults: [crash@1s-2s/z]\n", "faults", 3,
			`topology: line 3: faults: "crash@1s-2s/z" is not valid: want KIND[:ARG]@START-END[/NODE,...] with each NODE a server: a`},
		{node("  a: {kind: server}") + "faults: [bang@1s-2s]\n", "faults", 3, ""},
		{"attempts: 3\n" + node("  a: {kind: server}"), "topology", 1,
			`topology: line 1: topology: "attempts" is not valid: want a simulator parameter (clients, arrival, latency, latency-sd, honor-retry-after, budget, breaker, bucket, horizon, max-calls, traffic, duration, drain, timeout, budget-scope, hedge, hedge-cancel, propagate-deadline) or retry, nodes, faults, entry (attempts is the clients' policy: put it under retry:)`},
		{"retry: {attempts: -1}\n" + node("  a: {kind: server}"), "retry.attempts", 1, ""},
		{"traffic: open:150\nclients: 0\n" + node("  a: {kind: server}"), "clients", 2, ""},
		{"nodes: [a]\n", "nodes", 1, ""},
		{"nodes:\n  a: {kind: server}\n  a: {kind: server}\n", "nodes", 3, ""},
		{"nodes:\n  a.b: {kind: server}\n", "nodes", 2, ""},
		{"a: [\n", "topology", 1, ""},
		{node("  a: {kind: server, model: queue}") + "timeout: 1s\ntraffic: open:10\nduration: 1s\n" + "x: &x [*x]\n", "topology", 6, ""},
	}
}

func TestTopologyErrors(t *testing.T) {
	for _, tc := range topologyErrorCases() {
		tp, err := ParseTopology(tc.doc)
		if err == nil {
			_, err = tp.Config(DefaultConfig())
		}
		var fe *backoff.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v, want a FieldError", tc.doc, err)
			continue
		}
		if fe.Field != tc.field || fe.Line != tc.line || (tc.msg != "" && fe.Error() != tc.msg) {
			t.Errorf("%q:\n got %s (field %s, line %d)\nwant %s (field %s, line %d)", tc.doc, fe, fe.Field, fe.Line, tc.msg, tc.field, tc.line)
		}
	}
}

// A YAML alias bomb is refused after maxTopologyValues values, not
// expanded.
func TestTopologyAliasBomb(t *testing.T) {
	doc := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for k := 'b'; k <= 'j'; k++ {
		doc += string(k) + ": &" + string(k) + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = string(k)
	}
	doc += "nodes:\n  s: {kind: server, to: *j}\n"
	_, err := ParseTopology(doc)
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || (fe.Code != backoff.CodeTooLong && fe.Code != backoff.CodeUnknown && fe.Code != backoff.CodeFormat) {
		t.Fatalf("alias bomb: %v", err)
	}
	if _, err := ParseTopology(strings.Repeat("#", MaxTopologyBytes+1)); err == nil {
		t.Error("a text over MaxTopologyBytes was read")
	}
}

// --set overrides one key of one node, checked as the document's are.
func TestTopologySetKey(t *testing.T) {
	tp, err := ParseTopology(issueExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		if err := tp.SetKey(n, "workers", "7"); err != nil {
			t.Fatal(err)
		}
	}
	c, err := tp.Config(DefaultConfig())
	if err != nil || c.Concurrency != 7 {
		t.Fatalf("workers 7: %d, %v", c.Concurrency, err)
	}
	for _, tc := range []struct{ node, key, value, msg string }{
		{"a", "workers", "0", `nodes.a.workers: "0" is not valid: want a whole number from 1 to 1000000`},
		{"z", "workers", "1", `set: "z.workers=1" is not valid: want NODE.KEY=VALUE with NODE one of lb, a, b, c`},
		{"lb", "rule", "best", `nodes.lb.rule: "best" is not valid: want one of round-robin, random, least, p2c`},
		{"lb", "kind", "server", `nodes.lb.kind: "server" is not valid: want a key of its kind (the kind itself is the document's)`},
	} {
		err := tp.SetKey(tc.node, tc.key, tc.value)
		if err == nil || err.Error() != tc.msg {
			t.Errorf("--set %s.%s=%s: %v, want %s", tc.node, tc.key, tc.value, err, tc.msg)
		}
	}
}

// The shorthand and its topology run alike: for random configs of every
// shape (one server of any model, a fleet, a chain, a channel), the
// printed topology, parsed and lowered onto the default config, gives
// the same result, byte for byte; lowering is a fixed point (printing
// the lowered config gives the same document).
func TestTopologyRunsAsShorthand(t *testing.T) {
	n := 300
	if testing.Short() || runtime.GOARCH == "wasm" {
		n = 60
	}
	rng := rand.New(rand.NewPCG(26, 1))
	valid, shapes := 0, map[string]int{}
	for i := 0; valid < n && i < 20*n; i++ {
		var c Config
		if i%4 == 0 {
			c, _ = randomHerdConfig(rng)
		} else {
			c, _ = randomConfig(rng)
			if c.Layers > 1 && rng.IntN(2) == 0 {
				_ = c.Set("layer-attempts", []string{"2,3,1", "4,1,2", "1,2,3"}[rng.IntN(3)][:2*c.Layers-1])
			}
		}
		if c.Validate() != nil {
			continue
		}
		valid++
		shapes[topoShape(&c)]++
		if c.CacheKeys > 0 {
			shapes["cache"]++
		}
		doc := c.Topology().String()
		tp, err := ParseTopology(doc)
		if err != nil {
			t.Fatalf("config %d: printed topology does not parse: %v\n%s", i, err, doc)
		}
		back, err := tp.Config(DefaultConfig())
		if err != nil {
			t.Fatalf("config %d: printed topology does not lower: %v\n%s", i, err, doc)
		}
		if again := back.Topology().String(); again != doc {
			t.Fatalf("config %d: not a fixed point:\n%s\nthen\n%s", i, doc, again)
		}
		seed := uint64(i)
		r1, err1 := Run(c, seed)
		r2, err2 := Run(back, seed)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("config %d: errors %v, %v", i, err1, err2)
		}
		if err1 != nil {
			continue
		}
		j1, _ := json.Marshal(r1)
		j2, _ := json.Marshal(r2)
		if string(j1) != string(j2) {
			t.Fatalf("config %d: the topology's run differs from the shorthand's\n%s\n%+v\n%+v", i, doc, c, back)
		}
	}
	if valid < n {
		t.Fatalf("%d valid configs", valid)
	}
	for _, s := range []string{"server", "fleet", "chain", "channel", "cache"} {
		if shapes[s] < n/20 {
			t.Errorf("%d configs of shape %s in %d: %v", shapes[s], s, n, shapes)
		}
	}
	t.Logf("%d configs: %v", n, shapes)
}

func topoShape(c *Config) string {
	switch {
	case c.Layers > 1:
		return "chain"
	case c.Servers > 1:
		return "fleet"
	case c.Server == Channel:
		return "channel"
	}
	return "server"
}

// topologySeeds are the fuzz targets' seeds: documents that once broke
// a reader of this kind.
var topologySeeds = []string{
	issueExample,
	"nodes:\n  a: {kind: server, model: channel, channel: ethernet}\nfaults: [outage@1s-2s/a]\n",
	"retry: {attempts: 3, jitter: full}\nnodes:\n  l: {kind: service, to: x, retry: {attempts: 2}, timeout: 1s}\n  x: {kind: server}\n",
	"nodes:\n  a: &s {kind: server}\n  b: *s\n  lb: {kind: balancer, to: [a, b]}\nentry: lb\n",
	"a: &a [x, x]\nb: [*a, *a]\n",
	`{"nodes": {"a": {"kind": "server", "workers": "3"}}}`,
	"nodes:\n  app: {kind: cache, miss: [db], keys: 10000, ttl: 1m, start: warm, zipf: 0.9}\n  db: {kind: server, model: queue, workers: 30}\nfaults:\n  - flush@30s-30s/app\n",
}

// Parsing reads its own canonical form back to the same form, and
// nothing panics or runs long; the seeds are documents that once broke
// a reader of this kind.
func FuzzParseTopology(f *testing.F) {
	for _, d := range topologySeeds {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		tp, err := ParseTopology(doc)
		if err != nil {
			var fe *backoff.FieldError
			if !errors.As(err, &fe) || fe.Line < 1 && fe.Field != "topology" {
				t.Fatalf("error %v: want a FieldError with a line", err)
			}
			return
		}
		s := tp.String()
		tp2, err := ParseTopology(s)
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\n%s", err, s)
		}
		if s2 := tp2.String(); s2 != s {
			t.Fatalf("canonical form changes:\n%s\nthen\n%s", s, s2)
		}
		if c, err := tp.Config(DefaultConfig()); err == nil {
			if err := c.Validate(); err != nil {
				t.Fatalf("lowered config invalid: %v", err)
			}
		}
	})
}
