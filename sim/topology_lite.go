package sim

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/backoff-playground/playground/backoff"
)

// A reader of the subset of YAML that topology documents are written in,
// for builds without YAML's package (the page: it would cost app.wasm
// its code and its start). It reads what Topology.String prints, JSON,
// and what people write by hand:
//
//   - block maps of scalars, nested by indentation (spaces only):
//     "nodes:", a node's block, a service's "retry:";
//   - block lists of scalars ("- crash@10s-15s/b");
//   - flow maps {k: v, ...} and flow lists [a, b], nested, across lines;
//   - plain, 'single' and "double" quoted scalars (one line each),
//     null as ~, null or nothing, and # comments.
//
// Anything else (anchors and aliases, tags, block scalars "|" and ">",
// "?" keys, a value folded over lines, several documents, tabs) is
// refused with an error naming its line: such a document reads with
// YAML's reader (the CLI). Where both readers accept a text they give
// the same Topology (TestTopologyReadersAgree, FuzzParseTopologyLite).

// parseTopologyLite reads a topology document in the subset; the checks
// and errors past the syntax are ParseTopology's (readTopology).
func parseTopologyLite(text string) (*Topology, error) {
	if len(text) > MaxTopologyBytes {
		return nil, topologyTooLong(len(text))
	}
	tree, err := newLite(text).document()
	if err != nil {
		return nil, err
	}
	return readTopology(tree)
}

// topologyTooLong is the error for a document over MaxTopologyBytes.
func topologyTooLong(n int) error {
	return &backoff.FieldError{Field: "topology", Value: strconv.Itoa(n) + " bytes", Code: backoff.CodeTooLong,
		Args: []string{strconv.Itoa(MaxTopologyBytes)}, Allowed: "at most " + strconv.Itoa(MaxTopologyBytes) + " bytes"}
}

// lite is the subset's reader: the text, a position in it and its line
// (from 1), and the values made so far.
type lite struct {
	src   string
	pos   int
	line  int
	count int
}

func newLite(text string) *lite {
	text = strings.TrimPrefix(text, "\ufeff")
	return &lite{src: strings.ReplaceAll(text, "\r\n", "\n"), line: 1}
}

// liteForms are what the subset takes, for its errors.
var liteForms = []string{"KEY: VALUE", "KEY: {K: V, ...}", "KEY: [A, B]", "- ITEM"}

// bad is an error about the text at line: what was found and what the
// subset takes there.
func (p *lite) bad(line int, found, want string) error {
	return docErr("topology", found, line, liteForms, want)
}

func (p *lite) outside(line int, what string) error {
	return p.bad(line, what, "the YAML a topology is written in (block and flow maps and lists of plain or quoted values, one line each); "+
		what+" is not part of it")
}

// node makes a value, counting it.
func (p *lite) node(kind docKind, value string, line int) (*docNode, error) {
	if p.count++; p.count > maxTopologyValues {
		return nil, tooMany(line)
	}
	return &docNode{kind: kind, value: value, line: line}, nil
}

func (p *lite) eof() bool  { return p.pos >= len(p.src) }
func (p *lite) peek() byte { return p.at(0) }
func (p *lite) at(k int) byte {
	if p.pos+k < len(p.src) {
		return p.src[p.pos+k]
	}
	return 0
}

// blank reports whether c ends a token: a space, the end of a line or
// of the text.
func blank(c byte) bool { return c == ' ' || c == '\n' || c == 0 }

// column is the position's column from 0.
func (p *lite) column() int {
	return p.pos - (strings.LastIndexByte(p.src[:p.pos], '\n') + 1)
}

// restOfLine skips spaces and a comment to the end of the line; false if
// something else is there.
func (p *lite) restOfLine() bool {
	for p.peek() == ' ' {
		p.pos++
	}
	if p.peek() == '#' {
		for !p.eof() && p.peek() != '\n' {
			p.pos++
		}
	}
	return p.eof() || p.peek() == '\n'
}

// nextContent moves to the first character of the next line with
// something on it (from the start of a line, or the end of one), and
// returns its column; -1 at the end of the text.
func (p *lite) nextContent() (int, error) {
	for !p.eof() {
		if p.peek() == '\n' {
			p.pos++
			p.line++
			continue
		}
		for p.peek() == ' ' {
			p.pos++
		}
		if p.peek() == '\t' {
			return 0, p.outside(p.line, "a tab")
		}
		if p.peek() == '#' || p.peek() == '\n' || p.eof() {
			p.restOfLine()
			continue
		}
		return p.column(), nil
	}
	return -1, nil
}

// document reads the whole text: one map, block or flow.
func (p *lite) document() (*docNode, error) {
	if !utf8.ValidString(p.src) {
		return nil, p.bad(1, "", "UTF-8 text")
	}
	for i, r := range p.src {
		if !printable(r) {
			return nil, p.bad(1+strings.Count(p.src[:i], "\n"), "U+"+strconv.FormatInt(int64(r), 16), "printable text")
		}
	}
	col, err := p.nextContent()
	if err != nil {
		return nil, err
	}
	if col < 0 {
		return nil, docErr("topology", "", 1, []string{"YAML"}, "a YAML or JSON map with nodes:")
	}
	var doc *docNode
	switch c := p.peek(); {
	case c == '{' || c == '[':
		if doc, err = p.flow(); err == nil && !p.restOfLine() {
			err = p.bad(p.line, p.word(), "nothing after the map's end")
		}
	case c == '-' && blank(p.at(1)):
		doc, err = p.blockList(col)
	default:
		doc, err = p.blockMap(col)
	}
	if err != nil {
		return nil, err
	}
	if col, err := p.nextContent(); err != nil || col >= 0 {
		if err == nil {
			err = p.bad(p.line, p.word(), "a key as indented as the one of its map above")
		}
		return nil, err
	}
	return doc, nil
}

// word is the text from the position to the next blank, for errors.
func (p *lite) word() string {
	end := p.pos
	for end < len(p.src) && !blank(p.src[end]) {
		end++
	}
	return p.src[p.pos:end]
}

// blockMap reads a map whose keys are at column indent, from its first.
func (p *lite) blockMap(indent int) (*docNode, error) {
	m, err := p.node(docMap, "", p.line)
	if err != nil {
		return nil, err
	}
	for {
		keyLine := p.line
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		var v *docNode
		if p.restOfLine() {
			// The value is the block below, or nothing.
			save, saveLine := p.pos, p.line
			col, err := p.nextContent()
			if err != nil {
				return nil, err
			}
			switch {
			case col > indent && p.peek() == '-' && blank(p.at(1)), col == indent && p.peek() == '-' && blank(p.at(1)):
				v, err = p.blockList(col)
			case col > indent:
				v, err = p.blockMap(col)
			default:
				p.pos, p.line = save, saveLine
				v, err = p.node(docScalar, "", keyLine)
				if v != nil {
					v.null = true
				}
			}
			if err != nil {
				return nil, err
			}
		} else {
			if v, err = p.inline(); err != nil {
				return nil, err
			}
		}
		m.content = append(m.content, k, v)
		col, err := p.nextContent()
		switch {
		case err != nil:
			return nil, err
		case col < indent:
			return m, nil
		case col > indent:
			return nil, p.outside(p.line, "a value folded over lines, or an indentation that matches no key above")
		}
	}
}

// blockList reads a list whose "-" are at column indent.
func (p *lite) blockList(indent int) (*docNode, error) {
	l, err := p.node(docList, "", p.line)
	if err != nil {
		return nil, err
	}
	for {
		p.pos++ // the "-"
		if p.restOfLine() {
			return nil, p.outside(p.line, "a block under a list's \"-\"")
		}
		v, err := p.inline()
		if err != nil {
			return nil, err
		}
		if v.kind == docMap {
			return nil, p.outside(v.line, "a map as a list's item")
		}
		l.content = append(l.content, v)
		col, err := p.nextContent()
		switch {
		case err != nil:
			return nil, err
		case col == indent && p.peek() == '-' && blank(p.at(1)):
		case col <= indent:
			return l, nil
		default:
			return nil, p.outside(p.line, "a value folded over lines, or an indentation that matches no item above")
		}
	}
}

// key reads a block map's key and its ":" (and the space after it).
func (p *lite) key() (*docNode, error) {
	line := p.line
	var text string
	if c := p.peek(); c == '"' || c == '\'' {
		s, err := p.quoted()
		if err != nil {
			return nil, err
		}
		for p.peek() == ' ' {
			p.pos++
		}
		if p.peek() != ':' || !blank(p.at(1)) {
			return nil, p.bad(line, s, "KEY: VALUE")
		}
		text = s
	} else {
		if err := p.plainStart(); err != nil {
			return nil, err
		}
		start := p.pos
		for !p.eof() && p.peek() != '\n' && !(p.peek() == ':' && blank(p.at(1))) && !(p.peek() == '#' && p.src[p.pos-1] == ' ') {
			p.pos++
		}
		if p.peek() != ':' {
			return nil, p.bad(line, strings.TrimSpace(p.src[start:p.pos]), "KEY: VALUE")
		}
		text = strings.TrimRight(p.src[start:p.pos], " ")
		if text == "<<" {
			return nil, p.outside(line, "a merge (<<)")
		}
	}
	p.pos++ // the ":"
	k, err := p.node(docScalar, text, line)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// plainStart refuses what YAML does not read as the start of a plain
// value, or reads as something the subset leaves out.
func (p *lite) plainStart() error {
	c := p.peek()
	switch {
	case c == '&' || c == '*':
		return p.outside(p.line, "an anchor or an alias ("+string(c)+")")
	case c == '!':
		return p.outside(p.line, "a tag (!)")
	case c == '|' || c == '>':
		return p.outside(p.line, "a block scalar ("+string(c)+")")
	case c == '%' || c == '@' || c == '`':
		return p.bad(p.line, p.word(), "a value that does not start with "+string(c))
	case (c == '-' || c == '?' || c == ':') && blank(p.at(1)):
		return p.outside(p.line, "\""+string(c)+" \" here")
	case c == ',' || c == ']' || c == '}' || c == '#' || c == '\t':
		return p.bad(p.line, p.word(), "a value")
	}
	return nil
}

// inline reads a value written after "KEY:" or "- " on its line: a flow
// map or list, a quoted or a plain scalar; nothing but a comment may
// follow it on the line.
func (p *lite) inline() (*docNode, error) {
	for p.peek() == ' ' {
		p.pos++
	}
	line := p.line
	var v *docNode
	var err error
	switch c := p.peek(); {
	case c == '{' || c == '[':
		v, err = p.flow()
	case c == '"' || c == '\'':
		var s string
		if s, err = p.quoted(); err == nil {
			v, err = p.node(docScalar, s, line)
		}
	default:
		if err = p.plainStart(); err != nil {
			return nil, err
		}
		start := p.pos
		for !p.eof() && p.peek() != '\n' && !(p.peek() == '#' && p.src[p.pos-1] == ' ') {
			if p.peek() == ':' && blank(p.at(1)) {
				return nil, p.bad(line, strings.TrimSpace(p.src[start:]), "one value: a \": \" inside a value needs quotes")
			}
			if p.peek() == '\t' {
				return nil, p.outside(line, "a tab")
			}
			p.pos++
		}
		v, err = p.scalar(strings.TrimRight(p.src[start:p.pos], " "), line)
	}
	if err != nil {
		return nil, err
	}
	if !p.restOfLine() {
		return nil, p.bad(p.line, p.word(), "nothing after the value but a comment")
	}
	return v, nil
}

// scalar makes a plain scalar: ~, null, Null and NULL are null.
func (p *lite) scalar(s string, line int) (*docNode, error) {
	v, err := p.node(docScalar, s, line)
	if err == nil && (s == "~" || s == "null" || s == "Null" || s == "NULL") {
		v.null = true
	}
	return v, err
}

// flowSpace skips spaces, line ends and comments inside a flow value.
func (p *lite) flowSpace() error {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ':
			p.pos++
		case c == '\n':
			p.pos++
			p.line++
		case c == '\t':
			return p.outside(p.line, "a tab")
		case c == '#' && (p.pos == 0 || blank(p.src[p.pos-1])):
			p.restOfLine()
		default:
			return nil
		}
	}
	return nil
}

// flow reads a flow map or list and what it holds, across lines.
func (p *lite) flow() (*docNode, error) {
	open := p.peek()
	kind, end := docMap, byte('}')
	if open == '[' {
		kind, end = docList, ']'
	}
	n, err := p.node(kind, "", p.line)
	if err != nil {
		return nil, err
	}
	p.pos++
	for {
		if err := p.flowSpace(); err != nil {
			return nil, err
		}
		if p.peek() == end {
			p.pos++
			return n, nil
		}
		if p.eof() {
			return nil, p.bad(n.line, string(open), "a "+string(open)+" closed by "+string(end))
		}
		item, quoted, err := p.flowItem()
		if err != nil {
			return nil, err
		}
		if err := p.flowSpace(); err != nil {
			return nil, err
		}
		colon := p.peek() == ':' && (quoted || blank(p.at(1)) || strings.IndexByte(",[]{}", p.at(1)) >= 0)
		switch {
		case kind == docList && colon:
			return nil, p.outside(p.line, "a KEY: VALUE pair as a list's item")
		case kind == docList:
			n.content = append(n.content, item)
		default:
			if item.kind != docScalar {
				return nil, p.bad(item.line, "", "a map whose keys are names")
			}
			var v *docNode
			if colon {
				p.pos++
				if err := p.flowSpace(); err != nil {
					return nil, err
				}
				if c := p.peek(); c == ',' || c == end {
					v, err = p.scalar("", p.line)
				} else {
					v, _, err = p.flowItem()
				}
			} else {
				v, err = p.scalar("", p.line) // {a}: a's value is null
			}
			if err != nil {
				return nil, err
			}
			n.content = append(n.content, item, v)
			if err := p.flowSpace(); err != nil {
				return nil, err
			}
		}
		switch p.peek() {
		case ',':
			p.pos++
		case end:
		default:
			if p.eof() {
				return nil, p.bad(n.line, string(open), "a "+string(open)+" closed by "+string(end))
			}
			return nil, p.bad(p.line, p.word(), "\",\" or \""+string(end)+"\" between the items of a flow value")
		}
	}
}

// flowItem reads one value inside a flow map or list; quoted tells
// whether it was a quoted scalar (after which ":" needs no space, as in
// JSON).
func (p *lite) flowItem() (v *docNode, quoted bool, err error) {
	line := p.line
	switch c := p.peek(); {
	case c == '{' || c == '[':
		v, err = p.flow()
		return v, false, err
	case c == '"' || c == '\'':
		s, err := p.quoted()
		if err != nil {
			return nil, true, err
		}
		v, err = p.node(docScalar, s, line)
		return v, true, err
	}
	if err := p.plainStart(); err != nil {
		return nil, false, err
	}
	start := p.pos
	for !p.eof() {
		c := p.peek()
		if c == '\n' || strings.IndexByte(",[]{}", c) >= 0 || c == ':' && (blank(p.at(1)) || strings.IndexByte(",[]{}", p.at(1)) >= 0) ||
			c == '#' && p.src[p.pos-1] == ' ' {
			break
		}
		if c == '\t' {
			return nil, false, p.outside(line, "a tab")
		}
		p.pos++
	}
	s := strings.TrimRight(p.src[start:p.pos], " ")
	// A plain value that goes on past the line's end is folded by YAML:
	// not in the subset.
	save, saveLine := p.pos, p.line
	if err := p.flowSpace(); err != nil {
		return nil, false, err
	}
	if p.line != saveLine && !p.eof() && strings.IndexByte(",]}:", p.peek()) < 0 {
		return nil, false, p.outside(p.line, "a value folded over lines")
	}
	p.pos, p.line = save, saveLine
	v, err = p.scalar(s, line)
	return v, false, err
}

// quoted reads a 'single' or "double" quoted scalar on one line.
func (p *lite) quoted() (string, error) {
	q := p.peek()
	line := p.line
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.outside(line, "a quoted value over several lines, or one not closed")
		}
		c := p.peek()
		switch {
		case c == q && q == '\'' && p.at(1) == '\'':
			b.WriteByte('\'')
			p.pos += 2
		case c == q:
			p.pos++
			return b.String(), nil
		case c == '\\' && q == '"':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escape reads one escape of a double-quoted scalar ("\n", "\u00e9").
func (p *lite) escape(b *strings.Builder) error {
	c := p.at(1)
	if k := strings.IndexByte(escapeCodes, c); k >= 0 && c != 0 {
		b.WriteString(escapeTexts[k])
		p.pos += 2
		return nil
	}
	k := strings.IndexByte("xuU", c)
	digits := 2 << max(k, 0) // \xXX, \uXXXX, \UXXXXXXXX
	if k < 0 || p.pos+2+digits > len(p.src) {
		return p.bad(p.line, "\\"+string(c), "an escape such as \\n, \\\" or \\u00e9")
	}
	v, err := strconv.ParseUint(p.src[p.pos+2:p.pos+2+digits], 16, 32)
	if err != nil || v > utf8.MaxRune || v >= 0xD800 && v < 0xE000 {
		return p.bad(p.line, p.src[p.pos:p.pos+2+digits], "an escape of a Unicode character")
	}
	b.WriteRune(rune(v))
	p.pos += 2 + digits
	return nil
}

// escapeCodes are the one-letter escapes of a double-quoted scalar and
// escapeTexts what each stands for.
const escapeCodes = "0abt\tnvfre \"/\\N_LP"

var escapeTexts = [...]string{"\x00", "\a", "\b", "\t", "\t", "\n", "\v", "\f", "\r", "\x1b", " ", "\"", "/", "\\",
	"\u0085", "\u00a0", "\u2028", "\u2029"}

// printable: the characters YAML reads in a text (its c-printable).
func printable(r rune) bool {
	return r == '\t' || r == '\n' || r >= 0x20 && r <= 0x7e || r == 0x85 || r >= 0xa0 && r <= 0xd7ff ||
		r >= 0xe000 && r <= 0xfffd && r != 0xfeff || r >= 0x10000 && r <= 0x10ffff
}
