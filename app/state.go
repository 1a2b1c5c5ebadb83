package app

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// Query keys of the page's own settings; the policy's keys are
// backoff.ParamNames and the herd's are herdParamNames.
const (
	keyPreset = "preset"
	keySeed   = "seed"
	keyScale  = "scale" // delay chart axis: linear (default) or log
)

// alwaysInURL are the policy keys written even when they equal the preset's
// value, so a shared link reads as the schedule it shows.
var alwaysInURL = []string{backoff.ParamBase, backoff.ParamFactor, backoff.ParamCap, backoff.ParamAttempts, backoff.ParamJitter}

// maxQueryLen bounds what the parser reads: a share link is far shorter.
const maxQueryLen = 8192

// state is everything the page shows, and exactly what the URL holds. It is
// a plain value: copy it to keep the last valid state.
type state struct {
	// Preset is the preset the policy started from; "" is the article's
	// policy (backoff.Default).
	Preset string
	Policy backoff.Policy
	Seed   uint64
	Log    bool // log axis on the delay chart
	Herd   herdState
}

func defaultState() state {
	return state{Policy: backoff.Default(), Seed: 1, Herd: defaultHerd()}
}

// basePolicy is the policy a preset name stands for.
func basePolicy(preset string) backoff.Policy {
	if p, err := backoff.LookupPreset(preset); err == nil {
		return p.Policy
	}
	return backoff.Default()
}

// notice is one query parameter the page ignored, and why.
type notice struct {
	Key, Value, Reason string
}

func (n notice) String() string {
	return fmt.Sprintf("%s=%s ignored: %s", n.Key, n.Value, n.Reason)
}

// parseQuery restores a state from a URL query. Unknown or invalid
// parameters are reported and ignored; the result is always a valid state.
func parseQuery(raw string) (state, []notice) {
	s := defaultState()
	var notes []notice
	if len(raw) > maxQueryLen {
		notes = append(notes, notice{"query", raw[:32] + "…", fmt.Sprintf("longer than %d bytes", maxQueryLen)})
		raw = raw[:maxQueryLen]
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		// ParseQuery keeps every pair it could read; note the first bad one.
		notes = append(notes, notice{"query", clip(raw, 32), "not a valid query string"})
	}
	first := func(key string) (string, bool) {
		vs, ok := q[key]
		if !ok || len(vs) == 0 {
			return "", false
		}
		if len(vs) > 1 {
			notes = append(notes, notice{key, clip(strings.Join(vs[1:], ","), 32), "given more than once: the first value is used"})
		}
		return vs[0], true
	}
	known := map[string]bool{keyPreset: true, keySeed: true, keyScale: true}

	if v, ok := first(keyPreset); ok && v != "" {
		if _, err := backoff.LookupPreset(v); err != nil {
			notes = append(notes, notice{keyPreset, clip(v, 32), "no such preset"})
		} else {
			s.Preset = v
		}
	}
	s.Policy = basePolicy(s.Preset)
	// Apply in ParamNames order: jitter before its own knobs, so setting a
	// kind's defaults never overrides an explicit jitter-lo or jitter-add.
	given := map[string]string{}
	for _, name := range backoff.ParamNames {
		known[name] = true
		v, ok := first(name)
		if !ok {
			continue
		}
		if err := s.Policy.Set(name, v); err != nil {
			notes = append(notes, notice{name, clip(v, 32), reason(err)})
			continue
		}
		given[name] = v
	}
	// The fields may be fine alone and wrong together (cap below base):
	// drop the parameter the check names and try again.
	for range len(backoff.ParamNames) + 1 {
		err := s.Policy.Validate()
		if err == nil {
			break
		}
		field := fieldOf(err)
		v, ok := given[field]
		if !ok {
			// The offending field came from the preset: start again from it.
			p := basePolicy(s.Preset)
			notes = append(notes, notice{"policy", "", reason(err) + ": the preset's values are used"})
			s.Policy = p
			break
		}
		notes = append(notes, notice{field, clip(v, 32), reason(err)})
		delete(given, field)
		p := basePolicy(s.Preset)
		for _, name := range backoff.ParamNames {
			if gv, ok := given[name]; ok {
				_ = p.Set(name, gv)
			}
		}
		s.Policy = p
	}

	if v, ok := first(keySeed); ok {
		if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64); err != nil {
			notes = append(notes, notice{keySeed, clip(v, 32), "want a whole number from 0 to 18446744073709551615"})
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
			notes = append(notes, notice{keyScale, clip(v, 32), "want linear or log"})
		}
	}
	notes = append(notes, s.Herd.parse(first, known)...)

	var unknown []string
	for k := range q {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		notes = append(notes, notice{clip(k, 32), clip(strings.Join(q[k], ","), 32), "unknown parameter"})
	}
	return s, notes
}

// query is the state as a URL query, keys in a fixed, readable order: the
// preset, the policy keys that differ from the preset (and the main five
// always), the seed, the view, then the herd.
func (s *state) query() string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	if s.Preset != "" {
		add(keyPreset, s.Preset)
	}
	// Replay what parseQuery will do, key by key, so a key is left out only
	// when the parser arrives at the same value without it (setting the
	// jitter kind also fills in that kind's zero parameters).
	replay := basePolicy(s.Preset)
	for _, name := range backoff.ParamNames {
		if name == backoff.ParamCapAfterJitter {
			continue // cap-mode says the same, and more
		}
		v := s.Policy.Get(name)
		if v != replay.Get(name) || contains(alwaysInURL, name) {
			add(name, v)
			_ = replay.Set(name, v)
		}
	}
	add(keySeed, strconv.FormatUint(s.Seed, 10))
	if s.Log {
		add(keyScale, "log")
	}
	s.Herd.query(add)
	return b.String()
}

// modified reports whether the policy differs from its preset's.
func (s *state) modified() bool {
	base := basePolicy(s.Preset)
	for _, name := range backoff.ParamNames {
		if s.Policy.Get(name) != base.Get(name) {
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

// reason is an error's text without the field and value the notice already
// shows.
func reason(err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return "want " + fe.Allowed
	}
	return err.Error()
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

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
