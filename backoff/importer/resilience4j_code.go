package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// resilience4j configured in Java, not in a Spring file:
//
//	RetryConfig.custom()
//	    .maxAttempts(3)
//	    .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(500), 2, Duration.ofSeconds(5)))
//	    .build();
//
// read as RetryConfig.Builder and IntervalFunction (resilience4j 2.4.0)
// run it: maxAttempts 3 and a fixed 500 ms when unset; waitDuration(d) is
// IntervalFunction.of(d); ofExponentialBackoff(i, m[, max]) multiplies the
// interval by m in whole milliseconds (1.5 when m is not given), capped at
// max; ofExponentialRandomBackoff and ofRandomized draw the interval times
// U[1-f, 1+f] (f 0.5 by default), capped at max after the draw.

const r4jCodeSource = "resilience4j resilience4j-retry RetryConfig.java, resilience4j-core IntervalFunction.java (2.4.0)"

// r4jBuilders are the RetryConfig.custom() chains.
func r4jBuilders(c *code) []callSite {
	if !c.hasIdent("RetryConfig") {
		return nil
	}
	return c.callsNamed(" RetryConfig.custom io.github.resilience4j.retry.RetryConfig.custom ")
}

func readR4jBuilder(c *code, r *reader, site callSite) error {
	r.res.Source = r4jCodeSource
	p := &r.res.Policy
	attempts, wait := 3.0, 0.5
	seenAttempts, seenWait := false, false
	kind := "of" // the interval function
	init, mult, factor, maxI := 0.5, 1.5, 0.5, 0.0
	end := c.chainEnd(site.open)
	ms := func(key string, a arg) (float64, bool) {
		return r.durValue(key, c.evalArg(a), 1e-3, nil, "")
	}
	for k := c.match[site.open] + 1; k < end; {
		name := c.ident(k + 1)
		open := k + 2
		as := c.args(open)
		line := c.line(k + 1)
		switch name {
		case "maxAttempts":
			if len(as) == 1 {
				seenAttempts = true
				if f, ok := r.numValue("maxAttempts", c.evalArg(as[0]), "3"); ok {
					attempts = f
				}
			}
		case "waitDuration":
			if len(as) == 1 {
				seenWait = true
				if f, ok := ms("waitDuration", as[0]); ok {
					wait, kind = f, "of"
				}
			}
		case "intervalFunction":
			if len(as) != 1 {
				break
			}
			v := c.evalArg(as[0])
			fn := short(v.str)
			if v.kind != vCall || !strings.HasPrefix(v.str, "IntervalFunction.") {
				r.unreadable("intervalFunction", v.text, v.line, "a fixed 500ms")
				break
			}
			r.set("intervalFunction", v.text, v.line)
			seenWait = true
			fa := v.args
			num := func(i int, key string, dst *float64) {
				if i < len(fa) {
					if f, ok := r.numValue("IntervalFunction."+fn+"."+key, c.evalArg(fa[i]), ""); ok {
						*dst = f
					}
				}
			}
			dur := func(i int, key string, dst *float64) {
				if i < len(fa) {
					if f, ok := r.durValue("IntervalFunction."+fn+"."+key, c.evalArg(fa[i]), 1e-3, nil, ""); ok {
						*dst = f
					}
				}
			}
			switch fn {
			case "ofDefaults":
				kind, wait = "of", 0.5
			case "of":
				kind = "of"
				dur(0, "interval", &wait)
			case "ofRandomized":
				kind = "random"
				dur(0, "interval", &wait)
				num(1, "randomizationFactor", &factor)
			case "ofExponentialBackoff":
				kind = "exp"
				dur(0, "initialInterval", &init)
				num(1, "multiplier", &mult)
				dur(2, "maxInterval", &maxI)
			case "ofExponentialRandomBackoff":
				kind = "exprandom"
				dur(0, "initialInterval", &init)
				num(1, "multiplier", &mult)
				// (i, m, max) or (i, m, factor[, max]): a Duration or a
				// long third argument is the max only with three.
				if len(fa) == 3 {
					if v := c.evalArg(fa[2]); v.kind == vDur || v.kind == vNum && v.num >= 1 {
						dur(2, "maxInterval", &maxI)
					} else {
						num(2, "randomizationFactor", &factor)
					}
				} else {
					num(2, "randomizationFactor", &factor)
					dur(3, "maxInterval", &maxI)
				}
			default:
				r.unreadable("intervalFunction", v.text, v.line, "a fixed 500ms")
				kind, seenWait = "of", false
			}
		case "retryExceptions", "ignoreExceptions", "retryOnException", "retryOnResult", "retryOnExceptionPredicate",
			"ignoreExceptionPredicate", "consumeResultBeforeRetryAttempt":
			r.ignore(name, line, ReasonClassify)
		case "build", "":
		default:
			r.ignore(name, line, ReasonNotModelled)
		}
		if m := c.match[open]; m > open {
			k = m + 1
		} else {
			break
		}
	}
	if !seenAttempts {
		r.def("maxAttempts", "3")
	}
	if !seenWait {
		r.def("waitDuration", "500 (milliseconds)")
	}
	*p = backoff.Policy{Growth: backoff.Constant, Factor: 1, Jitter: backoff.NoJitter}
	r.attempts("maxAttempts", formatFloat(attempts), attempts, 0)
	switch kind {
	case "of", "random":
		r.duration(&p.Base, "interval", secondsText(wait), wait, 0, false)
	default:
		p.Growth = backoff.Exponential
		r.duration(&p.Base, "initialInterval", secondsText(init), init, 0, false)
		r.factor("multiplier", formatFloat(mult), mult, 0)
		if maxI > 0 {
			r.duration(&p.Cap, "maxInterval", secondsText(maxI), maxI, 0, true)
			p.CapMode = backoff.CapAfterJitter
		}
	}
	if kind == "random" || kind == "exprandom" {
		if !(factor >= 0 && factor < 1) {
			r.warn(CodeInvalid, 0, []string{"randomizationFactor", formatFloat(factor)},
				"randomizationFactor is %s: resilience4j wants a number from 0 up to 1 and refuses it otherwise", formatFloat(factor))
			factor = 0.5
		}
		setSpan(p, 1-factor, 1+factor)
	}
	if kind != "of" {
		r.warn(CodeRounding, 0, []string{"1ms"}, "resilience4j works in whole milliseconds: it truncates every wait")
	}
	r.capSanity()
	return nil
}
