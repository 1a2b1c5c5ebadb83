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

	// refused is why the JSON or YAML parse was given up, or nil.
	refused *RefusedError
	// reason is why a format the text is in found no policy, or "".
	reason string

	r4jDone bool
	r4j     []flat
}

func newInput(text string) *input { return &input{text: text} }

// jsonValue is the text as one JSON value, or nil.
func (in *input) jsonValue() *node {
	if !in.jsonDone {
		in.jsonDone = true
		if t := strings.TrimSpace(in.text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var err error
			if in.json, err = jsonTree(in.text, 0); err != nil {
				in.refused = refusal("JSON", err)
			}
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
		} else if in.refused != nil {
			// A JSON text too deep for the JSON reader is no better as YAML.
		} else if docs, err := yamlTrees(in.text); err == nil {
			in.docs = docs
		} else {
			in.refused = refusal("YAML", err)
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
// callsNamed are the calls whose name is one of the words of set (see
// wordIn); callsShort, whose last part is. One closure each instead of a
// closure per call site: app.wasm holds every closure as a function.
func (c *code) callsNamed(set string) []callSite {
	return c.calls(func(n string) bool { return wordIn(set, n) })
}

func (c *code) callsShort(set string) []callSite {
	return c.calls(func(n string) bool { return wordIn(set, short(n)) })
}

// Bare decorators and annotations (@retry, @Retryable) come with open -1.
func (c *code) calls(ok func(name string) bool) []callSite {
	var out []callSite
	for k := 0; k < len(c.toks); k++ {
		// A name starts a chain, or follows a call: x().Foo(...).
		if c.ident(k) == "" || c.is(k-1, ".") && !c.is(k-2, ")") && !c.is(k-2, "]") {
			continue
		}
		name, j := c.name(k)
		if !ok(name) || wordIn(defWords, c.ident(k-1)) { // def retry(fn): a definition, not a call
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

// defWords start a function's definition.
const defWords = " def func function fun "

// assignment is X.Field = value in code.
type assignment struct {
	field    string
	target   string // X: the object, a dotted name
	at       int    // the field's token
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
		end := c.defEnd(k + 2)
		if end < 0 {
			continue
		}
		s := k - 1
		for c.is(s, ".") && c.ident(s-1) != "" && c.is(s-2, ".") {
			s -= 2
		}
		target, _ := c.name(s - 1)
		target = strings.TrimSuffix(target, "."+c.toks[k].text)
		out = append(out, assignment{c.toks[k].text, target, k, k + 2, end, c.line(k)})
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

// siteVar is the variable a call site's value is bound to: x in x = f(),
// x := f(), var x = new T(), const x: T = f(), self.x = f(); "" when
// none. at is the site's first token.
func (c *code) siteVar(at int) string {
	k := at
	for c.ident(k-1) == "new" || c.ident(k-1) == "await" || c.is(k-1, "&") || c.is(k-1, "*") {
		k--
	}
	if !c.is(k-1, "=") && !c.is(k-1, ":=") {
		return ""
	}
	e := k - 2
	if c.ident(e) != "" && c.is(e-1, ":") && c.ident(e-2) != "" { // x: T = f()
		e -= 2
	}
	if c.ident(e) == "" {
		if c.is(e, "}") && c.match[e] >= 0 { // const { a, b } = f()
			var names []string
			for j := c.match[e] + 1; j < e; j++ {
				if s := c.ident(j); s != "" && !c.is(j-1, ":") {
					names = append(names, s)
				}
			}
			return strings.Join(names, ", ")
		}
		return ""
	}
	s := e
	for c.is(s-1, ".") && c.ident(s-2) != "" {
		s -= 2
	}
	if s < e {
		name, _ := c.name(s)
		return name
	}
	return c.toks[e].text
}

// decorated is the function or method a decorator or an annotation
// whose tokens end before k is on: def f, func f, public String f(...).
func (c *code) decorated(k int) string {
	for j := k; j < len(c.toks) && j < k+48; j++ {
		switch {
		case c.is(j, "@"): // another decorator: skip its name and arguments
			_, n := c.name(j + 1)
			if c.is(n, "(") && c.match[n] > n {
				n = c.match[n] + 1
			}
			j = n - 1
		case c.ident(j) == "def" || c.ident(j) == "func" || c.ident(j) == "fun" || c.ident(j) == "function" || c.ident(j) == "class":
			return c.ident(j + 1)
		case c.ident(j) != "" && c.is(j+1, "(") && !c.is(j-1, "."):
			return c.toks[j].text
		case c.is(j, "{"), c.is(j, ";"), c.is(j, "="):
			return ""
		}
	}
	return ""
}

// siteName names a call site for a list of policies: the variable it is
// bound to, the function it decorates, or the variable bound to a call or
// literal it sits in (ao := workflow.ActivityOptions{RetryPolicy: &...}).
func (c *code) siteName(cs callSite) string {
	if c.is(cs.at-1, "@") {
		end := cs.at + 1
		if _, n := c.name(cs.at); n > cs.at {
			end = n
		}
		if cs.open >= 0 && c.match[cs.open] > cs.open {
			end = c.match[cs.open] + 1
		}
		return c.decorated(end)
	}
	if v := c.siteVar(cs.at); v != "" {
		return v
	}
	if c.ident(cs.at-1) == "return" || c.ident(cs.at-2) == "return" && c.ident(cs.at-1) == "new" {
		// return retry(...): the function it is the value of.
		for o, depth := c.parent[cs.at], 0; o >= 0 && depth < 8; o, depth = c.parent[o], depth+1 {
			if c.is(o, "{") && c.is(o-1, ")") && c.match[o-1] >= 0 {
				if f := c.ident(c.match[o-1] - 1); f != "" && !wordIn(controlWords, f) {
					return f
				}
			}
		}
	}
	k := cs.at
	for depth := 0; depth < 4; depth++ {
		o := c.parent[k]
		if o < 0 {
			break
		}
		// the name of the call or literal that opens o: f(, T{, f<G>(
		s := o - 1
		if c.is(s, ">") {
			for depth, n := 0, 0; s > 0 && n < 32; n++ {
				if c.is(s, ">") {
					depth++
				} else if c.is(s, "<") {
					if depth--; depth == 0 {
						s--
						break
					}
				}
				s--
			}
		}
		for c.is(s-1, ".") && c.ident(s-2) != "" {
			s -= 2
		}
		if c.ident(s) != "" {
			if v := c.siteVar(s); v != "" {
				return v
			}
		}
		k = o
	}
	return ""
}

// within reports whether token k is inside the bracket at open.
func (c *code) within(k, open int) bool {
	return open >= 0 && open < len(c.match) && k > open && k < c.match[open]
}

// chainEnd is the end of a method chain whose first call opens at open:
// the token after f().a().b(...).
func (c *code) chainEnd(open int) int {
	if open < 0 || c.match[open] < open {
		return open + 1
	}
	k := c.match[open] + 1
	for c.is(k, ".") && c.ident(k+1) != "" && c.is(k+2, "(") && c.match[k+2] > k {
		k = c.match[k+2] + 1
	}
	return k
}
