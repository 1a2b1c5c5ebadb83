package importer

import (
	"sort"
	"strings"
)

// What a value that is not a literal can still be read from, in the same
// text: a name defined once (const retryDelay = 10, RETRIES = 5), the last
// assignment to an object's field before the value (client.RetryWaitMin =
// ..., then client.RetryWaitMax = client.RetryWaitMin), a field of a
// literal bound to a name (c := &T{RetryMax: 3}, then c.RetryMax), and a
// function's own parameter default (def session(retries=5): ...
// Retry(total=retries)), which a caller may override, so a reader says
// it used one. A parameter without a default, or one its body assigns
// again, is not known: it shadows any constant of the same name.

// defs are the definitions of a text.
type defs struct {
	// consts are the names defined once, by their expression's tokens.
	consts map[string][2]int
	// fields are the assignments to dotted names, in the text's order.
	fields map[string][]fieldDef
	// params are the functions' parameters, by name.
	params map[string][]param
	// memo holds the values of definitions evaluated, by their first token.
	memo map[int]memoized
}

// fieldDef is one assignment to a dotted name: its "=" and its value.
type fieldDef struct{ at, from, to int }

// param is one parameter of a function: its default's tokens (none when
// from == to), and the tokens of the body where it is in scope.
type param struct {
	fn         string
	from, to   int
	body       [2]int
	reassigned bool
}

// paramUse is a parameter default a value was read from.
type paramUse struct {
	Name, Func, Value string
	Line              int // the line of the value that names it
}

// maxDefTokens bounds the top-level tokens of a definition's value: a
// longer one is no simple definition, and scanning every one of a run of
// chained assignments (a = a = a = ...) to its end would cost its square.
const maxDefTokens = 256

// controlWords open a bracket that is no parameter list.
const controlWords = " if for while switch catch return elif with foreach using lock fixed when synchronized and or not in await yield new "

// findDefs records the text's definitions and parameters.
func (c *code) findDefs() {
	c.consts = map[string][2]int{}
	c.fields = map[string][]fieldDef{}
	c.params = map[string][]param{}
	defined := map[string][]int{} // every definition of a plain name, by its "="
	var stack []string            // the open brackets; "block" for Go's const ( and var (
	for k := 0; k < len(c.toks); k++ {
		t := c.toks[k]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			open := t.text
			if t.text == "(" && (c.ident(k-1) == "const" || c.ident(k-1) == "var") {
				open = "block"
			}
			stack = append(stack, open)
			continue
		case ")", "]", "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		case "=", ":=":
		default:
			continue
		}
		if n := len(stack); n > 0 && (stack[n-1] == "(" || stack[n-1] == "[") {
			continue // a keyword argument, not a definition
		}
		// x += 1 defines x again, to a value not read here.
		if c.ident(k-1) == "" {
			if k >= 2 && c.toks[k-1].kind == tPunct && strings.Contains("+-*/%|&^", c.toks[k-1].text) && c.ident(k-2) != "" && !c.is(k-3, ".") {
				defined[c.toks[k-2].text] = append(defined[c.toks[k-2].text], k)
			}
			continue
		}
		s := k - 1 // the start of the dotted target
		for c.is(s-1, ".") && c.ident(s-2) != "" {
			s -= 2
		}
		end := c.defEnd(k + 1)
		if end < 0 {
			continue
		}
		inBlock := len(stack) > 0 && stack[len(stack)-1] == "block"
		goTyped := c.ident(s-1) != "" && (c.ident(s-2) == "const" || c.ident(s-2) == "var" ||
			inBlock && c.firstOnLine(s-1))
		var name string
		switch {
		case goTyped: // const retryDelay time.Duration = 10
			name = c.toks[s-1].text
		case s < k-1: // client.RetryWaitMin = ...
			target, _ := c.name(s)
			c.fields[target] = append(c.fields[target], fieldDef{k, k + 1, end})
			continue
		case c.is(s-1, ":") && c.ident(s-2) != "" && !c.is(s-3, "."): // RETRIES: int = 3
			name = c.toks[s-2].text
		default:
			name = c.toks[k-1].text
		}
		defined[name] = append(defined[name], k)
		c.consts[name] = [2]int{k + 1, end}
		c.literalFields(name, k, k+1, end)
	}
	for name, at := range defined {
		if len(at) > 1 {
			delete(c.consts, name)
		}
	}
	c.findParams(defined)
}

// defEnd is the end of a definition's value starting at k, or -1 when it
// has more than maxDefTokens top-level tokens.
func (c *code) defEnd(k int) int { return c.exprEndMax(k, len(c.toks), maxDefTokens) }

// literalFields records the keyed values of a literal bound to name (Go's
// &T{K: v}, C#'s new T { K = v }, a JavaScript object { k: v }) as
// assignments to name.K at the definition's "=".
func (c *code) literalFields(name string, at, from, to int) {
	k := from
	if c.is(k, "&") {
		k++
	}
	if c.ident(k) == "new" {
		k++
	}
	if c.ident(k) != "" {
		_, k = c.name(k)
		if c.is(k, "<") { // generic arguments
			for g := k + 1; g < to && g < k+16; g++ {
				if c.is(g, ">") {
					k = g + 1
					break
				}
			}
		}
		if c.is(k, "(") && c.match[k] > k {
			k = c.match[k] + 1 // C#: new T() { ... }
		}
	}
	if !c.is(k, "{") || c.match[k] < 0 || c.match[k] >= to {
		return
	}
	for _, a := range c.args(k) {
		if a.key != "" {
			f := name + "." + a.key
			c.fields[f] = append(c.fields[f], fieldDef{at, a.from, a.to})
		}
	}
}

// firstOnLine reports whether token k starts its line.
func (c *code) firstOnLine(k int) bool {
	return k == 0 || k > 0 && k < len(c.toks) && c.toks[k-1].line < c.toks[k].line
}

// col is token k's column, for Python's indented blocks.
func (c *code) col(k int) int {
	p := int(c.toks[k].pos)
	i := strings.LastIndexByte(c.src[:p], '\n')
	return p - i - 1
}

// findParams records the parameters of every function definition: def f(
// and async def f( (Python, its body the lines indented deeper), func,
// fun and function, and a parameter list followed by a body ({, =>).
func (c *code) findParams(defined map[string][]int) {
	type pyDef struct{ col, open int }
	var open []pyDef // Python defs whose bodies are still open
	pyBody := map[int]int{}
	for k := range c.toks {
		// A line inside brackets continues the one before (Python's
		// implicit joining): its indentation ends no block.
		if c.firstOnLine(k) && len(open) > 0 && c.parent[k] < 0 {
			col := c.col(k)
			for len(open) > 0 && open[len(open)-1].col >= col {
				pyBody[open[len(open)-1].open] = k
				open = open[:len(open)-1]
			}
		}
		if c.ident(k) == "def" && c.ident(k+1) != "" && c.is(k+2, "(") {
			open = append(open, pyDef{c.col(k), k + 2})
		}
	}
	for _, d := range open {
		pyBody[d.open] = len(c.toks)
	}
	for o := range c.toks {
		m := c.match[o]
		if !c.is(o, "(") || m <= o {
			continue
		}
		fn, body, goFunc := "", [2]int{-1, -1}, false
		before := c.ident(o - 1)
		switch {
		case c.ident(o-2) == "def":
			fn, body = before, [2]int{m + 1, pyBody[o]}
		case before == "func" || before == "function" || before == "fun":
			body = c.braceBody(m)
			goFunc = before == "func"
		case c.ident(o-2) == "func" || c.ident(o-2) == "function" || c.ident(o-2) == "fun" ||
			c.is(o-2, ")") && c.ident(o-1) != "" && c.match[o-2] >= 0 && c.ident(c.match[o-2]-1) == "func":
			fn, body = before, c.braceBody(m)
			goFunc = c.ident(o-2) == "func" || c.is(o-2, ")")
		case wordIn(controlWords, before):
		default:
			if b := c.braceBody(m); b[0] >= 0 && (c.is(m+1, "{") || c.is(m+1, "=>") || c.is(m+1, ":") || c.ident(m+1) == "throws") {
				fn, body = before, b
			}
		}
		if body[0] < 0 || body[1] <= body[0] {
			continue
		}
		for _, seg := range c.segments(o) {
			name, from, to := c.paramOf(seg[0], seg[1], goFunc)
			if name == "" {
				continue
			}
			p := param{fn: fn, from: from, to: to, body: body}
			for _, at := range defined[name] {
				p.reassigned = p.reassigned || at >= body[0] && at < body[1]
			}
			c.params[name] = append(c.params[name], p)
		}
	}
}

// braceBody is the body after a parameter list closing at m: the block
// after { (past a return type or throws clause on the same line), or
// the expression after =>; [-1, -1] when none follows.
func (c *code) braceBody(m int) [2]int {
	for j := m + 1; j < len(c.toks) && j < m+12 && c.toks[j].line == c.toks[m].line; j++ {
		switch {
		case c.is(j, "{") && c.match[j] > j:
			return [2]int{j + 1, c.match[j]}
		case c.is(j, "=>"):
			if c.is(j+1, "{") && c.match[j+1] > j {
				return [2]int{j + 2, c.match[j+1]}
			}
			return [2]int{j + 1, c.exprEnd(j+1, len(c.toks))}
		case c.is(j, ";"), c.is(j, "="), c.is(j, "("), c.is(j, ")"), c.is(j, ","):
			return [2]int{-1, -1}
		}
	}
	return [2]int{-1, -1}
}

// segments splits the tokens inside the bracket at open at its commas.
func (c *code) segments(open int) [][2]int {
	end := c.match[open]
	var out [][2]int
	start := open + 1
	for j := open + 1; j < end; j++ {
		if m := c.match[j]; m > j && (c.is(j, "(") || c.is(j, "[") || c.is(j, "{")) {
			j = m
			continue
		}
		if c.is(j, ",") {
			out = append(out, [2]int{start, j})
			start = j + 1
		}
	}
	if start < end {
		out = append(out, [2]int{start, end})
	}
	return out
}

// paramOf reads one parameter: its name and its default's tokens. The
// name is the one before "=" or ":" (Python, TypeScript, Kotlin, C#'s
// int retries = 3), else the first word in Go (retries int) and the last
// elsewhere (Java's final int retries).
func (c *code) paramOf(from, to int, goFunc bool) (string, int, int) {
	eq, colon := -1, -1
	for j := from; j < to; j++ {
		if m := c.match[j]; m > j && m < to {
			j = m
			continue
		}
		switch {
		case c.is(j, "=") && eq < 0:
			eq = j
		case c.is(j, ":") && colon < 0 && eq < 0:
			colon = j
		}
	}
	switch {
	case colon > from && c.ident(colon-1) != "":
		if eq > colon {
			return c.toks[colon-1].text, eq + 1, to
		}
		return c.toks[colon-1].text, to, to
	case eq > from && c.ident(eq-1) != "":
		return c.toks[eq-1].text, eq + 1, to
	case eq >= 0:
		return "", 0, 0
	case goFunc:
		return c.ident(from), to, to
	}
	for j := to - 1; j >= from; j-- {
		if s := c.ident(j); s != "" {
			return s, to, to
		}
	}
	return "", 0, 0
}

// paramAt is the innermost parameter named name whose body holds token
// at, or nil.
func (c *code) paramAt(name string, at int) *param {
	var best *param
	for i := range c.params[name] {
		p := &c.params[name][i]
		if at >= p.body[0] && at < p.body[1] && (best == nil || p.body[1]-p.body[0] < best.body[1]-best.body[0]) {
			best = p
		}
	}
	return best
}

// lookup evaluates a name token at names: a parameter in scope (its
// default), a constant, or a dotted name's last assignment before it.
func (e *evaluator) lookup(name string, at int) (*value, bool) {
	c := e.c
	span := [2]int{-1, -1}
	var p *param
	switch {
	case !strings.Contains(name, "."):
		if p = c.paramAt(name, at); p != nil {
			if p.from >= p.to || p.reassigned {
				return nil, false // a caller's value: not known here
			}
			span = [2]int{p.from, p.to}
		} else if s, ok := c.consts[name]; ok {
			span = s
		}
	default:
		// The last assignment before at (not the one whose value holds
		// at: x.A = x.A + 1 reads the x.A before); defs are in order.
		defs := c.fields[name]
		for i := sort.Search(len(defs), func(i int) bool { return defs[i].at >= at }) - 1; i >= 0; i-- {
			if defs[i].to <= at {
				span = [2]int{defs[i].from, defs[i].to}
				break
			}
		}
	}
	if at >= span[0] && at < span[1] {
		return nil, false // a definition naming itself
	}
	if span[0] < 0 || span[0] >= span[1] {
		return nil, false
	}
	// A definition's value is the same wherever it is named: it is
	// evaluated once (with the parameter defaults it read), so a chain
	// of definitions naming the last (c.A = c.A + c.A) costs its length.
	m, ok := c.memo[span[0]]
	if !ok {
		used := len(c.used)
		v, end := e.sum(span[0], span[1])
		if end != span[1] || v.kind == vBad {
			return nil, false // perhaps out of steps here: not kept
		}
		m = memoized{v, append([]paramUse(nil), c.used[used:]...)}
		c.used = c.used[:used]
		if c.memo == nil {
			c.memo = map[int]memoized{}
		}
		c.memo[span[0]] = m
	}
	c.used = append(c.used, m.used...)
	if p != nil {
		c.used = append(c.used, paramUse{Name: name, Func: p.fn, Value: c.text(span[0], span[1]), Line: c.line(at)})
	}
	cp := *m.v // callers set the text and line of the value they get
	return &cp, true
}

// memoized is a definition's value and the parameter defaults it read.
type memoized struct {
	v    *value
	used []paramUse
}
