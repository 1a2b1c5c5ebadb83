package sim

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Every code in backoff.ErrorCodes is produced by some input, with the
// rule's parameters in Args; a failed Set changes nothing.
func TestErrorCodes(t *testing.T) {
	set := func(name, value string) func() error {
		return func() error {
			c := DefaultConfig()
			before := c
			err := c.Set(name, value)
			if err != nil && !reflect.DeepEqual(before, c) {
				t.Errorf("Set(%s, %q) failed but changed the config", name, value)
			}
			return err
		}
	}
	validate := func(edit func(c *Config)) func() error {
		return func() error {
			c := DefaultConfig()
			edit(&c)
			return c.Validate()
		}
	}
	produced := map[string]bool{}
	for _, c := range []struct {
		name  string
		err   func() error
		field string
		code  string
		args  []string
		other string
		part  string
	}{
		{"clients", set(ParamClients, "0"), ParamClients, backoff.CodeInt, []string{"1", "2000000"}, "", ""},
		{"max-calls", validate(func(c *Config) { c.MaxCalls = -1 }), ParamMaxCalls, backoff.CodeInt, []string{"0", "1000000000", backoff.ZeroDefault, "50000000"}, "", ""},
		{"collapse-factor", set(ParamCollapseFactor, "101"), ParamCollapseFactor, backoff.CodeNumber, []string{"0", "100"}, "", ""},
		{"capacity", set(ParamCapacity, "0"), ParamCapacity, backoff.CodePositive, []string{"1e+09"}, "", ""},
		{"latency", set(ParamLatency, "2h"), ParamLatency, backoff.CodeDuration, []string{"0s", "1h"}, "", ""},
		{"server", set(ParamServer, "mainframe"), ParamServer, backoff.CodeChoice, ServerNames(), "", ""},
		{"honor-retry-after", set(ParamHonorRetryAfter, "perhaps"), ParamHonorRetryAfter, backoff.CodeBool, nil, "", ""},
		{"outage end before start", validate(func(c *Config) { c.OutageStart, c.OutageEnd = 10*time.Second, 5*time.Second }),
			ParamOutageEnd, backoff.CodeAtLeast, []string{"10s"}, ParamOutageStart, ""},
		{"policy cap below base", set(backoff.ParamCap, "0.5s"), backoff.ParamCap, "", nil, "", ""}, // Set checks one field
		{"lo above hi", validate(func(c *Config) { c.Policy.Jitter = backoff.Proportional; c.Policy.JitterLo = 2 }),
			backoff.ParamJitterLo, backoff.CodeAtMost, []string{"1.2"}, backoff.ParamJitterHi, ""},
		{"cap below base", validate(func(c *Config) { c.Policy.Cap = time.Second / 2 }),
			backoff.ParamCap, backoff.CodeZeroOrAtLeast, []string{"1s"}, backoff.ParamBase, ""},
		{"bucket", validate(func(c *Config) { c.Bucket = 1 }), ParamBucket, backoff.CodeZeroOrAtLeast, []string{"1µs"}, "", ""},
		{"collapse window", validate(func(c *Config) { c.Server = Collapse; c.CollapseWindow = 0 }),
			ParamCollapseWindow, backoff.CodeNeeds, []string{"collapse", "1ns", "8760h"}, ParamServer, ""},
		{"too long", set(ParamHorizon, string(make([]byte, 65))), ParamHorizon, backoff.CodeTooLong, []string{"64"}, "", ""},
		{"unknown", set("nope", "1"), "parameter", backoff.CodeUnknown, append(slices.Clone(ParamNames), backoff.ParamNames...), "", ""},
		{"arrival form", set(ParamArrival, "uniform"), ParamArrival, backoff.CodeFormat, arrivalForms, "", ""},
		{"arrival window", set(ParamArrival, "clock:0s"), ParamArrival, backoff.CodePositive, []string{"8760h"}, "", "DURATION"},
		{"budget form", set(ParamBudget, "tokens:a"), ParamBudget, backoff.CodeFormat, budgetForms, "", ""},
		{"budget cost", set(ParamBudget, "tokens:5:10"), ParamBudget, backoff.CodePositive, []string{"5"}, "", "COST"},
		{"budget ratio", set(ParamBudget, "ratio:2"), ParamBudget, backoff.CodeNumber, []string{"0", "1"}, "", "RATIO"},
		{"breaker k", set(ParamBreaker, "consecutive:0"), ParamBreaker, backoff.CodeInt, []string{"1", "1000000"}, "", "K"},
		{"breaker window", set(ParamBreaker, "ratio:0.5:10:0s"), ParamBreaker, backoff.CodePositive, []string{"8760h"}, "", "WINDOW"},
		{"runs", func() error { _, err := RunMany(DefaultConfig(), 1, 0); return err }, "runs", backoff.CodeInt, []string{"1", "10000"}, "", ""},
		{"memory", func() error { c := DefaultConfig(); c.Clients = MaxClients; return FitMemory(c, 40<<20) },
			ParamClients, backoff.CodeMemory, []string{"834173", "40"}, "", ""},
		{"retry-after header", func() error { _, err := backoff.ParseRetryAfter("soon", time.Time{}); return err },
			"Retry-After", backoff.CodeRetryAfter, []string{"2592000"}, "", ""},
		{"budget grpc", set(ParamBudget, "grpc:2000"), ParamBudget, backoff.CodePositive, []string{"1000"}, "", "MAX"},
		// The solver's own codes (backoff.Solve), so every code has an input.
		{"solve out of reach", func() error {
			_, err := backoff.Solve(backoff.Default(), backoff.Goal{Knob: backoff.ParamCap, Target: backoff.WorstTotal, Total: time.Second})
			return err
		}, "worst-total", backoff.CodeTotalAtLeast, []string{"5s", "cap", "1s"}, "", ""},
		{"solve sampled", func() error {
			p := backoff.Default()
			p.Jitter = backoff.Decorrelated
			_, err := backoff.Solve(p, backoff.Goal{Knob: backoff.ParamCap, Target: backoff.ExpectedTotal, Total: time.Second})
			return err
		}, "expected-total", backoff.CodeSampledTotal, []string{"decorrelated"}, backoff.ParamJitter, ""},
		{"sweep order", func() error {
			_, err := ParseSweep("clients=10:1:1", DefaultConfig())
			return err
		}, "sweep", backoff.CodeSweep, []string{backoff.SweepOrder, "1000", "1", "10"}, "", ""},
		{"not read", func() error {
			c := DefaultConfig() // the outage server, which has no queue
			return c.NotRead(ParamQueueLimit, "5")
		}, ParamQueueLimit, backoff.CodeUnread, nil, "", ""},
		{"sweep value", func() error {
			_, err := ParseSweep("clients=0,5", DefaultConfig())
			return err
		}, "sweep", backoff.CodeSweep, []string{backoff.SweepValue, "0"}, "", ""},
	} {
		err := c.err()
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", c.name, err)
			}
			continue
		}
		var fe *backoff.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a *FieldError", c.name, err)
			continue
		}
		produced[fe.Code] = true
		if fe.Field != c.field || fe.Code != c.code || !slices.Equal(fe.Args, c.args) || fe.Other != c.other ||
			fe.Part != c.part || fe.Allowed == "" {
			t.Errorf("%s: got %s %s %q other %q part %q (%v);\n want %s %s %q other %q part %q", c.name,
				fe.Field, fe.Code, fe.Args, fe.Other, fe.Part, fe, c.field, c.code, c.args, c.other, c.part)
		}
	}
	for _, code := range backoff.ErrorCodes {
		if !produced[code] {
			t.Errorf("error code %q produced by no input", code)
		}
	}
	if len(produced) != len(backoff.ErrorCodes) {
		t.Errorf("inputs produced %d codes, ErrorCodes lists %d", len(produced), len(backoff.ErrorCodes))
	}
}

// The exported name lists are complete, unique, what String prints and
// what Set accepts.
func TestKindNames(t *testing.T) {
	for _, c := range []struct {
		param string
		names []string
		str   func(i int) string
		value func(n string) string // the Set value that selects kind n
	}{
		{ParamServer, ServerNames(), func(i int) string { return ServerModel(i).String() }, func(n string) string { return n }},
		{ParamArrival, ArrivalNames(), func(i int) string { return Arrival(i).String() }, func(n string) string {
			if n == Burst.String() {
				return n
			}
			return n + ":1s"
		}},
		{ParamBudget, BudgetNames(), func(i int) string { return BudgetKind(i).String() }, func(n string) string { return n }},
		{ParamBreaker, BreakerNames(), func(i int) string { return BreakerKind(i).String() }, func(n string) string { return n }},
	} {
		if c.str(len(c.names)) != "unknown" {
			t.Errorf("%s: kind %d has a name but is not listed", c.param, len(c.names))
		}
		for i, n := range c.names {
			cfg := DefaultConfig()
			if n == "" || c.str(i) != n || slices.Index(c.names, n) != i {
				t.Errorf("%s: name %d %q: String %q, or empty or repeated", c.param, i, n, c.str(i))
			}
			if err := cfg.Set(c.param, c.value(n)); err != nil {
				t.Errorf("%s: Set(%q) = %v", c.param, c.value(n), err)
			}
			if got, _, _ := strings.Cut(cfg.Get(c.param), ":"); got != n {
				t.Errorf("%s: after Set(%q), Get = %q", c.param, c.value(n), cfg.Get(c.param))
			}
		}
	}
}
