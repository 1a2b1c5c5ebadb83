package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// springDuration writes d for a Spring Boot property in the largest whole
// unit: 500ms, 30s, 2m, 1h, 1d.
func springDuration(d time.Duration) string {
	if d == 0 {
		return "0ms"
	}
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

// r4jMaxFactor is the greatest randomizedWaitFactor written: the
// property must lie in [0, 1).
const r4jMaxFactor = 0.999

func init() {
	register(6, target{Target: Target{Name: "resilience4j", Language: "YAML", Syntax: "yaml", Library: "resilience4j-spring-boot3 (Spring Boot YAML)", Version: "2.4.0",
		Source: "resilience4j-core IntervalFunction.java, resilience4j-framework-common CommonRetryConfigurationProperties.java"}, short: "resilience4j", write: writeResilience4j})
}

// writeResilience4j writes Spring Boot YAML for resilience4j's retry.
//
// resilience4j 2.4.0 (CommonRetryConfigurationProperties.java,
// IntervalFunction.java): with enableExponentialBackoff the wait before
// retry n is waitDuration * multiplier^(n-1) in whole milliseconds
// (truncated at every step); enableRandomizedWait draws
// U[w*(1-f), w*(1+f)+1ms) milliseconds around it, f = randomizedWaitFactor
// in [0, 1); exponentialMaxWaitDuration then clamps the result (after
// randomizing). A multiplier left out is 1.5 and a factor 0.5, so the
// snippet writes both. maxAttempts counts the first call. There is no
// overall deadline.
func writeResilience4j(j *job) string {
	e := &j.eff
	lib := "resilience4j"
	if e.Jitter.HistoryDependent() {
		j.replaceJitter(fullOnGrowth, lib+" has no "+e.Jitter.String()+" jitter (its waits do not depend on the previous one)")
	}
	if e.Jitter == backoff.Additive {
		j.replaceJitter(additiveAsProportional, lib+" has no additive jitter: it is written as a proportional one as wide at the first retry")
	}
	j.fitGrowth(backoff.Exponential, backoff.Constant)
	j.dropExtras(false, false)
	lo, hi, _ := e.Span()
	c, r := centre(lo, hi)
	if r > r4jMaxFactor {
		r = r4jMaxFactor
		j.replaceJitter(func(e *backoff.Policy) { e.SetSpan(c*(1-r), c*(1+r)) },
			fmt.Sprintf("%s's randomizedWaitFactor is below 1, so no wait reaches 0: the jitter is written as d*%s*U[1-%s,1+%s)",
				lib, shortFloat(c), goFloat(r), goFloat(r)))
	}
	if e.Cap > 0 {
		j.fitCapMode(backoff.CapAfterJitter, "clamps the randomized wait to exponentialMaxWaitDuration")
	}
	randomized := r > 0
	exponential := e.Growth == backoff.Exponential || e.Cap > 0 // a capped constant is an exponential with multiplier 1
	wait := scale(e.Base, c)
	waitMs := wait.Truncate(time.Millisecond)
	if waitMs < time.Millisecond && (exponential || randomized) {
		j.warn(CodeRange, []string{backoff.ParamBase, backoff.FormatDuration(wait), "1ms", "", "1ms"},
			"%s's waitDuration is at least 1ms with exponential or randomized waits: the snippet writes 1ms", lib)
		waitMs = time.Millisecond
	}
	maxMs := e.Cap.Truncate(time.Millisecond)
	if maxMs > 0 {
		maxMs = max(maxMs, waitMs)
	}
	if randomized || waitMs != wait || maxMs != e.Cap || drifts(waitMs, e.Factor, maxMs, scheduleRows(*e), exponential) {
		j.warn(CodeRounding, []string{"1ms"}, "%s works in whole milliseconds: it truncates every wait, and the exponential at every step, "+
			"to whole milliseconds", lib)
	}
	attempts := e.Attempts
	if attempts == 0 {
		attempts = math.MaxInt32
		j.warn(CodeAttemptsUnlimited, []string{strconv.Itoa(attempts)},
			"%s has no unlimited attempts: maxAttempts is %d, its greatest value", lib, attempts)
	}
	if e.Deadline > 0 {
		d := backoff.FormatDuration(e.Deadline)
		e.Deadline = 0
		j.warn(CodeDeadline, []string{d}, "%s's retry has no overall deadline (a TimeLimiter bounds each call, not the retries): "+
			"stop the run after %s yourself", lib, d)
	}
	j.fitRetryAfter(backoff.RetryAfterIgnore, 0, "ignores Retry-After unless an intervalBiFunction reads it")

	var b strings.Builder
	j.header(&b, "# ", "")
	b.WriteString("resilience4j:\n  retry:\n    instances:\n      backend: # your instance, as in @Retry(name = \"backend\")\n")
	what := attemptsText(attempts)
	if e.Attempts == 0 {
		what = "no limit"
	}
	fmt.Fprintf(&b, "        maxAttempts: %d # the first call included: %s\n", attempts, what)
	fmt.Fprintf(&b, "        waitDuration: %s", springDuration(waitMs))
	if c != 1 {
		fmt.Fprintf(&b, " # the policy's base times %s: the randomized wait is centred on d*%s", shortFloat(c), shortFloat(c))
	}
	b.WriteString("\n")
	if exponential {
		fmt.Fprintf(&b, "        enableExponentialBackoff: true\n        exponentialBackoffMultiplier: %s\n", goFloat(max(e.Factor, 1)))
		if maxMs > 0 {
			fmt.Fprintf(&b, "        exponentialMaxWaitDuration: %s # clamps the wait after randomizing\n", springDuration(maxMs))
		}
	}
	if randomized {
		fmt.Fprintf(&b, "        enableRandomizedWait: true\n        randomizedWaitFactor: %s # the wait is drawn from [w*(1-f), w*(1+f)]\n", goFloat(r))
	}
	return b.String()
}

// scheduleRows is how many retries a table of e shows: Attempts - 1, or
// backoff.UnlimitedRows.
func scheduleRows(e backoff.Policy) int {
	if e.Attempts == 0 {
		return backoff.UnlimitedRows
	}
	return e.Attempts - 1
}

// drifts reports whether resilience4j's whole-millisecond exponential
// (truncated at every step) leaves the exact one within rows retries.
func drifts(wait time.Duration, factor float64, cap time.Duration, rows int, exponential bool) bool {
	if !exponential {
		return false
	}
	x := int64(wait / time.Millisecond)
	capMs := int64(cap / time.Millisecond)
	exact := float64(x)
	for n := 1; n <= rows; n++ {
		got, want := float64(x), exact
		if capMs > 0 {
			got, want = math.Min(got, float64(capMs)), math.Min(want, float64(capMs))
		}
		if got != want {
			return true
		}
		if capMs > 0 && want >= float64(capMs) {
			return false
		}
		x = int64(float64(x) * factor)
		exact *= factor
	}
	return false
}
