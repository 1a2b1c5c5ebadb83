package importer

import (
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "resilience4j", detect: 5, doc: 7, source: r4jSource, policies: r4jPolicies, read: readResilience4j})
}

const r4jSource = "resilience4j resilience4j-framework-common CommonRetryConfigurationProperties.java, resilience4j-core IntervalFunction.java, RetryConfig.java (2.4.0)"

// r4jLeaves lists the resilience4j.retry settings of YAML documents or a
// properties file, keys folded (Spring's relaxed binding).
func r4jLeaves(in *input) []flat {
	if in.r4jDone {
		return in.r4j
	}
	in.r4jDone = true
	var all []flat
	if docs := in.documents(); len(docs) > 0 && docs[0].kind == nMap {
		for _, d := range docs {
			all = append(all, flatten(d, r4jPath)...)
		}
	} else if props, ok := properties(in.text, r4jPath); ok {
		all = props
	}
	for _, f := range all {
		if strings.HasPrefix(normKey(f.path), "resilience4j.retry.") {
			in.r4j = append(in.r4j, f)
		}
	}
	return in.r4j
}

// r4jPath reports whether a path can lead to a resilience4j.retry
// setting: resilience4j.retry.(instances|configs|backends).NAME.KEY, a
// KEY being a few levels deep at most (retry-exceptions[0]).
func r4jPath(path string) bool {
	const root = "resilience4j.retry"
	k := normKey(path)
	if len(k) <= len(root) {
		return strings.HasPrefix(root, k)
	}
	return strings.HasPrefix(k, root+".") && strings.Count(path, ".") <= 8
}

// r4jGroup is an instance or a config: "instances.NAME" or
// "configs.NAME" (backends: the 1.x name of instances).
type r4jGroup struct {
	kind, name string
	keys       map[string]flat
	order      []string
}

// r4jGroups are the text's instances and configs, by id, and their ids
// in the text's order.
func r4jGroups(in *input) (map[string]*r4jGroup, []string) {
	groups := map[string]*r4jGroup{}
	var order []string
	for _, f := range r4jLeaves(in) {
		parts := strings.Split(f.path, ".")
		if len(parts) < 5 {
			continue
		}
		kind := normKey(parts[2])
		if kind == "backends" {
			kind = "instances"
		}
		if kind != "instances" && kind != "configs" {
			continue
		}
		id := kind + "." + parts[3]
		g := groups[id]
		if g == nil {
			g = &r4jGroup{kind: kind, name: parts[3], keys: map[string]flat{}}
			groups[id] = g
			order = append(order, id)
		}
		k := normKey(strings.Join(parts[4:], "."))
		if _, dup := g.keys[k]; !dup {
			g.order = append(g.order, k)
		}
		g.keys[k] = f
	}
	return groups, order
}

// r4jPolicies are the instances, or, without instances, the configs.
func r4jPolicies(in *input) ([]site, string) {
	groups, order := r4jGroups(in)
	var out []site
	add := func(i int, id string) {
		g := groups[id]
		out = append(out, site{name: g.name, line: g.keys[g.order[0]].line, at: i})
	}
	for i, id := range order {
		if groups[id].kind == "instances" {
			add(i, id)
		}
	}
	if len(out) == 0 {
		for i, id := range order {
			add(i, id)
		}
	}
	// RetryConfig.custom() chains in Java: at is -1 - their index.
	if c := in.tokens(); len(out) == 0 {
		for i, cs := range r4jBuilders(c) {
			out = append(out, site{name: c.siteName(cs), line: cs.line, at: -1 - i})
		}
	}
	if len(out) == 0 && len(r4jLeaves(in)) > 0 {
		return nil, "no resilience4j.retry instance or config"
	}
	return out, ""
}

// readResilience4j reads an instance (or a config) with its base config
// and the "default" config under it, as the Spring Boot starter merges
// them.
func readResilience4j(in *input, r *reader, s site) error {
	if s.at < 0 {
		c := in.tokens()
		return readR4jBuilder(c, r, r4jBuilders(c)[-1-s.at])
	}
	groups, order := r4jGroups(in)
	chosen := groups[order[s.at]]
	// The settings in force: the instance's, over its base config's, over
	// the default config's.
	settings := map[string]flat{}
	var keys []string
	merge := func(g *r4jGroup) {
		if g == nil {
			return
		}
		for _, k := range g.order {
			if _, ok := settings[k]; !ok {
				keys = append(keys, k)
			}
			settings[k] = g.keys[k]
		}
	}
	if chosen.kind == "instances" {
		base := "default"
		if b, ok := chosen.keys["baseconfig"]; ok {
			base = b.val.text
		}
		if base != "default" {
			merge(groups["configs.default"])
		}
		merge(groups["configs."+base])
	}
	merge(chosen)

	wait, mult, factor, maxWait := 0.5, 1.5, 0.5, 0.0
	attempts := 3.0
	exp, rnd := false, false
	for _, k := range keys {
		f := settings[k]
		key := f.path
		switch k {
		case "maxattempts", "maxretryattempts":
			if n, ok := r.nodeNum(key, f.val, f.line, true, "3"); ok {
				attempts = n
			}
		case "waitduration":
			if s, ok := r.nodeDur(key, f.val, f.line, springSeconds, "500ms"); ok {
				wait = s
			}
		case "enableexponentialbackoff":
			exp, _ = r.nodeBool(key, f.val, f.line, "false")
		case "exponentialbackoffmultiplier":
			if n, ok := r.nodeNum(key, f.val, f.line, true, "1.5"); ok {
				mult = n
			}
		case "exponentialmaxwaitduration":
			if s, ok := r.nodeDur(key, f.val, f.line, springSeconds, "no maximum"); ok {
				maxWait = s
			}
		case "enablerandomizedwait":
			rnd, _ = r.nodeBool(key, f.val, f.line, "false")
		case "randomizedwaitfactor":
			if n, ok := r.nodeNum(key, f.val, f.line, true, "0.5"); ok {
				factor = n
			}
		case "retryexceptions", "ignoreexceptions", "retryexceptionpredicate", "resultpredicate", "retryonresultpredicate", "ignoreexceptionpredicate":
			r.ignore(key, f.line, ReasonClassify)
		case "baseconfig":
			r.set(key, f.val.source(), f.line)
		default:
			if strings.Contains(k, "[") || strings.HasPrefix(k, "retryexceptions") || strings.HasPrefix(k, "ignoreexceptions") {
				r.ignore(key, f.line, ReasonClassify)
			} else {
				r.ignore(key, f.line, ReasonNotModelled)
			}
		}
	}
	for _, d := range []struct{ k, v string }{{"maxattempts", "3"}, {"waitduration", "500ms"}, {"enableexponentialbackoff", "false"}, {"enablerandomizedwait", "false"}} {
		if _, ok := settings[d.k]; !ok {
			r.def(d.k, d.v)
		}
	}
	if _, ok := settings["exponentialbackoffmultiplier"]; exp && !ok {
		r.def("exponentialBackoffMultiplier", "1.5")
	}
	if _, ok := settings["randomizedwaitfactor"]; rnd && !ok {
		r.def("randomizedWaitFactor", "0.5")
	}
	// CommonRetryConfigurationProperties (configureExponentialBackoff,
	// configureExponentialBackoffAndRandomizedWait) passes the max wait
	// on only with an exponentialBackoffMultiplier set, and with random
	// waits the factor only with the multiplier and the max only with
	// both: what it leaves out, IntervalFunction's defaults replace.
	_, hasMult := settings["exponentialbackoffmultiplier"]
	_, hasFactor := settings["randomizedwaitfactor"]
	unread := func(key, needs string) {
		f := settings[key]
		r.warn(CodeIgnored, f.line, []string{f.path, ReasonUnknown},
			"%s is ignored: resilience4j reads it only with %s set", f.path, needs)
	}
	if exp && rnd && !hasMult && hasFactor {
		unread("randomizedwaitfactor", "exponentialBackoffMultiplier")
		factor = 0.5
	}
	if _, ok := settings["exponentialmaxwaitduration"]; ok && exp && maxWait > 0 {
		switch {
		case !hasMult:
			unread("exponentialmaxwaitduration", "exponentialBackoffMultiplier")
			maxWait = 0
		case rnd && !hasFactor:
			unread("exponentialmaxwaitduration", "exponentialBackoffMultiplier and randomizedWaitFactor")
			maxWait = 0
		}
	}
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Constant, Factor: 1, Jitter: backoff.NoJitter}
	r.attempts("maxAttempts", formatFloat(attempts), attempts, 0)
	r.duration(&p.Base, "waitDuration", secondsText(wait), wait, 0, false)
	if exp {
		p.Growth = backoff.Exponential
		r.factor("exponentialBackoffMultiplier", formatFloat(mult), mult, 0)
		if maxWait > 0 {
			r.duration(&p.Cap, "exponentialMaxWaitDuration", secondsText(maxWait), maxWait, 0, true)
			p.CapMode = backoff.CapAfterJitter
		}
	}
	if rnd {
		if !(factor >= 0 && factor < 1) {
			r.warn(CodeInvalid, 0, []string{"randomizedWaitFactor", formatFloat(factor)},
				"randomizedWaitFactor is %s: resilience4j wants a number from 0 up to 1 and refuses the config otherwise", formatFloat(factor))
			factor = 0.5
		}
		setSpan(p, 1-factor, 1+factor)
	}
	if exp || rnd {
		r.warn(CodeRounding, 0, []string{"1ms"}, "resilience4j works in whole milliseconds: it truncates every wait")
	}
	r.capSanity()
	return nil
}

// setSpan makes p's jitter d * U[lo, hi), named as the core names it
// (none, full, equal) when it is one of those up to a scale: a scale
// moves into Base and Cap, which leaves every delay the same.
func setSpan(p *backoff.Policy, lo, hi float64) {
	capScale := func(f float64) time.Duration {
		if p.CapMode == backoff.CapAfterJitter {
			return p.Cap // the cap clamps the jittered delay: it does not scale
		}
		return scaleDur(p.Cap, f)
	}
	switch {
	case lo == hi:
		p.Base, p.Cap = scaleDur(p.Base, lo), capScale(lo)
		p.Jitter = backoff.NoJitter
	case lo == 0 && hi > 0:
		p.Base, p.Cap = scaleDur(p.Base, hi), capScale(hi)
		p.Jitter = backoff.Full
	case hi > 0 && lo*2 == hi:
		p.Base, p.Cap = scaleDur(p.Base, hi), capScale(hi)
		p.Jitter = backoff.Equal
	default:
		p.Jitter, p.JitterLo, p.JitterHi = backoff.Proportional, lo, hi
	}
}

func scaleDur(d time.Duration, f float64) time.Duration {
	return backoff.Seconds(d.Seconds() * f)
}
