package importer

import (
	"math"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "istio", detect: 3, doc: 5, source: istioSource, policies: istioPolicies, read: readIstio})
	register(format{name: "envoy", detect: 4, doc: 4, source: envoySource, policies: envoyPolicies, read: readEnvoy})
}

// envoySource is Envoy's code: its docs still give the back-off before
// v1.14.0, U[0, (2^n - 1) * base), where the code doubles the interval.
const envoySource = "envoyproxy/envoy source/common/common/backoff_strategy.cc (JitteredExponentialBackOffStrategy: U[0, min(base * 2^(n-1), max)) since v1.14.0, not the docs' (2^n - 1) * base), source/common/router/retry_state_impl.cc, api/envoy/config/route/v3/route_components.proto"

const istioSource = "istio/istio pilot/pkg/networking/core/route/retry/retry.go (DefaultPolicy, ConvertPolicy), networking/v1 VirtualService HTTPRetry (1.28); back-off from Envoy's router (25ms base, 250ms max, or retries.backoff and 10 times it)"

// Envoy's router defaults (retry_state_impl.cc): a route without
// retry_back_off backs off from 25ms to at most 250ms; max_interval
// defaults to 10 times base_interval; num_retries to 1. A route's timeout
// defaults to 15s.
const (
	envoyBase         = 0.025
	envoyMax          = 0.25
	envoyRouteTimeout = 15.0
)

// envoyPolicy is Envoy's back-off: U[0, min(base * 2^(n-1), max)) in
// whole milliseconds, full jitter on a capped doubling.
func envoyPolicy() backoff.Policy {
	return backoff.Policy{Growth: backoff.Exponential, Base: backoff.Seconds(envoyBase), Factor: 2, Cap: backoff.Seconds(envoyMax),
		Jitter: backoff.Full, Attempts: 2}
}

// isRetryPolicy reports whether n is an Envoy RetryPolicy (YAML's
// snake_case or proto JSON's camelCase).
func isRetryPolicy(n *node) bool {
	for _, k := range []string{"num_retries", "retry_on", "retry_back_off", "numRetries", "retryOn", "retryBackOff", "per_try_timeout"} {
		if n.has(k, false) {
			return true
		}
	}
	return false
}

// envoyHolder is a map holding a retry_policy (a route's action, a
// virtual host) and the map around it (the route entry, with its name
// and match).
type envoyHolder struct{ n, parent *node }

func envoyHolders(docs []*node) []envoyHolder {
	var out []envoyHolder
	var rec func(n, p *node)
	rec = func(n, p *node) {
		if n == nil {
			return
		}
		if n.kind == nMap {
			for _, k := range []string{"retry_policy", "retryPolicy"} {
				if v, _ := n.get(k, false); v != nil && v.kind == nMap && isRetryPolicy(v) {
					out = append(out, envoyHolder{n, p})
					break
				}
			}
		}
		for _, v := range n.vals {
			rec(v, n)
		}
	}
	for _, d := range docs {
		rec(d, nil)
	}
	return out
}

// name is what a list calls a holder: its name, its route entry's, or the
// route's match.
func (h envoyHolder) name() string {
	for _, n := range []*node{h.n, h.parent} {
		if v, _ := n.get("name", false); v != nil && v.kind == nScalar {
			return clip(v.text)
		}
	}
	if m, _ := h.parent.get("match", false); m != nil {
		for _, k := range []string{"prefix", "path", "path_separated_prefix"} {
			if v, _ := m.get(k, false); v != nil && v.kind == nScalar {
				return clip(v.text)
			}
		}
	}
	return ""
}

func envoyPolicies(in *input) ([]site, string) {
	docs := in.documents()
	hs := envoyHolders(docs)
	if len(hs) == 0 && len(docs) == 1 && docs[0].kind == nMap && isRetryPolicy(docs[0]) {
		return []site{{line: docs[0].line, at: -1}}, ""
	}
	out := make([]site, len(hs))
	for i, h := range hs {
		rp, line := h.n.get("retry_policy", false)
		if rp == nil {
			_, line = h.n.get("retryPolicy", false)
		}
		out[i] = site{name: h.name(), line: line, at: i}
	}
	return out, ""
}

// envoyRouteKeys are the keys of a route's action: a holder with one of
// them is a route, with its own timeout.
var envoyRouteKeys = []string{"cluster", "weighted_clusters", "weightedClusters", "cluster_header", "clusterHeader", "timeout"}

// readEnvoy reads a retry_policy and its route's timeout: the route's
// own, or Envoy's default of 15s when the text holds no route around the
// policy (said so).
func readEnvoy(in *input, r *reader, s site) error {
	docs := in.documents()
	var holder, rp *node
	if s.at >= 0 {
		holder = envoyHolders(docs)[s.at].n
		if rp, _ = holder.get("retry_policy", false); rp == nil {
			rp, _ = holder.get("retryPolicy", false)
		}
	} else {
		rp = docs[0]
	}
	p := &r.res.Policy
	*p = envoyPolicy()
	seenRetries, seenBackOff := false, false
	for i, k := range rp.keys {
		v, line := rp.vals[i], rp.keyLines[i]
		switch k {
		case "num_retries", "numRetries":
			seenRetries = true
			if f, ok := r.nodeNum(k, v, line, true, "1"); ok {
				r.attempts(k, v.source(), f+1, line)
			}
		case "retry_back_off", "retryBackOff":
			seenBackOff = true
			readEnvoyBackOff(r, v)
		case "retry_on", "retryOn", "retriable_status_codes", "retriableStatusCodes", "retriable_headers", "retriableHeaders",
			"retriable_request_headers", "retriableRequestHeaders":
			r.ignore(k, line, ReasonClassify)
		case "per_try_timeout", "perTryTimeout", "per_try_idle_timeout", "perTryIdleTimeout":
			r.ignore(k, line, ReasonPerTry)
		default:
			r.ignore(k, line, ReasonNotModelled)
		}
	}
	if !seenRetries {
		r.def("num_retries", "1")
	}
	if !seenBackOff {
		r.def("retry_back_off", "base_interval 0.025s, max_interval 0.25s (the router's default)")
	}
	r.def("jitter", "U[0, interval) in whole milliseconds")
	r.warn(CodeRounding, 0, []string{"1ms"}, "Envoy works in whole milliseconds: it draws whole milliseconds below the interval")
	route := false
	for _, k := range envoyRouteKeys {
		route = route || holder.has(k, false)
	}
	switch t, line := holder.get("timeout", false); {
	case t != nil:
		if sec, ok := r.nodeDur("timeout", t, line, protoSeconds, "15s"); ok {
			r.deadlineTimeout("route timeout", t.source(), sec, line, "Envoy")
		} else {
			r.deadlineTimeout("route timeout", "15s", envoyRouteTimeout, line, "Envoy")
		}
	case route:
		r.def("timeout", "15s (the route's default)")
		r.deadlineTimeout("route timeout", "15s", envoyRouteTimeout, 0, "Envoy")
	default:
		// A retry_policy on its own, or a virtual host's: the route it
		// applies to has a timeout, 15s unless the route sets one.
		r.def("timeout", "15s (the route's default)")
		r.warn(CodeNotInText, rp.line, []string{"timeout", "15s"},
			"the route's own timeout is not in the text: Envoy's default for a route, 15s, is read as the deadline")
		r.deadlineTimeout("route timeout", "15s", envoyRouteTimeout, 0, "Envoy")
	}
	r.capSanity()
	return nil
}

func readEnvoyBackOff(r *reader, bo *node) {
	p := &r.res.Policy
	base, max := envoyBase, math.NaN()
	for i, k := range bo.keys {
		v, line := bo.vals[i], bo.keyLines[i]
		switch k {
		case "base_interval", "baseInterval":
			if sec, ok := r.nodeDur(k, v, line, protoSeconds, "0.025s"); ok && sec > 0 {
				base = sec
			}
		case "max_interval", "maxInterval":
			if sec, ok := r.nodeDur(k, v, line, protoSeconds, "10 times base_interval"); ok && sec > 0 {
				max = sec
			}
		default:
			r.ignore(k, line, ReasonUnknown)
		}
	}
	// Whole milliseconds, at least 1ms (backoff_strategy.cc).
	base = math.Max(math.Floor(base*1000+1e-9)/1000, 0.001)
	if math.IsNaN(max) {
		max = 10 * base
		r.def("max_interval", "10 times base_interval")
	}
	max = math.Max(math.Floor(max*1000+1e-9)/1000, base)
	r.duration(&p.Base, "base_interval", secondsText(base), base, bo.line, false)
	r.duration(&p.Cap, "max_interval", secondsText(max), max, bo.line, true)
}

// istioRoutes lists a VirtualService's http routes.
func istioRoutes(docs []*node) []*node {
	var out []*node
	for _, d := range docs {
		spec, _ := d.get("spec", false)
		if spec == nil {
			if k, _ := d.get("kind", false); k == nil && d.has("http", false) {
				spec = d
			}
		}
		if http, _ := spec.get("http", false); http != nil {
			out = append(out, http.listItems()...)
		}
	}
	return out
}

// istioRetries are the routes that set retries, or else the first route
// (Istio gives every route 2 retries).
func istioRetries(docs []*node) (routes []*node, dflt bool) {
	all := istioRoutes(docs)
	for _, rt := range all {
		if rt.has("retries", false) {
			routes = append(routes, rt)
		}
	}
	if len(routes) == 0 && len(all) > 0 {
		return all[:1], true
	}
	return routes, false
}

func istioPolicies(in *input) ([]site, string) {
	docs := in.documents()
	vs := false
	for _, d := range docs {
		if k, _ := d.get("kind", false); k != nil && k.text == "VirtualService" {
			vs = true
		}
	}
	routes, dflt := istioRetries(docs)
	switch {
	case len(routes) == 0 && vs:
		return nil, "the VirtualService has no http routes"
	case len(routes) == 0 || dflt && !vs:
		return nil, ""
	}
	// A route without a name goes by its VirtualService's.
	vsName := map[*node]string{}
	for _, d := range docs {
		md, _ := d.get("metadata", false)
		n, _ := md.get("name", false)
		spec, _ := d.get("spec", false)
		http, _ := spec.get("http", false)
		for _, rt := range http.listItems() {
			if n != nil && n.kind == nScalar {
				vsName[rt] = n.text
			}
		}
	}
	out := make([]site, len(routes))
	for i, rt := range routes {
		name := vsName[rt]
		if v, _ := rt.get("name", false); v != nil && v.kind == nScalar {
			name = v.text
		}
		name = clip(name)
		line := rt.line
		if _, l := rt.get("retries", false); l > 0 {
			line = l
		}
		out[i] = site{name: name, line: line, at: i}
	}
	return out, ""
}

// readIstio reads a route's retries: attempts counts retries; without a
// retries block Istio gives every route 2 retries. Istio sets no
// retry_back_off unless retries.backoff gives its base, so Envoy's
// default back-off applies. A route's timeout is off by default.
func readIstio(in *input, r *reader, s site) error {
	routes, dflt := istioRetries(in.documents())
	route := routes[s.at]
	var retries *node
	if dflt {
		r.def("retries", "attempts 2 (Istio's default retry policy)")
	} else {
		retries, _ = route.get("retries", false)
	}
	p := &r.res.Policy
	*p = envoyPolicy()
	p.Attempts = 3
	seen, backoffSet := false, false
	if retries != nil {
		for i, k := range retries.keys {
			v, l := retries.vals[i], retries.keyLines[i]
			switch k {
			case "attempts":
				seen = true
				if f, ok := r.nodeNum(k, v, l, false, "2"); ok {
					r.attempts(k, v.source(), f+1, l)
				}
			case "retryOn", "retry_on":
				r.ignore(k, l, ReasonClassify)
			case "perTryTimeout", "per_try_timeout":
				r.ignore(k, l, ReasonPerTry)
			case "backoff":
				// ConvertPolicy makes it retry_back_off's base_interval;
				// Envoy's max_interval then defaults to 10 times it.
				if sec, ok := r.nodeDur(k, v, l, istioSeconds, "25ms"); ok && sec > 0 {
					backoffSet = true
					r.duration(&p.Base, k, v.source(), sec, l, false)
					r.duration(&p.Cap, k, v.source(), 10*sec, l, true)
				}
			default:
				r.ignore(k, l, ReasonNotModelled)
			}
		}
		if !seen {
			r.def("attempts", "2")
		}
	}
	if backoffSet {
		r.def("max interval", "10 x backoff (Envoy's max_interval default)")
	} else {
		r.def("back-off", "Envoy's default: U[0, min(25ms * 2^(n-1), 250ms)) in whole milliseconds")
	}
	r.warn(CodeRounding, 0, []string{"1ms"}, "Envoy works in whole milliseconds: it draws whole milliseconds below the interval")
	if t, l := route.get("timeout", false); t != nil {
		if sec, ok := r.nodeDur("timeout", t, l, istioSeconds, "no deadline"); ok {
			r.deadlineTimeout("timeout", t.source(), sec, l, "Istio")
		}
	} else {
		r.def("timeout", "none (Istio turns the route timeout off by default)")
	}
	return nil
}

// istioSeconds reads an Istio duration: 100ms, 1s, 1m, 1h.
func istioSeconds(s string) (float64, bool) {
	return unitSeconds(s, map[string]float64{"ms": 1e-3, "s": 1, "m": 60, "h": 3600}, false)
}
