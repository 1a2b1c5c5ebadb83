package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// A sweep runs one parameter over a list of values, and at each value
// each of a list of jitter kinds: the CLI's --sweep and the page's sweep
// panel. A value is a Config or policy parameter's text, or for
// SweepRate the rate of open traffic. Each cell is an independent seeded
// run (or RunMany), so a sweep's rows do not depend on the order or the
// number of cores that run them.
//
// Threshold finds where a run stops recovering by bisection: between a
// value that recovers and one that does not, it runs the middle and keeps
// the half where the change happens, until the two are within the step
// asked for. Recovery is Totals.Recovery's (goodput at least 90% of the
// offered requests over every 5 s after the last fault): with a stall of
// 10 s into a queue of 30 workers at 100 ms and a 1 s timeout, open
// traffic recovers up to a rate and not above it.

// SweepRate is the sweep's name for open traffic's rate: rate=100:300:20
// sets traffic open:V.
const SweepRate = "rate"

// NoBackoff is the extra jitter-list entry for the blog's "no backoff"
// baseline (growth none), which is not a jitter kind.
const NoBackoff = "no-backoff"

// MaxSweepPoints bounds a sweep's values: a range whose step is tiny
// beside its values would otherwise never end.
const MaxSweepPoints = 1000

// Sweep is one parameter's values: NAME=FROM:TO:STEP or NAME=V1,V2,...
// Its zero value sweeps nothing (one row per jitter kind).
type Sweep struct {
	Name   string
	Values []string
}

// SweepNames are the parameters a sweep may run: the simulator's, the
// policy's, and SweepRate.
func SweepNames() []string {
	names := append(append([]string{}, ParamNames...), backoff.ParamNames...)
	return append(names, SweepRate)
}

// ParseSweep reads NAME=FROM:TO:STEP or NAME=V1,V2,... and checks every
// value on c, so that a bad one fails before any run.
func ParseSweep(s string, c Config) (Sweep, error) {
	const form = "NAME=FROM:TO:STEP or NAME=V1,V2,..., NAME a sim or policy parameter, e.g. clients=10:190:10"
	most := strconv.Itoa(MaxSweepPoints)
	rule := fmt.Sprintf("FROM:TO:STEP with finite numbers, FROM <= TO, STEP > 0 and at most %d points", MaxSweepPoints)
	bad := func(allowed string, args ...string) error {
		return &backoff.FieldError{Field: "sweep", Value: clip(s), Allowed: allowed, Code: backoff.CodeSweep, Args: args}
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || spec == "" {
		return Sweep{}, bad(form, backoff.SweepForm)
	}
	names := SweepNames()
	if !slices.Contains(names, name) {
		return Sweep{}, bad("NAME=... with NAME one of "+strings.Join(names, ", "), append([]string{backoff.SweepName}, names...)...)
	}
	sw := Sweep{Name: name}
	if parts := strings.Split(spec, ":"); len(parts) == 3 {
		var f [3]float64
		for i, p := range parts {
			// The core's reader, as for every other number: finite only.
			v, err := backoff.ParseFloat("sweep", p, -math.MaxFloat64, math.MaxFloat64)
			if err != nil {
				return Sweep{}, bad(rule, backoff.SweepNumbers, most)
			}
			f[i] = v
		}
		from, to, step := f[0], f[1], f[2]
		switch {
		case step <= 0:
			return Sweep{}, bad(rule+" (STEP is "+backoff.FormatShort(step, -1)+")", backoff.SweepStep, most, num(step))
		case to < from:
			return Sweep{}, bad(rule+" (TO "+backoff.FormatShort(to, -1)+" is below FROM "+backoff.FormatShort(from, -1)+")", backoff.SweepOrder, most, num(to), num(from))
		case from+step == from:
			// Below the value's resolution the range never advances.
			return Sweep{}, bad(rule+" (STEP "+backoff.FormatShort(step, -1)+" does not change "+backoff.FormatShort(from, -1)+" in float64)", backoff.SweepResolution, most, num(step), num(from))
		}
		// The tolerance keeps TO in a range such as 0.1:1:0.1.
		n := math.Floor((to-from)/step+1e-9) + 1
		if n > MaxSweepPoints {
			return Sweep{}, bad(rule+" (this range has "+backoff.FormatCount(n)+")", backoff.SweepPoints, most, num(n))
		}
		for k := 0; k < int(n); k++ {
			v := strconv.FormatFloat(from+float64(k)*step, 'g', 10, 64)
			if k > 0 && v == sw.Values[k-1] {
				return Sweep{}, bad(rule+" (STEP "+backoff.FormatShort(step, -1)+" does not change "+v+" at 10 digits)", backoff.SweepResolution, most, num(step), v)
			}
			sw.Values = append(sw.Values, v)
		}
	} else {
		if n := strings.Count(spec, ",") + 1; n > MaxSweepPoints {
			return Sweep{}, bad(fmt.Sprintf("at most %d values (this list has %d)", MaxSweepPoints, n), backoff.SweepPoints, most, strconv.Itoa(n))
		}
		for _, v := range strings.Split(spec, ",") {
			sw.Values = append(sw.Values, strings.TrimSpace(v))
		}
	}
	for _, v := range sw.Values {
		d := c
		err := SetSweep(&d, name, v)
		if err == nil {
			err = d.Validate()
		}
		if err != nil {
			return Sweep{}, bad(fmt.Sprintf("values each valid (%v)", err), backoff.SweepValue, v)
		}
	}
	return sw, nil
}

// SetSweep sets one sweep value on c: a parameter, or SweepRate.
func SetSweep(c *Config, name, v string) error {
	if name == SweepRate {
		// The rate of open traffic only: set on a herd or a loop it
		// would silently turn the run into another kind of traffic.
		if c.Traffic != Open {
			return &backoff.FieldError{Field: "sweep", Value: SweepRate + "=" + v, Code: backoff.CodeNeeds,
				Other: ParamTraffic, Args: []string{c.Get(ParamTraffic), "open:RATE", "open:RATE"},
				Allowed: "rate=... with --traffic open:RATE (the traffic is " + c.Get(ParamTraffic) + ")"}
		}
		return c.Set(ParamTraffic, Open.String()+":"+v)
	}
	return c.Set(name, v)
}

// ApplyJitter sets one entry of a jitter list on c's policy (NoBackoff:
// growth none) and checks the result.
func ApplyJitter(c *Config, j string) error {
	if j == NoBackoff {
		c.Policy.Growth, c.Policy.Jitter = backoff.None, backoff.NoJitter
		return c.Validate()
	}
	if err := c.Set(backoff.ParamJitter, j); err != nil {
		return err
	}
	return c.Validate()
}

// SweepCell is one row of a sweep: its value, its jitter kind and the
// config they make.
type SweepCell struct {
	Value, Jitter string
	Config        Config
}

// Cells are the sweep's rows on c, value by value and in each the
// jitters in order (none: c's own jitter), each config checked.
func (sw Sweep) Cells(c Config, jitters []string) ([]SweepCell, error) {
	values := sw.Values
	if sw.Name == "" {
		values = []string{""}
	}
	// Without a list each row keeps its own jitter kind: c's, or the
	// value of a sweep of the jitter itself.
	own := len(jitters) == 0
	if own {
		jitters = []string{""}
	}
	cells := make([]SweepCell, 0, len(values)*len(jitters))
	for _, v := range values {
		for _, j := range jitters {
			d := c
			if sw.Name != "" {
				if err := SetSweep(&d, sw.Name, v); err != nil {
					return nil, err
				}
			}
			var err error
			if own {
				j, err = d.Policy.Jitter.String(), d.Validate()
			} else {
				err = ApplyJitter(&d, j)
			}
			if err != nil {
				return nil, err
			}
			cells = append(cells, SweepCell{v, j, d})
		}
	}
	return cells, nil
}

// Bisection is a threshold's search: the largest value tried that
// recovered (Lo) and the smallest that did not (Hi), within Step of each
// other, and every value tried in order. Below is set when even the
// range's low end did not recover, Above when its high end did (then Lo
// or Hi is that end and the other NaN).
type Bisection struct {
	Lo, Hi       float64
	Below, Above bool
	Tried        []BisectionStep
}

// BisectionStep is one value tried and whether it recovered (in at
// least half its runs).
type BisectionStep struct {
	Value     float64
	Recovered bool
}

// MaxBisectionSteps bounds a threshold's search: 2^40 halvings reach any
// step a float64 range allows in practice.
const MaxBisectionSteps = 40

// Threshold bisects [lo, hi] for the largest value that recovers, until
// the values that do and do not are at most step apart; it assumes one
// change, from recovering to not, as the value grows. recovers is asked
// of each value tried: RecoversAt is the simulator's answer for one
// parameter (a page runs it in slices: ThresholdRun).
func Threshold(lo, hi, step float64, recovers func(v float64) (bool, error)) (Bisection, error) {
	s, err := newBisector(lo, hi, step)
	if err != nil {
		return Bisection{}, err
	}
	for {
		v, more := s.next()
		if !more {
			return s.b, nil
		}
		ok, err := recovers(v)
		if err != nil {
			return s.b, err
		}
		s.tell(ok)
	}
}

// bisector is Threshold's search one value at a time: next is the value
// to try, tell its answer; the same values in the same order whoever
// runs them.
type bisector struct {
	lo, hi, step float64
	b            Bisection
	v            float64 // the value being tried
	halvings     int
	done         bool
}

func newBisector(lo, hi, step float64) (*bisector, error) {
	if !(lo <= hi) || !(step > 0) || math.IsInf(hi-lo, 0) {
		return nil, &backoff.FieldError{Field: "threshold", Value: fmt.Sprintf("%s:%s:%s", backoff.FormatShort(lo, -1), backoff.FormatShort(hi, -1), backoff.FormatShort(step, -1)),
			Allowed: "LO:HI:STEP with finite LO <= HI and STEP > 0"}
	}
	return &bisector{lo: lo, hi: hi, step: step, b: Bisection{Lo: math.NaN(), Hi: math.NaN()}, v: lo}, nil
}

// next is the value to try, and false once the search is over.
func (s *bisector) next() (float64, bool) { return s.v, !s.done }

// tell takes whether the value next gave recovered.
func (s *bisector) tell(ok bool) {
	b := &s.b
	b.Tried = append(b.Tried, BisectionStep{s.v, ok})
	switch len(b.Tried) {
	case 1: // the low end
		if !ok {
			b.Hi, b.Below, s.done = s.lo, true, true
			return
		}
		s.v = s.hi
		return
	case 2: // the high end
		if ok {
			b.Lo, b.Above, s.done = s.hi, true, true
			return
		}
		b.Lo, b.Hi = s.lo, s.hi
	default:
		if ok {
			b.Lo = s.v
		} else {
			b.Hi = s.v
		}
		s.halvings++
	}
	mid := b.Lo + (b.Hi-b.Lo)/2
	// The float64 resolution ends it too: nothing between them.
	if s.halvings >= MaxBisectionSteps || b.Hi-b.Lo <= s.step || mid == b.Lo || mid == b.Hi {
		s.done = true
		return
	}
	s.v = mid
}

// ThresholdRun is Threshold over RecoversAt in slices, for a page: each
// value tried is a Many of runs seeds, and values whose answer is known
// already (a sweep's own rows, Know) are not run again. Its Bisection is
// Threshold's with RecoversAt, whatever the slices.
type ThresholdRun struct {
	c     Config
	name  string
	seed  uint64
	runs  int
	s     *bisector
	known map[float64]bool
	cur   *Many
	err   error
}

// NewThresholdRun is the search for c's threshold in parameter name over
// [lo, hi] to within step, not begun.
func NewThresholdRun(c Config, name string, lo, hi, step float64, seed uint64, runs int) (*ThresholdRun, error) {
	if runs < 1 || runs > MaxRuns {
		return nil, backoff.CheckInt("runs", runs, 1, MaxRuns)
	}
	s, err := newBisector(lo, hi, step)
	if err != nil {
		return nil, err
	}
	return &ThresholdRun{c: c, name: name, seed: seed, runs: runs, s: s, known: map[float64]bool{}}, nil
}

// Know records that value v recovered or not (in at least half its runs
// with the same seeds), so the search does not run it again.
func (t *ThresholdRun) Know(v float64, recovered bool) { t.known[v] = recovered }

// Advance handles at most maxEvents events of the value being tried and
// reports whether the search is over (done, or stopped by an error).
func (t *ThresholdRun) Advance(maxEvents int) bool {
	for t.err == nil {
		v, more := t.s.next()
		if !more {
			return true
		}
		if ok, known := t.known[v]; known {
			t.s.tell(ok)
			continue
		}
		if t.cur == nil {
			c := t.c
			if err := SetSweep(&c, t.name, strconv.FormatFloat(v, 'g', 10, 64)); err != nil {
				t.err = err
				return true
			}
			m, err := NewMany(c, t.seed, t.runs)
			if err != nil {
				t.err = err
				return true
			}
			t.cur = m
		}
		if !t.cur.Advance(maxEvents) {
			return false
		}
		sum, err := t.cur.Summary()
		t.cur = nil
		if err != nil {
			t.err = err
			return true
		}
		if err := recoverable(sum, t.name); err != nil {
			t.err = err
			return true
		}
		t.s.tell(sum.Mean.Recovered >= 0.5)
		return false // one value per call at most: progress shows
	}
	return true
}

// Tried is how many values the search has answered so far.
func (t *ThresholdRun) Tried() int { return len(t.s.b.Tried) }

// Result is the search's outcome once Advance has reported it over.
func (t *ThresholdRun) Result() (Bisection, error) { return t.s.b, t.err }

// RecoversAt runs c with parameter name set to v (seeds seed..
// seed+runs-1) and reports whether at least half the runs recovered; a
// run whose recovery does not apply (no fault, closed traffic) is an
// error naming the parameter.
func RecoversAt(c Config, name string, v float64, seed uint64, runs int) (bool, error) {
	if err := SetSweep(&c, name, strconv.FormatFloat(v, 'g', 10, 64)); err != nil {
		return false, err
	}
	s, err := RunMany(c, seed, runs) // checks c
	if err != nil {
		return false, err
	}
	if err := recoverable(s, name); err != nil {
		return false, err
	}
	return s.Mean.Recovered >= 0.5, nil
}

// recoverable is the error for a summary whose runs cannot recover, the
// parameter searched named.
func recoverable(s *Summary, name string) error {
	if s.First.Totals.Recovery == "" {
		return &backoff.FieldError{Field: "threshold", Value: name,
			Allowed: "a run that can recover: open or loop traffic, a fault, and time after it"}
	}
	return nil
}

// SweepRow is one cell's runs summarised: its value and jitter, the
// means and spreads of the totals, and the first run's recovery ("" when
// it does not apply).
type SweepRow struct {
	Value, Jitter string
	Mean, SD      MeanTotals
	Recovery      string
	// Truncated counts the cell's runs cut short (Summary.Truncated).
	Truncated int
}

// SweepCost is the estimated work of runs seeds of each cell, in calls
// as EstimateCalls counts them, a request-level call RequestCallCost
// times, and the first run's timeline buckets (BinCallCost each): what a
// caller bounds before a sweep starts.
func SweepCost(cells []SweepCell, runs int) float64 {
	var n float64
	for _, cell := range cells {
		c := cell.Config
		calls := EstimateCalls(c)
		if c.RequestLevel() {
			calls *= RequestCallCost
		}
		n += calls*float64(runs) + float64(EstimateBuckets(c)*BinCallCost)
	}
	return n
}

// SweepRun runs a sweep's cells one after another, runs seeds each, in
// slices: the page's sweep panel. Its rows are RunMany's for each cell,
// whatever the slices.
type SweepRun struct {
	cells []SweepCell
	seed  uint64
	runs  int
	i     int   // the cell going on
	cur   *Many // nil between cells
	rows  []SweepRow
	err   error
}

// NewSweepRun is cells' runs, seeds seed..seed+runs-1 each, not begun.
func NewSweepRun(cells []SweepCell, seed uint64, runs int) (*SweepRun, error) {
	if runs < 1 || runs > MaxRuns {
		return nil, backoff.CheckInt("runs", runs, 1, MaxRuns)
	}
	return &SweepRun{cells: cells, seed: seed, runs: runs, rows: make([]SweepRow, 0, len(cells))}, nil
}

// Advance handles at most maxEvents events of the current cell's run,
// going on to the next cell when one ends, and reports whether the sweep
// is over (done, or stopped by an error).
func (s *SweepRun) Advance(maxEvents int) bool {
	if s.err != nil || s.i >= len(s.cells) {
		return true
	}
	if s.cur == nil {
		m, err := NewMany(s.cells[s.i].Config, s.seed, s.runs)
		if err != nil {
			s.err = err
			return true
		}
		s.cur = m
	}
	if !s.cur.Advance(maxEvents) {
		return false
	}
	sum, err := s.cur.Summary()
	if err != nil {
		s.err = err
		return true
	}
	c := s.cells[s.i]
	s.rows = append(s.rows, SweepRow{c.Value, c.Jitter, sum.Mean, sum.SD, sum.First.Totals.Recovery, sum.Truncated})
	s.cur = nil
	s.i++
	return s.i >= len(s.cells)
}

// Progress is the share of the cells done, the current one's part in it.
func (s *SweepRun) Progress() float64 {
	if len(s.cells) == 0 || s.i >= len(s.cells) {
		return 1
	}
	p := float64(s.i)
	if s.cur != nil {
		p += s.cur.Progress()
	}
	return p / float64(len(s.cells))
}

// Rows are the cells finished so far, in order; Err is what stopped the
// sweep, if anything.
func (s *SweepRun) Rows() []SweepRow { return s.rows }
func (s *SweepRun) Err() error       { return s.err }
