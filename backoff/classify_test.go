package backoff

import (
	"errors"
	"slices"
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
	produced := map[string]bool{}
	for _, c := range []struct {
		name       string
		call       Call
		retry      bool
		reason     string
		code       string
		args       []string
		retryAfter time.Duration // -1: none
		badHeader  string        // the retry-after header reported as ignored
	}{
		{"408", Call{Status: 408}, true, "408 is retryable", ReasonRetryable, []string{"408"}, -1, ""},
		{"429 with Retry-After seconds", Call{Status: 429, Header: h("Retry-After", "120")}, true, "retryable", ReasonRetryable, []string{"429"}, 2 * time.Minute, ""},
		{"500", Call{Status: 500}, true, "retryable", ReasonRetryable, []string{"500"}, -1, ""},
		{"502", Call{Status: 502}, true, "retryable", ReasonRetryable, []string{"502"}, -1, ""},
		{"503 with HTTP-date", Call{Status: 503, Now: now, Header: h("retry-after", "Wed, 02 Dec 2026 08:00:30 GMT")}, true, "retryable", ReasonRetryable, []string{"503"}, 30 * time.Second, ""},
		{"504", Call{Status: 504}, true, "retryable", ReasonRetryable, []string{"504"}, -1, ""},
		{"400", Call{Status: 400}, false, "same answer", ReasonNotRetryable, []string{"400"}, -1, ""},
		{"401", Call{Status: 401}, false, "authentication", ReasonAuth, []string{"401"}, -1, ""},
		{"403", Call{Status: 403}, false, "authorisation", ReasonAuth, []string{"403"}, -1, ""},
		{"404", Call{Status: 404}, false, "same answer", ReasonNotRetryable, []string{"404"}, -1, ""},
		{"409", Call{Status: 409}, false, "same answer", ReasonNotRetryable, []string{"409"}, -1, ""},
		{"422", Call{Status: 422}, false, "same answer", ReasonNotRetryable, []string{"422"}, -1, ""},
		{"501", Call{Status: 501}, false, "does not support", ReasonUnsupported, []string{"501"}, -1, ""},
		{"507 other 5xx", Call{Status: 507}, true, "server error", ReasonServerError, []string{"507"}, -1, ""},
		{"418 other 4xx", Call{Status: 418}, false, "client error", ReasonClientError, []string{"418"}, -1, ""},
		{"200 not a failure", Call{Status: 200}, false, "not a failure", ReasonNotFailure, []string{"200"}, -1, ""},
		{"101 not a failure", Call{Status: 101}, false, "not a failure", ReasonNotFailure, []string{"101"}, -1, ""},
		{"status out of range", Call{Status: 1000}, false, "not an HTTP status", ReasonNotHTTPStatus, []string{"1000"}, -1, ""},
		{"transport error", Call{Status: 0}, true, "transport", ReasonNoResponse, nil, -1, ""},
		{"transport error ignores a body", Call{Status: 0, Body: "temporarily unavailable"}, true, "transport", ReasonNoResponse, nil, -1, ""},
		{"POST 503 no key", Call{Method: "post", Status: 503}, false, "not idempotent", ReasonNotIdempotent, []string{"POST"}, -1, ""},
		{"POST 503 with key", Call{Method: "POST", Status: 503, IdempotencyKey: "k"}, true, "idempotency key", ReasonRetryable, []string{"503"}, -1, ""},
		{"PATCH 500 no key", Call{Method: "PATCH", Status: 500}, false, "not idempotent", ReasonNotIdempotent, []string{"PATCH"}, -1, ""},
		{"PUT 500", Call{Method: "PUT", Status: 500}, true, "retryable", ReasonRetryable, []string{"500"}, -1, ""},
		{"DELETE 502", Call{Method: "DELETE", Status: 502}, true, "retryable", ReasonRetryable, []string{"502"}, -1, ""},
		// The article's own case: body beats status.
		{"400 temporarily unavailable", Call{Status: 400, Body: `{"error":{"message":"The model is temporarily unavailable at the provider, please try again later"}}`}, true, "body beats status", ReasonTransientBody, []string{"400", "temporarily unavailable"}, -1, ""},
		{"400 overloaded", Call{Status: 400, Body: "Upstream OVERLOADED"}, true, "body beats status", ReasonTransientBody, []string{"400", "overloaded"}, -1, ""},
		{"400 russian", Call{Status: 400, Body: "Сервис временно недоступен, попробуйте позже"}, true, "body beats status", ReasonTransientBody, []string{"400", "временно недоступ"}, -1, ""},
		{"503 overloaded", Call{Status: 503, Body: "overloaded"}, true, "retryable and the body says", ReasonRetryableBody, []string{"503", "overloaded"}, -1, ""},
		{"400 validation", Call{Status: 400, Body: "field 'email' is invalid"}, false, "same answer", ReasonNotRetryable, []string{"400"}, -1, ""},
		{"401 expired token", Call{Status: 401, Body: "token expired"}, false, "credential", ReasonBadCredential, []string{"401", "token expired"}, -1, ""},
		{"401 expired token and try later", Call{Status: 401, Body: "token expired, try again later"}, false, "credential", ReasonBadCredential, []string{"401", "token expired"}, -1, ""},
		{"503 but token expired", Call{Status: 503, Body: "invalid_token"}, false, "permanent", ReasonPermanentBody, []string{"invalid_token"}, -1, ""},
		{"ms header wins", Call{Status: 429, Header: h("Retry-After", "10", "retry-after-ms", "1500")}, true, "retryable", ReasonRetryable, []string{"429"}, 1500 * time.Millisecond, ""},
		{"x-amz-retry-after", Call{Status: 503, Header: h("X-Amz-Retry-After", "250")}, true, "retryable", ReasonRetryable, []string{"503"}, 250 * time.Millisecond, ""},
		{"bad Retry-After reported", Call{Status: 503, Header: h("Retry-After", "soon")}, true, "retryable", ReasonRetryable, []string{"503"}, -1, "Retry-After"},
		{"bad ms header reported, Retry-After used", Call{Status: 503, Header: h("retry-after-ms", "-1", "Retry-After", "3")}, true, "retryable", ReasonRetryable, []string{"503"}, 3 * time.Second, "retry-after-ms"},
		{"huge body", Call{Status: 400, Body: strings.Repeat("x", MaxBody) + "temporarily unavailable"}, false, "same answer", ReasonNotRetryable, []string{"400"}, -1, ""},
	} {
		v := Classify(c.call, DefaultRules())
		produced[v.Code] = true
		if v.Retry != c.retry || !strings.Contains(v.Reason, c.reason) || v.Code != c.code || !slices.Equal(v.Args, c.args) {
			t.Errorf("%s: got retry=%v %q [%s %q]; want retry=%v, a reason mentioning %q, [%s %q]",
				c.name, v.Retry, v.Reason, v.Code, v.Args, c.retry, c.reason, c.code, c.args)
		}
		if c.retryAfter < 0 && v.HasRetryAfter || c.retryAfter >= 0 && (!v.HasRetryAfter || v.RetryAfter != c.retryAfter) {
			t.Errorf("%s: retry-after %v (%v), want %v", c.name, v.RetryAfter, v.HasRetryAfter, c.retryAfter)
		}
		switch {
		case c.badHeader == "" && v.RetryAfterError != nil:
			t.Errorf("%s: retry-after error %v, want none", c.name, v.RetryAfterError)
		case c.badHeader != "" && (v.RetryAfterError == nil || v.RetryAfterError.Field != c.badHeader || v.RetryAfterError.Code == ""):
			t.Errorf("%s: retry-after error %+v, want one for %s with a code", c.name, v.RetryAfterError, c.badHeader)
		}
		// The reason never repeats itself, nor the Retry-After shown beside it.
		if strings.Contains(v.Reason, "wait") || strings.Count(v.Reason, "retry") > 1 {
			t.Errorf("%s: reason %q repeats itself or the Retry-After", c.name, v.Reason)
		}
	}
	for _, code := range ReasonCodes {
		if !produced[code] {
			t.Errorf("reason code %q produced by no case", code)
		}
	}
	if len(produced) != len(ReasonCodes) {
		t.Errorf("cases produced %d codes, ReasonCodes lists %d", len(produced), len(ReasonCodes))
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

func TestParseStatus(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{{"503", 503, true}, {" 0 ", 0, true}, {"100", 100, true}, {"599", 599, true},
		{"99", 0, false}, {"600", 0, false}, {"999", 0, false}, {"-5", 0, false}, {"5x", 0, false}, {"", 0, false}} {
		got, err := ParseStatus("status", c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseStatus(%q) = %d, %v", c.in, got, err)
		}
		var fe *FieldError
		if err != nil && (!errors.As(err, &fe) || fe.Code != CodeInt || fe.Args[0] != "100" || fe.Args[1] != "599") {
			t.Errorf("ParseStatus(%q): error %#v", c.in, err)
		}
	}
}

func TestParseHeaderLines(t *testing.T) {
	h, err := ParseHeaderLines("headers", []string{"Retry-After: 5", "", "  ", "X-Amz-Retry-After:250", "retry-after: 7"})
	if err != nil || len(h["Retry-After"]) != 1 || h["Retry-After"][0] != "5" || h["X-Amz-Retry-After"][0] != "250" || h["retry-after"][0] != "7" {
		t.Fatalf("got %v, %v", h, err)
	}
	for _, bad := range []string{"Retry-After 5", ": 5", "Bad Name: 1", "Ключ: 1"} {
		_, err := ParseHeaderLines("headers", []string{bad})
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Code != CodeFormat || fe.Field != "headers" {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// go-retryablehttp's early policy does not retry a 429, where the article
// does; it retries any 5xx but 501, whatever the method.
func TestRuleSets(t *testing.T) {
	old, err := LookupRules("retryablehttp-2019")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		call     Call
		article  bool
		oldRetry bool
	}{
		{Call{Status: 429}, true, false},
		{Call{Status: 503}, true, true},
		{Call{Status: 501}, false, false},
		{Call{Status: 503, Method: "POST"}, false, true},
		{Call{Status: 0}, true, true},
	} {
		if got := Classify(c.call, DefaultRules()).Retry; got != c.article {
			t.Errorf("article %+v: %v", c.call, got)
		}
		if got := Classify(c.call, old.Rules).Retry; got != c.oldRetry {
			t.Errorf("retryablehttp %+v: %v", c.call, got)
		}
	}
	if _, err := LookupRules("nope"); err == nil {
		t.Error("an unknown rule set")
	}
}
