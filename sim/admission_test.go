package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// Every rule's text form, and the errors naming the field, the whole
// value, the argument at fault and its range.
func TestAdmissionText(t *testing.T) {
	forms := []string{"none", "token-bucket:RATE:BURST", "fixed-window:N:W", "sliding-window:N:W", "concurrency:N", "aimd[:TARGET]"}
	for _, tc := range []struct {
		in, get, kind string
		args          PartArgs
		code, part    string
		errArgs       []string
	}{
		{in: "none", get: "none", kind: "none"},
		{in: "token-bucket:2.5:10", get: "token-bucket:2.5:10", kind: "token-bucket", args: PartArgs{2.5, 10}},
		{in: "token-bucket:1e3:1", get: "token-bucket:1000:1", kind: "token-bucket", args: PartArgs{1000, 1}},
		{in: "fixed-window:100:1s", get: "fixed-window:100:1s", kind: "fixed-window", args: PartArgs{100, 1e9}},
		{in: "sliding-window:5:250ms", get: "sliding-window:5:250ms", kind: "sliding-window", args: PartArgs{5, 250e6}},
		{in: "Concurrency:8", get: "concurrency:8", kind: "concurrency", args: PartArgs{8}},
		{in: "aimd", get: "aimd", kind: "aimd", args: PartArgs{50e6}},
		{in: "aimd:0s", get: "aimd:0s", kind: "aimd", args: PartArgs{0}},
		{in: "aimd:2h", code: backoff.CodeDuration, part: "TARGET", errArgs: []string{"0s", "1h"}},

		{in: "", code: backoff.CodeFormat, errArgs: forms},
		{in: "leaky", code: backoff.CodeFormat, errArgs: forms},
		{in: "token-bucket:5", code: backoff.CodeFormat, errArgs: forms},
		{in: "none:1", code: backoff.CodeFormat, errArgs: forms},
		{in: "concurrency:1:2", code: backoff.CodeFormat, errArgs: forms},
		{in: "token-bucket:0:5", code: backoff.CodeNumber, part: "RATE", errArgs: []string{"0.001", "1e+09"}},
		{in: "token-bucket:5:0", code: backoff.CodeInt, part: "BURST", errArgs: []string{"1", "1000000000"}},
		{in: "fixed-window:0:1s", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "1000000000"}},
		{in: "fixed-window:10:0s", code: backoff.CodeDuration, part: "W", errArgs: []string{"1µs", "24h"}},
		{in: "sliding-window:100001:1s", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "100000"}},
		{in: "sliding-window:10:forever", code: backoff.CodeDuration, part: "W", errArgs: []string{"1µs", "24h"}},
		{in: "concurrency:-1", code: backoff.CodeInt, part: "N", errArgs: []string{"1", "1000000000"}},
	} {
		c := DefaultConfig()
		c.Server = Queue
		before := c
		err := c.Set(ParamAdmission, tc.in)
		if tc.code != "" {
			fe, ok := err.(*backoff.FieldError)
			if !ok || fe.Field != ParamAdmission || fe.Value != tc.in || fe.Code != tc.code || fe.Part != tc.part || !slices.Equal(fe.Args, tc.errArgs) {
				t.Errorf("%q: %#v, want code %s part %q args %q", tc.in, err, tc.code, tc.part, tc.errArgs)
			}
			if c != before {
				t.Errorf("%q: a failed Set changed the config", tc.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		a := c.Admission
		if got := c.Get(ParamAdmission); got != tc.get || a.Rule().Name() != tc.kind || a.Args != tc.args {
			t.Errorf("%q: Get %q, kind %s, args %v; want %q, %s, %v", tc.in, got, a.Rule().Name(), a.Args, tc.get, tc.kind, tc.args)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
	// Only the queue server takes an admission rule.
	c := DefaultConfig()
	if err := c.Set(ParamAdmission, "concurrency:5"); err != nil {
		t.Fatal(err)
	}
	fe, ok := c.Validate().(*backoff.FieldError)
	if !ok || fe.Field != ParamAdmission || fe.Code != backoff.CodeNeeds || fe.Other != ParamServer || !slices.Equal(fe.Args, []string{"outage", "none", "none"}) {
		t.Errorf("outage with concurrency:5: %#v", c.Validate())
	}
}

// FuzzParseAdmission: no text makes the parser panic; every error is a
// FieldError about the rule; what it reads prints back to itself.
func FuzzParseAdmission(f *testing.F) {
	for _, s := range []string{"none", "token-bucket:10:5", "fixed-window:3:1s", "sliding-window:3:1ms", "concurrency:4",
		"token-bucket:1e-3:1", "token-bucket:NaN:1", "fixed-window:1:24h", "sliding-window:1:1µs", "concurrency::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := parseAdmission(s)
		if err != nil {
			if fe, ok := err.(*backoff.FieldError); !ok || fe.Field != ParamAdmission || len(fe.Value) > 70 {
				t.Fatalf("%q: %#v", s, err)
			}
			return
		}
		back, err := parseAdmission(a.text())
		if err != nil || back != a {
			t.Fatalf("%q: read %+v, printed %q, read back %+v, %v", s, a, a.text(), back, err)
		}
		c := DefaultConfig()
		c.Server, c.Admission = Queue, a
		if err := c.Admission.validate(&c); err != nil {
			t.Fatalf("%q: read, then refused: %v", s, err)
		}
	})
}

// Each rule step by step, as golang.org/x/time/rate's tests go: a call
// at t with so many inside is let in or refused, with the Retry-After
// the rule knows (and comeBack's nanosecond a second of slack).
func TestAdmissionSteps(t *testing.T) {
	type step struct {
		t      float64
		inside int
		ok     bool
		ra     float64
	}
	for _, tc := range []struct {
		rule  string
		steps []step
	}{
		{"none", []step{{0, 0, true, 0}, {0, 1e6, true, 0}}},
		// 2 tokens a second, 3 at most, full at the start.
		{"token-bucket:2:3", []step{
			{0, 0, true, 0}, {0, 0, true, 0}, {0, 0, true, 0},
			{0, 0, false, 0.5},     // empty: the next token in 1/2 s
			{0.25, 0, false, 0.25}, // half a token
			{0.5, 0, true, 0},      // one
			{0.5, 0, false, 0.5},
			{10, 0, true, 0}, {10, 0, true, 0}, {10, 0, true, 0}, // refilled to 3, not 20
			{10, 0, false, 0.5},
		}},
		// 2 calls in each aligned second.
		{"fixed-window:2:1s", []step{
			{0.1, 0, true, 0}, {0.2, 0, true, 0},
			{0.75, 0, false, 0.25}, // the next window starts at 1 s
			{1, 0, true, 0}, {1.999, 0, true, 0},
			{1.999, 0, false, 0.001},
			{5.5, 0, true, 0},
		}},
		// 2 calls in any second.
		{"sliding-window:2:1s", []step{
			{0.1, 0, true, 0}, {0.9, 0, true, 0},
			{1, 0, false, 0.1},   // 0.1 s leaves the window at 1.1 s
			{1.1, 0, true, 0},    // in: 0.9 and 1.1
			{1.5, 0, false, 0.4}, // 0.9 leaves at 1.9
			{1.9, 0, true, 0},
		}},
		{"concurrency:3", []step{{0, 0, true, 0}, {0, 2, true, 0}, {0, 3, false, 0}, {0, 50, false, 0}}},
		{"aimd", []step{{0, 19, true, 0}, {0, 20, false, 0}}}, // from 20
	} {
		a, err := parseAdmission(tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		adm := a.start()
		for i, s := range tc.steps {
			ok, ra := adm.admit(s.t, s.inside)
			if ok != s.ok || math.Abs(ra-s.ra) > 1e-8*math.Max(1, s.t) {
				t.Errorf("%s step %d (t %g s, %d inside): %v, Retry-After %g s; want %v, %g s", tc.rule, i, s.t, s.inside, ok, ra, s.ok, s.ra)
			}
		}
	}
}

// Clients that honour a rule's Retry-After come back when it lets them
// in: one caller in a loop against a token bucket of one call a second,
// retrying after 1 ms, is refused about once a second when it honours
// the 429's Retry-After (each retry lands on a fresh token) and hundreds
// of times a second when it does not (each 1 ms retry is refused until a
// token is due).
func TestHonorAdmissionRetryAfter(t *testing.T) {
	for _, honor := range []bool{true, false} {
		c := DefaultConfig()
		for _, kv := range [][2]string{{"server", "queue"}, {"service", "1ms"}, {"service-dist", "fixed"}, {"traffic", "loop:1:0s"},
			{"duration", "20s"}, {"latency", "0s"}, {"admission", "token-bucket:1:1"}, {"attempts", "0"}, {"jitter", "none"},
			{"base", "1ms"}, {"growth", "constant"}, {"retry-after", "as-is"}} {
			if err := c.Set(kv[0], kv[1]); err != nil {
				t.Fatal(kv, err)
			}
		}
		c.HonorRetryAfter = honor
		tt := run(t, c, 1).Totals
		t.Logf("honor %v: %d requests, %d succeeded, %d limited", honor, tt.Requests, tt.Succeeded, tt.Limited)
		// A token a second over 20 s, one at the start: 20 or 21 served.
		if tt.Succeeded < 20 || tt.Succeeded > 21 {
			t.Errorf("honor %v: %d succeeded, want 20 or 21 (a token a second)", honor, tt.Succeeded)
		}
		if honor && tt.Limited > tt.Succeeded+1 {
			t.Errorf("honoring Retry-After: %d refusals for %d successes, want at most one each", tt.Limited, tt.Succeeded)
		}
		if !honor && tt.Limited < 900*20 {
			t.Errorf("ignoring Retry-After: %d refusals in 20 s, want about 1000 a second", tt.Limited)
		}
	}
}

// The AIMD limit step by step: from 20, +1 for a call taken without
// waiting past TARGET while the server is half full, x0.9 (floored, at
// least 1) for one that waited past it; calls are let in below the
// limit's whole part.
func TestAIMDLimit(t *testing.T) {
	a, err := parseAdmission("aimd:10ms")
	if err != nil {
		t.Fatal(err)
	}
	m := a.start().(*aimdRule)
	for i, s := range []struct {
		waited float64
		inside int
		limit  float64
	}{
		{0, 10, 21},     // half full: +1
		{0.01, 11, 22},  // at TARGET is not past it
		{0, 5, 22},      // under half full: unchanged
		{0.011, 30, 19}, // 22 x 0.9 = 19.8, floored
		{1, 30, 17},     // 17.1
		{0, 9, 18},
	} {
		m.taken(s.waited, s.inside)
		if m.limit != s.limit {
			t.Fatalf("sample %d (waited %g s, %d inside): limit %g, want %g", i, s.waited, s.inside, m.limit, s.limit)
		}
	}
	if ok, _ := m.admit(0, 17); !ok {
		t.Error("17 inside, limit 18: refused")
	}
	if ok, ra := m.admit(0, 18); ok || ra != 0 {
		t.Errorf("18 inside, limit 18: %v, Retry-After %g", ok, ra)
	}
	for range 100 {
		m.taken(1, 0)
	}
	if m.limit != 1 {
		t.Errorf("after 100 cuts: limit %g, want 1", m.limit)
	}
}
