package importer

import (
	"math"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "celery", detect: 8, doc: 14, source: celerySource, policies: celeryPolicies, read: readCelery})
}

const celerySource = "celery/celery celery/app/autoretry.py, celery/utils/time.py get_exponential_backoff_interval, celery/app/task.py (5.6.2)"

var celeryKeys = []string{"autoretry_for", "retry_backoff", "retry_backoff_max", "retry_jitter", "max_retries", "default_retry_delay", "retry_kwargs"}

func celeryCalls(c *code) []callSite {
	var out []callSite
	for _, cs := range c.calls(func(name string) bool {
		return short(name) == "task" || name == "shared_task" || name == "celery.shared_task"
	}) {
		if cs.open < 0 || !c.is(cs.open, "(") {
			continue
		}
		for _, a := range c.args(cs.open) {
			if containsStr(celeryKeys, a.key) {
				out = append(out, cs)
				break
			}
		}
	}
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// celeryClassKeys are a Task subclass's retry attributes (retry_backoff =
// True in the class body), when no decorator sets them.
func celeryClassKeys(c *code) []string {
	if !c.hasIdent("Task", "celery") {
		return nil
	}
	var keys []string
	for _, k := range celeryKeys {
		if _, ok := c.consts[k]; ok {
			keys = append(keys, k)
		}
	}
	return keys
}

func celeryPolicies(in *input) ([]site, string) {
	c := in.tokens()
	out := codeSites(c, celeryCalls(c))
	if keys := celeryClassKeys(c); len(keys) > 0 {
		// A Task subclass's attributes: named by the class they are in.
		at := c.consts[keys[0]][0]
		name := ""
		for j := at; j >= 0; j-- {
			if c.ident(j) == "class" && c.ident(j+1) != "" {
				name = c.toks[j+1].text
				break
			}
		}
		out = append(out, site{name: name, line: c.line(at), at: -1})
	}
	return out, ""
}

// readCelery reads a task's retry options, or a Task subclass's. With
// retry_backoff (True is 1 second, a number its factor) the countdown
// before retry n is min(retry_backoff_max, factor * 2^(n-1)), and with
// retry_jitter (True by default) randrange(countdown + 1) whole seconds;
// without it, default_retry_delay. max_retries counts retries (None: no
// limit).
func readCelery(in *input, r *reader, s site) error {
	c := in.tokens()
	factor, max, delay, retries := 0.0, 600.0, 180.0, 3.0
	jitter, unlimited := true, false
	seen := map[string]bool{}
	var read func(key string, v *value, line int)
	read = func(key string, v *value, line int) {
		seen[key] = true
		switch key {
		case "autoretry_for", "dont_autoretry_for", "throws":
			r.ignore(key, line, ReasonClassify)
		case "retry_backoff":
			switch v.kind {
			case vBool:
				r.set(key, v.text, v.line)
				factor = v.num
			default:
				r.readNum(&factor, key, v, "False")
			}
		case "retry_backoff_max":
			r.readNum(&max, key, v, "600")
		case "retry_jitter":
			if b, ok := r.boolValue(key, v, "True"); ok {
				jitter = b
			}
		case "max_retries":
			if v.kind == vNull {
				r.set(key, v.text, v.line)
				unlimited = true
			} else if f, ok := r.numValue(key, v, "3"); ok {
				retries, unlimited = f, false
			}
		case "default_retry_delay", "countdown":
			r.readDur(&delay, key, v, 1, "180")
		case "retry_kwargs":
			if v.kind != vCall || v.str != "{" {
				r.unreadable(key, v.text, v.line, "")
				return
			}
			for _, a := range v.args {
				read(a.key, c.evalArg(a), a.line)
			}
		default:
			r.ignore(orPositional(key), line, ReasonNotModelled)
		}
	}
	if s.at >= 0 {
		for _, a := range c.args(celeryCalls(c)[s.at].open) {
			read(a.key, c.evalArg(a), a.line)
		}
	} else {
		for _, k := range celeryClassKeys(c) {
			span := c.consts[k]
			read(k, c.eval(span[0], span[1]), c.line(span[0]))
		}
	}
	for _, d := range []struct{ k, v string }{{"max_retries", "3"}, {"retry_backoff", "False"}, {"retry_backoff_max", "600"}, {"retry_jitter", "True"}, {"default_retry_delay", "180"}} {
		if !seen[d.k] && (d.k != "retry_backoff_max" && d.k != "retry_jitter" || factor > 0) && (d.k != "default_retry_delay" || factor == 0) {
			r.def(d.k, d.v)
		}
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Constant, Factor: 1, Jitter: backoff.NoJitter}
	if unlimited {
		p.Attempts = 0
	} else {
		r.attempts("max_retries", formatFloat(retries), retries+1, 0)
	}
	if factor > 0 {
		// autoretry.py: factor=int(max(1.0, retry_backoff)), whole seconds.
		if f := math.Trunc(math.Max(1, factor)); f != factor {
			r.warn(CodeRange, 0, []string{"retry_backoff", formatFloat(factor), formatFloat(f)},
				"retry_backoff is %s: Celery takes int(max(1.0, retry_backoff)), %s", formatFloat(factor), formatFloat(f))
			factor = f
		}
		p.Growth, p.Factor = backoff.Exponential, 2
		r.duration(&p.Base, "retry_backoff", formatFloat(factor), factor, 0, false)
		r.duration(&p.Cap, "retry_backoff_max", formatFloat(max), max, 0, true)
		if jitter {
			p.Jitter, p.Quantum = backoff.Full, backoff.Seconds(1)
		}
	} else {
		r.duration(&p.Base, "default_retry_delay", formatFloat(delay), delay, 0, false)
	}
	r.capSanity()
	return nil
}
