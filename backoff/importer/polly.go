package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "polly", detect: 9, doc: 6, source: pollySource, policies: pollyPolicies, read: readPolly})
}

const pollySource = "App-vNext/Polly src/Polly.Core/Retry/RetryHelper.cs, RetryStrategyOptions.TResult.cs, RetryConstants.cs (8.7.0); " +
	"dotnet/extensions Microsoft.Extensions.Http.Resilience HttpRetryStrategyOptions.cs"

var pollyFields = []string{"MaxRetryAttempts", "Delay", "BackoffType", "UseJitter", "MaxDelay", "ShouldHandle", "DelayGenerator", "OnRetry", "Name", "ShouldRetryAfterHeader", "Randomizer"}

func pollyOptions(c *code) []callSite {
	out := c.callsShort(" RetryStrategyOptions HttpRetryStrategyOptions ")
	// C#'s target-typed AddRetry(new() { ... }): the options by their
	// place (HttpRetryStrategyOptions only by name).
	for _, cs := range c.callsShort(" AddRetry ") {
		if k := cs.open + 1; c.is(cs.open, "(") && c.ident(k) == "new" && c.is(k+1, "(") && c.is(k+2, ")") && c.is(k+3, "{") && c.match[k+3] > k {
			out = append(out, callSite{name: "RetryStrategyOptions", open: k + 3, line: c.line(k), at: k + 1})
		}
	}
	sortBy(len(out), func(i, j int) bool { return out[i].at < out[j].at }, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func pollyPolicies(in *input) ([]site, string) {
	c := in.tokens()
	if opts := pollyOptions(c); len(opts) > 0 {
		return codeSites(c, opts), ""
	}
	if c.hasIdent("AddRetry") {
		if as := c.assignments(func(f string) bool { return containsStr(pollyFields, f) }); len(as) > 0 {
			return []site{{name: as[0].target, line: as[0].line, at: -1}}, ""
		}
	}
	return nil, ""
}

// readPolly reads a RetryStrategyOptions (its initializer, and
// assignments to its fields), and a timeout added before the retry as the
// deadline. Polly's defaults: 3 retries, a constant 2s, no jitter; the
// HTTP options': exponential with jitter, honouring Retry-After.
func readPolly(in *input, r *reader, s site) error {
	c := in.tokens()
	opts := pollyOptions(c)
	http := false
	var fs fields
	owner := ""
	if s.at >= 0 {
		o := opts[s.at]
		http = short(o.name) == "HttpRetryStrategyOptions"
		owner = c.siteVar(o.at)
		if open := o.open; c.is(open, "{") {
			for _, a := range c.args(open) {
				fs.put(a.key, c.evalArg(a))
			}
		} else if c.is(open, "(") && c.match[open] > open && c.is(c.match[open]+1, "{") { // new T() { ... }
			for _, a := range c.args(c.match[open] + 1) {
				fs.put(a.key, c.evalArg(a))
			}
		}
	}
	fs.assignedTo(c, pollyFields, len(opts) <= 1, owner)
	retries, delay, max := 3.0, 2.0, 0.0
	kind, jitter := "Constant", false
	if http {
		kind, jitter = "Exponential", true
	}
	p := &r.res.Policy
	*p = backoff.Policy{Factor: 1}
	if http {
		p.RetryAfter = backoff.RetryAfterAsIs
	}
	for _, key := range fs.order {
		v := fs.vals[key]
		switch key {
		case "MaxRetryAttempts":
			r.readNum(&retries, key, v, "3")
		case "Delay":
			if f, ok := r.durValue(key, v, 1e-7, nil, "2s"); ok { // a bare number would be ticks
				delay = f
			}
		case "MaxDelay":
			if v.kind == vNull {
				r.set(key, v.text, v.line)
			} else {
				r.readDur(&max, key, v, 1e-7, "no maximum")
			}
		case "BackoffType":
			r.set(key, v.text, v.line)
			switch s := short(v.str); {
			case v.kind == vName && (s == "Constant" || s == "Linear" || s == "Exponential"):
				kind = s
			default:
				r.unreadable(key, v.text, v.line, kind)
			}
		case "UseJitter":
			if b, ok := r.boolValue(key, v, "false"); ok {
				jitter = b
			}
		case "ShouldHandle":
			r.ignore(key, v.line, ReasonClassify)
		case "ShouldRetryAfterHeader":
			if b, ok := r.boolValue(key, v, "true"); ok && !b {
				p.RetryAfter = backoff.RetryAfterIgnore
			}
		case "DelayGenerator":
			r.unreadable(key, v.text, v.line, "the options' delays")
		default:
			r.ignore(orPositional(key), v.line, ReasonNotModelled)
		}
	}
	for _, d := range []struct{ k, v string }{{"MaxRetryAttempts", "3"}, {"Delay", "2s"}, {"BackoffType", kind}, {"UseJitter", strings.ToLower(formatBool(jitter))}} {
		if _, ok := fs.vals[d.k]; !ok {
			r.def(d.k, d.v)
		}
	}
	r.attempts("MaxRetryAttempts", formatFloat(retries), retries+1, 0)
	r.duration(&p.Base, "Delay", secondsText(delay), delay, 0, false)
	if max > 0 {
		r.duration(&p.Cap, "MaxDelay", secondsText(max), max, 0, true)
		p.CapMode = backoff.CapAfterJitter
	}
	switch kind {
	case "Constant":
		p.Growth = backoff.Constant
	case "Linear":
		p.Growth = backoff.Linear
	default:
		p.Growth, p.Factor = backoff.Exponential, 2
	}
	switch {
	case !jitter || p.Base == 0:
		p.Jitter = backoff.NoJitter
	case kind == "Exponential":
		p.Jitter = backoff.DecorrelatedV2 // DecorrelatedJitterBackoffV2, Delay the median first delay
	default:
		p.Jitter, p.JitterLo, p.JitterHi = backoff.Proportional, 0.75, 1.25 // delay ± 25%
	}
	// A timeout added before the retry bounds the whole call.
	retryAt := -1
	for _, cs := range c.callsShort(" AddRetry ") {
		retryAt = cs.open
		break
	}
	for _, cs := range c.callsShort(" AddTimeout ") {
		args := c.args(cs.open)
		if len(args) != 1 {
			continue
		}
		v := c.evalArg(args[0])
		if retryAt >= 0 && cs.open > retryAt {
			r.ignore("AddTimeout", cs.line, ReasonPerTry)
			continue
		}
		if f, ok := r.durValue("AddTimeout", v, 1e-7, nil, "no deadline"); ok {
			r.deadlineTimeout("timeout", v.text, f, cs.line, "Polly")
		}
		break
	}
	r.capSanity()
	return nil
}

func formatBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
