package app

import (
	"errors"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// Query keys of the page's own settings; the policy's keys are
// backoff.ParamNames and the herd's are herdParamNames.
const (
	keyPreset  = "preset"
	keySeed    = "seed"
	keyScale   = "scale"   // delay chart axis: linear (default) or log
	keyLang    = "lang"    // en or ru; absent: the browser's languages decide
	keyView    = "view"    // one widget alone, for an iframe: see views
	keyTheme   = "theme"   // light, dark or auto (the system's, the default)
	keyLesson  = "lesson"  // 1..lessonCount: the workshop's lesson shown; list: their index
	keyPresent = "present" // 1: presenter mode, large type for a projector
	keyExport  = "export"  // the Export panel open, for this library (exportTargets)
	keyEmbed   = "embed"   // the Embed panel open, for this view (embedViews)
	keyImport  = "import"  // 1: the Import panel open (never its text)
)

// embedViews are what the Embed panel embeds: the whole page or a view.
var embedViews = append([]string{"page"}, views...)

// themes are ?theme='s values; "auto" follows the system.
var themes = []string{"auto", "light", "dark"}

// alwaysInURL are the policy keys written even when they equal the preset's
// value, so a shared link reads as the schedule it shows.
var alwaysInURL = []string{backoff.ParamBase, backoff.ParamFactor, backoff.ParamCap, backoff.ParamAttempts, backoff.ParamJitter}

// maxQueryLen bounds what the parser reads, and so what a link the page
// writes may hold: a share link is far shorter, unless it carries a long
// classification body.
const maxQueryLen = 8192

// maxFieldLen is how many characters of a classification field a link
// carries: the classifier reads a body's start (backoff.MaxBody) anyway.
const maxFieldLen = 2000

// maxPastNotices bounds the notices for the parameters of an over-long
// link that come after its first maxQueryLen bytes, one each; the rest are
// counted in one more.
const maxPastNotices = 10

// state is everything the page shows, and exactly what the URL holds. It is
// a plain value: copy it to keep the last valid state.
type state struct {
	// Preset is the preset the policy started from; "" is the article's
	// policy (backoff.Default).
	Preset string
	Policy backoff.Policy
	Seed   uint64
	Log    bool // log axis on the delay chart
	// B is the second policy, compared with the first when On.
	B policyB
	// View is the one widget shown ("" the whole page); Theme is light,
	// dark, or "" (auto).
	View, Theme string
	// Cls is the classification panel's call and rules.
	Cls classifyInput
	// Lesson is the workshop lesson shown (0: none; lessonList: their
	// index); Present is presenter mode.
	Lesson  int
	Present bool
	// Lang is the language the link asks for ("en", "ru"), or "" to follow
	// the browser's: a shared link keeps a language only when one was
	// chosen.
	Lang string
	Herd herdState
	// Sweep is the sweep panel's run (Spec "": none).
	Sweep sweepState
	// Export is the Export panel's library ("" the panel is closed);
	// Embed the Embed panel's view ("" closed, "page" the whole page);
	// Import, the Import panel open (its text stays out of links).
	Export, Embed string
	Import        bool
}

// policyB is the second policy of a comparison: its preset and fields, as
// the first's.
type policyB struct {
	On     bool
	Preset string
	Policy backoff.Policy
}

func defaultState() state {
	return state{Policy: backoff.Default(), Seed: 1, Herd: defaultHerd(), Sweep: defaultSweep(), Cls: classifyCases[0].in}
}

// basePolicy is the policy a preset name stands for.
func basePolicy(preset string) backoff.Policy {
	if p, err := backoff.LookupPreset(preset); err == nil {
		return p.Policy
	}
	return backoff.Default()
}

// notice is one query parameter the page ignored, and why: a core error
// (Err), or a catalog message (Msg with Args).
type notice struct {
	Key, Value string
	Err        error
	Msg        string
	Args       []string
	// Kept: the value was used after all (a duplicate key's first value),
	// so Msg is the whole line, with the key as its first argument.
	Kept bool
	// Doc: Err is about a document (topology=), worded with its line,
	// node and key (topologyErrText).
	Doc bool
}

// text is the notice for a person reading l.
func (n notice) text(l i18n.Lang) string {
	if n.Kept {
		return l.F(n.Msg, append([]string{n.Key}, n.Args...)...)
	}
	return l.F("notice.item", n.Key, n.Value, n.why(l))
}

// why is what is wrong with an ignored value, for l's reader.
func (n notice) why(l i18n.Lang) string {
	why := l.F(n.Msg, n.Args...)
	if n.Doc {
		why = topologyErrText(l, n.Err)
	} else if n.Err != nil {
		why = ruleOf(l, n.Err)
		if n.Msg != "" {
			why = l.F(n.Msg, why)
		}
	}
	return why
}

// refusal is the notice as the server's refusal of an image: the page
// goes on without the value, the server draws nothing ("ignored" came
// with a 400).
func (n notice) refusal(l i18n.Lang) string {
	return l.F("notice.refused", n.Key, n.Value, n.why(l))
}

func (n notice) String() string { return n.text(i18n.En) }

// parseQuery restores a state from a URL query. Unknown or invalid
// parameters are reported and ignored; the result is always a valid state.
func parseQuery(raw string) (state, []notice) {
	s := defaultState()
	var notes []notice
	if len(raw) > maxQueryLen {
		var past []string
		var more int
		raw, past, more = cutQuery(raw, maxQueryLen, maxPastNotices)
		limit := strconv.Itoa(maxQueryLen)
		for _, pair := range past {
			k, v, _ := strings.Cut(pair, "=")
			notes = append(notes, notice{Key: clip(unescapeOr(k), 32), Value: clip(unescapeOr(v), 32), Msg: "notice.past", Args: []string{limit}})
		}
		if more > 0 {
			notes = append(notes, notice{Key: "query", Msg: "notice.past-more", Kept: true, Args: []string{strconv.Itoa(more), limit}})
		}
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		// ParseQuery keeps every pair it could read; note the first bad one.
		notes = append(notes, notice{Key: "query", Value: clip(raw, 32), Msg: "notice.bad-query"})
	}
	if !withScenario(q) {
		notes = append(notes, notice{Key: keyScenario, Value: clip(q.Get(keyScenario), 32), Msg: "notice.choice", Args: []string{scenarioNames()}})
	}
	first := func(key string) (string, bool) {
		vs, ok := q[key]
		if !ok || len(vs) == 0 {
			return "", false
		}
		if len(vs) > 1 {
			notes = append(notes, notice{Key: key, Value: clip(vs[0], 32), Msg: "notice.dup", Kept: true,
				Args: []string{clip(vs[0], 32), clip(strings.Join(vs, ", "), 64)}})
		}
		return vs[0], true
	}
	known := map[string]bool{keyPreset: true, keySeed: true, keyScale: true, keyLang: true, keyView: true, keyTheme: true,
		keyLesson: true, keyPresent: true, keyScenario: true, keyExport: true, keyEmbed: true, keyImport: true}

	s.Preset, s.Policy, _ = parsePolicy(first, known, "", &notes)
	if bPreset, bPolicy, given := parsePolicy(first, known, prefixB, &notes); given {
		s.B = policyB{On: true, Preset: bPreset, Policy: bPolicy}
	}

	if v, ok := first(keySeed); ok {
		if n, err := parseSeed(v); err != nil {
			notes = append(notes, notice{Key: keySeed, Value: clip(v, 32), Err: err})
		} else {
			s.Seed = n
		}
	}
	if v, ok := first(keyScale); ok {
		switch v {
		case "log":
			s.Log = true
		case "linear", "":
		default:
			notes = append(notes, notice{Key: keyScale, Value: clip(v, 32), Msg: "notice.scale"})
		}
	}
	if v, ok := first(keyLang); ok {
		if l, ok := i18n.Parse(v); ok {
			s.Lang = l.Code()
		} else {
			notes = append(notes, notice{Key: keyLang, Value: clip(v, 32), Msg: "notice.lang"})
		}
	}
	if v, ok := first(keyView); ok && v != "" {
		if contains(views, v) {
			s.View = v
		} else {
			notes = append(notes, notice{Key: keyView, Value: clip(v, 32), Msg: "notice.choice", Args: []string{strings.Join(views, ", ")}})
		}
	}
	if v, ok := first(keyTheme); ok && v != "" {
		switch {
		case v == "auto":
		case contains(themes, v):
			s.Theme = v
		default:
			notes = append(notes, notice{Key: keyTheme, Value: clip(v, 32), Msg: "notice.choice", Args: []string{strings.Join(themes, ", ")}})
		}
	}
	for _, k := range []struct {
		key    string
		to     *string
		values []string
	}{{keyExport, &s.Export, exportTargets}, {keyEmbed, &s.Embed, embedViews}} {
		if v, ok := first(k.key); ok && v != "" {
			if contains(k.values, v) {
				*k.to = v
			} else {
				notes = append(notes, notice{Key: k.key, Value: clip(v, 32), Msg: "notice.choice", Args: []string{strings.Join(k.values, ", ")}})
			}
		}
	}
	for i, f := range s.Cls.fields() {
		known[classifyKeys[i]] = true
		if v, ok := first(classifyKeys[i]); ok {
			if utf8.RuneCountInString(v) > maxFieldLen {
				notes = append(notes, notice{Key: classifyKeys[i], Msg: "notice.clipped", Kept: true, Args: []string{strconv.Itoa(maxFieldLen)}})
				v = string([]rune(v)[:maxFieldLen])
			}
			*f = v
		}
	}
	if v, ok := first(keyLesson); ok && v != "" {
		if v == lessonListValue {
			s.Lesson = lessonList
		} else if n, err := backoff.ParseInt(keyLesson, v, 1, lessonCount); err != nil {
			notes = append(notes, notice{Key: keyLesson, Value: clip(v, 32), Err: err, Msg: "notice.lesson"})
		} else {
			s.Lesson = n
		}
	}
	for _, k := range []struct {
		key string
		to  *bool
	}{{keyPresent, &s.Present}, {keyImport, &s.Import}} {
		if v, ok := first(k.key); ok {
			if b, err := backoff.ParseBool(k.key, v); err != nil {
				notes = append(notes, notice{Key: k.key, Value: clip(v, 32), Err: err})
			} else {
				*k.to = b
			}
		}
	}
	notes = append(notes, s.Herd.parse(first, known)...)
	known[keyTopology] = true
	if v, ok := first(keyTopology); ok {
		if ch, err := lowerOnto(v, s.Herd.Config, s.Policy); err != nil {
			notes = append(notes, notice{Key: keyTopology, Value: clip(v, 32), Err: err, Doc: true})
		} else {
			s.Herd.Config = ch.Config
			if ch.Retry {
				s.Policy = ch.Policy
			}
		}
	}
	var b *backoff.Policy
	if s.B.On {
		b = &s.B.Policy
	}
	notes = append(notes, s.Sweep.parse(first, known, s.Herd.config(s.Policy), b)...)

	var unknown []string
	for k := range q {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		notes = append(notes, notice{Key: clip(k, 32), Value: clip(strings.Join(q[k], ","), 32), Msg: "notice.unknown"})
	}
	return s, notes
}

// prefixB starts the second policy's keys: b.preset, b.base...
const prefixB = "b."

// parsePolicy reads one policy's keys (each name after prefix): its preset,
// then its fields over the preset's. Invalid values are noted and ignored;
// the result is always valid. given reports whether any of its keys was
// in the query.
func parsePolicy(first func(string) (string, bool), known map[string]bool, prefix string, notes *[]notice) (preset string, pol backoff.Policy, given bool) {
	known[prefix+keyPreset] = true
	if v, ok := first(prefix + keyPreset); ok {
		given = true
		if _, err := backoff.LookupPreset(v); v != "" && err != nil {
			*notes = append(*notes, notice{Key: prefix + keyPreset, Value: clip(v, 32), Msg: "notice.preset"})
		} else {
			preset = v
		}
	}
	var set bool
	pol, set = parseParams(func() backoff.Policy { return basePolicy(preset) }, backoff.ParamNames,
		first, known, prefix, "policy", "notice.policy", notes)
	given = given || set
	return preset, pol, given
}

// params is what the page's policies and herd have in common: fields set
// by name from text, and a check of them together.
type params interface {
	Set(name, value string) error
	Validate() error
}

// parseParams reads the keys prefix+name for names, in that order, over
// base(); invalid values are noted and ignored. Fields fine alone may clash
// (cap below base, outage-end before outage-start): the one the check
// names is dropped and the rest applied again over base(); a clash in the
// base itself gives base() with a notice (whole, msg). The result is
// always valid; given reports whether any key was in the query.
func parseParams[T any, P interface {
	*T
	params
}](base func() T, names []string, first func(string) (string, bool), known map[string]bool,
	prefix, whole, msg string, notes *[]notice) (T, bool) {
	v := base()
	set := map[string]string{}
	given := false
	for _, name := range names {
		known[prefix+name] = true
		s, ok := first(prefix + name)
		if !ok {
			continue
		}
		given = true
		if err := P(&v).Set(name, s); err != nil {
			*notes = append(*notes, notice{Key: prefix + name, Value: clip(s, 32), Err: err})
			continue
		}
		set[name] = s
	}
	for range len(names) + 1 {
		err := P(&v).Validate()
		if err == nil {
			break
		}
		field := fieldOf(err)
		s, ok := set[field]
		if !ok {
			*notes = append(*notes, notice{Key: prefix + whole, Err: err, Msg: msg})
			v = base()
			break
		}
		*notes = append(*notes, notice{Key: prefix + field, Value: clip(s, 32), Err: err})
		delete(set, field)
		v = base()
		for _, name := range names {
			if gs, ok := set[name]; ok {
				_ = P(&v).Set(name, gs)
			}
		}
	}
	return v, given
}

// query is the state as a URL query, keys in a fixed, readable order: the
// preset, the policy keys that differ from the preset (and the main five
// always), the seed, the view, then the herd.
func (s *state) query() string {
	q, _ := s.link()
	return q
}

// link is the query that restores s, and the classification fields it
// leaves out because a link could not carry them whole: a field longer than
// maxFieldLen characters, then the longest ones until the query fits in
// maxQueryLen bytes. A link read back is never a cut version of the page.
func (s *state) link() (q string, left []string) {
	def := classifyCases[0].in.fields()
	mine := s.Cls.fields()
	for i, f := range mine {
		if utf8.RuneCountInString(*f) > maxFieldLen {
			left = append(left, classifyKeys[i])
		}
	}
	for {
		q = s.encode(left)
		if len(q) <= maxQueryLen {
			return q, left
		}
		longest, most := "", 0
		for i, f := range mine {
			if n := len(url.QueryEscape(*f)); *f != *def[i] && n > most && !slices.Contains(left, classifyKeys[i]) {
				longest, most = classifyKeys[i], n
			}
		}
		if longest == "" {
			return q, left // only the bounded keys left: cannot happen below maxQueryLen
		}
		left = append(left, longest)
	}
}

// encode writes the query of s without the classification keys in left.
func (s *state) encode(left []string) string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	policyQuery(add, "", s.Preset, s.Policy)
	if s.B.On {
		policyQuery(add, prefixB, s.B.Preset, s.B.Policy)
	}
	add(keySeed, strconv.FormatUint(s.Seed, 10))
	if s.Log {
		add(keyScale, "log")
	}
	s.Herd.query(add)
	if sc := scenarioOf(s); sc != "" {
		add(keyScenario, sc)
	}
	s.Sweep.query(add)
	if s.Lang != "" {
		add(keyLang, s.Lang)
	}
	if s.View != "" {
		add(keyView, s.View)
	}
	if s.Theme != "" {
		add(keyTheme, s.Theme)
	}
	if s.Cls != classifyCases[0].in {
		def := classifyCases[0].in
		mine, theirs := s.Cls.fields(), def.fields()
		for i, f := range mine {
			if *f != *theirs[i] && !slices.Contains(left, classifyKeys[i]) {
				add(classifyKeys[i], *f)
			}
		}
	}
	switch {
	case s.Lesson > 0:
		add(keyLesson, strconv.Itoa(s.Lesson))
	case s.Lesson == lessonList:
		add(keyLesson, lessonListValue)
	}
	if s.Present {
		add(keyPresent, "1")
	}
	if s.Export != "" {
		add(keyExport, s.Export)
	}
	if s.Embed != "" {
		add(keyEmbed, s.Embed)
	}
	if s.Import {
		add(keyImport, "1")
	}
	return b.String()
}

// content is the state without the page's open panels: what an export,
// an embed or an image shows.
func (s *state) content() state {
	c := *s
	c.Export, c.Embed, c.Import = "", "", false
	return c
}

// fullQuery is the query of the whole page with the same state: the link
// an embedded view opens.
func (s *state) fullQuery() string {
	f := s.content()
	f.View, f.Theme, f.Lesson, f.Present = "", "", 0, false
	return f.query()
}

// policyQuery writes one policy's keys: the preset, then the fields that
// differ from it (and the main five always). It replays what parsePolicy
// will do, key by key, so a key is left out only when the parser arrives
// at the same value without it (setting the jitter kind also fills in that
// kind's zero parameters).
func policyQuery(add func(k, v string), prefix, preset string, pol backoff.Policy) {
	if preset != "" {
		add(prefix+keyPreset, preset)
	}
	replay := basePolicy(preset)
	for _, name := range backoff.ParamNames {
		if name == backoff.ParamCapAfterJitter {
			continue // cap-mode says the same, and more
		}
		v := pol.Get(name)
		if v != replay.Get(name) || contains(alwaysInURL, name) {
			add(prefix+name, v)
			_ = replay.Set(name, v)
		}
	}
}

// modified reports whether the policy differs from its preset's.
func (s *state) modified() bool { return s.policy().modified() }

// policy is what the policy panel edits of the state.
func (s *state) policy() policyLink { return policyLink{s.Preset, s.Policy, s.Seed} }

// modified reports whether the policy differs from its preset's.
func (k policyLink) modified() bool {
	base := basePolicy(k.Preset)
	for _, name := range backoff.ParamNames {
		if k.Policy.Get(name) != base.Get(name) {
			return true
		}
	}
	return false
}

func fieldOf(err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return fe.Field
	}
	return ""
}

// ruleOf is an error's rule without the field and value a notice already
// shows.
func ruleOf(l i18n.Lang, err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return ruleText(l, fe)
	}
	return l.T("err.generic")
}

// cutQuery splits an over-long query at its last pair that ends within n
// bytes: kept is the query up to there; past are the first max pairs after
// it, and more counts the others. A pair is never cut in two.
func cutQuery(raw string, n, max int) (kept string, past []string, more int) {
	end := 0
	for rest := raw; rest != ""; {
		pair, tail, found := strings.Cut(rest, "&")
		at := len(raw) - len(rest)
		switch {
		case at+len(pair) <= n:
			end = at + len(pair)
		case pair == "":
		case len(past) < max:
			past = append(past, pair)
		default:
			more++
		}
		if !found {
			break
		}
		rest = tail
	}
	return raw[:end], past, more
}

// unescapeOr is s query-unescaped, or s itself when it does not unescape.
func unescapeOr(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r) + "…"
}

func contains[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// parseSeed reads a seed: any whole number a uint64 holds.
func parseSeed(v string) (uint64, error) { return backoff.ParseUint(keySeed, v, 0, math.MaxUint64) }
