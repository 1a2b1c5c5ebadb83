// Command backoff prints the numbers behind Backoff Playground: delay tables,
// presets, retry verdicts and herd simulations.
//
//	backoff table    [policy flags] [--seed N] [--format text|csv|json]
//	backoff presets  [--format text|json]
//	backoff classify --status N [--method M] [--header 'K: V'] [--body TEXT | --body-file F]
//	backoff sim      [policy flags] --clients N --server MODEL ...
//	backoff export   --to NAME [policy flags] [--format text|json]
//	backoff solve    --for KNOB [policy flags] --worst-total D | --expected-total D
//	backoff import   [--format text|json] [FILE|-]
//
// Exit codes: 0 success, 1 failure, 2 bad usage.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run is the whole command, testable end to end: it returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "table":
		return runTable(args[1:], stdout, stderr)
	case "presets":
		return runPresets(args[1:], stdout, stderr)
	case "classify":
		return runClassify(args[1:], stdin, stdout, stderr)
	case "sim":
		return runSim(args[1:], stdout, stderr)
	case "export":
		return runExport(args[1:], stdout, stderr)
	case "solve":
		return runSolve(args[1:], stdout, stderr)
	case "import":
		return runImport(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "backoff: unknown command %q; want table, presets, classify, sim, export, solve, import or help\n\n", clip(args[0]))
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	io.WriteString(w, `usage: backoff <command> [flags]

Commands:
  table     the delay table of a retry policy (a preset, overridden by flags)
  presets   every preset with its parameters, description and source
  classify  whether a failed HTTP call should be retried, and why
  sim       many clients retrying against one server (thundering herds)
  export    the policy as a snippet for a retry library (--to NAME)
  solve     the largest base, factor, cap or attempts within a total wait
  import    the policy of a retry library's config (FILE, or - for standard input)

Run 'backoff <command> --help' for a command's flags.
Attempts count the first try: --attempts 6 means 5 retries.
`)
}
