package importer

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff/importer/wire"
)

// TestWireRoundTrip: every reading of the corpus, and every kind of
// error, crosses wire's JSON whole: the page, which reads in a second
// program, shows what the CLI shows. A policy crosses as its query,
// replayed as the page reads a link, so this also holds Query to give
// back each policy read.
func TestWireRoundTrip(t *testing.T) {
	texts := map[string]string{
		"none":      "hello",
		"too-long":  strings.Repeat("#", MaxInput+1),
		"refused":   strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300),
		"bad pick":  "@Retryable(maxAttempts = 2)",
		"grpc pick": `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "2s", "maxBackoff": "8s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`,
	}
	files, _ := filepath.Glob("testdata/corpus/*/*")
	for _, f := range files {
		if strings.HasSuffix(f, ".want") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
	}
	if len(texts) < 40 {
		t.Fatalf("only %d texts", len(texts))
	}
	for name, text := range texts {
		pick := ""
		if name == "bad pick" {
			pick = "7"
		}
		res, err := Read(text, Options{Pick: pick})
		got, gotErr := wire.Decode(wire.Encode(res, err))
		if !reflect.DeepEqual(got, res) {
			t.Errorf("%s: the result crossed as\n%+v\nwant\n%+v", name, got, res)
		}
		if (err == nil) != (gotErr == nil) || err != nil && (gotErr.Error() != err.Error() || reflect.TypeOf(gotErr) != reflect.TypeOf(err)) {
			t.Errorf("%s: the error crossed as %T %v, want %T %v", name, gotErr, gotErr, err, err)
		}
	}
}
