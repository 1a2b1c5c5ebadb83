// Package importer reads a retry configuration that a real library runs (a
// tenacity decorator, a gRPC service config, an Envoy route, a Polly
// RetryStrategyOptions, ...) and returns the backoff.Policy it draws, with
// what it read, line by line, and what it could not read.
//
// Each format is read as the library's own code reads it: keys it ignores
// are ignored here too (and said so), what the source leaves unset takes
// the library's default (said so, with the file and version it was read
// from), and a value that is not a literal (a variable, a computed value)
// is named with its line in a Warning, never guessed.
//
// JSON is read with encoding/json and YAML with go.yaml.in/yaml/v3; source
// code with a small tokenizer that finds the constructor, the struct
// literal or the assignments and evaluates literal values, including
// duration expressions (10 * time.Second, TimeSpan.FromSeconds(2),
// Duration.ofMillis(500), timedelta(seconds=2)).
//
// The package is pure: it takes text and returns data.
package importer

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// format is one importable format: its name, the library source its
// reading follows, the policies a text holds in it, and the reader.
type format struct {
	name string
	// detect is its place when formats find policies on the same line:
	// config formats first, the gRPC config among them as its string may
	// sit in any code. doc is its place in the documented list.
	detect, doc int
	source      string
	// policies lists the policies of the text in this format, in the
	// text's order, or none; a reason when the text is in the format but
	// holds no policy (a gRPC service config without a retryPolicy).
	policies func(in *input) ([]site, string)
	// read reads one of them.
	read func(in *input, r *reader, s site) error
}

// site is one policy of a text: its name for a list, its line, and what
// its format needs to find it again.
type site struct {
	name string
	line int
	at   int
}

// formats are the registered formats, in their detect order. Each
// registers from its own file.
var formats []format

// register adds f in its detect place. Two formats with one name or one
// place are a programming error, found when the package starts.
func register(f format) {
	i := 0
	for i < len(formats) && formats[i].detect < f.detect {
		i++
	}
	for _, g := range formats {
		if g.name == f.name || g.detect == f.detect || g.doc == f.doc {
			panic("importer: format " + f.name + " registered twice, or in " + g.name + "'s place")
		}
	}
	formats = append(formats, format{})
	copy(formats[i+1:], formats[i:])
	formats[i] = f
}

// FormatNames lists the formats' names, in the order the documentation
// gives them.
func FormatNames() []string {
	names := make([]string, len(formats))
	for _, f := range formats {
		names[f.doc-1] = f.name
	}
	return names
}

// Options say how Read reads a text.
type Options struct {
	// Format reads the text as this format (one of FormatNames); ""
	// detects it.
	Format string
	// Pick chooses among the policies the text holds: "" the first, a
	// number from 1, or a candidate's name.
	Pick string
}

// Parse detects the format of text and reads its first retry policy. A
// text in no recognised format, or with no retry policy, is a
// *NoPolicyError; an imported policy the playground cannot hold is the
// core's *backoff.FieldError.
func Parse(text string) (*Result, error) { return Read(text, Options{}) }

// ParseAs reads text as the named format (one of FormatNames).
func ParseAs(name, text string) (*Result, error) { return Read(text, Options{Format: name}) }

// List lists the retry policies text holds (in format, when not ""), in
// the text's order.
func List(text, format string) ([]Candidate, error) {
	in, cands, _, err := candidates(text, format)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, none(in, format)
	}
	return cands, nil
}

// Read reads one of the retry policies of text, as o says: a text with
// none is a *NoPolicyError, or a *RefusedError when its JSON or YAML was
// too deep or too large to read; a Pick that names none of them is a
// *backoff.FieldError for the field "pick".
func Read(text string, o Options) (*Result, error) {
	in, cands, sites, err := candidates(text, o.Format)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, none(in, o.Format)
	}
	i, err := pick(cands, o.Pick)
	if err != nil {
		return nil, err
	}
	f := sites[i].f
	c := in.tokens()
	r := &reader{res: &Result{Format: f.name, Source: f.source, Candidates: cands, Pick: i}, code: c}
	if err := f.read(in, r, sites[i].s); err != nil {
		return nil, err
	}
	if len(cands) > 1 {
		cd := cands[i]
		r.warn(CodeSeveral, cd.Line, []string{itoa(len(cands)), itoa(cd.Line)},
			"the text holds %d retry policies: %s is read (backoff import --list lists them, --pick chooses)", len(cands), cd.Label(i+1))
	}
	r.res.Policy = normalize(r.res.Policy)
	if err := r.res.Policy.Validate(); err != nil {
		return nil, err
	}
	return r.res, nil
}

type foundSite struct {
	f *format
	s site
}

// sortBy sorts n elements through sort.Sort, which the binary has
// anyway: slices.SortFunc would compile pdqsort again for each element
// type, about 15 KB of app.wasm apiece.
func sortBy(n int, less func(i, j int) bool, swap func(i, j int)) {
	sort.Sort(sorter{n, less, swap})
}

type sorter struct {
	n    int
	less func(i, j int) bool
	swap func(i, j int)
}

func (s sorter) Len() int           { return s.n }
func (s sorter) Less(i, j int) bool { return s.less(i, j) }
func (s sorter) Swap(i, j int)      { s.swap(i, j) }

// candidates lists the policies of text in the named format, or in any.
func candidates(text, only string) (*input, []Candidate, []foundSite, error) {
	if len(text) > MaxInput {
		return nil, nil, nil, &TooLongError{Len: len(text)}
	}
	if only != "" && !slices.Contains(FormatNames(), only) {
		names := FormatNames()
		return nil, nil, nil, &backoff.FieldError{Field: "format", Value: clip(only), Code: backoff.CodeUnknown,
			Args: names, Allowed: "one of " + strings.Join(names, ", ")}
	}
	in := newInput(text)
	var found []foundSite
	for i := range formats {
		f := &formats[i]
		if only != "" && f.name != only {
			continue
		}
		sites, reason := f.policies(in)
		if reason != "" && in.reason == "" {
			in.reason = reason
		}
		for _, s := range sites {
			found = append(found, foundSite{f, s})
		}
	}
	// The text's order; a tie keeps the formats' order (found is in it).
	order := make([]int, len(found))
	for i := range order {
		order[i] = i
	}
	sortBy(len(found), func(i, j int) bool {
		return found[i].s.line < found[j].s.line || found[i].s.line == found[j].s.line && order[i] < order[j]
	}, func(i, j int) {
		found[i], found[j] = found[j], found[i]
		order[i], order[j] = order[j], order[i]
	})
	if len(found) > MaxCandidates {
		found = found[:MaxCandidates]
	}
	cands := make([]Candidate, len(found))
	seen := map[string]int{}
	for i, fs := range found {
		name := fs.s.name
		if name != "" {
			if seen[name]++; seen[name] > 1 {
				name += " #" + itoa(seen[name])
			}
		}
		cands[i] = Candidate{Format: fs.f.name, Name: name, Line: fs.s.line}
	}
	return in, cands, found, nil
}

// none is the error for a text with no policy: why the format it looked
// like found none, or why its JSON or YAML was not read.
func none(in *input, only string) error {
	if in.refused != nil {
		return in.refused
	}
	reason := in.reason
	if reason == "" && only != "" {
		reason = "no " + only + " retry policy"
	}
	return noPolicy(reason)
}

// pick is the index of the candidate p names: "" the first, a number
// from 1, or a name.
func pick(cands []Candidate, p string) (int, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(p); err == nil {
		if n < 1 || n > len(cands) {
			return 0, &backoff.FieldError{Field: "pick", Value: clip(p), Code: backoff.CodeInt,
				Args: []string{"1", itoa(len(cands))}, Allowed: fmt.Sprintf("a number from 1 to %d, or a policy's name", len(cands))}
		}
		return n - 1, nil
	}
	var names []string
	for i, c := range cands {
		if c.Name == p {
			return i, nil
		}
		if c.Name != "" {
			names = append(names, c.Name)
		}
	}
	for i, c := range cands { // the name in another case
		if strings.EqualFold(c.Name, p) {
			return i, nil
		}
	}
	allowed := fmt.Sprintf("a number from 1 to %d", len(cands))
	if len(names) > 0 {
		allowed += " or one of the names " + strings.Join(names, ", ")
	}
	return 0, &backoff.FieldError{Field: "pick", Value: clip(p), Code: backoff.CodeUnknown, Args: names, Allowed: allowed}
}

// normalize gives the fields p's kinds do not use the article's values,
// so the page's link names only the fields that matter.
func normalize(p backoff.Policy) backoff.Policy {
	d := backoff.Default()
	if p.Jitter != backoff.Proportional {
		p.JitterLo, p.JitterHi = d.JitterLo, d.JitterHi
	}
	return p
}

// noPolicy is the error of a format that recognised the text but found no
// policy in it.
func noPolicy(reason string) error { return &NoPolicyError{Formats: FormatNames(), Reason: reason} }

// reader collects what one format reads.
type reader struct {
	res     *Result
	code    *code // the tokens, for the code formats
	saidUse map[paramUse]bool
}

func (r *reader) set(key, value string, line int) {
	r.res.Settings = append(r.res.Settings, Setting{Key: key, Value: value, Line: line})
}

func (r *reader) def(key, value string) {
	r.res.Settings = append(r.res.Settings, Setting{Key: key, Value: value, Default: true})
}

func (r *reader) warn(code string, line int, args []string, msg string, a ...any) {
	if line > 0 {
		msg = "line " + strconv.Itoa(line) + ": " + fmt.Sprintf(msg, a...)
	} else {
		msg = fmt.Sprintf(msg, a...)
	}
	r.res.Warnings = append(r.res.Warnings, Warning{Code: code, Args: args, Line: line, Message: msg})
}

// ignore says key was read and left out, and why.
func (r *reader) ignore(key string, line int, reason string) {
	why := ""
	switch reason {
	case ReasonClassify:
		why = "it says what to retry, not when (the playground's classifier decides that)"
	case ReasonPerTry:
		why = "a timeout of each try is not part of the delays (the simulator's client timeout models it)"
	case ReasonUnknown:
		why = "the library does not read it"
	case ReasonNotModelled:
		why = "it does not change the delays between retries"
	}
	r.warn(CodeIgnored, line, []string{key, reason}, "%s is ignored: %s", key, why)
}

// took says which parameter defaults a value taken was read from, once
// each.
func (r *reader) took(v *value) {
	for _, u := range v.uses {
		if r.saidUse == nil {
			r.saidUse = map[paramUse]bool{}
		}
		if r.saidUse[u] {
			continue
		}
		r.saidUse[u] = true
		fn := u.Func
		if fn == "" {
			fn = "a function"
		} else {
			fn += "()"
		}
		r.warn(CodeParamDefault, u.Line, []string{u.Name, u.Func, clip(u.Value)},
			"%s is a parameter of %s: its default, %s, is read, though a caller may pass another", u.Name, fn, clip(u.Value))
	}
}

// unreadable says the value of key is not a literal.
func (r *reader) unreadable(key, expr string, line int, instead string) {
	msg := "%s is %s, which is not a literal value"
	if instead != "" {
		msg += ": " + instead + " is used instead"
	}
	r.warn(CodeUnreadable, line, []string{key, clip(expr)}, msg, key, clip(expr))
}

// attempts sets the policy's attempts (the first try included) from a
// library's count, unlimited when the count passes the playground's
// range (a library's int.MaxValue is its way of saying "no limit").
func (r *reader) attempts(key, value string, n float64, line int) {
	p := &r.res.Policy
	switch {
	case n < 1:
		p.Attempts = 1
		if n < 0 {
			r.warn(CodeRange, line, []string{key, value, "1"}, "%s is %s: read as 1 attempt (no retries)", key, value)
		}
	case n > backoff.MaxAttempts:
		p.Attempts = 0
		r.warn(CodeRange, line, []string{key, value, "0"},
			"%s is %s, more than the playground's %d attempts: read as no limit", key, value, backoff.MaxAttempts)
	default:
		p.Attempts = int(n)
	}
}

// duration stores d into dst, moved into [0, backoff.MaxDuration]; a
// longer one stands for "none" (0) when noneAbove, else for the maximum.
func (r *reader) duration(dst *time.Duration, key, value string, sec float64, line int, noneAbove bool) {
	switch {
	case math.IsNaN(sec) || sec < 0:
		*dst = 0
		r.warn(CodeRange, line, []string{key, value, "0s"}, "%s is %s: read as 0s", key, value)
	case sec > backoff.MaxDuration.Seconds():
		used := backoff.MaxDuration
		if noneAbove {
			used = 0
		}
		*dst = used
		r.warn(CodeRange, line, []string{key, value, backoff.FormatDuration(used)},
			"%s is %s, longer than the playground's %s: read as %s", key, value,
			backoff.FormatDuration(backoff.MaxDuration), map[bool]string{true: "none", false: backoff.FormatDuration(used)}[noneAbove])
	default:
		*dst = backoff.Seconds(sec)
	}
}

// factor stores a growth factor, moved into the playground's range.
func (r *reader) factor(key, value string, f float64, line int) {
	p := &r.res.Policy
	switch {
	case !(f >= 1): // also NaN
		p.Factor = 1
		r.warn(CodeRange, line, []string{key, value, "1"}, "%s is %s: a factor below 1 is read as 1 (no growth)", key, value)
	case f > backoff.MaxFactor:
		p.Factor = backoff.MaxFactor
		r.warn(CodeRange, line, []string{key, value, formatFloat(backoff.MaxFactor)},
			"%s is %s: read as %g, the playground's greatest factor", key, value, backoff.MaxFactor)
	default:
		p.Factor = f
	}
}

// deadlineTimeout sets an overall timeout as the deadline, with
// CodeDeadlineTimeout.
func (r *reader) deadlineTimeout(key, value string, sec float64, line int, lib string) {
	r.duration(&r.res.Policy.Deadline, key, value, sec, line, true)
	if r.res.Policy.Deadline > 0 {
		d := backoff.FormatDuration(r.res.Policy.Deadline)
		r.warn(CodeDeadlineTimeout, line, []string{d}, "%s's %s of %s bounds the whole call: read as the deadline, "+
			"though it also cancels a try in flight, where the playground's deadline only stops new retries", lib, key, d)
	}
}

// capSanity fixes a cap below the base, which the playground refuses and
// the libraries read as "every delay is the cap", and a cap below the
// floor, which tenacity reads as "every delay is the floor" (a cap equal
// to it does the same).
func (r *reader) capSanity() {
	p := &r.res.Policy
	if p.Cap > 0 && p.Floor > p.Cap {
		p.Cap = p.Floor
	}
	if p.Cap > 0 && p.Cap < p.Base && p.Growth != backoff.None {
		p.Base = p.Cap
	}
}

func formatFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64) // 2147483647, not 2.147483647e+09
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// clip shortens a value for a message.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return s
}

// secondsText writes a duration in seconds as the playground does.
func secondsText(sec float64) string { return backoff.FormatDuration(backoff.Seconds(sec)) }
