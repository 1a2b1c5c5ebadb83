package sim

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/backoff-playground/playground/backoff"
)

// A topology is the request path as a document: the simulator's own
// parameters at the top (traffic, duration, timeout, ...: Config.Set's
// names), the clients' policy under retry: (Policy.Set's names), the
// nodes (name: block, each block a kind: and that kind's keys), the
// faults (Config's fault texts whose "/" names nodes) and the entry, the
// node the clients call (by default the one node nobody else calls):
//
//	traffic: open:150
//	duration: 30s
//	timeout: 1s
//	nodes:
//	  lb: {kind: balancer, rule: p2c, to: [a, b, c]}
//	  a: {kind: server, model: queue, workers: 5, service: 100ms}
//	  b: {kind: server, model: queue, workers: 5, service: 100ms}
//	  c: {kind: server, model: queue, workers: 5, service: 100ms}
//	faults:
//	  - crash@10s-15s/b
//
// The document is YAML (JSON is YAML too). Its parsed form keeps every
// value as text, in document order, with its line, so that errors point
// at the line and printing is stable; String prints it canonically.
// Config.Topology and Topology.Config go between a document and a Config.

// Topology is a parsed topology document. Its zero value is an empty
// document.
type Topology struct {
	// Settings are the simulator's parameters (Config.Set's names).
	Settings []Setting
	// Retry are the clients' policy parameters (Policy.Set's names).
	Retry []Setting
	Nodes []Node
	// Faults are fault texts, one a Setting (Key "fault").
	Faults []Setting
	// Entry is the node the clients call ("": the one nobody calls).
	Entry     string
	EntryLine int
}

// Node is one node of a topology: its name, kind and the kind's keys. A
// key of a nested block (a service's retry:) is named with a dot:
// "retry.attempts".
type Node struct {
	Name, Kind string
	Keys       []Setting
	Line       int
}

// Setting is one key and its value: text, or a list of texts (List, for
// the keys that take one, such as to:).
type Setting struct {
	Key, Value string
	List       []string
	Line       int
}

// Bounds on a topology document: its text, its nodes, the values read
// (YAML aliases can expand a short text into millions), and a name.
const (
	MaxTopologyBytes  = 64 << 10
	MaxTopologyNodes  = 128
	maxTopologyValues = 10_000
	maxNodeName       = 32
)

// Top-level keys of a document besides the simulator's parameters.
const (
	topRetry  = "retry"
	topNodes  = "nodes"
	topFaults = "faults"
	topEntry  = "entry"
	keyKind   = "kind"
)

// NodeKey is one key a node kind declares.
type NodeKey struct {
	// Name is the key in the node's block ("retry.attempts" for a key of
	// a nested block).
	Name string
	// List: the value is a list of node names (a scalar is a list of one).
	List bool
	// Help is the CLI's line for it, in English.
	Help string
}

// nodeKind is one kind of node: a value registered from its own file
// (registerNodeKind), declaring its keys in the order a document prints
// them and checking each value alone.
type nodeKind interface {
	// Name is the kind's value for kind:.
	Name() string
	// Keys are the keys it takes, in printing order. A fixed slice:
	// callers must not change it.
	Keys() []NodeKey
	// canon checks one key's value alone and returns it in canonical
	// form; the error is a *backoff.FieldError whose Field is the key.
	canon(key string, s Setting) (Setting, error)
	// figures appends to out the figures of the run's node i of this
	// kind (a layer's number from 1, a server's place in the fleet; 0
	// for the one cache or balancer), span the seconds its rates are per.
	figures(r *reqSim, i int, span float64, out []NodeFigure) []NodeFigure
	// bucket appends to out the values of the figures in bucket o of the run's node i
	// of this kind (as figures numbers it), from o's own columns, its
	// bin's request-level counts x or the timeline's slots for it: srv
	// a fleet's servers' (nil for one server), lay the layers' above the
	// bottom.
	bucket(o *Bucket, x *xbin, srv, lay []sbin, i int, out []float64) []float64
	// bucketKeys are the keys of bucket's figures, in its order.
	bucketKeys() []string
	// stage is the kind's place in the engine's shape, from the clients
	// down: a node calls nodes of a later stage, or of its own when the
	// kind repeats (a chain of services).
	stage() int
	repeats() bool
	// aimable: a fault can name a node of the kind (a server's crash, a
	// cache's flush).
	aimable() bool
	// walk records n in w (Topology.Config) and returns the node it
	// calls next, nil when the walk ends there.
	walk(w *walk, n *Node) (*Node, error)
}

// nodeKinds is the registry of node kinds, written only while the package
// initialises.
var nodeKinds []nodeKind

// registerNodeKind adds a kind; it panics on a name already taken.
func registerNodeKind(k nodeKind) {
	if kindNamed(k.Name()) != nil {
		panic("sim: node kind " + k.Name() + " registered twice")
	}
	nodeKinds = append(nodeKinds, k)
}

func kindNamed(name string) nodeKind {
	for _, k := range nodeKinds {
		if k.Name() == name {
			return k
		}
	}
	return nil
}

// Aimable reports whether a fault can name a node of the kind.
func Aimable(kind string) bool {
	k := kindNamed(kind)
	return k != nil && k.aimable()
}

// NodeKindNames lists the registered node kinds, in registration order.
func NodeKindNames() []string {
	out := make([]string, len(nodeKinds))
	for i, k := range nodeKinds {
		out[i] = k.Name()
	}
	return out
}

// NodeKindKeys are the keys of the node kind name, in printing order (nil
// for no such kind). The slice is a copy.
func NodeKindKeys(name string) []NodeKey {
	if k := kindNamed(name); k != nil {
		return slices.Clone(k.Keys())
	}
	return nil
}

func keyNames(keys []NodeKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Name
	}
	return out
}

func declared(k nodeKind, key string) (NodeKey, bool) {
	for _, d := range k.Keys() {
		if d.Name == key {
			return d, true
		}
	}
	return NodeKey{}, false
}

// Node returns the node called name, or nil.
func (t *Topology) Node(name string) *Node {
	for i := range t.Nodes {
		if t.Nodes[i].Name == name {
			return &t.Nodes[i]
		}
	}
	return nil
}

// Get returns the setting key of n, or nil.
func (n *Node) Get(key string) *Setting {
	for i := range n.Keys {
		if n.Keys[i].Key == key {
			return &n.Keys[i]
		}
	}
	return nil
}

// nodeErr restates err, about a key of node n alone, as an error about
// the document: Field "nodes.NAME.KEY", at line.
func nodeErr(err error, node, key string, line int) error {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	out := *fe
	out.Field, out.Line = "nodes."+node+"."+key, max(line, 1)
	if out.Other != "" && !strings.Contains(out.Other, ".") {
		out.Other = "nodes." + node + "." + out.Other
	}
	return &out
}

// docErr is an error about the document's shape at line.
func docErr(field, value string, line int, forms []string, allowed string) error {
	return &backoff.FieldError{Field: field, Value: clip(value), Code: backoff.CodeFormat, Args: forms,
		Allowed: allowed, Line: max(line, 1)}
}

// isNodeName: a letter, then letters, digits, - or _ (ASCII).
func isNodeName(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '-' || r == '_')) {
			return false
		}
	}
	return s != ""
}

// checkName refuses a node name that a fault's "/" or --set's "." could
// not name.
func checkNodeName(name string, line int) error {
	if len(name) > maxNodeName || !isNodeName(name) {
		return &backoff.FieldError{Field: "nodes", Value: clip(name), Code: backoff.CodeFormat, Args: []string{"NAME"},
			Allowed: "a node name: a letter, then letters, digits, - or _, at most " + strconv.Itoa(maxNodeName) + " in all", Line: max(line, 1)}
	}
	return nil
}

// set checks s with n's kind and puts it in n, replacing a key set
// before (--set); a key given twice in a document is refused by the
// caller's reading.
func (n *Node) set(kind nodeKind, s Setting) error {
	d, ok := declared(kind, s.Key)
	if !ok {
		names := keyNames(kind.Keys())
		return &backoff.FieldError{Field: "nodes." + n.Name + "." + s.Key, Value: clip(s.Key), Code: backoff.CodeUnknown,
			Args: names, Allowed: "a key of a " + kind.Name() + " node: " + strings.Join(names, ", "), Line: max(s.Line, n.Line)}
	}
	if d.List && s.List == nil && s.Value != "" {
		s.List, s.Value = splitList(s.Value), ""
	}
	if !d.List && s.List != nil {
		return docErr("nodes."+n.Name+"."+s.Key, strings.Join(s.List, ","), max(s.Line, n.Line), []string{"VALUE"}, "one value, not a list")
	}
	if d.List {
		for _, v := range s.List {
			if err := checkNodeName(v, max(s.Line, n.Line)); err != nil {
				return nodeErr(err, n.Name, s.Key, max(s.Line, n.Line))
			}
		}
	}
	c, err := kind.canon(s.Key, s)
	if err != nil {
		return nodeErr(err, n.Name, s.Key, max(s.Line, n.Line))
	}
	if old := n.Get(s.Key); old != nil {
		if old.Line > 0 && s.Line > 0 {
			return docErr("nodes."+n.Name+"."+s.Key, s.Key, s.Line, []string{"KEY"}, "each key once")
		}
		c.Line = old.Line
		*old = c
		return nil
	}
	n.Keys = append(n.Keys, c)
	return nil
}

// splitList reads a list written as one value: "a+b+c" or "a,b,c".
func splitList(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '+' || r == ',' || r == ' ' })
}

// SetKey overrides one key of one node (the CLI's --set NODE.KEY=VALUE),
// checking the value as the node's kind does.
func (t *Topology) SetKey(node, key, value string) error {
	n := t.Node(node)
	if n == nil {
		return &backoff.FieldError{Field: "set", Value: clip(node + "." + key + "=" + value), Code: backoff.CodeChoice, Args: t.names(),
			Allowed: "NODE.KEY=VALUE with NODE one of " + strings.Join(t.names(), ", ")}
	}
	if key == keyKind {
		return &backoff.FieldError{Field: "nodes." + node + "." + key, Value: clip(value), Code: backoff.CodeFormat,
			Args: keyNames(kindNamed(n.Kind).Keys()), Allowed: "a key of its kind (the kind itself is the document's)"}
	}
	m := *n
	m.Keys = slices.Clone(n.Keys)
	if err := m.set(kindNamed(n.Kind), Setting{Key: key, Value: value}); err != nil {
		var fe *backoff.FieldError
		if errors.As(err, &fe) && fe.Line > 0 && fe.Field == "nodes."+node+"."+key {
			fe.Line = 0 // the value came from the command line
		}
		return err
	}
	*n = m
	return nil
}

// checkFaultText checks a fault's text alone: its kind, argument and
// times (the nodes after "/" are checked against the graph later).
func checkFaultText(f Setting) error {
	text, _, _ := strings.Cut(f.Value, "/")
	if _, err := parseFaults(text); err != nil {
		return lineErr(err, topFaults, f.Line)
	}
	if strings.Contains(f.Value, ";") {
		return docErr(topFaults, f.Value, f.Line, faultForms[1:], "one fault per item of the list")
	}
	return nil
}

// isTopParam reports whether name is a simulator parameter a document
// gives at its top level (not a node's, not the policy's).
func isTopParam(name string) bool {
	return !isPolicyParam(name) && slices.Contains(ParamNames, name) && !slices.Contains(nodeParams(), name)
}

// topParams are the parameters a document gives at its top, in
// ParamNames order, listed once when first asked (the page's topology
// panel draws the config's document on every render; listing them took
// most of that). Clipped: a caller's append copies.
var topParams = sync.OnceValue(func() []string {
	var out []string
	for _, n := range ParamNames {
		if isTopParam(n) {
			out = append(out, n)
		}
	}
	return slices.Clip(out)
})

// canonTop checks a top-level value alone and returns it canonical.
func canonTop(s Setting) (Setting, error) {
	c := DefaultConfig()
	if err := c.Set(s.Key, s.Value); err != nil {
		return s, lineErr(err, s.Key, s.Line)
	}
	s.Value = c.Get(s.Key)
	return s, nil
}

// String is the document in canonical YAML: the simulator's parameters
// in ParamNames order, retry: in the policy's, the nodes in document
// order, each a flow map with its keys in its kind's order, the faults,
// the entry when given. Parsing it gives the same Topology (lines
// aside).
func (t *Topology) String() string {
	var b strings.Builder
	for _, name := range ParamNames {
		for _, s := range t.Settings {
			if s.Key == name {
				b.WriteString(name + ": " + yamlValue(s.Value, false) + "\n")
			}
		}
	}
	if len(t.Retry) > 0 {
		b.WriteString(topRetry + ":\n")
		for _, name := range backoff.ParamNames {
			for _, s := range t.Retry {
				if s.Key == name {
					b.WriteString("  " + name + ": " + yamlValue(s.Value, false) + "\n")
				}
			}
		}
	}
	if len(t.Nodes) > 0 {
		b.WriteString(topNodes + ":\n")
	}
	for _, n := range t.Nodes {
		b.WriteString("  " + n.Name + ": " + n.flow() + "\n")
	}
	if len(t.Faults) > 0 {
		b.WriteString(topFaults + ":\n")
		for _, f := range t.Faults {
			b.WriteString("  - " + yamlValue(f.Value, false) + "\n")
		}
	}
	if t.Entry != "" {
		b.WriteString(topEntry + ": " + t.Entry + "\n")
	}
	if b.Len() == 0 {
		return "{}\n" // an empty map, which reads back as one
	}
	return b.String()
}

// flow is a node's block as one YAML flow map, its keys in its kind's
// order; a nested block's keys (retry.attempts) as a nested flow map.
func (n *Node) flow() string {
	parts := []string{keyKind + ": " + yamlValue(n.Kind, true)}
	kind := kindNamed(n.Kind)
	var keys []NodeKey
	if kind != nil {
		keys = kind.Keys()
	}
	nested := map[string][]string{}
	var order []string
	for _, d := range keys {
		s := n.Get(d.Name)
		if s == nil {
			continue
		}
		v := yamlValue(s.Value, true)
		if d.List {
			v = "[" + strings.Join(s.List, ", ") + "]"
		}
		if block, key, ok := strings.Cut(d.Name, "."); ok {
			if _, had := nested[block]; !had {
				order = append(order, block)
				parts = append(parts, "\x00"+block)
			}
			nested[block] = append(nested[block], key+": "+v)
			continue
		}
		parts = append(parts, d.Name+": "+v)
	}
	for i, p := range parts {
		if block, ok := strings.CutPrefix(p, "\x00"); ok {
			parts[i] = block + ": {" + strings.Join(nested[block], ", ") + "}"
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// plain reports whether YAML reads v unquoted as the same text, in a
// block or (flow) in a flow map or list, where ":" and "," end a value
// (in a block, a ":" at the end makes a map of it).
func plain(v string, flow bool) bool {
	if v == "" || slices.Contains([]string{"null", "Null", "NULL", "~"}, v) {
		return false
	}
	for i, r := range v {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.µ", r) ||
			i > 0 && strings.ContainsRune("+@/;-", r) || i > 0 && !flow && strings.ContainsRune(":,", r) && !(r == ':' && i == len(v)-1)
		if !ok {
			return false
		}
	}
	return true
}

func yamlValue(v string, flow bool) string {
	if plain(v, flow) {
		return v
	}
	return strconv.Quote(v)
}

func (t *Topology) names() []string {
	out := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		out[i] = n.Name
	}
	return out
}

// lineErr restates a value's error as one at line of the document.
func lineErr(err error, field string, line int) error {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	out := *fe
	out.Field, out.Line = field, max(line, 1)
	return &out
}
