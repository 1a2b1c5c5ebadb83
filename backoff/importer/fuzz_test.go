package importer

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzLimit bounds a fuzzed text: the readers are linear in their input
// (the tokenizer, the parsers) or bounded (maxNodes, maxEvalDepth), and
// a short text reaches every path; TestHostileInputs reads texts of
// MaxInput bytes.
const fuzzLimit = 16 << 10

// fuzzSeeds are the texts every fuzz target starts from: the format
// cases, the corpus, short inputs that once failed, and the hostile texts
// cut to 4 KB.
func fuzzSeeds(f *testing.F) {
	for _, c := range formatCases {
		f.Add(c.text)
	}
	for _, s := range []string{"", "{", "[[[[", "@retry", "retry(", "`", `"""`, "a: &x [*x, *x]\nb: *x",
		"methodConfig", "{\"methodConfig\": [{\"retryPolicy\": {\"maxAttempts\": 1e400}}]}", "x = x\n@retry(stop=stop_after_attempt(x))",
		"@RetryPolicy", "@RetryOptions.newBuilder", // a bare decorator names a call with no brackets
		"@RetryStrategyOptions", // Polly's options with no brackets to read
		"def f(a=a):\n  Retry(total=a)", "c.RetryMax = c.RetryMax\nretryablehttp.NewClient()", "import static x.*;\nofSeconds(1)"} {
		f.Add(s)
	}
	// Inputs that once took seconds (every string joined with every later
	// one): a hang shows as a slow seed.
	f.Add(strings.Repeat(`"methodConfig" `, 1000))
	f.Add("{" + strings.Repeat(`"methodConfig": {`, 1000))
	f.Add(strings.Repeat("a = ", 4000))
	f.Add("@retry(stop=" + strings.Repeat("(", 5000) + strings.Repeat(")", 5000) + ")")
	for _, h := range hostileInputs() {
		f.Add(h.text[:min(len(h.text), 4<<10)])
	}
}

// fuzzRead reads text as format (all formats for ""): no panic, a typed
// error or a valid policy in that format with worded warnings and
// candidates, and at most maxAlloc bytes allocated.
func fuzzRead(t *testing.T, format, text string) {
	if len(text) > fuzzLimit {
		return
	}
	var res *Result
	var err error
	if n := allocs(func() { res, err = Read(text, Options{Format: format}) }); n > maxAlloc {
		t.Fatalf("%d MB allocated on %d bytes", n>>20, len(text))
	}
	if err != nil {
		if !typedError(err) {
			t.Fatalf("untyped error %T: %v", err, err)
		}
		return
	}
	if err := res.Policy.Validate(); err != nil {
		t.Fatalf("invalid policy %+v: %v", res.Policy, err)
	}
	if !slices.Contains(FormatNames(), res.Format) || format != "" && res.Format != format {
		t.Fatalf("format %q", res.Format)
	}
	if len(res.Candidates) == 0 || res.Pick != 0 || res.Candidates[0].Format != res.Format {
		t.Fatalf("candidates %+v, pick %d", res.Candidates, res.Pick)
	}
	for _, w := range res.Warnings {
		if w.Code == "" || w.Message == "" || !slices.Contains(Codes, w.Code) {
			t.Fatalf("warning %+v", w)
		}
	}
	// Every candidate listed can be picked, by number.
	if len(res.Candidates) > 1 {
		last := strconv.Itoa(len(res.Candidates))
		if r2, err := Read(text, Options{Format: format, Pick: last}); err == nil && r2.Pick != len(res.Candidates)-1 {
			t.Fatalf("pick %s read %d", last, r2.Pick)
		} else if err != nil && !typedError(err) {
			t.Fatalf("pick %s: untyped error %T: %v", last, err, err)
		}
	}
}

// FuzzImport: any text is read without a panic, within the memory bound,
// and either refused with a typed error or read into a valid policy.
func FuzzImport(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string) { fuzzRead(t, "", text) })
}

// One target per reader: the text read as that format (--as).
func FuzzReadTenacity(f *testing.F)      { fuzzSeeds(f); f.Fuzz(readAs("tenacity")) }
func FuzzReadURLLib3(f *testing.F)       { fuzzSeeds(f); f.Fuzz(readAs("urllib3")) }
func FuzzReadGRPC(f *testing.F)          { fuzzSeeds(f); f.Fuzz(readAs("grpc")) }
func FuzzReadEnvoy(f *testing.F)         { fuzzSeeds(f); f.Fuzz(readAs("envoy")) }
func FuzzReadIstio(f *testing.F)         { fuzzSeeds(f); f.Fuzz(readAs("istio")) }
func FuzzReadPolly(f *testing.F)         { fuzzSeeds(f); f.Fuzz(readAs("polly")) }
func FuzzReadResilience4j(f *testing.F)  { fuzzSeeds(f); f.Fuzz(readAs("resilience4j")) }
func FuzzReadSpringRetry(f *testing.F)   { fuzzSeeds(f); f.Fuzz(readAs("spring-retry")) }
func FuzzReadCenkalti(f *testing.F)      { fuzzSeeds(f); f.Fuzz(readAs("cenkalti")) }
func FuzzReadAWS(f *testing.F)           { fuzzSeeds(f); f.Fuzz(readAs("aws-sdk-go-v2")) }
func FuzzReadTemporal(f *testing.F)      { fuzzSeeds(f); f.Fuzz(readAs("temporal")) }
func FuzzReadStepFunctions(f *testing.F) { fuzzSeeds(f); f.Fuzz(readAs("step-functions")) }
func FuzzReadRetryablehttp(f *testing.F) { fuzzSeeds(f); f.Fuzz(readAs("retryablehttp")) }
func FuzzReadCelery(f *testing.F)        { fuzzSeeds(f); f.Fuzz(readAs("celery")) }

func readAs(format string) func(*testing.T, string) {
	return func(t *testing.T, text string) { fuzzRead(t, format, text) }
}

// TestFuzzTargets: every format has its fuzz target (a format added
// without one fails here).
func TestFuzzTargets(t *testing.T) {
	have := map[string]bool{"tenacity": true, "urllib3": true, "grpc": true, "envoy": true, "istio": true, "polly": true,
		"resilience4j": true, "spring-retry": true, "cenkalti": true, "aws-sdk-go-v2": true, "temporal": true,
		"step-functions": true, "retryablehttp": true, "celery": true}
	for _, n := range FormatNames() {
		if !have[n] {
			t.Errorf("format %s has no FuzzRead target", n)
		}
	}
}
