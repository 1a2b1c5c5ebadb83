package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "step-functions", detect: 1, doc: 12, source: stepFunctionsSource, policies: stepFunctionsPolicies, read: readStepFunctions})
}

const stepFunctionsSource = "Amazon States Language, Retry field (IntervalSeconds 1, MaxAttempts 3, BackoffRate 2.0, MaxDelaySeconds, JitterStrategy NONE|FULL), AWS Step Functions developer guide, 2024"

// retrier is one ASL retrier and the state it belongs to.
type retrier struct {
	n     *node
	state string
}

// retriers lists the ASL retriers: the maps of every "Retry" list, named
// by their state (its key in States), and the maps of a bare list.
func retriers(docs []*node) []retrier {
	var out []retrier
	var rec func(n *node, key string)
	rec = func(n *node, key string) {
		if n == nil {
			return
		}
		if v, _ := n.get("Retry", false); v != nil {
			for _, it := range v.listItems() {
				if it.kind == nMap && it.has("ErrorEquals", false) {
					out = append(out, retrier{it, key})
				}
			}
		}
		for i, v := range n.vals {
			k := ""
			if n.kind == nMap {
				k = n.keys[i]
			}
			rec(v, k)
		}
	}
	for _, d := range docs {
		rec(d, "")
		for _, it := range d.listItems() { // a bare list of retriers
			if it.kind == nMap && it.has("ErrorEquals", false) {
				out = append(out, retrier{it, ""})
			}
		}
	}
	return out
}

func stepFunctionsPolicies(in *input) ([]site, string) {
	var out []site
	for i, rt := range retriers(in.documents()) {
		out = append(out, site{name: rt.state, line: rt.n.line, at: i})
	}
	return out, ""
}

// readStepFunctions reads the first retrier: the delay before retry n is
// IntervalSeconds * BackoffRate^(n-1), capped at MaxDelaySeconds, drawn
// from U[0, that) with JitterStrategy FULL; MaxAttempts counts retries.
func readStepFunctions(in *input, r *reader, s site) error {
	rt := retriers(in.documents())[s.at].n
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Base: backoff.Seconds(1), Factor: 2, Jitter: backoff.NoJitter, Attempts: 4}
	seen := map[string]bool{}
	for i, k := range rt.keys {
		v, line := rt.vals[i], rt.keyLines[i]
		seen[k] = true
		switch k {
		case "ErrorEquals":
			r.ignore(k, line, ReasonClassify)
		case "IntervalSeconds":
			if f, ok := r.nodeNum(k, v, line, false, "1"); ok {
				r.duration(&p.Base, k, v.source(), f, line, false)
			}
		case "MaxAttempts":
			if f, ok := r.nodeNum(k, v, line, false, "3"); ok {
				r.attempts(k, v.source(), f+1, line)
			}
		case "BackoffRate":
			if f, ok := r.nodeNum(k, v, line, false, "2.0"); ok {
				r.factor(k, v.source(), f, line)
			}
		case "MaxDelaySeconds":
			if f, ok := r.nodeNum(k, v, line, false, "no cap"); ok {
				r.duration(&p.Cap, k, v.source(), f, line, true)
			}
		case "JitterStrategy":
			r.set(k, v.source(), line)
			switch v.text {
			case "FULL":
				p.Jitter = backoff.Full
			case "NONE":
			default:
				r.warn(CodeUnreadable, line, []string{k, v.source()}, "JitterStrategy is %s: want FULL or NONE: NONE is used instead", v.source())
			}
		case "Comment":
		default:
			r.ignore(k, line, ReasonUnknown)
		}
	}
	for _, d := range []struct{ k, v string }{{"IntervalSeconds", "1"}, {"MaxAttempts", "3"}, {"BackoffRate", "2.0"}, {"JitterStrategy", "NONE"}} {
		if !seen[d.k] {
			r.def(d.k, d.v)
		}
	}
	r.capSanity()
	return nil
}
