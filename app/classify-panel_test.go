package app

import (
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// The article's cases get the article's verdicts, with the Russian bodies
// as with the English ones.
func TestClassifyCases(t *testing.T) {
	want := map[string]bool{
		"classify.case-503": true, "classify.case-429": true, "classify.case-400-body": true,
		"classify.case-401-token": false, "classify.case-post": false, "classify.case-post-key": true,
		"classify.case-404": false, "classify.case-timeout": true,
	}
	for _, c := range classifyCases {
		for _, body := range []string{c.in.Body, c.bodyRu} {
			in := c.in
			if body != "" {
				in.Body = body
			}
			v, err := classify(in)
			if err != nil || v.Retry != want[c.key] {
				t.Errorf("%s (body %q): retry %v, err %v; want %v", c.key, in.Body, v.Retry, err, want[c.key])
			}
		}
	}
	if v, _ := classify(classifyCases[1].in); !v.HasRetryAfter || v.RetryAfter.Seconds() != 5 {
		t.Errorf("429's Retry-After: %v", v.RetryAfter)
	}
	if _, err := classify(classifyInput{Status: "999"}); err == nil || errText(i18n.Ru, err, "") == "" {
		t.Error("status 999 accepted")
	}
	if _, err := classify(classifyInput{Status: "503", Headers: "Retry-After 5"}); err == nil {
		t.Error("a header line without a colon accepted")
	}
}
