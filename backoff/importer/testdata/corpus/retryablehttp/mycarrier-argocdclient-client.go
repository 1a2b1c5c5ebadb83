package argocdclient

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func NewClient(config *Config) *Client {
	retryClient := retryablehttp.NewClient()

	retryClient.RetryMax = 3
	retryClient.RetryWaitMin = 1 * time.Second
	retryClient.RetryWaitMax = 4 * time.Second
	retryClient.Backoff = retryablehttp.DefaultBackoff

	retryClient.CheckRetry = retryablehttp.DefaultRetryPolicy

	retryClient.Logger = nil

	return &Client{
		retryableClient: retryClient,
	}
}
