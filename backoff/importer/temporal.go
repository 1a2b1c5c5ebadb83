package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// temporalSource is the server's code: the SDKs only send the policy, and
// the history service fills its defaults (EnsureDefaults: initial 1s,
// coefficient 2, maximum 100 x initial, attempts 0 = no limit) and
// computes each retry's interval. (common/backoff/retrypolicy.go is the
// server's own internal retrier, with its own jitter: not this.)
const temporalSource = "temporalio/temporal common/retrypolicy/retry_policy.go (DefaultDefaultRetrySettings), common/backoff/retry.go (ExponentialBackoffAlgorithm) (v1.30.0)"

// temporalKeys maps each SDK's spelling (Go fields, Java setters,
// TypeScript keys, Python keywords), folded by normKey, to one name.
var temporalKeys = map[string]string{
	"initialinterval": "initialInterval", "backoffcoefficient": "backoffCoefficient", "maximuminterval": "maximumInterval",
	"maximumattempts": "maximumAttempts", "nonretryableerrortypes": "nonRetryableErrorTypes", "donotretry": "nonRetryableErrorTypes",
}

// temporalSite finds a RetryPolicy: Go's temporal.RetryPolicy{...},
// Python's RetryPolicy(...), Java's RetryOptions.newBuilder() chain, or
// a TypeScript retry: { ... } object.
func temporalSite(c *code) (args []arg, unit float64, found bool) {
	for _, cs := range c.calls(func(n string) bool {
		return n == "temporal.RetryPolicy" || n == "RetryPolicy" || n == "common.RetryPolicy" || n == "temporalio.common.RetryPolicy"
	}) {
		as := c.args(cs.open)
		if temporalArgs(as) || len(as) == 0 {
			if c.is(cs.open, "{") {
				return as, 1e-9, true // Go: a bare number is nanoseconds
			}
			return as, 1, true // Python: timedelta, or seconds
		}
	}
	// Java: RetryOptions.newBuilder().setInitialInterval(...)...build()
	for _, cs := range c.calls(func(n string) bool { return n == "RetryOptions.newBuilder" }) {
		if cs.open < 0 { // a bare @RetryOptions.newBuilder: no chain follows
			continue
		}
		var as []arg
		k := c.match[cs.open] + 1
		for c.is(k, ".") && c.ident(k+1) != "" && c.is(k+2, "(") && c.match[k+2] > 0 {
			name := c.toks[k+1].text
			if strings.HasPrefix(name, "set") {
				inner := c.args(k + 2)
				if len(inner) == 1 {
					as = append(as, arg{key: strings.TrimPrefix(name, "set"), from: inner[0].from, to: inner[0].to, line: c.line(k + 1)})
				} else {
					as = append(as, arg{key: strings.TrimPrefix(name, "set"), from: k + 3, to: c.match[k+2], line: c.line(k + 1)})
				}
			}
			k = c.match[k+2] + 1
		}
		return as, 1e-3, true // Java: Duration; a bare number is taken as milliseconds
	}
	// TypeScript: retry: { initialInterval: '1s', ... }
	for k := range c.toks {
		if c.ident(k) == "retry" && c.is(k+1, ":") && c.is(k+2, "{") && c.match[k+2] > 0 {
			if as := c.args(k + 2); temporalArgs(as) {
				return as, 1e-3, true // a number of milliseconds
			}
		}
	}
	return nil, 0, false
}

func temporalArgs(as []arg) bool {
	for _, a := range as {
		if _, ok := temporalKeys[normKey(a.key)]; ok {
			return true
		}
	}
	return false
}

func detectTemporal(in *input) bool {
	c := in.tokens()
	if !c.hasIdent("temporal", "temporalio", "RetryPolicy", "RetryOptions", "proxyActivities", "initialInterval", "initial_interval") {
		return false
	}
	_, _, ok := temporalSite(c)
	return ok
}

// readTemporal reads a RetryPolicy: the delay before retry n is
// initialInterval * backoffCoefficient^(n-1), capped at maximumInterval
// (100 times initialInterval when unset), with no jitter; maximumAttempts
// counts the first attempt, 0 for no limit.
func readTemporal(in *input, r *reader) error {
	c := in.tokens()
	args, unit, ok := temporalSite(c)
	if !ok {
		return noPolicy("no Temporal RetryPolicy")
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Factor: 2, Jitter: backoff.NoJitter}
	initial, coef, maxInterval, attempts := 1.0, 2.0, 0.0, 0.0
	seen := map[string]bool{}
	for _, a := range args {
		name, ok := temporalKeys[normKey(a.key)]
		if !ok {
			r.ignore(orPositional(a.key), a.line, ReasonNotModelled)
			continue
		}
		seen[name] = true
		v := c.evalArg(a)
		switch name {
		case "initialInterval":
			if f, ok := r.durValue(a.key, v, unit, msSeconds, "1s"); ok && f > 0 {
				initial = f
			}
		case "maximumInterval":
			if f, ok := r.durValue(a.key, v, unit, msSeconds, "100 x initialInterval"); ok {
				maxInterval = f
			}
		case "backoffCoefficient":
			if f, ok := r.numValue(a.key, v, "2"); ok {
				coef = f
			}
		case "maximumAttempts":
			if f, ok := r.numValue(a.key, v, "0 (no limit)"); ok {
				attempts = f
			}
		case "nonRetryableErrorTypes":
			r.ignore(a.key, a.line, ReasonClassify)
		}
	}
	for _, d := range []struct{ k, v string }{{"initialInterval", "1s"}, {"backoffCoefficient", "2"}, {"maximumInterval", "100 x initialInterval"}, {"maximumAttempts", "0 (no limit)"}} {
		if !seen[d.k] {
			r.def(d.k, d.v)
		}
	}
	if maxInterval <= 0 {
		maxInterval = 100 * initial
	}
	r.duration(&p.Base, "initialInterval", secondsText(initial), initial, 0, false)
	r.factor("backoffCoefficient", formatFloat(coef), coef, 0)
	r.duration(&p.Cap, "maximumInterval", secondsText(maxInterval), maxInterval, 0, true)
	if attempts > 0 {
		r.attempts("maximumAttempts", formatFloat(attempts), attempts, 0)
	}
	r.capSanity()
	return nil
}
