package importer

import "strings"

// input is a text with its parses, each made once and only when a format
// asks for it.
type input struct {
	text string

	jsonDone bool
	json     *node

	docsDone bool
	docs     []*node

	codeDone bool
	code     *code

	grpcDone bool
	grpc     *node
}

func newInput(text string) *input { return &input{text: text} }

// jsonValue is the text as one JSON value, or nil.
func (in *input) jsonValue() *node {
	if !in.jsonDone {
		in.jsonDone = true
		if t := strings.TrimSpace(in.text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			in.json, _ = jsonTree(in.text, 0)
		}
	}
	return in.json
}

// documents are the text's JSON value, or else its YAML documents.
func (in *input) documents() []*node {
	if !in.docsDone {
		in.docsDone = true
		if j := in.jsonValue(); j != nil {
			in.docs = []*node{j}
		} else if docs, err := yamlTrees(in.text); err == nil {
			in.docs = docs
		}
	}
	return in.docs
}

// tokens is the text tokenized as source code.
func (in *input) tokens() *code {
	if !in.codeDone {
		in.codeDone = true
		in.code = tokenize(in.text)
	}
	return in.code
}

// findMap returns the first map (depth first, in the documents' order)
// for which ok is true, and its parent.
func findMap(docs []*node, ok func(*node) bool) (found, parent *node) {
	var rec func(n, p *node) bool
	rec = func(n, p *node) bool {
		if n == nil {
			return false
		}
		if n.kind == nMap && ok(n) {
			found, parent = n, p
			return true
		}
		for _, v := range n.vals {
			if rec(v, n) {
				return true
			}
		}
		return false
	}
	for _, d := range docs {
		if rec(d, nil) {
			return
		}
	}
	return nil, nil
}

// callSite is a call or a typed literal in code: its dotted name, its
// opening bracket, its line.
type callSite struct {
	name string
	open int
	line int
	at   int // the name's first token
}

// calls lists the calls and typed literals whose name satisfies ok:
// f(...), a.B(...), T{...}, new T { ... }, new T<U>(...), @A(...).
// Bare decorators and annotations (@retry, @Retryable) come with open -1.
func (c *code) calls(ok func(name string) bool) []callSite {
	var out []callSite
	for k := 0; k < len(c.toks); k++ {
		// A name starts a chain, or follows a call: x().Foo(...).
		if c.ident(k) == "" || c.is(k-1, ".") && !c.is(k-2, ")") && !c.is(k-2, "]") {
			continue
		}
		name, j := c.name(k)
		if !ok(name) {
			k = j - 1
			continue
		}
		if c.is(j, "<") {
			for g := j + 1; g < len(c.toks) && g < j+16; g++ {
				if c.is(g, ">") {
					j = g + 1
					break
				}
			}
		}
		switch {
		case (c.is(j, "(") || c.is(j, "{")) && c.match[j] > j:
			out = append(out, callSite{name, j, c.line(k), k})
		case c.is(k-1, "@"):
			out = append(out, callSite{name, -1, c.line(k), k})
		}
		k = j - 1
	}
	return out
}

// assignment is X.Field = value in code.
type assignment struct {
	field    string
	from, to int
	line     int
}

// assignments lists the assignments to a field of some variable
// (o.MaxAttempts = 5, client.RetryMax = 10, options.Delay = ...) whose
// field satisfies ok.
func (c *code) assignments(ok func(field string) bool) []assignment {
	var out []assignment
	for k := 2; k+1 < len(c.toks); k++ {
		if !c.is(k+1, "=") || !c.is(k-1, ".") || c.ident(k) == "" || !ok(c.toks[k].text) {
			continue
		}
		end := c.exprEnd(k+2, len(c.toks))
		out = append(out, assignment{c.toks[k].text, k + 2, end, c.line(k)})
	}
	return out
}

// short is the last part of a dotted name.
func short(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// hasIdent reports whether code has an identifier or a dotted name part
// equal to one of names.
func (c *code) hasIdent(names ...string) bool {
	for _, t := range c.toks {
		if t.kind == tIdent {
			for _, n := range names {
				if t.text == n {
					return true
				}
			}
		}
	}
	return false
}

// hasString reports whether some string literal contains s (case
// folded).
func (c *code) hasString(s string) bool {
	s = strings.ToLower(s)
	for _, t := range c.toks {
		if t.kind == tStr && strings.Contains(strings.ToLower(t.text), s) {
			return true
		}
	}
	return false
}
