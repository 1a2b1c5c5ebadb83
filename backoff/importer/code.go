package importer

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The source-code formats (Go, Python, C#, Java, TypeScript) share one
// tokenizer and one evaluator of literal expressions. A format finds its
// constructor, struct literal or assignments among the tokens and
// evaluates each value; anything that is not a literal (a variable, a
// call the evaluator does not know) comes back as such, for the format to
// name in a CodeUnreadable warning.

type tokKind uint8

const (
	tIdent tokKind = iota
	tNum
	tStr
	tPunct
)

// token is kept small: a text of MaxInput bytes makes up to maxTokens.
type token struct {
	text     string // a string's value, unquoted; else as written
	line     int32
	pos, end int32 // byte offsets in the source
	kind     tokKind
}

// code is a tokenized source text.
type code struct {
	src    string
	toks   []token
	match  []int // the index of the matching bracket, or -1
	parent []int // the index of the innermost open bracket around each token, or -1

	defs
	imports

	// budget is the evaluation steps left for the whole text: every
	// evaluation of a value spends from it, so a text's evaluations cost
	// at most a fixed multiple of its tokens, however they nest.
	budget int
	// used are the parameter defaults read while evaluating (a value
	// named by a function's parameter), for the reader to say so.
	used []paramUse
}

// maxTokens bounds the work on one text (MaxInput bytes make fewer).
const maxTokens = 200_000

func tokenize(src string) *code {
	c := &code{src: src}
	line := 1
	i := 0
	// Code makes a token every two bytes at the most, but for runs of
	// punctuation.
	c.toks = make([]token, 0, min(maxTokens, len(src)/2+16))
	add := func(k tokKind, text string, start int) {
		c.toks = append(c.toks, token{kind: k, text: text, line: int32(line), pos: int32(start), end: int32(i)})
	}
	for i < len(src) && len(c.toks) < maxTokens {
		ch := src[i]
		start := i
		switch {
		case ch == '\n':
			line++
			i++
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v':
			i++
		case ch == '/' && i+1 < len(src) && src[i+1] == '/', ch == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
				}
				i++
			}
			i = min(i+2, len(src))
		case ch == '"' || ch == '\'' || ch == '`':
			startLine := line
			s := c.readString(&i, &line, false)
			c.toks = append(c.toks, token{kind: tStr, text: s, line: int32(startLine), pos: int32(start), end: int32(i)})
		case ch == '@' && i+1 < len(src) && src[i+1] == '"': // C# verbatim string
			i++
			startLine := line
			s := c.readString(&i, &line, true)
			c.toks = append(c.toks, token{kind: tStr, text: s, line: int32(startLine), pos: int32(start), end: int32(i)})
		case ch >= '0' && ch <= '9' || ch == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			for i < len(src) && (isAlnum(src[i]) || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && !strings.HasPrefix(src[start:], "0x")) {
				i++
			}
			add(tNum, src[start:i], start)
		case isAlnum(ch) || ch == '$' || ch >= utf8.RuneSelf:
			for i < len(src) && (isAlnum(src[i]) || src[i] == '$' || src[i] >= utf8.RuneSelf) {
				_, n := utf8.DecodeRuneInString(src[i:])
				i += n
			}
			word := src[start:i]
			// Python's r"", b"", f"" and C#'s $"" prefixes.
			if i < len(src) && (src[i] == '"' || src[i] == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbfu$") == "" {
				startLine := line
				s := c.readString(&i, &line, strings.ContainsAny(strings.ToLower(word), "r"))
				c.toks = append(c.toks, token{kind: tStr, text: s, line: int32(startLine), pos: int32(start), end: int32(i)})
				continue
			}
			add(tIdent, word, start)
		default:
			n := 1
			for _, op := range []string{"**", "==", "!=", "<=", ">=", ":=", "=>", "->", "&&", "||", "::"} {
				if strings.HasPrefix(src[i:], op) {
					n = 2
					break
				}
			}
			i += n
			add(tPunct, src[start:i], start)
		}
	}
	c.match = make([]int, len(c.toks))
	c.parent = make([]int, len(c.toks))
	var stack []int
	for k := range c.toks {
		c.match[k] = -1
		c.parent[k] = -1
		if n := len(stack); n > 0 {
			c.parent[k] = stack[n-1]
		}
		t := c.toks[k]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, k)
		case ")", "]", "}":
			want := "("
			if t.text == "]" {
				want = "["
			} else if t.text == "}" {
				want = "{"
			}
			if n := len(stack); n > 0 && c.toks[stack[n-1]].text == want {
				c.match[k], c.match[stack[n-1]] = stack[n-1], k
				stack = stack[:n-1]
			}
		}
	}
	c.findImports()
	c.findDefs()
	c.budget = 2*len(c.toks) + 20_000
	return c
}

func isAlnum(ch byte) bool {
	return ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9'
}

// readString reads a string literal at src[*i]: "..." and '...' with
// backslash escapes, """...""" and ”'...”' (Python, Java text blocks),
// `...` raw (Go) or template (JavaScript), verbatim (raw) "..." with ""
// for a quote (C#'s @"", Python's r""). It returns the value.
func (c *code) readString(i *int, line *int, raw bool) string {
	src := c.src
	q := src[*i]
	triple := q != '`' && strings.HasPrefix(src[*i:], strings.Repeat(string(q), 3))
	var b strings.Builder
	if triple {
		*i += 3
		for *i < len(src) && !strings.HasPrefix(src[*i:], strings.Repeat(string(q), 3)) {
			if src[*i] == '\n' {
				*line++
			}
			if src[*i] == '\\' && !raw && *i+1 < len(src) {
				*i++
				b.WriteString(unescape(src[*i]))
				*i++
				continue
			}
			b.WriteByte(src[*i])
			*i++
		}
		*i = min(*i+3, len(src))
		return b.String()
	}
	*i++
	for *i < len(src) {
		ch := src[*i]
		switch {
		case ch == q && raw && q == '"' && *i+1 < len(src) && src[*i+1] == '"':
			b.WriteByte('"')
			*i += 2
			continue
		case ch == q:
			*i++
			return b.String()
		case ch == '\n':
			*line++
			if q != '`' && !raw {
				*i++
				return b.String() // an unterminated string ends at the line
			}
		case ch == '\\' && q != '`' && !raw && *i+1 < len(src):
			*i++
			if src[*i] == 'u' && *i+4 < len(src) {
				if r, err := strconv.ParseUint(src[*i+1:*i+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					*i += 5
					continue
				}
			}
			if src[*i] == '\n' {
				*line++
			}
			b.WriteString(unescape(src[*i]))
			*i++
			continue
		}
		b.WriteByte(ch)
		*i++
	}
	return b.String()
}

func unescape(ch byte) string {
	switch ch {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	case '\n':
		return ""
	}
	return string(ch)
}

func (c *code) is(k int, text string) bool {
	return k >= 0 && k < len(c.toks) && c.toks[k].kind == tPunct && c.toks[k].text == text
}

func (c *code) ident(k int) string {
	if k >= 0 && k < len(c.toks) && c.toks[k].kind == tIdent {
		return c.toks[k].text
	}
	return ""
}

// name reads a dotted name starting at k (a.b.C), returning it and the
// index after it. An imported alias at its head is replaced by what it
// stands for (rhttp.NewClient is retryablehttp.NewClient). A name has at
// most maxNameParts parts: a longer chain is no name a reader looks for,
// and reading it whole at each of its parts would cost its square.
func (c *code) name(k int) (string, int) {
	s := c.ident(k)
	if s == "" {
		return "", k
	}
	var b strings.Builder
	b.WriteString(c.resolve(s))
	k++
	for n := 1; n < maxNameParts && c.is(k, ".") && c.ident(k+1) != ""; n++ {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(c.toks[k+1].text)
		k += 2
	}
	return b.String(), k
}

const maxNameParts = 16

// text is the source of tokens [from, to), for messages.
func (c *code) text(from, to int) string {
	if from >= to || from < 0 || to > len(c.toks) {
		return ""
	}
	return c.src[c.toks[from].pos:c.toks[to-1].end]
}

// line is the line of token k.
func (c *code) line(k int) int {
	if k >= 0 && k < len(c.toks) {
		return int(c.toks[k].line)
	}
	return 0
}

// exprEnd returns the end of the expression starting at k: the first
// comma, semicolon or closing bracket at its own depth, or a line break
// after a token that cannot continue an expression.
func (c *code) exprEnd(k, limit int) int { return c.exprEndMax(k, limit, -1) }

// exprEndMax is exprEnd, or -1 once it has looked at max tokens of the
// expression's own level (max < 0: no bound).
func (c *code) exprEndMax(k, limit, max int) int {
	depth := 0
	for j := k; j < limit; j++ {
		if max--; max == -1 {
			return -1
		}
		t := c.toks[j]
		if j > k && depth == 0 && t.line > c.toks[j-1].line {
			prev := c.toks[j-1]
			cont := prev.kind == tPunct && strings.Contains("+-*/|(.[{=,&:", prev.text[len(prev.text)-1:]) ||
				t.kind == tPunct && (t.text == "." || t.text == "+" || t.text == "|" || t.text == "*")
			if !cont {
				return j
			}
		}
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			if m := c.match[j]; m > j && m < limit {
				j = m
				continue
			}
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return j
			}
			depth--
		case ",", ";":
			if depth == 0 {
				return j
			}
		}
	}
	return limit
}

// arg is one argument of a call, struct literal or object: its key when
// it has one (k=v, k: v, K = v), and its value's tokens [from, to).
type arg struct {
	key      string
	from, to int
	line     int
}

// args splits the tokens inside the bracket at open into arguments. A
// call site without a bracket (a bare @Decorator has open -1) has none.
func (c *code) args(open int) []arg {
	if open < 0 || open >= len(c.match) {
		return nil
	}
	end := c.match[open]
	if end < 0 {
		return nil
	}
	var out []arg
	for k := open + 1; k < end; {
		a := arg{from: k, line: c.line(k)}
		// A key: an identifier or a string, then = or : (== is one token).
		if t := c.toks[k]; (t.kind == tIdent || t.kind == tStr) && (c.is(k+1, "=") || c.is(k+1, ":")) {
			a.key, a.from = t.text, k+2
		}
		a.to = c.exprEnd(a.from, end)
		if a.from < a.to || a.key != "" {
			out = append(out, a)
		}
		if a.to >= end {
			break
		}
		k = a.to + 1
	}
	return out
}

// value is an evaluated expression.
type value struct {
	kind vkind
	num  float64 // a number; a duration in seconds
	str  string  // a string; a name; a call's name
	args []arg   // a call's arguments
	open int     // a call's opening bracket
	op   string  // an operation's operator
	l, r *value
	text string // the expression as written
	line int
	// uses are the parameter defaults the value was read from, said
	// when a reader takes the value (not when it ignores it).
	uses []paramUse
}

type vkind uint8

const (
	vBad  vkind = iota // not a literal
	vNum               // a number
	vDur               // a duration
	vStr               // a string
	vBool              // true (num 1) or false (num 0)
	vNull              // null, nil, None
	vName              // a name the evaluator does not know
	vCall              // a call or a literal of a type it does not know
	vOp                // an operation on values that are not numbers
)

// eval evaluates tokens [from, to).
func (c *code) eval(from, to int) *value {
	used := len(c.used)
	e := &evaluator{c: c, depth: 0}
	v, k := e.sum(from, to)
	if k != to {
		v = &value{kind: vBad}
	}
	v.text, v.line = c.text(from, to), c.line(from)
	v.uses = append([]paramUse(nil), c.used[used:]...)
	c.used = c.used[:used]
	return v
}

type evaluator struct {
	c     *code
	depth int
	steps int
}

const maxEvalDepth = 64

func (e *evaluator) bad(k int) (*value, int) { return &value{kind: vBad}, k }

func (e *evaluator) sum(k, to int) (*value, int) {
	if e.depth++; e.depth > maxEvalDepth {
		return e.bad(to)
	}
	defer func() { e.depth-- }()
	l, k := e.prod(k, to)
	for k < to && e.c.toks[k].kind == tPunct && (e.c.toks[k].text == "+" || e.c.toks[k].text == "-" || e.c.toks[k].text == "|") {
		op := e.c.toks[k].text
		var r *value
		r, k = e.prod(k+1, to)
		l = binary(op, l, r)
	}
	return l, k
}

func (e *evaluator) prod(k, to int) (*value, int) {
	l, k := e.unary(k, to)
	for k < to && e.c.toks[k].kind == tPunct && (e.c.toks[k].text == "*" || e.c.toks[k].text == "/" || e.c.toks[k].text == "**") {
		op := e.c.toks[k].text
		var r *value
		r, k = e.unary(k+1, to)
		l = binary(op, l, r)
	}
	return l, k
}

func (e *evaluator) unary(k, to int) (*value, int) {
	if e.steps++; e.steps > 10_000 || k >= to {
		return e.bad(to)
	}
	if e.c.budget--; e.c.budget < 0 {
		return e.bad(to)
	}
	c := e.c
	switch {
	case c.is(k, "-"):
		v, k := e.unary(k+1, to)
		switch v.kind {
		case vNum, vDur:
			return &value{kind: v.kind, num: -v.num}, k
		}
		return e.bad(k)
	case c.is(k, "+"), c.is(k, "&"), c.is(k, "@"):
		return e.unary(k+1, to)
	case c.is(k, "{"), c.is(k, "["): // a dict, an object or a list literal
		if m := c.match[k]; m > k && m < to {
			return e.call(c.toks[k].text, k), m + 1
		}
		return e.bad(to)
	case c.is(k, "("):
		m := c.match[k]
		if m < 0 || m >= to {
			return e.bad(to)
		}
		if cast := c.ident(k + 1); m == k+2 && (wordIn(castInts, cast) || wordIn(castFloats, cast)) && m+1 < to && (c.toks[m+1].kind != tPunct || c.is(m+1, "(") || c.is(m+1, "-")) {
			// Java's and C#'s (long) x, (double) x.
			v, j := e.unary(m+1, to)
			if v.kind == vNum && wordIn(castInts, cast) {
				v = &value{kind: vNum, num: math.Trunc(v.num)}
			}
			return v, j
		}
		v, j := e.sum(k+1, m)
		if j != m {
			return e.bad(m + 1)
		}
		return v, m + 1
	}
	t := c.toks[k]
	switch t.kind {
	case tNum:
		f, ok := parseNumber(t.text)
		if !ok {
			return e.bad(k + 1)
		}
		return &value{kind: vNum, num: f}, k + 1
	case tStr:
		return &value{kind: vStr, str: t.text}, k + 1
	case tPunct:
		return e.bad(k + 1)
	}
	if t.text == "new" && c.ident(k+1) != "" {
		k++
	}
	name, j := c.name(k)
	// Generic arguments: new RetryStrategyOptions<HttpResponseMessage> { }.
	if c.is(j, "<") {
		for g := j + 1; g < to && g < j+16; g++ {
			if c.is(g, ">") {
				j = g + 1
				break
			}
		}
	}
	if j < to && (c.is(j, "(") || c.is(j, "{")) && c.match[j] > j && c.match[j] < to {
		v := e.call(name, j)
		return v, c.match[j] + 1
	}
	if v, ok := constant(name); ok {
		return v, j
	}
	if v, ok := e.lookup(name, k); ok {
		return v, j
	}
	return &value{kind: vName, str: name}, j
}

// call evaluates the calls it knows (duration constructors) and keeps
// the others as vCall.
func (e *evaluator) call(name string, open int) *value {
	c := e.c
	args := c.args(open)
	num := func(i int) (float64, bool) {
		if i >= len(args) {
			return 0, false
		}
		v := e.arg(args[i])
		return v.num, v.kind == vNum
	}
	unit := func(sec float64) *value {
		if f, ok := num(0); ok && len(args) == 1 {
			return &value{kind: vDur, num: f * sec}
		}
		return &value{kind: vBad}
	}
	short := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		short = name[i+1:]
	}
	switch {
	case strings.HasSuffix(name, "TimeSpan."+short) || strings.HasPrefix(name, "TimeSpan."):
		if s, ok := unitSecs(short); ok && strings.HasPrefix(short, "From") {
			return unit(s)
		}
	case strings.HasPrefix(name, "Duration.") || strings.HasPrefix(name, "java.time.Duration."):
		if s, ok := unitSecs(short); ok && strings.HasPrefix(short, "of") {
			if short == "ofSeconds" && len(args) == 2 { // ofSeconds(seconds, nanoAdjustment)
				a, ok1 := num(0)
				b, ok2 := num(1)
				if ok1 && ok2 {
					return &value{kind: vDur, num: a + b*1e-9}
				}
			}
			return unit(s)
		}
	case name == "time.Duration":
		if len(args) == 1 {
			v := e.arg(args[0])
			switch v.kind {
			case vNum:
				return &value{kind: vDur, num: v.num * 1e-9}
			case vDur:
				return v
			}
		}
		return &value{kind: vBad}
	case name == "timedelta" || name == "datetime.timedelta":
		units := []string{"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}
		total := 0.0
		for i, a := range args {
			key := a.key
			if key == "" && i < len(units) {
				key = units[i]
			}
			s, ok := unitSecs(key)
			ok = ok && strings.ToLower(key) == key && !strings.HasPrefix(key, "time.")
			v := e.arg(a)
			if !ok || v.kind != vNum {
				return &value{kind: vBad}
			}
			total += v.num * s
		}
		return &value{kind: vDur, num: total}
	case (wordIn(goInts, name) || wordIn(goFloats, name)) && len(args) == 1:
		// Go's float64(d) is d's nanoseconds; int(x) truncates.
		v := e.arg(args[0])
		switch v.kind {
		case vNum:
			if wordIn(goInts, name) {
				return &value{kind: vNum, num: math.Trunc(v.num)}
			}
			return v
		case vDur:
			return &value{kind: vNum, num: v.num * 1e9}
		}
		return &value{kind: vBad}
	case wordIn(numberParsers, name) && len(args) >= 1:
		// Number("3"), parseInt('3', 10), Long.parseLong("3"), Integer.valueOf(3)...
		v := e.arg(args[0])
		switch v.kind {
		case vNum:
			return v
		case vStr:
			if f, err := strconv.ParseFloat(strings.TrimSpace(v.str), 64); err == nil && !math.IsInf(f, 0) {
				if strings.Contains(name, "Int") || strings.Contains(name, "Long") || name == "parseInt" {
					f = math.Trunc(f)
				}
				return &value{kind: vNum, num: f}
			}
		}
		return &value{kind: vBad}
	case (short == "pow" || short == "Pow") && (name == short || strings.HasPrefix(name, "Math.") || strings.HasPrefix(name, "math.")) && len(args) == 2:
		a, ok1 := num(0)
		b, ok2 := num(1)
		if ok1 && ok2 {
			return &value{kind: vNum, num: math.Pow(a, b)}
		}
		return &value{kind: vBad}
	case (short == "min" || short == "max" || short == "Min" || short == "Max") && (name == short || strings.HasPrefix(name, "Math.") || strings.HasPrefix(name, "math.")) && len(args) >= 2:
		var out *value
		for _, a := range args {
			v := e.arg(a)
			if v.kind != vNum && v.kind != vDur || out != nil && v.kind != out.kind {
				return &value{kind: vBad}
			}
			if out == nil || (strings.EqualFold(short, "min") == (v.num < out.num)) {
				out = &value{kind: v.kind, num: v.num}
			}
		}
		return out
	case name == "float" || name == "int":
		if len(args) == 1 {
			v := e.arg(args[0])
			switch {
			case v.kind == vDur && name == "int": // Go: int(d) is d's nanoseconds
				return &value{kind: vNum, num: math.Trunc(v.num * 1e9)}
			case v.kind == vNum:
				if name == "int" {
					v.num = math.Trunc(v.num)
				}
				return v
			case v.kind == vStr && name == "float":
				if f, err := strconv.ParseFloat(strings.TrimSpace(v.str), 64); err == nil {
					return &value{kind: vNum, num: f}
				}
			}
		}
		return &value{kind: vBad}
	}
	if !strings.Contains(name, ".") {
		for _, cls := range c.statics { // import static java.time.Duration.*; ofSeconds(5)
			if v := e.call(cls+"."+name, open); v.kind != vCall {
				return v
			}
		}
	}
	return &value{kind: vCall, str: name, args: args, open: open}
}

// castInts and castFloats are the numeric types of a cast: the integer ones truncate.
// The word lists (read by wordIn) cost app.wasm less than maps, which
// compile to code that fills them.
const (
	castInts   = " int long short Integer Long uint ulong "
	castFloats = " double float Double Float decimal "
)

// goInts and goFloats are Go's numeric conversions.
const (
	goInts   = " int64 int32 uint uint64 uint32 "
	goFloats = " float64 float32 "
)

// numberParsers read a number from a number or a string.
const numberParsers = " Number parseInt parseFloat Number.parseInt Number.parseFloat Long.parseLong Integer.parseInt " +
	"Double.parseDouble Long.valueOf Integer.valueOf Double.valueOf long.Parse int.Parse double.Parse Int32.Parse Int64.Parse "

// wordIn reports whether w is one of the words of set, which starts and
// ends with a space.
func wordIn(set, w string) bool {
	for from := 0; w != "" && from < len(set); {
		i := strings.Index(set[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if i > 0 && set[i-1] == ' ' && i+len(w) < len(set) && set[i+len(w)] == ' ' {
			return true
		}
		from = i + 1
	}
	return false
}

// unitSecs is the seconds of a unit named by a constructor or a
// keyword: TimeSpan.FromX, Duration.ofX, timedelta's keywords, Go's
// time.X constants.
func unitSecs(w string) (float64, bool) {
	switch w {
	case "weeks":
		return 604800, true
	case "FromDays", "ofDays", "days":
		return 86400, true
	case "FromHours", "ofHours", "hours", "time.Hour":
		return 3600, true
	case "FromMinutes", "ofMinutes", "minutes", "time.Minute":
		return 60, true
	case "FromSeconds", "ofSeconds", "seconds", "time.Second":
		return 1, true
	case "FromMilliseconds", "ofMillis", "milliseconds", "time.Millisecond":
		return 1e-3, true
	case "FromMicroseconds", "microseconds", "time.Microsecond":
		return 1e-6, true
	case "FromTicks":
		return 1e-7, true
	case "ofNanos", "time.Nanosecond":
		return 1e-9, true
	}
	return 0, false
}

// arg evaluates one argument.
func (e *evaluator) arg(a arg) *value {
	if e.depth++; e.depth > maxEvalDepth {
		e.depth--
		return &value{kind: vBad}
	}
	defer func() { e.depth-- }()
	v, k := e.sum(a.from, a.to)
	if k != a.to {
		v = &value{kind: vBad}
	}
	v.text, v.line = e.c.text(a.from, a.to), a.line
	return v
}

// evalArg evaluates one argument of c.
func (c *code) evalArg(a arg) *value {
	v := c.eval(a.from, a.to) // its parameter defaults with it
	if v.line == 0 {
		v.line = a.line
	}
	return v
}

// constant is a name the evaluator knows.
func constant(name string) (*value, bool) {
	switch name {
	case "true", "True":
		return &value{kind: vBool, num: 1}, true
	case "false", "False":
		return &value{kind: vBool, num: 0}, true
	case "nil", "null", "None", "undefined":
		return &value{kind: vNull}, true
	case "int.MaxValue", "Int32.MaxValue", "System.Int32.MaxValue", "Integer.MAX_VALUE", "math.MaxInt32":
		return &value{kind: vNum, num: math.MaxInt32}, true
	case "math.MaxInt", "math.MaxInt64", "Long.MAX_VALUE", "long.MaxValue", "sys.maxsize":
		return &value{kind: vNum, num: math.MaxInt64}, true
	case "math.inf", "Infinity", "Number.POSITIVE_INFINITY", "double.PositiveInfinity", "Double.POSITIVE_INFINITY":
		return &value{kind: vNum, num: math.Inf(1)}, true
	case "TimeSpan.Zero", "Duration.ZERO":
		return &value{kind: vDur}, true
	}
	if s, ok := unitSecs(name); ok && strings.HasPrefix(name, "time.") {
		return &value{kind: vDur, num: s}, true
	}
	return nil, false
}

// binary applies op to two values: arithmetic on numbers and durations,
// and an operation node for anything else (tenacity's wait_a + wait_b,
// stop_a | stop_b).
func binary(op string, l, r *value) *value {
	if l.kind == vBad || r.kind == vBad {
		return &value{kind: vBad}
	}
	num := func(k vkind, f float64) *value {
		if math.IsNaN(f) {
			return &value{kind: vBad}
		}
		return &value{kind: k, num: f}
	}
	switch {
	case l.kind == vNum && r.kind == vNum:
		switch op {
		case "+":
			return num(vNum, l.num+r.num)
		case "-":
			return num(vNum, l.num-r.num)
		case "*":
			return num(vNum, l.num*r.num)
		case "/":
			return num(vNum, l.num/r.num)
		case "**":
			return num(vNum, math.Pow(l.num, r.num))
		}
	case l.kind == vDur && r.kind == vNum || l.kind == vNum && r.kind == vDur:
		d, f := l.num, r.num
		if l.kind == vNum {
			d, f = r.num, l.num
		}
		switch {
		case op == "*":
			return num(vDur, d*f)
		case op == "/" && l.kind == vDur:
			return num(vDur, d/f)
		}
	case l.kind == vDur && r.kind == vDur:
		switch op {
		case "*": // Go: time.Duration(5) * time.Second multiplies nanoseconds
			return num(vDur, l.num*r.num*1e9)
		case "+":
			return num(vDur, l.num+r.num)
		case "-":
			return num(vDur, l.num-r.num)
		case "/":
			return num(vNum, l.num/r.num)
		}
	}
	if op == "+" || op == "|" {
		return &value{kind: vOp, op: op, l: l, r: r}
	}
	return &value{kind: vBad}
}

// parseNumber reads a numeric literal of any of the languages: 1_000,
// 1000L, 2.0f, 0.5d, 100m (C# decimal), 0x10, 1e3, 10u.
func parseNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		n, err := strconv.ParseUint(strings.TrimRight(s[2:], "lLuU"), 16, 64)
		return float64(n), err == nil
	}
	t := strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune("lLfFdDmMuU", r) })
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }
