package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// headerFlags collects repeated --header 'Name: value' flags as given;
// check reads them after fs.Parse, so a bad one is reported like any
// other field.
type headerFlags []string

func (h *headerFlags) String() string     { return "" }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

func (h headerFlags) parse() (map[string][]string, error) {
	for _, v := range h {
		if strings.TrimSpace(v) == "" {
			return nil, &backoff.FieldError{Field: "header", Value: v, Allowed: "'Name: value', such as 'Retry-After: 5'"}
		}
	}
	return backoff.ParseHeaderLines("header", h)
}

// statusAllowed is --status's range.
const statusAllowed = "an HTTP status from 100 to 599, or 0 for no response (a transport error)"

func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff classify", flag.ContinueOnError)
	status := fs.String("status", "", "HTTP status of the failed call, 100 to 599 (0 = no response, a transport error)")
	method := fs.String("method", "GET", "request method")
	key := fs.String("idempotency-key", "", "the Idempotency-Key sent with the request, if any")
	var headers headerFlags
	fs.Var(&headers, "header", "a response header, 'Name: value' (repeatable), e.g. 'Retry-After: 5'")
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
	bad := func(err error) int { return exitCode(stderr, flagged(fs, err)) }
	if err := checkFormat(*format, "text", "json"); err != nil {
		return bad(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["status"] {
		return bad(missingError{"status", statusAllowed})
	}
	st, err := backoff.ParseStatus("status", *status)
	if err != nil {
		return bad(err)
	}
	if m := strings.TrimSpace(*method); len(m) > 32 || !backoff.IsMethod(m) {
		return bad(&backoff.FieldError{Field: "method", Value: clip(*method), Allowed: "an HTTP method such as GET or POST (a token of at most 32 characters)"})
	}
	h, err := headers.parse()
	if err != nil {
		return bad(err)
	}
	if set["body"] && set["body-file"] {
		return bad(&backoff.FieldError{Field: "body-file", Value: clip(*bodyFile), Allowed: "either --body or --body-file, not both"})
	}
	text := *body
	if set["body-file"] {
		// Only the first MaxBody bytes matter; never read more.
		var b []byte
		var err error
		if *bodyFile == "-" {
			if b, err = io.ReadAll(io.LimitReader(stdin, backoff.MaxBody)); err != nil {
				return exitCode(stderr, fmt.Errorf("--body-file: %w", err))
			}
		} else if b, err = readRegular(*bodyFile, backoff.MaxBody); err != nil {
			// The file named is the bad value: exit 2, naming the flag.
			return bad(bodyFileError{err})
		}
		text = string(b)
	}
	v := backoff.Classify(backoff.Call{Method: *method, IdempotencyKey: *key, Status: st,
		Header: h, Body: text, Now: time.Now()}, backoff.DefaultRules())
	if *format == "json" {
		out := struct {
			Retry      bool     `json:"retry"`
			Reason     string   `json:"reason"`
			RetryAfter *float64 `json:"retry_after_s"`
			// RetryAfterError says why a retry-after header was ignored.
			RetryAfterError string `json:"retry_after_error,omitempty"`
		}{Retry: v.Retry, Reason: v.Reason}
		if v.HasRetryAfter {
			s := v.RetryAfter.Seconds()
			out.RetryAfter = &s
		}
		if v.RetryAfterError != nil {
			out.RetryAfterError = v.RetryAfterError.Error()
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
	if v.RetryAfterError != nil {
		fmt.Fprintf(stdout, "ignored header %s\n", v.RetryAfterError)
	}
	return 0
}

// bodyFileError is a --body-file that cannot be opened.
type bodyFileError struct{ err error }

func (e bodyFileError) Error() string { return "--body-file: " + e.err.Error() }
func (e bodyFileError) Unwrap() error { return e.err }
func (bodyFileError) badInput()       {}
