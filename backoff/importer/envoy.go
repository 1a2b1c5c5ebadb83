package importer

import (
	"math"

	"github.com/backoff-playground/playground/backoff"
)

const envoySource = "envoyproxy/envoy source/common/common/backoff_strategy.cc, source/common/router/retry_state_impl.cc, api/envoy/config/route/v3/route_components.proto (main, 2026)"

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

func envoyRetryPolicy(docs []*node) (rp, parent *node) {
	return findMap(docs, func(n *node) bool {
		for _, k := range []string{"retry_policy", "retryPolicy"} {
			if v, _ := n.get(k, false); v != nil && v.kind == nMap && isRetryPolicy(v) {
				return true
			}
		}
		return false
	})
}

func detectEnvoy(in *input) bool {
	if holder, _ := envoyRetryPolicy(in.documents()); holder != nil {
		return true
	}
	docs := in.documents()
	return len(docs) == 1 && docs[0].kind == nMap && isRetryPolicy(docs[0])
}

// readEnvoy reads the first retry_policy and its route's timeout.
func readEnvoy(in *input, r *reader) error {
	docs := in.documents()
	holder, _ := envoyRetryPolicy(docs)
	var rp *node
	if holder != nil {
		rp, _ = holder.get("retry_policy", false)
		if rp == nil {
			rp, _ = holder.get("retryPolicy", false)
		}
	} else if len(docs) == 1 && isRetryPolicy(docs[0]) {
		rp = docs[0]
	}
	if rp == nil {
		return noPolicy("no Envoy retry_policy")
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
	if holder != nil && (holder.has("cluster", false) || holder.has("weighted_clusters", false) || holder.has("timeout", false) ||
		holder.has("cluster_header", false) || holder.has("weightedClusters", false)) {
		if t, line := holder.get("timeout", false); t != nil {
			if sec, ok := r.nodeDur("timeout", t, line, protoSeconds, "15s"); ok {
				r.deadlineTimeout("route timeout", t.source(), sec, line, "Envoy")
			} else {
				r.deadlineTimeout("route timeout", "15s", envoyRouteTimeout, line, "Envoy")
			}
		} else {
			r.def("timeout", "15s (the route's default)")
			r.deadlineTimeout("route timeout", "15s", envoyRouteTimeout, 0, "Envoy")
		}
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

func detectIstio(in *input) bool {
	for _, d := range in.documents() {
		if k, _ := d.get("kind", false); k != nil && k.text == "VirtualService" {
			return true
		}
	}
	for _, rt := range istioRoutes(in.documents()) {
		if rt.has("retries", false) {
			return true
		}
	}
	return false
}

// readIstio reads the first http route's retries: attempts counts
// retries; without a retries block Istio gives every route 2 retries.
// Istio sets no retry_back_off unless retries.backoff gives its base, so
// Envoy's default back-off applies. A route's timeout is off by default.
func readIstio(in *input, r *reader) error {
	routes := istioRoutes(in.documents())
	p := &r.res.Policy
	*p = envoyPolicy()
	p.Attempts = 3
	var route, retries *node
	var line, count int
	for _, rt := range routes {
		if v, l := rt.get("retries", false); v != nil {
			if count++; count == 1 {
				route, retries, line = rt, v, l
			}
		}
	}
	if route == nil {
		if len(routes) == 0 {
			return noPolicy("the VirtualService has no http routes")
		}
		route = routes[0]
		r.def("retries", "attempts 2 (Istio's default retry policy)")
	}
	if count > 1 {
		r.warn(CodeSeveral, line, []string{itoa(count), itoa(line)}, "the VirtualService has %d retry policies: the first, at line %d, is read", count, line)
	}
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
