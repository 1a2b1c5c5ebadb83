// Package export writes a backoff.Policy as a ready snippet for a real retry
// library: Go (cenkalti/backoff v5, the AWS SDK for Go v2), a gRPC service
// config, an Envoy route, Polly v8 (C#), tenacity (Python) and resilience4j
// (Spring Boot YAML).
//
// Each library draws its own schedule, and most cannot draw every policy:
// gRPC and Envoy have a fixed jitter, the AWS SDK a fixed factor, tenacity
// no decorrelated jitter. A snippet is never a silent approximation: what
// the library cannot express is a Warning (a code with arguments, for a
// page that words it in its own language, and an English message), the
// snippet says the same in comments (gRPC's JSON, which has none, in a
// "_warnings" list gRPC ignores), and Effective is the schedule the
// snippet really runs, as a playground policy whose table can be drawn
// beside the original.
//
// Attempts are counted as each library counts them: the playground's
// Attempts include the first try (6 = 5 retries), as do gRPC's
// maxAttempts, the AWS SDK's MaxAttempts, cenkalti's WithMaxTries,
// tenacity's stop_after_attempt and resilience4j's maxAttempts; Polly's
// MaxRetryAttempts and Envoy's num_retries count retries only (5).
//
// The package is pure: it imports only the standard library, backoff and
// sim (for SimOptions), so the CLI, the server and the page share it.
package export

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Target is a library a policy can be exported to.
type Target struct {
	// Name is the CLI's --to value and the page's key: "go-cenkalti".
	Name string
	// Language of the snippet: Go, JSON, YAML, C#, Python.
	Language string
	// Syntax names the snippet's syntax for a highlighter: go, json,
	// yaml, csharp, python.
	Syntax string
	// Library is the library or configuration format.
	Library string
	// Version is the version whose source the snippet was written from
	// and, for the Go targets, tested against.
	Version string
	// Source says where the formula was read.
	Source string
}

// Snippet is a policy written for one target.
type Snippet struct {
	Target Target
	// Text is the snippet, ending in a newline: a whole Go file for the
	// Go targets, a JSON or YAML document, a C# class, a Python module.
	Text string
	// Warnings list what the library cannot express, in the order the
	// snippet's comments give them; none when the snippet is exact.
	Warnings []Warning
	// Effective is the schedule the snippet runs, as a playground
	// policy: its table is the original's when Warnings is empty.
	// Differences a Policy cannot show (whole milliseconds, a timeout that
	// also cancels a try in flight) are only in Warnings.
	Effective backoff.Policy
}

// Warning is something the target cannot express. Code and Args say it
// as data, for a page that words it in any language; Message says it in
// English, as the CLI prints it.
//
// Args hold canonical text: durations as backoff.FormatDuration, numbers
// as strconv.FormatFloat(x, 'g', -1, 64), names as they are, and jitter
// as a formula over the capped nominal delay d: "d", "U[0,d)",
// "d/2+U[0,d/2)", "d*U[0.8,1.2)" (bounds to 10 significant digits),
// "d+U[0,1s)", "decorrelated", "decorrelated-v2".
type Warning struct {
	Code    string   `json:"code"`
	Args    []string `json:"args"`
	Message string   `json:"message"`
}

// Warning codes. Each code's comment says what its Args hold.
const (
	// CodeGrowth: the library has no such growth; the snippet grows
	// exponentially through the policy's first two non-zero delays.
	// Args: the policy's growth, the first delay written, the factor.
	CodeGrowth = "growth"
	// CodeFactor: the library's growth factor is fixed. Args: the
	// policy's factor, the library's.
	CodeFactor = "factor"
	// CodeJitter: the library cannot draw this jitter. Args: the
	// policy's jitter, the jitter the snippet runs (formulas).
	CodeJitter = "jitter"
	// CodeCapMode: the library caps elsewhere. Args: the policy's cap
	// mode, the library's (before, after, exact).
	CodeCapMode = "cap-mode"
	// CodeNoCap: the library needs a cap; no cap is written as a very
	// long one. Args: the value written.
	CodeNoCap = "no-cap"
	// CodeRange: a value outside the library's range was moved into it.
	// Args: the playground's field (backoff.Param*), the value, the
	// library's least and greatest value, the value written.
	CodeRange = "range"
	// CodeRounding: the library keeps durations in whole units, so
	// delays may differ by up to one unit. Args: the unit.
	CodeRounding = "rounding"
	// CodeAttemptsCapped: the library honours at most Args[1] attempts
	// unless raised elsewhere (gRPC's channel limit). Args: the
	// policy's attempts, the library's limit.
	CodeAttemptsCapped = "attempts-capped"
	// CodeAttemptsUnlimited: the library has no unlimited attempts.
	// Args: the attempts written (the first try included).
	CodeAttemptsUnlimited = "attempts-unlimited"
	// CodeDeadline: the library has no overall deadline; the caller's
	// context or timeout must bound the run. Args: the deadline.
	CodeDeadline = "deadline"
	// CodeDeadlineTimeout: the deadline is written as the library's
	// overall timeout, which also cancels a try in flight (the
	// playground's deadline only stops new retries). Args: the deadline.
	CodeDeadlineTimeout = "deadline-timeout"
	// CodeDropped: a policy field the library cannot express is left
	// out. Args: the field (backoff.Param*), its value.
	CodeDropped = "dropped"
	// CodeRetryAfter: the library treats a server's Retry-After
	// differently. Args: the policy's mode, the library's
	// (backoff.RetryAfterNames).
	CodeRetryAfter = "retry-after"
	// CodeThrottleBase: the library backs off from another base after a
	// throttling error. Args: that base.
	CodeThrottleBase = "throttle-base"
	// CodeRetryQuota: the library's retry quota may end a long run of
	// retries first. Args: the quota's tokens, a retry's cost.
	CodeRetryQuota = "retry-quota"
	// CodeRouteTimeout: the library's default overall timeout, kept
	// because the policy sets no deadline, ends the run before the
	// policy's worst case. Args: the timeout, the policy's worst total
	// wait.
	CodeRouteTimeout = "route-timeout"
)

// Codes lists every Warning code, for a page's message catalog.
var Codes = []string{
	CodeGrowth, CodeFactor, CodeJitter, CodeCapMode, CodeNoCap, CodeRange, CodeRounding,
	CodeAttemptsCapped, CodeAttemptsUnlimited, CodeDeadline, CodeDeadlineTimeout,
	CodeDropped, CodeRetryAfter, CodeThrottleBase, CodeRetryQuota, CodeRouteTimeout,
}

// target is a Target with its writer. write fills j.eff and j.warnings as
// it fits the policy to the library, and returns the text. short names the
// library in messages.
type target struct {
	Target
	short string
	write func(j *job) string
	rank  int
}

// targets are the registered targets, in display order: each target's
// file registers it (register), with its rank in the order.
var targets []target

// register adds a target from its file's init: its rank places it in the
// display order (the default target, rank 0, first). It panics on a name
// or a rank already taken: registering twice is a programming error,
// found as the package initialises.
func register(rank int, t target) {
	for _, o := range targets {
		if o.Name == t.Name || o.rank == rank {
			panic("export: target " + t.Name + " registered twice, or its rank is taken")
		}
	}
	t.rank = rank
	i, _ := slices.BinarySearchFunc(targets, rank, func(o target, r int) int { return o.rank - r })
	targets = slices.Insert(targets, i, t)
}

// Targets returns every target in display order. The slice is a copy.
func Targets() []Target {
	ts := make([]Target, len(targets))
	for i, t := range targets {
		ts[i] = t.Target
	}
	return ts
}

// TargetNames lists the targets' names in display order.
func TargetNames() []string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name
	}
	return names
}

// FieldTarget is the field an unknown target's error names: the CLI's
// flag (--to) and the page's parameter.
const FieldTarget = "to"

// Options are what a snippet takes from a simulation besides the policy,
// as plain values (the package does not import the simulator). The zero
// value asks for nothing more.
type Options struct {
	// TryTimeout is how long a caller waits for one try before it gives
	// that try up and retries (the simulator's timeout); 0 means none.
	// Envoy writes it as per_try_timeout.
	TryTimeout time.Duration
	// Throttling is gRPC's retryThrottling (the simulator's grpc budget)
	// when MaxTokens is above 0; the gRPC service config writes it.
	Throttling Throttling
}

// validate checks o against what the libraries accept: a try timeout of
// 0 or more, and gRPC's ranges for a throttling (maxTokens in (0, 1000],
// tokenRatio in (0, 1000]). A bad value is a *backoff.FieldError naming
// the simulator's field (timeout, budget).
func (o Options) validate() error {
	if err := backoff.CheckDuration("timeout", o.TryTimeout, 0, maxSnippetDuration); err != nil {
		return err
	}
	th := o.Throttling
	if th.MaxTokens == 0 && th.TokenRatio == 0 {
		return nil
	}
	if err := backoff.CheckFloat("budget", th.MaxTokens, math.SmallestNonzeroFloat64, 1000); err != nil {
		return err
	}
	return backoff.CheckFloat("budget", th.TokenRatio, math.SmallestNonzeroFloat64, 1000)
}

// Throttling is gRPC's retryThrottling (gRFC A6): a token count that
// starts at MaxTokens, falls by 1 on a failure and rises by TokenRatio on
// a success; retries stop while it is at or below MaxTokens/2.
type Throttling struct {
	MaxTokens, TokenRatio float64
}

// To writes p for the named target. An unknown target is a
// *backoff.FieldError naming FieldTarget with backoff.CodeUnknown and the
// known names; an invalid policy is Validate's error.
//
// (The function is not called Snippet, as the type it returns is.)
func To(name string, p backoff.Policy) (Snippet, error) { return ToWith(name, p, Options{}) }

// ToWith is To with what the simulation adds to the policy.
func ToWith(name string, p backoff.Policy, o Options) (Snippet, error) {
	i := slices.IndexFunc(targets, func(t target) bool { return t.Name == name })
	if i < 0 {
		v := name
		if len(v) > 64 {
			v = v[:64] + "…"
		}
		names := TargetNames()
		return Snippet{}, &backoff.FieldError{Field: FieldTarget, Value: v, Code: backoff.CodeUnknown,
			Args: names, Allowed: "one of " + strings.Join(names, ", ")}
	}
	if err := p.Validate(); err != nil {
		return Snippet{}, err
	}
	if err := o.validate(); err != nil {
		return Snippet{}, err
	}
	t := targets[i]
	j := &job{in: p, eff: normalize(p), lib: t.Target, short: t.short, opt: o}
	text := t.write(j)
	return Snippet{Target: t.Target, Text: text, Warnings: j.warnings, Effective: j.eff}, nil
}

// job is one export under way: the policy asked for, the schedule the
// snippet runs so far, and the warnings said so far.
type job struct {
	in, eff  backoff.Policy
	opt      Options
	lib      Target
	short    string
	warnings []Warning
}

// warn adds a warning; its message is one sentence, without the full stop.
func (j *job) warn(code string, args []string, format string, a ...any) {
	j.warnings = append(j.warnings, Warning{Code: code, Args: args, Message: fmt.Sprintf(format, a...)})
}

// normalize rewrites p without changing its schedule into the terms most
// libraries share: exponential growth from the first delay (FirstExponent
// folded into Base), geometric growth as the exponential it is, and no
// jitter bounds that the jitter kind does not use.
func normalize(p backoff.Policy) backoff.Policy {
	e := p
	if e.Jitter != backoff.Proportional {
		e.JitterLo, e.JitterHi = 0, 0
	}
	if e.Jitter != backoff.Additive {
		e.JitterAdd, e.JitterAddScaled = 0, false
	}
	if e.Jitter.HistoryDependent() {
		return e // growth plays no part
	}
	switch e.Growth {
	case backoff.Geometric:
		// systemd's Base * (Cap/Base)^((n-1)/Steps), Cap after Steps, is
		// Base * f^(n-1) capped at Cap with f = (Cap/Base)^(1/Steps),
		// while the cap is not clamped after jitter.
		switch {
		case e.Steps <= 0 || e.Cap <= e.Base:
			e.Growth, e.Factor, e.Steps = backoff.Constant, 1, 0
		case e.CapMode != backoff.CapAfterJitter || e.Jitter == backoff.NoJitter:
			if f := math.Pow(float64(e.Cap)/float64(e.Base), 1/float64(e.Steps)); f <= backoff.MaxFactor {
				e.Growth, e.Factor, e.Steps = backoff.Exponential, f, 0
			}
		}
	case backoff.Exponential:
		if e.Factor == 1 {
			e.Growth = backoff.Constant
		}
	}
	return e
}

// foldFirstExponent folds FirstExponent k into Base (Base * Factor^k, the
// first delay), as libraries start from the first delay. It reports
// false, leaving e as it was, when that delay passes a cap clamped after
// jitter: folding would then change the schedule.
func foldFirstExponent(e *backoff.Policy) bool {
	if e.Growth != backoff.Exponential || e.FirstExponent == 0 {
		return true
	}
	b := float64(e.Base) * math.Pow(e.Factor, float64(e.FirstExponent))
	if e.Cap > 0 && b >= float64(e.Cap) {
		if e.CapMode == backoff.CapAfterJitter && e.Jitter != backoff.NoJitter {
			return false
		}
		b = float64(e.Cap)
	}
	e.Base = time.Duration(math.Round(b))
	e.FirstExponent = 0
	return true
}

// fitGrowth makes the schedule's growth one of ok (Exponential, Constant,
// Linear, None), exactly where it can (constant as exponential with
// factor 1, none as a constant 0, FirstExponent folded) and else through
// the first two non-zero delays, with CodeGrowth.
func (j *job) fitGrowth(ok ...backoff.Growth) {
	j.eff = normalize(j.eff) // a jitter replaced since may make geometric growth exponential
	e := &j.eff
	if e.Jitter.HistoryDependent() {
		return
	}
	has := func(g backoff.Growth) bool { return slices.Contains(ok, g) }
	if e.Growth == backoff.Exponential && has(backoff.Exponential) {
		if foldFirstExponent(e) {
			return
		}
		first := backoff.FormatDuration(e.Base) + " * " + formatFloat(e.Factor) + "^" + strconv.Itoa(e.FirstExponent)
		e.Base, e.FirstExponent = e.Cap, 0
		j.warn(CodeGrowth, []string{backoff.Exponential.String(), backoff.FormatDuration(e.Base), formatFloat(e.Factor)},
			"%s starts from the first delay, and the policy's (%s) passes its cap, which it clamps after jitter: the snippet starts from the cap, %s",
			j.short, first, backoff.FormatDuration(e.Cap))
		return
	}
	switch {
	case has(e.Growth) && e.Growth != backoff.Exponential:
		return
	case e.Growth == backoff.None && has(backoff.Constant):
		e.Growth, e.Base, e.Factor = backoff.Constant, 0, 1
		return
	case (e.Growth == backoff.None || e.Growth == backoff.Constant) && has(backoff.Exponential):
		if e.Growth == backoff.None {
			e.Base = 0
		}
		e.Growth, e.Factor = backoff.Exponential, 1
		return
	}
	// Through the first two non-zero delays.
	from := e.Growth
	first, second := 0.0, 0.0
	for n := 1; n <= 64 && second == 0; n++ {
		switch d := e.Nominal(n); {
		case d <= 0:
		case first == 0:
			first = d
		default:
			second = d
		}
	}
	factor := 1.0
	if first > 0 && second > 0 {
		factor = round12(min(max(second/first, 1), backoff.MaxFactor))
	}
	e.Base = backoff.Seconds(first)
	if e.Cap > 0 && e.Base > e.Cap {
		e.Base = e.Cap
	}
	e.Growth, e.Factor, e.FirstExponent, e.Steps = backoff.Exponential, factor, 0, 0
	if !has(backoff.Exponential) {
		e.Growth, e.Factor = backoff.Constant, 1
	}
	if factor == 1 {
		e.Growth = backoff.Constant
	}
	f := formatFloat(e.Factor)
	j.warn(CodeGrowth, []string{from.String(), backoff.FormatDuration(e.Base), f},
		"%s has no %s growth: the snippet grows from %s by a factor of %s, through the policy's first two non-zero delays",
		j.short, describeGrowth(j.in), backoff.FormatDuration(e.Base), f)
}

// describeGrowth names p's growth for a message, with its formula.
func describeGrowth(p backoff.Policy) string {
	switch p.Growth {
	case backoff.ExpMinusOne:
		return "exp-minus-one (base * (factor^n - 1))"
	case backoff.Polynomial:
		return "polynomial (base * (n-1)^factor)"
	case backoff.Geometric:
		return "geometric"
	}
	return p.Growth.String()
}

// dropExtras leaves out the fields the library cannot express, with
// CodeDropped each: a first retry that is immediate or un-jittered, whole
// multiples of a quantum, a constant offset (unless keepOffset), a floor
// (unless keepFloor) that changes the schedule.
func (j *job) dropExtras(keepOffset, keepFloor bool) {
	e := &j.eff
	if e.Floor > 0 && !keepFloor {
		f, before := backoff.FormatDuration(e.Floor), *e
		e.Floor = 0
		if !sameSchedule(before, *e) {
			j.warn(CodeDropped, []string{backoff.ParamFloor, f},
				"%s has no least delay: the floor of %s is left out", j.short, f)
		}
	}
	if e.ImmediateFirst {
		e.ImmediateFirst = false
		j.warn(CodeDropped, []string{backoff.ParamImmediateFirst, "true"},
			"%s cannot make the first retry immediate: the snippet's schedule starts at the first retry, not the second", j.short)
	}
	if e.FirstUnjittered {
		e.FirstUnjittered = false
		j.warn(CodeDropped, []string{backoff.ParamFirstUnjittered, "true"},
			"%s jitters every retry: the first retry is jittered too", j.short)
	}
	if e.Quantum > 0 {
		q := backoff.FormatDuration(e.Quantum)
		e.Quantum = 0
		j.warn(CodeDropped, []string{backoff.ParamQuantum, q},
			"%s draws delays from a continuous range, not in whole multiples of %s", j.short, q)
	}
	if e.Offset > 0 && !keepOffset {
		o := backoff.FormatDuration(e.Offset)
		e.Offset = 0
		j.warn(CodeDropped, []string{backoff.ParamOffset, o},
			"%s cannot add a constant to every delay: the offset of %s is left out", j.short, o)
	}
}

// replaceJitter sets the schedule's jitter with set and says so with
// CodeJitter, naming what the library draws instead.
func (j *job) replaceJitter(set func(e *backoff.Policy), why string) {
	from := j.eff.JitterFormula()
	set(&j.eff)
	to := j.eff.JitterFormula()
	j.warn(CodeJitter, []string{from, to}, "%s; the snippet's delays are %s where the policy's are %s", why, to, from)
}

// fullOnGrowth is the fallback of libraries without a history-dependent
// jitter: full jitter on the policy's own growth and cap. A factor that
// only a history-dependent kind allows (below 1: they ignore growth) is no
// growth to fall back on; the default policy's factor stands in for it.
func fullOnGrowth(e *backoff.Policy) {
	e.Jitter, e.JitterLo, e.JitterHi = backoff.Full, 0, 0
	if e.CapMode == backoff.CapExact {
		e.CapMode = backoff.CapBeforeJitter
	}
	var fe *backoff.FieldError
	if err := e.Validate(); errors.As(err, &fe) && fe.Field == backoff.ParamFactor {
		e.Factor = backoff.Default().Factor
	}
}

// fitCapMode sets the library's cap mode and says so when the schedule
// changes: with a cap that a jittered delay can reach.
func (j *job) fitCapMode(lib backoff.CapMode, how string) {
	before := j.eff
	j.eff.CapMode = lib
	if sameSchedule(before, j.eff) {
		return
	}
	j.warn(CodeCapMode, []string{before.CapMode.String(), lib.String()}, "%s %s; the policy caps %s",
		j.short, how, capModeText(before.CapMode))
}

// sameSchedule reports whether a and b have the same delay table: the
// same rows with the same nominal delays, bounds and (closed-form) means.
// Both must be valid.
func sameSchedule(a, b backoff.Policy) bool {
	ta, errA := scheduleTable(a)
	tb, errB := scheduleTable(b)
	if errA != nil || errB != nil || len(ta.Rows) != len(tb.Rows) {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(x), math.Abs(y)) }
	for i, ra := range ta.Rows {
		rb := tb.Rows[i]
		if !near(ra.Nominal, rb.Nominal) || !near(ra.Min, rb.Min) || !near(ra.Max, rb.Max) {
			return false
		}
		if !ta.MonteCarlo && !tb.MonteCarlo && !near(ra.Mean, rb.Mean) {
			return false
		}
	}
	return true
}

// scheduleTable is p's table with the least Monte Carlo work: only its
// exact columns are compared.
func scheduleTable(p backoff.Policy) (*backoff.Table, error) {
	return backoff.NewTableWith(p, backoff.NewRand(1), backoff.TableOptions{MeanError: 0.5, MinRuns: 2, MaxDraws: 4096})
}

func capModeText(m backoff.CapMode) string {
	switch m {
	case backoff.CapAfterJitter:
		return "the jittered delay (after jitter)"
	case backoff.CapExact:
		return "to exactly the cap, un-jittered, once reached"
	}
	return "the nominal delay before jitter"
}

// fitRetryAfter records the library's Retry-After handling in the
// schedule and warns when the policy asks for another.
func (j *job) fitRetryAfter(lib backoff.RetryAfterMode, slack time.Duration, how string) {
	e := &j.eff
	want, wantSlack := e.RetryAfter, e.RetryAfterSlack
	e.RetryAfter, e.RetryAfterSlack = lib, slack
	if want == backoff.RetryAfterIgnore || want == lib && (lib != backoff.RetryAfterBounded || wantSlack == slack) {
		return
	}
	j.warn(CodeRetryAfter, []string{want.String(), lib.String()}, "%s %s; the policy's Retry-After mode is %s",
		j.short, how, want)
}

// shortFloat writes x to 10 significant digits, for formulas a person
// reads: 0.0005 rather than 0.0005000000000000004.
func shortFloat(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

// formatFloat is the canonical text of a number.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// attemptsText says how many tries and retries n attempts are.
func attemptsText(n int) string {
	switch n {
	case 0:
		return "no limit"
	case 1:
		return "1 attempt = no retries"
	case 2:
		return "2 attempts = the first call and 1 retry"
	}
	return fmt.Sprintf("%d attempts = the first call and %d retries", n, n-1)
}

// wrap breaks text into lines of at most width runes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// comment writes text as comment lines with prefix ("// ", "# "), wrapped
// at 78 columns; an empty paragraph is a bare prefix line.
func comment(b *strings.Builder, prefix string, paragraphs ...string) {
	for _, p := range paragraphs {
		if p == "" {
			b.WriteString(strings.TrimRight(prefix, " ") + "\n")
			continue
		}
		for _, l := range wrap(p, 78-len(prefix)) {
			b.WriteString(prefix + l + "\n")
		}
	}
}

// header writes the lines every snippet starts with: where it came from,
// the policy, and each warning as a bullet. first, when not empty,
// replaces the first sentence (a Go package comment's).
func (j *job) header(b *strings.Builder, prefix, first string) {
	if first == "" {
		first = "Retry policy exported from Backoff Playground for " + j.lib.Library + " " + j.lib.Version + "."
	}
	comment(b, prefix, first, "", "Policy: "+j.in.Describe()+".", "")
	j.differences(b, prefix)
}

// differences writes the warnings as a bulleted comment, or that there are
// none.
func (j *job) differences(b *strings.Builder, prefix string) {
	if len(j.warnings) == 0 {
		comment(b, prefix, "The library runs this policy exactly.")
		return
	}
	comment(b, prefix, "Where the library cannot express the policy exactly:")
	bullet, more := "- ", "  "
	if j.lib.Syntax == "go" {
		bullet, more = "  - ", "    " // as gofmt writes a list in a doc comment
	}
	for _, w := range j.warnings {
		for i, l := range wrap(w.Message+".", 78-len(prefix)-len(bullet)) {
			if i == 0 {
				b.WriteString(prefix + bullet + l + "\n")
			} else {
				b.WriteString(prefix + more + l + "\n")
			}
		}
	}
}

// protoDuration writes d as a protobuf JSON Duration: decimal seconds
// with an "s" ("0.1s", "30s", "0.000000001s").
func protoDuration(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if ns := int64(d % time.Second); ns != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	}
	return s + "s"
}

// maxSnippetDuration stands for "no cap" in libraries that need one: the
// playground's delays stop growing at 1e9 s (about 31.7 years).
const maxSnippetDuration = 1_000_000_000 * time.Second
