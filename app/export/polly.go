package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// csTimeSpan writes d as a C# TimeSpan in the largest whole unit, or in
// ticks (100ns).
func csTimeSpan(d time.Duration) string {
	if d == 0 {
		return "TimeSpan.Zero"
	}
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "FromDays"}, {time.Hour, "FromHours"}, {time.Minute, "FromMinutes"}, {time.Second, "FromSeconds"},
		{time.Millisecond, "FromMilliseconds"}} {
		if d%u.d == 0 {
			return "TimeSpan." + u.name + "(" + strconv.FormatInt(int64(d/u.d), 10) + ")"
		}
	}
	return "TimeSpan.FromTicks(" + strconv.FormatInt(int64(d/100), 10) + ")"
}

// pollyDay is the greatest Delay, MaxDelay and Timeout Polly accepts.
const pollyDay = 24 * time.Hour

func init() {
	register(4, target{Target: Target{Name: "polly", Language: "C#", Syntax: "csharp", Library: "Polly.Core (Polly v8)", Version: "8.7.0",
		Source: "src/Polly.Core/Retry/RetryHelper.cs, RetryStrategyOptions.TResult.cs, Timeout/TimeoutStrategyOptions.cs"}, short: "Polly", write: writePolly})
}

// writePolly writes a C# class building a Polly v8 resilience pipeline.
//
// Polly.Core 8.7.0 (RetryHelper.cs): with attempt i from 0, Constant waits
// Delay, Linear (i+1) * Delay, Exponential 2^i * Delay; UseJitter makes
// Constant and Linear d * U[0.75, 1.25) and Exponential the
// DecorrelatedJitterBackoffV2 with Delay as its median first delay;
// MaxDelay clamps the result. MaxRetryAttempts counts retries (int.MaxValue
// retries forever); Delay and MaxDelay lie within [0, 1 day]. A timeout
// strategy added before the retry bounds the whole call (10ms to 1 day).
func writePolly(j *job) string {
	e := &j.eff
	lib := "Polly"
	if e.Jitter == backoff.Decorrelated {
		j.replaceJitter(func(e *backoff.Policy) { e.Jitter = backoff.DecorrelatedV2 },
			"Polly's jitter for exponential delays is its DecorrelatedJitterBackoffV2, with the policy's base as its median first delay")
	}
	backoffType := "Exponential"
	if e.Jitter != backoff.DecorrelatedV2 {
		j.fitGrowth(backoff.Exponential, backoff.Constant, backoff.Linear)
		if e.Growth == backoff.Exponential && e.Factor != 2 {
			before := *e
			from := formatFloat(e.Factor)
			e.Factor = 2
			if !sameSchedule(before, *e) {
				j.warn(CodeFactor, []string{from, "2"}, "%s's exponential backoff doubles the delay: the factor is 2, not %s", lib, from)
			}
		}
		switch e.Growth {
		case backoff.Constant:
			backoffType = "Constant"
		case backoff.Linear:
			backoffType = "Linear"
		}
		switch {
		case e.Jitter == backoff.NoJitter:
		case e.Base == 0:
			e.SetSpan(1, 1) // every delay is 0, jittered or not (Polly returns a zero Delay as is)
		case e.Growth == backoff.Exponential:
			j.replaceJitter(func(e *backoff.Policy) {
				e.Jitter, e.JitterLo, e.JitterHi, e.JitterAdd, e.JitterAddScaled = backoff.DecorrelatedV2, 0, 0, 0, false
			},
				"Polly's only jitter for exponential delays is its DecorrelatedJitterBackoffV2, with the policy's base as its median first delay")
		case !(e.Jitter == backoff.Proportional && e.JitterLo == 0.75 && e.JitterHi == 1.25):
			j.replaceJitter(fixedSpan(0.75, 1.25), "Polly's jitter for "+strings.ToLower(backoffType)+" delays is d*U[0.75,1.25)")
		}
	}
	useJitter := e.Jitter != backoff.NoJitter
	j.dropExtras(false, false)
	j.fitCapMode(backoff.CapAfterJitter, "clamps the jittered delay to MaxDelay")
	for _, f := range []struct {
		name string
		d    *time.Duration
	}{{backoff.ParamBase, &e.Base}, {backoff.ParamCap, &e.Cap}} {
		if *f.d > pollyDay {
			j.warn(CodeRange, []string{f.name, backoff.FormatDuration(*f.d), "0s", "24h", "24h"},
				"%s's %s is at most 1 day: %s is written as 1 day", lib, map[string]string{backoff.ParamBase: "Delay", backoff.ParamCap: "MaxDelay"}[f.name],
				backoff.FormatDuration(*f.d))
			*f.d = pollyDay
		}
	}
	if e.Base%100 != 0 || e.Cap%100 != 0 {
		j.warn(CodeRounding, []string{"100ns"}, "%s's TimeSpan counts whole ticks of 100ns", lib)
		tick := func(d time.Duration) time.Duration {
			if d > 0 && d < 100 {
				return 100
			}
			return d.Truncate(100)
		}
		e.Base, e.Cap = tick(e.Base), tick(e.Cap)
	}
	timeout := e.Deadline
	if timeout > 0 {
		if timeout < 10*time.Millisecond || timeout > pollyDay {
			t := min(max(timeout, 10*time.Millisecond), pollyDay)
			j.warn(CodeRange, []string{backoff.ParamDeadline, backoff.FormatDuration(timeout), "10ms", "24h", backoff.FormatDuration(t)},
				"%s's timeout lies within 10ms and 1 day: %s is written as %s", lib, backoff.FormatDuration(timeout), backoff.FormatDuration(t))
			timeout, e.Deadline = t, t
		}
		d := backoff.FormatDuration(timeout)
		j.warn(CodeDeadlineTimeout, []string{d}, "%s's timeout of %s bounds the whole call: it also cancels a try in flight, "+
			"where the playground's deadline only stops new retries", lib, d)
	}
	j.fitRetryAfter(backoff.RetryAfterIgnore, 0, "ignores Retry-After unless a DelayGenerator reads it")

	var b strings.Builder
	j.header(&b, "// ", "")
	b.WriteString("using System;\nusing Polly;\nusing Polly.Retry;\n\npublic static class RetryPolicy\n{\n")
	b.WriteString("    // Build returns the pipeline. Use it as\n    //\n    //     await RetryPolicy.Build().ExecuteAsync(async token => await CallAsync(token));\n")
	b.WriteString("    public static ResiliencePipeline Build() => new ResiliencePipelineBuilder()\n")
	if timeout > 0 {
		fmt.Fprintf(&b, "        .AddTimeout(%s) // the whole call, every try and delay included\n", csTimeSpan(timeout))
	}
	if e.Attempts != 1 {
		b.WriteString("        .AddRetry(new RetryStrategyOptions\n        {\n")
		retries := strconv.Itoa(e.Attempts - 1)
		what := attemptsText(e.Attempts)
		if e.Attempts == 0 {
			retries, what = "int.MaxValue", "no limit"
		}
		fmt.Fprintf(&b, "            MaxRetryAttempts = %s, // retries, the first call not counted: %s\n", retries, what)
		fmt.Fprintf(&b, "            BackoffType = DelayBackoffType.%s,\n", backoffType)
		delayNote := ""
		switch {
		case e.Jitter == backoff.DecorrelatedV2:
			delayNote = " // the median first delay of DecorrelatedJitterBackoffV2"
		case backoffType == "Exponential":
			delayNote = " // 2^(n-1) * Delay before retry n"
		case backoffType == "Linear":
			delayNote = " // n * Delay before retry n"
		}
		fmt.Fprintf(&b, "            Delay = %s,%s\n", csTimeSpan(e.Base), delayNote)
		if e.Cap > 0 {
			fmt.Fprintf(&b, "            MaxDelay = %s, // clamps the delay after jitter\n", csTimeSpan(e.Cap))
		}
		jitterNote := ""
		switch {
		case e.Jitter == backoff.DecorrelatedV2:
			jitterNote = " // DecorrelatedJitterBackoffV2"
		case useJitter:
			jitterNote = " // d * U[0.75, 1.25)"
		}
		fmt.Fprintf(&b, "            UseJitter = %t,%s\n", useJitter, jitterNote)
		b.WriteString("        })\n")
	} else {
		b.WriteString("        // 1 attempt = no retries: no retry strategy.\n")
	}
	b.WriteString("        .Build();\n}\n")
	return b.String()
}

// pySeconds writes d as a Python number of seconds.
func pySeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'g', -1, 64)
}

// pyFloat writes a Python number.
func pyFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
