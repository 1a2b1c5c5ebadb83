package sim

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

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

// yamlLine finds the line in a YAML parser's message ("yaml: line 3:
// ..."), 1 if it names none.
func yamlLine(msg string) int {
	_, rest, ok := strings.Cut(msg, "line ")
	n := 0
	for i := 0; ok && i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9'; i++ {
		n = 10*n + int(rest[i]-'0')
	}
	return max(n, 1)
}

// ParseTopology reads a topology document (YAML or JSON). Every value is
// checked alone (a key the node's kind does not take, a value out of its
// range, a node named twice); how they fit together is Config's to check.
// Errors are *backoff.FieldError with the line.
func ParseTopology(text string) (*Topology, error) {
	if len(text) > MaxTopologyBytes {
		return nil, &backoff.FieldError{Field: "topology", Value: strconv.Itoa(len(text)) + " bytes", Code: backoff.CodeTooLong,
			Args: []string{strconv.Itoa(MaxTopologyBytes)}, Allowed: "at most " + strconv.Itoa(MaxTopologyBytes) + " bytes"}
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, docErr("topology", "", 1, []string{"YAML"}, "a YAML or JSON map with nodes:")
		}
		line := yamlLine(err.Error())
		return nil, docErr("topology", strings.TrimPrefix(err.Error(), "yaml: "), line, []string{"YAML"}, "YAML or JSON")
	}
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		return nil, docErr("topology", "---", more.Line, []string{"YAML"}, "one YAML document")
	}
	r := &reader{}
	t, err := r.top(&doc)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// reader reads a yaml.Node tree, resolving aliases and counting the
// values it reads against maxTopologyValues.
type reader struct{ count int }

var errTooManyValues = errors.New("too many values")

func (r *reader) resolve(y *yaml.Node) (*yaml.Node, error) {
	for depth := 0; y != nil && (y.Kind == yaml.AliasNode || y.Kind == yaml.DocumentNode); depth++ {
		if depth > 32 {
			return nil, errTooManyValues
		}
		if y.Kind == yaml.AliasNode {
			y = y.Alias
		} else if len(y.Content) > 0 {
			y = y.Content[0]
		} else {
			y = nil
		}
	}
	if r.count++; r.count > maxTopologyValues || y == nil {
		return nil, errTooManyValues
	}
	return y, nil
}

func tooMany(line int) error {
	return &backoff.FieldError{Field: "topology", Value: "> " + strconv.Itoa(maxTopologyValues) + " values", Code: backoff.CodeTooLong,
		Args: []string{strconv.Itoa(maxTopologyValues)}, Line: max(line, 1),
		Allowed: "at most " + strconv.Itoa(maxTopologyValues) + " values (YAML aliases can expand a short text into millions)"}
}

// pairs lists a map's keys and values, merging "<<: *anchor" blocks.
func (r *reader) pairs(y *yaml.Node, field string) ([]*yaml.Node, []*yaml.Node, error) {
	y, err := r.resolve(y)
	if err != nil {
		return nil, nil, tooMany(0)
	}
	if y.Kind != yaml.MappingNode {
		return nil, nil, docErr(field, y.Value, y.Line, []string{"KEY: VALUE"}, "a map of keys and values")
	}
	var ks, vs []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Tag == "!!merge" {
			mk, mv, err := r.pairs(v, field)
			if err != nil {
				return nil, nil, err
			}
			ks, vs = append(ks, mk...), append(vs, mv...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, nil, docErr(field, "", k.Line, []string{"KEY: VALUE"}, "a map whose keys are names")
		}
		ks, vs = append(ks, k), append(vs, v)
		if len(ks) > maxTopologyValues {
			return nil, nil, tooMany(k.Line)
		}
	}
	return ks, vs, nil
}

// scalar reads a scalar's text.
func (r *reader) scalar(y *yaml.Node, field string, line int) (string, int, error) {
	y, err := r.resolve(y)
	if err != nil {
		return "", line, tooMany(line)
	}
	if y.Kind != yaml.ScalarNode {
		return "", y.Line, docErr(field, "", y.Line, []string{"VALUE"}, "one value (text, a number or a duration), not a list or a map")
	}
	if y.Tag == "!!null" {
		return "", y.Line, nil
	}
	return y.Value, y.Line, nil
}

// list reads a list of scalars, or one scalar as a list of one.
func (r *reader) list(y *yaml.Node, field string) ([]string, int, error) {
	y, err := r.resolve(y)
	if err != nil {
		return nil, 0, tooMany(0)
	}
	if y.Kind == yaml.ScalarNode {
		v, line, err := r.scalar(y, field, y.Line)
		if v == "" {
			return nil, line, err
		}
		return []string{v}, line, err
	}
	if y.Kind != yaml.SequenceNode {
		return nil, y.Line, docErr(field, "", y.Line, []string{"[A, B, ...]"}, "a list of values")
	}
	out := make([]string, 0, len(y.Content))
	for _, c := range y.Content {
		v, _, err := r.scalar(c, field, y.Line)
		if err != nil {
			return nil, y.Line, err
		}
		out = append(out, v)
	}
	return out, y.Line, nil
}

// topKeys are the keys of a document besides the simulator's own.
var topKeys = []string{topRetry, topNodes, topFaults, topEntry}

func (r *reader) top(doc *yaml.Node) (*Topology, error) {
	ks, vs, err := r.pairs(doc, "topology")
	if err != nil {
		return nil, err
	}
	t := &Topology{}
	seen := map[string]bool{}
	for i, k := range ks {
		key, line := k.Value, k.Line
		if seen[key] {
			return nil, docErr(key, key, line, []string{"KEY"}, "each key once")
		}
		seen[key] = true
		switch key {
		case topRetry:
			if err := r.retry(vs[i], t); err != nil {
				return nil, err
			}
		case topNodes:
			if err := r.nodes(vs[i], t); err != nil {
				return nil, err
			}
		case topFaults:
			l, _, err := r.list(vs[i], topFaults)
			if err != nil {
				return nil, err
			}
			fl := line
			if y, _ := r.resolve(vs[i]); y != nil && y.Kind == yaml.SequenceNode {
				fl = y.Line
			}
			for j, f := range l {
				at := fl + j
				if y, _ := r.resolve(vs[i]); y != nil && y.Kind == yaml.SequenceNode && j < len(y.Content) {
					at = y.Content[j].Line
				}
				t.Faults = append(t.Faults, Setting{Key: ParamFault, Value: f, Line: at})
			}
			if len(t.Faults) > MaxFaults {
				return nil, &backoff.FieldError{Field: topFaults, Value: strconv.Itoa(len(t.Faults)) + " faults", Code: backoff.CodeInt,
					Args: []string{"0", strconv.Itoa(MaxFaults)}, Allowed: "at most " + strconv.Itoa(MaxFaults) + " faults", Line: line}
			}
			for _, f := range t.Faults {
				if err := checkFaultText(f); err != nil {
					return nil, err
				}
			}
		case topEntry:
			v, vl, err := r.scalar(vs[i], topEntry, line)
			if err != nil {
				return nil, err
			}
			t.Entry, t.EntryLine = v, vl
		default:
			if !isTopParam(key) {
				return nil, &backoff.FieldError{Field: "topology", Value: clip(key), Code: backoff.CodeUnknown,
					Args: append(topParams(), topKeys...), Line: line,
					Allowed: "a simulator parameter (" + strings.Join(topParams(), ", ") + ") or " + strings.Join(topKeys, ", ") + topHint(key)}
			}
			v, vl, err := r.scalar(vs[i], key, line)
			if err != nil {
				return nil, err
			}
			s, err := canonTop(Setting{Key: key, Value: v, Line: vl})
			if err != nil {
				return nil, err
			}
			t.Settings = append(t.Settings, s)
		}
	}
	if t.Entry != "" && t.Node(t.Entry) == nil {
		return nil, &backoff.FieldError{Field: topEntry, Value: clip(t.Entry), Code: backoff.CodeChoice,
			Args: t.names(), Allowed: "one of the nodes: " + strings.Join(t.names(), ", "), Line: max(t.EntryLine, 1)}
	}
	return t, nil
}

// topHint says where a key that is not a top-level one belongs.
func topHint(key string) string {
	switch {
	case isPolicyParam(key):
		return " (" + key + " is the clients' policy: put it under retry:)"
	case slices.Contains(nodeParams(), key):
		return " (" + key + " belongs to a node: put it in a node's block)"
	}
	return ""
}

func (t *Topology) names() []string {
	out := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		out[i] = n.Name
	}
	return out
}

func (r *reader) retry(y *yaml.Node, t *Topology) error {
	ks, vs, err := r.pairs(y, topRetry)
	if err != nil {
		return err
	}
	for i, k := range ks {
		v, line, err := r.scalar(vs[i], topRetry+"."+k.Value, k.Line)
		if err != nil {
			return err
		}
		s, err := canonPolicy(Setting{Key: k.Value, Value: v, Line: line}, topRetry)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(t.Retry, func(o Setting) bool { return o.Key == s.Key }) {
			return docErr(topRetry+"."+k.Value, k.Value, k.Line, []string{"KEY"}, "each key once")
		}
		t.Retry = append(t.Retry, s)
	}
	return nil
}

// canonPolicy checks a policy key's value alone and returns it canonical.
func canonPolicy(s Setting, prefix string) (Setting, error) {
	if !isPolicyParam(s.Key) {
		return s, &backoff.FieldError{Field: prefix, Value: clip(s.Key), Code: backoff.CodeUnknown, Args: slices.Clone(backoff.ParamNames),
			Allowed: "a policy parameter: " + strings.Join(backoff.ParamNames, ", "), Line: max(s.Line, 1)}
	}
	p := backoff.Default()
	if err := p.Set(s.Key, s.Value); err != nil {
		return s, lineErr(err, prefix+"."+s.Key, s.Line)
	}
	s.Value = p.Get(s.Key)
	return s, nil
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

func (r *reader) nodes(y *yaml.Node, t *Topology) error {
	ks, vs, err := r.pairs(y, topNodes)
	if err != nil {
		return err
	}
	for i, k := range ks {
		name := k.Value
		if err := checkNodeName(name, k.Line); err != nil {
			return err
		}
		if t.Node(name) != nil {
			return docErr(topNodes, name, k.Line, []string{"NAME"}, "each node named once")
		}
		if len(t.Nodes) == MaxTopologyNodes {
			return &backoff.FieldError{Field: topNodes, Value: strconv.Itoa(len(ks)) + " nodes", Code: backoff.CodeInt,
				Args: []string{"1", strconv.Itoa(MaxTopologyNodes)}, Allowed: "at most " + strconv.Itoa(MaxTopologyNodes) + " nodes", Line: k.Line}
		}
		n, err := r.node(name, k.Line, vs[i])
		if err != nil {
			return err
		}
		t.Nodes = append(t.Nodes, n)
	}
	return nil
}

func (r *reader) node(name string, line int, y *yaml.Node) (Node, error) {
	n := Node{Name: name, Line: line}
	field := "nodes." + name
	ks, vs, err := r.pairs(y, field)
	if err != nil {
		return n, err
	}
	var raw []Setting
	for i, k := range ks {
		yv, err := r.resolve(vs[i])
		if err != nil {
			return n, tooMany(k.Line)
		}
		switch {
		case k.Value == keyKind:
			v, _, err := r.scalar(yv, field+"."+keyKind, k.Line)
			if err != nil {
				return n, err
			}
			if n.Kind != "" {
				return n, docErr(field+"."+keyKind, v, k.Line, []string{"KEY"}, "each key once")
			}
			n.Kind = v
		case yv.Kind == yaml.MappingNode:
			sk, sv, err := r.pairs(yv, field+"."+k.Value)
			if err != nil {
				return n, err
			}
			for j := range sk {
				v, vl, err := r.scalar(sv[j], field+"."+k.Value+"."+sk[j].Value, sk[j].Line)
				if err != nil {
					return n, err
				}
				raw = append(raw, Setting{Key: k.Value + "." + sk[j].Value, Value: v, Line: vl})
			}
		case yv.Kind == yaml.SequenceNode:
			l, vl, err := r.list(yv, field+"."+k.Value)
			if err != nil {
				return n, err
			}
			raw = append(raw, Setting{Key: k.Value, List: l, Line: vl})
		default:
			v, vl, err := r.scalar(yv, field+"."+k.Value, k.Line)
			if err != nil {
				return n, err
			}
			raw = append(raw, Setting{Key: k.Value, Value: v, Line: vl})
		}
	}
	kind := kindNamed(n.Kind)
	if kind == nil {
		return n, &backoff.FieldError{Field: field + "." + keyKind, Value: clip(n.Kind), Code: backoff.CodeChoice,
			Args: NodeKindNames(), Allowed: "one of " + strings.Join(NodeKindNames(), ", "), Line: line}
	}
	for _, s := range raw {
		if err := n.set(kind, s); err != nil {
			return n, err
		}
	}
	return n, nil
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
// ParamNames order.
func topParams() []string {
	var out []string
	for _, n := range ParamNames {
		if isTopParam(n) {
			out = append(out, n)
		}
	}
	return out
}

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
// block or (flow) in a flow map or list, where ":" and "," end a value.
func plain(v string, flow bool) bool {
	if v == "" || slices.Contains([]string{"null", "Null", "NULL", "~"}, v) {
		return false
	}
	for i, r := range v {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.µ", r) ||
			i > 0 && strings.ContainsRune("+@/;-", r) || i > 0 && !flow && strings.ContainsRune(":,", r)
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
