package trapcheck

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func (tc *TrapCheck) submit(ctx context.Context, metricBuffer *strings.Builder) (*TrapResult, bool, error) {
	retryClient := retryablehttp.NewClient()
	retryClient.HTTPClient = client
	retryClient.Logger = tc.Log // submitLogshim{logh: tc.Log.Logger()}
	retryClient.RetryWaitMin = 50 * time.Millisecond
	retryClient.RetryWaitMax = 2 * time.Second
	retryClient.RetryMax = 7
	retryClient.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		retry, err := retryablehttp.ErrorPropagatedRetryPolicy(ctx, resp, err)
		return retry, nil
	}
	resp, err := retryClient.Do(req)
}
