package export

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// fixedSpan returns a jitter replacement that draws d * U[lo, hi) on the
// policy's own growth: a history-dependent kind first falls back to its
// growth, as fullOnGrowth does.
func fixedSpan(lo, hi float64) func(e *backoff.Policy) {
	return func(e *backoff.Policy) {
		fullOnGrowth(e)
		e.SetSpan(lo, hi)
	}
}

// grpcLimit is the attempts gRPC honours unless the channel raises it
// (grpc-go's defaultMaxCallAttempts, WithMaxCallAttempts; grpc-java's
// maxRetryAttempts).
const grpcLimit = 5

// grpcServiceConfig is the part of a gRPC service config the snippet
// writes, in the order it is written.
type grpcServiceConfig struct {
	// Warnings carry the snippet's warnings inside it, as JSON has no
	// comments: copied alone, it still says what it cannot express.
	// gRPC's parsers skip fields they do not know (grpc-go decodes into
	// structs with encoding/json, service_config.go parseServiceConfig;
	// gRPC core's LoadObject reads only the fields it declares), and
	// grpc-go v1.85.0 accepts the snippets (TestGoSnippetsRunAgainstLibraries).
	Warnings     []string           `json:"_warnings,omitempty"`
	MethodConfig []grpcMethodConfig `json:"methodConfig"`
	// RetryThrottling is the channel's token count (gRFC A6), written
	// when the simulation has gRPC's budget.
	RetryThrottling *grpcThrottling `json:"retryThrottling,omitempty"`
}

// grpcThrottling is a service config's retryThrottling: grpc-go accepts
// maxTokens in (0, 1000] and a tokenRatio above 0 (service_config.go).
type grpcThrottling struct {
	MaxTokens  float64 `json:"maxTokens"`
	TokenRatio float64 `json:"tokenRatio"`
}

type grpcMethodConfig struct {
	// Name [{}] (no service, no method) applies the config to every
	// method of the channel.
	Name        []struct{}       `json:"name"`
	Timeout     string           `json:"timeout,omitempty"`
	RetryPolicy *grpcRetryPolicy `json:"retryPolicy,omitempty"`
}

type grpcRetryPolicy struct {
	MaxAttempts          int      `json:"maxAttempts"`
	InitialBackoff       string   `json:"initialBackoff"`
	MaxBackoff           string   `json:"maxBackoff"`
	BackoffMultiplier    float64  `json:"backoffMultiplier"`
	RetryableStatusCodes []string `json:"retryableStatusCodes"`
}

func init() {
	register(2, target{Target: Target{Name: "grpc-json", Language: "JSON", Syntax: "json", Library: "gRPC service config retryPolicy (gRFC A6, amended 2024)", Version: "grpc-go v1.85.0",
		Source: "grpc-go service_config.go, stream.go; grpc/proposal A6-client-retries.md"}, short: "gRPC", write: writeGRPC})
}

// writeGRPC writes a gRPC service config (JSON, which has no comments:
// the warnings are a top-level "_warnings" list of strings, which gRPC
// ignores).
//
// gRFC A6 as amended in 2024 (grpc-go v1.69 and later, read at v1.85.0):
// the delay before retry n is min(initialBackoff * backoffMultiplier^(n-1),
// maxBackoff) * U[0.8, 1.2); before, U[0, that). Every field is required:
// maxAttempts > 1 (the first try included; values above the channel's
// limit, 5 by default, are treated as 5), durations and the multiplier
// above 0, at least one status code; grpc-go ignores an invalid policy
// whole (service_config.go convertRetryPolicy). A method config's timeout
// bounds the whole call, retries included. A server's
// grpc-retry-pushback-ms sets the next delay exactly.
func writeGRPC(j *job) string {
	e := &j.eff
	lib := "gRPC"
	if !(e.Jitter == backoff.Proportional && e.JitterLo == 0.8 && e.JitterHi == 1.2) {
		j.replaceJitter(fixedSpan(0.8, 1.2), "gRPC multiplies every delay by U[0.8,1.2) (gRFC A6 as amended in 2024, grpc-go 1.69 and later; U[0,d) before)")
	}
	j.fitGrowth(backoff.Exponential)
	j.dropExtras(false, false)
	j.fitCapMode(backoff.CapBeforeJitter, "caps the delay before jitter")
	if e.Base == 0 {
		j.warn(CodeRange, []string{backoff.ParamBase, "0s", "1ns", "", "1ns"},
			"%s needs an initialBackoff above 0: the snippet writes 1ns", lib)
		e.Base = time.Nanosecond
	}
	maxBackoff := e.Cap
	if e.Cap == 0 {
		maxBackoff = maxSnippetDuration
		j.warn(CodeNoCap, []string{backoff.FormatDuration(maxBackoff)},
			"%s needs a maxBackoff: no cap is written as %s (about 31.7 years)", lib, backoff.FormatDuration(maxBackoff))
	}
	attempts := e.Attempts
	switch {
	case attempts == 0:
		attempts, e.Attempts = grpcLimit, grpcLimit
		j.warn(CodeAttemptsUnlimited, []string{strconv.Itoa(grpcLimit)},
			"%s has no unlimited attempts: maxAttempts is %d, the most a channel allows by default", lib, grpcLimit)
	case attempts > grpcLimit:
		e.Attempts = grpcLimit
		j.warn(CodeAttemptsCapped, []string{strconv.Itoa(attempts), strconv.Itoa(grpcLimit)},
			"%s treats a maxAttempts above %d as %d unless the channel raises its limit "+
				"(grpc-go: grpc.WithMaxCallAttempts(%d); grpc-java: maxRetryAttempts)", lib, grpcLimit, grpcLimit, attempts)
	}
	mc := grpcMethodConfig{Name: []struct{}{{}}}
	if e.Deadline > 0 {
		mc.Timeout = protoDuration(e.Deadline)
		d := backoff.FormatDuration(e.Deadline)
		j.warn(CodeDeadlineTimeout, []string{d}, "%s's method timeout of %s bounds the whole call: it also cancels a try in flight, "+
			"where the playground's deadline only stops new retries", lib, d)
	}
	j.fitRetryAfter(backoff.RetryAfterAsIs, 0, "waits exactly what a server's grpc-retry-pushback-ms says")
	if attempts > 1 {
		mc.RetryPolicy = &grpcRetryPolicy{MaxAttempts: attempts, InitialBackoff: protoDuration(e.Base),
			MaxBackoff: protoDuration(maxBackoff), BackoffMultiplier: max(e.Factor, 1),
			RetryableStatusCodes: []string{"UNAVAILABLE"}}
	}
	sc := grpcServiceConfig{MethodConfig: []grpcMethodConfig{mc}}
	if th := j.opt.Throttling; th.MaxTokens > 0 {
		sc.RetryThrottling = &grpcThrottling{MaxTokens: th.MaxTokens, TokenRatio: th.TokenRatio}
	}
	for _, w := range j.warnings {
		sc.Warnings = append(sc.Warnings, w.Message)
	}
	out, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		panic(err) // plain structs of strings and finite numbers always marshal
	}
	return string(out) + "\n"
}

// envoyMaxRetries is num_retries' greatest value (a uint32).
const envoyMaxRetries = math.MaxUint32

// envoyRouteTimeout is a route's timeout when none is set
// (route_components.proto RouteAction.timeout: "defaults to 15s").
const envoyRouteTimeout = 15 * time.Second

// envoyPastRouteTimeout reports whether the schedule e can wait longer in
// all than Envoy's default route timeout, and its worst total: a schedule
// without an attempt limit always can.
func envoyPastRouteTimeout(e backoff.Policy) (worst string, over bool) {
	if e.Attempts == 0 {
		return "∞", true
	}
	t, err := backoff.NewTable(e, backoff.NewRand(1))
	if err != nil {
		return "", false
	}
	w := t.Total.Max
	return backoff.FormatDuration(backoff.Seconds(w)), w > envoyRouteTimeout.Seconds()
}

func init() {
	register(3, target{Target: Target{Name: "envoy-yaml", Language: "YAML", Syntax: "yaml", Library: "Envoy route retry_policy (config.route.v3.RetryPolicy)", Version: "main, 2026",
		Source: "source/common/common/backoff_strategy.cc, api/envoy/config/route/v3/route_components.proto"}, short: "Envoy", write: writeEnvoy})
}

// writeEnvoy writes an Envoy route (YAML) with a retry policy.
//
// Envoy's JitteredExponentialBackOffStrategy (backoff_strategy.cc) waits
// random() % next_interval milliseconds, next_interval starting at
// base_interval and doubling while below max_interval / 2, then
// max_interval: U{0 .. min(base * 2^(n-1), max) - 1} ms, full jitter on a
// capped doubling. base_interval is required and above 0 (below 1ms it is
// 1ms); max_interval defaults to 10 times base_interval; num_retries
// counts retries (default 1). The route's timeout (default 15s, 0s
// disables it) bounds the whole request, retries included.
func writeEnvoy(j *job) string {
	e := &j.eff
	lib := "Envoy"
	if e.Jitter != backoff.Full {
		j.replaceJitter(fixedSpan(0, 1), "Envoy's retry back-off always draws full jitter")
	}
	j.fitGrowth(backoff.Exponential)
	if e.Growth != backoff.Exponential || e.Factor != 2 {
		before := *e
		from := formatFloat(e.Factor)
		e.Growth, e.Factor = backoff.Exponential, 2
		if !sameSchedule(before, *e) {
			j.warn(CodeFactor, []string{from, "2"}, "%s doubles the back-off at every retry: the factor is 2, not %s", lib, from)
		}
	}
	j.dropExtras(false, false)
	j.fitCapMode(backoff.CapBeforeJitter, "caps the back-off interval before jitter")
	base := e.Base.Truncate(time.Millisecond)
	if base < time.Millisecond {
		j.warn(CodeRange, []string{backoff.ParamBase, backoff.FormatDuration(e.Base), "1ms", "", "1ms"},
			"%s's base_interval is at least 1ms: the snippet writes 1ms", lib)
		base = time.Millisecond
	}
	maxInterval := e.Cap.Truncate(time.Millisecond)
	if e.Cap == 0 {
		maxInterval = maxSnippetDuration
		j.warn(CodeNoCap, []string{backoff.FormatDuration(maxInterval)},
			"%s's max_interval defaults to 10 times base_interval: no cap is written as %s (about 31.7 years)", lib, backoff.FormatDuration(maxInterval))
	}
	maxInterval = max(maxInterval, base)
	j.warn(CodeRounding, []string{"1ms"}, "%s works in whole milliseconds: it draws whole milliseconds below the interval, "+
		"and truncates base_interval and max_interval to whole milliseconds", lib)
	e.Base = base
	if e.Cap > 0 {
		e.Cap = maxInterval
	}
	retries := int64(e.Attempts) - 1
	if e.Attempts == 0 {
		retries = envoyMaxRetries
		j.warn(CodeAttemptsUnlimited, []string{strconv.FormatInt(retries+1, 10)},
			"%s has no unlimited retries: num_retries is %d, its greatest value", lib, retries)
	}
	deadline := e.Deadline
	if deadline > 0 {
		d := backoff.FormatDuration(e.Deadline)
		j.warn(CodeDeadlineTimeout, []string{d}, "%s's route timeout of %s bounds the whole request: it also cancels a try in flight, "+
			"where the playground's deadline only stops new retries", lib, d)
	} else if worst, over := envoyPastRouteTimeout(*e); over {
		// The default route timeout is kept, a safety net: what it cuts
		// is said, and the schedule the snippet runs stops there.
		t := backoff.FormatDuration(envoyRouteTimeout)
		j.warn(CodeRouteTimeout, []string{t, worst}, "%s's default route timeout of %s, kept as the policy sets no deadline, "+
			"bounds the whole request: the policy's worst case waits %s, so its later retries are cut off; set the route's timeout to give them time",
			lib, t, worst)
		e.Deadline = envoyRouteTimeout
	}
	j.fitRetryAfter(backoff.RetryAfterIgnore, 0, "ignores Retry-After unless a rate_limited_retry_back_off is configured, "+
		"and that one has its own jitter and limit")

	var b strings.Builder
	j.header(&b, "# ", "")
	comment(&b, "# ", "", "A route of a virtual host's routes list (after its match). The delay before retry n is "+
		"U[0, min(base_interval * 2^(n-1), max_interval)) in whole milliseconds.")
	b.WriteString("route:\n  cluster: backend # your upstream cluster\n")
	if deadline > 0 {
		fmt.Fprintf(&b, "  timeout: %s # the whole request, every try and back-off included\n", protoDuration(deadline))
	} else {
		fmt.Fprintf(&b, "  # timeout: left out, so Envoy's default %s bounds the whole request, every try and back-off included\n",
			protoDuration(envoyRouteTimeout))
	}
	retryOn := "reset,connect-failure,refused-stream,retriable-status-codes"
	if j.opt.TryTimeout > 0 {
		// Envoy retries a try its per_try_timeout ends only under 5xx or
		// gateway-error (retry_state_impl.cc): gateway-error is the
		// narrower, and its 502, 503 and 504 are retried anyway.
		retryOn = "reset,connect-failure,refused-stream,gateway-error,retriable-status-codes"
	}
	fmt.Fprintf(&b, "  retry_policy:\n    retry_on: %s\n    retriable_status_codes:\n", retryOn)
	for _, s := range backoff.DefaultRules().Retryable {
		fmt.Fprintf(&b, "    - %d\n", s)
	}
	attempts := "no limit"
	if e.Attempts > 0 {
		attempts = attemptsText(e.Attempts)
	}
	fmt.Fprintf(&b, "    num_retries: %d # retries, the first try not counted: %s\n", retries, attempts)
	if j.opt.TryTimeout > 0 {
		fmt.Fprintf(&b, "    per_try_timeout: %s # each try, the first included: one not answered in it is reset and retried\n",
			protoDuration(j.opt.TryTimeout))
	}
	fmt.Fprintf(&b, "    retry_back_off:\n      base_interval: %s\n      max_interval: %s", protoDuration(base), protoDuration(maxInterval))
	if e.Cap == 0 {
		b.WriteString(" # no cap")
	}
	b.WriteString("\n")
	return b.String()
}
