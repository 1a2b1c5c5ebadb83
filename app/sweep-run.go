package app

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// A sweep in the page: sim.SweepRun over the link's simulation, one line
// per jitter kind of sweep-lines (or per policy, A and B), then, asked
// for, each line's threshold by sim.ThresholdRun. The page runs it in
// slices (sweepPanel), the server to the end for /svg/sweep.svg: the same
// rows, the same picture.

// sweepCalls bounds a sweep's work, in calls as sim.SweepCost counts
// them: twice a change's (pageCalls), about 4 s of WebAssembly, since a
// sweep is asked for and shows its progress. A sweep estimated above it
// is refused before it starts, with what to change.
const sweepCalls = 2 * pageCalls

// thresholdSteps is how finely a threshold is searched: to within an
// eighth of the gap between the two values of the sweep that bracket it
// (three halvings).
const thresholdSteps = 8

// sweepKnobs are the knobs the panel offers, in its order, each with a
// range to start from.
var sweepKnobs = []struct{ name, values string }{
	{sim.ParamClients, "100:2000:100"},
	{sim.SweepRate, "50:300:25"},
	{backoff.ParamBase, "0.05:1:0.05"},
	{backoff.ParamFactor, "1.5:4:0.5"},
	{backoff.ParamCap, "1:30:1"},
	{backoff.ParamAttempts, "1:10:1"},
	{sim.ParamTimeout, "0.2:3:0.2"},
	{sim.ParamConcurrency, "10:60:5"},
	{backoff.ParamJitter, "none,full,equal,decorrelated"},
}

// sweepLineSets are the panel's choices of lines: the policy's own kind,
// the AWS blog's five, every kind the core has (and A and B, when there
// is a second policy).
var sweepLineSets = []string{"", sim.NoBackoff + ",none,full,equal,decorrelated", strings.Join(backoff.JitterNames(), ",")}

// sweepErr is a sweep the page will not run, worded from the catalog.
// Its numbers are counts, written as l writes them.
type sweepErr struct {
	msg  string
	nums []float64
}

func (e sweepErr) Error() string { return e.text(i18n.En) }

func (e sweepErr) text(l i18n.Lang) string {
	args := make([]string, len(e.nums))
	for i, n := range e.nums {
		args[i] = l.Compact(n)
	}
	return l.F(e.msg, args...)
}

// sweepErrText is err for a person reading l: the sweep's own, or a
// value's (errText).
func sweepErrText(l i18n.Lang, err error) string {
	if e, ok := err.(sweepErr); ok {
		return e.text(l)
	}
	return errText(l, err, "")
}

// sweepJob is one sweep: its cells, value by value and in each the
// lines in order, then the thresholds.
type sweepJob struct {
	name    string
	values  []string
	xs      []float64 // the values as numbers (seconds for a duration), or their index
	numeric bool      // false: the values are names (jitter kinds)
	dur     bool      // the knob is a duration
	lines   []string  // jitter kinds, sweepAB's "A" and "B", or "" (the policy's own)
	cells   []sim.SweepCell
	metric  sim.SweepMetric
	seed    uint64
	runs    int
	cost    float64 // sim.SweepCost, thresholds included

	run       *sim.SweepRun
	threshold bool
	thr       []sweepThreshold // one per line once searched
	cur       *sim.ThresholdRun
	err       error
}

// sweepThreshold is one line's search: its bisection, or why there was
// none.
type sweepThreshold struct {
	b   sim.Bisection
	err error
}

// newSweepJob is the sweep w asks of c (the page's simulation under the
// first policy), b the second policy (nil: none), seeds from seed.
func newSweepJob(c sim.Config, b *backoff.Policy, w sweepState, seed uint64) (*sweepJob, error) {
	sw, err := sim.ParseSweep(w.Spec, c)
	if err != nil {
		return nil, valueErr(err, w.Spec, c)
	}
	j := &sweepJob{name: sw.Name, values: sw.Values, seed: seed, runs: w.Runs, threshold: w.Threshold}
	if j.runs < 1 {
		j.runs = defaultSweepRuns
	}
	switch {
	case w.Lines == sweepAB:
		if b == nil {
			return nil, sweepErr{"notice.sweep-ab", nil}
		}
		cb := c
		cb.Policy = *b
		a, err := sw.Cells(c, nil)
		if err != nil {
			return nil, err
		}
		bc, err := sw.Cells(cb, nil)
		if err != nil {
			return nil, err
		}
		for i := range a {
			j.cells = append(j.cells, a[i], bc[i])
		}
		j.lines = []string{"A", "B"}
	case w.Lines != "" && sw.Name == backoff.ParamJitter:
		return nil, sweepErr{"sweep.err-jitter-lines", nil}
	case w.Lines != "":
		if err := checkSweepLines(w.Lines, c); err != nil {
			return nil, err
		}
		j.lines = strings.Split(w.Lines, ",")
		if j.cells, err = sw.Cells(c, j.lines); err != nil {
			return nil, err
		}
	default:
		j.lines = []string{""}
		if j.cells, err = sw.Cells(c, nil); err != nil {
			return nil, err
		}
	}
	j.metric = sweepMetricFor(w.Y, c)
	j.xs, j.numeric, j.dur = sweepXs(sw.Values, c.Get(sw.Name))
	if j.threshold && !j.numeric {
		return nil, sweepErr{"sweep.err-threshold-names", nil}
	}
	// Each cell's runs under the page's bounds: memory as the herd's
	// runs, and no run beyond the whole sweep's calls (the estimate
	// below keeps them far under; a run cut short says so).
	most := 0.0
	for i := range j.cells {
		cc := &j.cells[i].Config
		if cc.RequestLevel() {
			cc.MaxInFlight = sim.MaxCallersWithin(*cc, pageMemory)
		}
		own := cc.MaxCalls
		if own == 0 {
			own = sim.DefaultMaxCalls
		}
		cc.MaxCalls = min(own, sweepCalls)
		most = max(most, sim.SweepCost(j.cells[i:i+1], j.runs))
	}
	j.cost = sim.SweepCost(j.cells, j.runs)
	if j.threshold {
		j.cost += float64(len(j.lines)) * math.Log2(thresholdSteps) * most
	}
	if j.cost > sweepCalls {
		return nil, sweepErr{"sweep.err-too-much", []float64{j.cost, sweepCalls}}
	}
	if j.run, err = sim.NewSweepRun(j.cells, seed, j.runs); err != nil {
		return nil, err
	}
	return j, nil
}

// sweepOf is the sweep a link's state asks for.
func sweepOf(s *state) (*sweepJob, error) {
	var b *backoff.Policy
	if s.B.On {
		b = &s.B.Policy
	}
	return newSweepJob(s.Herd.config(s.Policy), b, s.Sweep, s.Seed)
}

// sweepImageConfigs are the sweep's cells' runs (none for a sweep the
// page would refuse: drawing it fails before any run).
func sweepImageConfigs(s *state) []sim.Config {
	var out []sim.Config
	if j, err := sweepOf(s); err == nil {
		for _, c := range j.cells {
			out = append(out, c.Config)
		}
	}
	return out
}

// valueErr is ParseSweep's err, with a value its parameter refuses
// worded by that parameter's own rule.
func valueErr(err error, spec string, c sim.Config) error {
	fe, ok := err.(*backoff.FieldError)
	if !ok || fe.Code != backoff.CodeSweep || len(fe.Args) < 2 || fe.Args[0] != backoff.SweepValue {
		return err
	}
	name, _, _ := strings.Cut(spec, "=")
	if e := sim.SetSweep(&c, strings.TrimSpace(name), fe.Args[1]); e != nil {
		return e
	}
	if e := c.Validate(); e != nil {
		return e
	}
	return err
}

// sweepMetricFor is the result a sweep plots: y's, else a request-level
// run's goodput or a herd's calls per client (the blog's work).
func sweepMetricFor(y string, c sim.Config) sim.SweepMetric {
	if m, ok := sim.SweepMetricNamed(y); ok {
		return m
	}
	if c.RequestLevel() {
		m, _ := sim.SweepMetricNamed("goodput")
		return m
	}
	m, _ := sim.SweepMetricNamed("calls")
	return m
}

// sweepXs are a sweep's values as numbers: as written, or in seconds for
// a duration (the knob's own value, cur, has a unit), or, when a value
// is a name, each one's index.
func sweepXs(values []string, cur string) (xs []float64, numeric, dur bool) {
	_, err := time.ParseDuration(cur)
	dur = err == nil && strings.IndexAny(cur, "smhnuµ") >= 0
	xs = make([]float64, len(values))
	for i, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil && dur {
			var d time.Duration
			d, err = time.ParseDuration(v)
			x = d.Seconds()
		}
		if err != nil {
			for k := range xs {
				xs[k] = float64(k)
			}
			return xs, false, false
		}
		xs[i] = x
	}
	return xs, true, dur
}

// Advance runs the sweep for at most maxEvents events, and reports
// whether it is over (done, or stopped by an error).
func (j *sweepJob) Advance(maxEvents int) bool {
	if j.err != nil {
		return true
	}
	if !j.run.Advance(maxEvents) {
		return false
	}
	if j.err = j.run.Err(); j.err != nil || !j.threshold {
		return true
	}
	for len(j.thr) < len(j.lines) {
		if j.cur == nil {
			tr, done := j.bracket(len(j.thr))
			if done != nil {
				j.thr = append(j.thr, *done)
				continue
			}
			j.cur = tr
		}
		if !j.cur.Advance(maxEvents) {
			return false
		}
		b, err := j.cur.Result()
		j.thr = append(j.thr, sweepThreshold{b, err})
		j.cur = nil
		return len(j.thr) == len(j.lines)
	}
	return true
}

// bracket starts line k's search between the last value of the sweep
// that recovered and the first that did not; done is the answer when
// there is nothing to search (the change is outside the range, or the
// runs cannot recover).
func (j *sweepJob) bracket(k int) (tr *sim.ThresholdRun, done *sweepThreshold) {
	rec, _ := sim.SweepMetricNamed("recovered")
	rows := j.run.Rows()
	n := len(j.lines)
	b := sim.Bisection{Lo: math.NaN(), Hi: math.NaN()}
	for i := range j.values {
		share, ok := rec.Read(&rows[i*n+k].Mean)
		if !ok {
			return nil, &sweepThreshold{err: sweepErr{"sweep.err-threshold-recover", nil}}
		}
		if share >= 0.5 {
			b.Lo = j.xs[i]
			continue
		}
		if i == 0 {
			b.Hi, b.Below = j.xs[0], true
			return nil, &sweepThreshold{b: b}
		}
		lo, hi := j.xs[i-1], j.xs[i]
		tr, err := sim.NewThresholdRun(j.cells[(i-1)*n+k].Config, j.name, lo, hi, (hi-lo)/thresholdSteps, j.seed, j.runs)
		if err != nil {
			return nil, &sweepThreshold{err: err}
		}
		tr.Know(lo, true)
		tr.Know(hi, false)
		return tr, nil
	}
	b.Above = true
	return nil, &sweepThreshold{b: b}
}

// Progress is the share of the sweep done: its cells, then its searches.
func (j *sweepJob) Progress() float64 {
	p := j.run.Progress()
	if !j.threshold {
		return p
	}
	return 0.8*p + 0.2*float64(len(j.thr))/float64(len(j.lines))
}

// lineName is line k's name for l.
func (j *sweepJob) lineName(l i18n.Lang, k int) string {
	switch v := j.lines[k]; v {
	case "":
		return l.T("sweep.line-own")
	case "A", "B":
		return l.F("sweep.line-policy", v)
	default:
		return kindName(l, v)
	}
}

// xTitle is the knob's name for l.
func (j *sweepJob) xTitle(l i18n.Lang) string {
	if j.name == sim.SweepRate {
		return l.T("sweep.knob.rate")
	}
	return fieldName(l, j.name)
}

// xText writes value x of the knob for l; "" between two names.
func (j *sweepJob) xText(l i18n.Lang, x float64) string {
	switch {
	case !j.numeric:
		if i := int(x); float64(i) == x && i >= 0 && i < len(j.values) {
			return kindName(l, j.values[i])
		}
		return ""
	case j.dur:
		return l.Seconds(x)
	}
	return l.Num(roundSig(x, 6))
}

// yText writes a result of the sweep's metric for l.
func (j *sweepJob) yText(l i18n.Lang, y float64) string {
	switch j.metric.Unit {
	case "s":
		return l.Seconds(y)
	case "share":
		return l.Percent(y, 1)
	case "per-s":
		return l.F("sweep.per-s", l.Num(roundSig(y, 4)))
	}
	return l.Num(roundSig(y, 4))
}

// sdText writes a spread of the sweep's metric for l, to two digits.
func (j *sweepJob) sdText(l i18n.Lang, sd float64) string {
	switch j.metric.Unit {
	case "s":
		return l.Seconds(roundSig(sd, 2))
	case "share":
		return l.Percent(roundSig(sd, 2), 1)
	}
	return l.Num(roundSig(sd, 2))
}

// roundSig is x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', n, 64), 64)
	return f
}

// chartLines are the sweep's lines so far, for chart.Sweep.
func (j *sweepJob) chartLines(l i18n.Lang) []chart.SweepLine {
	rows := j.run.Rows()
	n := len(j.lines)
	out := make([]chart.SweepLine, n)
	for k := range out {
		s := chart.SweepLine{Name: j.lineName(l, k)}
		for i := 0; i*n+k < len(rows); i++ {
			y, ok := j.metric.Read(&rows[i*n+k].Mean)
			s.X, s.Y, s.Ok = append(s.X, j.xs[i]), append(s.Y, y), append(s.Ok, ok)
		}
		if k < len(j.thr) && j.thr[k].err == nil && !j.thr[k].b.Below && !j.thr[k].b.Above {
			s.Lo, s.Hi = j.thr[k].b.Lo, j.thr[k].b.Hi
		}
		out[k] = s
	}
	return out
}

// picture is the sweep's chart for l.
func (j *sweepJob) picture(l i18n.Lang) string {
	return chart.Sweep(l, j.chartLines(l), j.xTitle(l), l.T("sweep.y."+j.metric.Name), func(x float64) string { return j.xText(l, x) },
		func(y float64) string { return j.yText(l, y) }, j.metric.Unit == "share")
}

// thresholdText says what line k's search found, for l ("" before it).
func (j *sweepJob) thresholdText(l i18n.Lang, k int) string {
	if k >= len(j.thr) {
		return ""
	}
	t := j.thr[k]
	name := j.lineName(l, k)
	switch {
	case t.err != nil:
		return l.F("sweep.threshold-none", name, sweepErrText(l, t.err))
	case t.b.Below:
		return l.F("sweep.threshold-below", name, j.xText(l, t.b.Hi))
	case t.b.Above:
		return l.F("sweep.threshold-above", name, j.xText(l, t.b.Lo))
	}
	return l.F("sweep.threshold-found", name, j.xText(l, t.b.Lo), j.xText(l, t.b.Hi), l.Int(int64(len(t.b.Tried))))
}

// csv is the sweep's rows: the value, the line, the runs, then each
// result's mean and standard deviation (empty where the runs have no
// such figure) and the runs cut short.
func (j *sweepJob) csv() string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{j.name, "line", "runs"}
	for _, m := range sim.SweepMetrics {
		head = append(head, m.Name, m.Name+"_sd")
	}
	w.Write(append(head, "truncated_runs"))
	rows := j.run.Rows()
	n := len(j.lines)
	for i, r := range rows {
		line := j.lines[i%n]
		if line == "" {
			line = r.Jitter
		}
		rec := []string{r.Value, line, strconv.Itoa(j.runs)}
		for _, m := range sim.SweepMetrics {
			mean, ok := m.Read(&r.Mean)
			sd, _ := m.Read(&r.SD)
			if !ok {
				rec = append(rec, "", "")
				continue
			}
			rec = append(rec, strconv.FormatFloat(mean, 'g', 10, 64), strconv.FormatFloat(sd, 'g', 10, 64))
		}
		w.Write(append(rec, strconv.Itoa(r.Truncated)))
	}
	w.Flush()
	return b.String()
}

// truncated counts the cells whose runs were cut short.
func (j *sweepJob) truncated() int {
	n := 0
	for _, r := range j.run.Rows() {
		if r.Truncated > 0 {
			n++
		}
	}
	return n
}
