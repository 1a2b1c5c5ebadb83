package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// simFlag records a sim parameter as given; they are applied in order.
type simFlag struct {
	set  *[]kv
	name string
	bool bool
}

func (f *simFlag) String() string     { return "" }
func (f *simFlag) IsBoolFlag() bool   { return f.bool }
func (f *simFlag) Set(v string) error { *f.set = append(*f.set, kv{f.name, v}); return nil }

var simHelp = map[string]string{
	sim.ParamClients:         "clients, each wanting one successful call (1 to 2000000)",
	sim.ParamServer:          "server model: capacity|outage|collapse|occ",
	sim.ParamCapacity:        "calls per second the server serves",
	sim.ParamCapacityWindow:  "the server absorbs capacity*window calls at once",
	sim.ParamOutageStart:     "outage: when everything starts failing",
	sim.ParamOutageEnd:       "outage: when the server is back",
	sim.ParamCollapseFactor:  "collapse: throughput = capacity / (1 + f*(load/capacity - 1)) above capacity",
	sim.ParamCollapseWindow:  "collapse: window the offered load is measured over",
	sim.ParamArrival:         "first calls: burst | uniform:D (spread over D) | clock:D (every retry rounded up to a multiple of D)",
	sim.ParamLatency:         "one-way network latency per hop",
	sim.ParamLatencySD:       "latency spread: hops are |N(latency, sd)|",
	sim.ParamHonorRetryAfter: "clients honour the server's Retry-After (as --retry-after says; ignore = as-is)",
	sim.ParamRetryAfterS:     "Retry-After the server sends with its 503s (0 = none)",
	sim.ParamBudget:          "retry budget shared by the clients: none | tokens[:500[:5[:1]]] (AWS) | ratio[:0.2[:3]] (Envoy)",
	sim.ParamBreaker:         "circuit breaker shared by the clients: none | consecutive[:K[:COOLDOWN]] | ratio[:R[:MIN[:WINDOW[:COOLDOWN]]]]",
	sim.ParamBucket:          "timeline bucket width (0 = about 200 buckets)",
	sim.ParamHorizon:         "stop at this simulated time (0 = none)",
	sim.ParamMaxCalls:        "stop after this many calls",
}

// noBackoff is the extra --jitter list entry for the blog's "no backoff"
// baseline (growth none), which is not a jitter kind.
const noBackoff = "no-backoff"

// simJob is a parsed 'backoff sim' command line.
type simJob struct {
	cfg     sim.Config
	preset  string
	jitters []string // a --jitter comma list, else nil
	sweep   *sweepSpec
	seed    uint64
	runs    int
	format  string
}

// maxClientRuns bounds the work of one command (clients summed over every
// run of every row): about two minutes of CPU.
const maxClientRuns = 200_000_000

func parseSim(args []string, stderr io.Writer) (*simJob, error) {
	fs := flag.NewFlagSet("backoff sim", flag.ContinueOnError)
	pf := addPolicyFlags(fs)
	var simSet []kv
	for _, name := range sim.ParamNames {
		fs.Var(&simFlag{set: &simSet, name: name, bool: name == sim.ParamHonorRetryAfter}, name, simHelp[name])
	}
	seed := fs.Uint64("seed", 1, "seed of the first run")
	runs := fs.Int("runs", 1, "runs with seeds seed..seed+runs-1; totals are their means")
	sweep := fs.String("sweep", "", "run a range of one parameter: NAME=FROM:TO:STEP or NAME=V1,V2,... (e.g. clients=10:190:10)")
	format := fs.String("format", "text", "output: text|csv|json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: backoff sim [--preset NAME] [policy flags] [--clients N] [--server capacity|outage|collapse|occ]
       [--capacity N] [--outage-start D --outage-end D] [--arrival burst|uniform:D|clock:D]
       [--latency D --latency-sd D] [--budget ...] [--breaker ...] [--honor-retry-after]
       [--runs R] [--seed S] [--bucket D] [--sweep NAME=FROM:TO:STEP] [--format text|csv|json]

Many clients retrying against one server, in simulated time. The default: 1000
clients call at once into a 10 s outage of a server that then serves 100
calls/s. With --sweep, one row per value (and per jitter kind when --jitter is
a comma list; "no-backoff" there means growth none). The AWS blog's figures:

  backoff sim --preset aws-blog-full --server occ --latency 10s --latency-sd 2s \
    --sweep clients=10:190:10 --jitter no-backoff,none,full,equal,decorrelated --runs 100

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return nil, err
	}
	if err := checkFormat(*format, "text", "csv", "json"); err != nil {
		return nil, err
	}
	if *runs < 1 || *runs > sim.MaxRuns {
		return nil, &backoff.FieldError{Field: "runs", Value: strconv.Itoa(*runs), Allowed: fmt.Sprintf("a whole number from 1 to %d", sim.MaxRuns)}
	}
	j := &simJob{preset: pf.preset, seed: *seed, runs: *runs, format: *format}
	var err error
	if j.jitters, err = takeJitterList(pf); err != nil {
		return nil, err
	}
	p, err := pf.policy()
	if err != nil {
		return nil, err
	}
	j.cfg = sim.DefaultConfig()
	j.cfg.Policy = p
	for _, s := range simSet {
		if err := j.cfg.Set(s.name, s.value); err != nil {
			return nil, err
		}
	}
	if err := j.cfg.Validate(); err != nil {
		return nil, err
	}
	if *sweep != "" {
		if j.sweep, err = parseSweep(*sweep, j.cfg); err != nil {
			return nil, err
		}
	} else if len(j.jitters) > 1 {
		j.sweep = &sweepSpec{} // a jitter list alone sweeps the jitter kinds
	}
	if work := j.clientRuns(); work > maxClientRuns {
		return nil, &backoff.FieldError{Field: "runs", Value: fmt.Sprintf("%d client-runs", work),
			Allowed: fmt.Sprintf("at most %d clients summed over all runs (fewer --runs, --clients or sweep values)", maxClientRuns)}
	}
	return j, nil
}

// clientRuns is the job's work: clients summed over every run.
func (j *simJob) clientRuns() int {
	rows := max(1, len(j.jitters))
	if j.sweep == nil || j.sweep.name == "" {
		return j.cfg.Clients * j.runs * rows
	}
	total := 0
	for _, v := range j.sweep.values {
		c := j.cfg
		c.Set(j.sweep.name, v) // checked by parseSweep
		total += c.Clients * j.runs * rows
	}
	return total
}

func runSim(args []string, stdout, stderr io.Writer) int {
	j, err := parseSim(args, stderr)
	if err != nil {
		return exitCode(stderr, err)
	}
	return exitCode(stderr, j.run(stdout))
}

func (j *simJob) run(stdout io.Writer) error {
	c := j.cfg
	if j.sweep != nil {
		rows, err := runSweep(c, j.sweep, j.jitters, j.seed, j.runs)
		if err != nil {
			return err
		}
		switch j.format {
		case "json":
			return writeSweepJSON(stdout, c, j.sweep, j.seed, j.runs, rows)
		case "csv":
			return writeSweepCSV(stdout, j.sweep, rows)
		}
		return writeSweepText(stdout, c, j.sweep, j.seed, j.runs, rows)
	}
	if len(j.jitters) == 1 {
		if err := applyJitter(&c, j.jitters[0]); err != nil {
			return err
		}
	}
	s, err := sim.RunMany(c, j.seed, j.runs)
	if err != nil {
		return err
	}
	switch j.format {
	case "json":
		return writeSimJSON(stdout, c, j.seed, s)
	case "csv":
		return writeTimelineCSV(stdout, s.First)
	}
	return writeSimText(stdout, j.preset, c, j.seed, s)
}

// takeJitterList removes the --jitter values from the policy flags when
// one of them is a comma list, checks each, and returns them in order.
func takeJitterList(pf *policyFlags) ([]string, error) {
	var list []string
	kept := pf.set[:0:0]
	for _, s := range pf.set {
		if s.name != backoff.ParamJitter || !strings.Contains(s.value, ",") {
			kept = append(kept, s)
			continue
		}
		list = nil
		for _, j := range strings.Split(s.value, ",") {
			j = strings.TrimSpace(j)
			if j != noBackoff {
				var p backoff.Policy
				if err := p.Set(backoff.ParamJitter, j); err != nil {
					fe := err.(*backoff.FieldError)
					fe.Allowed += " (or no-backoff), comma separated"
					return nil, fe
				}
			}
			list = append(list, j)
		}
	}
	pf.set = kept
	return list, nil
}

// applyJitter sets one entry of a --jitter list on c's policy.
func applyJitter(c *sim.Config, j string) error {
	if j == noBackoff {
		c.Policy.Growth, c.Policy.Jitter = backoff.None, backoff.NoJitter
		return c.Validate()
	}
	if err := c.Set(backoff.ParamJitter, j); err != nil {
		return err
	}
	return c.Validate()
}

// sweepSpec is --sweep NAME=FROM:TO:STEP or NAME=V1,V2,...
type sweepSpec struct {
	name   string
	values []string
}

const maxSweepValues = 1000

func parseSweep(s string, c sim.Config) (*sweepSpec, error) {
	bad := func(allowed string) error {
		return &backoff.FieldError{Field: "sweep", Value: s, Allowed: allowed}
	}
	const form = "NAME=FROM:TO:STEP or NAME=V1,V2,... with NAME a sim or policy parameter, e.g. clients=10:190:10"
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || spec == "" {
		return nil, bad(form)
	}
	sw := &sweepSpec{name: name}
	if parts := strings.Split(spec, ":"); len(parts) == 3 {
		var f [3]float64
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, bad(form)
			}
			f[i] = v
		}
		from, to, step := f[0], f[1], f[2]
		if step <= 0 || to < from || (to-from)/step >= maxSweepValues {
			return nil, bad(fmt.Sprintf("FROM <= TO, STEP > 0 and at most %d values", maxSweepValues))
		}
		for k := 0; ; k++ {
			v := from + float64(k)*step
			if v > to+step*1e-9 {
				break
			}
			sw.values = append(sw.values, strconv.FormatFloat(v, 'g', 10, 64))
		}
	} else {
		for _, v := range strings.Split(spec, ",") {
			sw.values = append(sw.values, strings.TrimSpace(v))
		}
		if len(sw.values) > maxSweepValues {
			return nil, bad(fmt.Sprintf("at most %d values", maxSweepValues))
		}
	}
	// Check every value now, so a bad one fails before any run.
	for _, v := range sw.values {
		d := c
		if err := d.Set(name, v); err != nil {
			return nil, err
		}
		if err := d.Validate(); err != nil {
			return nil, err
		}
	}
	return sw, nil
}

// sweepRow is one client count (or other value) and jitter kind.
type sweepRow struct {
	Value  string          `json:"value"`
	Jitter string          `json:"jitter"`
	Totals sim.MeanTotals  `json:"totals"`
	SD     *sim.MeanTotals `json:"sd,omitempty"`
}

func runSweep(c sim.Config, sw *sweepSpec, jitters []string, seed uint64, runs int) ([]sweepRow, error) {
	values := sw.values
	if sw.name == "" {
		values = []string{""}
	}
	if len(jitters) == 0 {
		jitters = []string{c.Policy.Jitter.String()}
	}
	var rows []sweepRow
	for _, v := range values {
		for _, j := range jitters {
			d := c
			if sw.name != "" {
				if err := d.Set(sw.name, v); err != nil {
					return nil, err
				}
			}
			if err := applyJitter(&d, j); err != nil {
				return nil, err
			}
			s, err := sim.RunMany(d, seed, runs)
			if err != nil {
				return nil, err
			}
			row := sweepRow{Value: v, Jitter: j, Totals: s.Mean}
			if runs > 1 {
				row.SD = &s.SD
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// configParams is the config as parameter text, for the JSON header.
func configParams(c sim.Config) map[string]string {
	m := map[string]string{}
	for _, n := range sim.ParamNames {
		m[n] = c.Get(n)
	}
	for _, n := range backoff.ParamNames {
		m[n] = c.Get(n)
	}
	return m
}

func writeSimJSON(w io.Writer, c sim.Config, seed uint64, s *sim.Summary) error {
	out := struct {
		Config            map[string]string `json:"config"`
		Seed              uint64            `json:"seed"`
		Runs              int               `json:"runs"`
		Totals            any               `json:"totals"`
		SD                *sim.MeanTotals   `json:"sd,omitempty"`
		Truncated         bool              `json:"truncated,omitempty"`
		BucketWidth       float64           `json:"bucket_s"`
		CapacityPerBucket float64           `json:"capacity_per_bucket"`
		OutageStart       float64           `json:"outage_start_s"`
		OutageEnd         float64           `json:"outage_end_s"`
		Timeline          []sim.Bucket      `json:"timeline"`
	}{Config: configParams(c), Seed: seed, Runs: s.Runs, Totals: s.First.Totals, Truncated: s.First.Truncated,
		BucketWidth: s.First.BucketWidth, CapacityPerBucket: s.First.CapacityPerBucket,
		OutageStart: s.First.OutageStart, OutageEnd: s.First.OutageEnd, Timeline: s.First.Timeline}
	if s.Runs > 1 {
		out.Totals, out.SD = s.Mean, &s.SD
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeSweepJSON(w io.Writer, c sim.Config, sw *sweepSpec, seed uint64, runs int, rows []sweepRow) error {
	out := struct {
		Config map[string]string `json:"config"`
		Seed   uint64            `json:"seed"`
		Runs   int               `json:"runs"`
		Sweep  string            `json:"sweep,omitempty"`
		Rows   []sweepRow        `json:"rows"`
	}{configParams(c), seed, runs, sw.name, rows}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', 8, 64) }

func writeTimelineCSV(w io.Writer, r *sim.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"start_s", "calls", "retries", "ok", "rejected", "blocked", "waiting"})
	for _, b := range r.Timeline {
		cw.Write([]string{num(b.Start), strconv.Itoa(b.Calls), strconv.Itoa(b.Retries), strconv.Itoa(b.OK),
			strconv.Itoa(b.Rejected), strconv.Itoa(b.Blocked), strconv.Itoa(b.Waiting)})
	}
	cw.Flush()
	return cw.Error()
}

var sweepColumns = []string{"clients", "calls", "succeeded", "gave_up", "amplification",
	"completion_mean_s", "completion_p50_s", "completion_p95_s", "completion_p99_s", "completion_max_s",
	"makespan_s", "peak_load_ratio", "peak_retry_load_ratio"}

func sweepCells(t sim.MeanTotals) []string {
	q := t.Completion
	return []string{num(t.Clients), num(t.Calls), num(t.Succeeded), num(t.GaveUp), num(t.Amplification),
		num(q.Mean), num(q.P50), num(q.P95), num(q.P99), num(q.Max), num(t.Makespan), num(t.PeakLoadRatio), num(t.PeakRetryLoadRatio)}
}

func writeSweepCSV(w io.Writer, sw *sweepSpec, rows []sweepRow) error {
	cw := csv.NewWriter(w)
	head := []string{}
	if sw.name != "" && sw.name != sim.ParamClients {
		head = append(head, sw.name)
	}
	cw.Write(append(append(head, "jitter"), sweepColumns...))
	for _, r := range rows {
		cells := []string{}
		if sw.name != "" && sw.name != sim.ParamClients {
			cells = append(cells, r.Value)
		}
		cw.Write(append(append(cells, r.Jitter), sweepCells(r.Totals)...))
	}
	cw.Flush()
	return cw.Error()
}

func writeSweepText(w io.Writer, c sim.Config, sw *sweepSpec, seed uint64, runs int, rows []sweepRow) error {
	desc := describe(c)
	if sw.name == sim.ParamClients {
		_, desc, _ = strings.Cut(desc, ", ")
		desc = "clients swept, " + desc
	}
	fmt.Fprintf(w, "%s\nseed %d, %s per row\n\n", desc, seed, plural(runs, "run"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if sw.name != "" && sw.name != sim.ParamClients {
		fmt.Fprintf(tw, "%s\t", sw.name)
	}
	fmt.Fprintln(tw, "jitter\tclients\tcalls\tsucceeded\tgave up\tcalls/client\tmean\tp99\tmakespan\tpeak load\t")
	f := backoff.FormatSeconds
	if c.Server == sim.OCC {
		// The blog's abstract time units, passed as seconds one for one.
		f = func(v float64) string { return strconv.FormatFloat(math.Round(v), 'f', 0, 64) }
	}
	for _, r := range rows {
		t := r.Totals
		if sw.name != "" && sw.name != sim.ParamClients {
			fmt.Fprintf(tw, "%s\t", r.Value)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t\n", r.Jitter, num(t.Clients), num(math.Round(t.Calls*10)/10),
			num(t.Succeeded), num(t.GaveUp), t.Amplification, f(t.Completion.Mean), f(t.Completion.P99), f(t.Makespan), ratio(c, t.PeakLoadRatio))
	}
	return tw.Flush()
}

func ratio(c sim.Config, r float64) string {
	if c.Server == sim.OCC {
		return "-"
	}
	return fmt.Sprintf("%.2fx", r)
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// describe is a one-line summary of the scenario.
func describe(c sim.Config) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d clients, arrival %s, server %s", c.Clients, c.Get(sim.ParamArrival), c.Server)
	switch c.Server {
	case sim.Capacity, sim.Collapse:
		fmt.Fprintf(&sb, " (%s calls/s)", num(c.Capacity))
	case sim.Outage:
		fmt.Fprintf(&sb, " (down %s-%s, then %s calls/s)", c.Get(sim.ParamOutageStart), c.Get(sim.ParamOutageEnd), num(c.Capacity))
	}
	fmt.Fprintf(&sb, ", latency %s", c.Get(sim.ParamLatency))
	if c.LatencySD > 0 {
		fmt.Fprintf(&sb, " ± %s", c.Get(sim.ParamLatencySD))
	}
	if c.Budget.Kind != sim.NoBudget {
		fmt.Fprintf(&sb, ", budget %s", c.Get(sim.ParamBudget))
	}
	if c.Breaker.Kind != sim.NoBreaker {
		fmt.Fprintf(&sb, ", breaker %s", c.Get(sim.ParamBreaker))
	}
	if c.RetryAfter > 0 {
		fmt.Fprintf(&sb, ", Retry-After %s", c.Get(sim.ParamRetryAfterS))
		if c.HonorRetryAfter {
			sb.WriteString(" (honoured)")
		}
	}
	return sb.String()
}

func writeSimText(w io.Writer, preset string, c sim.Config, seed uint64, s *sim.Summary) error {
	if preset != "" {
		fmt.Fprintf(w, "preset: %s\n", preset)
	}
	fmt.Fprintf(w, "policy: %s\n", c.Policy.Describe())
	fmt.Fprintf(w, "%s\n", describe(c))
	r := s.First
	if s.Runs > 1 {
		fmt.Fprintf(w, "%s, seeds %d..%d: mean ± sd\n\n", plural(s.Runs, "run"), seed, seed+uint64(s.Runs)-1)
	} else {
		fmt.Fprintf(w, "seed %d\n\n", seed)
	}
	m, sd := s.Mean, s.SD
	f := backoff.FormatSeconds
	pm := func(mean, sd float64, unit func(float64) string) string {
		if s.Runs == 1 {
			return unit(mean)
		}
		return unit(mean) + " ± " + unit(sd)
	}
	count := func(v float64) string { return num(math.Round(v*10) / 10) }
	two := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	line := func(label, value, note string) {
		fmt.Fprintf(w, "%-11s %s", label, value)
		if note != "" {
			fmt.Fprintf(w, "  %s", note)
		}
		fmt.Fprintln(w)
	}
	line("calls", pm(m.Calls, sd.Calls, count), "("+pm(m.Amplification, sd.Amplification, two)+" per client)")
	line("succeeded", pm(m.Succeeded, sd.Succeeded, count), fmt.Sprintf("of %d clients", c.Clients))
	line("gave up", pm(m.GaveUp, sd.GaveUp, count), "")
	if m.Unfinished > 0 {
		line("unfinished", pm(m.Unfinished, sd.Unfinished, count), "(stopped by --horizon or --max-calls)")
	}
	if m.Blocked > 0 {
		line("blocked", pm(m.Blocked, sd.Blocked, count), "(refused by the open breaker)")
	}
	q := m.Completion
	line("completion", fmt.Sprintf("mean %s  p50 %s  p95 %s  p99 %s  max %s", f(q.Mean), f(q.P50), f(q.P95), f(q.P99), f(q.Max)), "")
	line("makespan", pm(m.Makespan, sd.Makespan, f), "(time of the last event)")
	if c.Server != sim.OCC {
		line("peak load", pm(m.PeakLoadRatio, sd.PeakLoadRatio, two)+" x capacity", "(retries alone "+pm(m.PeakRetryLoadRatio, sd.PeakRetryLoadRatio, two)+")")
	}
	if s.Runs > 1 {
		fmt.Fprintf(w, "\ntimeline of the first run (seed %d):\n", seed)
	} else {
		fmt.Fprintln(w)
	}
	return writeChart(w, r, 72, 10)
}

// writeChart draws calls started per column as a bar chart, the capacity
// as a dotted line and the outage under the axis.
func writeChart(w io.Writer, r *sim.Result, width, height int) error {
	n := len(r.Timeline)
	if n == 0 {
		return nil
	}
	per := (n + width - 1) / width // buckets per column
	cols := (n + per - 1) / per
	calls := make([]float64, cols)
	for i, b := range r.Timeline {
		calls[i/per] += float64(b.Calls)
	}
	capCol := r.CapacityPerBucket * float64(per)
	top := capCol * 1.25
	for _, v := range calls {
		top = math.Max(top, v)
	}
	if top == 0 {
		top = 1
	}
	label := fmt.Sprintf("%.0f", top)
	pad := strings.Repeat(" ", len(label))
	capRow := -1
	if capCol > 0 {
		capRow = max(1, int(math.Round(capCol/top*float64(height))))
	}
	var sb strings.Builder
	for row := height; row >= 1; row-- {
		switch row {
		case height:
			sb.WriteString(label)
		default:
			sb.WriteString(pad)
		}
		sb.WriteString(" │")
		lo := top * float64(row-1) / float64(height)
		for _, v := range calls {
			switch {
			case v > lo && v >= top*(float64(row)-0.5)/float64(height):
				sb.WriteString("█")
			case v > lo:
				sb.WriteString("▄")
			case row == capRow:
				sb.WriteString("┈")
			default:
				sb.WriteString(" ")
			}
		}
		if row == capRow {
			sb.WriteString(" capacity")
		}
		sb.WriteString("\n")
	}
	sb.WriteString(pad + " └" + strings.Repeat("─", cols) + "\n")
	if r.OutageEnd > r.OutageStart {
		colW := r.BucketWidth * float64(per)
		sb.WriteString(pad + "  ")
		for k := range cols {
			if s := float64(k) * colW; s < r.OutageEnd && s+colW > r.OutageStart {
				sb.WriteString("▀")
			} else {
				sb.WriteString(" ")
			}
		}
		sb.WriteString(" outage\n")
	}
	end := backoff.FormatSeconds(float64(cols*per) * r.BucketWidth)
	gap := max(1, cols-len(end)-1)
	fmt.Fprintf(&sb, "%s  0%s%s\n", pad, strings.Repeat(" ", gap), end)
	fmt.Fprintf(&sb, "%s  calls started per %s\n", pad, backoff.FormatSeconds(r.BucketWidth*float64(per)))
	_, err := io.WriteString(w, sb.String())
	return err
}
