package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/sim"
)

// exportOptions reads the simulator's --timeout and --budget as sim
// reads them (its parsers, its errors) into what a snippet takes.
func exportOptions(timeout, budget string) (export.Options, error) {
	c := sim.DefaultConfig()
	for _, kv := range [][2]string{{sim.ParamTimeout, timeout}, {sim.ParamBudget, budget}} {
		if kv[1] == "" {
			continue
		}
		if err := c.Set(kv[0], kv[1]); err != nil {
			return export.Options{}, err
		}
	}
	return export.SimOptions(c), nil
}

// toAllowed is --to's range, from the package's own list.
func toAllowed() string { return "one of " + strings.Join(export.TargetNames(), ", ") }

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff export", flag.ContinueOnError)
	pf := addPolicyFlags(fs)
	to := fs.String("to", "", "the library: "+choices(export.TargetNames()))
	timeout := fs.String(sim.ParamTimeout, "", "a try's timeout in the simulator (sim --timeout): Envoy's per_try_timeout")
	budget := fs.String(sim.ParamBudget, "", "the simulator's budget (sim --budget): grpc[:MAX[:RATIO]] is gRPC's retryThrottling")
	format := fs.String("format", "text", "output: text|json")
	fs.Usage = func() {
		var targets strings.Builder
		for _, t := range export.Targets() {
			fmt.Fprintf(&targets, "  %-13s %s: %s %s\n", t.Name, t.Language, t.Library, t.Version)
		}
		fmt.Fprintf(fs.Output(), `usage: backoff export --to NAME [--preset NAME] [policy flags] [--format text|json]

A ready snippet of the policy for a real retry library, on standard output.
What the library cannot express exactly is said in the snippet's comments
and as warnings on standard error (the exit code is still 0); in JSON:
{"target", "snippet", "warnings": [{"code", "args", "message"}]}.
Attempts are written as each library counts them: --attempts 6 is
MaxRetryAttempts 5 for Polly and num_retries 5 for Envoy. From the
simulator, --timeout is Envoy's per_try_timeout and --budget grpc:MAX:RATIO
the gRPC service config's retryThrottling.

Targets:
%s
`, targets.String())
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
	if !set["to"] {
		return bad(missingError{"to", toAllowed()})
	}
	p, err := pf.policy()
	if err != nil {
		return bad(err)
	}
	o, err := exportOptions(*timeout, *budget)
	if err != nil {
		return bad(err)
	}
	s, err := export.ToWith(*to, p, o)
	if err != nil {
		return bad(err)
	}
	if *format == "json" {
		out := struct {
			Target   string           `json:"target"`
			Snippet  string           `json:"snippet"`
			Warnings []export.Warning `json:"warnings"`
		}{s.Target.Name, s.Text, s.Warnings}
		if out.Warnings == nil {
			out.Warnings = []export.Warning{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return exitCode(stderr, err)
		}
		return 0
	}
	if _, err := io.WriteString(stdout, s.Text); err != nil {
		return exitCode(stderr, err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "backoff: warning: %s (%s)\n", w.Message, w.Code)
	}
	return 0
}
