//go:build !wasm

package sim

// The topology document's reader, left out of the WebAssembly build: the
// page reads no document (its scenarios and links are Configs), and YAML's
// package would cost app.wasm its code and its init at the page's start.

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
