package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// headerFlags collects repeated --header 'Name: value' flags.
type headerFlags map[string][]string

func (h headerFlags) String() string { return "" }
func (h headerFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return &backoff.FieldError{Field: "header", Value: v, Allowed: "'Name: value', such as 'Retry-After: 5'"}
	}
	h[name] = append(h[name], strings.TrimSpace(value))
	return nil
}

func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff classify", flag.ContinueOnError)
	status := fs.Int("status", -1, "HTTP status of the failed call (0 = no response, a transport error)")
	method := fs.String("method", "GET", "request method")
	key := fs.String("idempotency-key", "", "the Idempotency-Key sent with the request, if any")
	headers := headerFlags{}
	fs.Var(headers, "header", "a response header, 'Name: value' (repeatable), e.g. 'Retry-After: 5'")
	body := fs.String("body", "", "the response body")
	bodyFile := fs.String("body-file", "", "read the response body from this file (- for standard input)")
	format := fs.String("format", "text", "output: text|json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: backoff classify --status N [--method M] [--idempotency-key K] [--header 'K: V']... [--body TEXT | --body-file F] [--format text|json]

Whether a failed HTTP call should be retried, and why. 408 429 500 502 503 504
are retried; 400 401 403 404 409 422 are not; POST and PATCH only with an
idempotency key; a body saying the service is temporarily unavailable makes
even a 400 retryable (body beats status); a bad credential never is.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitCode(stderr, err)
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return exitCode(stderr, err)
	}
	if *status < 0 || *status > 999 {
		return exitCode(stderr, &backoff.FieldError{Field: "status", Value: fmt.Sprint(*status), Allowed: "an HTTP status from 100 to 599, or 0 for no response (required)"})
	}
	if *body != "" && *bodyFile != "" {
		return exitCode(stderr, &backoff.FieldError{Field: "body-file", Value: *bodyFile, Allowed: "either --body or --body-file, not both"})
	}
	text := *body
	if *bodyFile != "" {
		var r io.Reader = stdin
		if *bodyFile != "-" {
			f, err := os.Open(*bodyFile)
			if err != nil {
				return exitCode(stderr, err)
			}
			defer f.Close()
			r = f
		}
		// Only the first MaxBody bytes matter; never read more.
		b, err := io.ReadAll(io.LimitReader(r, backoff.MaxBody))
		if err != nil {
			return exitCode(stderr, err)
		}
		text = string(b)
	}
	v := backoff.Classify(backoff.Call{Method: *method, IdempotencyKey: *key, Status: *status,
		Header: headers, Body: text, Now: time.Now()}, backoff.DefaultRules())
	if *format == "json" {
		out := struct {
			Retry      bool     `json:"retry"`
			Reason     string   `json:"reason"`
			RetryAfter *float64 `json:"retry_after_s"`
		}{Retry: v.Retry, Reason: v.Reason}
		if v.HasRetryAfter {
			s := v.RetryAfter.Seconds()
			out.RetryAfter = &s
		}
		if err := json.NewEncoder(stdout).Encode(out); err != nil {
			return exitCode(stderr, err)
		}
		return 0
	}
	verdict := "do not retry"
	if v.Retry {
		verdict = "retry"
	}
	fmt.Fprintf(stdout, "%s: %s\n", verdict, v.Reason)
	if v.HasRetryAfter {
		fmt.Fprintf(stdout, "server asks to wait %s (%s)\n", backoff.FormatDuration(v.RetryAfter), v.RetryAfterHeader)
	}
	return 0
}
