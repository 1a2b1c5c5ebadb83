package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "cenkalti", detect: 12, doc: 9, source: cenkaltiSource, policies: cenkaltiPolicies, read: readCenkalti})
}

const cenkaltiSource = "cenkalti/backoff v5 exponential.go, retry.go (v5.0.3); v4 exponential.go, retry.go, tries.go (v4.3.0)"

var cenkaltiFields = []string{"InitialInterval", "RandomizationFactor", "Multiplier", "MaxInterval", "MaxElapsedTime", "Stop", "Clock"}

// cenkaltiSites are the back-offs built (a struct literal, a
// constructor), or, without one, the first retry call (v5's Retry builds
// NewExponentialBackOff when given no WithBackOff).
func cenkaltiSites(c *code) []callSite {
	var sites []callSite
	for _, cs := range c.callsNamed(" backoff.ExponentialBackOff backoff.NewExponentialBackOff backoff.NewConstantBackOff ") {
		if !c.is(cs.at-1, "*") && !c.is(cs.at-1, "]") && cs.open >= 0 { // a type in a signature, not a value
			sites = append(sites, cs)
		}
	}
	if len(sites) == 0 {
		for _, cs := range c.callsNamed(" backoff.Retry backoff.RetryNotify backoff.RetryWithData backoff.RetryNotifyWithData ") {
			if cs.open >= 0 && c.is(cs.open, "(") {
				return []callSite{cs}
			}
		}
	}
	return sites
}

func cenkaltiPolicies(in *input) ([]site, string) {
	c := in.tokens()
	if !strings.Contains(in.text, "cenkalti/backoff") && !c.hasIdent("ExponentialBackOff", "NewExponentialBackOff", "NewConstantBackOff") {
		return nil, ""
	}
	return codeSites(c, cenkaltiSites(c)), ""
}

// cenkaltiOwns reports whether the option call cs belongs to site among
// several: the call it is an argument of also holds the site, or names
// the site's variable.
func cenkaltiOwns(c *code, site, cs callSite, several bool) bool {
	if !several {
		return true
	}
	o := c.parent[cs.at]
	if o < 0 {
		return false
	}
	if c.within(site.at, o) {
		return true
	}
	v := c.siteVar(site.at)
	for k := o + 1; v != "" && k < c.match[o]; k++ {
		if name, _ := c.name(k); name == v && !c.is(k-1, ".") {
			return true
		}
	}
	return false
}

// readCenkalti reads an ExponentialBackOff: a struct literal (unset
// fields are Go's zero values), or NewExponentialBackOff (500ms, 0.5,
// 1.5, 60s; v4 also MaxElapsedTime 15m) with its options and later
// assignments; and the retry options (v5: WithMaxTries counts tries and
// WithMaxElapsedTime defaults to 15m; v4: WithMaxRetries counts
// retries). The delay before retry n is cur * U[1-r, 1+r] with cur =
// min(InitialInterval * Multiplier^(n-1), MaxInterval): the cap applies
// before randomizing.
func readCenkalti(in *input, r *reader, s site) error {
	c := in.tokens()
	v5 := strings.Contains(in.text, "cenkalti/backoff/v5")
	if v5 {
		r.res.Source = "cenkalti/backoff v5 exponential.go, retry.go (v5.0.3)"
	} else {
		r.res.Source = "cenkalti/backoff v4 exponential.go, retry.go, tries.go (v4.3.0)"
	}
	p := &r.res.Policy
	initial, rf, mult, maxInterval, elapsed := 0.5, 0.5, 1.5, 60.0, 15*60.0
	attempts := 0.0
	constant := -1.0
	var fs fields
	literal := false
	sites := cenkaltiSites(c)
	site := sites[s.at]
	several := len(sites) > 1
	{
		cs := site
		switch cs.name {
		case "backoff.ExponentialBackOff":
			if c.is(cs.open, "{") {
				literal = true
				initial, rf, mult, maxInterval, elapsed = 0, 0, 0, 0, 0
				for _, a := range c.args(cs.open) {
					fs.put(a.key, c.evalArg(a))
				}
			}
		case "backoff.NewConstantBackOff":
			if as := c.args(cs.open); len(as) == 1 {
				v := c.evalArg(as[0])
				if f, ok := r.durValue("NewConstantBackOff", v, 1e-9, nil, "1s"); ok {
					constant = f
				} else {
					constant = 1
				}
			}
		case "backoff.NewExponentialBackOff":
			for _, a := range c.args(cs.open) { // v4's options: backoff.WithInitialInterval(d)
				v := c.evalArg(a)
				if v.kind == vCall && strings.HasPrefix(short(v.str), "With") && len(v.args) == 1 {
					fs.put(strings.TrimPrefix(short(v.str), "With"), c.evalArg(v.args[0]))
				}
			}
		}
	}
	fs.assignedTo(c, cenkaltiFields, !several, c.siteVar(site.at))
	if _, set := fs.vals["MaxElapsedTime"]; literal && !v5 && !set {
		r.def("MaxElapsedTime", "0 (a struct literal's zero value: no limit)")
	}
	for _, k := range fs.order {
		v := fs.vals[k]
		switch k {
		case "InitialInterval":
			r.readDur(&initial, k, v, 1e-9, "500ms")
		case "RandomizationFactor":
			r.readNum(&rf, k, v, "0.5")
		case "Multiplier":
			r.readNum(&mult, k, v, "1.5")
		case "MaxInterval":
			r.readDur(&maxInterval, k, v, 1e-9, "60s")
		case "MaxElapsedTime":
			r.readDur(&elapsed, k, v, 1e-9, "15m")
		default:
			r.ignore(orPositional(k), v.line, ReasonNotModelled)
		}
	}
	if !literal {
		for _, d := range []struct{ k, v string }{{"InitialInterval", "500ms"}, {"RandomizationFactor", "0.5"}, {"Multiplier", "1.5"}, {"MaxInterval", "60s"}} {
			if _, ok := fs.vals[d.k]; !ok && constant < 0 {
				r.def(d.k, d.v)
			}
		}
	}
	// The retry options.
	sawElapsed := false
	for _, cs := range c.callsNamed(" backoff.WithMaxTries backoff.WithMaxElapsedTime backoff.WithMaxRetries ") {
		if !cenkaltiOwns(c, site, cs, several) {
			continue
		}
		as := c.args(cs.open)
		switch cs.name {
		case "backoff.WithMaxTries":
			if len(as) == 1 {
				if f, ok := r.numValue("WithMaxTries", c.evalArg(as[0]), "no limit"); ok {
					attempts = f
				}
			}
		case "backoff.WithMaxRetries": // v4: WithMaxRetries(b, max) allows max retries
			if len(as) == 2 {
				if f, ok := r.numValue("WithMaxRetries", c.evalArg(as[1]), "no limit"); ok {
					attempts = f + 1
				}
			}
		case "backoff.WithMaxElapsedTime":
			if len(as) == 1 {
				sawElapsed = true
				if f, ok := r.durValue("WithMaxElapsedTime", c.evalArg(as[0]), 1e-9, nil, "15m"); ok {
					elapsed = f
				}
			}
		}
	}
	if v5 && !sawElapsed {
		r.def("WithMaxElapsedTime", "15m (Retry's default)")
		elapsed = 15 * 60
	}
	if !v5 && !literal {
		if _, ok := fs.vals["MaxElapsedTime"]; !ok {
			r.def("MaxElapsedTime", "15m")
		}
	}
	*p = backoff.Policy{Growth: backoff.Exponential, Jitter: backoff.NoJitter, Factor: 1}
	if constant >= 0 {
		p.Growth = backoff.Constant
		r.duration(&p.Base, "NewConstantBackOff", secondsText(constant), constant, 0, false)
	} else {
		r.duration(&p.Base, "InitialInterval", secondsText(initial), initial, 0, false)
		if key, zero := cenkaltiZeroField(maxInterval, mult); zero {
			// incrementCurrentInterval sets the interval to MaxInterval once
			// it reaches MaxInterval/Multiplier, and multiplies it by
			// Multiplier otherwise: either way a zero makes it 0. v5's
			// NextBackOff then starts again from InitialInterval; v4's
			// draws around 0, so every later retry is immediate.
			if v5 {
				p.Growth, p.Factor = backoff.Constant, 1
				r.warn(CodeRange, 0, []string{key, "0", "InitialInterval"},
					"%s is 0 (the struct literal leaves it unset): the interval drops to 0 after each retry and NextBackOff starts again from InitialInterval, so every delay is around InitialInterval", key)
			} else {
				p.Growth, p.Factor = backoff.None, 1
				r.warn(CodeRange, 0, []string{key, "0", "0s"},
					"%s is 0 (the struct literal leaves it unset): the interval drops to 0 after the first retry, so the first waits around InitialInterval and every later one is immediate; read as immediate retries", key)
			}
		} else {
			r.factor("Multiplier", formatFloat(mult), mult, 0)
			r.duration(&p.Cap, "MaxInterval", secondsText(maxInterval), maxInterval, 0, true)
		}
		if rf < 0 || rf > 1 {
			r.warn(CodeRange, 0, []string{"RandomizationFactor", formatFloat(rf), "1"}, "RandomizationFactor is %s: read as 1 (a delay below 0 is not drawn)", formatFloat(rf))
			rf = min(max(rf, 0), 1)
		}
		r.capSanity()
		if rf > 0 {
			setSpan(p, 1-rf, 1+rf)
		}
	}
	if attempts > 0 {
		r.attempts("max tries", formatFloat(attempts), attempts, 0)
	}
	r.duration(&p.Deadline, "MaxElapsedTime", secondsText(elapsed), elapsed, 0, true)
	return nil
}

// cenkaltiZeroField names MaxInterval or Multiplier when it is 0 (a
// struct literal's zero value), which stops the interval growing.
func cenkaltiZeroField(maxInterval, mult float64) (string, bool) {
	switch {
	case maxInterval <= 0:
		return "MaxInterval", true
	case mult <= 0:
		return "Multiplier", true
	}
	return "", false
}
