package importer

import (
	"math"
	"strconv"
	"strings"
)

// read records the setting of a code value and reports whether it is a
// number (a bool counts as 0 or 1); else it names the value as
// unreadable, with what is used instead.
func (r *reader) numValue(key string, v *value, instead string) (float64, bool) {
	r.set(key, v.text, v.line)
	r.took(v)
	switch v.kind {
	case vNum, vBool:
		return v.num, true
	case vStr: // Spring's delayExpression = "1000", a number in a string
		if f, err := strconv.ParseFloat(strings.TrimSpace(v.str), 64); err == nil {
			return f, true
		}
	}
	r.unreadable(key, v.text, v.line, instead)
	return 0, false
}

// durValue reads a duration: a duration expression, or a bare number in
// unit seconds (Go's untyped constants are nanoseconds, tenacity's
// numbers seconds, Spring's milliseconds). parseStr, when not nil, reads
// a string (TypeScript's '1s').
func (r *reader) durValue(key string, v *value, unit float64, parseStr func(string) (float64, bool), instead string) (float64, bool) {
	r.set(key, v.text, v.line)
	r.took(v)
	switch v.kind {
	case vDur:
		return v.num, true
	case vNum:
		return v.num * unit, true
	case vStr:
		if parseStr != nil {
			if f, ok := parseStr(v.str); ok {
				return f, true
			}
		}
	}
	r.unreadable(key, v.text, v.line, instead)
	return 0, false
}

// boolValue reads true or false.
func (r *reader) boolValue(key string, v *value, instead string) (bool, bool) {
	r.set(key, v.text, v.line)
	r.took(v)
	if v.kind == vBool {
		return v.num != 0, true
	}
	r.unreadable(key, v.text, v.line, instead)
	return false, false
}

// nodeNum reads a number from a config value (a YAML string "3" too, as
// Spring binds it).
func (r *reader) nodeNum(key string, n *node, line int, strOK bool, instead string) (float64, bool) {
	r.set(key, n.source(), line)
	if n.kind == nScalar && !n.null && (!n.str || strOK) {
		if f, err := strconv.ParseFloat(strings.TrimSpace(n.text), 64); err == nil && !math.IsInf(f, 0) {
			return f, true
		}
	}
	r.warn(CodeUnreadable, line, []string{key, clip(n.source())}, "%s is %s, which is not a number%s", key, clip(n.source()), insteadText(instead))
	return 0, false
}

// nodeDur reads a duration from a config value with parse.
func (r *reader) nodeDur(key string, n *node, line int, parse func(string) (float64, bool), instead string) (float64, bool) {
	r.set(key, n.source(), line)
	if n.kind == nScalar && !n.null {
		if f, ok := parse(strings.TrimSpace(n.text)); ok {
			return f, true
		}
	}
	r.warn(CodeUnreadable, line, []string{key, clip(n.source())}, "%s is %s, which is not a duration the library reads%s", key, clip(n.source()), insteadText(instead))
	return 0, false
}

// nodeBool reads true or false.
func (r *reader) nodeBool(key string, n *node, line int, instead string) (bool, bool) {
	r.set(key, n.source(), line)
	if n.kind == nScalar {
		switch strings.ToLower(strings.TrimSpace(n.text)) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	r.warn(CodeUnreadable, line, []string{key, clip(n.source())}, "%s is %s, which is not true or false%s", key, clip(n.source()), insteadText(instead))
	return false, false
}

func insteadText(instead string) string {
	if instead == "" {
		return ""
	}
	return ": " + instead + " is used instead"
}

// protoSeconds reads a protobuf JSON duration as grpc-go's
// internal/serviceconfig Duration.UnmarshalJSON does: decimal seconds
// with an "s", the whole or the fractional part optional (".2s", "1.s"),
// at most 9 fractional digits.
func protoSeconds(s string) (float64, bool) {
	if !strings.HasSuffix(s, "s") {
		return 0, false
	}
	s = strings.TrimSuffix(s, "s")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && frac == "" || len(frac) > 9 || strings.Contains(frac, ".") {
		return 0, false
	}
	sec := 0.0
	for _, part := range []string{whole, frac} {
		for _, ch := range part {
			if ch < '0' || ch > '9' {
				return 0, false
			}
		}
	}
	if whole != "" {
		w, err := strconv.ParseUint(whole, 10, 63)
		if err != nil {
			return 0, false
		}
		sec = float64(w)
	}
	if dot && frac != "" {
		f, _ := strconv.ParseUint(frac, 10, 63)
		sec += float64(f) / math.Pow10(len(frac))
	}
	if neg {
		sec = -sec
	}
	return sec, true
}

// springSeconds reads a duration as Spring Boot binds one: a bare number
// of milliseconds, a number with a unit (ns, us, ms, s, m, h, d), or ISO
// 8601 (PT0.5S, P1D).
func springSeconds(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f / 1000, true
	}
	if strings.HasPrefix(strings.ToUpper(s), "P") || strings.HasPrefix(strings.ToUpper(s), "-P") {
		return isoSeconds(s)
	}
	return unitSeconds(s, map[string]float64{"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400}, false)
}

// msSeconds reads a TypeScript duration as the ms package (and Temporal's
// TypeScript SDK) does: a number of milliseconds, or a number and a unit
// ("1s", "1.5 minutes", "100ms", "2 hours", "1d").
func msSeconds(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f / 1000, true
	}
	units := map[string]float64{}
	for sec, names := range map[float64]string{
		1e-3: "ms msec msecs millisecond milliseconds", 1: "s sec secs second seconds", 60: "m min mins minute minutes",
		3600: "h hr hrs hour hours", 86400: "d day days", 604800: "w week weeks", 31557600: "y yr yrs year years"} {
		for _, n := range strings.Fields(names) {
			units[n] = sec
		}
	}
	return unitSeconds(strings.ToLower(s), units, true)
}

// unitSeconds reads one number followed by one of units.
func unitSeconds(s string, units map[string]float64, space bool) (float64, bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' && i == 0) {
		i++
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, false
	}
	u := s[i:]
	if space {
		u = strings.TrimSpace(u)
	}
	sec, ok := units[u]
	return f * sec, ok
}

// isoSeconds reads an ISO 8601 duration: PnDTnHnMnS.
func isoSeconds(s string) (float64, bool) {
	s = strings.ToUpper(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if !strings.HasPrefix(s, "P") {
		return 0, false
	}
	s = s[1:]
	total, inTime, num := 0.0, false, ""
	for _, ch := range s {
		switch {
		case ch >= '0' && ch <= '9' || ch == '.' || ch == '-':
			num += string(ch)
		case ch == 'T':
			inTime = true
		default:
			f, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, false
			}
			var u float64
			switch {
			case ch == 'D' && !inTime:
				u = 86400
			case ch == 'H' && inTime:
				u = 3600
			case ch == 'M' && inTime:
				u = 60
			case ch == 'S' && inTime:
				u = 1
			default:
				return 0, false
			}
			total += f * u
			num = ""
		}
	}
	if num != "" {
		return 0, false
	}
	if neg {
		total = -total
	}
	return total, true
}

// normKey folds a key for matching: lower case, without - and _ (Spring's
// relaxed binding: max-attempts, maxAttempts, max_attempts).
func normKey(k string) string {
	return strings.ToLower(keyFolder.Replace(k))
}

var keyFolder = strings.NewReplacer("-", "", "_", "")

// readNum sets *dst to v when v is a number (numValue), and leaves it
// when not.
func (r *reader) readNum(dst *float64, key string, v *value, instead string) {
	if f, ok := r.numValue(key, v, instead); ok {
		*dst = f
	}
}

// readDur sets *dst to v in seconds when v is a duration, or a number in
// unit seconds (durValue), and leaves it when not.
func (r *reader) readDur(dst *float64, key string, v *value, unit float64, instead string) {
	if f, ok := r.durValue(key, v, unit, nil, instead); ok {
		*dst = f
	}
}

// fields are the fields of a struct or an options object as the code
// sets them (a literal's, then later assignments x.Field = v): each name
// once, in the order first set, with its last value.
type fields struct {
	vals  map[string]*value
	order []string
}

func (f *fields) put(name string, v *value) {
	if f.vals == nil {
		f.vals = map[string]*value{}
	}
	if _, ok := f.vals[name]; !ok {
		f.order = append(f.order, name)
	}
	f.vals[name] = v
}

// assigned puts the assignments to any of names.
func (f *fields) assigned(c *code, names []string) { f.assignedTo(c, names, true, "") }

// assignedTo puts the assignments to any of names of the object owner
// (all of them, when any): a text with several policies assigns each
// object its own.
func (f *fields) assignedTo(c *code, names []string, any bool, owner string) {
	for _, as := range c.assignments(func(n string) bool { return containsStr(names, n) }) {
		if any || as.target == owner {
			f.put(as.field, c.eval(as.from, as.to))
		}
	}
}
