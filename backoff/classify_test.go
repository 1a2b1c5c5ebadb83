package backoff

import (
	"strings"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	h := func(kv ...string) map[string][]string {
		m := map[string][]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = append(m[kv[i]], kv[i+1])
		}
		return m
	}
	for _, c := range []struct {
		name       string
		call       Call
		retry      bool
		reason     string
		retryAfter time.Duration // -1: none
	}{
		{"408", Call{Status: 408}, true, "408 is retryable", -1},
		{"429 with Retry-After seconds", Call{Status: 429, Header: h("Retry-After", "120")}, true, "wait 2m", 2 * time.Minute},
		{"500", Call{Status: 500}, true, "retryable", -1},
		{"502", Call{Status: 502}, true, "retryable", -1},
		{"503 with HTTP-date", Call{Status: 503, Now: now, Header: h("retry-after", "Wed, 02 Dec 2026 08:00:30 GMT")}, true, "retryable", 30 * time.Second},
		{"504", Call{Status: 504}, true, "retryable", -1},
		{"400", Call{Status: 400}, false, "same answer", -1},
		{"401", Call{Status: 401}, false, "authentication", -1},
		{"403", Call{Status: 403}, false, "authorisation", -1},
		{"404", Call{Status: 404}, false, "same answer", -1},
		{"409", Call{Status: 409}, false, "same answer", -1},
		{"422", Call{Status: 422}, false, "same answer", -1},
		{"501", Call{Status: 501}, false, "does not support", -1},
		{"507 other 5xx", Call{Status: 507}, true, "server error", -1},
		{"418 other 4xx", Call{Status: 418}, false, "client error", -1},
		{"200 not a failure", Call{Status: 200}, false, "not a failure", -1},
		{"status out of range", Call{Status: 1000}, false, "not an HTTP status", -1},
		{"transport error", Call{Status: 0}, true, "transport", -1},
		{"POST 503 no key", Call{Method: "post", Status: 503}, false, "not idempotent", -1},
		{"POST 503 with key", Call{Method: "POST", Status: 503, IdempotencyKey: "k"}, true, "idempotency key", -1},
		{"PATCH 500 no key", Call{Method: "PATCH", Status: 500}, false, "not idempotent", -1},
		{"PUT 500", Call{Method: "PUT", Status: 500}, true, "retryable", -1},
		{"DELETE 502", Call{Method: "DELETE", Status: 502}, true, "retryable", -1},
		// The article's own case: body beats status.
		{"400 temporarily unavailable", Call{Status: 400, Body: `{"error":{"message":"The model is temporarily unavailable at the provider, please try again later"}}`}, true, "body beats status", -1},
		{"400 overloaded", Call{Status: 400, Body: "Upstream OVERLOADED"}, true, "body beats status", -1},
		{"400 russian", Call{Status: 400, Body: "Сервис временно недоступен, попробуйте позже"}, true, "body beats status", -1},
		{"400 validation", Call{Status: 400, Body: "field 'email' is invalid"}, false, "same answer", -1},
		{"401 expired token", Call{Status: 401, Body: "token expired"}, false, "credential", -1},
		{"401 expired token and try later", Call{Status: 401, Body: "token expired, try again later"}, false, "credential", -1},
		{"503 but token expired", Call{Status: 503, Body: "invalid_token"}, false, "permanent", -1},
		{"ms header wins", Call{Status: 429, Header: h("Retry-After", "10", "retry-after-ms", "1500")}, true, "retryable", 1500 * time.Millisecond},
		{"x-amz-retry-after", Call{Status: 503, Header: h("X-Amz-Retry-After", "250")}, true, "retryable", 250 * time.Millisecond},
		{"bad Retry-After ignored", Call{Status: 503, Header: h("Retry-After", "soon")}, true, "retryable", -1},
		{"huge body", Call{Status: 400, Body: strings.Repeat("x", MaxBody) + "temporarily unavailable"}, false, "same answer", -1},
	} {
		v := Classify(c.call, DefaultRules())
		if v.Retry != c.retry || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s: got retry=%v %q; want retry=%v and a reason mentioning %q", c.name, v.Retry, v.Reason, c.retry, c.reason)
		}
		if c.retryAfter < 0 && v.HasRetryAfter || c.retryAfter >= 0 && (!v.HasRetryAfter || v.RetryAfter != c.retryAfter) {
			t.Errorf("%s: retry-after %v (%v), want %v", c.name, v.RetryAfter, v.HasRetryAfter, c.retryAfter)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(1994, 11, 6, 8, 49, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{" 5 ", 5 * time.Second, true},
		{"Sun, 06 Nov 1994 08:49:37 GMT", 37 * time.Second, true},  // IMF-fixdate
		{"Sunday, 06-Nov-94 08:49:37 GMT", 37 * time.Second, true}, // RFC 850
		{"Sun Nov  6 08:49:37 1994", 37 * time.Second, true},       // asctime
		{"Sat, 05 Nov 1994 08:49:37 GMT", 0, true},                 // past: now
		{"-5", 0, false},
		{"1.5", 0, false},
		{"5s", 0, false},
		{"", 0, false},
		{"99999999999999999999", 0, false},
		{"Fri, 31 Dec 9999 23:59:59 GMT", 0, false},
	} {
		got, err := ParseRetryAfter(c.in, now)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}
