package importer

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// pickCases are texts holding several policies: each is listed, in the
// text's order with its name, and each can be picked by number or by
// name, read with what belongs to it alone.
var pickCases = []struct {
	name, text string
	list       []Candidate
	// picked: a --pick value, the index it reads and the attempts and
	// base of the policy read then.
	picked []struct {
		pick     string
		index    int
		attempts int
		base     time.Duration
	}
}{
	{"two gRPC method configs", `{
  "methodConfig": [
    {"name": [{"service": "echo.Echo", "method": "UnaryEcho"}],
     "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}},
    {"name": [{"service": "helloworld.Greeter"}, {"service": "helloworld.Farewell"}],
     "retryPolicy": {"maxAttempts": 5, "initialBackoff": "0.5s", "maxBackoff": "5s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}
  ]
}`, []Candidate{{Format: "grpc", Name: "echo.Echo/UnaryEcho", Line: 4}, {Format: "grpc", Name: "helloworld.Greeter, helloworld.Farewell", Line: 6}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"", 0, 3, 100 * ms}, {"2", 1, 5, 500 * ms}, {"echo.Echo/UnaryEcho", 0, 3, 100 * ms}, {"helloworld.greeter, helloworld.farewell", 1, 5, 500 * ms}}},
	{"two Istio routes", `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews}
spec:
  hosts: [reviews]
  http:
  - name: reviews-v2
    match: [{headers: {end-user: {exact: jason}}}]
    route: [{destination: {host: reviews, subset: v2}}]
    retries: {attempts: 4, perTryTimeout: 2s}
  - name: reviews-v1
    route: [{destination: {host: reviews, subset: v1}}]
    retries: {attempts: 1, backoff: 100ms}
`, []Candidate{{Format: "istio", Name: "reviews-v2", Line: 11}, {Format: "istio", Name: "reviews-v1", Line: 14}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"", 0, 5, 25 * ms}, {"reviews-v1", 1, 2, 100 * ms}}},
	{"tenacity and urllib3 in one module", `
import requests
from requests.adapters import HTTPAdapter
from tenacity import retry, stop_after_attempt, wait_fixed
from urllib3.util.retry import Retry

@retry(stop=stop_after_attempt(7), wait=wait_fixed(2))
def fetch():
    ...

retries = Retry(total=3, backoff_factor=0.5)
session.mount("https://", HTTPAdapter(max_retries=retries))
`, []Candidate{{Format: "tenacity", Name: "fetch", Line: 7}, {Format: "urllib3", Name: "retries", Line: 11}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"", 0, 7, 2 * s}, {"retries", 1, 4, 500 * ms}}},
	{"two resilience4j instances", `
resilience4j.retry:
  instances:
    backendA:
      maxAttempts: 3
      waitDuration: 10s
    backendB:
      maxAttempts: 6
      waitDuration: 1s
`, []Candidate{{Format: "resilience4j", Name: "backendA", Line: 5}, {Format: "resilience4j", Name: "backendB", Line: 8}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"backendB", 1, 6, s}}},
	{"two go-retryablehttp clients, each with its own fields", `
fast := retryablehttp.NewClient()
fast.RetryMax = 2
fast.RetryWaitMin = 10 * time.Millisecond
slow := retryablehttp.NewClient()
slow.RetryMax = 8
`, []Candidate{{Format: "retryablehttp", Name: "fast", Line: 2}, {Format: "retryablehttp", Name: "slow", Line: 5}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"fast", 0, 3, 10 * ms}, {"slow", 1, 9, s}}},
	{"two AWS retryers, each with its options", `
a := retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts = 5 })
b := retry.AddWithMaxAttempts(retry.NewStandard(func(o *retry.StandardOptions) { o.BaseDelay = 200 * time.Millisecond }), 7)
`, []Candidate{{Format: "aws-sdk-go-v2", Name: "a", Line: 2}, {Format: "aws-sdk-go-v2", Name: "b", Line: 3}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"1", 0, 5, 50 * ms}, {"b", 1, 7, 200 * ms}}},
	{"two Spring Retry methods", `
public class Client {
    @Retryable(maxAttempts = 2)
    public String first() { return ""; }

    @Retryable(maxAttempts = 6, backoff = @Backoff(delay = 250))
    public String second() { return ""; }
}
`, []Candidate{{Format: "spring-retry", Name: "first", Line: 3}, {Format: "spring-retry", Name: "second", Line: 6}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"second", 1, 6, 250 * ms}}},
	{"two Step Functions states", `{"States": {
  "Charge": {"Type": "Task", "Retry": [{"ErrorEquals": ["States.ALL"], "MaxAttempts": 5}]},
  "Notify": {"Type": "Task", "Retry": [{"ErrorEquals": ["States.Timeout"], "IntervalSeconds": 3, "MaxAttempts": 1}]}
}}`, []Candidate{{Format: "step-functions", Name: "Charge", Line: 2}, {Format: "step-functions", Name: "Notify", Line: 3}},
		[]struct {
			pick     string
			index    int
			attempts int
			base     time.Duration
		}{{"Notify", 1, 2, 3 * s}}},
}

func TestPick(t *testing.T) {
	for _, c := range pickCases {
		got, err := List(c.text, "")
		if err != nil || !slices.Equal(got, c.list) {
			t.Errorf("%s: list %+v, %v\nwant %+v", c.name, got, err, c.list)
			continue
		}
		for _, p := range c.picked {
			res, err := Read(c.text, Options{Pick: p.pick})
			if err != nil {
				t.Errorf("%s: pick %q: %v", c.name, p.pick, err)
				continue
			}
			if res.Pick != p.index || res.Format != c.list[p.index].Format || res.Policy.Attempts != p.attempts || res.Policy.Base != p.base ||
				!slices.Equal(res.Candidates, c.list) {
				t.Errorf("%s: pick %q read #%d %s: attempts %d, base %v; want #%d: attempts %d, base %v", c.name, p.pick, res.Pick,
					res.Format, res.Policy.Attempts, res.Policy.Base, p.index, p.attempts, p.base)
			}
			several := 0
			for _, w := range res.Warnings {
				if w.Code == CodeSeveral {
					several++
					if !slices.Equal(w.Args, []string{itoa(len(c.list)), itoa(c.list[p.index].Line)}) {
						t.Errorf("%s: pick %q: several %q", c.name, p.pick, w.Args)
					}
				}
			}
			if several != 1 {
				t.Errorf("%s: pick %q: %d several warnings, want 1", c.name, p.pick, several)
			}
		}
	}
}

// TestPickErrors: a --pick naming no policy says what it may be.
func TestPickErrors(t *testing.T) {
	text := pickCases[2].text
	for pick, want := range map[string]struct {
		code string
		args []string
	}{
		"3":     {backoff.CodeInt, []string{"1", "2"}},
		"0":     {backoff.CodeInt, []string{"1", "2"}},
		"other": {backoff.CodeUnknown, []string{"fetch", "retries"}},
	} {
		_, err := Read(text, Options{Pick: pick})
		var fe *backoff.FieldError
		if !errors.As(err, &fe) || fe.Field != "pick" || fe.Value != pick || fe.Code != want.code || !slices.Equal(fe.Args, want.args) {
			t.Errorf("pick %q: %v, want %s %q", pick, err, want.code, want.args)
		}
	}
	// One policy: no "several" warning, and 1 is the only pick.
	res, err := Read("@Retryable(maxAttempts = 2)", Options{Pick: "1"})
	if err != nil || len(res.Candidates) != 1 || slices.ContainsFunc(res.Warnings, func(w Warning) bool { return w.Code == CodeSeveral }) {
		t.Errorf("%+v, %v", res, err)
	}
}
