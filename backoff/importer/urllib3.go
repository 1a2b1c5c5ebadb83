package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "urllib3", detect: 7, doc: 2, source: urllib3Source, policies: urllib3Policies, read: readURLLib3})
}

const urllib3Source = "urllib3/urllib3 src/urllib3/util/retry.py (2.5.0): get_backoff_time, is_exhausted, sleep_for_retry"

func urllib3Calls(c *code) []callSite {
	return c.callsNamed(" Retry urllib3.Retry urllib3.util.Retry urllib3.util.retry.Retry retry.Retry HTTPAdapter requests.adapters.HTTPAdapter adapters.HTTPAdapter ")
}

// urllib3Sites are the Retry(...) calls, and the HTTPAdapter(max_retries=
// N) calls whose N is no Retry (Retry.from_int makes it Retry(N)).
func urllib3Sites(c *code) []callSite {
	var out []callSite
	for _, cs := range urllib3Calls(c) {
		if cs.open < 0 || !c.is(cs.open, "(") {
			continue
		}
		if short(cs.name) != "HTTPAdapter" {
			out = append(out, cs)
			continue
		}
		for _, a := range c.args(cs.open) {
			if a.key != "max_retries" {
				continue
			}
			v := c.evalArg(a)
			if v.kind == vCall && short(v.str) == "Retry" {
				continue // the Retry is a site of its own
			}
			if v.kind == vName {
				if span, ok := c.consts[v.str]; ok && span[0] < span[1] {
					if n, _ := c.name(span[0]); short(n) == "Retry" {
						continue
					}
				}
				if c.siteOf(v.str, urllib3Calls(c)) {
					continue
				}
			}
			out = append(out, cs)
		}
	}
	return out
}

// siteOf reports whether some call site among cs is bound to the
// variable name.
func (c *code) siteOf(name string, cs []callSite) bool {
	for _, s := range cs {
		if c.siteVar(s.at) == name {
			return true
		}
	}
	return false
}

func urllib3Policies(in *input) ([]site, string) {
	c := in.tokens()
	if !c.hasIdent("urllib3", "requests", "HTTPAdapter", "backoff_factor", "status_forcelist", "total") {
		return nil, ""
	}
	return codeSites(c, urllib3Sites(c)), ""
}

// readURLLib3 reads a Retry(...), or an HTTPAdapter's integer
// max_retries, which Retry.from_int makes Retry(total). urllib3 2.x
// waits 0 before the first retry and then backoff_factor * 2^(n-1) (+
// U[0, backoff_jitter)), clamped to backoff_max; a Retry-After on 413,
// 429 or 503 is waited as is.
func readURLLib3(in *input, r *reader, s site) error {
	c := in.tokens()
	cs := urllib3Sites(c)[s.at]
	var retry *callSite
	var adapterRetries *value
	if short(cs.name) == "HTTPAdapter" {
		for _, a := range c.args(cs.open) {
			if a.key == "max_retries" {
				adapterRetries = c.evalArg(a)
			}
		}
	} else {
		retry = &cs
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Factor: 2, FirstExponent: 1, ImmediateFirst: true, Jitter: backoff.NoJitter,
		Cap: backoff.Seconds(120), Attempts: 11, RetryAfter: backoff.RetryAfterAsIs}
	seen := map[string]bool{}
	factor, jitter := 0.0, 0.0
	if retry == nil {
		seen["total"] = true
		if n, ok := r.numValue("max_retries", adapterRetries, "0 (HTTPAdapter's DEFAULT_RETRIES)"); ok {
			r.attempts("max_retries", adapterRetries.text, n+1, adapterRetries.line)
		} else {
			p.Attempts = 1
		}
	} else {
		for i, a := range c.args(retry.open) {
			key := a.key
			if key == "" && i == 0 {
				key = "total"
			}
			seen[key] = true
			v := c.evalArg(a)
			switch key {
			case "total":
				switch {
				case v.kind == vBool && v.num == 0:
					r.set(key, v.text, v.line)
					p.Attempts = 1
				case v.kind == vNull:
					r.set(key, v.text, v.line)
					p.Attempts = 0 // is_exhausted counts only the kinds given
				default:
					if n, ok := r.numValue(key, v, "10"); ok {
						r.attempts(key, v.text, n+1, v.line)
					}
				}
			case "backoff_factor":
				if f, ok := r.durValue(key, v, 1, nil, "0"); ok {
					factor = f
				}
			case "backoff_max":
				if f, ok := r.durValue(key, v, 1, nil, "120"); ok {
					r.duration(&p.Cap, key, v.text, f, v.line, true)
				}
			case "backoff_jitter":
				if f, ok := r.durValue(key, v, 1, nil, "0"); ok {
					jitter = f
				}
			case "respect_retry_after_header":
				if b, ok := r.boolValue(key, v, "True"); ok && !b {
					p.RetryAfter = backoff.RetryAfterIgnore
				}
			case "connect", "read", "redirect", "status", "other", "status_forcelist", "allowed_methods",
				"raise_on_redirect", "raise_on_status", "remove_headers_on_redirect":
				r.ignore(key, a.line, ReasonClassify)
			case "history":
				r.ignore(key, a.line, ReasonNotModelled)
			case "":
				r.ignore(orPositional(key), a.line, ReasonNotModelled)
			default:
				// Retry.__init__ takes its keywords only (method_whitelist
				// and the class's BACKOFF_MAX went in 2.0): Python raises
				// TypeError and the Retry is never made.
				r.warn(CodeInvalid, a.line, []string{key, clip(v.text)},
					"%s is no argument of urllib3's Retry (2.x): Python raises TypeError when the Retry is made; the rest is read as written", key)
			}
		}
	}
	for _, d := range []struct{ k, v string }{{"total", "10"}, {"backoff_factor", "0"}, {"backoff_max", "120"}, {"backoff_jitter", "0.0"}, {"respect_retry_after_header", "True"}} {
		if !seen[d.k] {
			r.def(d.k, d.v)
		}
	}
	r.duration(&p.Base, "backoff_factor", formatFloat(factor), factor, 0, false)
	if jitter > 0 {
		p.Jitter, p.JitterAdd, p.CapMode = backoff.Additive, backoff.Seconds(jitter), backoff.CapAfterJitter
	}
	if p.Base == 0 {
		p.Growth, p.FirstExponent, p.ImmediateFirst = backoff.None, 0, false
		if p.Jitter == backoff.Additive {
			// get_backoff_time returns 0 before it adds the jitter while
			// consecutive_errors_len <= 1: the first retry stays immediate.
			p.Growth, p.ImmediateFirst = backoff.Constant, true
		}
	}
	r.capSanity()
	return nil
}
