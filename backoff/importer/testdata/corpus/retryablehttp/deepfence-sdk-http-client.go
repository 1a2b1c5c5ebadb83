package http

import (
	"net/http"
	"time"

	rhttp "github.com/hashicorp/go-retryablehttp"
)

func NewHttpsConsoleClient(url, port string) *OpenapiHttpClient {
	rhc := rhttp.NewClient()
	//rhc.HTTPClient.Timeout = 10 * time.Second
	rhc.RetryMax = 3
	rhc.RetryWaitMin = 1 * time.Second
	rhc.RetryWaitMax = 10 * time.Second
	rhc.HTTPClient = &http.Client{
		Transport: NewInjectorTransport[AccessInjectorTransport](auth_tokens, transport),
	}
	return unique_client
}
