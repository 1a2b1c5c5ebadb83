package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
)

func runTable(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff table", flag.ContinueOnError)
	pf := addPolicyFlags(fs)
	seed := newSeedFlag(fs, "seed of the Sample column and any Monte Carlo estimate")
	format := fs.String("format", "text", "output: text|csv|json|markdown|svg")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: backoff table [--preset NAME] [policy flags] [--seed N] [--format text|csv|json|markdown|svg]

The delay before each retry: nominal, min, max, mean, p50, p95, one seeded
sample, and the cumulative wait. Attempts count the first try (6 = 5 retries);
--attempts 0 means no limit, and the table then shows the first retries up to
the deadline, at most 30. Durations in Go syntax: 250ms, 1.5s, 2m.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitCode(stderr, err)
	}
	bad := func(err error) int { return exitCode(stderr, flagged(fs, err)) }
	if err := checkFormat(*format, "text", "csv", "json", "markdown", "svg"); err != nil {
		return bad(err)
	}
	if _, err := seed.parse(); err != nil {
		return bad(err)
	}
	p, err := pf.policy()
	if err != nil {
		return bad(err)
	}
	t, err := backoff.NewTable(p, backoff.NewRand(seed.n))
	if err != nil {
		return bad(err)
	}
	switch *format {
	case "json":
		err = writeTableJSON(stdout, pf.preset, seed.n, t)
	case "csv":
		_, err = io.WriteString(stdout, chart.TableCSV(t))
	case "markdown":
		// The page's "Copy as Markdown", the same code.
		_, err = io.WriteString(stdout, chart.TableMarkdown(i18n.En, t))
	case "svg":
		_, err = io.WriteString(stdout, chart.Standalone(chart.TableSVG(i18n.En, t), "light")+"\n")
	default:
		err = writeTableText(stdout, pf.preset, t)
	}
	if err != nil {
		return exitCode(stderr, err)
	}
	return 0
}

func writeTableText(w io.Writer, preset string, t *backoff.Table) error {
	if preset != "" {
		fmt.Fprintf(w, "preset: %s\n", preset)
	}
	fmt.Fprintf(w, "policy: %s\n\n", t.Policy.Describe())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "retry\tnominal\tmin\tmax\tmean\tp50\tp95\tsample\tcum min\tcum mean\tcum max\t")
	for _, r := range t.Rows {
		mark := ""
		if r.Retry == t.CapRow {
			mark = " cap"
		}
		if r.PastDeadline {
			mark += " deadline?"
		}
		f := backoff.FormatSeconds
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Retry, f(r.Nominal), f(r.Min), f(r.Max), f(r.Mean),
			f(r.P50), f(r.P95), f(r.Sample), f(r.CumMin), f(r.CumMean), f(r.CumMax), mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nworst case %s, expected %s, best %s of waiting", backoff.FormatSeconds(t.Total.Max),
		backoff.FormatSeconds(t.Total.Mean), backoff.FormatSeconds(t.Total.Min))
	if len(t.Rows) == 0 {
		fmt.Fprint(w, " (no retries)")
	}
	fmt.Fprintln(w)
	switch {
	case t.CapRow > 0 && t.Policy.Cap == 0:
		fmt.Fprintf(w, "no cap, but every delay is held at 1e9 s (about 31.7 years): reached at retry %d\n", t.CapRow)
	case t.CapRow > 0:
		fmt.Fprintf(w, "the cap is reached at retry %d\n", t.CapRow)
	}
	if t.Unlimited {
		fmt.Fprintf(w, "no attempt limit: showing the first %d retries; totals cover them\n", len(t.Rows))
	}
	if t.Policy.Deadline > 0 {
		note := "every run makes every row's retry"
		for _, r := range t.Rows {
			if r.PastDeadline {
				note = "rows marked deadline? happen only in some runs"
				break
			}
		}
		fmt.Fprintf(w, "deadline %s: no retry starts after it; %s\n", backoff.FormatDuration(t.Policy.Deadline), note)
		if cumPastTotals(t) {
			// A row's cum columns are sums over the retries up to it, as if
			// every run made them; the totals count the runs the deadline
			// stops.
			fmt.Fprintf(w, "cum columns: sums as if no run stopped at the deadline; on rows marked deadline? they can exceed the worst case %s, which counts the stop\n",
				backoff.FormatSeconds(t.Total.Max))
		}
	}
	switch {
	case !t.MonteCarlo:
	case t.Policy.Jitter.HistoryDependent():
		fmt.Fprintf(w, "means and percentiles by Monte Carlo: %d seeded runs, means within ±%.2f%%, percentiles within ±%.2f%% (3 standard errors)\n",
			t.Paths, 100*t.MeanError, 100*t.QuantileError)
	default:
		// Only the deadline's expected total is sampled: every row's
		// columns are closed forms.
		fmt.Fprintf(w, "the rows' means and percentiles are exact (closed forms); the expected total under the deadline is by Monte Carlo: %d seeded runs, within ±%.2f%% (3 standard errors)\n",
			t.Paths, 100*t.MeanError)
	}
	return nil
}

// cumPastTotals reports whether some row's cumulative columns exceed the
// table's totals, as a deadline that stops runs makes them.
func cumPastTotals(t *backoff.Table) bool {
	for _, r := range t.Rows {
		if r.CumMax > t.Total.Max || r.CumMean > t.Total.Max {
			return true
		}
	}
	return false
}

type tableRowJSON struct {
	Retry        int     `json:"retry"`
	Nominal      float64 `json:"nominal_s"`
	Min          float64 `json:"min_s"`
	Max          float64 `json:"max_s"`
	Mean         float64 `json:"mean_s"`
	P50          float64 `json:"p50_s"`
	P95          float64 `json:"p95_s"`
	Sample       float64 `json:"sample_s"`
	CumMin       float64 `json:"cum_min_s"`
	CumMean      float64 `json:"cum_mean_s"`
	CumMax       float64 `json:"cum_max_s"`
	Capped       bool    `json:"capped"`
	PastDeadline bool    `json:"past_deadline"`
}

type totalsJSON struct {
	Min  float64 `json:"min_s"`
	Mean float64 `json:"mean_s"`
	Max  float64 `json:"max_s"`
}

type tableJSON struct {
	Policy     map[string]any `json:"policy"`
	Retries    []tableRowJSON `json:"retries"`
	Total      totalsJSON     `json:"total"`
	CapRow     int            `json:"cap_row"`
	Unlimited  bool           `json:"unlimited"`
	MonteCarlo bool           `json:"monte_carlo"`
	Paths      int            `json:"monte_carlo_runs,omitempty"`
	MeanError  float64        `json:"monte_carlo_mean_error,omitempty"`
	// QuantileError is the percentiles' relative error at three standard
	// errors, as MeanError is the means'.
	QuantileError float64 `json:"monte_carlo_quantile_error,omitempty"`
	// Seed is a string of digits: seeds go to 2^64-1, past the 2^53 a
	// JSON number holds exactly in most readers (JavaScript, jq), which
	// printed the largest as 18446744073709552000.
	Seed uint64 `json:"seed,string"`
}

func writeTableJSON(w io.Writer, preset string, seed uint64, t *backoff.Table) error {
	out := tableJSON{Policy: policyJSON(preset, t.Policy), Retries: make([]tableRowJSON, len(t.Rows)),
		Total: totalsJSON(t.Total), CapRow: t.CapRow, Unlimited: t.Unlimited, MonteCarlo: t.MonteCarlo,
		Paths: t.Paths, MeanError: t.MeanError, QuantileError: t.QuantileError, Seed: seed}
	for i, r := range t.Rows {
		out.Retries[i] = tableRowJSON(r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// policyJSON is the policy as JSON: durations in seconds, names as the
// flags spell them.
func policyJSON(preset string, p backoff.Policy) map[string]any {
	m := map[string]any{
		"growth": p.Growth.String(), "base_s": p.Base.Seconds(), "factor": p.Factor,
		"cap_s": p.Cap.Seconds(), "cap_mode": p.CapMode.String(), "jitter": p.Jitter.String(),
		"attempts": p.Attempts, "retries": p.Retries(), "deadline_s": p.Deadline.Seconds(),
		"retry_after": p.RetryAfter.String(), "description": p.Describe(),
	}
	if preset != "" {
		m["preset"] = preset
	}
	if p.FirstExponent != 0 {
		m["first_exponent"] = p.FirstExponent
	}
	if p.Growth == backoff.Geometric {
		m["steps"] = p.Steps
	}
	// The jitter kind's own fields: jitter_lo, jitter_add_s, jitter_add_scaled.
	for _, f := range p.Jitter.Params() {
		key := strings.ReplaceAll(f, "-", "_")
		if v, seconds, _ := p.Number(f); seconds {
			m[key+"_s"] = v
		} else {
			m[key] = v
		}
	}
	for _, f := range p.Jitter.Flags() {
		m[strings.ReplaceAll(f, "-", "_")] = p.Get(f) == "true"
	}
	if p.Quantum > 0 {
		m["quantum_s"] = p.Quantum.Seconds()
	}
	if p.Offset > 0 {
		m["offset_s"] = p.Offset.Seconds()
	}
	if p.Floor > 0 {
		m["floor_s"] = p.Floor.Seconds()
	}
	if p.ImmediateFirst {
		m["immediate_first"] = true
	}
	if p.FirstUnjittered {
		m["first_unjittered"] = true
	}
	if p.RetryAfter == backoff.RetryAfterBounded {
		m["retry_after_slack_s"] = p.RetryAfterSlack.Seconds()
	}
	return m
}

func runPresets(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backoff presets", flag.ContinueOnError)
	format := fs.String("format", "text", "output: text|json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: backoff presets [--format text|json]\n\nEvery preset with its parameters, description and source.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitCode(stderr, err)
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return exitCode(stderr, flagged(fs, err))
	}
	ps := backoff.Presets()
	if *format == "json" {
		type presetJSON struct {
			Name        string         `json:"name"`
			Family      string         `json:"family"`
			Description string         `json:"description"`
			Source      string         `json:"source"`
			Policy      map[string]any `json:"policy"`
		}
		out := make([]presetJSON, len(ps))
		for i, p := range ps {
			out[i] = presetJSON{p.Name, p.Family, p.Description, p.Source, policyJSON("", p.Policy)}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return exitCode(stderr, err)
		}
		return 0
	}
	family := ""
	for _, p := range ps {
		if p.Family != family {
			family = p.Family
			fmt.Fprintf(stdout, "\n%s\n", family)
		}
		fmt.Fprintf(stdout, "  %-22s %s\n  %-22s %s\n  %-22s source: %s\n", p.Name, p.Description, "", p.Policy.Describe(), "", p.Source)
	}
	return 0
}
