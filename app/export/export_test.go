package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenPolicy is one of the policies every target's snippet is
// golden-tested (and, for the Go targets, run) with.
type goldenPolicy struct {
	name string
	p    backoff.Policy
}

func preset(t testing.TB, name string) backoff.Policy {
	t.Helper()
	pr, err := backoff.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	return pr.Policy
}

// goldenPolicies: the article's default, two real systems, the two
// decorrelated kinds, tenacity's additive jitter, and cenkalti's
// unlimited attempts under a 15-minute deadline.
func goldenPolicies(t testing.TB) []goldenPolicy {
	return []goldenPolicy{
		{"default", backoff.Default()},
		{"aws-standard", preset(t, "aws-standard")},
		{"grpc-retry", preset(t, "grpc-retry")},
		{"aws-blog-decorrelated", preset(t, "aws-blog-decorrelated")},
		{"polly-v2", preset(t, "polly-v2")},
		{"tenacity", preset(t, "tenacity")},
		{"cenkalti", preset(t, "cenkalti")},
	}
}

func mustTo(t testing.TB, target string, p backoff.Policy) Snippet {
	t.Helper()
	s, err := To(target, p)
	if err != nil {
		t.Fatalf("To(%s, %s): %v", target, p.Describe(), err)
	}
	return s
}

// TestGolden compares every target's snippets for the golden policies,
// with their warnings, to testdata/<target>.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tg := range Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			var b strings.Builder
			for _, gp := range goldenPolicies(t) {
				s := mustTo(t, tg.Name, gp.p)
				fmt.Fprintf(&b, "==== %s: %s\n%s---- warnings\n", gp.name, gp.p.Describe(), s.Text)
				if len(s.Warnings) == 0 {
					b.WriteString("none\n")
				}
				for _, w := range s.Warnings {
					args, _ := json.Marshal(w.Args)
					fmt.Fprintf(&b, "%s %s: %s\n", w.Code, args, w.Message)
				}
			}
			path := filepath.Join("testdata", tg.Name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./app/export/ -run TestGolden -update)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("%s differs from the output (go test ./app/export/ -run TestGolden -update rewrites it):\n%s", path, firstDiff(got, string(want)))
			}
		})
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return ""
}

func TestTargets(t *testing.T) {
	ts := Targets()
	if len(ts) != 7 {
		t.Fatalf("%d targets, want 7", len(ts))
	}
	seen := map[string]bool{}
	for i, tg := range ts {
		if tg.Name == "" || tg.Language == "" || tg.Syntax == "" || tg.Library == "" || tg.Version == "" || tg.Source == "" {
			t.Errorf("target %d has an empty field: %+v", i, tg)
		}
		if seen[tg.Name] {
			t.Errorf("target %s twice", tg.Name)
		}
		seen[tg.Name] = true
		if TargetNames()[i] != tg.Name {
			t.Errorf("TargetNames()[%d] = %s, want %s", i, TargetNames()[i], tg.Name)
		}
	}
	ts[0].Name = "changed"
	if Targets()[0].Name == "changed" {
		t.Error("Targets returns the package's own slice")
	}
}

func TestUnknownTarget(t *testing.T) {
	for _, name := range []string{"", "cenkalti", "GO-AWS", strings.Repeat("x", 100)} {
		_, err := To(name, backoff.Default())
		var fe *backoff.FieldError
		if !errors.As(err, &fe) {
			t.Fatalf("To(%q): %v, want a *backoff.FieldError", name, err)
		}
		if fe.Field != FieldTarget || fe.Code != backoff.CodeUnknown || !slices.Equal(fe.Args, TargetNames()) || len(fe.Value) > 70 {
			t.Errorf("To(%q): %+v", name, fe)
		}
		for _, n := range TargetNames() {
			if !strings.Contains(fe.Error(), n) {
				t.Errorf("To(%q): %q does not name %s", name, fe.Error(), n)
			}
		}
	}
}

func TestInvalidPolicy(t *testing.T) {
	p := backoff.Default()
	p.Cap = p.Base / 2
	_, err := To("tenacity", p)
	var fe *backoff.FieldError
	if !errors.As(err, &fe) || fe.Field != backoff.ParamCap {
		t.Errorf("To with cap below base: %v, want a FieldError on cap", err)
	}
}

// checkSnippet is what every snippet of every policy must satisfy: a
// valid Effective policy, known warning codes with messages, text in its
// syntax, and never a silent approximation: no warnings means the
// library's schedule is the policy's.
func checkSnippet(t testing.TB, s Snippet, p backoff.Policy) {
	t.Helper()
	what := s.Target.Name + " for " + p.Describe()
	if err := s.Effective.Validate(); err != nil {
		t.Fatalf("%s: Effective is invalid: %v", what, err)
	}
	if len(s.Warnings) == 0 && !sameSchedule(p, s.Effective) {
		t.Fatalf("%s: a silent approximation: no warnings, but the library runs %s", what, s.Effective.Describe())
	}
	for _, w := range s.Warnings {
		if !slices.Contains(Codes, w.Code) || w.Message == "" || strings.HasSuffix(w.Message, ".") || w.Args == nil {
			t.Fatalf("%s: bad warning %+v", what, w)
		}
	}
	if s.Text == "" || !strings.HasSuffix(s.Text, "\n") {
		t.Fatalf("%s: text %q does not end with a newline", what, s.Text)
	}
	switch s.Target.Syntax {
	case "go":
		src, err := format.Source([]byte(s.Text))
		if err != nil || string(src) != s.Text {
			t.Fatalf("%s: not gofmt'ed Go (%v):\n%s", what, err, s.Text)
		}
	case "json":
		if !json.Valid([]byte(s.Text)) {
			t.Fatalf("%s: invalid JSON:\n%s", what, s.Text)
		}
	case "yaml":
		if _, err := parseYAML(s.Text); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, s.Text)
		}
	}
	if s.Target.Syntax == "json" {
		// JSON has no comments: its "_warnings" say what the warnings
		// say, in order, and are absent when there are none.
		var doc struct {
			Warnings *[]string `json:"_warnings"`
		}
		if err := json.Unmarshal([]byte(s.Text), &doc); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var want []string
		for _, w := range s.Warnings {
			want = append(want, w.Message)
		}
		if (doc.Warnings == nil) != (want == nil) || doc.Warnings != nil && !slices.Equal(*doc.Warnings, want) {
			t.Fatalf("%s: the snippet's _warnings are %v, want %q", what, doc.Warnings, want)
		}
		return
	}
	// The comments say what the warnings say.
	flat := strings.Join(strings.Fields(strings.NewReplacer("//", " ", "#", " ").Replace(s.Text)), " ")
	for _, w := range s.Warnings {
		if !strings.Contains(flat, w.Message) {
			t.Fatalf("%s: the snippet's comments do not say %q", what, w.Message)
		}
	}
}

// TestEveryPresetEveryTarget: every preset, and the golden policies,
// exported everywhere.
func TestEveryPresetEveryTarget(t *testing.T) {
	var ps []backoff.Policy
	for _, pr := range backoff.Presets() {
		ps = append(ps, pr.Policy)
	}
	for _, gp := range goldenPolicies(t) {
		ps = append(ps, gp.p)
	}
	for _, p := range ps {
		for _, name := range TargetNames() {
			checkSnippet(t, mustTo(t, name, p), p)
		}
	}
}

// TestRandomPolicies exports seeded random valid policies everywhere.
func TestRandomPolicies(t *testing.T) {
	r := backoff.NewRand(7)
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	n := 0
	for n < 400 {
		p := backoff.Default()
		sets := [][2]string{
			{backoff.ParamGrowth, pick(backoff.GrowthNames()...)},
			{backoff.ParamJitter, pick(backoff.JitterNames()...)},
			{backoff.ParamBase, pick("0s", "1ns", "250us", "1.5ms", "100ms", "1s", "2s", "25h")},
			{backoff.ParamFactor, pick("1", "1.5", "2", "3")},
			{backoff.ParamCap, pick("0s", "30s", "1m", "48h")},
			{backoff.ParamCapMode, pick(backoff.CapModeNames()...)},
			{backoff.ParamAttempts, pick("0", "1", "2", "3", "6", "12")},
			{backoff.ParamDeadline, pick("0s", "0s", "5ms", "1m", "48h")},
			{backoff.ParamFirstExponent, pick("0", "0", "1", "3")},
			{backoff.ParamSteps, pick("0", "4")},
			{backoff.ParamJitterLo, pick("0", "0.5", "0.8")},
			{backoff.ParamJitterHi, pick("1", "1.2", "1.5")},
			{backoff.ParamJitterAdd, pick("0s", "1s")},
			{backoff.ParamOffset, pick("0s", "0s", "15s")},
			{backoff.ParamRetryAfter, pick(backoff.RetryAfterNames()...)},
			{backoff.ParamImmediateFirst, pick("false", "false", "true")},
			{backoff.ParamFirstUnjittered, pick("false", "false", "true")},
			{backoff.ParamJitterAddScaled, pick("false", "true")},
		}
		for _, kv := range sets {
			p.Set(kv[0], kv[1])
		}
		if p.Validate() != nil {
			continue
		}
		n++
		for _, name := range TargetNames() {
			checkSnippet(t, mustTo(t, name, p), p)
		}
	}
}

// TestExact: where the library can run the policy, the snippet says so
// and warns of nothing (or only of what no policy can avoid).
func TestExact(t *testing.T) {
	article := backoff.Default()
	noJitter := backoff.Default()
	noJitter.Jitter = backoff.NoJitter
	grpcAfter := preset(t, "grpc-retry")
	grpcAfter.CapMode = backoff.CapAfterJitter
	grpcAfter.Base = 100 * time.Millisecond
	for _, c := range []struct {
		target string
		p      backoff.Policy
		only   []string // warning codes allowed
	}{
		{"go-cenkalti", article, nil},
		{"go-cenkalti", preset(t, "grpc-retry"), nil},
		{"go-cenkalti", preset(t, "cenkalti"), nil},
		{"go-cenkalti", preset(t, "aws-blog-equal"), nil},
		{"go-aws", article, nil},
		{"go-aws", preset(t, "aws-standard"), []string{CodeThrottleBase}},
		{"grpc-json", preset(t, "grpc-retry"), nil},
		{"envoy-yaml", preset(t, "envoy"), []string{CodeRounding}},
		{"polly", preset(t, "polly"), nil},
		{"polly", preset(t, "polly-v2"), nil},
		{"tenacity", preset(t, "tenacity"), nil},
		{"tenacity", article, nil},
		{"tenacity", preset(t, "grpc-retry"), nil},
		{"tenacity", preset(t, "cenkalti"), nil},
		{"tenacity", preset(t, "sidekiq"), []string{CodeGrowth, CodeJitter, CodeDropped}},
		{"resilience4j", noJitter, nil},
		{"resilience4j", grpcAfter, []string{CodeRounding}},
	} {
		s := mustTo(t, c.target, c.p)
		for _, w := range s.Warnings {
			if !slices.Contains(c.only, w.Code) {
				t.Errorf("%s for %s: unexpected warning %s: %s", c.target, c.p.Describe(), w.Code, w.Message)
			}
		}
		if len(s.Warnings) == 0 && !strings.Contains(s.Text, "runs this policy exactly") && s.Target.Syntax != "json" {
			t.Errorf("%s: no warnings, and the snippet does not say it is exact:\n%s", c.target, s.Text)
		}
	}
}

// A decorrelated policy may have any factor (its jitter ignores growth);
// a library without such a jitter gets full jitter on the policy's growth,
// and a factor below 1 is no growth: the snippet grows by the default
// policy's factor instead (a valid policy, which the page can show).
func TestDecorrelatedFallbackGrows(t *testing.T) {
	p := preset(t, "aws-blog-decorrelated")
	for _, f := range []float64{0, 0.5} {
		p.Factor = f
		if err := p.Validate(); err != nil {
			t.Fatalf("factor %g: %v", f, err)
		}
		for _, target := range []string{"go-cenkalti", "tenacity", "resilience4j", "go-aws"} {
			s := mustTo(t, target, p)
			checkSnippet(t, s, p)
			if got, want := s.Effective.Factor, backoff.Default().Factor; got != want {
				t.Errorf("%s for factor %g: the snippet's factor %g, want %g", target, f, got, want)
			}
		}
	}
}

// TestApproximationsWarn: the differences the libraries are known for are
// warned of, with their codes.
func TestApproximationsWarn(t *testing.T) {
	decorrelated := preset(t, "aws-blog-decorrelated")
	unlimited := backoff.Default()
	unlimited.Attempts, unlimited.Deadline = 0, time.Minute
	capAfter := backoff.Default()
	capAfter.CapMode, capAfter.Cap = backoff.CapAfterJitter, 4*time.Second // reached at retry 3
	seven := backoff.Default()
	seven.Attempts = 7
	for _, c := range []struct {
		target string
		p      backoff.Policy
		code   string
	}{
		{"tenacity", decorrelated, CodeJitter},
		{"go-cenkalti", decorrelated, CodeJitter},
		{"resilience4j", decorrelated, CodeJitter},
		{"grpc-json", seven, CodeAttemptsCapped},
		{"grpc-json", backoff.Default(), CodeJitter},
		{"grpc-json", unlimited, CodeAttemptsUnlimited},
		{"grpc-json", unlimited, CodeDeadlineTimeout},
		{"envoy-yaml", preset(t, "grpc-retry"), CodeJitter},
		{"envoy-yaml", capAfter, CodeCapMode},
		{"envoy-yaml", preset(t, "cenkalti"), CodeFactor},
		{"go-aws", preset(t, "grpc-retry"), CodeJitter},
		{"go-aws", preset(t, "cenkalti"), CodeFactor},
		{"go-aws", unlimited, CodeDeadline},
		{"polly", backoff.Default(), CodeJitter},
		{"polly", preset(t, "cenkalti"), CodeFactor},
		{"polly", unlimited, CodeDeadlineTimeout},
		{"resilience4j", preset(t, "cenkalti"), CodeCapMode},
		{"resilience4j", backoff.Default(), CodeJitter},
		{"resilience4j", unlimited, CodeDeadline},
		{"resilience4j", unlimited, CodeAttemptsUnlimited},
		{"go-cenkalti", capAfter, CodeCapMode},
		{"go-cenkalti", preset(t, "tenacity"), CodeJitter},
		{"go-cenkalti", preset(t, "k8s-crashloop"), CodeDropped},
		{"tenacity", preset(t, "azure"), CodeGrowth},
	} {
		s := mustTo(t, c.target, c.p)
		if !slices.ContainsFunc(s.Warnings, func(w Warning) bool { return w.Code == c.code }) {
			t.Errorf("%s for %s: no %s warning in %v", c.target, c.p.Describe(), c.code, s.Warnings)
		}
	}
}

// snippetAttempts reads the number a snippet writes for the attempts,
// as its library counts them.
var snippetAttempts = map[string]*regexp.Regexp{
	"go-cenkalti":  regexp.MustCompile(`const MaxTries = (\d+)`),
	"go-aws":       regexp.MustCompile(`o\.MaxAttempts = (\d+)`),
	"grpc-json":    regexp.MustCompile(`"maxAttempts": (\d+)`),
	"envoy-yaml":   regexp.MustCompile(`num_retries: (\d+)`),
	"polly":        regexp.MustCompile(`MaxRetryAttempts = (\d+|int\.MaxValue)`),
	"tenacity":     regexp.MustCompile(`stop_after_attempt\((\d+)\)`),
	"resilience4j": regexp.MustCompile(`maxAttempts: (\d+)`),
}

// TestAttemptsAsEachLibraryCounts: 6 attempts (5 retries) are 6 for
// the libraries that count the first try and 5 for those that count
// retries; 1 attempt is no retry anywhere.
func TestAttemptsAsEachLibraryCounts(t *testing.T) {
	for _, c := range []struct {
		attempts int
		want     map[string]string // "" = the number is not written
	}{
		{6, map[string]string{"go-cenkalti": "6", "go-aws": "6", "grpc-json": "6", "envoy-yaml": "5", "polly": "5", "tenacity": "6", "resilience4j": "6"}},
		{2, map[string]string{"go-cenkalti": "2", "go-aws": "2", "grpc-json": "2", "envoy-yaml": "1", "polly": "1", "tenacity": "2", "resilience4j": "2"}},
		{1, map[string]string{"go-cenkalti": "1", "go-aws": "1", "grpc-json": "", "envoy-yaml": "0", "polly": "", "tenacity": "1", "resilience4j": "1"}},
		{0, map[string]string{"go-cenkalti": "0", "go-aws": "", "grpc-json": "5", "envoy-yaml": "4294967295", "polly": "int.MaxValue", "tenacity": "", "resilience4j": "2147483647"}},
	} {
		p := backoff.Default()
		p.Attempts = c.attempts
		for name, want := range c.want {
			s := mustTo(t, name, p)
			m := snippetAttempts[name].FindStringSubmatch(s.Text)
			got := ""
			if m != nil {
				got = m[1]
			}
			if got != want {
				t.Errorf("%s with %d attempts writes %q, want %q:\n%s", name, c.attempts, got, want, s.Text)
			}
		}
	}
	p := backoff.Default()
	p.Attempts = 0
	if s := mustTo(t, "go-aws", p); !strings.Contains(s.Text, "retry.AddWithMaxAttempts(r, 0)") {
		t.Errorf("go-aws without an attempt limit:\n%s", s.Text)
	}
	if s := mustTo(t, "tenacity", p); !strings.Contains(s.Text, "stop=stop_never") {
		t.Errorf("tenacity without an attempt limit:\n%s", s.Text)
	}
	p.Attempts = 1
	if s := mustTo(t, "polly", p); strings.Contains(s.Text, "AddRetry") {
		t.Errorf("polly with 1 attempt has a retry strategy:\n%s", s.Text)
	}
}

// parseProtoDuration reads a protobuf JSON duration ("0.1s").
func parseProtoDuration(t testing.TB, s string) time.Duration {
	t.Helper()
	sec, ok := strings.CutSuffix(s, "s")
	whole, frac, _ := strings.Cut(sec, ".")
	if !ok || len(frac) > 9 || strings.HasSuffix(frac, "0") {
		t.Fatalf("not a canonical proto duration: %q", s)
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	if err1 != nil || err2 != nil || w < 0 {
		t.Fatalf("not a proto duration: %q", s)
	}
	return time.Duration(w)*time.Second + time.Duration(f)
}

// TestGRPCFields decodes the service config strictly and checks each
// field against the schedule the snippet claims.
func TestGRPCFields(t *testing.T) {
	for _, gp := range goldenPolicies(t) {
		for _, attempts := range []int{gp.p.Attempts, 1, 2, 9} {
			p := gp.p
			p.Attempts = attempts
			s := mustTo(t, "grpc-json", p)
			e := s.Effective
			dec := json.NewDecoder(strings.NewReader(s.Text))
			dec.DisallowUnknownFields()
			var sc grpcServiceConfig
			if err := dec.Decode(&sc); err != nil {
				t.Fatalf("%s: %v\n%s", p.Describe(), err, s.Text)
			}
			if len(sc.MethodConfig) != 1 || len(sc.MethodConfig[0].Name) != 1 {
				t.Fatalf("%s: want one method config for every method:\n%s", p.Describe(), s.Text)
			}
			mc := sc.MethodConfig[0]
			if got := mc.Timeout; (e.Deadline == 0) != (got == "") || got != "" && parseProtoDuration(t, got) != e.Deadline {
				t.Errorf("%s: timeout %q, want the deadline %s", p.Describe(), got, e.Deadline)
			}
			rp := mc.RetryPolicy
			if attempts == 1 {
				if rp != nil {
					t.Errorf("1 attempt: a retryPolicy %+v", rp)
				}
				continue
			}
			wantAttempts := attempts
			if attempts == 0 {
				wantAttempts = 5
			}
			maxBackoff := e.Cap
			if maxBackoff == 0 {
				maxBackoff = maxSnippetDuration
			}
			if rp == nil || rp.MaxAttempts != wantAttempts || e.Attempts != min(wantAttempts, 5) ||
				parseProtoDuration(t, rp.InitialBackoff) != e.Base || parseProtoDuration(t, rp.MaxBackoff) != maxBackoff ||
				rp.BackoffMultiplier != e.Factor && !(e.Growth == backoff.Constant && rp.BackoffMultiplier == 1) ||
				!slices.Equal(rp.RetryableStatusCodes, []string{"UNAVAILABLE"}) {
				t.Errorf("%s: retryPolicy %+v does not match the effective %s", p.Describe(), rp, e.Describe())
			}
			if e.Jitter != backoff.Proportional || e.JitterLo != 0.8 || e.JitterHi != 1.2 || e.CapMode != backoff.CapBeforeJitter || rp.MaxAttempts <= 1 || rp.BackoffMultiplier <= 0 {
				t.Errorf("%s: effective %s is not gRPC's", p.Describe(), e.Describe())
			}
		}
	}
}

// lookup walks a parsed YAML document.
func lookup(t testing.TB, doc map[string]any, path ...string) any {
	t.Helper()
	var v any = doc
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not a mapping", strings.Join(path, "."))
		}
		v, ok = m[k]
		if !ok {
			t.Fatalf("no %s in %v", strings.Join(path, "."), doc)
		}
	}
	return v
}

func keys(t testing.TB, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v is not a mapping", v)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestEnvoyFields parses the route and checks each field against the
// schedule the snippet claims.
func TestEnvoyFields(t *testing.T) {
	for _, gp := range goldenPolicies(t) {
		for _, attempts := range []int{gp.p.Attempts, 1, 2} {
			p := gp.p
			p.Attempts = attempts
			s := mustTo(t, "envoy-yaml", p)
			e := s.Effective
			doc, err := parseYAML(s.Text)
			if err != nil {
				t.Fatal(err)
			}
			if got := keys(t, doc); !slices.Equal(got, []string{"route"}) {
				t.Fatalf("top-level keys %v", got)
			}
			// The route's timeout is written only for a deadline: left
			// out, Envoy's default 15 s stays (0s would turn it off).
			wantRoute := []string{"cluster", "retry_policy"}
			if p.Deadline > 0 {
				wantRoute = append(wantRoute, "timeout")
			}
			if got := keys(t, lookup(t, doc, "route")); !slices.Equal(got, wantRoute) {
				t.Errorf("route keys %v, want %v", got, wantRoute)
			}
			rp := lookup(t, doc, "route", "retry_policy")
			if got := keys(t, rp); !slices.Equal(got, []string{"num_retries", "retriable_status_codes", "retry_back_off", "retry_on"}) {
				t.Errorf("retry_policy keys %v", got)
			}
			if got := keys(t, lookup(t, doc, "route", "retry_policy", "retry_back_off")); !slices.Equal(got, []string{"base_interval", "max_interval"}) {
				t.Errorf("retry_back_off keys %v", got)
			}
			if p.Deadline > 0 {
				if got := lookup(t, doc, "route", "timeout"); got != protoDuration(p.Deadline) || e.Deadline != p.Deadline {
					t.Errorf("timeout %v, effective deadline %s, want %s", got, e.Deadline, p.Deadline)
				}
			} else {
				// The default 15 s ends the run where the worst case is
				// longer: the effective schedule says so, with a warning.
				tab, _ := backoff.NewTable(p, backoff.NewRand(1))
				past := p.Attempts == 0 || tab.Total.Max > 15
				warned := slices.ContainsFunc(s.Warnings, func(w Warning) bool { return w.Code == CodeRouteTimeout })
				if past != warned || past != (e.Deadline == 15*time.Second) || !past && e.Deadline != 0 {
					t.Errorf("worst %g s: route-timeout warning %v, effective deadline %s", tab.Total.Max, warned, e.Deadline)
				}
			}
			wantRetries := strconv.Itoa(attempts - 1)
			if attempts == 0 {
				wantRetries = "4294967295"
			}
			if got := lookup(t, doc, "route", "retry_policy", "num_retries"); got != wantRetries || e.Attempts != attempts {
				t.Errorf("num_retries %v, effective attempts %d; want %s for %d attempts", got, e.Attempts, wantRetries, attempts)
			}
			base := parseProtoDuration(t, lookup(t, doc, "route", "retry_policy", "retry_back_off", "base_interval").(string))
			maxI := parseProtoDuration(t, lookup(t, doc, "route", "retry_policy", "retry_back_off", "max_interval").(string))
			wantMax := e.Cap
			if wantMax == 0 {
				wantMax = maxSnippetDuration
			}
			if base != e.Base || maxI != wantMax || base < time.Millisecond || base%time.Millisecond != 0 || maxI < base {
				t.Errorf("retry_back_off %s..%s, effective %s", base, maxI, e.Describe())
			}
			var codes []string
			for _, c := range backoff.DefaultRules().Retryable {
				codes = append(codes, strconv.Itoa(c))
			}
			got := lookup(t, doc, "route", "retry_policy", "retriable_status_codes").([]any)
			if fmt.Sprint(got) != fmt.Sprint(codes) || !strings.Contains(lookup(t, doc, "route", "retry_policy", "retry_on").(string), "retriable-status-codes") {
				t.Errorf("retriable_status_codes %v, want %v", got, codes)
			}
			if e.Jitter != backoff.Full || e.Factor != 2 || e.Growth != backoff.Exponential {
				t.Errorf("effective %s is not Envoy's", e.Describe())
			}
		}
	}
}

// The simulator's grpc budget is the service config's retryThrottling,
// numbers as given; without it there is none, and out of gRPC's ranges
// it is refused by field.
func TestGRPCRetryThrottling(t *testing.T) {
	for _, c := range []struct {
		th      Throttling
		want    string // the retryThrottling object, "" for none
		errPart string
	}{
		{Throttling{}, "", ""},
		{Throttling{MaxTokens: 10, TokenRatio: 0.1}, `{"maxTokens":10,"tokenRatio":0.1}`, ""},
		{Throttling{MaxTokens: 1000, TokenRatio: 2.5}, `{"maxTokens":1000,"tokenRatio":2.5}`, ""},
		{Throttling{MaxTokens: 1001, TokenRatio: 1}, "", "budget"},
		{Throttling{MaxTokens: 10}, "", "budget"},
	} {
		s, err := ToWith("grpc-json", backoff.Default(), Options{Throttling: c.th})
		if c.errPart != "" {
			var fe *backoff.FieldError
			if !errors.As(err, &fe) || fe.Field != c.errPart {
				t.Errorf("%+v: %v, want an error naming %s", c.th, err, c.errPart)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			RetryThrottling json.RawMessage `json:"retryThrottling"`
		}
		if err := json.Unmarshal([]byte(s.Text), &sc); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if len(sc.RetryThrottling) > 0 {
			json.Compact(&compact, sc.RetryThrottling)
		}
		if compact.String() != c.want {
			t.Errorf("%+v: retryThrottling %s, want %s", c.th, compact.String(), c.want)
		}
	}
}

// The simulator's try timeout is Envoy's per_try_timeout, and Envoy
// retries a try that timeout ends only under gateway-error (or 5xx).
func TestEnvoyPerTryTimeout(t *testing.T) {
	p := backoff.Default()
	p.Deadline = time.Minute
	for _, c := range []struct {
		timeout time.Duration
		want    string // per_try_timeout, "" for none
	}{{0, ""}, {time.Second, "1s"}, {250 * time.Millisecond, "0.25s"}} {
		s, err := ToWith("envoy-yaml", p, Options{TryTimeout: c.timeout})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseYAML(s.Text)
		if err != nil {
			t.Fatal(err)
		}
		rp := lookup(t, doc, "route", "retry_policy").(map[string]any)
		got, _ := rp["per_try_timeout"].(string)
		on := strings.Split(rp["retry_on"].(string), ",")
		if got != c.want || slices.Contains(on, "gateway-error") != (c.want != "") {
			t.Errorf("timeout %s: per_try_timeout %q, retry_on %v; want %q and gateway-error with it", c.timeout, got, on, c.want)
		}
		if lookup(t, doc, "route", "timeout") != "60s" {
			t.Errorf("route timeout %v, want the deadline's 60s", lookup(t, doc, "route", "timeout"))
		}
	}
}

// parseSpring reads a Spring Boot duration ("500ms", "2s").
func parseSpring(t testing.TB, s string) time.Duration {
	t.Helper()
	m := regexp.MustCompile(`^(\d+)(ns|us|ms|s|m|h|d)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("not a Spring duration: %q", s)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	unit := map[string]time.Duration{"ns": 1, "us": time.Microsecond, "ms": time.Millisecond, "s": time.Second,
		"m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[m[2]]
	return time.Duration(n) * unit
}

// TestResilience4jFields parses the YAML and checks each property against
// the schedule the snippet claims.
func TestResilience4jFields(t *testing.T) {
	for _, gp := range goldenPolicies(t) {
		s := mustTo(t, "resilience4j", gp.p)
		e := s.Effective
		doc, err := parseYAML(s.Text)
		if err != nil {
			t.Fatal(err)
		}
		inst := lookup(t, doc, "resilience4j", "retry", "instances", "backend").(map[string]any)
		allowed := []string{"enableExponentialBackoff", "enableRandomizedWait", "exponentialBackoffMultiplier",
			"exponentialMaxWaitDuration", "maxAttempts", "randomizedWaitFactor", "waitDuration"}
		for _, k := range keys(t, inst) {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s: unknown property %s", gp.name, k)
			}
		}
		wantAttempts := strconv.Itoa(e.Attempts)
		if e.Attempts == 0 {
			wantAttempts = strconv.Itoa(math.MaxInt32)
		}
		if inst["maxAttempts"] != wantAttempts {
			t.Errorf("%s: maxAttempts %v, want %s", gp.name, inst["maxAttempts"], wantAttempts)
		}
		lo, hi, ok := e.Span()
		if !ok {
			t.Fatalf("%s: effective jitter %s is not a span", gp.name, e.Jitter)
		}
		c := (lo + hi) / 2
		wait := parseSpring(t, inst["waitDuration"].(string))
		if want := scale(e.Base, c).Truncate(time.Millisecond); wait != max(want, time.Millisecond) {
			t.Errorf("%s: waitDuration %s, want %s", gp.name, wait, want)
		}
		if (inst["enableRandomizedWait"] == "true") != (hi > lo) {
			t.Errorf("%s: enableRandomizedWait %v for %s", gp.name, inst["enableRandomizedWait"], e.JitterFormula())
		}
		if hi > lo {
			f, err := strconv.ParseFloat(inst["randomizedWaitFactor"].(string), 64)
			if err != nil || f < 0 || f >= 1 || math.Abs(c*(1-f)-lo) > 1e-12 || math.Abs(c*(1+f)-hi) > 1e-12 {
				t.Errorf("%s: randomizedWaitFactor %v around %g is not %s", gp.name, inst["randomizedWaitFactor"], c, e.JitterFormula())
			}
		}
		if e.Growth == backoff.Exponential || e.Cap > 0 {
			m, _ := strconv.ParseFloat(inst["exponentialBackoffMultiplier"].(string), 64)
			if inst["enableExponentialBackoff"] != "true" || m != e.Factor && !(e.Growth == backoff.Constant && m == 1) {
				t.Errorf("%s: exponential %v x%v, effective %s", gp.name, inst["enableExponentialBackoff"], inst["exponentialBackoffMultiplier"], e.Describe())
			}
		}
		if e.Cap > 0 {
			if got := parseSpring(t, inst["exponentialMaxWaitDuration"].(string)); got != e.Cap.Truncate(time.Millisecond) || e.CapMode != backoff.CapAfterJitter {
				t.Errorf("%s: exponentialMaxWaitDuration %s, effective %s", gp.name, got, e.Describe())
			}
		} else if _, has := inst["exponentialMaxWaitDuration"]; has {
			t.Errorf("%s: a max wait without a cap", gp.name)
		}
		if e.Deadline != 0 {
			t.Errorf("%s: resilience4j has no deadline, but the effective policy has %s", gp.name, e.Deadline)
		}
	}
}

// pyNumber reads a Python number of seconds as a duration.
func pyNumber(t testing.TB, s string) time.Duration {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return backoff.Seconds(f)
}

// TestTenacityNumbers checks the key numbers of the Python snippets.
func TestTenacityNumbers(t *testing.T) {
	call := regexp.MustCompile(`(wait_\w+)\(([^)]*)\)`)
	for _, gp := range goldenPolicies(t) {
		s := mustTo(t, "tenacity", gp.p)
		e := s.Effective
		if e.Attempts > 0 != strings.Contains(s.Text, fmt.Sprintf("stop_after_attempt(%d)", e.Attempts)) {
			t.Errorf("%s: stop_after_attempt for %d attempts:\n%s", gp.name, e.Attempts, s.Text)
		}
		if e.Deadline > 0 != strings.Contains(s.Text, "stop_before_delay("+pySeconds(e.Deadline)+")") {
			t.Errorf("%s: stop_before_delay for deadline %s:\n%s", gp.name, e.Deadline, s.Text)
		}
		waits := map[string]map[string]string{}
		for _, m := range call.FindAllStringSubmatch(s.Text, -1) {
			args := map[string]string{}
			for i, a := range strings.Split(m[2], ", ") {
				k, v, ok := strings.Cut(a, "=")
				if !ok {
					k, v = strconv.Itoa(i), a
				}
				args[k] = v
			}
			waits[m[1]] = args
		}
		lo, hi, isSpan := e.Span()
		switch {
		case e.Jitter == backoff.Additive && (e.Cap == 0 || e.CapMode == backoff.CapAfterJitter):
			w := waits["wait_exponential_jitter"]
			if pyNumber(t, w["initial"]) != e.Base || pyNumber(t, w["jitter"]) != e.JitterAdd || w["exp_base"] != pyFloat(e.Factor) {
				t.Errorf("%s: wait_exponential_jitter %v for %s", gp.name, w, e.Describe())
			}
		case isSpan && e.Growth == backoff.Exponential:
			if lo > 0 {
				w := waits["wait_exponential"]
				if pyNumber(t, w["multiplier"]) != scale(e.Base, lo) || w["exp_base"] != pyFloat(e.Factor) ||
					e.Cap > 0 && pyNumber(t, w["max"]) != scale(e.Cap, lo) {
					t.Errorf("%s: wait_exponential %v for %s", gp.name, w, e.Describe())
				}
			}
			if hi > lo {
				w := waits["wait_random_exponential"]
				if pyNumber(t, w["multiplier"]) != scale(e.Base, hi-lo) || w["exp_base"] != pyFloat(e.Factor) ||
					e.Cap > 0 && pyNumber(t, w["max"]) != scale(e.Cap, hi-lo) {
					t.Errorf("%s: wait_random_exponential %v for %s", gp.name, w, e.Describe())
				}
			}
		default:
			t.Errorf("%s: untested shape %s", gp.name, e.Describe())
		}
	}
}

// TestPollyNumbers checks the key numbers of the C# snippets.
func TestPollyNumbers(t *testing.T) {
	field := func(text, name string) string {
		m := regexp.MustCompile(name + ` = ([^,]+),`).FindStringSubmatch(text)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, gp := range goldenPolicies(t) {
		s := mustTo(t, "polly", gp.p)
		e := s.Effective
		retries := strconv.Itoa(e.Attempts - 1)
		if e.Attempts == 0 {
			retries = "int.MaxValue"
		}
		if got := field(s.Text, "MaxRetryAttempts"); got != retries {
			t.Errorf("%s: MaxRetryAttempts %s, want %s", gp.name, got, retries)
		}
		if got := field(s.Text, "Delay"); got != csTimeSpan(e.Base) {
			t.Errorf("%s: Delay %s, want %s", gp.name, got, csTimeSpan(e.Base))
		}
		if got := field(s.Text, "MaxDelay"); (e.Cap > 0) != (got != "") || e.Cap > 0 && got != csTimeSpan(e.Cap) {
			t.Errorf("%s: MaxDelay %q for cap %s", gp.name, got, e.Cap)
		}
		if got := field(s.Text, "UseJitter"); got != strconv.FormatBool(e.Jitter != backoff.NoJitter) {
			t.Errorf("%s: UseJitter %s for %s", gp.name, got, e.Jitter)
		}
		wantType := map[backoff.Growth]string{backoff.Exponential: "DelayBackoffType.Exponential",
			backoff.Constant: "DelayBackoffType.Constant", backoff.Linear: "DelayBackoffType.Linear"}[e.Growth]
		if e.Jitter == backoff.DecorrelatedV2 {
			wantType = "DelayBackoffType.Exponential"
		}
		if got := field(s.Text, "BackoffType"); got != wantType {
			t.Errorf("%s: BackoffType %s, want %s", gp.name, got, wantType)
		}
		if e.Deadline > 0 != strings.Contains(s.Text, ".AddTimeout("+csTimeSpan(e.Deadline)+")") {
			t.Errorf("%s: AddTimeout for deadline %s:\n%s", gp.name, e.Deadline, s.Text)
		}
		if e.CapMode != backoff.CapAfterJitter && e.Cap > 0 && !e.Jitter.HistoryDependent() {
			t.Errorf("%s: Polly clamps after jitter, effective %s", gp.name, e.Describe())
		}
	}
}

func TestDurationWriters(t *testing.T) {
	for _, c := range []struct {
		d                          time.Duration
		goD, proto, cs, spring, py string
	}{
		{0, "0", "0s", "TimeSpan.Zero", "0ms", "0"},
		{time.Nanosecond, "time.Nanosecond", "0.000000001s", "TimeSpan.FromTicks(0)", "1ns", "1e-09"},
		{1500 * time.Microsecond, "1500 * time.Microsecond", "0.0015s", "TimeSpan.FromTicks(15000)", "1500us", "0.0015"},
		{100 * time.Millisecond, "100 * time.Millisecond", "0.1s", "TimeSpan.FromMilliseconds(100)", "100ms", "0.1"},
		{90 * time.Second, "90 * time.Second", "90s", "TimeSpan.FromSeconds(90)", "90s", "90"},
		{2 * time.Hour, "2 * time.Hour", "7200s", "TimeSpan.FromHours(2)", "2h", "7200"},
	} {
		if got := goDuration(c.d); got != c.goD {
			t.Errorf("goDuration(%s) = %s, want %s", c.d, got, c.goD)
		}
		if got := protoDuration(c.d); got != c.proto {
			t.Errorf("protoDuration(%s) = %s, want %s", c.d, got, c.proto)
		}
		if got := csTimeSpan(c.d); got != c.cs {
			t.Errorf("csTimeSpan(%s) = %s, want %s", c.d, got, c.cs)
		}
		if got := springDuration(c.d); got != c.spring {
			t.Errorf("springDuration(%s) = %s, want %s", c.d, got, c.spring)
		}
		if got := pySeconds(c.d); got != c.py {
			t.Errorf("pySeconds(%s) = %s, want %s", c.d, got, c.py)
		}
	}
}

// FuzzTo exports policies built from arbitrary parameter values: every
// valid one gives every target a snippet that passes checkSnippet.
func FuzzTo(f *testing.F) {
	f.Add("exponential", "decorrelated", "1s", "2", "30s", "after", "6", "0s", "0")
	f.Add("geometric", "none", "100ms", "1", "10s", "before", "5", "0s", "4")
	f.Add("linear", "proportional", "1.5ms", "3", "0s", "exact", "0", "1m", "0")
	f.Add("polynomial", "additive", "1s", "4", "0s", "before", "26", "48h", "0")
	f.Add("exp-minus-one", "equal", "800ms", "2", "1m", "after", "1", "0s", "0")
	f.Fuzz(func(t *testing.T, growth, jitter, base, factor, cap, capMode, attempts, deadline, steps string) {
		p := backoff.Default()
		for _, kv := range [][2]string{{backoff.ParamGrowth, growth}, {backoff.ParamJitter, jitter}, {backoff.ParamBase, base},
			{backoff.ParamFactor, factor}, {backoff.ParamCap, cap}, {backoff.ParamCapMode, capMode},
			{backoff.ParamAttempts, attempts}, {backoff.ParamDeadline, deadline}, {backoff.ParamSteps, steps}} {
			p.Set(kv[0], kv[1])
		}
		if p.Validate() != nil {
			return
		}
		if p.Attempts == 0 || p.Attempts > 40 {
			p.Attempts = 40 // keep each table quick
		}
		for _, name := range TargetNames() {
			s, err := To(name, p)
			if err != nil {
				t.Fatalf("To(%s, %s): %v", name, p.Describe(), err)
			}
			checkSnippet(t, s, p)
		}
	})
}

// TestWarningJSON: a warning marshals as the CLI and the page read it.
func TestWarningJSON(t *testing.T) {
	b, _ := json.Marshal(Warning{Code: CodeRounding, Args: []string{"1ms"}, Message: "M"})
	if !bytes.Equal(b, []byte(`{"code":"rounding","args":["1ms"],"message":"M"}`)) {
		t.Errorf("Warning JSON = %s", b)
	}
}

// TestPythonParses parses the tenacity snippets with Python's own parser
// where python3 is installed (the key numbers above are checked
// everywhere).
func TestPythonParses(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the Python snippets are checked by their golden files and key numbers only")
	}
	for _, gp := range goldenPolicies(t) {
		cmd := exec.Command(py, "-c", "import ast, sys; ast.parse(sys.stdin.read())")
		cmd.Stdin = strings.NewReader(mustTo(t, "tenacity", gp.p).Text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: the tenacity snippet is not Python: %v\n%s", gp.name, err, out)
		}
	}
}
