package backoff

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Call is a failed HTTP call as the classifier sees it.
type Call struct {
	Method string // GET, POST, ...; empty means GET
	// IdempotencyKey is the key sent with the request, if any (Stripe's
	// Idempotency-Key): it makes a non-idempotent method safe to retry.
	IdempotencyKey string
	// Status is the HTTP status; 0 means no response (a transport error).
	Status int
	// Header holds the response headers; names are matched case-insensitively.
	Header map[string][]string
	Body   string
	// Now is the time the response arrived, for a Retry-After HTTP-date.
	Now time.Time
}

// Verdict answers "should this failed call be retried, and why".
type Verdict struct {
	Retry  bool
	Reason string
	// RetryAfter is the server's requested delay, valid when HasRetryAfter.
	RetryAfter    time.Duration
	HasRetryAfter bool
	// RetryAfterHeader names the header RetryAfter came from.
	RetryAfterHeader string
}

// Rules are the classifier's knobs. DefaultRules are the article's.
type Rules struct {
	Retryable    []int // statuses worth retrying
	NotRetryable []int // statuses a retry cannot change
	// TransientBody are phrases (lower case) that mark a response as a
	// temporary failure whatever its status says: body beats status.
	TransientBody []string
	// PermanentBody are phrases that mark a failure as permanent (an expired
	// or revoked credential) whatever else the response says.
	PermanentBody []string
	// Idempotent are the methods safe to repeat (RFC 9110 9.2.2).
	Idempotent []string
}

// DefaultRules returns the article's classification: 408 429 500 502 503 504
// are retried; 400 401 403 404 409 422 are not; POST and PATCH only with an
// idempotency key; a body saying the service is temporarily unavailable
// makes even a 400 retryable, while a 401 with an expired token never is.
func DefaultRules() Rules {
	return Rules{
		Retryable:    []int{408, 429, 500, 502, 503, 504},
		NotRetryable: []int{400, 401, 403, 404, 409, 422},
		TransientBody: []string{
			"temporarily unavailable", "temporarily overloaded", "overloaded",
			"try again later", "please retry", "retry later", "service unavailable",
			"временно недоступ", "попробуйте позже", "перегружен",
		},
		PermanentBody: []string{
			"token expired", "expired token", "token has expired", "invalid token",
			"invalid_token", "token revoked", "токен истёк", "истёкший токен",
		},
		Idempotent: []string{"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"},
	}
}

// MaxBody is how much of a body the classifier reads; phrases sit near the
// start, and this bounds the work on any input.
const MaxBody = 64 << 10

// Classify decides whether call should be retried under rules. It is pure
// and total: any input gets a verdict with a reason.
//
// The order matters and follows the article: a credential problem is never
// retried; a non-idempotent method without a key is not retried (a second
// POST creates a second order); the body beats the status; then the status.
func Classify(call Call, rules Rules) Verdict {
	method := strings.ToUpper(strings.TrimSpace(call.Method))
	if method == "" {
		method = "GET"
	}
	body := call.Body
	if len(body) > MaxBody {
		body = body[:MaxBody]
	}
	lbody := strings.ToLower(body)
	v := Verdict{}
	if d, name, ok := retryAfterFromHeaders(call.Header, call.Now); ok {
		v.RetryAfter, v.HasRetryAfter, v.RetryAfterHeader = d, true, name
	}
	st := call.Status
	switch {
	case st >= 200 && st < 400:
		v.Reason = fmt.Sprintf("status %d is not a failure", st)
		return v
	case st != 0 && (st < 100 || st > 599):
		v.Reason = fmt.Sprintf("status %d is not an HTTP status (100..599)", st)
		return v
	}
	if st == 401 || st == 403 {
		if ph, ok := findPhrase(lbody, rules.PermanentBody); ok {
			v.Reason = fmt.Sprintf("status %d with %q in the body: the credential is bad, a retry gets the same answer", st, ph)
		} else {
			v.Reason = fmt.Sprintf("status %d: authentication or authorisation failed; retrying cannot fix it and may lock the account", st)
		}
		return v
	}
	if ph, ok := findPhrase(lbody, rules.PermanentBody); ok {
		v.Reason = fmt.Sprintf("the body says %q: a permanent failure, a retry gets the same answer", ph)
		return v
	}
	if !contains(rules.Idempotent, method) && call.IdempotencyKey == "" {
		v.Reason = fmt.Sprintf("%s is not idempotent and no idempotency key was sent: a retry could repeat the side effect", method)
		return v
	}
	via := ""
	if !contains(rules.Idempotent, method) {
		via = fmt.Sprintf(" (%s is safe to repeat with its idempotency key)", method)
	}
	if ph, ok := findPhrase(lbody, rules.TransientBody); ok {
		v.Retry = true
		if contains(rules.Retryable, st) {
			v.Reason = fmt.Sprintf("status %d is retryable and the body says %q%s", st, ph, via)
		} else {
			v.Reason = fmt.Sprintf("status %d, but the body says %q: a temporary failure, body beats status%s", st, ph, via)
		}
		return v
	}
	switch {
	case st == 0:
		v.Retry = true
		v.Reason = "no response (a transport error): the call may not have arrived" + via
	case contains(rules.Retryable, st):
		v.Retry = true
		v.Reason = fmt.Sprintf("status %d is retryable%s", st, via)
		if v.HasRetryAfter {
			v.Reason += fmt.Sprintf("; the server asks to wait %s (%s)", FormatDuration(v.RetryAfter), v.RetryAfterHeader)
		}
	case contains(rules.NotRetryable, st):
		v.Reason = fmt.Sprintf("status %d: a retry would get the same answer", st)
	case st == 501 || st == 505:
		v.Reason = fmt.Sprintf("status %d: the server does not support this request; a retry cannot change that", st)
	case st >= 500:
		v.Retry = true
		v.Reason = fmt.Sprintf("status %d is a server error, usually temporary%s", st, via)
	default:
		v.Reason = fmt.Sprintf("status %d is a client error: a retry would get the same answer", st)
	}
	return v
}

// retryAfterFromHeaders reads the server's requested delay from, in order,
// the millisecond headers (retry-after-ms, x-ms-retry-after-ms,
// x-amz-retry-after) and Retry-After (seconds or HTTP-date).
func retryAfterFromHeaders(h map[string][]string, now time.Time) (time.Duration, string, bool) {
	get := func(name string) (string, bool) {
		for k, vs := range h {
			if strings.EqualFold(k, name) && len(vs) > 0 {
				return vs[0], true
			}
		}
		return "", false
	}
	for _, name := range []string{"retry-after-ms", "x-ms-retry-after-ms", "x-amz-retry-after"} {
		if s, ok := get(name); ok {
			if ms, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil && ms >= 0 && ms <= int64(MaxDuration/time.Millisecond) {
				return time.Duration(ms) * time.Millisecond, name, true
			}
		}
	}
	if s, ok := get("Retry-After"); ok {
		if d, err := ParseRetryAfter(s, now); err == nil {
			return d, "Retry-After", true
		}
	}
	return 0, "", false
}

// ParseRetryAfter reads an RFC 9110 Retry-After value: delta-seconds (a
// non-negative whole number) or an HTTP-date, taken relative to now (a date
// in the past means 0). Values above MaxDuration are refused.
func ParseRetryAfter(value string, now time.Time) (time.Duration, error) {
	v := strings.TrimSpace(value)
	allowed := "delta-seconds (0 to " + strconv.Itoa(int(MaxDuration.Seconds())) + ") or an HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT"
	if v == "" || len(v) > 64 {
		return 0, fieldErr("Retry-After", truncate(v, 64), allowed)
	}
	if v[0] >= '0' && v[0] <= '9' {
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0, fieldErr("Retry-After", v, allowed)
			}
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n > uint64(MaxDuration.Seconds()) {
			return 0, fieldErr("Retry-After", v, allowed)
		}
		return time.Duration(n) * time.Second, nil
	}
	for _, layout := range []string{time.RFC1123, "Monday, 02-Jan-06 15:04:05 MST", time.ANSIC} {
		if t, err := time.Parse(layout, v); err == nil {
			d := t.Sub(now)
			if d < 0 {
				d = 0
			}
			if d > MaxDuration || t.Year() > 9999 {
				return 0, fieldErr("Retry-After", v, allowed)
			}
			return d.Round(time.Second), nil
		}
	}
	return 0, fieldErr("Retry-After", v, allowed)
}

func findPhrase(lbody string, phrases []string) (string, bool) {
	if lbody == "" {
		return "", false
	}
	for _, p := range phrases {
		if strings.Contains(lbody, p) {
			return p, true
		}
	}
	return "", false
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
