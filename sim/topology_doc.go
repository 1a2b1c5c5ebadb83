package sim

// The topology document's reading, shared by both readers of its text:
// YAML's (topology_yaml.go, native builds) and the subset's
// (topology_lite.go, every build), each of which turns the text into a
// tree of docNodes that this file reads, so that both give the same
// Topology and the same errors for the same tree.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// docNode is one value of a document: a scalar (its text, or null), a
// map (its keys and values in turn in content) or a list, with its line
// (a map's: its first key's, or its "{"'s; a list's: its first "-"'s,
// or its "["'s). A reader counts the nodes it makes against
// maxTopologyValues.
type docNode struct {
	kind    docKind
	value   string
	null    bool
	line    int
	content []*docNode
}

type docKind uint8

const (
	docScalar docKind = iota
	docMap
	docList
)

// readTopology reads a document's tree.
func readTopology(doc *docNode) (*Topology, error) {
	return (&reader{}).top(doc)
}

// reader reads a document's tree.
type reader struct{}

func tooMany(line int) error {
	return &backoff.FieldError{Field: "topology", Value: "> " + strconv.Itoa(maxTopologyValues) + " values", Code: backoff.CodeTooLong,
		Args: []string{strconv.Itoa(maxTopologyValues)}, Line: max(line, 1),
		Allowed: "at most " + strconv.Itoa(maxTopologyValues) + " values (YAML aliases can expand a short text into millions)"}
}

// pairs lists a map's keys and values.
func (r *reader) pairs(y *docNode, field string) ([]*docNode, []*docNode, error) {
	if y.kind != docMap {
		return nil, nil, docErr(field, y.value, y.line, []string{"KEY: VALUE"}, "a map of keys and values")
	}
	var ks, vs []*docNode
	for i := 0; i+1 < len(y.content); i += 2 {
		k, v := y.content[i], y.content[i+1]
		if k.kind != docScalar {
			return nil, nil, docErr(field, "", k.line, []string{"KEY: VALUE"}, "a map whose keys are names")
		}
		ks, vs = append(ks, k), append(vs, v)
	}
	return ks, vs, nil
}

// scalar reads a scalar's text ("" for null).
func (r *reader) scalar(y *docNode, field string, line int) (string, int, error) {
	if y.kind != docScalar {
		return "", y.line, docErr(field, "", y.line, []string{"VALUE"}, "one value (text, a number or a duration), not a list or a map")
	}
	if y.null {
		return "", y.line, nil
	}
	return y.value, y.line, nil
}

// list reads a list of scalars, or one scalar as a list of one.
func (r *reader) list(y *docNode, field string) ([]string, int, error) {
	if y.kind == docScalar {
		v, line, err := r.scalar(y, field, y.line)
		if v == "" {
			return nil, line, err
		}
		return []string{v}, line, err
	}
	if y.kind != docList {
		return nil, y.line, docErr(field, "", y.line, []string{"[A, B, ...]"}, "a list of values")
	}
	out := make([]string, 0, len(y.content))
	for _, c := range y.content {
		v, _, err := r.scalar(c, field, y.line)
		if err != nil {
			return nil, y.line, err
		}
		out = append(out, v)
	}
	return out, y.line, nil
}

// topKeys are the keys of a document besides the simulator's own.
var topKeys = []string{topRetry, topNodes, topFaults, topEntry}

func (r *reader) top(doc *docNode) (*Topology, error) {
	ks, vs, err := r.pairs(doc, "topology")
	if err != nil {
		return nil, err
	}
	t := &Topology{}
	seen := map[string]bool{}
	for i, k := range ks {
		key, line := k.value, k.line
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
			if y := vs[i]; y.kind == docList {
				fl = y.line
			}
			for j, f := range l {
				at := fl + j
				if y := vs[i]; y.kind == docList && j < len(y.content) {
					at = y.content[j].line
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

func (r *reader) retry(y *docNode, t *Topology) error {
	ks, vs, err := r.pairs(y, topRetry)
	if err != nil {
		return err
	}
	for i, k := range ks {
		v, line, err := r.scalar(vs[i], topRetry+"."+k.value, k.line)
		if err != nil {
			return err
		}
		s, err := canonPolicy(Setting{Key: k.value, Value: v, Line: line}, topRetry)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(t.Retry, func(o Setting) bool { return o.Key == s.Key }) {
			return docErr(topRetry+"."+k.value, k.value, k.line, []string{"KEY"}, "each key once")
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

func (r *reader) nodes(y *docNode, t *Topology) error {
	ks, vs, err := r.pairs(y, topNodes)
	if err != nil {
		return err
	}
	for i, k := range ks {
		name := k.value
		if err := checkNodeName(name, k.line); err != nil {
			return err
		}
		if t.Node(name) != nil {
			return docErr(topNodes, name, k.line, []string{"NAME"}, "each node named once")
		}
		if len(t.Nodes) == MaxTopologyNodes {
			return &backoff.FieldError{Field: topNodes, Value: strconv.Itoa(len(ks)) + " nodes", Code: backoff.CodeInt,
				Args: []string{"1", strconv.Itoa(MaxTopologyNodes)}, Allowed: "at most " + strconv.Itoa(MaxTopologyNodes) + " nodes", Line: k.line}
		}
		n, err := r.node(name, k.line, vs[i])
		if err != nil {
			return err
		}
		t.Nodes = append(t.Nodes, n)
	}
	return nil
}

func (r *reader) node(name string, line int, y *docNode) (Node, error) {
	n := Node{Name: name, Line: line}
	field := "nodes." + name
	ks, vs, err := r.pairs(y, field)
	if err != nil {
		return n, err
	}
	var raw []Setting
	for i, k := range ks {
		yv := vs[i]
		switch {
		case k.value == keyKind:
			v, _, err := r.scalar(yv, field+"."+keyKind, k.line)
			if err != nil {
				return n, err
			}
			if n.Kind != "" {
				return n, docErr(field+"."+keyKind, v, k.line, []string{"KEY"}, "each key once")
			}
			n.Kind = v
		case yv.kind == docMap:
			sk, sv, err := r.pairs(yv, field+"."+k.value)
			if err != nil {
				return n, err
			}
			for j := range sk {
				v, vl, err := r.scalar(sv[j], field+"."+k.value+"."+sk[j].value, sk[j].line)
				if err != nil {
					return n, err
				}
				raw = append(raw, Setting{Key: k.value + "." + sk[j].value, Value: v, Line: vl})
			}
		case yv.kind == docList:
			l, vl, err := r.list(yv, field+"."+k.value)
			if err != nil {
				return n, err
			}
			raw = append(raw, Setting{Key: k.value, List: l, Line: vl})
		default:
			v, vl, err := r.scalar(yv, field+"."+k.value, k.line)
			if err != nil {
				return n, err
			}
			raw = append(raw, Setting{Key: k.value, Value: v, Line: vl})
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
