package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "temporal", detect: 11, doc: 11, source: temporalSource, policies: temporalPolicies, read: readTemporal})
}

// temporalSource is the server's code: the SDKs only send the policy, and
// the history service fills its defaults (EnsureDefaults: initial 1s,
// coefficient 2, maximum 100 x initial, attempts 0 = no limit) and
// computes each retry's interval. (common/backoff/retrypolicy.go is the
// server's own internal retrier, with its own jitter: not this.)
const temporalSource = "temporalio/temporal common/retrypolicy/retry_policy.go (DefaultDefaultRetrySettings), common/backoff/retry.go (ExponentialBackoffAlgorithm) (v1.30.0)"

// temporalKey is a key's one name, from each SDK's spelling (Go fields,
// Java setters, TypeScript keys, Python keywords) folded by normKey.
func temporalKey(k string) (string, bool) {
	switch normKey(k) {
	case "initialinterval":
		return "initialInterval", true
	case "backoffcoefficient":
		return "backoffCoefficient", true
	case "maximuminterval":
		return "maximumInterval", true
	case "maximumattempts":
		return "maximumAttempts", true
	case "nonretryableerrortypes", "donotretry":
		return "nonRetryableErrorTypes", true
	}
	return "", false
}

// temporalSite is one RetryPolicy: its fields, the unit of a bare number
// in its language, and its bracket.
type temporalSite struct {
	args []arg
	unit float64
	at   callSite
	name string // a const's name, for a const object
}

// temporalSites finds the RetryPolicies: Go's temporal.RetryPolicy{...},
// Python's RetryPolicy(...), .NET's new RetryPolicy { ... }, Java's
// RetryOptions.newBuilder() chain, and TypeScript's retry: { ... }
// objects, in place or held in a const (retry: retryPolicy, or { retry }),
// and consts of such objects on their own.
func temporalSites(c *code) []temporalSite {
	var out []temporalSite
	for _, cs := range c.callsNamed(" temporal.RetryPolicy RetryPolicy common.RetryPolicy temporalio.common.RetryPolicy Temporalio.Common.RetryPolicy ") {
		open := cs.open
		if c.is(open, "(") && c.match[open] > open && c.is(c.match[open]+1, "{") {
			open = c.match[open] + 1 // C#: new RetryPolicy() { ... }
		}
		as := c.args(open)
		if !temporalArgs(as) && len(as) > 0 {
			continue
		}
		unit := 1.0 // Python: timedelta, or seconds
		if c.is(open, "{") {
			unit = 1e-9 // Go: a bare number is nanoseconds
		}
		out = append(out, temporalSite{as, unit, cs, ""})
	}
	// Java: RetryOptions.newBuilder().setInitialInterval(...)...build()
	for _, cs := range c.callsNamed(" RetryOptions.newBuilder ") {
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
		out = append(out, temporalSite{as, 1e-3, cs, ""}) // Java: Duration; a bare number is taken as milliseconds
	}
	// TypeScript: retry: { initialInterval: '1s', ... }, or a const.
	used := map[int]bool{}
	object := func(open, nameAt int, name string) {
		if used[open] || !c.is(open, "{") || c.match[open] < open {
			return
		}
		if as := c.args(open); temporalArgs(as) {
			used[open] = true
			out = append(out, temporalSite{as, 1e-3, callSite{name: "retry", open: open, line: c.line(open), at: nameAt}, name})
		}
	}
	for k := range c.toks {
		if c.ident(k) != "retry" || c.is(k-1, ".") || c.parent[k] < 0 || !c.is(c.parent[k], "{") {
			continue
		}
		switch {
		case c.is(k+1, ":") && c.is(k+2, "{"):
			object(k+2, k, "")
		case c.is(k+1, ":") && c.ident(k+2) != "" && (c.is(k+3, ",") || c.is(k+3, "}")):
			if span, ok := c.consts[c.toks[k+2].text]; ok {
				object(span[0], k, "")
			}
		case c.is(k+1, ",") || c.is(k+1, "}"): // { retry }
			if span, ok := c.consts["retry"]; ok {
				object(span[0], k, "")
			}
		}
	}
	for name, span := range c.consts {
		if c.is(span[0], "{") && !used[span[0]] && (c.hasIdent("proxyActivities", "temporalio") || c.hasString("@temporalio")) {
			object(span[0], span[0], name)
		}
	}
	sortBy(len(out), func(i, j int) bool { return out[i].at.open < out[j].at.open }, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func temporalArgs(as []arg) bool {
	for _, a := range as {
		if _, ok := temporalKey(a.key); ok {
			return true
		}
	}
	return false
}

func temporalPolicies(in *input) ([]site, string) {
	c := in.tokens()
	if !c.hasIdent("temporal", "temporalio", "Temporalio", "RetryPolicy", "RetryOptions", "proxyActivities", "initialInterval", "initial_interval") {
		return nil, ""
	}
	ts := temporalSites(c)
	out := make([]site, len(ts))
	for i, t := range ts {
		name := t.name
		if name == "" {
			name = c.siteName(t.at)
		}
		out[i] = site{name: name, line: t.at.line, at: i}
	}
	return out, ""
}

// readTemporal reads a RetryPolicy: the delay before retry n is
// initialInterval * backoffCoefficient^(n-1), capped at maximumInterval
// (100 times initialInterval when unset), with no jitter; maximumAttempts
// counts the first attempt, 0 for no limit.
func readTemporal(in *input, r *reader, s site) error {
	c := in.tokens()
	ts := temporalSites(c)[s.at]
	args, unit := ts.args, ts.unit
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Factor: 2, Jitter: backoff.NoJitter}
	initial, coef, maxInterval, attempts := 1.0, 2.0, 0.0, 0.0
	seen := map[string]bool{}
	for _, a := range args {
		name, ok := temporalKey(a.key)
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
	// The activity options the policy is in: ScheduleToCloseTimeout sets
	// the activity's RetryExpirationTime (scheduled time + timeout), and
	// nextBackoffInterval retries no more once now + interval passes it
	// (service/history/workflow/retry.go, mutable_state_impl.go).
	if o := ts.at.at; o >= 0 && o < len(c.parent) && c.parent[o] >= 0 {
		for _, a := range c.args(c.parent[o]) {
			if normKey(a.key) != "scheduletoclosetimeout" {
				continue
			}
			v := c.evalArg(a)
			if f, ok := r.durValue(a.key, v, unit, msSeconds, "no limit"); ok && f > 0 {
				r.deadlineTimeout(a.key, v.text, f, a.line, "Temporal")
			}
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
