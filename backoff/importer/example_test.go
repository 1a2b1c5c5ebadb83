package importer_test

import (
	"fmt"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

// A tenacity decorator: what was read, line by line, the library's
// defaults for the rest, and the policy it runs.
func ExampleParse() {
	res, err := importer.Parse(`from tenacity import retry, stop_after_attempt, wait_random_exponential

@retry(stop=stop_after_attempt(4),
       wait=wait_random_exponential(multiplier=0.5, max=MAX_WAIT_S),
       retry=retry_if_exception_type(IOError))
def fetch(): ...
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", res.Format)
	for _, s := range res.Settings {
		fmt.Printf("line %d: %s = %s\n", s.Line, s.Key, s.Value)
	}
	for _, w := range res.Warnings {
		fmt.Println(w.Code+":", w.Message)
	}
	fmt.Println("policy:", res.Policy.Describe())
	fmt.Println("query:", importer.Query(res.Policy))
	// Output:
	// format: tenacity
	// line 3: stop_after_attempt = 4
	// line 4: wait_random_exponential.multiplier = 0.5
	// line 4: wait_random_exponential.max = MAX_WAIT_S
	// line 4: wait = wait_random_exponential(multiplier=0.5, max=MAX_WAIT_S)
	// ignored: line 5: retry is ignored: it says what to retry, not when (the playground's classifier decides that)
	// unreadable: line 4: wait_random_exponential.max is MAX_WAIT_S, which is not a literal value: no maximum (MAX_WAIT) is used instead
	// policy: exponential: 500ms * 2^(n-1); full jitter; 4 attempts = 3 retries
	// query: base=500ms&cap=0s&attempts=4
}

// tenacity's most common example: min is the policy's floor, so the
// table is exactly what tenacity waits: 4 s until 2^(n-1) passes it,
// then 8 s, then the 10 s maximum.
func ExampleParse_floor() {
	res, _ := importer.Parse("@retry(stop=stop_after_attempt(6), wait=wait_exponential(multiplier=1, min=4, max=10))\ndef f(): ...\n")
	fmt.Println("policy:", res.Policy.Describe())
	t, _ := backoff.NewTable(res.Policy, backoff.NewRand(1))
	for _, r := range t.Rows {
		fmt.Printf("retry %d: %s\n", r.Retry, backoff.FormatSeconds(r.Max))
	}
	fmt.Println("total:", backoff.FormatSeconds(t.Total.Max))
	// Output:
	// policy: exponential: 1s * 2^(n-1), cap 10s before jitter, floor 4s; no jitter; 6 attempts = 5 retries
	// retry 1: 4s
	// retry 2: 4s
	// retry 3: 4s
	// retry 4: 8s
	// retry 5: 10s
	// total: 30s
}
