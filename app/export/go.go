package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// goDuration writes d as a Go expression: 0, time.Second, 250 *
// time.Millisecond, in the largest unit that keeps it whole.
func goDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "time.Hour"}, {time.Minute, "time.Minute"}, {time.Second, "time.Second"},
		{time.Millisecond, "time.Millisecond"}, {time.Microsecond, "time.Microsecond"}, {time.Nanosecond, "time.Nanosecond"}} {
		if d%u.d == 0 {
			if d == u.d {
				return u.name
			}
			return strconv.FormatInt(int64(d/u.d), 10) + " * " + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) // unreachable: every duration is whole nanoseconds
}

// goFloat writes a float64 literal.
func goFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// scale multiplies d by f, rounding to the nanosecond.
func scale(d time.Duration, f float64) time.Duration {
	return time.Duration(math.Round(float64(d) * f))
}

func init() {
	register(0, target{Target: Target{Name: "go-cenkalti", Language: "Go", Syntax: "go", Library: "github.com/cenkalti/backoff/v5", Version: "v5.0.3",
		Source: "exponential.go, retry.go"}, short: "cenkalti/backoff", write: writeCenkalti})
}

// writeCenkalti writes a Go file for github.com/cenkalti/backoff/v5.
//
// v5's ExponentialBackOff draws U[cur*(1-r), cur*(1+r)] and then grows cur
// = cur >= Max/mult ? Max : cur*mult, starting at InitialInterval: the cap
// applies before randomizing (exponential.go). Its Retry counts tries with
// WithMaxTries (the first included) and stops a retry that would start
// after WithMaxElapsedTime, which defaults to 15 minutes (retry.go).
//
// Any d * U[lo, hi) is that symmetric randomization around c*d, c =
// (lo+hi)/2, r = (hi-lo)/(hi+lo): full jitter is r = 1 around d/2. Scaling
// InitialInterval and MaxInterval by c scales every cur by c, so none,
// full, equal and proportional jitter are exact.
func writeCenkalti(j *job) string {
	e := &j.eff
	lib := "cenkalti/backoff"
	if e.Jitter.HistoryDependent() {
		j.replaceJitter(fullOnGrowth, lib+" has no "+e.Jitter.String()+" jitter (its delays do not depend on the previous one)")
	}
	if e.Jitter == backoff.Additive {
		j.replaceJitter(additiveAsProportional, lib+" has no additive jitter: it is written as a proportional one as wide at the first retry")
	}
	j.fitGrowth(backoff.Exponential)
	j.dropExtras(false, false)
	j.fitCapMode(backoff.CapBeforeJitter, "caps the interval before randomizing it")
	if j.in.RetryAfter != backoff.RetryAfterIgnore {
		j.fitRetryAfter(backoff.RetryAfterAsIs, 0, "waits exactly what an operation's backoff.RetryAfter(seconds) error says, uncapped, and restarts the schedule")
	}
	lo, hi, _ := e.Span()
	c, r := centre(lo, hi)
	maxInterval := scale(e.Cap, c)
	if e.Cap == 0 {
		maxInterval = maxSnippetDuration
		j.warn(CodeNoCap, []string{backoff.FormatDuration(maxInterval)},
			"%s needs a MaxInterval: no cap is written as %s (about 31.7 years), where the playground's delays stop growing",
			lib, backoff.FormatDuration(maxInterval))
	}

	var b strings.Builder
	j.header(&b, "// ", "Package retrypolicy is a retry policy exported from Backoff Playground for "+j.lib.Library+" "+j.lib.Version+".")
	b.WriteString("//\n// Use it as\n//\n//\tresult, err := backoff.Retry(ctx, operation, retrypolicy.RetryOptions()...)\n")
	if j.in.RetryAfter != backoff.RetryAfterIgnore {
		b.WriteString("//\n")
		comment(&b, "// ", "A server's Retry-After is honoured when the operation returns backoff.RetryAfter(seconds): "+
			"Retry then waits exactly that long and restarts the schedule from InitialInterval.")
	}
	b.WriteString("package retrypolicy\n\nimport (\n\t\"time\"\n\n\t\"github.com/cenkalti/backoff/v5\"\n)\n\n")

	comment(&b, "// ", "MaxTries counts every try, the first included: "+attemptsText(e.Attempts)+" (0 = no limit).")
	fmt.Fprintf(&b, "const MaxTries = %d\n\n", e.Attempts)
	comment(&b, "// ", "MaxElapsedTime stops the retries that would start later than this after the first try "+
		"(0 = no limit; cenkalti's own default is 15 minutes).")
	fmt.Fprintf(&b, "const MaxElapsedTime = %s\n\n", goDuration(e.Deadline))

	doc := "NewBackOff returns the delays. cenkalti draws the delay before retry n from " +
		"[cur*(1-r), cur*(1+r)] with cur = min(InitialInterval * Multiplier^(n-1), MaxInterval): the cap applies before randomizing."
	switch {
	case r == 0 && c == 1:
	case r == 0:
		doc += fmt.Sprintf(" The policy's delays are %s: InitialInterval and MaxInterval are its base and cap times %s.", e.JitterFormula(), goFloat(c))
	default:
		doc += fmt.Sprintf(" The policy's delays %s are that randomization around cur = d*%s with r = %s: "+
			"InitialInterval and MaxInterval are the policy's base and cap times %s.", e.JitterFormula(), goFloat(c), goFloat(r), goFloat(c))
	}
	comment(&b, "// ", doc)
	b.WriteString("func NewBackOff() *backoff.ExponentialBackOff {\n\treturn &backoff.ExponentialBackOff{\n")
	fmt.Fprintf(&b, "\t\tInitialInterval:     %s,\n", goDuration(scale(e.Base, c)))
	fmt.Fprintf(&b, "\t\tRandomizationFactor: %s,\n", goFloat(r))
	fmt.Fprintf(&b, "\t\tMultiplier:          %s,\n", goFloat(max(e.Factor, 1)))
	fmt.Fprintf(&b, "\t\tMaxInterval:         %s,", goDuration(maxInterval))
	if e.Cap == 0 {
		b.WriteString(" // no cap")
	}
	b.WriteString("\n\t}\n}\n\n")
	comment(&b, "// ", "RetryOptions are the options of backoff.Retry for this policy.")
	b.WriteString("func RetryOptions() []backoff.RetryOption {\n\treturn []backoff.RetryOption{\n")
	b.WriteString("\t\tbackoff.WithBackOff(NewBackOff()),\n\t\tbackoff.WithMaxTries(MaxTries),\n\t\tbackoff.WithMaxElapsedTime(MaxElapsedTime),\n\t}\n}\n")
	return b.String()
}

// centre writes d * U[lo, hi) as a symmetric randomization around c*d:
// d * c * U[1-r, 1+r), to 12 significant digits (so 0.2 is not
// 0.19999999999999996; the difference is far below a nanosecond).
func centre(lo, hi float64) (c, r float64) {
	c = round12((lo + hi) / 2)
	if lo+hi > 0 {
		r = round12((hi - lo) / (hi + lo))
	}
	return c, r
}

func round12(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return y
}

// additiveAsProportional replaces d + U[0, A) with d * U[1, 1 + A/Base),
// as wide at the first retry (none when Base is 0).
func additiveAsProportional(e *backoff.Policy) {
	if e.Base <= 0 {
		e.SetSpan(1, 1)
		return
	}
	hi := 1 + e.JitterAdd.Seconds()/e.Base.Seconds()
	e.SetSpan(1, min(hi, backoff.MaxJitterFactor))
}

func init() {
	register(1, target{Target: Target{Name: "go-aws", Language: "Go", Syntax: "go", Library: "github.com/aws/aws-sdk-go-v2/aws/retry", Version: "v1.48.0",
		Source: "aws/retry/standard.go, jitter_backoff.go, retry.go, middleware.go"}, short: "The AWS SDK's standard retryer", write: writeAWS})
}

// writeAWS writes a Go file for the AWS SDK for Go v2's standard retryer.
//
// aws/retry v1.48.0's standard retryer, without a Backoff of its own,
// waits U[0,1) * min(BaseDelay * 2^(n-1), MaxBackoff): full jitter, factor
// 2, the cap before jitter, BaseDelay 50ms when 0, and 1s instead of
// BaseDelay after a throttling error (standard.go, jitter_backoff.go).
// retry.NewExponentialJitterBackoff is the older formula (U[0,1) * 2^n
// seconds), so the snippet sets BaseDelay instead. MaxAttempts counts the
// first try; 0 in NewStandard means 3, while AddWithMaxAttempts(r, 0)
// means no limit (middleware.go). There is no overall deadline: the
// caller's context bounds the run.
func writeAWS(j *job) string {
	e := &j.eff
	lib := "The AWS SDK's standard retryer"
	if e.Jitter != backoff.Full {
		why := lib + " draws full jitter only"
		if e.Jitter.HistoryDependent() {
			why += " (it has no " + e.Jitter.String() + " jitter)"
		}
		j.replaceJitter(fullOnGrowth, why)
	}
	j.fitGrowth(backoff.Exponential)
	if e.Growth != backoff.Exponential || e.Factor != 2 {
		before := *e
		from := formatFloat(e.Factor)
		e.Growth, e.Factor = backoff.Exponential, 2
		if !sameSchedule(before, *e) {
			j.warn(CodeFactor, []string{from, "2"}, "%s doubles the delay at every retry: the factor is 2, not %s", lib, from)
		}
	}
	j.dropExtras(false, false)
	j.fitCapMode(backoff.CapBeforeJitter, "caps the delay before jitter")
	if e.Base == 0 {
		j.warn(CodeRange, []string{backoff.ParamBase, "0s", "1ns", backoff.FormatDuration(backoff.MaxDuration), "1ns"},
			"%s takes a BaseDelay of 0 as its default 50ms: the snippet writes 1ns", lib)
		e.Base = time.Nanosecond
	}
	if e.Base != time.Second {
		j.warn(CodeThrottleBase, []string{"1s"}, "%s backs off from 1s instead of BaseDelay after a throttling error", lib)
	}
	maxBackoff := e.Cap
	if e.Cap == 0 {
		maxBackoff = maxSnippetDuration
		j.warn(CodeNoCap, []string{backoff.FormatDuration(maxBackoff)},
			"%s needs a MaxBackoff (0 would make every delay 0): no cap is written as %s (about 31.7 years)", lib, backoff.FormatDuration(maxBackoff))
	}
	if j.in.Deadline > 0 {
		d := backoff.FormatDuration(j.in.Deadline)
		e.Deadline = 0
		j.warn(CodeDeadline, []string{d}, "%s has no overall deadline: bound the call with context.WithTimeout(ctx, %s), "+
			"which also cancels a try in flight", lib, d)
	}
	if r := j.in.Retries(); r < 0 || r > 500/14 {
		j.warn(CodeRetryQuota, []string{"500", "14"}, "%s spends 14 of its 500 retry-quota tokens on each retry "+
			"(5 after a throttling error) and stops retrying when they run out; set o.RateLimiter = ratelimit.None to lift it", lib)
	}
	j.fitRetryAfter(backoff.RetryAfterBounded, 5*time.Second, "honours x-amz-retry-after clamped to [t, t+5s]")

	var b strings.Builder
	j.header(&b, "// ", "Package retrypolicy is a retry policy exported from Backoff Playground for the AWS SDK for Go v2, "+j.lib.Library+" "+j.lib.Version+".")
	b.WriteString("//\n// Use it as\n//\n//\tcfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(retrypolicy.NewRetryer))\n")
	b.WriteString("package retrypolicy\n\nimport (\n\t\"time\"\n\n\t\"github.com/aws/aws-sdk-go-v2/aws\"\n\t\"github.com/aws/aws-sdk-go-v2/aws/retry\"\n)\n\n")
	comment(&b, "// ", "NewRetryer returns the SDK's standard retryer with this policy. It waits "+
		"U[0,1) * min(BaseDelay * 2^(n-1), MaxBackoff) before retry n (full jitter on a capped exponential), "+
		"and honours x-amz-retry-after within [t, t+5s]. Its retry quota (500 tokens, 14 per retry) stays the SDK's default.")
	b.WriteString("func NewRetryer() aws.Retryer {\n")
	if e.Attempts == 0 {
		b.WriteString("\tr := retry.NewStandard(func(o *retry.StandardOptions) {\n")
	} else {
		b.WriteString("\treturn retry.NewStandard(func(o *retry.StandardOptions) {\n")
		fmt.Fprintf(&b, "\t\to.MaxAttempts = %d // %s\n", e.Attempts, attemptsText(e.Attempts))
	}
	fmt.Fprintf(&b, "\t\to.BaseDelay = %s\n", goDuration(e.Base))
	fmt.Fprintf(&b, "\t\to.MaxBackoff = %s", goDuration(maxBackoff))
	if e.Cap == 0 {
		b.WriteString(" // no cap")
	}
	b.WriteString("\n\t})\n")
	if e.Attempts == 0 {
		b.WriteString("\t// No attempt limit: NewStandard takes MaxAttempts 0 as 3, AddWithMaxAttempts as no limit.\n")
		b.WriteString("\treturn retry.AddWithMaxAttempts(r, 0)\n")
	}
	b.WriteString("}\n")
	return b.String()
}
