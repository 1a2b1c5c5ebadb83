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

// Verdict answers "should this failed call be retried, and why". Reason
// is English; Code and Args say the same as data for a page that words it
// in another language.
//
// Reason states the decision only: it does not repeat the server's
// Retry-After, which callers show beside it from RetryAfter (or
// RetryAfterError), so no text says it twice.
type Verdict struct {
	Retry  bool
	Reason string
	// Code is the reason: one of ReasonCodes. Args are its parameters;
	// each Reason constant says what they hold.
	Code string
	Args []string
	// Method is the method as classified: upper case, GET when empty.
	// ViaKey is true when a method that is not idempotent is retried
	// because the call carried an idempotency key.
	Method string
	ViaKey bool
	// RetryAfter is the server's requested delay, valid when HasRetryAfter.
	RetryAfter    time.Duration
	HasRetryAfter bool
	// RetryAfterHeader names the header RetryAfter came from.
	RetryAfterHeader string
	// RetryAfterError is the first retry-after header read whose value was
	// not valid, and so was ignored (nil if none): Field is the header's
	// name, Value its value, Code CodeRetryAfter, CodeInt (milliseconds
	// headers, Args {0, max}) or CodeTooLong.
	RetryAfterError *FieldError
}

// Reason codes: why a Verdict says retry or not. Args hold canonical text:
// a status as a decimal number, a phrase as found in the rules (lower case),
// a method in upper case.
const (
	// ReasonNotFailure: the status (Args[0]) is 1xx, 2xx or 3xx.
	ReasonNotFailure = "not-failure"
	// ReasonNotHTTPStatus: Args[0] is outside 100..599.
	ReasonNotHTTPStatus = "not-http-status"
	// ReasonBadCredential: 401 or 403 (Args[0]) and the body names a bad
	// credential (Args[1]).
	ReasonBadCredential = "bad-credential"
	// ReasonAuth: 401 or 403 (Args[0]): authentication or authorisation
	// failed.
	ReasonAuth = "auth"
	// ReasonPermanentBody: the body says the failure is permanent (Args[0]).
	ReasonPermanentBody = "permanent-body"
	// ReasonNotIdempotent: the method (Args[0]) is not idempotent and no
	// idempotency key was sent.
	ReasonNotIdempotent = "not-idempotent"
	// ReasonRetryableBody: a retryable status (Args[0]) whose body also
	// says the failure is temporary (Args[1]).
	ReasonRetryableBody = "retryable-body"
	// ReasonTransientBody: a status (Args[0]) not retried by itself, but
	// the body says the failure is temporary (Args[1]): body beats status.
	ReasonTransientBody = "transient-body"
	// ReasonNoResponse: status 0, a transport error. No Args.
	ReasonNoResponse = "no-response"
	// ReasonRetryable: the status (Args[0]) is in the retryable list.
	ReasonRetryable = "retryable"
	// ReasonNotRetryable: the status (Args[0]) is in the not-retryable list.
	ReasonNotRetryable = "not-retryable"
	// ReasonUnsupported: 501 or 505 (Args[0]): the server does not support
	// the request.
	ReasonUnsupported = "unsupported"
	// ReasonServerError: another 5xx (Args[0]), usually temporary.
	ReasonServerError = "server-error"
	// ReasonClientError: another 4xx (Args[0]).
	ReasonClientError = "client-error"
)

// ReasonCodes lists every Verdict.Code.
var ReasonCodes = []string{
	ReasonNotFailure, ReasonNotHTTPStatus, ReasonBadCredential, ReasonAuth, ReasonPermanentBody,
	ReasonNotIdempotent, ReasonRetryableBody, ReasonTransientBody, ReasonNoResponse, ReasonRetryable,
	ReasonNotRetryable, ReasonUnsupported, ReasonServerError, ReasonClientError,
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
	st := call.Status
	body := call.Body
	if len(body) > MaxBody {
		body = body[:MaxBody]
	}
	if st == 0 {
		body = "" // no response, so no body to read
	}
	lbody := strings.ToLower(body)
	v := Verdict{Method: method}
	v.RetryAfter, v.RetryAfterHeader, v.HasRetryAfter, v.RetryAfterError = retryAfterFromHeaders(call.Header, call.Now)
	status := strconv.Itoa(st)
	say := func(retry bool, code, reason string, args ...string) Verdict {
		v.Retry, v.Code, v.Reason, v.Args = retry, code, reason, args
		return v
	}
	switch {
	case st != 0 && (st < 100 || st > 599):
		return say(false, ReasonNotHTTPStatus, fmt.Sprintf("status %d is not an HTTP status (100..599)", st), status)
	case st >= 100 && st < 400:
		return say(false, ReasonNotFailure, fmt.Sprintf("status %d is not a failure", st), status)
	}
	if st == 401 || st == 403 {
		if ph, ok := findPhrase(lbody, rules.PermanentBody); ok {
			return say(false, ReasonBadCredential,
				fmt.Sprintf("status %d with %q in the body: the credential is bad, a retry gets the same answer", st, ph), status, ph)
		}
		return say(false, ReasonAuth,
			fmt.Sprintf("status %d: authentication or authorisation failed; retrying cannot fix it and may lock the account", st), status)
	}
	if ph, ok := findPhrase(lbody, rules.PermanentBody); ok {
		return say(false, ReasonPermanentBody, fmt.Sprintf("the body says %q: a permanent failure, a retry gets the same answer", ph), ph)
	}
	if !contains(rules.Idempotent, method) && call.IdempotencyKey == "" {
		return say(false, ReasonNotIdempotent,
			fmt.Sprintf("%s is not idempotent and no idempotency key was sent: a retry could repeat the side effect", method), method)
	}
	via := ""
	if !contains(rules.Idempotent, method) {
		v.ViaKey = true
		via = fmt.Sprintf(" (%s is safe to repeat with its idempotency key)", method)
	}
	if ph, ok := findPhrase(lbody, rules.TransientBody); ok {
		if contains(rules.Retryable, st) {
			return say(true, ReasonRetryableBody, fmt.Sprintf("status %d is retryable and the body says %q%s", st, ph, via), status, ph)
		}
		return say(true, ReasonTransientBody,
			fmt.Sprintf("status %d, but the body says %q: a temporary failure, body beats status%s", st, ph, via), status, ph)
	}
	switch {
	case st == 0:
		return say(true, ReasonNoResponse, "no response (a transport error): the call may not have arrived"+via)
	case contains(rules.Retryable, st):
		return say(true, ReasonRetryable, fmt.Sprintf("status %d is retryable%s", st, via), status)
	case contains(rules.NotRetryable, st):
		return say(false, ReasonNotRetryable, fmt.Sprintf("status %d: a retry would get the same answer", st), status)
	case st == 501 || st == 505:
		return say(false, ReasonUnsupported,
			fmt.Sprintf("status %d: the server does not support this request; a retry cannot change that", st), status)
	case st >= 500:
		return say(true, ReasonServerError, fmt.Sprintf("status %d is a server error, usually temporary%s", st, via), status)
	}
	return say(false, ReasonClientError, fmt.Sprintf("status %d is a client error: a retry would get the same answer", st), status)
}

// retryAfterFromHeaders reads the server's requested delay from, in order,
// the millisecond headers (retry-after-ms, x-ms-retry-after-ms,
// x-amz-retry-after) and Retry-After (seconds or HTTP-date).
//
// A header present with a value that is not valid is skipped, and the
// first such one is returned as bad, so the verdict can say it was ignored.
func retryAfterFromHeaders(h map[string][]string, now time.Time) (d time.Duration, name string, ok bool, bad *FieldError) {
	get := func(name string) (string, bool) {
		for k, vs := range h {
			if strings.EqualFold(k, name) && len(vs) > 0 {
				return vs[0], true
			}
		}
		return "", false
	}
	maxMS := int64(MaxDuration / time.Millisecond)
	for _, name := range []string{"retry-after-ms", "x-ms-retry-after-ms", "x-amz-retry-after"} {
		if s, found := get(name); found {
			s = strings.TrimSpace(s)
			if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 && ms <= maxMS {
				return time.Duration(ms) * time.Millisecond, name, true, bad
			}
			if bad == nil {
				bad = &FieldError{Field: name, Value: truncate(s, maxInput), Code: CodeInt,
					Args:    []string{"0", strconv.FormatInt(maxMS, 10)},
					Allowed: "a whole number of milliseconds from 0 to " + strconv.FormatInt(maxMS, 10)}
			}
		}
	}
	if s, found := get("Retry-After"); found {
		d, err := ParseRetryAfter(s, now)
		if err == nil {
			return d, "Retry-After", true, bad
		}
		if bad == nil {
			bad = err.(*FieldError)
		}
	}
	return 0, "", false, bad
}

// ParseRetryAfter reads an RFC 9110 Retry-After value: delta-seconds (a
// non-negative whole number) or an HTTP-date, taken relative to now (a date
// in the past means 0). Values above MaxDuration are refused.
func ParseRetryAfter(value string, now time.Time) (time.Duration, error) {
	v := strings.TrimSpace(value)
	if len(v) > maxInput {
		return 0, tooLongErr("Retry-After", v, maxInput)
	}
	maxS := strconv.Itoa(int(MaxDuration.Seconds()))
	bad := &FieldError{Field: "Retry-After", Value: v, Code: CodeRetryAfter, Args: []string{maxS},
		Allowed: "delta-seconds (0 to " + maxS + ") or an HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT"}
	if v == "" {
		return 0, bad
	}
	if v[0] >= '0' && v[0] <= '9' {
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0, bad
			}
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n > uint64(MaxDuration.Seconds()) {
			return 0, bad
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
				return 0, bad
			}
			return d.Round(time.Second), nil
		}
	}
	return 0, bad
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

// Status bounds: 0 is "no response" (a transport error); HTTP statuses run
// from 100 to 599.
const (
	MinStatus = 100
	MaxStatus = 599
)

// ParseStatus reads an HTTP status as a person types it: 100 to 599, or 0
// for no response. Errors are a *FieldError (CodeInt, Args {100, 599}).
func ParseStatus(field, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n != 0 && (n < MinStatus || n > MaxStatus) {
		return 0, &FieldError{Field: field, Value: truncate(s, 64), Code: CodeInt,
			Args:    []string{strconv.Itoa(MinStatus), strconv.Itoa(MaxStatus)},
			Allowed: "an HTTP status from 100 to 599, or 0 for no response (a transport error)"}
	}
	return n, nil
}

// ParseHeaderLines reads response headers written one per line as
// "Name: value" (blank lines are skipped). A line without a colon or with a
// name that is not an RFC 9110 token is a *FieldError (CodeFormat).
func ParseHeaderLines(field string, lines []string) (map[string][]string, error) {
	m := map[string][]string{}
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || !isToken(name) {
			return nil, &FieldError{Field: field, Value: truncate(line, 64), Code: CodeFormat,
				Args: []string{"Name: value"}, Allowed: "'Name: value', such as 'Retry-After: 5'"}
		}
		m[name] = append(m[name], strings.TrimSpace(value))
	}
	return m, nil
}

// isToken reports whether s is an RFC 9110 token, as header names and
// methods are.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// IsMethod reports whether s can be an HTTP method (an RFC 9110 token).
func IsMethod(s string) bool { return isToken(s) }

// RuleSet is a named classification: the article's, or a real library's
// as read from its source, for showing where they differ.
type RuleSet struct {
	Name   string
	Source string
	Rules  Rules
}

// RuleSets lists the classifications by name, the article's first.
func RuleSets() []RuleSet {
	old := Rules{
		// go-retryablehttp's DefaultRetryPolicy before 429 was added: a
		// connection error or a 5xx other than 501 is retried, nothing else.
		Retryable:    []int{500, 502, 503, 504, 505, 506, 507, 508, 509, 510, 511, 520, 521, 522, 523, 524, 525, 526, 527, 529, 598, 599},
		NotRetryable: []int{400, 401, 403, 404, 408, 409, 422, 429, 501},
		Idempotent:   []string{"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "POST", "PATCH"},
	}
	return []RuleSet{
		{"article", "the article's rules", DefaultRules()},
		{"retryablehttp-2019", "hashicorp/go-retryablehttp client.go DefaultRetryPolicy before 429 was retried (2020)", old},
	}
}

// LookupRules returns the named classification, or a *FieldError listing
// the names.
func LookupRules(name string) (RuleSet, error) {
	sets := RuleSets()
	names := make([]string, len(sets))
	for i, s := range sets {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	return RuleSet{}, unknownErr("rules", truncate(name, maxInput), names)
}
