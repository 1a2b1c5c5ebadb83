package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

const fleetTopology = `traffic: open:150
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

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutConfig is a sim JSON document without its config block, which
// echoes parameters the run does not read (a printed topology leaves
// them out).
func withoutConfig(t *testing.T, doc string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("%v:\n%s", err, doc)
	}
	delete(m, "config")
	b, _ := json.Marshal(m)
	return withoutNodeNames(string(b))
}

// nodeName is a node's name in per_node.
var nodeName = regexp.MustCompile(`"name":\s*"[^"]*",(\s*)"kind"`)

// withoutNodeNames is a sim JSON document with its nodes' names blanked:
// a topology names its nodes, the shorthand gives them default names, and
// the rest of the bytes are the same.
func withoutNodeNames(doc string) string {
	return nodeName.ReplaceAllString(doc, `"name":"",${1}"kind"`)
}

// The documented topology runs as written: a fleet of three behind p2c,
// the crash on the second server, the servers labelled by their names;
// its results are the shorthand's, byte for byte.
func TestSimTopologyFile(t *testing.T) {
	f := writeFile(t, "fleet.yaml", fleetTopology)
	code, out, errs := simRun(t, "--topology", f, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, short, _ := simRun(t, "--traffic", "open:150", "--duration", "30s", "--timeout", "1s", "--server", "queue", "--servers", "3",
		"--balance", "p2c", "--concurrency", "5", "--service", "100ms", "--fault", "crash@10s-15s/2", "--format", "json")
	if a, b := withoutConfig(t, out), withoutConfig(t, short); a != b {
		t.Errorf("topology and shorthand differ:\n%s\n%s", a, b)
	}
	// per_node: the balancer passes on every call; only b's crash
	// refused calls while down and lost calls in service.
	var doc struct {
		Totals struct {
			Calls   int
			PerNode []map[string]any `json:"per_node"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range doc.Totals.PerNode {
		names = append(names, n["name"].(string)+":"+n["kind"].(string))
		down := n["outage"] != nil && (n["outage"].(float64) > 0 || n["lost"].(float64) > 0)
		if down != (n["name"] == "b") {
			t.Errorf("node %v: outage %v lost %v", n["name"], n["outage"], n["lost"])
		}
	}
	if got := strings.Join(names, " "); got != "lb:balancer a:server b:server c:server" ||
		doc.Totals.PerNode[0]["calls"].(float64) != float64(doc.Totals.Calls) {
		t.Errorf("per_node %s, %v calls of %d", got, doc.Totals.PerNode[0]["calls"], doc.Totals.Calls)
	}
	_, text, _ := simRun(t, "--topology", f)
	for _, want := range []string{"3 servers behind p2c", "\n             a    ", "\n             b    ", "\n             c    "} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// --set changes one node: b alone has 4 workers, the shorthand's
	// --per-server 2:concurrency=4, byte for byte; a server of another
	// model is refused.
	code, one, errs := simRun(t, "--topology", f, "--set", "b.workers=4", "--format", "json")
	_, short4, _ := simRun(t, "--traffic", "open:150", "--duration", "30s", "--timeout", "1s", "--server", "queue", "--servers", "3",
		"--balance", "p2c", "--concurrency", "5", "--service", "100ms", "--fault", "crash@10s-15s/2", "--per-server", "2:concurrency=4", "--format", "json")
	if code != 0 || withoutConfig(t, one) != withoutConfig(t, short4) || withoutConfig(t, one) == withoutConfig(t, out) {
		t.Errorf("--set b.workers=4: exit %d %s: differs from --per-server 2:concurrency=4, or from the fleet alike", code, errs)
	}
	code, _, errs = simRun(t, "--topology", f, "--set", "b.model=capacity")
	if want := "backoff: " + f + `: topology: line 7: node b: model: "capacity" is not valid: want queue as node a has: a balancer's servers share their model and what their callers read` + "\n"; code != 2 || errs != want {
		t.Errorf("--set b.model=capacity: exit %d\n%s\nwant\n%s", code, errs, want)
	}
	_, a, _ := simRun(t, "--topology", f, "--set", "a.workers=6", "--set", "b.workers=6", "--set", "c.workers=6", "--format", "json")
	_, b, _ := simRun(t, "--topology", f, "--set", "a.workers=6", "--set", "b.workers=6", "--set", "c.workers=6", "--format", "json")
	if a != b || !strings.Contains(a, `"concurrency": "6"`) {
		t.Errorf("--set workers=6 on every server: %.300s", a)
	}
}

// Bad documents and flags are refused naming the node, the key, the
// value, what is allowed and the line.
func TestSimTopologyErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", "nodes:\n  db: {kind: server, model: queue}\n  app: {kind: cache, miss: db, ttl: -1s}\n")
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--topology", bad}, "backoff: " + bad + `: topology: line 3: node app: ttl: "-1s" is not valid: want a duration such as 250ms, 1.5s or 2m, from 0s to 8760h`},
		{[]string{"--topology", dir}, "backoff: " + dir + ": not a regular file"},
		{[]string{"--topology", filepath.Join(dir, "none.yaml")}, "backoff: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{[]string{"--set", "server.workers"}, `backoff: --set: "server.workers" is not valid: want NODE.KEY=VALUE, such as db.workers=60 or layer1.retry.attempts=2`},
		{[]string{"--set", "s9.workers=3"}, `backoff: --set: "s9.workers=3" is not valid: want NODE.KEY=VALUE with NODE one of server`},
		{[]string{"--server", "queue", "--set", "server.workers=0"}, `backoff: nodes.server.workers: "0" is not valid: want a whole number from 1 to 1000000`},
		{[]string{"--scenario", "nope"}, `backoff: --scenario: "nope" is not valid: want one of metastable, metastable-budget, hedge, open, closed, chain, chain-top, aloha, slotted, ethernet, fleet-crash, fleet-least, two-clients, cache-flush`},
		{[]string{"--scenario", "chain", "--topology", bad}, `backoff: --scenario: "chain" is not valid: want --scenario or --topology, not both`},
	} {
		code, _, errs := simRun(t, tc.args...)
		want := 2 // bad input; a file that cannot be read: 1
		if strings.Contains(tc.want, "regular") || strings.Contains(tc.want, "no such") {
			want = 1
		}
		if first, _, _ := strings.Cut(errs, "\n"); code != want || first != tc.want {
			t.Errorf("%v: exit %d\n%s\nwant\n%s", tc.args, code, first, tc.want)
		}
	}
	big := writeFile(t, "big.yaml", strings.Repeat("#", sim.MaxTopologyBytes+10))
	if code, _, errs := simRun(t, "--topology", big); code != 2 || !strings.Contains(errs, "at most 65536 bytes") {
		t.Errorf("a big file: exit %d %s", code, errs)
	}
}

// --scenario NAME runs the page's scenario: the same bytes as its query
// given as flags; --scenario list names them all.
func TestSimScenario(t *testing.T) {
	code, out, _ := simRun(t, "--scenario", "list")
	if code != 0 || strings.Count(out, "\n") != len(sim.Scenarios()) || !strings.HasPrefix(out, "metastable         traffic  attempts=2&") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	for _, name := range []string{"fleet-crash", "fleet-least", "chain-top", "cache-flush"} {
		sc, _ := sim.LookupScenario(name)
		q, _ := url.ParseQuery(sc.Query)
		args := []string{"--format", "json"}
		for _, n := range append(append([]string{"preset"}, backoff.ParamNames...), sim.ParamNames...) {
			if v, ok := q[n]; ok {
				args = append(args, "--"+n, v[0])
			}
		}
		_, want, _ := simRun(t, args...)
		code, got, errs := simRun(t, "--scenario", name, "--format", "json")
		if code != 0 || withoutNodeNames(got) != withoutNodeNames(want) {
			t.Errorf("%s: exit %d %s: differs from %v", name, code, errs, args)
		}
	}
	// cache-flush's nodes are app (the cache) and db: its printed
	// topology says so and runs back the same, and --set db.KEY is the
	// database's flag.
	code, doc, errs := simRun(t, "--scenario", "cache-flush", "--print-topology")
	if code != 0 || !strings.Contains(doc, "  app: {kind: cache, miss: [db], keys: 10000, ttl: 1m, start: warm}\n") ||
		!strings.Contains(doc, "  db: {kind: server, model: queue, workers: 30}\n") || !strings.Contains(doc, "  - flush@30s-30s/app\n") {
		t.Errorf("cache-flush --print-topology: exit %d %s\n%s", code, errs, doc)
	}
	f := writeFile(t, "cache-flush.yaml", doc)
	_, want, _ := simRun(t, "--scenario", "cache-flush", "--format", "json")
	_, got, _ := simRun(t, "--topology", f, "--format", "json")
	if withoutConfig(t, got) != withoutConfig(t, want) || !strings.Contains(got, `"hit_ratio"`) {
		t.Error("cache-flush's printed topology runs otherwise")
	}
	_, lifo, _ := simRun(t, "--scenario", "cache-flush", "--set", "db.discipline=lifo", "--format", "json")
	_, flag, _ := simRun(t, "--scenario", "cache-flush", "--discipline", "lifo", "--format", "json")
	if lifo != flag || lifo == want {
		t.Error("--set db.discipline=lifo is not --discipline lifo")
	}
	code, _, errs = simRun(t, "--scenario", "cache-flush", "--set", "app.keys=0")
	if code != 2 || errs != `backoff: nodes.app.keys: "0" is not valid: want a whole number from 1 to 1000000`+"\n" {
		t.Errorf("--set app.keys=0: exit %d %q", code, errs)
	}
	// Flags given override the scenario's values.
	_, a, _ := simRun(t, "--scenario", "fleet-crash", "--balance", "least", "--format", "json")
	_, b, _ := simRun(t, "--scenario", "fleet-least", "--format", "json")
	if a != b {
		t.Error("fleet-crash with --balance least is not fleet-least")
	}
}

// --print-topology prints the flags' topology, and running that file
// back gives the same JSON, byte for byte but for the echoed config, for
// random shorthand command lines of every shape.
func TestSimPrintTopologyRunsBack(t *testing.T) {
	n := 60
	if testing.Short() || runtime.GOARCH == "wasm" {
		n = 12
	}
	rng := rand.New(rand.NewPCG(26, 3))
	dir := t.TempDir()
	shapes := map[string]int{}
	for i := 0; i < n; i++ {
		args, shape := randomSimArgs(rng)
		code, doc, errs := simRun(t, append(args, "--print-topology")...)
		if code != 0 {
			t.Fatalf("%v --print-topology: exit %d %s", args, code, errs)
		}
		f := filepath.Join(dir, strconv.Itoa(i)+".yaml")
		if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		code, want, errs := simRun(t, append(args, "--format", "json", "--seed", strconv.Itoa(i))...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		code, got, errs := simRun(t, "--topology", f, "--format", "json", "--seed", strconv.Itoa(i))
		if code != 0 {
			t.Fatalf("%v as\n%s: exit %d %s", args, doc, code, errs)
		}
		if withoutConfig(t, got) != withoutConfig(t, want) {
			t.Fatalf("%v as\n%s: the results differ", args, doc)
		}
		shape, cache := strings.CutSuffix(shape, "+cache")
		shapes[shape]++
		if cache {
			shapes["cache"]++
		}
	}
	for _, s := range []string{"server", "fleet", "chain", "channel", "cache"} {
		if shapes[s] == 0 {
			t.Errorf("no %s in %v", s, shapes)
		}
	}
}

// randomSimArgs is a small random shorthand command line and its shape.
func randomSimArgs(rng *rand.Rand) ([]string, string) {
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	ms := func(lo, hi int) string { return strconv.Itoa(lo+rng.IntN(hi-lo+1)) + "ms" }
	args := []string{"--attempts", strconv.Itoa(1 + rng.IntN(5)), "--jitter", pick("none", "full", "equal"), "--base", ms(10, 500)}
	shape := pick("server", "server", "fleet", "chain", "channel")
	switch shape {
	case "channel":
		args = append(args, "--server", "channel", "--channel", pick("aloha", "slotted", "ethernet"), "--frame", ms(1, 5),
			"--traffic", "open:"+strconv.Itoa(10+rng.IntN(200)), "--duration", "3s")
		return args, shape
	case "fleet":
		args = append(args, "--servers", strconv.Itoa(2+rng.IntN(3)), "--balance", pick(sim.BalanceNames()...))
		if rng.IntN(2) == 0 {
			args = append(args, "--retry-other")
		}
	case "chain":
		args = append(args, "--layers", strconv.Itoa(2+rng.IntN(2)), "--retry-at", pick("all", "top"))
		if rng.IntN(2) == 0 {
			args = append(args, "--layer-timeout", ms(200, 2000))
		}
	}
	server := pick("queue", "capacity", "outage", "collapse")
	switch server {
	case "queue":
		args = append(args, "--server", "queue", "--concurrency", strconv.Itoa(1+rng.IntN(10)), "--service", ms(5, 100),
			"--service-dist", pick("exp", "fixed", "lognormal:1"))
	case "capacity":
		args = append(args, "--server", "capacity", "--capacity", strconv.Itoa(20+rng.IntN(200)))
	case "outage":
		args = append(args, "--server", "outage", "--outage-end", ms(500, 3000))
	case "collapse":
		args = append(args, "--server", "collapse", "--collapse-factor", fmt.Sprint(rng.IntN(3)))
	}
	args = append(args, "--traffic", pick("open:"+strconv.Itoa(10+rng.IntN(150)), "loop:"+strconv.Itoa(1+rng.IntN(20))), "--duration", "5s",
		"--timeout", ms(100, 2000))
	if rng.IntN(2) == 0 {
		f := pick("stall", "crash", "errors:0.5", "slow:2") + "@1s-2s"
		if shape == "fleet" {
			f += "/1"
		}
		args = append(args, "--fault", f)
	}
	if rng.IntN(3) == 0 {
		args = append(args, "--error-rate", "0.1")
		if server == "queue" { // only a queue drops what expired in it
			args = append(args, "--drop-expired")
		}
	}
	if rng.IntN(3) == 0 {
		args = append(args, "--cache-keys", strconv.Itoa(1+rng.IntN(500)), "--cache-ttl", ms(100, 3000),
			"--cache-start", pick("cold", "warm"), "--cache-zipf", pick("0", "1.1"), "--fault", "flush@"+pick("1s-1s", "2s-3s"))
		shape += "+cache"
	}
	return args, shape
}
