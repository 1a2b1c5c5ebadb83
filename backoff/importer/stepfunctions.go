package importer

import (
	"github.com/backoff-playground/playground/backoff"
)

const stepFunctionsSource = "Amazon States Language, Retry field (IntervalSeconds 1, MaxAttempts 3, BackoffRate 2.0, MaxDelaySeconds, JitterStrategy NONE|FULL), AWS Step Functions developer guide, 2024"

// retriers lists the ASL retriers: the maps of every "Retry" list.
func retriers(docs []*node) []*node {
	var out []*node
	for _, d := range docs {
		d.walk(func(n *node) bool {
			if v, _ := n.get("Retry", false); v != nil {
				for _, it := range v.listItems() {
					if it.kind == nMap && it.has("ErrorEquals", false) {
						out = append(out, it)
					}
				}
			}
			return true
		})
		// A bare list of retriers.
		for _, it := range d.listItems() {
			if it.kind == nMap && it.has("ErrorEquals", false) {
				out = append(out, it)
			}
		}
	}
	return out
}

func detectStepFunctions(in *input) bool { return len(retriers(in.documents())) > 0 }

// readStepFunctions reads the first retrier: the delay before retry n is
// IntervalSeconds * BackoffRate^(n-1), capped at MaxDelaySeconds, drawn
// from U[0, that) with JitterStrategy FULL; MaxAttempts counts retries.
func readStepFunctions(in *input, r *reader) error {
	rs := retriers(in.documents())
	if len(rs) == 0 {
		return noPolicy("no Retry field with ErrorEquals")
	}
	rt := rs[0]
	if len(rs) > 1 {
		r.warn(CodeSeveral, rt.line, []string{itoa(len(rs)), itoa(rt.line)},
			"the state machine has %d retriers: the first, at line %d, is read (each state's errors pick their own)", len(rs), rt.line)
	}
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
