package backoff

import (
	"errors"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzPolicyParams sets policy parameters from a URL query, as the page and
// the CLI do, then builds a table: nothing may panic, and any table built
// must be internally consistent.
func FuzzPolicyParams(f *testing.F) {
	for _, s := range []string{
		"base=1s&factor=2&cap=30s&attempts=6&jitter=full",
		"growth=polynomial&factor=4&offset=15s&jitter=additive&jitter-add=10s&jitter-add-scaled=true&quantum=1s",
		"jitter=decorrelated&base=5s&cap=2000s&attempts=0",
		"jitter=decorrelated-v2&base=2s&cap=3s&cap-mode=after&attempts=5",
		"growth=geometric&steps=3&base=100ms&cap=10s",
		"deadline=10s&attempts=0&jitter=equal",
		"base=-1&factor=NaN&cap=1e400&attempts=99999",
		"growth=exp-minus-one&base=51.2us&quantum=51.2us&cap=52.3776ms&attempts=16",
		"immediate-first=1&first-unjittered=yes&retry-after=bounded&retry-after-slack=5s",
		"base=1,5 с&cap=2 мин&factor=1,6&jitter=proportional&jitter-lo=0,8&jitter-hi=1,2",
		"base=250 мс&cap=1 ч&deadline=1 д&attempts=0&jitter=decorrelated",
		"jitter=decorrelated-v2&base=2s&cap=5s&cap-mode=exact&attempts=40",
		"growth=exponential&factor=100&cap=0&attempts=1000&jitter=full",
		"base=1s&floor=4s&cap=10s&jitter=full&quantum=1s",
		"floor=2s&jitter=proportional&cap-mode=after&jitter-lo=0.5&jitter-hi=1.5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		p := Default()
		for k, vs := range q {
			for _, v := range vs {
				_ = p.Set(k, v)
			}
		}
		if p.Validate() != nil {
			return
		}
		// Keep each run fast: the table's cost grows with the rows.
		if p.Attempts == 0 || p.Attempts > 12 {
			p.Attempts = 12
		}
		tab, err := NewTable(p, NewRand(1))
		if err != nil {
			t.Fatalf("valid policy, NewTable: %v", err)
		}
		prevCum := 0.0
		for _, r := range tab.Rows {
			for _, v := range []float64{r.Nominal, r.Min, r.Max, r.Mean, r.P50, r.P95, r.Sample, r.CumMin, r.CumMean, r.CumMax} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("retry %d: bad value %v in %+v (policy %+v)", r.Retry, v, r, p)
				}
			}
			tol := 1e-6 * math.Max(1, r.Max)
			if r.Min > r.Mean+tol || r.Mean > r.Max+tol || r.Sample < r.Min-tol || r.Sample > r.Max+tol {
				t.Fatalf("retry %d: min/mean/max/sample out of order: %+v (policy %+v)", r.Retry, r, p)
			}
			if r.CumMean+1e-6*math.Max(1, r.CumMean) < prevCum {
				t.Fatalf("retry %d: cumulative mean decreased", r.Retry)
			}
			prevCum = r.CumMean
		}
	})
}

// FuzzClassify: any call gets a verdict with a reason, and never panics.
func FuzzClassify(f *testing.F) {
	f.Add("GET", 503, "Retry-After", "5", "")
	f.Add("POST", 400, "retry-after-ms", "100", "temporarily unavailable")
	f.Add("", 401, "Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT", "token expired")
	f.Add("PATCH", 0, "x-amz-retry-after", "-1", "\xff\xfe")
	f.Fuzz(func(t *testing.T, method string, status int, hk, hv, body string) {
		v := Classify(Call{Method: method, Status: status, Header: map[string][]string{hk: {hv}}, Body: body,
			Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, DefaultRules())
		if v.Reason == "" {
			t.Fatalf("no reason for %q %d", method, status)
		}
		if v.HasRetryAfter && (v.RetryAfter < 0 || v.RetryAfter > MaxDuration) {
			t.Fatalf("retry-after out of range: %v", v.RetryAfter)
		}
		if !slices.Contains(ReasonCodes, v.Code) {
			t.Fatalf("reason code %q not in ReasonCodes", v.Code)
		}
		// A retry-after header is either used or reported, never dropped.
		for _, name := range []string{"retry-after", "retry-after-ms", "x-ms-retry-after-ms", "x-amz-retry-after"} {
			if strings.EqualFold(hk, name) && !v.HasRetryAfter && v.RetryAfterError == nil {
				t.Fatalf("header %s: %q neither used nor reported", hk, hv)
			}
		}
	})
}

// FuzzParseRetryAfter: delta-seconds and HTTP-dates parse within range;
// everything else is an error, never a panic.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "-1", "1e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseRetryAfter(s, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
		if err == nil && (d < 0 || d > MaxDuration) {
			t.Fatalf("ParseRetryAfter(%q) = %v: out of range", s, d)
		}
	})
}

// FuzzParseDuration: any text parses within [0, max] or is a *FieldError
// naming the field, and a parsed duration's canonical text parses back to
// it exactly.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"250ms", "1.5s", "2m", "1h30m", "3", "0.25", "1,5 с", "250 мс", "2 мин.",
		"1 ч", "1 д", "1м30с", "1 ч 30 мин", "1.5 s", "2 min", "1 h", "1d", "1h 30m", "50 мкс", "3 секунды",
		"-1s", "1e400", "NaN", "1,5,5", "720h0m0.000000001s", "99999999999 d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration("base", s, MaxDuration)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != "base" || fe.Code == "" {
				t.Fatalf("ParseDuration(%q): %v, want a *FieldError with a code", s, err)
			}
			return
		}
		if d < 0 || d > MaxDuration {
			t.Fatalf("ParseDuration(%q) = %v: out of range", s, d)
		}
		back, err := ParseDuration("base", FormatDuration(d), MaxDuration)
		if err != nil || back != d {
			t.Fatalf("ParseDuration(%q) = %v, its text %q parses to %v, %v", s, d, FormatDuration(d), back, err)
		}
	})
}
