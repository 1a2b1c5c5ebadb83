package importer

import (
	"math"
	"slices"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "tenacity", detect: 6, doc: 1, source: tenacitySource, policies: tenacityPolicies, read: readTenacity})
}

const tenacitySource = "jd/tenacity tenacity/wait.py, tenacity/stop.py, tenacity/__init__.py (9.1.4)"

// tenacityMaxWait is tenacity's _utils.MAX_WAIT (sys.maxsize / 2
// seconds): no cap.
const tenacityMaxWait = math.MaxInt64 / 2

func tenacityCalls(c *code) []callSite {
	return c.callsNamed(" retry tenacity.retry Retrying tenacity.Retrying AsyncRetrying tenacity.AsyncRetrying ")
}

func tenacityPolicies(in *input) ([]site, string) {
	c := in.tokens()
	if !c.hasIdent("tenacity") && !c.hasIdent("wait_exponential", "wait_fixed", "stop_after_attempt", "wait_random_exponential",
		"wait_exponential_jitter", "stop_never", "wait_incrementing", "stop_after_delay", "stop_before_delay", "Retrying", "AsyncRetrying") {
		return nil, ""
	}
	return codeSites(c, tenacityCalls(c)), ""
}

// codeSites names call sites for a list.
func codeSites(c *code, cs []callSite) []site {
	out := make([]site, len(cs))
	for i, s := range cs {
		out[i] = site{name: c.siteName(s), line: s.line, at: i}
	}
	return out
}

// readTenacity reads a @retry(...), Retrying(...) or AsyncRetrying(...):
// its stop and wait, both tenacity's defaults (stop_never, wait_none)
// when unset.
func readTenacity(in *input, r *reader, s site) error {
	c := in.tokens()
	cs := tenacityCalls(c)[s.at:]
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.None, Factor: 1, Jitter: backoff.NoJitter}
	var stop, wait *value
	if cs[0].open >= 0 && c.is(cs[0].open, "(") {
		for _, a := range c.args(cs[0].open) {
			switch a.key {
			case "stop":
				stop = c.evalArg(a)
			case "wait":
				wait = c.evalArg(a)
			case "retry", "retry_error_callback":
				r.ignore(a.key, a.line, ReasonClassify)
			default:
				r.ignore(orPositional(a.key), a.line, ReasonNotModelled)
			}
		}
	}
	if stop == nil {
		r.def("stop", "stop_never")
	} else {
		readTenacityStop(r, stop)
	}
	if wait == nil {
		r.def("wait", "wait_none()")
	} else {
		readTenacityWait(r, wait)
	}
	r.capSanity()
	return nil
}

func orPositional(key string) string {
	if key == "" {
		return "a positional argument"
	}
	return key
}

// terms flattens v's operations op (a + b + c) into their operands, in
// order. The evaluator builds a + b + c as ((a + b) + c), as deep as the
// sum is long: the walk keeps its own stack.
func terms(v *value, op string) []*value {
	var out []*value
	stack := []*value{v}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.kind == vOp && n.op == op {
			stack = append(stack, n.r, n.l)
			continue
		}
		out = append(out, n)
	}
	return out
}

// callArgs maps a call's arguments to names: keywords as given,
// positionals by the parameter list.
func callArgs(c *code, v *value, params ...string) (map[string]*value, bool) {
	out := map[string]*value{}
	for i, a := range v.args {
		key := a.key
		if key == "" {
			if i >= len(params) {
				return nil, false
			}
			key = params[i]
		}
		out[key] = c.evalArg(a)
	}
	return out, true
}

func readTenacityStop(r *reader, v *value) {
	p := &r.res.Policy
	c := r.code
	for _, t := range terms(v, "|") {
		name := short(t.str)
		if t.kind == vName && name == "stop_never" {
			r.set("stop", "stop_never", t.line)
			continue
		}
		if t.kind != vCall {
			r.unreadable("stop", t.text, v.line, "stop_never")
			continue
		}
		args, ok := callArgs(c, t, "max_attempt_number")
		if name == "stop_after_delay" || name == "stop_before_delay" {
			args, ok = callArgs(c, t, "max_delay")
		}
		switch {
		case !ok:
			r.unreadable("stop", t.text, t.line, "stop_never")
		case name == "stop_after_attempt":
			if a := args["max_attempt_number"]; a != nil {
				if n, ok := r.numValue("stop_after_attempt", a, "no limit"); ok {
					r.attempts("stop_after_attempt", a.text, n, a.line)
				}
			}
		case name == "stop_before_delay" || name == "stop_after_delay":
			if a := args["max_delay"]; a != nil {
				if sec, ok := r.durValue(name, a, 1, nil, "no deadline"); ok {
					r.duration(&p.Deadline, name, a.text, sec, a.line, true)
					if name == "stop_after_delay" {
						r.warn(CodeRange, a.line, []string{name, a.text, a.text}, "stop_after_delay checks the time when a try fails, "+
							"so a retry may start up to one wait after %s; read as the deadline (stop_before_delay is exact)", secondsText(sec))
					}
				}
			}
		default:
			r.unreadable("stop", t.text, t.line, "stop_never")
		}
	}
}

// readTenacityWait reads a sum of waits into one policy: an exponential
// (wait_exponential, wait_random_exponential, both for a proportional
// spread, or wait_exponential_jitter), a constant (wait_fixed), a linear
// one (wait_incrementing), plus wait_random as additive jitter and more
// wait_fixed as an offset.
func readTenacityWait(r *reader, v *value) {
	p := &r.res.Policy
	c := r.code
	// min is the wait's floor, read at minLine.
	type exp struct {
		mult, max, base, min float64
		minLine              int
	}
	var fixed []float64
	var exps, rexps []exp
	var ejit *struct{ initial, max, base, jitter float64 }
	var randoms [][2]float64
	var inc *struct{ start, increment, max float64 }
	num := func(args map[string]*value, key, call string, def float64) float64 {
		a := args[key]
		if a == nil {
			return def
		}
		if a.kind == vNum && math.IsInf(a.num, 1) {
			return def
		}
		instead := formatFloat(def)
		if def >= tenacityMaxWait/2 {
			instead = "no maximum (MAX_WAIT)"
		}
		sec, ok := r.durValue(call+"."+key, a, 1, nil, instead)
		if !ok {
			return def
		}
		return sec
	}
	for _, t := range terms(v, "+") {
		name := short(t.str)
		if t.kind == vName && name == "wait_none" {
			continue
		}
		if t.kind != vCall {
			r.unreadable("wait", t.text, t.line, "no wait")
			continue
		}
		var args map[string]*value
		var ok bool
		switch name {
		case "wait_none":
			continue
		case "wait_fixed":
			if args, ok = callArgs(c, t, "wait"); ok {
				fixed = append(fixed, num(args, "wait", name, 0))
			}
		case "wait_random":
			if args, ok = callArgs(c, t, "min", "max"); ok {
				randoms = append(randoms, [2]float64{num(args, "min", name, 0), num(args, "max", name, 1)})
			}
		case "wait_exponential", "wait_random_exponential", "wait_full_jitter":
			if args, ok = callArgs(c, t, "multiplier", "max", "exp_base", "min"); ok {
				e := exp{num(args, "multiplier", name, 1), num(args, "max", name, tenacityMaxWait), 2, num(args, "min", name, 0), 0}
				if a := args["exp_base"]; a != nil {
					if f, ok := r.numValue(name+".exp_base", a, "2"); ok {
						e.base = f
					}
				}
				if a := args["min"]; a != nil {
					e.minLine = a.line
				}
				if name == "wait_exponential" {
					exps = append(exps, e)
				} else {
					rexps = append(rexps, e)
				}
			}
		case "wait_exponential_jitter":
			if args, ok = callArgs(c, t, "initial", "max", "exp_base", "jitter", "min", "multiplier"); ok {
				if _, has := args["initial"]; !has && args["multiplier"] != nil { // tenacity after 9.1.4
					args["initial"] = args["multiplier"]
				}
				ejit = &struct{ initial, max, base, jitter float64 }{num(args, "initial", name, 1), num(args, "max", name, tenacityMaxWait), 2, num(args, "jitter", name, 1)}
				if a := args["exp_base"]; a != nil {
					if f, ok := r.numValue(name+".exp_base", a, "2"); ok {
						ejit.base = f
					}
				}
				// tenacity after 9.1.4: max(min, min(initial * b^(n-1) +
				// U(0, jitter), max)), a floor after the jitter, where the
				// policy's floor comes before it. It binds only when it
				// passes initial or max.
				if a := args["min"]; a != nil {
					if m := num(args, "min", name, 0); m > ejit.initial || m > ejit.max {
						r.warn(CodeRange, a.line, []string{name + ".min", a.text, "0"},
							"%s's min of %ss is a floor after the jitter (tenacity after 9.1.4), which the policy's floor, raised before the jitter, is not: it is left out", name, formatFloat(m))
					}
				}
			}
		case "wait_incrementing":
			if args, ok = callArgs(c, t, "start", "increment", "max"); ok {
				inc = &struct{ start, increment, max float64 }{num(args, "start", name, 0), num(args, "increment", name, 100), num(args, "max", name, tenacityMaxWait)}
			}
		default:
			r.unreadable("wait", t.text, t.line, "no wait")
			continue
		}
		if !ok {
			r.unreadable("wait", t.text, t.line, "no wait")
		} else {
			r.set("wait", t.text, t.line)
		}
	}
	capOf := func(max float64) float64 {
		if max >= tenacityMaxWait/2 {
			return 0
		}
		return max
	}
	setCap := func(max float64) {
		if c := capOf(max); c > 0 {
			r.duration(&p.Cap, "max", formatFloat(c), c, 0, true)
		}
	}
	extra := func(what string) {
		r.warn(CodeIgnored, v.line, []string{what, ReasonNotModelled}, "%s in this sum of waits has no place in one policy: it is left out", what)
	}
	offset := 0.0
	for _, f := range fixed {
		offset += f
	}
	switch {
	case ejit != nil:
		// min(initial * exp_base^(n-1) + U[0, jitter], max)
		*p = backoff.Policy{Growth: backoff.Exponential, Base: backoff.Seconds(ejit.initial), Jitter: backoff.Additive,
			JitterAdd: backoff.Seconds(ejit.jitter), CapMode: backoff.CapAfterJitter, Attempts: p.Attempts, Deadline: p.Deadline}
		r.factor("exp_base", formatFloat(ejit.base), ejit.base, 0)
		setCap(ejit.max)
		if len(exps)+len(rexps)+len(randoms) > 0 || inc != nil {
			extra("a second growing wait")
		}
		if offset > 0 {
			p.CapMode = backoff.CapBeforeJitter
			if p.Cap > 0 {
				extra("wait_fixed")
				offset = 0
			}
		}
	case len(exps)+len(rexps) > 0:
		// m1 * b^(n-1) capped + U[0, m2 * b^(n-1) capped]: d * U[m1/(m1+m2), 1) on d = (m1+m2) * b^(n-1).
		var m1, m2, max1, max2, base float64
		if len(exps) > 0 {
			m1, max1, base = exps[0].mult, exps[0].max, exps[0].base
		}
		if len(rexps) > 0 {
			m2, max2, base = rexps[0].mult, rexps[0].max, rexps[0].base
		}
		if len(exps) > 1 || len(rexps) > 1 || len(exps) == 1 && len(rexps) == 1 && exps[0].base != rexps[0].base || inc != nil {
			extra("a second growing wait")
		}
		*p = backoff.Policy{Growth: backoff.Exponential, Base: backoff.Seconds(m1 + m2), Jitter: backoff.NoJitter, Attempts: p.Attempts, Deadline: p.Deadline}
		r.factor("exp_base", formatFloat(base), base, 0)
		c1, c2 := capOf(max1), capOf(max2)
		switch {
		case len(exps) == 0:
			setCap(max2)
		case len(rexps) == 0:
			setCap(max1)
		case c1 > 0 && c2 > 0:
			setCap(c1 + c2)
		case c1 > 0 || c2 > 0:
			extra("the max of only one of the exponential waits")
		}
		if m1+m2 > 0 && m2 > 0 {
			setSpan(p, m1/(m1+m2), 1)
		}
		// min: max(min, capped) in wait_exponential, random.uniform(min,
		// that) in wait_random_exponential; the policy's floor is both.
		switch all := slices.Concat(exps, rexps); {
		case len(all) == 1 && all[0].min > 0:
			r.duration(&p.Floor, "min", formatFloat(all[0].min), all[0].min, all[0].minLine, false)
		case len(all) > 1 && slices.ContainsFunc(all, func(e exp) bool { return e.min > 0 }):
			extra("the min of a sum of exponential waits")
		}
		if len(randoms) > 0 {
			if p.Jitter != backoff.NoJitter || randoms[0][0] != 0 {
				extra("wait_random")
			} else {
				p.Jitter, p.JitterAdd = backoff.Additive, backoff.Seconds(randoms[0][1])
			}
			if len(randoms) > 1 {
				extra("wait_random")
			}
		}
	case inc != nil:
		// start + increment * (n-1), capped at max.
		*p = backoff.Policy{Growth: backoff.Linear, Base: backoff.Seconds(inc.increment), Factor: 1, Jitter: backoff.NoJitter,
			Attempts: p.Attempts, Deadline: p.Deadline}
		cp := capOf(inc.max)
		if inc.start != inc.increment {
			p.ImmediateFirst = true
			offset += inc.start
			if cp > 0 {
				cp = math.Max(cp-inc.start, 0)
			}
		}
		setCap(cp)
		tenacityRandoms(p, randoms, extra)
	case len(fixed) > 0 || len(randoms) > 0:
		*p = backoff.Policy{Growth: backoff.Constant, Base: backoff.Seconds(offset), Factor: 1, Jitter: backoff.NoJitter,
			Attempts: p.Attempts, Deadline: p.Deadline}
		offset = 0
		if len(randoms) > 0 {
			lo, hi := randoms[0][0], randoms[0][1]
			if lo == 0 && p.Base == 0 {
				p.Base, p.Jitter = backoff.Seconds(hi), backoff.Full
			} else {
				p.Base += backoff.Seconds(lo)
				p.Jitter, p.JitterAdd = backoff.Additive, backoff.Seconds(math.Max(hi-lo, 0))
			}
			if len(randoms) > 1 {
				extra("wait_random")
			}
		}
	}
	if offset > 0 {
		r.duration(&p.Offset, "wait_fixed", formatFloat(offset), offset, 0, false)
	}
	if p.Growth == backoff.None && p.Jitter == backoff.NoJitter {
		p.Factor = 1
	}
	if p.Jitter == backoff.Additive && p.JitterAdd == 0 {
		p.Jitter = backoff.NoJitter
	}
}

func tenacityRandoms(p *backoff.Policy, randoms [][2]float64, extra func(string)) {
	if len(randoms) == 0 {
		return
	}
	if randoms[0][0] != 0 || len(randoms) > 1 {
		extra("wait_random")
		return
	}
	p.Jitter, p.JitterAdd = backoff.Additive, backoff.Seconds(randoms[0][1])
}
