package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "spring-retry", detect: 10, doc: 8, source: springSource, policies: springPolicies, read: readSpring})
}

const springSource = "spring-projects/spring-retry AnnotationAwareRetryOperationsInterceptor.java, ExponentialBackOffPolicy.java, ExponentialRandomBackOffPolicy.java, UniformRandomBackOffPolicy.java, Retryable.java, Backoff.java (2.0.12)"

// springDefaultMaxInterval is ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL,
// used when maxDelay is not above delay.
const springDefaultMaxInterval = 30.0

func springRetryable(c *code) []callSite {
	return c.callsNamed(" Retryable org.springframework.retry.annotation.Retryable ")
}

// springSite is one Spring Retry policy: an annotation, a bare @Backoff,
// a RetryTemplate.builder() chain, or a new RetryTemplate() with setters.
type springSite struct {
	kind int
	cs   callSite
}

const (
	springAnnotation = iota
	springBackoffOnly
	springBuilder
	springTemplate
)

func springSites(c *code) []springSite {
	var out []springSite
	for _, cs := range springRetryable(c) {
		if c.is(cs.at-1, "@") {
			out = append(out, springSite{springAnnotation, cs})
		}
	}
	for _, cs := range c.callsNamed(" RetryTemplate.builder ") {
		out = append(out, springSite{springBuilder, cs})
	}
	for _, cs := range c.callsShort(" RetryTemplate ") {
		// Java's new RetryTemplate(), Kotlin's = RetryTemplate()
		if (c.ident(cs.at-1) == "new" || c.is(cs.at-1, "=")) && c.is(cs.open, "(") {
			out = append(out, springSite{springTemplate, cs})
		}
	}
	if len(out) == 0 {
		for _, cs := range c.callsNamed(" Backoff ") {
			if c.is(cs.at-1, "@") {
				out = append(out, springSite{springBackoffOnly, cs})
				break
			}
		}
	}
	sortBy(len(out), func(i, j int) bool { return out[i].cs.at < out[j].cs.at }, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func springPolicies(in *input) ([]site, string) {
	c := in.tokens()
	ss := springSites(c)
	out := make([]site, len(ss))
	for i, s := range ss {
		out[i] = site{name: c.siteName(s.cs), line: s.cs.line, at: i}
	}
	return out, ""
}

// readSpring reads a @Retryable and its @Backoff as Spring Retry's
// annotation interceptor builds the policy: a multiplier above 0 makes an
// exponential back-off (random: times U[1, multiplier)) with a maximum of
// maxDelay when above delay, else 30s; a maxDelay above delay without a
// multiplier a uniform one in [delay, maxDelay); else a fixed delay.
// Delays are in milliseconds; maxAttempts counts the first call. A
// RetryTemplate is read from its builder or its setters.
func readSpring(in *input, r *reader, s site) error {
	c := in.tokens()
	ss := springSites(c)[s.at]
	attempts := 3.0
	var bo *value
	switch ss.kind {
	case springBuilder:
		return readRetryTemplate(c, r, ss.cs)
	case springTemplate:
		return readTemplateSetters(c, r, ss.cs)
	case springAnnotation:
		seen := false
		if ss.cs.open >= 0 {
			for _, a := range c.args(ss.cs.open) {
				v := c.evalArg(a)
				switch a.key {
				case "maxAttempts":
					seen = true
					r.readNum(&attempts, a.key, v, "3")
				case "maxAttemptsExpression":
					seen = true
					r.readNum(&attempts, a.key, v, "3")
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
	case springBackoffOnly:
		bs := ss.cs
		bo = &value{kind: vCall, str: "Backoff", open: bs.open, line: bs.line}
		if bs.open >= 0 {
			bo.args = c.args(bs.open)
		}
		r.def("maxAttempts", "3")
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
				if f, ok := r.durValue(key, v, 1e-3, func(s string) (float64, bool) { return springSeconds(s) }, "1000"); ok {
					// value and delay are aliases; every back-off policy
					// turns a period below 1ms into 1ms (setBackOffPeriod,
					// setInitialInterval, setMinBackOffPeriod).
					if f < 0.001 {
						r.warn(CodeRange, v.line, []string{key, v.text, "1ms"}, "%s is %s: Spring Retry waits at least 1ms", key, v.text)
						f = 0.001
					}
					delay = f
				}
			case "maxDelay", "maxDelayExpression":
				if f, ok := r.durValue(key, v, 1e-3, func(s string) (float64, bool) { return springSeconds(s) }, "0"); ok {
					maxDelay = f
				}
			case "multiplier", "multiplierExpression":
				r.readNum(&mult, key, v, "0")
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
	if !seen["value"] && !seen["delay"] && !seen["delayExpression"] {
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

// readRetryTemplate reads RetryTemplate.builder()'s chain (Spring Retry
// RetryTemplateBuilder.java): maxAttempts (3 when unset), within (an
// overall timeout), infiniteRetry; exponentialBackoff(initial,
// multiplier, max[, random]), fixedBackoff, uniformRandomBackoff, or no
// back-off at all when none is set. Numbers are milliseconds.
func readRetryTemplate(c *code, r *reader, site callSite) error {
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.None, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3}
	seenAttempts, seenBackoff := false, false
	ms := func(key string, a arg, instead string) (float64, bool) {
		return r.durValue(key, c.evalArg(a), 1e-3, nil, instead)
	}
	end := c.chainEnd(site.open)
	for _, cs := range c.callsNamed(" maxAttempts infiniteRetry within withinMillis withinDuration exponentialBackoff fixedBackoff " +
		"uniformRandomBackoff noBackoff retryOn notRetryOn traversingCauses customPolicy customBackoff ") {
		if !c.is(cs.at-1, ".") || cs.at < site.at || cs.at >= end {
			continue
		}
		as := c.args(cs.open)
		switch cs.name {
		case "maxAttempts":
			seenAttempts = true
			if len(as) == 1 {
				if f, ok := r.numValue("maxAttempts", c.evalArg(as[0]), "3"); ok {
					r.attempts("maxAttempts", formatFloat(f), f, cs.line)
				}
			}
		case "infiniteRetry":
			seenAttempts = true
			r.set("infiniteRetry", "()", cs.line)
			p.Attempts = 0
		case "within", "withinMillis", "withinDuration":
			if len(as) == 1 {
				if f, ok := ms(cs.name, as[0], "no deadline"); ok {
					r.deadlineTimeout(cs.name, c.text(as[0].from, as[0].to), f, cs.line, "RetryTemplate")
				}
			}
		case "exponentialBackoff":
			seenBackoff = true
			if len(as) < 3 {
				r.unreadable("exponentialBackoff", c.text(cs.open, c.match[cs.open]+1), cs.line, "no back-off")
				continue
			}
			init, ok1 := ms("exponentialBackoff.initialInterval", as[0], "")
			mult, ok2 := r.numValue("exponentialBackoff.multiplier", c.evalArg(as[1]), "")
			max, ok3 := ms("exponentialBackoff.maxInterval", as[2], "")
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			p.Growth = backoff.Exponential
			r.duration(&p.Base, "initialInterval", secondsText(init), init, cs.line, false)
			r.factor("multiplier", formatFloat(mult), mult, cs.line)
			r.duration(&p.Cap, "maxInterval", secondsText(max), max, cs.line, true)
			if len(as) == 4 {
				if rnd, ok := r.boolValue("exponentialBackoff.withRandom", c.evalArg(as[3]), "false"); ok && rnd && mult > 1 {
					p.Jitter, p.JitterLo, p.JitterHi, p.CapMode = backoff.Proportional, 1, min(mult, backoff.MaxJitterFactor), backoff.CapAfterJitter
					r.warn(CodeRounding, 0, []string{"1ms"}, "Spring Retry draws whole milliseconds")
				}
			}
		case "fixedBackoff":
			seenBackoff = true
			if len(as) == 1 {
				if f, ok := ms("fixedBackoff", as[0], "no back-off"); ok {
					p.Growth = backoff.Constant
					r.duration(&p.Base, "fixedBackoff", secondsText(f), f, cs.line, false)
				}
			}
		case "uniformRandomBackoff":
			seenBackoff = true
			if len(as) == 2 {
				lo, ok1 := ms("uniformRandomBackoff.min", as[0], "")
				hi, ok2 := ms("uniformRandomBackoff.max", as[1], "")
				if ok1 && ok2 {
					p.Growth = backoff.Constant
					r.duration(&p.Base, "min", secondsText(lo), lo, cs.line, false)
					if hi > lo {
						p.Jitter = backoff.Additive
						r.duration(&p.JitterAdd, "max", secondsText(hi), hi-lo, cs.line, false)
						r.warn(CodeRounding, 0, []string{"1ms"}, "Spring Retry draws whole milliseconds")
					}
				}
			}
		case "noBackoff":
			seenBackoff = true
			r.set("noBackoff", "()", cs.line)
		case "retryOn", "notRetryOn", "traversingCauses":
			r.ignore(cs.name, cs.line, ReasonClassify)
		default:
			r.unreadable(cs.name, c.text(cs.open, c.match[cs.open]+1), cs.line, "")
		}
	}
	if !seenAttempts {
		r.def("maxAttempts", "3")
	}
	if !seenBackoff {
		r.def("back-off", "none (NoBackOffPolicy)")
	}
	if p.Growth == backoff.None {
		p.Base = 0
	}
	r.res.Source = "spring-projects/spring-retry RetryTemplateBuilder.java, ExponentialBackOffPolicy.java, ExponentialRandomBackOffPolicy.java, UniformRandomBackOffPolicy.java (2.0.12)"
	r.capSanity()
	return nil
}
