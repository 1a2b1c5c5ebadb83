package app

import (
	"fmt"
	"strconv"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// What an image of the server's holds, here rather than with the drawing
// so that the page's Embed panel can say which Markdown image the server
// would refuse.

// ImageBudget is the memory the server gives one image: with its own
// 40 MB and the answers it keeps it stays under 100 MB whatever the links.
// It is a herd of about 730,000 clients, a queue of 29,000 callers (the
// estimates are upper bounds: real runs hold a quarter to a half of them).
const ImageBudget = 40 << 20

// herdImageConfig is the herd image's run: the page's herd under the
// page's bound on calls for its runs.
func herdImageConfig(s *state) sim.Config {
	var h herdRunner
	cfg := s.Herd.config(s.Policy)
	h.bound(&cfg, s.Herd.Runs)
	boundInFlight(&cfg, s.Policy)
	return cfg
}

// boundInFlight bounds what a request-level run holds (requests in
// flight and queued calls) to what ImageBudget holds: an open run's
// estimate by the rate and the duration would refuse runs that never hold
// a hundredth of it (a queue keeping up), a queue fed by timed-out
// retries grows past its callers, and the run itself says when it fills
// (sim.Result.FullAt).
func boundInFlight(cfg *sim.Config, p backoff.Policy) {
	if cfg.RequestLevel() {
		cfg.MaxInFlight = sim.MaxCallersWithin(*cfg, ImageBudget-tableMemory(p))
	}
}

// flowConfig is the flow view's run of c: the page's bound on calls for
// one run, and on what it holds.
func flowConfig(c sim.Config) sim.Config {
	var h herdRunner
	h.share(&c, 1, 1)
	return c
}

// flowImageConfig is the flow image's run: the view's, holding what an
// image may beside the calls it keeps.
func flowImageConfig(s *state) sim.Config {
	cfg := flowConfig(s.Herd.config(s.Policy))
	if cfg.RequestLevel() {
		cfg.MaxInFlight = sim.MaxCallersWithin(cfg, ImageBudget-tableMemory(s.Policy)-flowRecorderMemory)
	}
	return cfg
}

// flowRecorderMemory bounds what the flow image's recorder holds: at most
// flowSVGSamples calls (a picture draws no more), each with its request's
// entries in two maps, about 200 bytes in all.
const flowRecorderMemory = flowSVGSamples * 200

// compareImageConfigs are the compare image's runs, one per compareKinds,
// under the compare panel's bound.
func compareImageConfigs(s *state) []sim.Config {
	var h herdRunner
	cfg := s.Herd.config(s.Policy)
	h.share(&cfg, 1-herdShare, len(compareKinds))
	boundInFlight(&cfg, s.Policy)
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
	return tableMemory(s.Policy) + viewDraws[kind].held + m
}

// errFull is the error of an image whose run c filled its memory at
// fullAt seconds (sim.FullErr), worded for an image.
func errFull(c sim.Config, fullAt float64) error {
	fe := sim.FullErr(c, fullAt, ImageBudget).(*backoff.FieldError)
	if fe.Field == sim.ParamDuration {
		fe.Value = c.Duration.String() // as the image's answers have written it
	}
	fe.Args = fe.Args[:2]
	fe.Allowed = fmt.Sprintf("at most %s, for an image within %s MB", fe.Args[0], fe.Args[1])
	return fe
}

// ImageFits reports whether ChartSVG(kind, raw) fits in budget bytes by
// ImageMemory: nil, or the *backoff.FieldError (backoff.CodeMemory) of
// the biggest of its runs, naming what sets its size (clients, most
// often) and the most it may be.
func ImageFits(kind, raw string, budget int64) error {
	s, _ := parseQuery(raw)
	return imageFits(kind, &s, budget)
}

// imageFits is ImageFits for the state s: the Embed panel asks of its own
// state on every render, with no query to parse.
func imageFits(kind string, s *state, budget int64) error {
	left := budget - tableMemory(s.Policy) - viewDraws[kind].held
	var worst error
	var most int64
	for _, c := range imageRuns(kind, s) {
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
	if d, ok := viewDraws[kind]; ok && d.runs != nil {
		return d.runs(s)
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
