package backoff

import (
	"time"
)

// Preset is a named policy that reproduces a real system's schedule, read
// from its source code.
type Preset struct {
	Name        string
	Family      string // for grouping in pickers: AWS, gRPC, Google, ...
	Description string // one line: what it is, and any value chosen here
	Source      string // repository, file and version the formula was read from
	Policy      Policy
	// ThrottleBase, when positive, is the base the system uses instead of
	// Policy.Base for throttling errors (the AWS SDKs' 1 s for
	// ThrottlingException and the like): ThrottledPolicy gives that
	// schedule. 0 when the system treats throttling like any other error.
	ThrottleBase time.Duration
}

// ThrottledPolicy returns the schedule the system follows after a
// throttling error, and whether it has one of its own.
func (pr *Preset) ThrottledPolicy() (Policy, bool) {
	p := pr.Policy
	if pr.ThrottleBase <= 0 {
		return p, false
	}
	p.Base = pr.ThrottleBase
	return p, true
}

// throttleBases are the presets whose systems back off from throttling
// errors from another base.
var throttleBases = map[string]time.Duration{
	"aws-standard": time.Second, // aws/retry standard.go: throttles use a 1s base
}

const (
	ms = time.Millisecond
	s  = time.Second
)

// presets is in display order, grouped by family.
var presets = withThrottling([]presetDef{
	{"aws-standard", "AWS", "AWS SDK for Go v2 standard retryer, the default from v1.48.0 (2026-11-10): full jitter on min(50ms*2^(n-1), 20s), 3 attempts; throttling errors use a 1s base; x-amz-retry-after is clamped to [t, t+5s]. v1.42.0 to v1.47 ran it only with AWS_NEW_RETRIES_2026=true; without it, and before, the default was aws-legacy",
		"aws/aws-sdk-go-v2 aws/retry/standard.go (NewStandard), jitter_backoff.go (backoffDelay2026), middleware.go (adjustForRetryAfterHeader) (v1.48.0)",
		Policy{Growth: Exponential, Base: 50 * ms, Factor: 2, Cap: 20 * s, Jitter: Full, Attempts: 3, RetryAfter: RetryAfterBounded, RetryAfterSlack: 5 * s}},
	{"aws-legacy", "AWS", "AWS SDK for Go v2 legacy retryer, NewStandard's default before v1.48.0 (and from v1.42.0 unless AWS_NEW_RETRIES_2026=true): U[0,1)*2^n seconds, exactly 20s from retry 5 on, 3 attempts",
		"aws/aws-sdk-go-v2 aws/retry/jitter_backoff.go (v1.36.0; backoffDelayLegacy in v1.48.0, still NewExponentialJitterBackoff's)",
		Policy{Growth: Exponential, Base: 2 * s, Factor: 2, Cap: 20 * s, CapMode: CapExact, Jitter: Full, Attempts: 3}},
	{"aws-blog-full", "AWS", "AWS Architecture Blog (2015) full jitter: U[0, min(cap, base*2^n)), base 5, cap 2000 time units (as seconds), no attempt limit",
		"aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py",
		Policy{Growth: Exponential, Base: 5 * s, Factor: 2, FirstExponent: 1, Cap: 2000 * s, Jitter: Full}},
	{"aws-blog-equal", "AWS", "AWS Architecture Blog (2015) equal jitter: v/2 + U[0, v/2), v = min(cap, base*2^n), base 5, cap 2000",
		"aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py",
		Policy{Growth: Exponential, Base: 5 * s, Factor: 2, FirstExponent: 1, Cap: 2000 * s, Jitter: Equal}},
	{"aws-blog-decorrelated", "AWS", "AWS Architecture Blog (2015) decorrelated jitter: sleep = min(cap, U[base, sleep*3)), base 5, cap 2000",
		"aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py",
		Policy{Growth: Exponential, Base: 5 * s, Factor: 2, FirstExponent: 1, Cap: 2000 * s, Jitter: Decorrelated}},

	{"grpc-retry", "gRPC", "gRPC retry policy as grpc-go v1.85.0 runs it (gRFC A6 as amended in 2024; its first text said full jitter): min(initial*mult^(n-1), max) * U[0.8,1.2); A6 sets no defaults, so its example is used: initial 0.1s, mult 2, max 1s, 5 attempts",
		"grpc/grpc-go stream.go shouldRetry (v1.85.0); grpc/proposal A6-client-retries.md",
		Policy{Growth: Exponential, Base: 100 * ms, Factor: 2, Cap: s, Jitter: Proportional, JitterLo: 0.8, JitterHi: 1.2, Attempts: 5}},
	{"grpc-retry-legacy", "gRPC", "gRPC retry policy before 2024 (grpc-go v1.68 and older, gRFC A6's first text): U[0, min(initial*mult^(n-1), max)); A6's example values: initial 0.1s, mult 2, max 1s, 5 attempts",
		"grpc/grpc-go stream.go shouldRetry (v1.68 and older)",
		Policy{Growth: Exponential, Base: 100 * ms, Factor: 2, Cap: s, Jitter: Full, Attempts: 5}},
	{"grpc-connect", "gRPC", "gRPC connection backoff: first retry exactly 1s, then min(1s*1.6^(n-1), 120s) * (1 + 0.2*U[-1,1)), no attempt limit",
		"grpc/grpc-go backoff/backoff.go, internal/backoff/backoff.go (DefaultConfig)",
		Policy{Growth: Exponential, Base: s, Factor: 1.6, Cap: 120 * s, Jitter: Proportional, JitterLo: 0.8, JitterHi: 1.2, FirstUnjittered: true}},

	{"gax", "Google", "Google gax-go v2 Backoff.Pause: 1ns + U[0, min(1s*2^(n-1), 30s)); no attempt limit (the context deadline stops it)",
		"googleapis/gax-go v2/call_option.go (v2.27.0)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 30 * s, Jitter: Full, Offset: time.Nanosecond}},

	{"azure", "Azure", "Azure SDK for Go azcore: (2^n - 1)*800ms*U[0.8,1.3), then capped at 60s; 4 attempts; gives up when Retry-After exceeds the cap",
		"Azure/azure-sdk-for-go sdk/azcore/runtime/policy_retry.go (azcore v1.24.0)",
		Policy{Growth: ExpMinusOne, Base: 800 * ms, Factor: 2, Cap: 60 * s, CapMode: CapAfterJitter, Jitter: Proportional, JitterLo: 0.8, JitterHi: 1.3, Attempts: 4, RetryAfter: RetryAfterGiveUp}},

	{"cenkalti", "Go libraries", "cenkalti/backoff v5 ExponentialBackOff: U[cur*0.5, cur*1.5], cur = min(500ms*1.5^(n-1), 60s) capped BEFORE randomising (delays reach 90s); max elapsed 15min",
		"cenkalti/backoff v5 exponential.go, retry.go (v5.0.3)",
		Policy{Growth: Exponential, Base: 500 * ms, Factor: 1.5, Cap: 60 * s, Jitter: Proportional, JitterLo: 0.5, JitterHi: 1.5, Deadline: 15 * time.Minute}},
	{"retryablehttp", "Go libraries", "hashicorp/go-retryablehttp DefaultBackoff: min(1s*2^(n-1), 30s), no jitter, RetryMax 4 (5 attempts); Retry-After on 429/503 is used as is, uncapped",
		"hashicorp/go-retryablehttp client.go (v0.7.8)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 30 * s, Jitter: NoJitter, Attempts: 5, RetryAfter: RetryAfterAsIs}},

	{"k8s-crashloop", "Kubernetes", "kubelet CrashLoopBackOff: first restart immediate, then min(10s*2^(n-2), 300s): 0 10 20 40 80 160 300 300...; restarts forever",
		"kubernetes/kubernetes pkg/kubelet/kubelet.go, kuberuntime_manager.go (v1.37.2)",
		Policy{Growth: Exponential, Base: 10 * s, Factor: 2, Cap: 300 * s, Jitter: NoJitter, ImmediateFirst: true}},
	{"k8s-workqueue", "Kubernetes", "client-go workqueue per-item limiter: 5ms*2^(n-1), capped at 1000s, no jitter (the default controller limiter also takes the max with a 10 qps, burst 100 bucket)",
		"kubernetes/client-go util/workqueue/default_rate_limiters.go (v0.37.2)",
		Policy{Growth: Exponential, Base: 5 * ms, Factor: 2, Cap: 1000 * s, Jitter: NoJitter}},

	{"envoy", "Proxies", "Envoy router, as its code runs since v1.14.0: U[0, min(25ms*2^(n-1), 250ms)) in whole ms, num_retries 1 (2 attempts); retry budget 20% of active requests, at least 3. Envoy's docs still give U[0, (2^n - 1)*25ms), the formula before v1.14.0",
		"envoyproxy/envoy source/common/common/backoff_strategy.cc (JitteredExponentialBackOffStrategy: doubling since v1.14.0, PR #10417), router/retry_state_impl.cc",
		Policy{Growth: Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: Full, Attempts: 2}},
	{"istio", "Proxies", "Istio's default route retries: Envoy's back-off U[0, min(25ms*2^(n-1), 250ms)) with Istio's NumRetries 2 (3 attempts) on connect-failure, refused-stream, unavailable, cancelled and 503",
		"istio/istio pilot/pkg/networking/core/route/retry/retry.go (defaultPolicy); envoyproxy/envoy source/common/common/backoff_strategy.cc",
		Policy{Growth: Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: Full, Attempts: 3}},

	{"temporal", "Workflow engines", "Temporal's default retry policy (activities, and workflows given a policy): min(1s*2^(n-1), 100s), MaximumInterval 100 x InitialInterval, no jitter, MaximumAttempts 0 (no limit)",
		"temporalio/temporal common/retrypolicy/retry_policy.go (DefaultDefaultRetrySettings), common/backoff/retry.go (ExponentialBackoffAlgorithm) (v1.30.0)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 100 * s, Jitter: NoJitter}},
	{"step-functions", "Workflow engines", "AWS Step Functions retrier defaults: IntervalSeconds 1, BackoffRate 2.0, MaxAttempts 3 (3 retries, 4 attempts); MaxDelaySeconds (no default) caps the interval and JitterStrategy FULL (default NONE) draws U[0, interval)",
		"awsdocs/aws-step-functions-developer-guide concepts-error-handling.md; aws/aws-cdk aws-stepfunctions/lib/types.ts (RetryProps, JitterType)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Jitter: NoJitter, Attempts: 4}},

	{"systemd", "Supervisors", "systemd Restart=: RestartSec 100ms between restarts (set steps and cap for RestartSteps/RestartMaxDelaySec); more than 5 starts in 10s are refused, so 5 attempts",
		"systemd/systemd src/core/service.c, src/basic/constants.h",
		Policy{Growth: Geometric, Base: 100 * ms, Factor: 1, Jitter: NoJitter, Attempts: 5}},

	{"tcp-rfc6298", "Networks", "TCP retransmission timer, RFC 6298: RTO from 1s, doubling, capped at 60s; the RFC sets no count, so RFC 1122's R2 >= 100s is the deadline",
		"RFC 6298 sections 2.1, 2.4, 2.5, 5.5; RFC 1122 4.2.3.5",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 60 * s, Jitter: NoJitter, Deadline: 100 * s}},
	{"tcp-linux", "Networks", "Linux TCP, established connection: RTO from TCP_RTO_MIN 200ms, doubling to 120s, tcp_retries2 = 15 (16 attempts); with the last 120s timer it gives up after 924.6s",
		"torvalds/linux include/net/tcp.h, net/ipv4/tcp_timer.c (tcp_model_timeout)",
		Policy{Growth: Exponential, Base: 200 * ms, Factor: 2, Cap: 120 * s, Jitter: NoJitter, Attempts: 16}},
	{"ethernet", "Networks", "Ethernet (IEEE 802.3) truncated binary exponential backoff: U{0 .. 2^k-1} slots of 51.2µs, k = min(n, 10); frame dropped after 16 attempts",
		"IEEE 802.3 (read from the INET simulator's EthernetCsmaMac)",
		Policy{Growth: ExpMinusOne, Base: 51200 * time.Nanosecond, Factor: 2, Cap: 1023 * 51200 * time.Nanosecond, Jitter: Full, Quantum: 51200 * time.Nanosecond, Attempts: 16}},

	{"sidekiq", "Job queues", "Sidekiq: count^4 + 15 + rand(10*(count+1)) seconds, count from 0; 25 retries (26 attempts), about 20.4 days in all",
		"sidekiq/sidekiq lib/sidekiq/job_retry.rb (8.1.7)",
		Policy{Growth: Polynomial, Base: s, Factor: 4, Offset: 15 * s, Jitter: Additive, JitterAdd: 10 * s, JitterAddScaled: true, Quantum: s, Attempts: 26}},
	{"celery", "Job queues", "Celery autoretry with retry_backoff=True: randrange(min(600, 2^(n-1)) + 1) whole seconds, max_retries 3 (4 attempts)",
		"celery/celery celery/app/autoretry.py, celery/utils/time.py (5.6.2)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 600 * s, Jitter: Full, Quantum: s, Attempts: 4}},

	{"polly", "Resilience libraries", "Polly v8 defaults: constant 2s, no jitter, MaxRetryAttempts 3 (4 attempts)",
		"App-vNext/Polly src/Polly.Core/Retry/RetryConstants.cs, RetryHelper.cs",
		Policy{Growth: Constant, Base: 2 * s, Factor: 1, Jitter: NoJitter, Attempts: 4}},
	{"polly-v2", "Resilience libraries", "Polly v8 Exponential with UseJitter: DecorrelatedJitterBackoffV2, median first delay 2s, MaxRetryAttempts 3 (4 attempts)",
		"App-vNext/Polly src/Polly.Core/Retry/RetryHelper.cs; Polly.Contrib.WaitAndRetry Backoff.DecorrelatedJitterV2.cs",
		Policy{Growth: Exponential, Base: 2 * s, Factor: 2, Jitter: DecorrelatedV2, Attempts: 4}},
	{"polly-wiki", "Resilience libraries", "Polly's first decorrelated jitter (its wiki, 2017): min(max, max(seed, prev*3*U[0,1))) clamps the draw at both ends, so delays pile up at exactly the seed and, once prev*3 passes it, at exactly the max (about a third of them by retry 10); the wiki sets no values: seed 1s, max 10s, 10 retries (11 attempts) chosen here. Polly.Contrib.WaitAndRetry 1.0 replaced it with U[min, min(max, prev*3)), then with V2",
		"App-vNext/Polly wiki Retry-with-jitter, quoted in App-vNext/Polly issue #245; the bunching: issue #530; the replacement: Polly-Contrib/Polly.Contrib.WaitAndRetry src/Polly.Contrib.WaitAndRetry/Backoff.DecorrelatedJitter.cs (v1.0.0)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 10 * s, Jitter: DecorrelatedClamped, Attempts: 11}},
	{"spring-retry", "Resilience libraries", "Spring Retry ExponentialBackOffPolicy defaults: min(100ms*2^(n-1), 30s), no jitter; SimpleRetryPolicy's maxAttempts 3 counts the first try",
		"spring-projects/spring-retry backoff/ExponentialBackOffPolicy.java, policy/SimpleRetryPolicy.java (main; the defaults are unchanged since 1.0)",
		Policy{Growth: Exponential, Base: 100 * ms, Factor: 2, Cap: 30 * s, Jitter: NoJitter, Attempts: 3}},
	{"urllib3", "Resilience libraries", "urllib3 2.x Retry (requests' adapters): no wait before the first retry, then min(backoff_max, backoff_factor*2^(n-1) + U(0, backoff_jitter)); backoff_factor 0 by default (no back-off at all), so its docstring's advice is taken: factor 0.5, jitter 0.5s; backoff_max 120s, total 10 (11 attempts)",
		"urllib3/urllib3 src/urllib3/util/retry.py (get_backoff_time, 2.x)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Cap: 120 * s, CapMode: CapAfterJitter, Jitter: Additive, JitterAdd: 500 * ms, ImmediateFirst: true, Attempts: 11}},
	{"tenacity", "Resilience libraries", "Python tenacity wait_exponential_jitter defaults: min(1s*2^(n-1) + U(0, 1s), max), max effectively unbounded, stop never",
		"jd/tenacity tenacity/wait.py (9.1.4)",
		Policy{Growth: Exponential, Base: s, Factor: 2, Jitter: Additive, JitterAdd: s}},
})

// presetDef is a preset as listed above, without the rarer fields.
type presetDef struct {
	Name, Family, Description, Source string
	Policy                            Policy
}

func withThrottling(defs []presetDef) []Preset {
	ps := make([]Preset, len(defs))
	for i, d := range defs {
		ps[i] = Preset{Name: d.Name, Family: d.Family, Description: d.Description, Source: d.Source,
			Policy: d.Policy, ThrottleBase: throttleBases[d.Name]}
	}
	return ps
}

// Presets returns every preset in display order. The slice is a copy.
func Presets() []Preset { return append([]Preset(nil), presets...) }

// PresetNames lists the presets' names in display order.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// LookupPreset returns the named preset, or a *FieldError listing the valid
// names.
func LookupPreset(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, unknownErr("preset", truncate(name, maxInput), PresetNames())
}
