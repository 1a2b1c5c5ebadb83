package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

const springSource = "spring-projects/spring-retry AnnotationAwareRetryOperationsInterceptor.java, ExponentialBackOffPolicy.java, ExponentialRandomBackOffPolicy.java, UniformRandomBackOffPolicy.java, Retryable.java, Backoff.java (2.0.12)"

// springDefaultMaxInterval is ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL,
// used when maxDelay is not above delay.
const springDefaultMaxInterval = 30.0

func springRetryable(c *code) []callSite {
	return c.calls(func(n string) bool {
		return short(n) == "Retryable" && (n == "Retryable" || n == "org.springframework.retry.annotation.Retryable")
	})
}

func detectSpring(in *input) bool {
	c := in.tokens()
	for k := range c.toks {
		if c.is(k, "@") && (c.ident(k+1) == "Retryable" || c.ident(k+1) == "Backoff") {
			return true
		}
	}
	return false
}

// readSpring reads the first @Retryable and its @Backoff as Spring
// Retry's annotation interceptor builds the policy: a multiplier above 0
// makes an exponential back-off (random: times U[1, multiplier)) with a
// maximum of maxDelay when above delay, else 30s; a maxDelay above delay
// without a multiplier a uniform one in [delay, maxDelay); else a fixed
// delay. Delays are in milliseconds; maxAttempts counts the first call.
func readSpring(in *input, r *reader) error {
	c := in.tokens()
	rs := springRetryable(c)
	attempts := 3.0
	var bo *value
	if len(rs) > 0 {
		if len(rs) > 1 {
			r.warn(CodeSeveral, rs[0].line, []string{itoa(len(rs)), itoa(rs[0].line)}, "the code has %d @Retryable: the first, at line %d, is read", len(rs), rs[0].line)
		}
		seen := false
		if rs[0].open >= 0 {
			for _, a := range c.args(rs[0].open) {
				v := c.evalArg(a)
				switch a.key {
				case "maxAttempts":
					seen = true
					if f, ok := r.numValue(a.key, v, "3"); ok {
						attempts = f
					}
				case "maxAttemptsExpression":
					seen = true
					if f, ok := r.numValue(a.key, v, "3"); ok {
						attempts = f
					}
				case "backoff":
					bo = v
				case "", "value", "include", "exclude", "retryFor", "noRetryFor", "notRecoverable", "exceptionExpression":
					r.ignore(orPositional(a.key), a.line, ReasonClassify)
				default:
					r.ignore(a.key, a.line, ReasonNotModelled)
				}
			}
		}
		if !seen {
			r.def("maxAttempts", "3")
		}
	} else if bs := c.calls(func(n string) bool { return n == "Backoff" }); len(bs) > 0 {
		bo = &value{kind: vCall, str: "Backoff", open: bs[0].open, line: bs[0].line}
		if bs[0].open >= 0 {
			bo.args = c.args(bs[0].open)
		}
		r.def("maxAttempts", "3")
	} else {
		return noPolicy("no @Retryable")
	}
	delay, maxDelay, mult := 1.0, 0.0, 0.0
	random := false
	seen := map[string]bool{}
	if bo != nil && (bo.kind != vCall || short(bo.str) != "Backoff") {
		r.unreadable("backoff", bo.text, bo.line, "@Backoff()")
		bo = nil
	}
	if bo != nil {
		for i, a := range bo.args {
			key := a.key
			if key == "" && i == 0 {
				key = "value"
			}
			v := c.evalArg(a)
			seen[key] = true
			switch key {
			case "value", "delay", "delayExpression":
				if f, ok := r.durValue(key, v, 1e-3, func(s string) (float64, bool) { return springSeconds(s) }, "1000"); ok && (f > 0 || key == "value") {
					delay = f
				}
			case "maxDelay", "maxDelayExpression":
				if f, ok := r.durValue(key, v, 1e-3, func(s string) (float64, bool) { return springSeconds(s) }, "0"); ok {
					maxDelay = f
				}
			case "multiplier", "multiplierExpression":
				if f, ok := r.numValue(key, v, "0"); ok {
					mult = f
				}
			case "random", "randomExpression":
				if v.kind == vStr {
					r.set(key, v.text, v.line)
					random = v.str == "true"
				} else if b, ok := r.boolValue(key, v, "false"); ok {
					random = b
				}
			default:
				r.ignore(key, a.line, ReasonNotModelled)
			}
		}
	}
	if !seen["value"] && !seen["delay"] {
		r.def("@Backoff.delay", "1000 (milliseconds)")
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Constant, Factor: 1, Jitter: backoff.NoJitter}
	r.attempts("maxAttempts", formatFloat(attempts), attempts, 0)
	r.duration(&p.Base, "delay", secondsText(delay), delay, 0, false)
	switch {
	case mult > 0:
		p.Growth = backoff.Exponential
		r.factor("multiplier", formatFloat(mult), mult, 0)
		max := maxDelay
		if max <= delay {
			max = springDefaultMaxInterval
			r.def("maxDelay", "30000 (ExponentialBackOffPolicy's default maximum)")
		}
		r.duration(&p.Cap, "maxDelay", secondsText(max), max, 0, true)
		if random && mult > 1 {
			// next * (1 + U[0,1) * (multiplier - 1)), then clamped to the
			// maximum again: the cap applies after jitter.
			p.Jitter, p.JitterLo, p.JitterHi, p.CapMode = backoff.Proportional, 1, mult, backoff.CapAfterJitter
		}
	case maxDelay > delay:
		p.Jitter, p.JitterAdd = backoff.Additive, backoff.Seconds(maxDelay-delay)
	}
	if p.Jitter != backoff.NoJitter {
		r.warn(CodeRounding, 0, []string{"1ms"}, "Spring Retry draws whole milliseconds")
	}
	r.capSanity()
	return nil
}
