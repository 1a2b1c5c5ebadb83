//go:build !wasm

package app

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// What the server draws from a page's query, with the page's own code and
// the page's bounds on work: the charts as standalone SVG images (for a
// Markdown page) and the policy (for /export). Server only: the page draws
// its own downloads.

// ImageKinds are the images the server draws: /svg/<kind>.svg.
var ImageKinds = ImageKindsPage

// ErrUnknownImage is the error for a kind not in ImageKinds.
var ErrUnknownImage = errors.New("no such image")

// CanonicalQuery is the query of the state raw describes, in the page's
// order: two queries that draw the same picture have the same canonical
// query (a cache key).
func CanonicalQuery(raw string) string {
	s, _ := parseQuery(raw)
	return s.query()
}

// PolicyFromQuery is the policy a page query describes (its notices are
// the page's: bad keys are ignored).
func PolicyFromQuery(raw string) backoff.Policy {
	s, _ := parseQuery(raw)
	return s.Policy
}

// QueryTable is the delay table of the state raw describes, made as the
// page makes it (its seed, its Monte Carlo budget), and the state's
// language: what the page's table, its Markdown and CSV copies and every
// image start from.
func QueryTable(raw string) (*backoff.Table, i18n.Lang, error) {
	s, _ := parseQuery(raw)
	l, _ := i18n.Parse(s.Lang)
	t, err := backoff.NewTableWith(s.Policy, backoff.NewRand(s.Seed), tableBudget)
	return t, l, err
}

// QueryErrorText is err worded for a person, in the language of the page
// query raw (English by default): what the server answers a bad image or
// export link with.
func QueryErrorText(raw string, err error) string {
	s, _ := parseQuery(raw)
	l, _ := i18n.Parse(s.Lang)
	return errText(l, err, "")
}

// QueryProblem is the first value of raw the page would have to ignore (a
// bad number, an unknown key), worded in raw's language, or "". The page
// shows these and goes on with its defaults; an image or a snippet
// silently drawn from the defaults would look right and be wrong, so the
// server refuses them.
func QueryProblem(raw string) string {
	s, notes := parseQuery(raw)
	l, _ := i18n.Parse(s.Lang)
	for _, n := range notes {
		if !n.Kept {
			return n.text(l)
		}
	}
	return ""
}

// ChartSVG draws one image of the state raw describes, in its language
// (English by default) and theme (auto by default). A herd runs under the
// page's bound on calls for its runs, the compare runs under the compare
// panel's, so one request costs at most what the page spends.
func ChartSVG(kind, raw string) (string, error) {
	s, _ := parseQuery(raw)
	theme := s.Theme
	if theme == "" {
		theme = "auto"
	}
	t, l, err := QueryTable(raw)
	if err != nil {
		return "", err
	}
	var svg string
	switch kind {
	case "table":
		svg = chart.TableSVG(l, t)
	case "delays":
		svg, _ = chart.Delays(l, chart.DelaySeries{T: t, S: chart.SampleClients(t.Policy, len(t.Rows), s.Seed)}, nil, s.Log)
	case "herd":
		cfg := herdImageConfig(&s)
		out := &herdOut{}
		var runner sim.Runner // the runs share one run's memory
		for k := range s.Herd.Runs {
			c := cfg
			if k > 0 {
				c.Bucket = backoff.Seconds(out.first.BucketWidth)
			}
			r, err := runner.Run(c, s.Seed+uint64(k))
			if err != nil {
				return "", err
			}
			out.add(r)
		}
		svg = herdImage(l, cfg, out)
	case "compare":
		var series []chart.Series
		var titles []string
		var runner sim.Runner
		for i, c := range compareImageConfigs(&s) {
			r, err := runner.Run(c, s.Seed)
			if err != nil {
				continue // a kind this policy cannot use (decorrelated without a base)
			}
			series = append(series, chart.SeriesOf(r))
			titles = append(titles, l.F("chart.small", kindName(l, compareKinds[i])))
		}
		svg = chart.Grid(l, series, titles, l.T("compare.head"))
	default:
		return "", ErrUnknownImage
	}
	return chart.Standalone(svg, theme), nil
}

// herdImageConfig is the herd image's run: the page's herd under the
// page's bound on calls for its runs.
func herdImageConfig(s *state) sim.Config {
	var h herdRunner
	cfg := s.Herd.config(s.Policy)
	h.bound(&cfg, s.Herd.Runs)
	return cfg
}

// compareImageConfigs are the compare image's runs, one per compareKinds,
// under the compare panel's bound.
func compareImageConfigs(s *state) []sim.Config {
	var h herdRunner
	cfg := s.Herd.config(s.Policy)
	h.share(&cfg, 1-herdShare, len(compareKinds))
	out := make([]sim.Config, len(compareKinds))
	for i, k := range compareKinds {
		out[i] = cfg
		out[i].Policy = comparePolicy(cfg.Policy, k)
	}
	return out
}

// ImageMemory bounds the bytes one ChartSVG(kind, raw) holds at once, for
// a server to run drawings within a memory budget. A herd's runs (and the
// compare's) follow one another on one sim.Runner's memory, which each
// takes when it starts, so the most held at once is the biggest run's
// (sim.EstimateMemory), whatever the calls' bound, plus the delay table
// every image starts from. A table, its delays and an export snippet (any
// other kind) hold at most tableMemory (TestImageMemory).
func ImageMemory(kind, raw string) int64 {
	s, _ := parseQuery(raw)
	var m int64
	for _, c := range imageRuns(kind, &s) {
		m = max(m, sim.EstimateMemory(c))
	}
	return tableMemory(s.Policy) + m
}

// ImageFits reports whether ChartSVG(kind, raw) fits in budget bytes by
// ImageMemory: nil, or the *backoff.FieldError (backoff.CodeMemory) of
// the biggest of its runs, naming what sets its size (clients, most
// often) and the most it may be.
func ImageFits(kind, raw string, budget int64) error {
	s, _ := parseQuery(raw)
	left := budget - tableMemory(s.Policy)
	var worst error
	var most int64
	for _, c := range imageRuns(kind, &s) {
		if m := sim.EstimateMemory(c); m > left && m > most {
			worst, most = sim.FitMemory(c, left), m
		}
	}
	if fe, ok := worst.(*backoff.FieldError); ok {
		// The budget asked for, not the runs' part of it.
		fe.Args[1] = strconv.FormatInt(budget>>20, 10)
		fe.Allowed = fmt.Sprintf("at most %s, for an image within %s MB", fe.Args[0], fe.Args[1])
	}
	return worst
}

// imageRuns are the simulation runs an image of kind makes (one config
// for all the herd's runs).
func imageRuns(kind string, s *state) []sim.Config {
	switch kind {
	case "herd":
		return []sim.Config{herdImageConfig(s)}
	case "compare":
		return compareImageConfigs(s)
	}
	return nil
}

// tableMemory bounds what p's delay table (under tableBudget) and its
// charts allocate: 8.2 MB measured for 1000 decorrelated rows, 2.5 MB for 50: a
// row's Monte Carlo and its points taking most of it.
func tableMemory(p backoff.Policy) int64 {
	rows := p.Attempts
	if rows <= 0 {
		rows = backoff.MaxAttempts // no limit: the deadline ends the table
	}
	return 3<<20 + int64(rows)*9<<10
}
