package importer

import (
	"errors"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// fuzzLimit bounds a fuzzed text: the readers are linear in their input
// (the tokenizer, the parsers) or bounded (maxNodes, maxEvalDepth), and
// a short text reaches every path.
const fuzzLimit = 16 << 10

// FuzzImport: any text is read without a panic, in bounded time, and
// either refused with a typed error or read into a valid policy whose
// format is one of the names, with warnings that have a code and a
// message.
func FuzzImport(f *testing.F) {
	for _, c := range formatCases {
		f.Add(c.text)
	}
	for _, s := range []string{"", "{", "[[[[", "@retry", "retry(", "`", `"""`, "a: &x [*x, *x]\nb: *x",
		"methodConfig", "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 1e400}}]}", "x = x\n@retry(stop=stop_after_attempt(x))",
		"@RetryPolicy", "@RetryOptions.newBuilder"} { // a bare decorator names a call with no brackets
		f.Add(s)
	}
	// Inputs that once took seconds (every string joined with every later
	// one): a hang shows as a slow seed.
	f.Add(strings.Repeat(`"methodConfig" `, 1000))
	f.Add("{" + strings.Repeat(`"methodConfig": {`, 1000))
	f.Add(strings.Repeat("a = ", 4000))
	f.Add("@retry(stop=" + strings.Repeat("(", 5000) + strings.Repeat(")", 5000) + ")")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > fuzzLimit {
			return
		}
		res, err := Parse(text)
		if err != nil {
			var np *NoPolicyError
			var fe *backoff.FieldError
			if !errors.As(err, &np) && !errors.As(err, &fe) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		if err := res.Policy.Validate(); err != nil {
			t.Fatalf("invalid policy %+v: %v", res.Policy, err)
		}
		known := false
		for _, n := range FormatNames() {
			known = known || n == res.Format
		}
		if !known {
			t.Fatalf("format %q", res.Format)
		}
		for _, w := range res.Warnings {
			if w.Code == "" || w.Message == "" {
				t.Fatalf("warning %+v", w)
			}
		}
	})
}
