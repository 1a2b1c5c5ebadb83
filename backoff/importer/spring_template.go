package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// A RetryTemplate set up by its setters (Spring Retry's RetryTemplate.java
// and the policies' setters):
//
//	RetryTemplate template = new RetryTemplate();
//	ExponentialBackOffPolicy backOff = new ExponentialBackOffPolicy();
//	backOff.setInitialInterval(1000);
//	backOff.setMultiplier(2.0);
//	template.setBackOffPolicy(backOff);
//	template.setRetryPolicy(new SimpleRetryPolicy(5));
//
// A template with no back-off policy set has NoBackOffPolicy, and with
// no retry policy SimpleRetryPolicy(3). Kotlin's property syntax
// (backOff.initialInterval = 1000) and apply { } blocks read the same.

// springObject is a policy object: its class, its constructor's
// arguments, and the variable it is bound to ("" for one built in
// place).
type springObject struct {
	class string
	open  int // the constructor's bracket
	name  string
	line  int
}

// springObjectOf resolves a setter's argument: new X(...) in place, or a
// variable bound to one.
func springObjectOf(c *code, a arg) (springObject, bool) {
	k := a.from
	if c.ident(k) == "new" {
		k++
	}
	if name, j := c.name(k); name != "" && c.is(j, "(") && c.match[j] > j {
		return springObject{class: short(name), open: j, line: c.line(k)}, true
	}
	name, j := c.name(a.from)
	if name == "" || j != a.to {
		return springObject{}, false
	}
	for _, cs := range c.calls(func(n string) bool { return strings.HasSuffix(n, "Policy") }) {
		if c.ident(cs.at-1) == "new" && c.is(cs.open, "(") && sameVar(c.siteVar(cs.at), name) {
			return springObject{class: short(cs.name), open: cs.open, name: name, line: cs.line}, true
		}
	}
	return springObject{}, false
}

// sameVar compares variables without a this. or self. in front.
func sameVar(a, b string) bool {
	trim := func(s string) string { return strings.TrimPrefix(strings.TrimPrefix(s, "this."), "self.") }
	return a != "" && trim(a) == trim(b)
}

// setterRecv is a call's receiver: x in x.setY(v), and in Java's cast
// ((T) x).setY(v); the call's own name when it has none.
func setterRecv(c *code, cs callSite) string {
	if recv := strings.TrimSuffix(cs.name, "."+short(cs.name)); recv != cs.name {
		return recv
	}
	if k := cs.at; c.is(k-1, ".") && c.is(k-2, ")") {
		if open := c.match[k-2]; open >= 0 && c.is(open+1, "(") {
			if m := c.match[open+1]; m > open+1 {
				if v, j := c.name(m + 1); v != "" && j == k-2 {
					return v
				}
			}
		}
	}
	return cs.name
}

// springSetters are the setter calls on obj (obj.setX(v), or setX(v) in
// an apply { } right after its constructor) and property assignments
// (obj.x = v), by the property's name (initialInterval).
func springSetters(c *code, obj springObject) map[string]*value {
	out := map[string]*value{}
	applyEnd := -1
	if m := c.match[obj.open]; m > 0 && c.is(m+1, ".") && c.ident(m+2) == "apply" && c.is(m+3, "{") && c.match[m+3] > m {
		applyEnd = c.match[m+3]
	}
	for _, cs := range c.calls(func(n string) bool { return strings.HasPrefix(short(n), "set") }) {
		recv := setterRecv(c, cs)
		inApply := applyEnd > 0 && cs.at > c.match[obj.open] && cs.at < applyEnd && recv == cs.name
		if !inApply && (obj.name == "" || recv == cs.name || !sameVar(recv, obj.name)) {
			continue
		}
		as := c.args(cs.open)
		if len(as) != 1 || !c.is(cs.open, "(") {
			continue
		}
		prop := strings.TrimPrefix(short(cs.name), "set")
		prop = strings.ToLower(prop[:min(1, len(prop))]) + prop[min(1, len(prop)):]
		out[prop] = c.evalArg(as[0])
	}
	for _, as := range c.assignments(func(string) bool { return true }) {
		if obj.name != "" && sameVar(as.target, obj.name) || applyEnd > 0 && as.at > c.match[obj.open] && as.at < applyEnd {
			out[as.field] = c.eval(as.from, as.to)
		}
	}
	if applyEnd > 0 { // Kotlin: apply { initialInterval = 1000 }
		for k := c.match[obj.open] + 4; k < applyEnd; k++ {
			if c.ident(k) != "" && c.is(k+1, "=") && !c.is(k-1, ".") && c.parent[k] == c.match[obj.open]+3 {
				if end := c.defEnd(k + 2); end > 0 {
					out[c.toks[k].text] = c.eval(k+2, end)
				}
			}
		}
	}
	return out
}

// readTemplateSetters reads a new RetryTemplate() and its setters.
func readTemplateSetters(c *code, r *reader, site callSite) error {
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.None, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3}
	r.res.Source = "spring-projects/spring-retry RetryTemplate.java, SimpleRetryPolicy.java, ExponentialBackOffPolicy.java, ExponentialRandomBackOffPolicy.java, " +
		"FixedBackOffPolicy.java, UniformRandomBackOffPolicy.java, TimeoutRetryPolicy.java (2.0.12)"
	tmpl := c.siteVar(site.at)
	var retry, back *springObject
	setPolicy := func(setter string, a arg, line int) {
		obj, ok := springObjectOf(c, a)
		if !ok {
			r.unreadable(setter, c.text(a.from, a.to), line, "the template's default")
			return
		}
		if setter == "setRetryPolicy" {
			retry = &obj
		} else {
			back = &obj
		}
	}
	for _, cs := range c.callsShort(" setRetryPolicy setBackOffPolicy ") {
		recv := setterRecv(c, cs)
		if as := c.args(cs.open); sameVar(recv, tmpl) && len(as) == 1 {
			setPolicy(short(cs.name), as[0], cs.line)
		}
	}
	for _, as := range c.assignments(func(f string) bool { return f == "retryPolicy" || f == "backOffPolicy" }) {
		if sameVar(as.target, tmpl) { // Kotlin: template.backOffPolicy = ...
			setPolicy("set"+strings.ToUpper(as.field[:1])+as.field[1:], arg{from: as.from, to: as.to, line: as.line}, as.line)
		}
	}
	ms := func(key string, v *value, instead string) (float64, bool) {
		return r.durValue(key, v, 1e-3, nil, instead)
	}
	if retry == nil {
		r.def("retryPolicy", "SimpleRetryPolicy(3)")
	} else {
		set := springSetters(c, *retry)
		as := c.args(retry.open)
		r.set("retryPolicy", retry.class, retry.line)
		switch retry.class {
		case "SimpleRetryPolicy", "MaxAttemptsRetryPolicy":
			v := set["maxAttempts"]
			if v == nil && len(as) > 0 {
				v = c.evalArg(as[0])
			}
			if v == nil {
				r.def("maxAttempts", "3")
			} else if f, ok := r.numValue("maxAttempts", v, "3"); ok {
				r.attempts("maxAttempts", v.text, f, v.line)
			}
		case "TimeoutRetryPolicy":
			// canRetry while the time since the first try is at most the
			// timeout: no limit on attempts.
			p.Attempts = 0
			v := set["timeout"]
			if v == nil && len(as) > 0 {
				v = c.evalArg(as[0])
			}
			sec := 1.0
			if v == nil {
				r.def("timeout", "1000 (milliseconds)")
			} else if f, ok := ms("timeout", v, "1000"); ok {
				sec = f
			}
			r.deadlineTimeout("timeout", secondsText(sec), sec, retry.line, "TimeoutRetryPolicy")
		case "NeverRetryPolicy":
			p.Attempts = 1
		case "AlwaysRetryPolicy":
			p.Attempts = 0
		default:
			r.unreadable("retryPolicy", retry.class, retry.line, "SimpleRetryPolicy(3)")
		}
	}
	if back == nil {
		r.def("backOffPolicy", "NoBackOffPolicy")
		r.capSanity()
		return nil
	}
	set := springSetters(c, *back)
	r.set("backOffPolicy", back.class, back.line)
	num := func(key string, def float64, instead string, unit float64) float64 {
		v := set[key]
		if v == nil {
			r.def(key, instead)
			return def
		}
		if unit > 0 {
			if f, ok := ms(key, v, instead); ok {
				return f
			}
			return def
		}
		if f, ok := r.numValue(key, v, instead); ok {
			return f
		}
		return def
	}
	switch back.class {
	case "NoBackOffPolicy":
	case "FixedBackOffPolicy":
		// setBackOffPeriod: at least 1ms; 1000 by default.
		period := num("backOffPeriod", 1, "1000", 1e-3)
		p.Growth = backoff.Constant
		r.duration(&p.Base, "backOffPeriod", secondsText(max(period, 0.001)), max(period, 0.001), back.line, false)
	case "UniformRandomBackOffPolicy":
		lo := max(num("minBackOffPeriod", 0.5, "500", 1e-3), 0.001)
		hi := max(num("maxBackOffPeriod", 1.5, "1500", 1e-3), 0.001)
		p.Growth = backoff.Constant
		r.duration(&p.Base, "minBackOffPeriod", secondsText(lo), lo, back.line, false)
		if hi > lo { // min + nextInt(max - min): whole milliseconds below max
			p.Jitter = backoff.Additive
			r.duration(&p.JitterAdd, "maxBackOffPeriod", secondsText(hi), hi-lo, back.line, false)
			r.warn(CodeRounding, 0, []string{"1ms"}, "Spring Retry draws whole milliseconds")
		}
	case "ExponentialBackOffPolicy", "ExponentialRandomBackOffPolicy":
		// setInitialInterval: at least 1ms; setMultiplier: at least 1;
		// setMaxInterval: at least 1ms. Each interval is the last times
		// the multiplier, in whole milliseconds.
		init := max(num("initialInterval", 0.1, "100", 1e-3), 0.001)
		mult := max(num("multiplier", 2, "2.0", 0), 1)
		maxI := max(num("maxInterval", 30, "30000", 1e-3), 0.001)
		p.Growth = backoff.Exponential
		r.duration(&p.Base, "initialInterval", secondsText(init), init, back.line, false)
		r.factor("multiplier", formatFloat(mult), mult, back.line)
		r.duration(&p.Cap, "maxInterval", secondsText(maxI), maxI, back.line, true)
		if back.class == "ExponentialRandomBackOffPolicy" && mult > 1 {
			// next * (1 + U[0,1) * (multiplier - 1)), clamped to the max.
			p.Jitter, p.JitterLo, p.JitterHi, p.CapMode = backoff.Proportional, 1, min(mult, backoff.MaxJitterFactor), backoff.CapAfterJitter
			r.warn(CodeRounding, 0, []string{"1ms"}, "Spring Retry draws whole milliseconds")
		}
	default:
		r.unreadable("backOffPolicy", back.class, back.line, "NoBackOffPolicy")
	}
	r.capSanity()
	return nil
}
