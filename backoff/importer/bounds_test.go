package importer

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// fill repeats unit between prefix and suffix up to MaxInput bytes.
func fill(prefix, unit, suffix string) string {
	n := (MaxInput - len(prefix) - len(suffix)) / len(unit)
	return prefix + strings.Repeat(unit, n) + suffix
}

// nestedJSON is n levels of {"retryPolicy": ...}: 16 bytes a level.
func nestedJSON(n int) string {
	return strings.Repeat(`{"retryPolicy":`, n) + "1" + strings.Repeat("}", n)
}

// hostileInputs are texts of up to MaxInput bytes built to cost a reader
// more than their size: deep nesting, YAML aliases, long chains, many
// repeats of a reader's marker, each once linear in time or memory only
// after a fix.
func hostileInputs() []struct{ name, text string } {
	var stair, deepKeys, props strings.Builder
	for i := 0; stair.Len() < MaxInput-2000; i++ {
		stair.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	deepKeys.WriteString(`{"resilience4j":{"retry":{"instances":{"x":`)
	for i := 0; i < 190; i++ {
		deepKeys.WriteString(`{"` + strings.Repeat("k", 600) + `":`)
	}
	deepKeys.WriteString("[")
	for deepKeys.Len() < MaxInput-1000 {
		deepKeys.WriteString("1,")
	}
	deepKeys.WriteString("1]" + strings.Repeat("}", 194))
	for props.Len() < MaxInput-1000 {
		props.WriteString("resilience4j.retry.instances.a." + strings.Repeat("b.", 200) + "c=1\n")
	}
	lol := `"lol"`
	bomb := "a: &a [" + strings.Repeat(lol+",", 8) + lol + "]\n"
	for i, c := range "bcdefghij" {
		prev := string("abcdefghij"[i])
		bomb += string(c) + ": &" + string(c) + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n"
	}
	return []struct{ name, text string }{
		{"json-nested-15000", nestedJSON(15000)},
		{"json-nested-8000", nestedJSON(8000)},
		{"json-arrays", strings.Repeat("[", MaxInput/2) + strings.Repeat("]", MaxInput/2)},
		{"json-wide", fill("[", "1,", "1]")},
		{"json-keys", fill("{", `"a":1,`, `"a":1}`)},
		{"yaml-flow-9000", "a: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000)},
		{"yaml-flow-maps", "a: " + strings.Repeat("{b: ", 9000) + "1" + strings.Repeat("}", 9000)},
		{"yaml-staircase", stair.String()},
		{"yaml-alias-bomb", bomb},
		{"r4j-deep-long-keys", deepKeys.String()},
		{"r4j-properties", props.String()},
		{"dotted-chain", fill("x = a", ".a", "")},
		{"dotted-assign", fill("retryablehttp.NewClient()\nc.", "a.", "RetryMax = 1\n")},
		{"methodConfig-keys", fill("", "methodConfig: 1, ", "")},
		{"methodConfig-object", fill("x = {", "methodConfig: 1, ", "}")},
		{"methodConfig-strings", fill("", `"methodConfig" `, "")},
		{"methodConfig-concat", fill("", `"methodConfig" + `, `""`)},
		{"chained-assign", fill("", "a = ", "1")},
		{"assign-lines", fill("", "a = 1\n", "")},
		{"field-assigns", fill("c := retryablehttp.NewClient()\n", "c.RetryMax = c.RetryMax + c.RetryMax\n", "")},
		{"parens", strings.Repeat("(", MaxInput/2) + strings.Repeat(")", MaxInput/2)},
		{"retry-unclosed", fill("import tenacity\n", "@retry(", "")},
		{"retry-many", fill("import tenacity\n", "@retry(stop=stop_after_attempt(3))\n", "")},
		{"wait-sum", fill("import tenacity\n@retry(wait=wait_fixed(1)", " + wait_fixed(1)", ")\n")},
		{"stop-or", fill("import tenacity\n@retry(stop=stop_after_attempt(1)", " | stop_after_attempt(1)", ")\n")},
		{"stepfn-retriers", `{"Retry": [` + fill("", `{"ErrorEquals": ["a"]},`, `{"ErrorEquals": ["a"]}`) + "]}"},
		{"python-dict-nested", "cfg = " + strings.Repeat("{'methodConfig': ", 5000) + "1" + strings.Repeat("}", 5000)},
		{"commas", fill("retry.NewStandard(", "a,", ")")},
		{"def-defaults", fill("import urllib3\n", "def f(a=1, b=2):\n    Retry(total=a)\n", "")},
		{"nested-defs", fill("import urllib3\n", "def f(a=1):\n", "")},
		{"temporal-objects", fill("import { proxyActivities } from '@temporalio/workflow'\n", "retry: {initialInterval: 1},\n", "")},
		{"envoy-routes", fill("routes:\n", "- route: {cluster: a, retry_policy: {num_retries: 1}}\n", "")},
		{"istio-routes", fill("kind: VirtualService\nspec:\n  http:\n", "  - retries: {attempts: 1}\n", "")},
		{"grpc-methods", `{"methodConfig": [` + fill("", `{"name":[{}],"retryPolicy":{"maxAttempts":2}},`, `{}`) + "]}"},
		{"spring-setters", fill("RetryTemplate t = new RetryTemplate();\nExponentialBackOffPolicy b = new ExponentialBackOffPolicy();\nt.setBackOffPolicy(b);\n", "b.setMultiplier(2);\n", "")},
		{"imports", fill("", "import a as b\n", "")},
		{"quotes", fill("", `"`, "")},
		{"backticks", fill("", "`a` + ", "``")},
		{"unicode", fill("", "é", "")},
	}
}

// maxAlloc is the most a reader may allocate on one text of up to
// MaxInput bytes, in the CLI and in the page alike.
const maxAlloc = 64 << 20

// allocs is what f allocates, in bytes (TotalAlloc counts every
// allocation, freed or not: no collection is needed first).
func allocs(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestNestedJSON: 15,000 levels of {"retryPolicy": (240 KB) took 1.38 GB
// and seconds in the resilience4j reader, whose dotted paths grew with
// the depth (10,000 levels: 628 MB); in the page 8,000 levels overflowed
// the WebAssembly stack. The JSON reader stops at MaxDepth and says so,
// in every reader, within the memory bound.
func TestNestedJSON(t *testing.T) {
	for _, levels := range []int{8000, 15000} {
		text := nestedJSON(levels)
		for _, f := range append([]string{""}, FormatNames()...) {
			var err error
			n := allocs(func() { _, err = Read(text, Options{Format: f}) })
			var re *RefusedError
			switch {
			case !configFormats[f] && f != "":
				if !isNoPolicy(err) { // a code format does not read JSON
					t.Errorf("%d levels, format %q: %v, want no policy found", levels, f, err)
				}
			case !errors.As(err, &re) || re.Syntax != "JSON" || re.Reason != RefusedDepth || re.Limit != MaxDepth ||
				!strings.Contains(err.Error(), "deeper than 200 levels"):
				t.Errorf("%d levels, format %q: %v, want the JSON refused for its depth", levels, f, err)
			}
			if n > maxAlloc {
				t.Errorf("%d levels, format %q: %d MB allocated, want at most %d", levels, f, n>>20, maxAlloc>>20)
			}
		}
	}
	// At the bound, a tree is read: 200 levels nest, 201 do not.
	if _, err := Parse(nestedJSON(MaxDepth)); !isNoPolicy(err) {
		t.Errorf("%d levels: %v, want no policy found", MaxDepth, err)
	}
	var re *RefusedError
	if _, err := Parse(nestedJSON(MaxDepth + 1)); !errors.As(err, &re) {
		t.Errorf("%d levels: %v, want refused", MaxDepth+1, err)
	}
}

// configFormats read JSON and YAML.
var configFormats = map[string]bool{"step-functions": true, "grpc": true, "istio": true, "envoy": true, "resilience4j": true}

func isNoPolicy(err error) bool {
	var np *NoPolicyError
	return errors.As(err, &np)
}

// TestRefusedYAML: a YAML alias bomb (nine levels of nine aliases: 387
// million values) and a YAML nested past MaxDepth are refused with their
// reason, not "no retry policy found".
func TestRefusedYAML(t *testing.T) {
	for name, c := range map[string]struct {
		text, reason string
		limit        int
	}{
		"alias bomb":  {hostile("yaml-alias-bomb"), RefusedValues, maxNodes},
		"flow nested": {hostile("yaml-flow-9000"), RefusedDepth, MaxDepth},
		"block":       {stairs(MaxDepth + 5), RefusedDepth, MaxDepth},
	} {
		_, err := Parse(c.text)
		var re *RefusedError
		if !errors.As(err, &re) || re.Syntax != "YAML" || re.Reason != c.reason || re.Limit != c.limit {
			t.Errorf("%s: %v, want the YAML refused (%s, %d)", name, err, c.reason, c.limit)
		}
	}
}

// stairs is a YAML block nested n levels deep.
func stairs(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

func hostile(name string) string {
	for _, h := range hostileInputs() {
		if h.name == name {
			return h.text
		}
	}
	panic(name)
}

// TestHostileInputs: every reader reads every hostile text within the
// memory bound, ending in a policy or a typed error. Each reader that
// finds a policy in the text reads it (as --as FORMAT would); the others
// have looked for one in the detection.
func TestHostileInputs(t *testing.T) {
	inputs := hostileInputs()
	if runtime.GOOS == "js" {
		// Under WebAssembly (the page's reader) the deep ones, which
		// overflowed its stack; the rest is the same code.
		inputs = slices.DeleteFunc(inputs, func(h struct{ name, text string }) bool {
			return !strings.HasPrefix(h.name, "json-nested") && !strings.HasPrefix(h.name, "yaml-") && h.name != "python-dict-nested"
		})
	}
	for _, h := range inputs {
		if len(h.text) > MaxInput {
			t.Fatalf("%s: %d bytes, more than MaxInput", h.name, len(h.text))
		}
		formats := []string{""}
		if cands, err := List(h.text, ""); err == nil {
			for _, c := range cands {
				if !slices.Contains(formats, c.Format) {
					formats = append(formats, c.Format)
				}
			}
		}
		for _, f := range formats {
			var err error
			n := allocs(func() { _, err = Read(h.text, Options{Format: f}) })
			if n > maxAlloc {
				t.Errorf("%s, format %q: %d MB allocated, want at most %d", h.name, f, n>>20, maxAlloc>>20)
			}
			if err != nil && !typedError(err) {
				t.Errorf("%s, format %q: untyped error %T: %v", h.name, f, err, err)
			}
		}
	}
}

// typedError reports whether err is one of Read's documented errors.
func typedError(err error) bool {
	var np *NoPolicyError
	var fe *backoff.FieldError
	var re *RefusedError
	var tl *TooLongError
	return errors.As(err, &np) || errors.As(err, &fe) || errors.As(err, &re) || errors.As(err, &tl)
}

// TestTooLong: a text over MaxInput is refused naming the cap and its
// own length.
func TestTooLong(t *testing.T) {
	_, err := Parse(strings.Repeat(" ", MaxInput+123))
	var tl *TooLongError
	if !errors.As(err, &tl) || tl.Len != MaxInput+123 || tl.AtLeast ||
		err.Error() != "the text is 262267 bytes: at most 262144 are read" {
		t.Errorf("%v", err)
	}
	if _, err := Parse(strings.Repeat(" ", MaxInput)); !isNoPolicy(err) {
		t.Errorf("MaxInput bytes: %v, want read", err)
	}
}

// BenchmarkHostile times every reader on each hostile text: each must
// stay well under a second (go test -bench Hostile -run '^$').
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostileInputs() {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Read(h.text, Options{})
			}
		})
	}
}
