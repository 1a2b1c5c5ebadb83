package wire

import (
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// FuzzWireDecode: whatever the readers' program answers, Decode gives a
// result with a valid policy or an error, and never panics.
func FuzzWireDecode(f *testing.F) {
	f.Add(`{"result":{"format":"grpc","source":"s","settings":[],"warnings":[],"candidates":[],"pick":0},"query":"base=2s&attempts=4"}`)
	f.Add(`{"query":"","error":{"kind":"none","formats":["grpc"],"message":"m"}}`)
	f.Add(`{"query":"","error":{"kind":"field","message":"m"}}`)
	f.Add(`{"result":{},"query":"base=-1s"}`)
	f.Add(`{"result":{},"query":"%zz"}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, s string) {
		res, err := Decode([]byte(s))
		if err == nil && (res == nil || res.Policy.Validate() != nil) {
			t.Fatalf("%q: a result %v without a valid policy", s, res)
		}
	})
}

// TestDecodeBadPolicy: a query the page would refuse is the core's error.
func TestDecodeBadPolicy(t *testing.T) {
	_, err := Decode([]byte(`{"result":{},"query":"base=-1s"}`))
	if _, ok := err.(*backoff.FieldError); !ok {
		t.Errorf("err %T %v, want a *backoff.FieldError", err, err)
	}
}
