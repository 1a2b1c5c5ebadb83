package importer

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "aws-sdk-go-v2", detect: 13, doc: 10, source: awsSource, policies: awsPolicies, read: readAWS})
}

const awsSource = "aws/aws-sdk-go-v2 aws/retry/standard.go (NewStandard), jitter_backoff.go, retry.go, middleware.go (v1.48.0, where the 2026 retry behaviour became the default)"

var awsFields = []string{"MaxAttempts", "MaxBackoff", "BaseDelay", "Backoff", "RateLimiter", "Retryables", "RetryCost", "RetryTimeoutCost",
	"NoRetryIncrement", "Timeouts", "Throttles", "ThrottlingRetryCost"}

// awsSites are the retry.NewStandard calls, or, without one, the first
// call that wraps the default retryer (AddWithMaxAttempts,
// config.WithRetryMaxAttempts: the default retryer is NewStandard()).
func awsSites(c *code) []callSite {
	out := c.callsNamed(" retry.NewStandard ")
	if len(out) == 0 {
		out = c.callsNamed(" retry.AddWithMaxAttempts retry.AddWithMaxBackoffDelay config.WithRetryMaxAttempts ")
		if len(out) > 1 {
			out = out[:1]
		}
	}
	kept := out[:0]
	for _, cs := range out {
		if cs.open >= 0 && c.is(cs.open, "(") {
			kept = append(kept, cs)
		}
	}
	return kept
}

func awsPolicies(in *input) ([]site, string) {
	c := in.tokens()
	return codeSites(c, awsSites(c)), ""
}

// readAWS reads the standard retryer's options: the delay before retry n
// is U[0,1) * min(BaseDelay * 2^(n-1), MaxBackoff) (BaseDelay 50ms,
// MaxBackoff 20s, MaxAttempts 3 counting the first, when 0 or unset);
// AddWithMaxAttempts(r, 0) lifts the limit. x-amz-retry-after is honoured
// within [t, t+5s]. NewExponentialJitterBackoff(max) is the legacy
// formula: U[0,1) * 2^n seconds while n <= int(log2(max/1s)), exactly max
// after (backoffDelayLegacy). A Backoff of one's own leaves BaseDelay and
// MaxBackoff unused (NewStandard), and AddWithMaxBackoffDelay(r, max)
// wraps r in the legacy formula, whatever r's Backoff (retry.go). With
// several retryers in the text, a retryer's options are the assignments
// in its own call (func(o *retry.StandardOptions) { ... }) and the
// wrappers around it or its variable.
func readAWS(in *input, r *reader, s site) error {
	c := in.tokens()
	sites := awsSites(c)
	site := sites[s.at]
	several := len(sites) > 1
	owns := func(k int) bool {
		if !several || c.within(k, site.open) {
			return true
		}
		for _, o := range sites {
			if c.within(k, o.open) {
				return false // another retryer's own option
			}
		}
		return true
	}
	wraps := func(cs callSite) bool {
		if !several || c.within(site.at, cs.open) {
			return true
		}
		as := c.args(cs.open)
		return len(as) > 0 && sameVar(c.text(as[0].from, as[0].to), c.siteVar(site.at))
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Base: backoff.Seconds(0.05), Factor: 2, Cap: backoff.Seconds(20), Jitter: backoff.Full,
		Attempts: 3, RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: backoff.Seconds(5)}
	seen := map[string]bool{}
	legacy, legacyLine, legacyCap, wrapped := false, 0, time.Duration(0), false
	lines := map[string]int{} // of the options a legacy back-off leaves unused
	for _, as := range c.assignments(func(f string) bool { return containsStr(awsFields, f) }) {
		if !owns(as.at) {
			continue
		}
		v := c.eval(as.from, as.to)
		seen[as.field] = true
		lines[as.field] = as.line
		switch as.field {
		case "MaxAttempts":
			if f, ok := r.numValue("o.MaxAttempts", v, "3"); ok && f > 0 {
				r.attempts("o.MaxAttempts", v.text, f, v.line)
			}
		case "MaxBackoff":
			if f, ok := r.durValue("o.MaxBackoff", v, 1e-9, nil, "20s"); ok && f > 0 {
				r.duration(&p.Cap, "o.MaxBackoff", v.text, f, v.line, true)
			}
		case "BaseDelay":
			if f, ok := r.durValue("o.BaseDelay", v, 1e-9, nil, "50ms"); ok && f > 0 {
				r.duration(&p.Base, "o.BaseDelay", v.text, f, v.line, false)
			}
		case "Backoff":
			r.set("o.Backoff", v.text, v.line)
			if v.kind == vCall && short(v.str) == "NewExponentialJitterBackoff" && len(v.args) == 1 {
				if f, ok := r.durValue("NewExponentialJitterBackoff", c.evalArg(v.args[0]), 1e-9, nil, "20s"); ok {
					legacy, legacyLine = true, v.line
					r.duration(&legacyCap, "NewExponentialJitterBackoff", v.text, f, v.line, true)
				}
			} else {
				r.unreadable("o.Backoff", v.text, v.line, "the standard back-off")
			}
		case "Retryables", "Throttles":
			r.ignore("o."+as.field, as.line, ReasonClassify)
		case "RateLimiter", "RetryCost", "RetryTimeoutCost", "NoRetryIncrement", "ThrottlingRetryCost":
			r.ignore("o."+as.field, as.line, ReasonNotModelled)
		default:
			r.ignore("o."+as.field, as.line, ReasonPerTry)
		}
	}
	for _, cs := range c.callsNamed(" retry.AddWithMaxAttempts retry.AddWithMaxBackoffDelay config.WithRetryMaxAttempts config.WithRetryMode ") {
		if strings.HasPrefix(cs.name, "retry.") && !wraps(cs) {
			continue
		}
		as := c.args(cs.open)
		switch {
		case cs.name == "retry.AddWithMaxAttempts" && len(as) == 2, cs.name == "config.WithRetryMaxAttempts" && len(as) == 1:
			v := c.evalArg(as[len(as)-1])
			seen["MaxAttempts"] = true
			if f, ok := r.numValue(strings.TrimPrefix(cs.name, "retry."), v, "3"); ok {
				if f == 0 {
					p.Attempts = 0 // no limit
				} else {
					r.attempts(cs.name, v.text, f, v.line)
				}
			}
		case cs.name == "retry.AddWithMaxBackoffDelay" && len(as) == 2:
			v := c.evalArg(as[1])
			if f, ok := r.durValue(cs.name, v, 1e-9, nil, "20s"); ok {
				legacy, legacyLine, wrapped = true, v.line, true
				r.duration(&legacyCap, cs.name, v.text, f, v.line, true)
			}
		case cs.name == "config.WithRetryMode":
			r.ignore(cs.name, cs.line, ReasonNotModelled)
		}
	}
	for _, d := range []struct{ k, v string }{{"MaxAttempts", "3"}, {"BaseDelay", "50ms"}, {"MaxBackoff", "20s"}} {
		if !seen[d.k] && !(legacy && d.k != "MaxAttempts") {
			r.def(d.k, d.v)
		}
	}
	if legacy {
		for _, k := range []string{"BaseDelay", "MaxBackoff", "Backoff"} {
			if lines[k] > 0 && (k != "Backoff" || wrapped) {
				r.ignore("o."+k, lines[k], ReasonUnknown) // NewStandard or the wrapper never reads it
			}
		}
		p.Base, p.Cap, p.CapMode = backoff.Seconds(2), legacyCap, backoff.CapExact
		if legacyCap == 0 {
			// log2(0) is -Inf: every attempt is past it, so every retry
			// waits the max, 0. A cap of 0 here would mean none.
			p.Base, p.Jitter, p.CapMode = 0, backoff.NoJitter, backoff.CapBeforeJitter
		}
		r.res.Source = "aws/aws-sdk-go-v2 aws/retry/jitter_backoff.go (aws/retry v1.36.0)"
		awsCapDrawn(r, legacyLine)
	} else {
		if p.Base != backoff.Seconds(1) {
			r.warn(CodeThrottleBase, 0, []string{"1s"}, "the standard retryer backs off from 1s instead of BaseDelay after a throttling error")
		}
		// v1.48.0 made this the default; v1.42.0 to v1.47 ran it only
		// with AWS_NEW_RETRIES_2026=true, and every version before
		// v1.48.0 ran the legacy formula by default.
		r.warn(CodeVersion, site.line, []string{"v1.48.0", "aws-legacy"},
			"this is the standard retryer of aws-sdk-go-v2 v1.48.0 and later; before v1.48.0 it ran, unless AWS_NEW_RETRIES_2026=true (v1.42.0 on), "+
				"the legacy formula of the aws-legacy preset: U[0,1) * 2^n seconds, exactly MaxBackoff once 2^n passes it")
	}
	r.capSanity()
	return nil
}

// awsCapDrawn warns of the one retry where the legacy formula and the
// policy part: the library draws while n <= int(log2(max/1s)), the policy
// waits exactly the cap once 2^n s reaches it. When max is 2^k s both hold
// at retry k (k >= 1), so the library draws U[0,1) * max there and the
// policy waits max; CapExact has no way to say "from the retry after".
func awsCapDrawn(r *reader, line int) {
	p := &r.res.Policy
	if p.Cap <= 0 {
		return
	}
	// The library's own arithmetic, float64 nanoseconds over a second.
	k := int(math.Log2(float64(p.Cap) / float64(time.Second)))
	if k < 1 || p.Nominal(k) < p.Cap.Seconds() || (p.Retries() >= 0 && k > p.Retries()) {
		return
	}
	c := backoff.FormatDuration(p.Cap)
	r.warn(CodeCapDrawn, line, []string{strconv.Itoa(k), c},
		"the legacy back-off, NewExponentialJitterBackoff(%s), still draws U[0,1) * %s before retry %d, where the policy waits exactly %s", c, c, k, c)
}
