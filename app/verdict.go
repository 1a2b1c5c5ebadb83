package app

import (
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

// verdictKey is the catalog key of the decision alone.
func verdictKey(v backoff.Verdict) string {
	if v.Retry {
		return "verdict.retry"
	}
	return "verdict.no-retry"
}

// verdictReason is why, with the server's requested wait.
func verdictReason(l i18n.Lang, v backoff.Verdict) string {
	s := l.F("reason."+v.Code, v.Args...)
	if v.ViaKey {
		s += " " + l.F("reason.via-key", v.Method)
	}
	if v.HasRetryAfter {
		s += "; " + l.F("reason.retry-after", l.Seconds(v.RetryAfter.Seconds()), v.RetryAfterHeader)
	}
	if e := v.RetryAfterError; e != nil {
		s += "; " + l.F("reason.retry-after-bad", e.Field, ruleText(l, e))
	}
	return s
}
