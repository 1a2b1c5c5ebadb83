package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// The Go modules the Go snippets are compiled and run against, and whose
// service config parser reads the gRPC snippets: the versions their
// Targets name. They come through the module proxy into GOMODCACHE
// (downloaded once, then cached) and never enter this repository's go.mod.
var goModules = map[string]string{
	"go-cenkalti": "github.com/cenkalti/backoff/v5",
	"go-aws":      "github.com/aws/aws-sdk-go-v2",
	"grpc-json":   "google.golang.org/grpc",
}

// runDraws is how many runs of every retry's delay each snippet draws: a
// uniform delay then reaches the lowest and the highest tenth of its
// range with probability 1 - 2 * 0.9^400, about 1 - 1e-18.
const runDraws = 400

// TestGoSnippetsRunAgainstLibraries writes every Go snippet of the golden
// policies into a module in a temporary directory that requires the real
// libraries, compiles it with a main that draws runDraws runs of delays
// and counts the tries, and checks every delay against the table of the
// schedule the snippet claims (Effective): within [min, max] of its retry,
// reaching both ends of the range, and the attempts and the deadline as
// written. The same program hands every gRPC snippet, "_warnings" and all,
// to grpc-go's own parser (grpc.NewClient with WithDefaultServiceConfig,
// which refuses an invalid config), and a broken one as a control. It
// needs the module proxy (or a GOMODCACHE that holds the modules) and
// fails, never skips, without it; -short leaves it out.
func TestGoSnippetsRunAgainstLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiling and running the Go snippets against the real libraries is left out")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	dir := t.TempDir()
	versions := map[string]string{}
	for _, tg := range Targets() {
		if _, ok := goModules[tg.Name]; ok {
			versions[tg.Name] = strings.TrimPrefix(tg.Version, "grpc-go ")
		}
	}
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	if parts := strings.SplitN(goVersion, ".", 3); len(parts) >= 2 {
		goVersion = parts[0] + "." + parts[1]
	}
	gomod := fmt.Sprintf("module exportrun\n\ngo %s\n\nrequire (\n\t%s %s\n\t%s %s\n\t%s %s\n)\n", goVersion,
		goModules["go-aws"], versions["go-aws"], goModules["go-cenkalti"], versions["go-cenkalti"],
		goModules["grpc-json"], versions["grpc-json"])
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", gomod)

	type runCase struct {
		pkg     string
		target  string
		policy  string
		snippet Snippet
		rows    []backoff.Row
	}
	var cases []runCase
	var imports, calls strings.Builder
	var broken string // a snippet made invalid, which grpc-go must refuse
	for _, gp := range goldenPolicies(t) {
		s := mustTo(t, "grpc-json", gp.p)
		pkg := fmt.Sprintf("s%d", len(cases))
		cases = append(cases, runCase{pkg, "grpc-json", gp.name, s, nil})
		fmt.Fprintf(&calls, "\trunGRPC(%q, %q)\n", pkg, s.Text)
		if b := strings.Replace(s.Text, `"maxBackoff": "`, `"maxBackoff": "x`, 1); broken == "" && b != s.Text && strings.Contains(s.Text, "_warnings") {
			broken = b
		}
	}
	if broken == "" {
		t.Fatal("no golden gRPC snippet with a retry policy and warnings to break")
	}
	fmt.Fprintf(&calls, "\trunGRPC(\"broken\", %q)\n", broken)
	// A retryThrottling (the simulator's grpc budget), and as its control
	// the same with maxTokens past grpc-go's 1000, which it must refuse.
	throttled, err := ToWith("grpc-json", backoff.Default(), Options{Throttling: Throttling{MaxTokens: 10, TokenRatio: 0.1}})
	if err != nil || !strings.Contains(throttled.Text, `"maxTokens": 10`) {
		t.Fatalf("no throttled snippet (%v):\n%s", err, throttled.Text)
	}
	cases = append(cases, runCase{"throttled", "grpc-json", "throttled", throttled, nil})
	fmt.Fprintf(&calls, "\trunGRPC(\"throttled\", %q)\n", throttled.Text)
	fmt.Fprintf(&calls, "\trunGRPC(\"broken-throttling\", %q)\n", strings.Replace(throttled.Text, `"maxTokens": 10`, `"maxTokens": 2000`, 1))
	for _, gp := range goldenPolicies(t) {
		for _, target := range []string{"go-cenkalti", "go-aws"} {
			s := mustTo(t, target, gp.p)
			table, err := backoff.NewTable(s.Effective, backoff.NewRand(1))
			if err != nil {
				t.Fatal(err)
			}
			pkg := fmt.Sprintf("s%d", len(cases))
			cases = append(cases, runCase{pkg, target, gp.name, s, table.Rows})
			write(filepath.Join(pkg, "retrypolicy.go"), s.Text)
			fmt.Fprintf(&imports, "\t%s \"exportrun/%s\"\n", pkg, pkg)
			switch target {
			case "go-cenkalti":
				fmt.Fprintf(&calls, "\trunCenkalti(%q, %s.NewBackOff, %s.RetryOptions(), %s.MaxTries, %s.MaxElapsedTime, %d)\n", pkg, pkg, pkg, pkg, pkg, len(table.Rows))
			case "go-aws":
				fmt.Fprintf(&calls, "\trunAWS(%q, %s.NewRetryer(), %d)\n", pkg, pkg, len(table.Rows))
			}
		}
	}
	write("main.go", fmt.Sprintf(runMain, runDraws, imports.String(), calls.String(), runTryLimit))

	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	goCmd := func(args ...string) ([]byte, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out, nil
	}
	if _, err := goCmd("mod", "tidy"); err != nil {
		t.Fatalf("could not get %s %s, %s %s and %s %s through the Go module proxy (GOPROXY=%s): this test needs the proxy, "+
			"or a GOMODCACHE that holds them, and does not skip without them: %v",
			goModules["go-cenkalti"], versions["go-cenkalti"], goModules["go-aws"], versions["go-aws"],
			goModules["grpc-json"], versions["grpc-json"], os.Getenv("GOPROXY"), err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	for name, path := range goModules {
		if err != nil || !strings.Contains(string(mod), path+" "+versions[name]) {
			t.Fatalf("go mod tidy changed the versions under test (%s %s):\n%s", path, versions[name], mod)
		}
	}
	if _, err := goCmd("vet", "./..."); err != nil {
		t.Fatalf("the Go snippets do not vet: %v", err)
	}
	out, err := goCmd("run", ".")
	if err != nil {
		t.Fatalf("the Go snippets do not build or run: %v", err)
	}
	var results map[string]runResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("bad output %v: %s", err, out)
	}
	if r, ok := results["broken"]; !ok || r.ServiceConfigErr == "" {
		t.Fatalf("grpc-go accepted a service config with a malformed maxBackoff (%v): its parser is not being asked", ok)
	}
	if r, ok := results["broken-throttling"]; !ok || !strings.Contains(r.ServiceConfigErr, "maxTokens") {
		t.Fatalf("grpc-go accepted a retryThrottling with maxTokens 2000 (%v, %q): it is not reading retryThrottling", ok, r.ServiceConfigErr)
	}
	for _, c := range cases {
		t.Run(c.target+"/"+c.policy, func(t *testing.T) {
			r, ok := results[c.pkg]
			if !ok {
				t.Fatal("no result")
			}
			if c.target == "grpc-json" {
				if r.ServiceConfigErr != "" {
					t.Fatalf("grpc-go refuses the snippet: %s\n%s", r.ServiceConfigErr, c.snippet.Text)
				}
				return
			}
			e := c.snippet.Effective
			checkDelays(t, r.Delays, c.rows)
			switch c.target {
			case "go-cenkalti":
				wantTries := e.Attempts
				if wantTries == 0 {
					wantTries = runTryLimit
				}
				if r.MaxTries != e.Attempts || r.Tries != wantTries || time.Duration(r.MaxElapsed) != e.Deadline {
					t.Errorf("MaxTries %d, %d tries, MaxElapsedTime %s; want %d, %d, %s",
						r.MaxTries, r.Tries, time.Duration(r.MaxElapsed), e.Attempts, wantTries, e.Deadline)
				}
			case "go-aws":
				if r.MaxTries != e.Attempts {
					t.Errorf("MaxAttempts() = %d, want %d", r.MaxTries, e.Attempts)
				}
			}
		})
	}
}

// runTryLimit stops a snippet's retries that have no limit of their own.
const runTryLimit = 3000

// runResult is what the generated main prints for one snippet.
type runResult struct {
	// Delays[k][i] is run k's delay before retry i+1, in nanoseconds.
	Delays [][]int64 `json:"delays"`
	// MaxTries is cenkalti's MaxTries or AWS's MaxAttempts().
	MaxTries int `json:"max_tries"`
	// Tries is how many tries cenkalti's Retry made with the snippet's
	// options, its delays made 0, stopped at runTryLimit.
	Tries int `json:"tries"`
	// MaxElapsed is cenkalti's MaxElapsedTime in nanoseconds.
	MaxElapsed int64 `json:"max_elapsed"`
	// ServiceConfigErr is grpc-go's error for a gRPC snippet ("": none).
	ServiceConfigErr string `json:"service_config_err"`
}

// checkDelays checks every run's delays against the rows of the table:
// within [Min, Max] (a nanosecond's rounding and cenkalti's closed upper
// end aside), and the runs together reach the lowest and the highest
// tenth of each retry's range. A row whose Max is the playground's
// ceiling of 1e9 s has no upper bound: that is where the CodeNoCap
// warning says the snippet's very long cap differs.
func checkDelays(t *testing.T, delays [][]int64, rows []backoff.Row) {
	t.Helper()
	if len(delays) != runDraws {
		t.Fatalf("%d runs, want %d", len(delays), runDraws)
	}
	for i, row := range rows {
		lo, hi := math.Inf(1), math.Inf(-1)
		if row.Max >= maxSnippetDuration.Seconds()*(1-1e-12) {
			row.Max = math.Inf(1)
		}
		tol := 1e-6 + 1e-9*row.Min
		for _, run := range delays {
			if len(run) != len(rows) {
				t.Fatalf("a run of %d delays, want %d", len(run), len(rows))
			}
			d := time.Duration(run[i]).Seconds()
			if d < row.Min-tol || d > row.Max+tol {
				t.Fatalf("retry %d: delay %s outside the table's [%s, %s]", i+1, time.Duration(run[i]),
					backoff.Seconds(row.Min), backoff.Seconds(row.Max))
			}
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		if w := row.Max - row.Min; !math.IsInf(w, 1) && (lo > row.Min+w/10+tol || hi < row.Max-w/10-tol) {
			t.Errorf("retry %d: %d runs drew only [%s, %s] of [%s, %s]", i+1, len(delays),
				backoff.Seconds(lo), backoff.Seconds(hi), backoff.Seconds(row.Min), backoff.Seconds(row.Max))
		}
	}
}

// runMain is the generated main: Sprintf arguments are runDraws, the
// imports, the calls and runTryLimit.
const runMain = `package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/cenkalti/backoff/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

%[2]s)

const draws = %[1]d

const tryLimit = %[4]d

type result struct {
	Delays     [][]int64 ` + "`json:\"delays\"`" + `
	MaxTries   int       ` + "`json:\"max_tries\"`" + `
	Tries      int       ` + "`json:\"tries\"`" + `
	MaxElapsed int64     ` + "`json:\"max_elapsed\"`" + `
	ServiceConfigErr string ` + "`json:\"service_config_err\"`" + `
}

var results = map[string]result{}

func runCenkalti(name string, newBackOff func() *backoff.ExponentialBackOff, opts []backoff.RetryOption, maxTries uint, maxElapsed time.Duration, n int) {
	r := result{MaxTries: int(maxTries), MaxElapsed: int64(maxElapsed)}
	for k := 0; k < draws; k++ {
		b := newBackOff()
		b.Reset()
		run := make([]int64, n)
		for i := range run {
			run[i] = int64(b.NextBackOff())
		}
		r.Delays = append(r.Delays, run)
	}
	// The snippet's options, with every delay made 0, count the tries.
	fail := errors.New("fail")
	backoff.Retry(context.Background(), func() (int, error) {
		r.Tries++
		if r.Tries >= tryLimit {
			return 0, backoff.Permanent(fail)
		}
		return 0, fail
	}, append(opts, backoff.WithBackOff(&backoff.ZeroBackOff{}))...)
	results[name] = r
}

func runAWS(name string, retryer aws.Retryer, n int) {
	r := result{MaxTries: retryer.MaxAttempts()}
	fail := errors.New("a transient error") // not a throttling error
	for k := 0; k < draws; k++ {
		run := make([]int64, n)
		for i := range run {
			d, err := retryer.RetryDelay(i+1, fail)
			if err != nil {
				panic(err)
			}
			run[i] = int64(d)
		}
		r.Delays = append(r.Delays, run)
	}
	results[name] = r
}

// runGRPC hands a service config to grpc-go's parser: NewClient refuses
// an invalid default service config (it dials nothing).
func runGRPC(name, serviceConfig string) {
	var r result
	cc, err := grpc.NewClient("passthrough:///unused", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		r.ServiceConfigErr = err.Error()
	} else {
		cc.Close()
	}
	results[name] = r
}

func main() {
%[3]s	json.NewEncoder(os.Stdout).Encode(results)
}
`
