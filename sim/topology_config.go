package sim

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/backoff-playground/playground/backoff"
)

// The shorthand's shapes as topologies. A Config's fields describe one of
// four shapes, which Config.Topology writes as nodes: one server
// ("server"); a fleet, a balancer "lb" over servers "s1".."sN"; a chain's
// layers above either, services "layer1".."layerK" (Config.Layers = K+1:
// the clients are the top layer); a channel is a server of the channel
// model. Topology.Config lowers a document whose graph is one of those
// shapes back to the shorthand fields, so that both run the same code
// and give the same bytes; a graph of another shape is refused, naming
// the node and saying what runs.

// nodeParams are the parameters a topology gives in its nodes (the
// server's, the fleet's, the chain's) or in faults:, never at its top;
// listed once, when first asked (the models register as the packages
// initialise).
var nodeParams = sync.OnceValue(func() []string {
	out := []string{ParamServer, ParamServers, ParamBalance, ParamRetryOther, ParamPerServer, ParamErrorRate, ParamRetryAfterS,
		ParamLayers, ParamLayerAttempts, ParamRetryAt, ParamLayerTimeout, ParamFault}
	out = append(out, cacheParams...)
	for _, f := range serverFields() {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return slices.Clip(out)
})

// Default node names of the shorthand's shapes.
const (
	nameServer   = "server"
	nameBalancer = "lb"
	prefixServer = "s"
	prefixLayer  = "layer"
)

// defaultNames are the shape's node names in Topology's order: the
// chain's layers top first, the cache, the balancer, the servers.
func defaultNames(layers, servers int, cache bool) []string {
	var out []string
	for k := 1; k < layers; k++ {
		out = append(out, prefixLayer+strconv.Itoa(k))
	}
	if cache {
		out = append(out, nameCache)
	}
	if servers <= 1 {
		return append(out, nameServer)
	}
	out = append(out, nameBalancer)
	for k := 1; k <= servers; k++ {
		out = append(out, prefixServer+strconv.Itoa(k))
	}
	return out
}

// shapeParts are the shape's nodes in defaultNames' order, each as its
// kind and its index among the engine's parts of that kind (a layer's
// number from 1, a server's place in the fleet, 0 for the cache and the
// balancer).
func shapeParts(layers, servers int, cache bool) []nodePart {
	var out []nodePart
	for k := 1; k < layers; k++ {
		out = append(out, nodePart{kindNamed(kindService), k})
	}
	if cache {
		out = append(out, nodePart{kindNamed(kindCache), 0})
	}
	if servers > 1 {
		out = append(out, nodePart{kindNamed(kindBalancer), 0})
	}
	for k := range max(1, servers) {
		out = append(out, nodePart{kindNamed(kindServer), k})
	}
	return out
}

// nodePart is one node of a run: its kind, and its index among the run's
// parts of that kind.
type nodePart struct {
	kind nodeKind
	i    int
}

// NodeNames are c's nodes' names in Topology's order (Output.Names, or
// the default names when it does not fit c's shape).
func (c *Config) NodeNames() []string {
	def := defaultNames(c.Layers, c.Servers, c.CacheKeys > 0)
	if c.Names != "" {
		if n := strings.Split(c.Names, ","); len(n) == len(def) {
			return n
		}
	}
	return def
}

// ServerNames are the names of c's servers, a fleet's in order.
func (c *Config) ServerNodeNames() []string {
	n := c.NodeNames()
	return n[len(n)-max(1, c.Servers):]
}

// Topology is the document c describes: its simulator parameters that
// differ from DefaultConfig's at the top, its policy's that differ from
// backoff.Default's under retry:, and its shape as nodes (the keys its
// server model reads, others only when they differ from the default).
// Topology.Config(DefaultConfig()) of it runs as c does.
func (c *Config) Topology() *Topology {
	t := &Topology{}
	def := DefaultConfig()
	// Set reads some values in the light of those set before (a latency
	// of 0 clears the spread, a jitter kind sets its bounds): the values
	// are compared with what the ones written so far give, in the order
	// Topology.Config sets them.
	got := def
	for _, n := range topParams() {
		if v := c.Get(n); v != got.Get(n) {
			_ = got.Set(n, v)
			t.Settings = append(t.Settings, Setting{Key: n, Value: v})
		}
	}
	pol := c.Policy
	layers := max(1, c.Layers)
	if layers > 1 {
		pol.Attempts = c.LayerAttemptsAt(0)
	}
	dp := backoff.Default()
	for _, n := range backoff.ParamNames {
		if v := pol.Get(n); v != dp.Get(n) {
			_ = dp.Set(n, v)
			t.Retry = append(t.Retry, Setting{Key: n, Value: v})
		}
	}
	names := c.NodeNames()
	for k := 1; k < layers; k++ {
		n := Node{Name: names[k-1], Kind: kindService, Keys: []Setting{{Key: keyTo, List: []string{names[k]}}}}
		if a := c.LayerAttemptsAt(k); a != pol.Attempts {
			n.Keys = append(n.Keys, Setting{Key: keyRetryAttempt, Value: strconv.Itoa(a)})
		}
		if d := c.LayerTimeout.At(k - 1); d > 0 {
			n.Keys = append(n.Keys, Setting{Key: keyTimeout, Value: backoff.FormatDuration(d)})
		}
		t.Nodes = append(t.Nodes, n)
	}
	servers := c.ServerNodeNames()
	below := layers - 1 // the node below the chain's services
	if c.CacheKeys > 0 {
		t.Nodes = append(t.Nodes, c.cacheNode(names[below], names[below+1]))
		below++
	}
	if c.Servers > 1 {
		lb := Node{Name: names[below], Kind: kindBalancer, Keys: []Setting{
			{Key: keyRule, Value: c.Balance.String()}, {Key: keyTo, List: slices.Clone(servers)}}}
		if c.RetryOther {
			lb.Keys = append(lb.Keys, Setting{Key: ParamRetryOther, Value: "true"})
		}
		t.Nodes = append(t.Nodes, lb)
	}
	for k, name := range servers {
		cs := c.serverConfig(k)
		t.Nodes = append(t.Nodes, cs.serverNode(name, &def))
	}
	for _, f := range c.Faults.List() {
		g := f
		g.Servers = 0
		text := g.text()
		var on []string
		for s := f.Servers; s != 0; s &= s - 1 {
			if k := trailingZeros(s); k < len(servers) {
				on = append(on, servers[k])
			}
		}
		if f.Kind == FaultFlush {
			on = []string{names[layers-1]}
		}
		if len(on) > 0 {
			text += "/" + strings.Join(on, ",")
		}
		t.Faults = append(t.Faults, Setting{Key: ParamFault, Value: text})
	}
	return t
}

// serverNode is c's server as a node called name: its model and the
// keys it reads in c whose values differ from def's.
func (c *Config) serverNode(name string, def *Config) Node {
	n := Node{Name: name, Kind: kindServer, Keys: []Setting{{Key: keyModel, Value: c.Server.String()}}}
	var fields []string
	if m := c.Server.Model(); m != nil {
		fields = m.Fields(c)
	}
	for _, k := range serverKeys()[1:] {
		p := serverParam(k.Name)
		if (slices.Contains(fields, p) || slices.Contains(commonServerKeys, p)) && c.Get(p) != def.Get(p) {
			n.Keys = append(n.Keys, Setting{Key: k.Name, Value: c.Get(p)})
		}
	}
	return n
}

func trailingZeros(s uint64) int {
	k := 0
	for s&1 == 0 {
		s >>= 1
		k++
	}
	return k
}

// shapeForms say what graphs the engine runs, for errors.
var shapeForms = []string{"server", "balancer -> servers", "cache -> server", "cache -> balancer -> servers",
	"service -> ... -> [cache ->] server", "service -> ... -> [cache ->] balancer -> servers"}

const shapeHelp = "a graph the engine runs: the clients call one server, or a balancer over servers of one model and the same keys, " +
	"optionally through a cache in front of them and a chain of services above (each calling the next), every node called once"

func shapeErr(n *Node, key, value string, why string) error {
	return &backoff.FieldError{Field: "nodes." + n.Name + "." + key, Value: clip(value), Code: backoff.CodeFormat,
		Args: slices.Clone(shapeForms), Allowed: shapeHelp + " (" + why + ")", Line: max(n.Line, 1)}
}

// entry is the node the clients call: Entry, or the one node nobody
// calls.
func (t *Topology) entry() (*Node, error) {
	if t.Entry != "" {
		if n := t.Node(t.Entry); n != nil {
			return n, nil
		}
	}
	called := map[string]bool{}
	for _, n := range t.Nodes {
		for _, s := range n.Keys {
			// A key that takes a list names the nodes this one calls
			// (to:, a cache's miss:).
			for _, v := range s.List {
				called[v] = true
			}
		}
	}
	var roots []string
	for _, n := range t.Nodes {
		if !called[n.Name] {
			roots = append(roots, n.Name)
		}
	}
	if len(roots) == 1 {
		return t.Node(roots[0]), nil
	}
	if len(roots) == 0 {
		roots = t.names()
	}
	return nil, &backoff.FieldError{Field: topEntry, Value: "", Code: backoff.CodeChoice, Args: roots, Line: 1,
		Allowed: "the node the clients call (entry:), one of " + strings.Join(roots, ", ")}
}

// Config lowers t onto base: base's fields with t's settings, policy and
// graph, which must be one of the shorthand's shapes (see Config.Topology);
// node names other than the default ones are kept in Names. The config is
// validated; errors name the node, the key, the value and what is
// allowed, with the line.
func (t *Topology) Config(base Config) (Config, error) {
	c := base
	c.Names = ""
	for _, name := range ParamNames {
		for _, s := range t.Settings {
			if s.Key == name {
				if err := c.Set(name, s.Value); err != nil {
					return base, lineErr(err, name, s.Line)
				}
			}
		}
	}
	for _, name := range backoff.ParamNames {
		for _, s := range t.Retry {
			if s.Key == name {
				if err := c.Policy.Set(name, s.Value); err != nil {
					return base, lineErr(err, topRetry+"."+name, s.Line)
				}
			}
		}
	}
	if len(t.Nodes) == 0 {
		return base, docErr(topNodes, "", 1, slices.Clone(shapeForms), "at least one node: "+shapeHelp)
	}
	n, err := t.entry()
	if err != nil {
		return base, err
	}
	w := walk{t: t, seen: map[string]bool{}}
	for stage := -1; n != nil; {
		k := kindNamed(n.Kind)
		if k.stage() < stage || k.stage() == stage && !k.repeats() {
			return base, shapeErr(w.caller, w.key, n.Name, "a "+w.caller.Kind+" calls "+w.after(stage)+"; node "+n.Name+" is a "+n.Kind)
		}
		if w.seen[n.Name] {
			return base, shapeErr(w.caller, w.key, n.Name, "the calls go round in a circle")
		}
		w.seen[n.Name], w.names = true, append(w.names, n.Name)
		stage = k.stage()
		next, err := k.walk(&w, n)
		if err != nil {
			return base, err
		}
		w.caller, n = n, next
	}
	seen, chain, cache, lb, servers := w.seen, w.chain, w.cache, w.lb, w.servers
	for i := range t.Nodes {
		if !seen[t.Nodes[i].Name] {
			return base, shapeErr(&t.Nodes[i], keyKind, t.Nodes[i].Kind, "nothing calls node "+t.Nodes[i].Name)
		}
	}
	if err := c.lowerServers(servers); err != nil {
		return base, err
	}
	c.Servers = len(servers)
	if lb != nil {
		c.Balance, c.RetryOther = RoundRobin, false
		for _, s := range lb.Keys {
			if s.Key == keyTo {
				continue
			}
			p := s.Key
			if p == keyRule {
				p = ParamBalance
			}
			if err := c.Set(p, s.Value); err != nil {
				return base, nodeErr(err, lb.Name, s.Key, s.Line)
			}
		}
	}
	if err := c.lowerChain(chain); err != nil {
		return base, err
	}
	if err := c.lowerCache(cache); err != nil {
		return base, err
	}
	if err := c.lowerFaults(t, cache, servers); err != nil {
		return base, err
	}
	names := w.names
	if lb != nil && len(servers) <= 1 {
		// A balancer in front of one server balances nothing: the run has
		// no balancer node, and its name would leave Names one too long
		// for the run's nodes (NodeNames would drop them all).
		names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == lb.Name })
	}
	if !slices.Equal(names, defaultNames(c.Layers, c.Servers, cache != nil)) {
		c.Names = strings.Join(names, ",")
	}
	if err := c.Validate(); err != nil {
		return base, t.placeErr(err, chain, cache, lb, servers)
	}
	return c, nil
}

func unknownNode(n *Node, key, name string, t *Topology) error {
	return &backoff.FieldError{Field: "nodes." + n.Name + "." + key, Value: clip(name), Code: backoff.CodeChoice,
		Args: t.names(), Allowed: "one of the nodes: " + strings.Join(t.names(), ", "), Line: max(n.Line, 1)}
}

// lowerServers sets c's server from the first server node, after
// checking that every server node reads as the same server.
func (c *Config) lowerServers(servers []*Node) error {
	first := servers[0]
	def := DefaultConfig()
	value := func(n *Node, key string) string {
		if s := n.Get(key); s != nil {
			return s.Value
		}
		return def.Get(serverParam(key))
	}
	model := value(first, keyModel)
	m := def.Server
	if s := first.Get(keyModel); s != nil {
		if err := c.Set(ParamServer, s.Value); err != nil {
			return nodeErr(err, first.Name, keyModel, s.Line)
		}
		m = c.Server
	} else {
		c.Server = def.Server
	}
	reads := m.Model().Fields(nil)
	var perServer []string
	for _, n := range servers {
		for _, s := range n.Keys {
			p := serverParam(s.Key)
			if s.Key != keyModel && !slices.Contains(commonServerKeys, p) && !slices.Contains(reads, p) {
				keys := []string{keyModel}
				for _, r := range reads {
					keys = append(keys, strings.Replace(r, ParamConcurrency, keyWorkers, 1))
				}
				for _, k := range commonServerKeys {
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
				return &backoff.FieldError{Field: "nodes." + n.Name + "." + s.Key, Value: clip(s.Value), Code: backoff.CodeUnknown,
					Args: keys, Line: max(s.Line, n.Line),
					Allowed: "a key the " + model + " model reads: " + strings.Join(keys, ", ")}
			}
		}
		if n == first {
			continue
		}
		var own []string // the server's knobs that differ from the first's
		for _, k := range serverKeys() {
			a, b := value(first, k.Name), value(n, k.Name)
			if a == b {
				continue
			}
			if p := serverParam(k.Name); slices.Contains(perServerKeys(), p) {
				own = append(own, p+"="+b)
				continue
			}
			line := n.Line
			if s := n.Get(k.Name); s != nil {
				line = max(s.Line, line)
			}
			return &backoff.FieldError{Field: "nodes." + n.Name + "." + k.Name, Value: clip(b), Code: backoff.CodeNeeds,
				Other: "nodes." + first.Name + "." + k.Name, Args: []string{a, a, a}, Line: max(line, 1),
				Allowed: a + " as node " + first.Name + " has: a balancer's servers share their model and what their callers read"}
		}
		if len(own) > 0 {
			perServer = append(perServer, strconv.Itoa(slices.Index(servers, n)+1)+":"+strings.Join(own, ","))
		}
	}
	// The model's fields: the node's values over the defaults, so that a
	// key left out means its default whatever base says.
	for _, k := range serverKeys()[1:] {
		p := serverParam(k.Name)
		if !slices.Contains(reads, p) && !slices.Contains(commonServerKeys, p) {
			continue
		}
		s := first.Get(k.Name)
		v := def.Get(p)
		if s != nil {
			v = s.Value
		}
		if err := c.Set(p, v); err != nil {
			line := first.Line
			if s != nil {
				line = s.Line
			}
			return nodeErr(err, first.Name, k.Name, line)
		}
	}
	return c.Set(ParamPerServer, strings.Join(perServer, ";"))
}

// lowerChain sets c's chain from its services, top first.
func (c *Config) lowerChain(chain []*Node) error {
	c.Layers, c.LayerAttempts, c.RetryAt, c.LayerTimeout = len(chain)+1, LayerAttempts{}, RetryAll, LayerTimeouts{}
	if len(chain) == 0 {
		return nil
	}
	a0 := c.Policy.Attempts
	each := make([]int, len(chain))
	same, ones := true, true
	for i, n := range chain {
		each[i] = a0
		if s := n.Get(keyRetryAttempt); s != nil {
			each[i], _ = strconv.Atoi(s.Value)
		}
		same = same && each[i] == a0
		ones = ones && each[i] == 1
	}
	switch {
	case same:
	case ones:
		c.RetryAt = RetryTop
	case a0 < 1 || a0 > MaxLayerAttempts:
		n := chain[0]
		return &backoff.FieldError{Field: "nodes." + n.Name + "." + keyRetryAttempt, Value: clip(n.Get(keyRetryAttempt).Value),
			Code: backoff.CodeNeeds, Other: topRetry + "." + backoff.ParamAttempts, Args: []string{strconv.Itoa(a0), "1", "1"}, Line: max(n.Line, 1),
			Allowed: "1 (or left out) while the clients' attempts are " + strconv.Itoa(a0) + " (a chain's attempts differ per layer only from 1 to " +
				strconv.Itoa(MaxLayerAttempts) + ")"}
	default:
		c.LayerAttempts.List = uint8(len(chain) + 1)
		c.LayerAttempts.Each[0] = uint16(a0)
		for i, a := range each {
			c.LayerAttempts.Each[i+1] = uint16(a)
		}
	}
	timeout := func(n *Node) string {
		if s := n.Get(keyTimeout); s != nil {
			return s.Value
		}
		return "0s"
	}
	// A service's timeout is its caller's wait for each try of it: the
	// layer above's, the clients' for the first.
	waits := make([]string, len(chain))
	one := true
	for i, n := range chain {
		waits[i] = timeout(n)
		one = one && waits[i] == waits[0]
	}
	if one {
		waits = waits[:1]
	}
	return c.Set(ParamLayerTimeout, strings.Join(waits, ","))
}

// lowerFaults sets c's faults from t's, the nodes after "/" as the
// servers' numbers; a flush is the cache's and names it or nothing.
func (c *Config) lowerFaults(t *Topology, cache *Node, servers []*Node) error {
	c.Faults = Faults{}
	var texts []string
	for _, f := range t.Faults {
		text, on, aimed := strings.Cut(f.Value, "/")
		if err := checkFlushAim(f, text, on, aimed, cache); err != nil {
			return err
		}
		if aimed && strings.HasPrefix(text, FaultFlush.String()+"@") {
			aimed = false // at the cache, the one there is
		}
		if aimed {
			var nums []string
			for _, name := range strings.Split(on, ",") {
				name = strings.TrimSpace(name)
				k := slices.IndexFunc(servers, func(n *Node) bool { return n.Name == name })
				if k < 0 {
					var names []string
					for _, s := range servers {
						names = append(names, s.Name)
					}
					return &backoff.FieldError{Field: topFaults, Value: clip(f.Value), Code: backoff.CodeChoice, Part: "NODE",
						Args: names, Line: max(f.Line, 1), Allowed: "KIND[:ARG]@START-END[/NODE,...] with each NODE a server: " + strings.Join(names, ", ")}
				}
				nums = append(nums, strconv.Itoa(k+1))
			}
			text += "/" + strings.Join(nums, ",")
		}
		texts = append(texts, text)
	}
	if len(texts) == 0 {
		return nil
	}
	fs, err := parseFaults(strings.Join(texts, ";"))
	if err != nil {
		return lineErr(err, topFaults, t.Faults[0].Line)
	}
	c.Faults = fs
	return nil
}

// placeErr restates a Validate error about a parameter a node gives as an
// error about that node's key.
func (t *Topology) placeErr(err error, chain []*Node, cache, lb *Node, servers []*Node) error {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	for _, s := range t.Settings {
		if s.Key == fe.Field {
			return lineErr(err, fe.Field, s.Line)
		}
	}
	for _, s := range t.Retry {
		if s.Key == fe.Field {
			return lineErr(err, topRetry+"."+fe.Field, s.Line)
		}
	}
	var n *Node
	key := fe.Field
	switch {
	case fe.Field == ParamFault && len(t.Faults) > 0:
		return lineErr(err, topFaults, t.Faults[0].Line)
	case slices.Contains(cacheParams, fe.Field) && cache != nil:
		n = cache
		key = strings.TrimPrefix(key, "cache-")
	case fe.Field == ParamBalance || fe.Field == ParamRetryOther:
		n = lb
		if key == ParamBalance {
			key = keyRule
		}
	case fe.Field == ParamLayerTimeout || fe.Field == ParamLayers || fe.Field == ParamLayerAttempts:
		if len(chain) > 0 {
			n = chain[0]
		}
	case fe.Field == ParamServers || slices.Contains(nodeParams(), fe.Field):
		n = servers[0]
		key = strings.Replace(key, ParamConcurrency, keyWorkers, 1)
		if key == ParamServer || key == ParamServers {
			key = keyModel
		}
	}
	if n == nil {
		return err
	}
	line := n.Line
	if s := n.Get(key); s != nil {
		line = max(line, s.Line)
	}
	return nodeErr(err, n.Name, key, line)
}

// soleTarget is the one node n's key names (a service's to:, a cache's
// miss:); the error says why there must be one, or that there is no such
// node.
// walk is a topology read from its entry down, node by node: each kind's
// walk hook records its node where the engine's shape has a place for it
// and returns the node it calls next (nil at the end). A kind's stage is
// its place in that shape, so the walk refuses a node called out of
// order (a cache below a balancer) without naming either kind.
type walk struct {
	t       *Topology
	seen    map[string]bool
	names   []string // the nodes in the order walked
	caller  *Node    // the node that called the one walked now
	key     string   // the caller's key that named it
	chain   []*Node  // the services, from the clients down
	cache   *Node
	lb      *Node
	servers []*Node
}

// after words the kinds a node of the given stage may call: "a cache, a
// balancer or a server".
func (w *walk) after(stage int) string {
	var out []string
	for st := stage; st <= stage+len(nodeKinds); st++ { // stages are small and few
		for _, k := range nodeKinds {
			if k.stage() == st && (st > stage || k.repeats()) {
				out = append(out, "a "+k.Name())
			}
		}
	}
	if len(out) > 1 {
		return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
	}
	return strings.Join(out, "")
}

// next reads n's key naming the one node it calls.
func (w *walk) next(n *Node, key, why string) (*Node, error) {
	w.key = key
	return soleTarget(w.t, n, key, why)
}

func soleTarget(t *Topology, n *Node, key, why string) (*Node, error) {
	to := n.Get(key)
	if to == nil || len(to.List) != 1 {
		v := ""
		if to != nil {
			v = strings.Join(to.List, ",")
		}
		return nil, shapeErr(n, key, v, why)
	}
	next := t.Node(to.List[0])
	if next == nil {
		return nil, unknownNode(n, key, to.List[0], t)
	}
	return next, nil
}
