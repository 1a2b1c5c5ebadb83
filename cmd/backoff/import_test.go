package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer"
)

const grpcConfig = `{
  "methodConfig": [{
    "name": [{"service": "echo.Echo"}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": ".2s",
      "maxBackoff": "2.5s",
      "backoffMultiplier": 3,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }],
  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}
`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportJSON(t *testing.T) {
	path := writeTemp(t, "sc.json", grpcConfig)
	for _, args := range [][]string{{"import", "--format", "json", path}, {"import", path, "--format=json"}} {
		code, out, errOut := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var got struct {
			Format   string             `json:"format"`
			Policy   map[string]any     `json:"policy"`
			Query    string             `json:"query"`
			Warnings []importer.Warning `json:"warnings"`
			Settings []importer.Setting `json:"settings"`
			Budget   *importer.Budget   `json:"budget"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		want := backoff.Policy{Growth: backoff.Exponential, Base: 200 * 1e6, Factor: 3, Cap: 2500 * 1e6, Jitter: backoff.Proportional,
			JitterLo: 0.8, JitterHi: 1.2, Attempts: 4, RetryAfter: backoff.RetryAfterAsIs}
		if got.Format != "grpc" || got.Policy["base_s"] != 0.2 || got.Policy["factor"] != 3.0 || got.Policy["cap_s"] != 2.5 ||
			got.Policy["attempts"] != 4.0 || got.Policy["jitter"] != "proportional" || got.Policy["description"] != want.Describe() {
			t.Errorf("%v: %+v", args, got)
		}
		if got.Query != "base=200ms&factor=3&cap=2.5s&jitter=proportional&attempts=4&retry-after=as-is" {
			t.Errorf("query %q", got.Query)
		}
		if got.Budget == nil || got.Budget.MaxTokens != 10 || got.Budget.TokenRatio != 0.1 {
			t.Errorf("budget %+v", got.Budget)
		}
		if len(got.Warnings) != 2 || got.Warnings[0].Code != "budget" || got.Warnings[1].Code != "ignored" ||
			got.Warnings[1].Line != 9 || got.Warnings[1].Args[0] != "retryableStatusCodes" {
			t.Errorf("warnings %+v", got.Warnings)
		}
		if len(got.Settings) < 6 || got.Settings[3].Key != "initialBackoff" || got.Settings[3].Value != `".2s"` || got.Settings[3].Line != 6 {
			t.Errorf("settings %+v", got.Settings)
		}
	}
}

func TestImportText(t *testing.T) {
	var o, e bytes.Buffer
	code := Run([]string{"import"}, strings.NewReader("@Retryable(maxAttempts = 5, backoff = @Backoff(delay = 200, multiplier = 2))\n"), &o, &e)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	for _, want := range []string{
		"format: spring-retry\n",
		"  line 1    maxAttempts = 5\n",
		"  line 1    delay = 200\n",
		"  default   maxDelay = 30000 (ExponentialBackOffPolicy's default maximum)\n",
		"policy: exponential: 200ms * 2^(n-1), cap 30s before jitter; no jitter; 5 attempts = 4 retries\n",
		"query: base=200ms&jitter=none&attempts=5\n",
	} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("no %q in\n%s", want, o.String())
		}
	}
}

// TestImportNoPolicy: a file with no retry policy exits 2 and names the
// recognised formats.
func TestImportNoPolicy(t *testing.T) {
	path := writeTemp(t, "main.go", "package main\n\nfunc main() {}\n")
	code, out, errOut := run(t, "import", path)
	if code != 2 || out != "" || !strings.Contains(errOut, "no retry policy found") ||
		!strings.Contains(errOut, strings.Join(importer.FormatNames(), ", ")) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := run(t, "table", "--import", path); code != 2 || !strings.Contains(errOut, "--import: ") || !strings.Contains(errOut, "want a retry config in one of the formats tenacity, ") {
		t.Errorf("table --import: exit %d, %q", code, errOut)
	}
	if code, _, _ := run(t, "import", filepath.Join(t.TempDir(), "missing")); code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}
	if code, _, errOut := run(t, "table", "--import", "-"); code != 2 || !strings.Contains(errOut, "standard input is read by backoff import") {
		t.Errorf("table --import -: exit %d, %q", code, errOut)
	}
	if code, _, _ := run(t, "import", os.TempDir()); code != 1 {
		t.Errorf("a directory: exit %d, want 1", code)
	}
	if code, _, _ := run(t, "import", "--as", "nginx", path); code != 2 {
		t.Errorf("--as nginx: exit %d, want 2", code)
	}
}

// TestTableImport: table --import draws the imported policy; flags given
// override it; --preset with --import is refused.
func TestTableImport(t *testing.T) {
	pr, _ := backoff.LookupPreset("aws-standard")
	s, err := export.To("polly", pr.Policy)
	if err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "Retry.cs", s.Text)
	code, out, errOut := run(t, "table", "--import", path, "--format", "json", "--attempts", "6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := s.Effective
	want.Attempts = 6
	code2, out2, _ := run(t, append([]string{"table", "--format", "json"}, policyArgs(want)...)...)
	if code2 != 0 || out != out2 {
		t.Errorf("table --import:\n%s\nwant\n%s", out, out2)
	}
	if code, _, errOut := run(t, "table", "--import", path, "--preset", "gax"); code != 2 || !strings.Contains(errOut, "not both") {
		t.Errorf("--import with --preset: exit %d, %q", code, errOut)
	}
}

// policyArgs writes p as policy flags.
func policyArgs(p backoff.Policy) []string {
	var args []string
	for _, name := range backoff.ParamNames {
		if name != backoff.ParamCapAfterJitter {
			args = append(args, "--"+name+"="+p.Get(name))
		}
	}
	return args
}

// TestSimImport: sim --import runs the imported policy, and the
// retryThrottling budget when the simulator has it (else it says so).
func TestSimImport(t *testing.T) {
	path := writeTemp(t, "sc.json", grpcConfig)
	code, out, errOut := run(t, "sim", "--import", path, "--clients", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "policy: exponential: 200ms * 3^(n-1), cap 2.5s before jitter; proportional jitter x U[0.8, 1.2); 4 attempts = 3 retries") {
		t.Errorf("stdout\n%s", out)
	}
	if !strings.Contains(errOut, "retryThrottling") {
		t.Errorf("stderr %q", errOut)
	}
}

// twoPolicies is a Python module with a tenacity and a urllib3 policy.
const twoPolicies = `from tenacity import retry, stop_after_attempt, wait_fixed
from urllib3.util.retry import Retry

@retry(stop=stop_after_attempt(7), wait=wait_fixed(2))
def fetch():
    ...

retries = Retry(total=3, backoff_factor=0.5)
`

// TestImportListPick: --list lists a text's policies, --pick reads one by
// number or name, a --pick naming none is a bad --pick.
func TestImportListPick(t *testing.T) {
	path := writeTemp(t, "clients.py", twoPolicies)
	code, out, errOut := run(t, "import", "--list", path)
	if code != 0 || out != "1. fetch (tenacity, line 4)\n2. retries (urllib3, line 8)\n" {
		t.Errorf("--list: exit %d, %q, %q", code, out, errOut)
	}
	code, out, _ = run(t, "import", "--list", "--format", "json", path)
	var cands []importer.Candidate
	if err := json.Unmarshal([]byte(out), &cands); code != 0 || err != nil || len(cands) != 2 || cands[1] != (importer.Candidate{Format: "urllib3", Name: "retries", Line: 8}) {
		t.Errorf("--list json: exit %d, %v, %+v", code, err, cands)
	}
	for _, pick := range []string{"2", "retries"} {
		code, out, errOut := run(t, "import", "--pick", pick, path)
		if code != 0 || !strings.Contains(out, "format: urllib3\n") || !strings.Contains(out, "  1. fetch (tenacity, line 4)\n* 2. retries (urllib3, line 8)\n") ||
			!strings.Contains(out, "4 attempts = 3 retries") {
			t.Errorf("--pick %s: exit %d\n%s%s", pick, code, out, errOut)
		}
	}
	code, out, _ = run(t, "import", "--format", "json", path)
	var got importJSON
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Format != "tenacity" || got.Pick != 1 || len(got.Candidates) != 2 {
		t.Errorf("json: exit %d, %v, %+v", code, err, got)
	}
	for args, want := range map[string]string{
		"--pick 3":               `backoff: --pick: "3" is not valid: want a number from 1 to 2, or a policy's name`,
		"--pick other":           `backoff: --pick: "other" is not valid: want a number from 1 to 2 or one of the names fetch, retries`,
		"--list --pick 1":        `backoff: --pick: "1" is not valid: want no --pick with --list`,
		"--as grpc --list":       "no retry policy found: no grpc retry policy",
		"--as tenacity --pick 2": `backoff: --pick: "2" is not valid: want a number from 1 to 1, or a policy's name`,
	} {
		code, out, errOut := run(t, append(append([]string{"import"}, strings.Fields(args)...), path)...)
		if code != 2 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q, %q; want %q", args, code, out, errOut, want)
		}
	}
}

// TestImportTooLong: a text over the cap names the cap and its own size,
// a file's from its size, standard input's counted.
func TestImportTooLong(t *testing.T) {
	big := strings.Repeat("#", importer.MaxInput+1000)
	path := writeTemp(t, "big.py", big)
	want := fmt.Sprintf("the text is %d bytes: at most %d are read", importer.MaxInput+1000, importer.MaxInput)
	if code, _, errOut := run(t, "import", path); code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("file: exit %d, %q", code, errOut)
	}
	var o, e bytes.Buffer
	if code := Run([]string{"import"}, strings.NewReader(big), &o, &e); code != 2 || !strings.Contains(e.String(), "standard input: "+want) {
		t.Errorf("stdin: exit %d, %q", code, e.String())
	}
	if code, _, errOut := run(t, "table", "--import", path); code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("table --import: exit %d, %q", code, errOut)
	}
}

// TestImportRefused: a YAML alias bomb is refused, saying so.
func TestImportRefused(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i, c := range "bcdefghi" {
		p := string("abcdefghi"[i])
		bomb += string(c) + ": &" + string(c) + " [" + strings.Repeat("*"+p+", ", 8) + "*" + p + "]\n"
	}
	path := writeTemp(t, "bomb.yaml", bomb)
	if code, _, errOut := run(t, "import", path); code != 2 || !strings.Contains(errOut, "the YAML holds more than 100000 values") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}
