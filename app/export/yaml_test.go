package export

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// parseYAML reads the subset of YAML the snippets are written in, and
// refuses anything else: block mappings ("key: value", "key:" then a
// deeper block), block sequences of scalars ("- 503") at or below their
// key's indentation plus two, plain or double-quoted scalars, "# ..."
// comments on their own line or after a space, and blank lines. Indents
// are spaces; a key appears once per mapping. Scalars stay strings.
//
// It is strict on purpose: it checks the shape the snippets promise, not
// YAML at large, and the repository takes no YAML dependency.
func parseYAML(text string) (map[string]any, error) {
	type line struct {
		n      int
		indent int
		text   string
	}
	var lines []line
	for i, raw := range strings.Split(text, "\n") {
		if strings.ContainsRune(raw, '\t') {
			return nil, fmt.Errorf("line %d: a tab", i+1)
		}
		t := strings.TrimRight(raw, " ")
		body := strings.TrimLeft(t, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		if k := strings.Index(body, " #"); k >= 0 && !strings.Contains(body[:k], `"`) {
			body = strings.TrimRight(body[:k], " ")
		}
		lines = append(lines, line{i + 1, len(t) - len(strings.TrimLeft(t, " ")), body})
	}
	pos := 0
	var block func(indent int) (any, error)
	scalar := func(n int, s string) (string, error) {
		if strings.HasPrefix(s, `"`) {
			if len(s) < 2 || !strings.HasSuffix(s, `"`) || strings.Contains(s[1:len(s)-1], `"`) || strings.Contains(s, `\`) {
				return "", fmt.Errorf("line %d: bad quoted scalar %s", n, s)
			}
			return s[1 : len(s)-1], nil
		}
		if s == "" || strings.ContainsAny(s[:1], "{[&*!|>'%@`") || strings.Contains(s, ": ") {
			return "", fmt.Errorf("line %d: not a plain scalar: %q", n, s)
		}
		return s, nil
	}
	block = func(indent int) (any, error) {
		if pos >= len(lines) || lines[pos].indent != indent {
			return nil, fmt.Errorf("line %d: want a block at indent %d", lines[min(pos, len(lines)-1)].n, indent)
		}
		if strings.HasPrefix(lines[pos].text, "- ") {
			var seq []any
			for pos < len(lines) && lines[pos].indent == indent && strings.HasPrefix(lines[pos].text, "- ") {
				v, err := scalar(lines[pos].n, lines[pos].text[2:])
				if err != nil {
					return nil, err
				}
				seq = append(seq, v)
				pos++
			}
			if pos < len(lines) && lines[pos].indent > indent {
				return nil, fmt.Errorf("line %d: indented after a sequence", lines[pos].n)
			}
			return seq, nil
		}
		m := map[string]any{}
		for pos < len(lines) && lines[pos].indent == indent {
			l := lines[pos]
			key, rest, ok := strings.Cut(l.text, ":")
			if !ok || key == "" || strings.ContainsAny(key, " \"'#{}[],") {
				return nil, fmt.Errorf("line %d: want key: value, got %q", l.n, l.text)
			}
			if _, dup := m[key]; dup {
				return nil, fmt.Errorf("line %d: key %q twice", l.n, key)
			}
			pos++
			if rest == "" {
				if pos >= len(lines) || lines[pos].indent < indent {
					return nil, fmt.Errorf("line %d: key %q has no value", l.n, key)
				}
				child := lines[pos].indent
				if child == indent && !strings.HasPrefix(lines[pos].text, "- ") || child != indent && child != indent+2 {
					return nil, fmt.Errorf("line %d: key %q: the block must be indented by 2 (or a sequence at the same indent)", l.n, key)
				}
				v, err := block(child)
				if err != nil {
					return nil, err
				}
				m[key] = v
				continue
			}
			if !strings.HasPrefix(rest, " ") {
				return nil, fmt.Errorf("line %d: want a space after %q:", l.n, key)
			}
			v, err := scalar(l.n, strings.TrimSpace(rest))
			if err != nil {
				return nil, err
			}
			m[key] = v
			if pos < len(lines) && lines[pos].indent > indent {
				return nil, fmt.Errorf("line %d: indented under a scalar", lines[pos].n)
			}
		}
		return m, nil
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("empty document")
	}
	v, err := block(0)
	if err != nil {
		return nil, err
	}
	if pos != len(lines) {
		return nil, fmt.Errorf("line %d: unexpected indentation", lines[pos].n)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is not a mapping")
	}
	return m, nil
}

func TestParseYAML(t *testing.T) {
	got, err := parseYAML(`# a comment
a:
  b: 1 # trailing
  c:
  - x
  - "y z"
  d:
    e: 0.5s
f: on
`)
	want := map[string]any{"a": map[string]any{"b": "1", "c": []any{"x", "y z"}, "d": map[string]any{"e": "0.5s"}}, "f": "on"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("parseYAML = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{
		"a:\n\tb: 1\n",        // tab
		"a: 1\na: 2\n",        // duplicate
		"a:\n   b: 1\n",       // indent 3
		"a: 1\n  b: 2\n",      // indented under a scalar
		"a: {b: 1}\n",         // flow mapping
		"a: [1, 2]\n",         // flow sequence
		"a:b\n",               // no space
		"- 1\n",               // top-level sequence
		"a:\n",                // no value
		"a: \"x\n",            // open quote
		"a:\n  - 1\n    b: 2", // indented after a sequence
		"",
	} {
		if got, err := parseYAML(bad); err == nil {
			t.Errorf("parseYAML(%q) = %v, want an error", bad, got)
		}
	}
}
