package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestSimJSONSchema checks the JSON of every model against
// sim.schema.json: herds (one run and several, a budget and a breaker,
// occ, more clients than per_client lists, an outage over before the
// last give-up), request-level runs (closed, open, loop, cut short),
// fleets, chains, channels and caches (one run and several, and together), and
// sweeps. The schema holds each model to one set of keys, every one
// there whatever its value.
func TestSimJSONSchema(t *testing.T) {
	root := loadSchema(t)
	for _, args := range [][]string{
		{"--clients", "50"},
		{"--clients", "50", "--runs", "3"},
		{"--clients", "50", "--budget", "tokens:20:5:1", "--breaker", "consecutive:5:1s"},
		{"--clients", "50", "--server", "occ", "--latency", "1s", "--preset", "aws-blog-full"},
		{"--clients", "2000", "--outage-end", "1s"},
		{"--clients", "200", "--seed", "18446744073709551615"},
		{"--clients", "50", "--server", "queue"},
		{"--clients", "50", "--server", "queue", "--runs", "2"},
		{"--clients", "50", "--timeout", "300ms", "--max-calls", "60"},
		{"--traffic", "open:50", "--duration", "10s", "--server", "queue", "--timeout", "1s", "--fault", "stall@2s-4s"},
		{"--traffic", "open:50", "--duration", "10s", "--server", "queue", "--drain", "--runs", "2"},
		{"--traffic", "loop:20:100ms", "--duration", "10s", "--server", "capacity", "--timeout", "1s", "--hedge", "p90"},
		{"--traffic", "open:50", "--duration", "10s", "--server", "queue", "--servers", "3", "--fault", "crash@2s-4s/2"},
		{"--traffic", "open:50", "--duration", "10s", "--server", "queue", "--servers", "3", "--runs", "2"},
		{"--clients", "30", "--layers", "3", "--layer-attempts", "2", "--error-rate", "0.5", "--layer-timeout", "500ms"},
		{"--clients", "30", "--layers", "3", "--layer-attempts", "2", "--error-rate", "0.5", "--runs", "2"},
		{"--clients", "30", "--layers", "2", "--servers", "2", "--server", "queue"},
		{"--server", "channel", "--traffic", "open:100", "--duration", "5s", "--attempts", "3"},
		{"--server", "channel", "--traffic", "open:100", "--duration", "5s", "--attempts", "3", "--runs", "2"},
		{"--server", "channel", "--clients", "30", "--layers", "2"},
		{"--traffic", "open:100", "--duration", "5s", "--server", "queue", "--cache-keys", "100", "--cache-start", "warm", "--fault", "flush@2s-2s"},
		{"--traffic", "open:100", "--duration", "5s", "--server", "queue", "--cache-keys", "100", "--cache-zipf", "1.1", "--runs", "2"},
		{"--clients", "30", "--layers", "2", "--servers", "2", "--server", "queue", "--cache-keys", "10", "--hedge", "p50"},
		{"--sweep", "clients=10,20"},
		{"--jitter", "none,full", "--clients", "20", "--runs", "2"},
		{"--traffic", "open:10", "--duration", "5s", "--server", "queue", "--sweep", "rate=10,20"},
		{"--traffic", "open:10", "--duration", "5s", "--server", "queue", "--servers", "2", "--sweep", "rate=10,20", "--runs", "2"},
	} {
		code, out, errOut := run(t, append(append([]string{"sim"}, args...), "--format", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		doc := decodeJSON(t, out)
		if errs := validate(root, root, doc, "$"); len(errs) > 0 {
			t.Errorf("%v: not the schema's:\n  %s", args, strings.Join(errs[:min(len(errs), 8)], "\n  "))
		}
	}
}

// The validator finds what the schema rules out: a key dropped when zero,
// a client -1, a negative gave_up_before_back_s, a fleet without
// per_server, a herd's key in a request-level run's totals.
func TestSimJSONSchemaCatches(t *testing.T) {
	root := loadSchema(t)
	doc := func(args ...string) map[string]any {
		_, out, errOut := run(t, append(append([]string{"sim"}, args...), "--format", "json")...)
		d, ok := decodeJSON(t, out).(map[string]any)
		if !ok {
			t.Fatalf("%v: %s", args, errOut)
		}
		return d
	}
	totals := func(d map[string]any) map[string]any { return d["totals"].(map[string]any) }
	for name, c := range map[string]struct {
		args  []string
		spoil func(map[string]any)
	}{
		"unfinished dropped":     {[]string{"--clients", "20"}, func(d map[string]any) { delete(totals(d), "unfinished") }},
		"client -1":              {[]string{"--traffic", "open:20", "--duration", "5s", "--server", "capacity"}, func(d map[string]any) { totals(d)["worst_client"].(map[string]any)["client"] = json.Number("-1") }},
		"gave up after, negated": {[]string{"--clients", "20"}, func(d map[string]any) { d["verdict"].(map[string]any)["gave_up_before_back_s"] = json.Number("-2.5") }},
		"fleet without servers":  {[]string{"--servers", "2", "--server", "queue", "--clients", "20"}, func(d map[string]any) { delete(totals(d), "per_server") }},
		"per_server on one":      {[]string{"--server", "queue", "--clients", "20"}, func(d map[string]any) { totals(d)["per_server"] = []any{} }},
		"chain half there":       {[]string{"--layers", "2", "--clients", "20"}, func(d map[string]any) { delete(totals(d), "orphan_calls") }},
		"verdict in requests":    {[]string{"--server", "queue", "--clients", "20"}, func(d map[string]any) { d["verdict"] = map[string]any{} }},
		"seed a number":          {[]string{"--clients", "20"}, func(d map[string]any) { d["seed"] = json.Number("1") }},
		"cache without hits":     {[]string{"--clients", "20", "--cache-keys", "5"}, func(d map[string]any) { delete(totals(d), "hits") }},
		"bucket without hits": {[]string{"--clients", "20", "--cache-keys", "5"}, func(d map[string]any) {
			delete(d["timeline"].([]any)[0].(map[string]any), "hit_ratio")
		}},
		"hits with no cache": {[]string{"--server", "queue", "--clients", "20"}, func(d map[string]any) { totals(d)["hits"] = json.Number("1") }},
		"unknown key":        {[]string{"--clients", "20"}, func(d map[string]any) { d["extra"] = true }},
		"herd of two nodes": {[]string{"--clients", "20"}, func(d map[string]any) {
			n := totals(d)["per_node"].([]any)
			totals(d)["per_node"] = append(n, n[0])
		}},
		"herd without nodes": {[]string{"--clients", "20"}, func(d map[string]any) { delete(totals(d), "per_node") }},
	} {
		d := doc(c.args...)
		if errs := validate(root, root, d, "$"); len(errs) > 0 {
			t.Fatalf("%s: the unspoiled document fails: %v", name, errs)
		}
		c.spoil(d)
		if errs := validate(root, root, d, "$"); len(errs) == 0 {
			t.Errorf("%s: passed the schema", name)
		}
	}
}

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile("sim.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := decodeJSON(t, string(b)).(map[string]any)
	if !ok {
		t.Fatal("sim.schema.json: not an object")
	}
	return s
}

// decodeJSON decodes s with numbers kept as written (json.Number).
func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %.200s", err, s)
	}
	return v
}

// validate checks v against the JSON Schema s (root holds its $defs)
// and returns what fails, each with its path. It knows the keywords
// sim.schema.json uses, and fails on any other: a keyword it would skip
// would check nothing.
func validate(root, s map[string]any, v any, path string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	obj, isObj := v.(map[string]any)
	arr, isArr := v.([]any)
	for _, k := range keys {
		kw := s[k]
		switch k {
		case "$schema", "$id", "$defs", "title", "description":
		case "$ref":
			name, ok := strings.CutPrefix(kw.(string), "#/$defs/")
			def, found := root["$defs"].(map[string]any)[name].(map[string]any)
			if !ok || !found {
				fail("no %s", kw)
				continue
			}
			errs = append(errs, validate(root, def, v, path)...)
		case "type":
			types := []any{kw}
			if l, ok := kw.([]any); ok {
				types = l
			}
			if !slices.ContainsFunc(types, func(ty any) bool { return isType(v, ty.(string)) }) {
				fail("%s, want type %v", show(v), kw)
			}
		case "enum":
			if !slices.ContainsFunc(kw.([]any), func(e any) bool { return same(e, v) }) {
				fail("%s, want one of %v", show(v), kw)
			}
		case "const":
			if !same(kw, v) {
				fail("%s, want %v", show(v), kw)
			}
		case "minimum", "maximum", "exclusiveMinimum":
			n, ok := v.(json.Number)
			if !ok {
				continue
			}
			x, _ := n.Float64()
			lim, _ := kw.(json.Number).Float64()
			if k == "minimum" && x < lim || k == "maximum" && x > lim || k == "exclusiveMinimum" && x <= lim {
				fail("%s, want %s %v", n, k, lim)
			}
		case "pattern":
			if str, ok := v.(string); ok && !regexp.MustCompile(kw.(string)).MatchString(str) {
				fail("%q does not match %s", str, kw)
			}
		case "properties":
			for name, sub := range kw.(map[string]any) {
				if x, ok := obj[name]; isObj && ok {
					errs = append(errs, validate(root, sub.(map[string]any), x, path+"."+name)...)
				}
			}
		case "required":
			for _, name := range kw.([]any) {
				if _, ok := obj[name.(string)]; isObj && !ok {
					fail("no %q", name)
				}
			}
		case "additionalProperties":
			props, _ := s["properties"].(map[string]any)
			for name, x := range obj {
				if _, ok := props[name]; ok {
					continue
				}
				switch a := kw.(type) {
				case bool:
					if !a {
						fail("key %q not in the schema", name)
					}
				case map[string]any:
					errs = append(errs, validate(root, a, x, path+"."+name)...)
				}
			}
		case "propertyNames":
			for name := range obj {
				errs = append(errs, validate(root, kw.(map[string]any), name, path+" key "+name)...)
			}
		case "dependentRequired":
			for name, needs := range kw.(map[string]any) {
				if _, ok := obj[name]; !isObj || !ok {
					continue
				}
				for _, n := range needs.([]any) {
					if _, ok := obj[n.(string)]; !ok {
						fail("%q without %q", name, n)
					}
				}
			}
		case "items":
			for i, x := range arr {
				errs = append(errs, validate(root, kw.(map[string]any), x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		case "minItems":
			if n, _ := kw.(json.Number).Int64(); isArr && int64(len(arr)) < n {
				fail("%d items, want at least %d", len(arr), n)
			}
		case "maxItems":
			if n, _ := kw.(json.Number).Int64(); isArr && int64(len(arr)) > n {
				fail("%d items, want at most %d", len(arr), n)
			}
		case "allOf":
			for _, sub := range kw.([]any) {
				errs = append(errs, validate(root, sub.(map[string]any), v, path)...)
			}
		case "oneOf", "anyOf":
			n, all := 0, []string{}
			for _, sub := range kw.([]any) {
				e := validate(root, sub.(map[string]any), v, path)
				if len(e) == 0 {
					n++
				} else {
					all = append(all, e[0])
				}
			}
			if k == "oneOf" && n != 1 || k == "anyOf" && n == 0 {
				fail("%d of %s match (%s)", n, k, strings.Join(all, "; "))
			}
		case "not":
			if len(validate(root, kw.(map[string]any), v, path)) == 0 {
				fail("matches what it must not: %v", kw)
			}
		case "if":
			branch := "else"
			if len(validate(root, kw.(map[string]any), v, path)) == 0 {
				branch = "then"
			}
			if sub, ok := s[branch].(map[string]any); ok {
				errs = append(errs, validate(root, sub, v, path)...)
			}
		case "then", "else": // with if
		default:
			fail("keyword %q unknown to the validator", k)
		}
	}
	return errs
}

func isType(v any, ty string) bool {
	switch x := v.(type) {
	case nil:
		return ty == "null"
	case bool:
		return ty == "boolean"
	case string:
		return ty == "string"
	case map[string]any:
		return ty == "object"
	case []any:
		return ty == "array"
	case json.Number:
		return ty == "number" || ty == "integer" && !strings.ContainsAny(x.String(), ".eE")
	}
	return false
}

// same is JSON equality: numbers by value.
func same(a, b any) bool {
	na, okA := a.(json.Number)
	nb, okB := b.(json.Number)
	if okA && okB {
		x, _ := na.Float64()
		y, _ := nb.Float64()
		return x == y
	}
	if okA || okB {
		return false
	}
	return fmt.Sprint(a) == fmt.Sprint(b) && isSameKind(a, b)
}

func isSameKind(a, b any) bool { return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) }

func show(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.Encode(v)
	s := strings.TrimSpace(b.String())
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// The largest seed is written exactly: as a string of digits in JSON,
// where a number past 2^53 reads as 18446744073709552000 in most readers
// (JavaScript, jq), and as digits in text.
func TestSeedExact(t *testing.T) {
	const most = "18446744073709551615"
	for _, args := range [][]string{
		{"sim", "--clients", "10", "--format", "json"},
		{"sim", "--clients", "10", "--sweep", "clients=10,20", "--format", "json"},
		{"table", "--attempts", "3", "--format", "json"},
	} {
		code, out, errOut := run(t, append(args, "--seed", most)...)
		var doc map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc["seed"] != most {
			t.Errorf("%v: exit %d %s, seed %#v, want the string %s", args, code, errOut, doc["seed"], most)
		}
	}
	if _, out, _ := run(t, "sim", "--clients", "10", "--seed", most); !strings.Contains(out, "seed "+most+"\n") {
		t.Errorf("text: %.300s", out)
	}
}
