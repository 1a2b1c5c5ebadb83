package app

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// errText is an error for a person reading l: the field's name, the value
// as typed (typed; "" means the error's own) and the allowed values, worded
// from the core's code and arguments.
func errText(l i18n.Lang, err error, typed string) string {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return l.T("err.generic")
	}
	v := fe.Value
	if typed != "" {
		v = typed
	}
	return l.F("err.field", fieldName(l, fe.Field), clip(v, 40), ruleText(l, fe))
}

// topologyErrText is an error about a topology document for a person
// reading l: the line (when it has one), the node and key it names
// ("nodes.NAME.KEY") or the field, the value and the allowed values.
func topologyErrText(l i18n.Lang, err error) string {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return l.T("err.generic")
	}
	s := l.F("err.field", fieldName(l, fe.Field), clip(fe.Value, 40), ruleText(l, fe))
	if fe.Line > 0 {
		s = l.F("topo.at-line", l.Int(int64(fe.Line)), s)
	}
	return s
}

// fieldName is how the page names a parameter: its key (what links and
// flags use) and, where the page has one, its label.
func fieldName(l i18n.Lang, key string) string {
	if rest, ok := strings.CutPrefix(key, "nodes."); ok {
		if node, k, ok := strings.Cut(rest, "."); ok {
			return l.F("topo.node-key", node, k) // a topology's node's key
		}
	}
	if lbl, ok := fieldLabels[key]; ok {
		return l.T(lbl) + " (" + key + ")"
	}
	for _, f := range herdFields {
		if f.name == key {
			return l.T(f.label) + " (" + key + ")"
		}
	}
	if sim.ParamOwn(key) != nil {
		return l.T("herd."+key) + " (" + key + ")"
	}
	return key
}

// fieldLabels are the catalog keys of the parameters' labels.
var fieldLabels = map[string]string{
	backoff.ParamBase: "policy.base", backoff.ParamFactor: "policy.factor", backoff.ParamCap: "policy.cap",
	backoff.ParamAttempts: "policy.attempts", backoff.ParamJitter: "policy.jitter",
	backoff.ParamCapMode: "policy.cap-mode", backoff.ParamDeadline: "policy.deadline-short", backoff.ParamFloor: "policy.floor-short",
	backoff.ParamGrowth: "policy.growth", backoff.ParamJitterLo: "policy.jitter-lo",
	backoff.ParamJitterHi: "policy.jitter-hi", backoff.ParamJitterAdd: "policy.jitter-add",
	backoff.ParamSteps: "policy.steps", keySeed: "policy.seed",
	"quantum": "policy.quantum", "offset": "policy.offset", "immediate-first": "policy.immediate-first",
	"first-unjittered": "policy.first-unjittered", "first-exponent": "policy.first-exponent",
	"cap-after-jitter": "policy.cap-after-jitter", "jitter-add-scaled": "policy.jitter-add-scaled",
	"retry-after": "policy.retry-after", "retry-after-slack": "policy.retry-after-slack",
	"clients": "herd.clients", "server": "herd.server", "capacity": "herd.capacity",
	"outage-end": "herd.outage-end", "collapse-factor": "herd.collapse", "arrival": "herd.arrival",
	"budget": "herd.budget", "breaker": "herd.breaker", "retry-after-s": "herd.retry-after",
	"latency": "herd.latency", "runs": "herd.runs", "servers": "herd.servers", "balance": "herd.balance",
	"discipline": "herd.discipline", "admission": "herd.admission",
	"topology": "topo.doc", "faults": "herd.fault", "entry": "topo.entry",
	"cache-keys": "herd.cache-keys", "cache-ttl": "herd.cache-ttl", "cache-start": "herd.cache-start", "cache-zipf": "herd.cache-zipf",
	sim.ParamPerServer: "herd.per-server", sim.ParamPropagate: "herd.propagate",
	sim.ParamOutageStart: "herd.outage-start", sim.ParamCapacityWindow: "herd.capacity-window",
	sim.ParamCollapseWindow: "herd.collapse-window", sim.ParamLatencySD: "herd.latency-sd",
	sim.ParamBucket: "herd.bucket", sim.ParamHorizon: "herd.horizon", sim.ParamMaxCalls: "herd.max-calls",
}

// ruleText words the rule a value broke.
func ruleText(l i18n.Lang, fe *backoff.FieldError) string {
	a := func(i int) string {
		if i < len(fe.Args) {
			return fe.Args[i]
		}
		return ""
	}
	switch fe.Code {
	case backoff.CodeInt:
		s := l.F("rule.int", numArg(l, a(0)), numArg(l, a(1)))
		switch a(2) {
		case backoff.ZeroNoLimit:
			s += " " + l.T("rule.zero-no-limit")
		case backoff.ZeroDefault:
			s += " " + l.F("rule.zero-default", numArg(l, a(3)))
		}
		return s
	case backoff.CodeNumber:
		return l.F("rule.number", numArg(l, a(0)), numArg(l, a(1)))
	case backoff.CodePositive:
		return l.F("rule.positive", valueArg(l, a(0)))
	case backoff.CodeDuration:
		return l.F("rule.duration", durArg(l, a(0)), durArg(l, a(1)))
	case backoff.CodeChoice, backoff.CodeUnknown:
		if len(fe.Args) > 12 {
			return l.T("rule.choice-list")
		}
		return l.F("rule.choice", strings.Join(fe.Args, ", "))
	case backoff.CodeBool:
		return l.T("rule.bool")
	case backoff.CodeAtLeast:
		return l.F("rule.at-least", fieldName(l, fe.Other), valueArg(l, a(0)))
	case backoff.CodeAtMost:
		return l.F("rule.at-most", fieldName(l, fe.Other), valueArg(l, a(0)))
	case backoff.CodeZeroOrAtLeast:
		if fe.Other != "" {
			return l.F("rule.zero-or-at-least-field", fieldName(l, fe.Other), valueArg(l, a(0)))
		}
		return l.F("rule.zero-or-at-least", valueArg(l, a(0)))
	case backoff.CodeNeeds:
		lo, hi := valueArg(l, a(1)), valueArg(l, a(2))
		if lo == hi {
			return l.F("rule.needs-exactly", fieldName(l, fe.Other), a(0), lo)
		}
		return l.F("rule.needs", fieldName(l, fe.Other), a(0), lo, hi)
	case backoff.CodeTooLong:
		return l.F("rule.too-long", numArg(l, a(0)))
	case backoff.CodeFormat:
		return l.F("rule.format", strings.Join(fe.Args, ", "))
	case backoff.CodeRetryAfter:
		return l.F("rule.retry-after", durArg(l, a(0)))
	case backoff.CodeTotalAtLeast:
		return l.F("rule.total-at-least", durArg(l, a(0)), fieldName(l, a(1)), valueArg(l, a(2)))
	case backoff.CodeSampledTotal:
		return l.F("rule.sampled-total", fieldName(l, fe.Other), a(0))
	case backoff.CodeUnread:
		return l.T("rule.unread")
	case backoff.CodeSweep:
		switch a(0) {
		case backoff.SweepName:
			return l.F("rule.sweep-name", strings.Join(fe.Args[1:], ", "))
		case backoff.SweepNumbers, backoff.SweepStep, backoff.SweepOrder, backoff.SweepResolution, backoff.SweepPoints:
			return l.F("rule.sweep-"+a(0), numArg(l, a(1)), numArg(l, a(2)), numArg(l, a(3)))
		case backoff.SweepValue:
			return l.F("rule.sweep-value", a(1))
		}
		return l.T("rule.sweep-form")
	case backoff.CodeMemory:
		if a(2) == sim.MemoryRun {
			return l.F("rule.memory-run", valueArg(l, a(0)), numArg(l, a(1)))
		}
		return l.F("rule.memory", valueArg(l, a(0)), numArg(l, a(1)))
	}
	return l.T("err.generic")
}

// numArg is a canonical number in l's format.
func numArg(l i18n.Lang, s string) string {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return l.Int(n)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return l.Num(f)
	}
	return s
}

// durArg is a canonical duration in l's format.
func durArg(l i18n.Lang, s string) string {
	if d, err := time.ParseDuration(s); err == nil {
		return l.Duration(d, s)
	}
	return s
}

// valueArg is a number or a duration, whichever s is.
func valueArg(l i18n.Lang, s string) string {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return numArg(l, s)
	}
	return durArg(l, s)
}
