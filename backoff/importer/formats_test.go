package importer

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

const (
	ms = time.Millisecond
	s  = time.Second
)

// formatCases are configs as people write them, each with the policy the
// library runs (read from its source, see each format's Source) and the
// warnings the reading must give.
var formatCases = []struct {
	name, format, text string
	want               backoff.Policy
	warnings           []string // codes, in order
}{
	{"tenacity decorator", "tenacity", `
from tenacity import retry, stop_after_attempt, wait_exponential

@retry(stop=stop_after_attempt(5), wait=wait_exponential(multiplier=0.5, max=10))
def fetch():
    ...
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 10 * s, Jitter: backoff.NoJitter, Attempts: 5}, nil},
	{"tenacity Retrying with a jitter and a deadline", "tenacity", `
import tenacity
from datetime import timedelta
for attempt in tenacity.Retrying(
    stop=tenacity.stop_before_delay(timedelta(seconds=30)) | tenacity.stop_after_attempt(8),
    wait=tenacity.wait_random_exponential(multiplier=1, max=20),
):
    with attempt:
        call()
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 20 * s, Jitter: backoff.Full, Attempts: 8, Deadline: 30 * s}, nil},
	{"tenacity's README: wait_exponential with min and max", "tenacity", `
@retry(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=1, min=4, max=10))
def wait_exponential_1():
    print("Wait 2^x * 1 second between each retry starting with 4 seconds, then up to 10 seconds, then 10 seconds afterwards")
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 10 * s, Floor: 4 * s, Jitter: backoff.NoJitter, Attempts: 3}, nil},
	{"tenacity wait_random_exponential with min, and a sum with min", "tenacity", `
@retry(wait=wait_random_exponential(multiplier=0.5, min=1, max=30) + wait_random(0, 2))
def f(): pass
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 30 * s, Floor: s, Jitter: backoff.Full}, []string{CodeIgnored}},
	{"tenacity wait_exponential_jitter's min (after 9.1.4): a floor after the jitter, named and left out", "tenacity", `
@retry(wait=wait_exponential_jitter(multiplier=1, max=30, jitter=2, min=5))
def f(): pass
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 30 * s, CapMode: backoff.CapAfterJitter, Jitter: backoff.Additive, JitterAdd: 2 * s},
		[]string{CodeRange}},
	{"tenacity wait_exponential_jitter's min below initial never binds", "tenacity", `
@retry(wait=wait_exponential_jitter(initial=2, jitter=1, min=1))
def f(): pass
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, CapMode: backoff.CapAfterJitter, Jitter: backoff.Additive, JitterAdd: s}, nil},
	{"tenacity min above max: every wait is min", "tenacity", `
@retry(wait=wait_exponential(multiplier=2, min=8, max=5), stop=stop_after_attempt(4))
def f(): pass
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: 8 * s, Floor: 8 * s, Jitter: backoff.NoJitter, Attempts: 4}, nil},
	{"tenacity min in a sum of exponentials", "tenacity", `
@retry(wait=wait_exponential(multiplier=1, min=2) + wait_random_exponential(multiplier=1))
def f(): pass
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Jitter: backoff.Equal, JitterLo: 0.8, JitterHi: 1.2}, []string{CodeIgnored}},
	{"tenacity wait_incrementing", "tenacity", `
@retry(wait=wait_incrementing(start=1, increment=2, max=9), stop=stop_after_attempt(4))
def f(): pass
`, backoff.Policy{Growth: backoff.Linear, Base: 2 * s, Factor: 1, Cap: 8 * s, Jitter: backoff.NoJitter, ImmediateFirst: true, Offset: s, Attempts: 4}, nil},
	{"tenacity with a variable", "tenacity", `
@retry(stop=stop_after_attempt(MAX_TRIES), wait=wait_fixed(2))
def f(): pass
`, backoff.Policy{Growth: backoff.Constant, Base: 2 * s, Factor: 1, Jitter: backoff.NoJitter}, []string{CodeUnreadable}},
	{"urllib3 through requests", "urllib3", `
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

retries = Retry(total=5, backoff_factor=0.5, status_forcelist=[502, 503, 504], backoff_jitter=0.25)
session.mount("https://", HTTPAdapter(max_retries=retries))
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, FirstExponent: 1, ImmediateFirst: true, Cap: 120 * s,
		CapMode: backoff.CapAfterJitter, Jitter: backoff.Additive, JitterAdd: 250 * ms, Attempts: 6, RetryAfter: backoff.RetryAfterAsIs},
		[]string{CodeIgnored}},
	{"urllib3 jitter without a backoff factor: the first retry is still immediate", "urllib3", `
from urllib3.util import Retry
retries = Retry(total=3, backoff_jitter=1.5)
`, backoff.Policy{Growth: backoff.Constant, Factor: 2, Cap: 120 * s, CapMode: backoff.CapAfterJitter, ImmediateFirst: true,
		Jitter: backoff.Additive, JitterAdd: 1500 * ms, Attempts: 4, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"urllib3 adapter integer", "urllib3", `
from requests.adapters import HTTPAdapter
adapter = HTTPAdapter(max_retries=3)
`, backoff.Policy{Growth: backoff.None, Factor: 2, Cap: 120 * s, Jitter: backoff.NoJitter, Attempts: 4, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"gRPC JSON, keys in any case, durations like .2s", "grpc", `{
  "methodConfig": [{
    "name": [{"service": "echo.Echo"}],
    "RetryPolicy": {
      "MAXATTEMPTS": 4,
      "initialBackoff": ".2s",
      "maxBackoff": "2.5s",
      "backoffMultiplier": 3,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }],
  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}`, backoff.Policy{Growth: backoff.Exponential, Base: 200 * ms, Factor: 3, Cap: 2500 * ms, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
		Attempts: 4, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeBudget, CodeIgnored}},
	{"gRPC config embedded in Go", "grpc", "package main\n\nconst serviceConfig = `{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 9, " +
		"\"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}]}`\n\n" +
		"func dial() { grpc.NewClient(addr, grpc.WithDefaultServiceConfig(serviceConfig)) }\n",
		backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: s, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
			Attempts: 5, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeRange, CodeIgnored}},
	{"gRPC config as a Python dict", "grpc", `
import json
service_config = {
    "methodConfig": [{
        "name": [{"service": "helloworld.Greeter"}],
        "retryPolicy": {
            "maxAttempts": 3,
            "initialBackoff": "0.5s",
            "maxBackoff": "4s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }]
}
channel = grpc.insecure_channel("localhost:50051", options=[("grpc.service_config", json.dumps(service_config))])
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 4 * s, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
		Attempts: 3, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeIgnored}},
	{"gRPC config in a Java string", "grpc", `
String config = "{\"methodConfig\":[{\"name\":[{}],\"retryPolicy\":{\"maxAttempts\":2,"
    + "\"initialBackoff\":\"1s\",\"maxBackoff\":\"1s\",\"backoffMultiplier\":1,"
    + "\"retryableStatusCodes\":[\"UNAVAILABLE\"]}}]}";
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 1, Cap: s, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
		Attempts: 2, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeIgnored}},
	{"gRPC without status codes is ignored whole", "grpc", `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "1s", "maxBackoff": "2s", "backoffMultiplier": 2}}]}`,
		backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 2 * s, Jitter: backoff.Proportional, JitterLo: 0.8, JitterHi: 1.2,
			Attempts: 1, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeInvalid}},
	{"Envoy route, default back-off", "envoy", `
routes:
- match: {prefix: "/"}
  route:
    cluster: backend
    retry_policy:
      retry_on: 5xx
      num_retries: 3
      per_try_timeout: 2s
`, backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 4, Deadline: 15 * s},
		[]string{CodeIgnored, CodeIgnored, CodeRounding, CodeDeadlineTimeout}},
	{"Envoy retry policy in JSON", "envoy", `{"route": {"cluster": "b", "timeout": "0s", "retry_policy": {"num_retries": 2, "retry_back_off": {"base_interval": "0.1s"}}}}`,
		backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: s, Jitter: backoff.Full, Attempts: 3}, []string{CodeRounding}},
	{"Istio VirtualService", "istio", `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ratings
spec:
  hosts: [ratings]
  http:
  - route:
    - destination: {host: ratings, subset: v1}
    timeout: 10s
    retries:
      attempts: 3
      perTryTimeout: 2s
      retryOn: gateway-error,connect-failure
`, backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 4, Deadline: 10 * s},
		[]string{CodeIgnored, CodeIgnored, CodeRounding, CodeDeadlineTimeout}},
	{"Istio retries with a backoff: the base of Envoy's back-off", "istio", `
apiVersion: networking.istio.io/v1
kind: VirtualService
spec:
  http:
  - route:
    - destination: {host: reviews}
    retries:
      attempts: 5
      backoff: 100ms
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: s, Jitter: backoff.Full, Attempts: 6}, []string{CodeRounding}},
	{"Istio default retries", "istio", `
apiVersion: networking.istio.io/v1beta1
kind: VirtualService
spec:
  http:
  - route:
    - destination: {host: reviews}
`, backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 3}, []string{CodeRounding}},
	{"Polly v8", "polly", `
var pipeline = new ResiliencePipelineBuilder()
    .AddRetry(new RetryStrategyOptions
    {
        MaxRetryAttempts = 4,
        BackoffType = DelayBackoffType.Exponential,
        UseJitter = true,
        Delay = TimeSpan.FromMilliseconds(500),
        MaxDelay = TimeSpan.FromSeconds(10),
        ShouldHandle = new PredicateBuilder().Handle<HttpRequestException>(),
    })
    .Build();
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 10 * s, CapMode: backoff.CapAfterJitter, Jitter: backoff.DecorrelatedV2, Attempts: 5},
		[]string{CodeIgnored}},
	{"Polly HTTP options defaults", "polly", `builder.AddRetry(new HttpRetryStrategyOptions { MaxRetryAttempts = 2 });`,
		backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Jitter: backoff.DecorrelatedV2, Attempts: 3, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"resilience4j YAML with a base config", "resilience4j", `
resilience4j.retry:
  configs:
    default:
      max-attempts: 5
      wait-duration: 200ms
  instances:
    backendA:
      baseConfig: default
      enableExponentialBackoff: true
      exponentialBackoffMultiplier: 2
      exponentialMaxWaitDuration: PT5S
`, backoff.Policy{Growth: backoff.Exponential, Base: 200 * ms, Factor: 2, Cap: 5 * s, CapMode: backoff.CapAfterJitter, Jitter: backoff.NoJitter, Attempts: 5},
		[]string{CodeRounding}},
	{"resilience4j max wait without a multiplier: not read", "resilience4j", `
resilience4j.retry:
  instances:
    backendA:
      wait-duration: 200ms
      enableExponentialBackoff: true
      exponentialMaxWaitDuration: PT5S
`, backoff.Policy{Growth: backoff.Exponential, Base: 200 * ms, Factor: 1.5, Jitter: backoff.NoJitter, Attempts: 3},
		[]string{CodeIgnored, CodeRounding}},
	{"resilience4j random exponential: the factor and max need the multiplier", "resilience4j", `
resilience4j.retry.instances.b.waitDuration=1s
resilience4j.retry.instances.b.enableExponentialBackoff=true
resilience4j.retry.instances.b.enableRandomizedWait=true
resilience4j.retry.instances.b.randomizedWaitFactor=0.2
resilience4j.retry.instances.b.exponentialMaxWaitDuration=10s
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 1.5, Jitter: backoff.Proportional, JitterLo: 0.5, JitterHi: 1.5, Attempts: 3},
		[]string{CodeIgnored, CodeIgnored, CodeRounding}},
	{"resilience4j properties", "resilience4j", `
# application.properties
resilience4j.retry.instances.backendB.maxAttempts=4
resilience4j.retry.instances.backendB.waitDuration=1000
resilience4j.retry.instances.backendB.enableRandomizedWait=true
resilience4j.retry.instances.backendB.randomizedWaitFactor=0.25
resilience4j.retry.instances.backendB.retryExceptions[0]=java.io.IOException
`, backoff.Policy{Growth: backoff.Constant, Base: s, Factor: 1, Jitter: backoff.Proportional, JitterLo: 0.75, JitterHi: 1.25, Attempts: 4},
		[]string{CodeIgnored, CodeRounding}},
	{"Spring Retry exponential random", "spring-retry", `
@Service
public class Client {
    @Retryable(retryFor = IOException.class, maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2, maxDelay = 5000, random = true))
    public String call() { return rest.get(); }
}
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 5 * s, CapMode: backoff.CapAfterJitter, Jitter: backoff.Proportional,
		JitterLo: 1, JitterHi: 2, Attempts: 4}, []string{CodeIgnored, CodeRounding}},
	{"Spring Retry defaults", "spring-retry", `@Retryable public void f() {}`,
		backoff.Policy{Growth: backoff.Constant, Base: s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3}, nil},
	{"Spring Retry delay 0: 1ms", "spring-retry", `@Retryable(backoff = @Backoff(delay = 0))`,
		backoff.Policy{Growth: backoff.Constant, Base: ms, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3}, []string{CodeRange}},
	{"Spring Retry uniform random", "spring-retry", `@Retryable(maxAttempts = 2, backoff = @Backoff(value = 100, maxDelay = 300))`,
		backoff.Policy{Growth: backoff.Constant, Base: 100 * ms, Factor: 1, Jitter: backoff.Additive, JitterAdd: 200 * ms, Attempts: 2}, []string{CodeRounding}},
	{"Spring RetryTemplate builder", "spring-retry", `
RetryTemplate template = RetryTemplate.builder()
    .maxAttempts(5)
    .exponentialBackoff(100, 2, 2000)
    .retryOn(RemoteAccessException.class)
    .build();
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: 2 * s, Jitter: backoff.NoJitter, Attempts: 5}, []string{CodeIgnored}},
	{"Spring RetryTemplate without a back-off", "spring-retry", `RetryTemplate t = RetryTemplate.builder().withinMillis(5000).build();`,
		backoff.Policy{Growth: backoff.None, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3, Deadline: 5 * s}, []string{CodeDeadlineTimeout}},
	{"cenkalti v4 with options", "cenkalti", `
import "github.com/cenkalti/backoff/v4"

func run() error {
	b := backoff.NewExponentialBackOff(backoff.WithInitialInterval(100*time.Millisecond), backoff.WithMaxElapsedTime(time.Minute))
	b.Multiplier = 2
	return backoff.Retry(op, backoff.WithMaxRetries(b, 5))
}
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: 60 * s, Jitter: backoff.Proportional, JitterLo: 0.5, JitterHi: 1.5,
		Attempts: 6, Deadline: time.Minute}, nil},
	{"AWS SDK standard retryer", "aws-sdk-go-v2", `
cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 5
		o.MaxBackoff = 10 * time.Second
	})
}))
`, backoff.Policy{Growth: backoff.Exponential, Base: 50 * ms, Factor: 2, Cap: 10 * s, Jitter: backoff.Full, Attempts: 5,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, []string{CodeThrottleBase, CodeVersion}},
	{"AWS SDK legacy back-off without an attempt limit", "aws-sdk-go-v2", `
r := retry.NewStandard(func(o *retry.StandardOptions) {
	o.Backoff = retry.NewExponentialJitterBackoff(20 * time.Second)
})
return retry.AddWithMaxAttempts(r, 0)
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: 20 * s, CapMode: backoff.CapExact, Jitter: backoff.Full,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, nil},
	{"AWS SDK legacy back-off, MaxBackoff after it unused", "aws-sdk-go-v2", `
r := retry.NewStandard(func(o *retry.StandardOptions) {
	o.Backoff = retry.NewExponentialJitterBackoff(20 * time.Second)
	o.MaxBackoff = 5 * time.Second
	o.BaseDelay = time.Second
})
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: 20 * s, CapMode: backoff.CapExact, Jitter: backoff.Full, Attempts: 3,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, []string{CodeIgnored, CodeIgnored}},
	{"AWS SDK AddWithMaxBackoffDelay, the legacy back-off over the standard", "aws-sdk-go-v2", `
r := retry.NewStandard(func(o *retry.StandardOptions) {
	o.MaxAttempts = 5
	o.BaseDelay = 100 * time.Millisecond
	o.Backoff = retry.NewExponentialJitterBackoff(20 * time.Second)
})
return retry.AddWithMaxBackoffDelay(r, 4*time.Second)
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: 4 * s, CapMode: backoff.CapExact, Jitter: backoff.Full, Attempts: 5,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, []string{CodeIgnored, CodeIgnored, CodeCapDrawn}},
	{"AWS SDK legacy back-off of max 0: every retry at once", "aws-sdk-go-v2", `
r := retry.NewStandard(func(o *retry.StandardOptions) {
	o.Backoff = retry.NewExponentialJitterBackoff(0)
})
`, backoff.Policy{Growth: backoff.Exponential, Factor: 2, Attempts: 3,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, nil},
	{"AWS SDK AddWithMaxBackoffDelay over the standard back-off", "aws-sdk-go-v2", `
return retry.AddWithMaxBackoffDelay(retry.NewStandard(), 30*time.Second)
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: 30 * s, CapMode: backoff.CapExact, Jitter: backoff.Full, Attempts: 3,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, nil},
	{"Istio, the retries in the second document", "istio", `
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
spec:
  http:
  - route: [{destination: {host: reviews}}]
    retries: {attempts: 5, retryOn: 5xx}
`, backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 6}, []string{CodeIgnored, CodeRounding}},
	{"Polly options by assignment, a timeout around the retry", "polly", `
var options = new RetryStrategyOptions();
options.MaxRetryAttempts = 2;
options.BackoffType = DelayBackoffType.Linear;
options.Delay = TimeSpan.FromSeconds(1);
options.UseJitter = true;
var pipeline = new ResiliencePipelineBuilder().AddTimeout(TimeSpan.FromSeconds(30)).AddRetry(options).Build();
`, backoff.Policy{Growth: backoff.Linear, Base: s, Factor: 1, Jitter: backoff.Proportional, JitterLo: 0.75, JitterHi: 1.25, Attempts: 3, Deadline: 30 * s},
		[]string{CodeDeadlineTimeout}},
	{"cenkalti v5 struct literal without MaxInterval: every delay is InitialInterval", "cenkalti", `
import "github.com/cenkalti/backoff/v5"
b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, RandomizationFactor: 0.5}
`, backoff.Policy{Growth: backoff.Constant, Base: s, Factor: 1, Jitter: backoff.Proportional, JitterLo: 0.5, JitterHi: 1.5, Deadline: 15 * time.Minute},
		[]string{CodeRange}},
	{"cenkalti v4 struct literal without MaxInterval: immediate after the first", "cenkalti", `
import "github.com/cenkalti/backoff/v4"
b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2}
`, backoff.Policy{Growth: backoff.None, Base: s, Factor: 1, Jitter: backoff.NoJitter}, []string{CodeRange}},
	{"go-retryablehttp struct literal", "retryablehttp", `
c := &retryablehttp.Client{HTTPClient: cleanhttp.DefaultClient(), RetryWaitMin: 100 * time.Millisecond, RetryWaitMax: 2 * time.Second, RetryMax: 3}
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: 2 * s, Jitter: backoff.NoJitter, Attempts: 4, RetryAfter: backoff.RetryAfterAsIs},
		[]string{CodeIgnored, CodeInvalid}},
	{"go-retryablehttp struct literal with its Backoff", "retryablehttp", `
c := &retryablehttp.Client{RetryWaitMin: 100 * time.Millisecond, RetryWaitMax: 2 * time.Second, RetryMax: 3, Backoff: retryablehttp.DefaultBackoff}
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 2, Cap: 2 * s, Jitter: backoff.NoJitter, Attempts: 4, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"Temporal Go", "temporal", `
ao := workflow.ActivityOptions{
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    2 * time.Second,
		BackoffCoefficient: 1.5,
		MaximumAttempts:    10,
	},
}
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 1.5, Cap: 200 * s, Jitter: backoff.NoJitter, Attempts: 10}, nil},
	{"Temporal Java", "temporal", `
RetryOptions retry = RetryOptions.newBuilder()
    .setInitialInterval(Duration.ofMillis(500))
    .setMaximumInterval(Duration.ofSeconds(30))
    .setMaximumAttempts(6)
    .build();
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 30 * s, Jitter: backoff.NoJitter, Attempts: 6}, nil},
	{"Temporal TypeScript", "temporal", `
const { charge } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '100ms', backoffCoefficient: 3, maximumInterval: '10s', maximumAttempts: 4 },
});
`, backoff.Policy{Growth: backoff.Exponential, Base: 100 * ms, Factor: 3, Cap: 10 * s, Jitter: backoff.NoJitter, Attempts: 4}, nil},
	{"Temporal Python", "temporal", `
from temporalio.common import RetryPolicy
await workflow.execute_activity(charge, start_to_close_timeout=timedelta(seconds=5),
    retry_policy=RetryPolicy(initial_interval=timedelta(seconds=1), maximum_interval=timedelta(minutes=1), non_retryable_error_types=["Invalid"]))
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: time.Minute, Jitter: backoff.NoJitter}, []string{CodeIgnored}},
	{"Step Functions", "step-functions", `{
  "StartAt": "Call",
  "States": {
    "Call": {
      "Type": "Task",
      "Resource": "arn:aws:states:::lambda:invoke",
      "Retry": [
        {"ErrorEquals": ["States.Timeout"], "IntervalSeconds": 3, "MaxAttempts": 2, "BackoffRate": 1.5, "MaxDelaySeconds": 5, "JitterStrategy": "FULL"},
        {"ErrorEquals": ["States.ALL"]}
      ],
      "End": true
    }
  }
}`, backoff.Policy{Growth: backoff.Exponential, Base: 3 * s, Factor: 1.5, Cap: 5 * s, Jitter: backoff.Full, Attempts: 3}, []string{CodeIgnored, CodeSeveral}},
	{"go-retryablehttp", "retryablehttp", `
client := retryablehttp.NewClient()
client.RetryMax = 6
client.RetryWaitMin = 500 * time.Millisecond
client.RetryWaitMax = 8 * time.Second
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 8 * s, Jitter: backoff.NoJitter, Attempts: 7, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"go-retryablehttp linear jitter", "retryablehttp", `
c := retryablehttp.NewClient()
c.Backoff = retryablehttp.LinearJitterBackoff
`, backoff.Policy{Growth: backoff.Linear, Base: s, Factor: 1, Jitter: backoff.Additive, JitterAdd: 29 * s, JitterAddScaled: true, Attempts: 5}, nil},
	{"Celery", "celery", `
@app.task(autoretry_for=(ConnectionError,), retry_backoff=5, retry_backoff_max=300, max_retries=8)
def send(x):
    ...
`, backoff.Policy{Growth: backoff.Exponential, Base: 5 * s, Factor: 2, Cap: 300 * s, Jitter: backoff.Full, Quantum: s, Attempts: 9}, []string{CodeIgnored}},
	{"Celery without backoff", "celery", `
@shared_task(bind=True, max_retries=None, default_retry_delay=30, retry_kwargs={'max_retries': 5})
def t(self): ...
`, backoff.Policy{Growth: backoff.Constant, Base: 30 * s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 6}, []string{CodeIgnored}},
	{"Celery Task subclass", "celery", `
from celery import Task

class BaseTaskWithRetry(Task):
    autoretry_for = (TypeError,)
    max_retries = 5
    retry_backoff = True
    retry_backoff_max = 700
    retry_jitter = False
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 700 * s, Jitter: backoff.NoJitter, Attempts: 6}, []string{CodeIgnored}},
	{"urllib3 in a function: its parameters' defaults", "urllib3", `
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

def session(retries=5, backoff=0.3):
    s = requests.Session()
    s.mount("https://", HTTPAdapter(max_retries=Retry(total=retries, backoff_factor=backoff)))
    return s
`, backoff.Policy{Growth: backoff.Exponential, Base: 300 * ms, Factor: 2, FirstExponent: 1, ImmediateFirst: true, Cap: 120 * s,
		Jitter: backoff.NoJitter, Attempts: 6, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeParamDefault, CodeParamDefault}},
	{"urllib3: a parameter without a default is not known, even where a constant has its name", "urllib3", `
from urllib3.util import Retry
retries = 3
def session(retries):
    return Retry(total=retries, backoff_factor=1)
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, FirstExponent: 1, ImmediateFirst: true, Cap: 120 * s,
		Jitter: backoff.NoJitter, Attempts: 11, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeUnreadable}},
	{"go-retryablehttp: a field set from another, a constant of the file, an import alias", "retryablehttp", `
import (
	"time"

	rhttp "github.com/hashicorp/go-retryablehttp"
)

const retryDelay = 10

func newClient() *rhttp.Client {
	client := rhttp.NewClient()
	client.RetryWaitMin = time.Duration(retryDelay) * time.Second
	client.RetryWaitMax = client.RetryWaitMin
	return client
}
`, backoff.Policy{Growth: backoff.Exponential, Base: 10 * s, Factor: 2, Cap: 10 * s, Jitter: backoff.NoJitter, Attempts: 5, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"go-retryablehttp: a field of the literal bound to the variable, a typed constant", "retryablehttp", `
const wait time.Duration = 250 * time.Millisecond
c := &retryablehttp.Client{RetryWaitMin: wait, RetryMax: 2, Backoff: retryablehttp.DefaultBackoff}
c.RetryWaitMax = c.RetryWaitMin * 8
`, backoff.Policy{Growth: backoff.Exponential, Base: 250 * ms, Factor: 2, Cap: 2 * s, Jitter: backoff.NoJitter, Attempts: 3, RetryAfter: backoff.RetryAfterAsIs}, nil},
	{"tenacity imported under another name", "tenacity", `
import tenacity as t

@t.retry(stop=t.stop_after_attempt(4), wait=t.wait_exponential(multiplier=0.5, max=8))
def fetch(): ...
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 8 * s, Jitter: backoff.NoJitter, Attempts: 4}, nil},
	{"urllib3's Retry imported under another name", "urllib3", `
from urllib3.util import Retry as R
from datetime import timedelta as td
retry = R(total=2, backoff_factor=0.5, backoff_max=td(seconds=4).total_seconds())
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, FirstExponent: 1, ImmediateFirst: true, Cap: 120 * s,
		Jitter: backoff.NoJitter, Attempts: 3, RetryAfter: backoff.RetryAfterAsIs}, []string{CodeUnreadable}},
	{"Temporal Go: the activity's ScheduleToCloseTimeout is the deadline", "temporal", `
ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
	ScheduleToCloseTimeout: 2 * time.Minute,
	RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 20},
})
`, backoff.Policy{Growth: backoff.Exponential, Base: s, Factor: 2, Cap: 100 * s, Jitter: backoff.NoJitter, Attempts: 20, Deadline: 2 * time.Minute}, []string{CodeDeadlineTimeout}},
	{"Temporal TypeScript: scheduleToCloseTimeout beside retry", "temporal", `
const { charge } = proxyActivities<typeof activities>({
  scheduleToCloseTimeout: '5 minutes',
  retry: { initialInterval: 500, maximumAttempts: 6 },
});
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 2, Cap: 50 * s, Jitter: backoff.NoJitter, Attempts: 6, Deadline: 5 * time.Minute}, []string{CodeDeadlineTimeout}},
	{"Temporal Python: schedule_to_close_timeout beside retry_policy", "temporal", `
await workflow.execute_activity(charge, schedule_to_close_timeout=timedelta(seconds=30),
    retry_policy=RetryPolicy(initial_interval=timedelta(seconds=2), backoff_coefficient=1))
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 1, Cap: 200 * s, Jitter: backoff.NoJitter, Deadline: 30 * time.Second}, []string{CodeDeadlineTimeout}},
	{"Temporal Java with a static import", "temporal", `
import static java.time.Duration.ofSeconds;

RetryOptions retry = RetryOptions.newBuilder()
    .setInitialInterval(ofSeconds(2))
    .setMaximumInterval(ofSeconds(60))
    .setBackoffCoefficient(3)
    .build();
`, backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 3, Cap: time.Minute, Jitter: backoff.NoJitter}, nil},
	{"Polly with using static TimeSpan", "polly", `
using static System.TimeSpan;
var options = new RetryStrategyOptions { MaxRetryAttempts = 2, Delay = FromSeconds(3), BackoffType = DelayBackoffType.Linear };
`, backoff.Policy{Growth: backoff.Linear, Base: 3 * s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 3}, nil},
	{"AWS standard retryer imported under another name", "aws-sdk-go-v2", `
import awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"

r := awsretry.NewStandard(func(o *awsretry.StandardOptions) { o.MaxAttempts = 4 })
`, backoff.Policy{Growth: backoff.Exponential, Base: 50 * ms, Factor: 2, Cap: 20 * s, Jitter: backoff.Full, Attempts: 4,
		RetryAfter: backoff.RetryAfterBounded, RetryAfterSlack: 5 * s}, []string{CodeThrottleBase, CodeVersion}},
	{"Spring RetryTemplate by its setters", "spring-retry", `
RetryTemplate retryTemplate = new RetryTemplate();
ExponentialBackOffPolicy backOffPolicy = new ExponentialBackOffPolicy();
backOffPolicy.setInitialInterval(500L);
backOffPolicy.setMultiplier(3.0);
backOffPolicy.setMaxInterval(10000L);
retryTemplate.setBackOffPolicy(backOffPolicy);
retryTemplate.setRetryPolicy(new SimpleRetryPolicy(4));
`, backoff.Policy{Growth: backoff.Exponential, Base: 500 * ms, Factor: 3, Cap: 10 * s, Jitter: backoff.NoJitter, Attempts: 4}, nil},
	{"Spring RetryTemplate's setters in Kotlin, a fixed back-off and the default retry policy", "spring-retry", `
val template = RetryTemplate()
template.setBackOffPolicy(FixedBackOffPolicy().apply { backOffPeriod = 2000 })
template.retryPolicy = MaxAttemptsRetryPolicy(5)
`, backoff.Policy{Growth: backoff.Constant, Base: 2 * s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 5}, nil},
	{"Spring RetryTemplate with a uniform random back-off and a timeout", "spring-retry", `
RetryTemplate template = new RetryTemplate();
UniformRandomBackOffPolicy backOff = new UniformRandomBackOffPolicy();
backOff.setMinBackOffPeriod(200);
backOff.setMaxBackOffPeriod(700);
template.setBackOffPolicy(backOff);
TimeoutRetryPolicy policy = new TimeoutRetryPolicy();
policy.setTimeout(5000L);
template.setRetryPolicy(policy);
`, backoff.Policy{Growth: backoff.Constant, Base: 200 * ms, Factor: 1, Jitter: backoff.Additive, JitterAdd: 500 * ms, Deadline: 5 * s},
		[]string{CodeDeadlineTimeout, CodeRounding}},
	{"Temporal TypeScript: a const passed to proxyActivities, durations in words and milliseconds", "temporal", `
import { proxyActivities } from '@temporalio/workflow';
import type * as activities from './activities';

const retryPolicy = {
  initialInterval: '1 minute',
  backoffCoefficient: 2,
  maximumInterval: 1800000,
  maximumAttempts: 5,
};

const { charge } = proxyActivities<typeof activities>({
  startToCloseTimeout: '30s',
  retry: retryPolicy,
});
`, backoff.Policy{Growth: backoff.Exponential, Base: time.Minute, Factor: 2, Cap: 30 * time.Minute, Jitter: backoff.NoJitter, Attempts: 5}, nil},
	{"Temporal TypeScript: { retry } shorthand and a typed const", "temporal", `
import * as wf from '@temporalio/workflow';
const retry: RetryPolicy = { initialInterval: '30s', maximumAttempts: 3 };
export const { sendEmail } = wf.proxyActivities<typeof activities>({ startToCloseTimeout: '1m', retry });
`, backoff.Policy{Growth: backoff.Exponential, Base: 30 * s, Factor: 2, Cap: 3000 * s, Jitter: backoff.NoJitter, Attempts: 3}, nil},
	{"Polly: AddRetry(new() { ... }), the options typed by the target", "polly", `
ResiliencePipeline pipeline = new ResiliencePipelineBuilder()
    .AddRetry(new()
    {
        Delay = TimeSpan.FromSeconds(2),
        MaxRetryAttempts = 4,
        BackoffType = DelayBackoffType.Linear,
    })
    .Build();
`, backoff.Policy{Growth: backoff.Linear, Base: 2 * s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 5}, nil},
	{"resilience4j configured in Java: RetryConfig.custom() with an exponential random interval", "resilience4j", `
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;

RetryConfig config = RetryConfig.custom()
    .maxAttempts(5)
    .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(200), 2.0, 0.25, Duration.ofSeconds(2)))
    .retryExceptions(IOException.class)
    .build();
`, backoff.Policy{Growth: backoff.Exponential, Base: 200 * ms, Factor: 2, Cap: 2 * s, CapMode: backoff.CapAfterJitter,
		Jitter: backoff.Proportional, JitterLo: 0.75, JitterHi: 1.25, Attempts: 5}, []string{CodeIgnored, CodeRounding}},
	{"resilience4j in Java: RetryConfig.custom() with a fixed wait", "resilience4j", `
RetryConfig config = RetryConfig.custom().maxAttempts(4).waitDuration(Duration.ofMillis(1000)).build();
`, backoff.Policy{Growth: backoff.Constant, Base: s, Factor: 1, Jitter: backoff.NoJitter, Attempts: 4}, nil},
	{"Envoy: a retry_policy on its own gets a route's default timeout, said so", "envoy", `
retry_policy:
  retry_on: 5xx,reset
  num_retries: 2
`, backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 3, Deadline: 15 * s},
		[]string{CodeIgnored, CodeRounding, CodeNotInText, CodeDeadlineTimeout}},
	{"Envoy: a bare retry policy, its keys at the top", "envoy", `{"num_retries": 4, "retry_on": "connect-failure"}`,
		backoff.Policy{Growth: backoff.Exponential, Base: 25 * ms, Factor: 2, Cap: 250 * ms, Jitter: backoff.Full, Attempts: 5, Deadline: 15 * s},
		[]string{CodeIgnored, CodeRounding, CodeNotInText, CodeDeadlineTimeout}},
}

func TestFormats(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range formatCases {
		res, err := Parse(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		covered[res.Format] = true
		if res.Format != c.format {
			t.Errorf("%s: format %s, want %s", c.name, res.Format, c.format)
		}
		if res.Policy != normalize(c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, res.Policy, c.want)
		}
		var codes []string
		for _, w := range res.Warnings {
			codes = append(codes, w.Code)
		}
		if !slices.Equal(codes, c.warnings) {
			t.Errorf("%s: warnings %q, want %q", c.name, codes, c.warnings)
			for _, w := range res.Warnings {
				t.Log(w.Message)
			}
		}
	}
	for _, f := range FormatNames() {
		if !covered[f] {
			t.Errorf("no case reads %s", f)
		}
	}
}

// TestUnreadableNamesTheLine: a value that is not a literal is named with
// its line, and the default is said to be used.
func TestUnreadableNamesTheLine(t *testing.T) {
	res, err := Parse("from tenacity import *\n\n@retry(\n    stop=stop_after_attempt(3),\n    wait=wait_fixed(config.delay),\n)\ndef f(): pass\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %+v", res.Warnings)
	}
	w := res.Warnings[0]
	if w.Code != CodeUnreadable || w.Line != 5 || !slices.Equal(w.Args, []string{"wait_fixed.wait", "config.delay"}) ||
		!strings.Contains(w.Message, "line 5") {
		t.Errorf("warning %+v", w)
	}
}

// TestConstantsAreRead: a value naming a constant of the same file is
// read (the cenkalti export's MaxTries).
func TestConstantsAreRead(t *testing.T) {
	res, err := Parse(`import "github.com/cenkalti/backoff/v5"
const tries = 4
const initial = 2 * time.Second
var opts = []backoff.RetryOption{backoff.WithBackOff(&backoff.ExponentialBackOff{InitialInterval: initial, Multiplier: 2, MaxInterval: time.Minute}), backoff.WithMaxTries(tries)}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := backoff.Policy{Growth: backoff.Exponential, Base: 2 * s, Factor: 2, Cap: time.Minute, Jitter: backoff.NoJitter, Attempts: 4, Deadline: 15 * time.Minute}
	if res.Policy != normalize(want) {
		t.Errorf("got %+v\nwant %+v", res.Policy, want)
	}
}

// TestNoPolicy: a text without a retry policy is refused with the
// recognised formats.
func TestNoPolicy(t *testing.T) {
	for _, text := range []string{"", "hello world", `{"a": 1}`, "package main\nfunc main() {}\n", "a: b\n",
		`{"methodConfig": [{"name": [{}], "timeout": "1s"}]}`} {
		_, err := Parse(text)
		var np *NoPolicyError
		if !errors.As(err, &np) || !slices.Equal(np.Formats, FormatNames()) || !strings.Contains(err.Error(), "celery") {
			t.Errorf("%q: %v", text, err)
		}
	}
	if _, err := Parse(strings.Repeat(" ", MaxInput+1)); err == nil {
		t.Error("a text longer than MaxInput is read")
	}
}

// TestDurations pins the duration syntaxes each format reads.
func TestDurations(t *testing.T) {
	for _, c := range []struct {
		parse func(string) (float64, bool)
		in    string
		want  float64
		ok    bool
	}{
		{protoSeconds, ".2s", 0.2, true}, {protoSeconds, "1.s", 1, true}, {protoSeconds, "30s", 30, true}, {protoSeconds, "0.000000001s", 1e-9, true},
		{protoSeconds, "1.0000000001s", 0, false}, {protoSeconds, "100ms", 0, false}, {protoSeconds, "s", 0, false}, {protoSeconds, "1", 0, false},
		{springSeconds, "500", 0.5, true}, {springSeconds, "2s", 2, true}, {springSeconds, "PT0.5S", 0.5, true}, {springSeconds, "P1DT1M", 86460, true},
		{springSeconds, "3m", 180, true}, {springSeconds, "5 parsecs", 0, false},
		{msSeconds, "1 minute", 60, true}, {msSeconds, "100ms", 0.1, true}, {msSeconds, "1.5h", 5400, true}, {msSeconds, "250", 0.25, true},
		{msSeconds, "soon", 0, false},
	} {
		got, ok := c.parse(c.in)
		if ok != c.ok || ok && !near(got, c.want) {
			t.Errorf("%q: %v %v, want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

// TestCodeExpressions pins the evaluator on the expressions of each
// language.
func TestCodeExpressions(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind vkind
		num  float64
	}{
		{"10 * time.Second", vDur, 10}, {"time.Second * 10", vDur, 10}, {"1500 * time.Millisecond", vDur, 1.5},
		{"time.Duration(5) * time.Second", vDur, 5}, {"TimeSpan.FromSeconds(2)", vDur, 2}, {"TimeSpan.FromMilliseconds(250)", vDur, 0.25},
		{"Duration.ofMillis(500)", vDur, 0.5}, {"Duration.ofMinutes(2)", vDur, 120}, {"timedelta(seconds=2, milliseconds=500)", vDur, 2.5},
		{"datetime.timedelta(minutes=1)", vDur, 60}, {"2 ** 3", vNum, 8}, {"1_000L", vNum, 1000}, {"2.5f", vNum, 2.5}, {"-(3)", vNum, -3},
		{"int.MaxValue", vNum, 2147483647}, {"True", vBool, 1}, {"config.delay", vName, 0}, {"f(x) ? 1 : 2", vBad, 0},
	} {
		code := tokenize(c.src)
		v := code.eval(0, len(code.toks))
		if v.kind != c.kind || (c.kind == vNum || c.kind == vDur || c.kind == vBool) && !near(v.num, c.num) {
			t.Errorf("%s: kind %d num %v, want %d %v", c.src, v.kind, v.num, c.kind, c.num)
		}
	}
}

// TestSourcesAgreeWithPresets: a format read from the same files as a
// preset cites them as the preset does, so the two cannot drift apart.
// (The Temporal import cited the server's internal retrier,
// common/backoff/retrypolicy.go, whose jittered formula activities do
// not use.)
func TestSourcesAgreeWithPresets(t *testing.T) {
	for format, preset := range map[string]string{"temporal": "temporal"} {
		pr, err := backoff.LookupPreset(preset)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range formats {
			if f.name == format && f.source != pr.Source {
				t.Errorf("%s cites %q, the %s preset %q", format, f.source, preset, pr.Source)
			}
		}
	}
}

// TestAWSLegacyCapDrawn: NewExponentialJitterBackoff(max) with max = 2^k s
// still draws U[0,1) * max before retry k (k <= int(log2(max/1s))), where
// the policy waits exactly max: the import says so, for a retry that is
// made, and says nothing for any other max.
func TestAWSLegacyCapDrawn(t *testing.T) {
	for _, c := range []struct {
		max, attempts string
		args          []string // nil: no cap-drawn warning
	}{
		{"16 * time.Second", "0", []string{"4", "16s"}},
		{"2 * time.Second", "0", []string{"1", "2s"}},
		{"1024 * time.Second", "0", []string{"10", "17m4s"}},
		{"4 * time.Second", "3", []string{"2", "4s"}}, // MaxAttempts 3: retries 1 and 2
		{"16 * time.Second", "5", []string{"4", "16s"}},
		{"16 * time.Second", "4", nil}, // retry 4 is never made
		{"8 * time.Second", "3", nil},
		{"20 * time.Second", "0", nil}, // draws U*16 at retry 4, exactly 20s from retry 5: as the policy
		{"time.Second", "0", nil},      // int(log2(1)) = 0: exactly 1s from retry 1
		{"500 * time.Millisecond", "0", nil},
		{"16*time.Second - time.Nanosecond", "0", nil},
		{"16*time.Second + time.Nanosecond", "0", nil},
	} {
		text := "r := retry.NewStandard(func(o *retry.StandardOptions) {\n\to.Backoff = retry.NewExponentialJitterBackoff(" + c.max + ")\n})\nreturn retry.AddWithMaxAttempts(r, " + c.attempts + ")\n"
		res, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", c.max, err)
		}
		var got []Warning
		for _, w := range res.Warnings {
			if w.Code == CodeCapDrawn {
				got = append(got, w)
			}
		}
		switch {
		case c.args == nil && len(got) != 0:
			t.Errorf("%s, %s attempts: unexpected %+v", c.max, c.attempts, got)
		case c.args != nil && (len(got) != 1 || !slices.Equal(got[0].Args, c.args) || got[0].Line != 2):
			t.Errorf("%s, %s attempts: cap-drawn warnings %+v, want one at line 2 with args %q", c.max, c.attempts, got, c.args)
		}
	}
}

// TestImportsInARow: an import statement right after another is read
// too (the reader of one went past the next one's first word).
func TestImportsInARow(t *testing.T) {
	c := tokenize("from tenacity import before_log\nfrom tenacity import retry as _retry\nimport urllib3 as u\nimport tenacity as t\n")
	for local, want := range map[string]string{"_retry": "retry", "u": "urllib3", "t": "tenacity"} {
		if got := c.aliases[local]; got != want {
			t.Errorf("%s: %q, want %q", local, got, want)
		}
	}
}

// TestNoDefaultForASetKey: a setting the text sets is not also listed as
// the library's default (the corpus found both: cenkalti's struct literal
// with MaxElapsedTime, and Spring's @Backoff(delayExpression = ...)).
func TestNoDefaultForASetKey(t *testing.T) {
	for _, c := range []struct{ text, key string }{
		{"import \"github.com/cenkalti/backoff/v4\"\nb := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: 10 * time.Second, MaxElapsedTime: 30 * time.Second}\n", "MaxElapsedTime"},
		{"@Retryable(maxAttempts = 4, backoff = @Backoff(delayExpression = \"1000\"))\npublic void f() {}\n", "@Backoff.delay"},
	} {
		res, err := Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Settings {
			if s.Default && s.Key == c.key {
				t.Errorf("%s: %s set in the text, and listed as a default (%q)", res.Format, c.key, s.Value)
			}
		}
	}
}

// TestFormatsRegistered: each format registers from its own file; the
// documented order and the order that breaks a tie on one line come
// from the registry.
func TestFormatsRegistered(t *testing.T) {
	doc := []string{"tenacity", "urllib3", "grpc", "envoy", "istio", "polly", "resilience4j", "spring-retry",
		"cenkalti", "aws-sdk-go-v2", "temporal", "step-functions", "retryablehttp", "celery"}
	if got := FormatNames(); !slices.Equal(got, doc) {
		t.Errorf("FormatNames: %q", got)
	}
	detect := []string{"step-functions", "grpc", "istio", "envoy", "resilience4j", "tenacity", "urllib3", "celery",
		"polly", "spring-retry", "temporal", "cenkalti", "aws-sdk-go-v2", "retryablehttp"}
	var got []string
	for _, f := range formats {
		got = append(got, f.name)
	}
	if !slices.Equal(got, detect) {
		t.Errorf("detect order: %q", got)
	}
}
