package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// node is a JSON or YAML value with the line it starts on: what the
// configuration formats read, from either parser.
type node struct {
	kind     nodeKind
	line     int
	keys     []string // a map's keys, in order
	keyLines []int
	vals     []*node // a map's values, or a list's items
	text     string  // a scalar's text
	str      bool    // a scalar written as a string (quoted, or YAML !!str)
	quoted   bool    // written in quotes (JSON strings, YAML's quoted styles)
	null     bool
}

type nodeKind uint8

const (
	nScalar nodeKind = iota
	nMap
	nList
)

// maxNodes bounds a tree: YAML aliases could otherwise expand a small
// text into a huge one. A config of MaxInput bytes holds far fewer.
const maxNodes = 100_000

// MaxDepth is the deepest nesting of JSON or YAML values read: a config
// nests a dozen levels; the bound keeps every walk of a tree short (the
// page's WebAssembly stack is small) and its paths short.
const MaxDepth = 200

var (
	errTooBig  = errors.New("too many values")
	errTooDeep = errors.New("nested too deep")
)

// refusal is the RefusedError for a tree reader's error, or nil.
func refusal(syntax string, err error) *RefusedError {
	switch {
	case errors.Is(err, errTooDeep):
		return &RefusedError{Syntax: syntax, Reason: RefusedDepth, Limit: MaxDepth}
	case errors.Is(err, errTooBig):
		return &RefusedError{Syntax: syntax, Reason: RefusedValues, Limit: maxNodes}
	}
	return nil
}

// get returns the value of key in a map, and the key's line. With fold,
// keys match case-insensitively, as encoding/json matches struct fields
// (an exact match first, then any; the last of equal keys wins, as
// json.Unmarshal keeps the last).
func (n *node) get(key string, fold bool) (*node, int) {
	if n == nil || n.kind != nMap {
		return nil, 0
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return n.vals[i], n.keyLines[i]
		}
	}
	if fold {
		for i := len(n.keys) - 1; i >= 0; i-- {
			if strings.EqualFold(n.keys[i], key) {
				return n.vals[i], n.keyLines[i]
			}
		}
	}
	return nil, 0
}

// has reports whether a map has key (folded when fold).
func (n *node) has(key string, fold bool) bool {
	v, _ := n.get(key, fold)
	return v != nil
}

// walk calls f on n and every value under it, depth first, until f
// returns false for a node (its children are then skipped).
func (n *node) walk(f func(*node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, v := range n.vals {
		v.walk(f)
	}
}

// source writes a scalar for a message: as written, strings quoted.
func (n *node) source() string {
	switch {
	case n == nil:
		return ""
	case n.kind == nMap:
		return "{…}"
	case n.kind == nList:
		return "[…]"
	case n.quoted:
		return `"` + n.text + `"`
	}
	return n.text
}

// jsonTree reads text as one JSON value with encoding/json, keeping each
// value's line. lineBase is added to every line (a JSON string inside
// code starts on some line of the file).
func jsonTree(text string, lineBase int) (*node, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	lines := newLineIndex(text)
	count, depth := 0, 0
	var value func() (*node, error)
	value = func() (*node, error) {
		if count++; count > maxNodes {
			return nil, errTooBig
		}
		if depth > MaxDepth {
			return nil, errTooDeep
		}
		depth++
		defer func() { depth-- }()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		line := lines.at(int(dec.InputOffset())-1) + lineBase
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				n := &node{kind: nMap, line: line}
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return nil, err
					}
					k, _ := kt.(string)
					kl := lines.at(int(dec.InputOffset())-1) + lineBase
					v, err := value()
					if err != nil {
						return nil, err
					}
					n.keys, n.keyLines, n.vals = append(n.keys, k), append(n.keyLines, kl), append(n.vals, v)
				}
				_, err := dec.Token()
				return n, err
			case '[':
				n := &node{kind: nList, line: line}
				for dec.More() {
					v, err := value()
					if err != nil {
						return nil, err
					}
					n.vals = append(n.vals, v)
				}
				_, err := dec.Token()
				return n, err
			}
			return nil, errors.New("unexpected delimiter")
		case string:
			return &node{line: line, text: t, str: true, quoted: true}, nil
		case json.Number:
			return &node{line: line, text: t.String()}, nil
		case bool:
			if t {
				return &node{line: line, text: "true"}, nil
			}
			return &node{line: line, text: "false"}, nil
		case nil:
			return &node{line: line, text: "null", null: true}, nil
		}
		return nil, errors.New("unexpected token")
	}
	n, err := value()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return n, nil
}

// yamlTrees reads every document of text with go.yaml.in/yaml/v3 (an
// Istio file often holds several), at most 32.
func yamlTrees(text string) ([]*node, error) {
	dec := yaml.NewDecoder(bytes.NewReader([]byte(text)))
	var docs []*node
	count := 0
	for len(docs) < 32 {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		n, err := fromYAML(&doc, &count, 0)
		if err != nil {
			return nil, err
		}
		if n != nil {
			docs = append(docs, n)
		}
	}
	return docs, nil
}

func fromYAML(y *yaml.Node, count *int, depth int) (*node, error) {
	if *count++; *count > maxNodes {
		return nil, errTooBig
	}
	if depth > MaxDepth {
		return nil, errTooDeep
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return nil, nil
		}
		return fromYAML(y.Content[0], count, depth+1)
	case yaml.AliasNode:
		if y.Alias == nil {
			return nil, errors.New("bad alias")
		}
		return fromYAML(y.Alias, count, depth+1)
	case yaml.MappingNode:
		n := &node{kind: nMap, line: y.Line}
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Tag == "!!merge" { // <<: *defaults merges the anchor's keys
				m, err := fromYAML(v, count, depth+1)
				if err != nil {
					return nil, err
				}
				if m != nil && m.kind == nMap {
					n.keys, n.keyLines, n.vals = append(n.keys, m.keys...), append(n.keyLines, m.keyLines...), append(n.vals, m.vals...)
				}
				continue
			}
			vn, err := fromYAML(v, count, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys, n.keyLines, n.vals = append(n.keys, k.Value), append(n.keyLines, k.Line), append(n.vals, vn)
		}
		return n, nil
	case yaml.SequenceNode:
		n := &node{kind: nList, line: y.Line}
		for _, c := range y.Content {
			vn, err := fromYAML(c, count, depth+1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, vn)
		}
		return n, nil
	}
	return &node{line: y.Line, text: y.Value, str: y.Tag == "!!str", null: y.Tag == "!!null",
		quoted: y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0}, nil
}

// flat is one leaf of a tree or a properties file: its dotted path, its
// value and line.
type flat struct {
	path string
	val  *node
	line int
}

// flatten lists a tree's scalars by dotted path (lists by index), as
// Spring reads YAML and properties alike, leaving out the subtrees whose
// path keep refuses. Paths take at most maxPathBytes in all, so a deep
// tree of long keys costs what its text does, not its depth times that.
func flatten(n *node, keep func(path string) bool) []flat {
	var out []flat
	budget := maxPathBytes
	var rec func(prefix string, n *node, line int)
	rec = func(prefix string, n *node, line int) {
		if len(out) > maxNodes || n == nil || budget < 0 {
			return
		}
		switch n.kind {
		case nMap:
			for i, k := range n.keys {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				if budget -= len(p); budget < 0 || !keep(p) {
					continue
				}
				rec(p, n.vals[i], n.keyLines[i])
			}
		case nList:
			for i, v := range n.vals {
				p := prefix + "[" + itoa(i) + "]"
				if budget -= len(p); budget < 0 {
					return
				}
				rec(p, v, v.line)
			}
		default:
			out = append(out, flat{prefix, n, line})
		}
	}
	rec("", n, n.line)
	return out
}

// maxPathBytes bounds the paths flatten builds.
const maxPathBytes = 4 * MaxInput

// properties reads a Java .properties text: key=value, key: value or
// key value, # and ! comments, a trailing backslash continuing a line;
// the keys keep accepts. ok is false when a non-comment line has no
// separator.
func properties(text string, keep func(key string) bool) (out []flat, ok bool) {
	line := 0
	for rest := text; rest != ""; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		line++
		start := line
		l = strings.TrimSpace(l)
		if strings.HasSuffix(l, `\`) {
			var b strings.Builder
			b.WriteString(l)
			for strings.HasSuffix(l, `\`) && rest != "" {
				l, rest, _ = strings.Cut(rest, "\n")
				line++
				l = strings.TrimSpace(l)
				s := b.String()
				b.Reset()
				b.WriteString(strings.TrimSuffix(s, `\`))
				b.WriteString(l)
			}
			l = b.String()
		}
		if l == "" || l[0] == '#' || l[0] == '!' {
			continue
		}
		j := strings.IndexAny(l, "=: \t")
		if j <= 0 {
			return nil, false
		}
		k, v := strings.TrimSpace(l[:j]), strings.TrimSpace(strings.TrimLeft(l[j:], "=: \t"))
		if keep(k) {
			out = append(out, flat{k, &node{line: start, text: v}, start})
		}
	}
	return out, true
}

// lineIndex maps byte offsets to 1-based lines.
type lineIndex []int

func newLineIndex(text string) lineIndex {
	idx := lineIndex{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (li lineIndex) at(off int) int {
	lo, hi := 0, len(li)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if li[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo + 1
}
