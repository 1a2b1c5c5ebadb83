//go:build !wasm

package sim

// YAML's reader of topology documents, left out of the WebAssembly build:
// YAML's package would cost app.wasm its code and its init at the page's
// start. The page reads documents in the subset of YAML they are written
// in (topology_lite.go, topology_wasm.go).

import (
	"bytes"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
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
		return nil, topologyTooLong(len(text))
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
	var count int
	tree, err := fromYAML(&doc, &count, 0)
	if err != nil {
		return nil, err
	}
	return readTopology(tree)
}

// fromYAML turns a yaml.Node tree into the document's tree: aliases
// expanded, "<<: *anchor" blocks merged into their map, every node made
// counted against maxTopologyValues (an alias expands a short text into
// millions: the count stops it) and depth bounded likewise.
func fromYAML(y *yaml.Node, count *int, depth int) (*docNode, error) {
	for hops := 0; y != nil && (y.Kind == yaml.AliasNode || y.Kind == yaml.DocumentNode); hops++ {
		if hops > 32 {
			return nil, tooMany(y.Line)
		}
		if y.Kind == yaml.AliasNode {
			y = y.Alias
		} else if len(y.Content) > 0 {
			y = y.Content[0]
		} else {
			y = nil
		}
	}
	if y == nil {
		return nil, tooMany(0)
	}
	if *count++; *count > maxTopologyValues || depth > 64 {
		return nil, tooMany(y.Line)
	}
	switch y.Kind {
	case yaml.ScalarNode:
		return &docNode{kind: docScalar, value: y.Value, null: y.Tag == "!!null", line: y.Line}, nil
	case yaml.SequenceNode:
		out := &docNode{kind: docList, line: y.Line, content: make([]*docNode, 0, min(len(y.Content), maxTopologyValues))}
		for _, c := range y.Content {
			d, err := fromYAML(c, count, depth+1)
			if err != nil {
				return nil, err
			}
			out.content = append(out.content, d)
		}
		return out, nil
	case yaml.MappingNode:
		out := &docNode{kind: docMap, line: y.Line}
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Tag == "!!merge" {
				m, err := fromYAML(v, count, depth+1)
				if err != nil {
					return nil, err
				}
				if m.kind != docMap {
					return nil, docErr("topology", m.value, m.line, []string{"KEY: VALUE"}, "a map to merge (<<: *anchor)")
				}
				out.content = append(out.content, m.content...)
				continue
			}
			dk, err := fromYAML(k, count, depth+1)
			if err != nil {
				return nil, err
			}
			dv, err := fromYAML(v, count, depth+1)
			if err != nil {
				return nil, err
			}
			out.content = append(out.content, dk, dv)
		}
		return out, nil
	}
	return nil, docErr("topology", y.Value, y.Line, []string{"YAML"}, "YAML or JSON")
}
