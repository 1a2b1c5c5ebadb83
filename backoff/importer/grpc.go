package importer

import (
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

func init() {
	register(format{name: "grpc", detect: 2, doc: 3, source: grpcSource, policies: grpcPolicies, read: readGRPC})
}

const grpcSource = "grpc/grpc-go service_config.go (convertRetryPolicy), internal/serviceconfig/duration.go, stream.go (v1.85.0); gRFC A6"

// grpcMaxAttempts is the attempts grpc-go honours unless the channel
// raises it (defaultMaxCallAttempts, grpc.WithMaxCallAttempts).
const grpcMaxAttempts = 5

// grpcConfig finds a service config: the text as JSON, a JSON string
// inside code (Go, Java, Python, JavaScript), or an object literal in
// code (a Python dict, a JavaScript object) converted to JSON token by
// token.
func grpcConfig(in *input) *node {
	if !in.grpcDone {
		in.grpcDone = true
		in.grpc = findGRPCConfig(in)
	}
	return in.grpc
}

func findGRPCConfig(in *input) *node {
	isConfig := func(n *node) bool {
		return n != nil && n.kind == nMap && (n.has("methodConfig", true) || n.has("retryThrottling", true))
	}
	if j := in.jsonValue(); isConfig(j) {
		return j
	}
	if j := in.jsonValue(); j != nil {
		return nil
	}
	c := in.tokens()
	for k := 0; k < len(c.toks); k++ {
		t := c.toks[k]
		if t.kind != tStr {
			continue
		}
		// A run of literals joined by + (Java, Python) or nothing
		// (Python), read once.
		var b strings.Builder
		b.WriteString(t.text)
		j := k + 1
		for j < len(c.toks) && b.Len() <= MaxInput {
			if c.is(j, "+") && j+1 < len(c.toks) && c.toks[j+1].kind == tStr {
				j++
			} else if c.toks[j].kind != tStr {
				break
			}
			b.WriteString(c.toks[j].text)
			j++
		}
		k = j - 1
		text := b.String()
		if !strings.Contains(strings.ToLower(text), "methodconfig") {
			continue
		}
		if n, err := jsonTree(text, int(t.line)-1); err == nil && isConfig(n) {
			return n
		}
	}
	tried := map[int]bool{}
	// Each config tried is converted once, and all of them together at
	// most twice the text's tokens: nested objects each holding a
	// methodConfig key would otherwise cost the square of their depth.
	budget := 2*len(c.toks) + 1000
	for k, t := range c.toks {
		if (t.kind == tStr || t.kind == tIdent) && strings.EqualFold(t.text, "methodConfig") && c.is(k+1, ":") {
			// The innermost { around it opens the config; each is
			// converted once, however many keys it holds.
			o := c.parent[k]
			for depth := 0; o >= 0 && !c.is(o, "{") && depth < 64; depth++ {
				o = c.parent[o]
			}
			if o < 0 || !c.is(o, "{") || tried[o] {
				continue
			}
			tried[o] = true
			if n := objectJSON(c, o, &budget); isConfig(n) {
				return n
			}
		}
	}
	return nil
}

// objectJSON converts an object literal of code to JSON, keeping lines;
// nil for one nested deeper than MaxDepth, which the JSON reader would
// refuse anyway (so converting the rest would be work for nothing).
func objectJSON(c *code, open int, budget *int) *node {
	end := c.match[open]
	var b strings.Builder
	line := c.line(open)
	depth := 0
	for k := open; k <= end; k++ {
		if *budget--; *budget < 0 {
			return nil
		}
		t := c.toks[k]
		if t.kind == tPunct && (t.text == "{" || t.text == "[") {
			if depth++; depth > MaxDepth {
				return nil
			}
		} else if t.kind == tPunct && (t.text == "}" || t.text == "]") {
			depth--
		}
		for ; line < int(t.line); line++ {
			b.WriteByte('\n')
		}
		switch t.kind {
		case tStr:
			jsonString(&b, t.text)
		case tNum:
			f, ok := parseNumber(t.text)
			if !ok {
				return nil
			}
			b.WriteString(formatFloat(f))
		case tIdent:
			switch t.text {
			case "True", "true":
				b.WriteString("true")
			case "False", "false":
				b.WriteString("false")
			case "None", "null":
				b.WriteString("null")
			default:
				if !c.is(k+1, ":") {
					return nil // a variable: not a literal
				}
				jsonString(&b, t.text)
			}
		case tPunct:
			switch t.text {
			case ",":
				if c.is(k+1, "}") || c.is(k+1, "]") {
					continue // a trailing comma
				}
			case "{", "}", "[", "]", ":":
			case "-":
			default:
				return nil
			}
			b.WriteString(t.text)
		}
	}
	n, err := jsonTree(b.String(), c.line(open)-1)
	if err != nil {
		return nil
	}
	return n
}

// grpcMethods are the methodConfig entries with a retryPolicy, each
// named by its names (service/method, service, or "" for all).
func grpcMethods(cfg *node) (items []*node, names []string) {
	mcs, _ := cfg.get("methodConfig", true)
	for _, m := range mcs.listItems() {
		if v, _ := m.get("retryPolicy", true); v == nil {
			continue
		}
		var ns []string
		list, _ := m.get("name", true)
		for _, n := range list.listItems() {
			svc, _ := n.get("service", true)
			meth, _ := n.get("method", true)
			name := ""
			if svc != nil && svc.kind == nScalar {
				name = svc.text
			}
			if meth != nil && meth.kind == nScalar && meth.text != "" {
				name += "/" + meth.text
			}
			if name != "" {
				ns = append(ns, name)
			}
		}
		items = append(items, m)
		names = append(names, clip(strings.Join(ns, ", ")))
	}
	return items, names
}

func grpcPolicies(in *input) ([]site, string) {
	cfg := grpcConfig(in)
	if cfg == nil {
		return nil, ""
	}
	items, names := grpcMethods(cfg)
	if len(items) == 0 {
		return nil, "the gRPC service config has no retryPolicy"
	}
	out := make([]site, len(items))
	for i, m := range items {
		rp, _ := m.get("retryPolicy", true)
		out[i] = site{name: names[i], line: rp.line, at: i}
	}
	return out, ""
}

// readGRPC reads a methodConfig with a retryPolicy, as grpc-go
// converts it: every field is required (maxAttempts above 1, durations
// and the multiplier above 0, a status code), or grpc-go ignores the
// policy whole; maxAttempts above 5 is 5 unless the channel raises it.
// Keys match case-insensitively (encoding/json).
func readGRPC(in *input, r *reader, s site) error {
	cfg := grpcConfig(in)
	p := &r.res.Policy
	*p = backoff.Policy{Growth: backoff.Exponential, Factor: 1, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
		CapMode: backoff.CapBeforeJitter, RetryAfter: backoff.RetryAfterAsIs}
	if th, line := cfg.get("retryThrottling", true); th != nil {
		mt, l1 := th.get("maxTokens", true)
		tr, l2 := th.get("tokenRatio", true)
		var b Budget
		ok := mt != nil && tr != nil
		if ok {
			var ok1, ok2 bool
			b.MaxTokens, ok1 = r.nodeNum("retryThrottling.maxTokens", mt, l1, false, "")
			b.TokenRatio, ok2 = r.nodeNum("retryThrottling.tokenRatio", tr, l2, false, "")
			ok = ok1 && ok2 && b.MaxTokens > 0 && b.MaxTokens <= 1000 && b.TokenRatio > 0
		}
		if ok {
			b.Kind = "grpc"
			r.res.Budget = &b
			r.warn(CodeBudget, line, []string{formatFloat(b.MaxTokens), formatFloat(b.TokenRatio)},
				"retryThrottling (maxTokens %s, tokenRatio %s) stops retries while the tokens are at or below half of maxTokens: "+
					"the delay table does not draw it; simulate it with --budget %s", formatFloat(b.MaxTokens), formatFloat(b.TokenRatio), b.Flag())
		} else {
			r.warn(CodeInvalid, line, []string{"retryThrottling", ""},
				"retryThrottling needs maxTokens in (0, 1000] and tokenRatio above 0: grpc-go rejects the whole service config")
		}
	}
	items, _ := grpcMethods(cfg)
	mc := items[s.at]
	rp, _ := mc.get("retryPolicy", true)
	for i, k := range mc.keys {
		switch strings.ToLower(k) {
		case "retrypolicy", "name":
		case "timeout":
			if sec, ok := r.nodeDur("timeout", mc.vals[i], mc.keyLines[i], protoSeconds, "no deadline"); ok {
				r.deadlineTimeout("timeout", mc.vals[i].source(), sec, mc.keyLines[i], "gRPC")
			}
		case "hedgingpolicy":
			r.ignore(k, mc.keyLines[i], ReasonNotModelled)
		default:
			r.ignore(k, mc.keyLines[i], ReasonNotModelled)
		}
	}
	valid := true
	invalid := func(key, value string, line int, want string) {
		valid = false
		r.warn(CodeInvalid, line, []string{key, value}, "%s is %s: grpc-go wants %s and ignores the whole retry policy otherwise, so calls are not retried", key, value, want)
	}
	get := func(key string) (*node, int) { return rp.get(key, true) }
	if v, line := get("maxAttempts"); v == nil {
		invalid("maxAttempts", "missing", rp.line, "a whole number above 1")
	} else if n, ok := r.nodeNum("maxAttempts", v, line, false, ""); !ok || n <= 1 || n != float64(int64(n)) {
		invalid("maxAttempts", v.source(), line, "a whole number above 1")
	} else {
		if n > grpcMaxAttempts {
			r.warn(CodeRange, line, []string{"maxAttempts", v.source(), itoa(grpcMaxAttempts)},
				"maxAttempts is %s: grpc-go treats it as %d unless the channel raises its limit (grpc.WithMaxCallAttempts)", v.source(), grpcMaxAttempts)
			n = grpcMaxAttempts
		}
		r.attempts("maxAttempts", v.source(), n, line)
	}
	for _, f := range []struct {
		key string
		dst *float64
	}{{"initialBackoff", nil}, {"maxBackoff", nil}} {
		v, line := get(f.key)
		if v == nil {
			invalid(f.key, "missing", rp.line, "a duration above 0 such as \"0.1s\"")
			continue
		}
		sec, ok := r.nodeDur(f.key, v, line, protoSeconds, "")
		if !ok || !(sec > 0) {
			invalid(f.key, v.source(), line, "a duration above 0 such as \"0.1s\"")
			continue
		}
		if f.key == "initialBackoff" {
			r.duration(&p.Base, f.key, v.source(), sec, line, false)
		} else {
			r.duration(&p.Cap, f.key, v.source(), sec, line, true)
		}
	}
	if v, line := get("backoffMultiplier"); v == nil {
		invalid("backoffMultiplier", "missing", rp.line, "a number above 0")
	} else if f, ok := r.nodeNum("backoffMultiplier", v, line, false, ""); !ok || !(f > 0) {
		invalid("backoffMultiplier", v.source(), line, "a number above 0")
	} else {
		r.factor("backoffMultiplier", v.source(), f, line)
	}
	if v, line := get("retryableStatusCodes"); v == nil || len(v.listItems()) == 0 {
		invalid("retryableStatusCodes", "missing", rp.line, "at least one status code")
	} else {
		r.ignore("retryableStatusCodes", line, ReasonClassify)
	}
	for i, k := range rp.keys {
		switch strings.ToLower(k) {
		case "maxattempts", "initialbackoff", "maxbackoff", "backoffmultiplier", "retryablestatuscodes":
		default:
			r.ignore(k, rp.keyLines[i], ReasonUnknown)
		}
	}
	r.def("jitter", "d*U[0.8,1.2) (grpc-go v1.69 and later, gRFC A6 as amended in 2024; grpc-go v1.68 and older, grpc-js (retrying-call.ts) and A6's first text: U[0, d))")
	r.def("grpc-retry-pushback-ms", "a server's pushback sets the next delay exactly")
	if !valid {
		p.Attempts = 1
	}
	r.capSanity()
	return nil
}

// listItems is a list's items, or nil.
func (n *node) listItems() []*node {
	if n == nil || n.kind != nList {
		return nil
	}
	return n.vals
}

// jsonString writes s as a JSON string.
func jsonString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			b.WriteByte('\\')
			b.WriteByte(ch)
		case ch < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('"')
}
