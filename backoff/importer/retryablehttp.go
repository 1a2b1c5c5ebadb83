package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "retryablehttp", detect: 14, doc: 13, source: retryableSource, policies: retryablePolicies, read: readRetryable})
}

const retryableSource = "hashicorp/go-retryablehttp client.go (v0.7.8): NewClient, DefaultBackoff, LinearJitterBackoff, RateLimitLinearJitterBackoff"

var retryableFields = []string{"RetryMax", "RetryWaitMin", "RetryWaitMax", "Backoff", "CheckRetry", "HTTPClient", "Logger", "ErrorHandler",
	"RequestLogHook", "ResponseLogHook", "PrepareRetry"}

// retryableSites are the clients made: NewClient() and struct literals
// (not a *retryablehttp.Client in a signature).
func retryableSites(c *code) []callSite {
	var sites []callSite
	for _, cs := range c.callsNamed(" retryablehttp.NewClient retryablehttp.Client ") {
		if cs.open >= 0 && !c.is(cs.at-1, "*") {
			sites = append(sites, cs)
		}
	}
	return sites
}

func retryablePolicies(in *input) ([]site, string) {
	c := in.tokens()
	return codeSites(c, retryableSites(c)), ""
}

// readRetryable reads a client: NewClient's defaults (RetryWaitMin 1s,
// RetryWaitMax 30s, RetryMax 4 retries, DefaultBackoff) or a struct
// literal's fields, and later assignments (to that client's variable,
// when the text has several). DefaultBackoff waits min(RetryWaitMin *
// 2^(n-1), RetryWaitMax), or a 429's or 503's Retry-After as is;
// LinearJitterBackoff (RetryWaitMin + U[0, RetryWaitMax - RetryWaitMin))
// * n.
func readRetryable(in *input, r *reader, s site) error {
	c := in.tokens()
	sites := retryableSites(c)
	site := sites[s.at]
	min, max, retries := 1.0, 30.0, 4.0
	kind := "DefaultBackoff"
	var fs fields
	literal := site.name == "retryablehttp.Client" && c.is(site.open, "{")
	if literal {
		min, max, retries = 0, 0, 0
		for _, a := range c.args(site.open) {
			fs.put(a.key, c.evalArg(a))
		}
	}
	fs.assignedTo(c, retryableFields, len(sites) == 1, c.siteVar(site.at))
	for _, k := range fs.order {
		v := fs.vals[k]
		switch k {
		case "RetryMax":
			r.readNum(&retries, k, v, "4")
		case "RetryWaitMin":
			r.readDur(&min, k, v, 1e-9, "1s")
		case "RetryWaitMax":
			r.readDur(&max, k, v, 1e-9, "30s")
		case "Backoff":
			r.set(k, v.text, v.line)
			switch s := short(v.str); {
			case v.kind == vName && (s == "DefaultBackoff" || s == "LinearJitterBackoff" || s == "RateLimitLinearJitterBackoff"):
				kind = s
			default:
				r.unreadable(k, v.text, v.line, "DefaultBackoff")
			}
		case "CheckRetry":
			r.ignore(k, v.line, ReasonClassify)
		default:
			r.ignore(orPositional(k), v.line, ReasonNotModelled)
		}
	}
	if _, ok := fs.vals["Backoff"]; literal && !ok {
		// Client.Do calls c.Backoff with no nil check: NewClient is what sets it.
		r.warn(CodeInvalid, site.line, []string{"Backoff", "nil"},
			"the struct literal leaves Backoff nil, and Client.Do calls it at the first retry without a nil check (a panic): read as DefaultBackoff, which NewClient sets")
	}
	if !literal {
		for _, d := range []struct{ k, v string }{{"RetryMax", "4"}, {"RetryWaitMin", "1s"}, {"RetryWaitMax", "30s"}, {"Backoff", "DefaultBackoff"}} {
			if _, ok := fs.vals[d.k]; !ok {
				r.def(d.k, d.v)
			}
		}
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Factor: 2, Jitter: backoff.NoJitter}
	r.attempts("RetryMax", formatFloat(retries), retries+1, 0)
	r.duration(&p.Base, "RetryWaitMin", secondsText(min), min, 0, false)
	switch kind {
	case "DefaultBackoff":
		r.duration(&p.Cap, "RetryWaitMax", secondsText(max), max, 0, true)
		p.RetryAfter = backoff.RetryAfterAsIs
		r.capSanity()
	default:
		p.Growth, p.Factor = backoff.Linear, 1
		// (min + U[0, max-min)) * n: additive jitter scaled by n.
		if max > min {
			p.Jitter, p.JitterAddScaled = backoff.Additive, true
			r.duration(&p.JitterAdd, "RetryWaitMax", secondsText(max), max-min, 0, false)
		}
		if kind == "RateLimitLinearJitterBackoff" {
			p.RetryAfter = backoff.RetryAfterAsIs
		}
	}
	return nil
}
