//go:build !wasm

package app

import (
	"errors"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// What the server draws from a page's query, with the page's own code and
// the page's bounds on work: the charts as standalone SVG images (for a
// Markdown page) and the policy (for /export). Server only: the page draws
// its own downloads.

// ImageKinds are the images the server draws, /svg/<kind>.svg: the views
// it has a drawing for (serverImages), in the views' order.
var ImageKinds = imageKinds()

func imageKinds() []string {
	var out []string
	for _, v := range views {
		if _, ok := serverImages[v]; ok {
			out = append(out, v)
		}
	}
	return out
}

// ErrUnknownImage is the error for a kind not in ImageKinds.
var ErrUnknownImage = errors.New("no such image")

// CanonicalQuery is the query of the state raw describes, in the page's
// order: two queries that draw the same picture have the same canonical
// query (a cache key). The page's open panels (export=, embed=) draw
// nothing and are left out.
func CanonicalQuery(raw string) string {
	s, _ := parseQuery(raw)
	c := s.content()
	return c.query()
}

// PolicyFromQuery is the policy a page query describes (its notices are
// the page's: bad keys are ignored).
func PolicyFromQuery(raw string) backoff.Policy {
	s, _ := parseQuery(raw)
	return s.Policy
}

// HerdFromQuery is the simulation a page query describes, its policy
// included (the server's /export reads its timeout and budget).
func HerdFromQuery(raw string) sim.Config {
	s, _ := parseQuery(raw)
	c := s.Herd.Config
	c.Policy = s.Policy
	return c
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
	return sweepErrText(l, err)
}

// ImageRefusal is why the server would not answer kind for the page
// query raw, worded in raw's language, or "": a value the page would
// ignore (the page notes these and goes on with its defaults, but an
// image or a snippet silently drawn from them would look right and be
// wrong), or more memory than budget (ImageFits).
func ImageRefusal(kind, raw string, budget int64) string {
	s, notes := parseQuery(raw)
	l, _ := i18n.Parse(s.Lang)
	for _, n := range notes {
		if !n.Kept {
			return n.refusal(l)
		}
	}
	if err := imageFits(kind, &s, budget); err != nil {
		return errText(l, err, "")
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
	draw, ok := serverImages[kind]
	if !ok {
		return "", ErrUnknownImage
	}
	svg, err := draw(l, &s, t)
	if err != nil {
		return "", err
	}
	return chart.Standalone(svg, theme), nil
}

// serverImages draw each view that is a picture (viewDraws) from a link's
// state s and its table t, as the page draws it; the runs a drawing makes
// are its view's (viewDraw.runs), whose memory is bounded first.
var serverImages = map[string]func(l i18n.Lang, s *state, t *backoff.Table) (string, error){
	"table": func(l i18n.Lang, s *state, t *backoff.Table) (string, error) {
		return chart.TableSVG(l, t), nil
	},
	"delays": func(l i18n.Lang, s *state, t *backoff.Table) (string, error) {
		svg, _, _ := drawDelays(l, t, nil, s.Seed, s.Log)
		return svg, nil
	},
	"herd":    herdServerImage,
	"compare": compareServerImage,
	"sweep":   sweepServerImage,
	"flow":    flowServerImage,
}

// flowServerImage plays the first seconds of the flow view's run, drawn
// as the page's download draws it; it keeps only the calls it draws.
func flowServerImage(l i18n.Lang, s *state, _ *backoff.Table) (string, error) {
	c := flowImageConfig(s)
	sm, err := sim.New(c, s.Seed)
	if err != nil {
		return "", err
	}
	rec := &sim.FlowRecorder{Before: flowSVGSeconds + 1, Max: flowSVGSamples} // a picture draws no more
	sm.SetTracer(rec)
	for !sm.Advance(1 << 20) {
	}
	r := sm.Result()
	if r.FullAt > 0 {
		return "", errFull(c, r.FullAt)
	}
	f := rec.Flow(r.Totals.Makespan)
	return flowAnimated(l, f, layoutOf(f, c, r))
}

// sweepServerImage runs the link's sweep to the end, under the page's
// bound on a sweep's calls, and draws it as the page does; a link
// without a sweep draws the empty chart.
func sweepServerImage(l i18n.Lang, s *state, _ *backoff.Table) (string, error) {
	if s.Sweep.Spec == "" {
		return chart.Sweep(l, nil, "", l.T("view.sweep"), nil, nil, false), nil
	}
	j, err := sweepOf(s)
	if err != nil {
		return "", err
	}
	for !j.Advance(1 << 20) {
	}
	if j.err != nil {
		return "", j.err
	}
	return j.picture(l), nil
}

func herdServerImage(l i18n.Lang, s *state, _ *backoff.Table) (string, error) {
	cfg := herdImageConfig(s)
	out := &herdOut{cfg: cfg}
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
		if r.FullAt > 0 {
			return "", errFull(c, r.FullAt)
		}
		out.add(r)
	}
	return herdImage(l, cfg, out), nil
}

func compareServerImage(l i18n.Lang, s *state, _ *backoff.Table) (string, error) {
	var series []chart.Series
	var titles []string
	var runner sim.Runner
	for i, c := range compareImageConfigs(s) {
		r, err := runner.Run(c, s.Seed)
		if err != nil {
			continue // a kind this policy cannot use (decorrelated without a base)
		}
		if r.FullAt > 0 {
			return "", errFull(c, r.FullAt)
		}
		series = append(series, chart.SeriesOf(c, r))
		titles = append(titles, l.F("chart.small", kindName(l, compareKinds[i])))
	}
	return chart.Grid(l, series, titles, l.T("compare.head")), nil
}
