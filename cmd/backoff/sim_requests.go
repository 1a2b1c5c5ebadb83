package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The request-level side of 'backoff sim' (sim.Config.RequestLevel): open
// and loop traffic, the queue server, timeouts, faults, hedging.

// requestCost is what a request-level call counts for against
// maxJobCalls (sim.RequestCallCost).
const requestCost = sim.RequestCallCost

// describeTraffic is who calls, in words.
func describeTraffic(c sim.Config) string {
	d := func(name string) string { return c.Get(name) }
	switch c.Traffic {
	case sim.Open:
		return fmt.Sprintf("open traffic of %s requests/s for %s", num(c.Rate), d(sim.ParamDuration))
	case sim.Loop:
		s := "a loop of " + plural(c.Callers, "caller")
		if c.Think > 0 {
			s += " thinking " + backoff.FormatDuration(c.Think)
		}
		return s + " for " + d(sim.ParamDuration)
	}
	return fmt.Sprintf("%d clients, arrival %s", c.Clients, d(sim.ParamArrival))
}

// describeServer is the server, in words.
func describeServer(c sim.Config) string {
	s := describeOneServer(c)
	if c.Servers > 1 {
		s = fmt.Sprintf("%d servers behind %s, each a %s", c.Servers, c.Balance, strings.TrimPrefix(s, "server "))
		if c.PerServer != "" {
			s += " but server " + strings.ReplaceAll(strings.ReplaceAll(c.PerServer, ";", ", server "), ":", " with ")
		}
		if c.RetryOther {
			s += ", retries to another server"
		}
	}
	if c.CacheKeys > 0 {
		keys := "uniform"
		if c.CacheZipf > 0 {
			keys = "Zipf " + num(c.CacheZipf)
		}
		s = fmt.Sprintf("a %s cache of %d keys (%s), ttl %s, in front of %s", c.Get(sim.ParamCacheStart), c.CacheKeys, keys,
			c.Get(sim.ParamCacheTTL), s)
	}
	return s
}

// describeOneServer is one server of the model, in words: its own.
func describeOneServer(c sim.Config) string { return c.Server.Model().Describe(&c) }

// describeRequests is the request-level parts of the scenario, in words.
func describeRequests(c sim.Config) string {
	var parts []string
	if c.Timeout > 0 {
		s := "timeout " + c.Get(sim.ParamTimeout)
		if c.DropExpired {
			s += " (expired calls dropped)"
		}
		parts = append(parts, s)
	}
	if c.ErrorRate > 0 {
		parts = append(parts, "error rate "+c.Get(sim.ParamErrorRate))
	}
	if c.Faults[0].Kind != sim.NoFault {
		parts = append(parts, "faults "+c.Get(sim.ParamFault))
	}
	if c.Hedge.On() {
		s := "hedge " + c.Get(sim.ParamHedge)
		if c.HedgeCancel {
			s += " (cancelled)"
		}
		parts = append(parts, s)
	}
	if c.BudgetScope != sim.SharedScope {
		parts = append(parts, "a budget per caller")
	}
	if c.Layers > 1 {
		s := c.Get(sim.ParamLayers) + " layers, attempts " + c.Get(sim.ParamLayerAttempts)
		if c.RetryAt == sim.RetryTop {
			s += ", retried at the top only"
		}
		if c.LayerTimeout.Any() {
			s += ", layer timeout " + c.Get(sim.ParamLayerTimeout)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// faultWords names a fault kind as a sentence does.
var faultWords = map[sim.FaultKind]string{
	sim.FaultOutage: "the outage", sim.FaultStall: "the stall", sim.FaultErrors: "the errors",
	sim.FaultSlow: "the slowdown", sim.FaultCapacity: "the loss of capacity", sim.FaultCrash: "the crash",
	sim.FaultFlush: "the flush",
}

// verdict words sim.VerdictOf: whether the run recovered from its last
// fault, and if not what holds it down: "did not recover after the stall:
// retries hold the offered load at 1.9x capacity". "" when recovery does
// not apply.
func verdict(c sim.Config, r *sim.Result) string {
	v, ok := sim.VerdictOf(c, r)
	if !ok {
		return ""
	}
	what := faultWords[v.Fault]
	switch {
	case v.RecoveredAt != nil:
		return fmt.Sprintf("recovered %s after %s ended (at %s)", backoff.FormatSeconds(*v.RecoveredAt-v.End), what,
			backoff.FormatSeconds(*v.RecoveredAt))
	case v.Load == 0:
		return "did not recover after " + what
	case v.RetriesHold:
		return fmt.Sprintf("did not recover after %s: retries hold the offered load at %.1fx capacity", what, v.Load)
	}
	return fmt.Sprintf("did not recover after %s: the offered load is %.2fx capacity", what, v.Load)
}

// writeRequestTotals writes a request-level run's totals (means over runs
// with their spread).
func writeRequestTotals(w io.Writer, c sim.Config, s *sim.Summary) {
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
	f3 := func(v float64) string { return fmt.Sprintf("%.4f", v) }
	pct := percent
	perS := func(v float64) string { return fmt.Sprintf("%.1f/s", v) }
	line := func(label, value, note string) {
		fmt.Fprintf(w, "%-12s %s", label, value)
		if note != "" {
			fmt.Fprintf(w, "  %s", note)
		}
		fmt.Fprintln(w)
	}
	line("requests", pm(m.Requests, sd.Requests, count), "")
	calls := "(" + pm(m.Amplification, sd.Amplification, two) + " per request"
	if m.Hedges > 0 {
		calls += ", " + pm(m.Hedges, sd.Hedges, count) + " hedges: " + pct(m.HedgeLoad) + " more load"
	}
	line("calls", pm(m.Calls, sd.Calls, count), calls+")")
	line("succeeded", pm(m.Succeeded, sd.Succeeded, count), "("+pm(m.SuccessRatio, sd.SuccessRatio, pct)+")")
	line("gave up", pm(m.GaveUp, sd.GaveUp, count), "")
	if m.Unfinished > 0 {
		line("unfinished", pm(m.Unfinished, sd.Unfinished, count), unfinishedNote(s.First))
	}
	line("goodput", pm(m.GoodputPerS, sd.GoodputPerS, perS), "throughput "+pm(m.ThroughputPerS, sd.ThroughputPerS, perS)+" (calls served)")
	var fails []string
	for _, x := range []struct {
		name string
		v    float64
	}{{"refused", m.Refused}, {"errors", m.Errors}, {"outage", m.OutageFails}, {"timed out", m.Timeouts},
		{"throttled", m.Throttled}, {"blocked", m.Blocked}, {"dropped", m.Dropped}, {"cancelled", m.Cancelled}} {
		if x.v > 0 {
			fails = append(fails, x.name+" "+count(x.v))
		}
	}
	if len(fails) > 0 && fails[0] == "refused "+count(m.Refused) {
		var by []string
		if m.Limited > 0 {
			by = append(by, count(m.Limited)+" 429s of the admission rule")
		}
		if m.Shed > 0 {
			by = append(by, count(m.Shed)+" shed by the queue")
		}
		if m.Expired > 0 {
			by = append(by, count(m.Expired)+" past their deadline")
		}
		if len(by) > 0 {
			fails[0] += " (" + strings.Join(by, ", ") + ")"
		}
	}
	if len(fails) > 0 {
		line("calls failed", strings.Join(fails, ", "), "")
	}
	q := m.Latency
	line("latency", fmt.Sprintf("p50 %s  p95 %s  p99 %s  p99.9 %s  max %s", f(q.P50), f(q.P95), f(q.P99), f(q.P999), f(q.Max)),
		"(first call to success)")
	if c.Server.Traits().Waits == sim.WaitQueue {
		line("queue wait", pm(m.QueueWait, sd.QueueWait, f), "(mean, before a worker took the call)")
	}
	if m.WastedWork > 0 {
		line("wasted", pm(m.WastedWork, sd.WastedWork, f), "of server work for callers that had stopped waiting")
	}
	if c.Server.Traits().Waits == sim.WaitMedium {
		line("channel", fmt.Sprintf("G %s  S %s", pm(m.OfferedLoad, sd.OfferedLoad, f3), pm(m.ChannelThroughput, sd.ChannelThroughput, f3)),
			"(transmissions per frame time; the share of time carrying frames that got through)")
		line("collisions", pm(m.Collisions, sd.Collisions, count), "transmissions lost")
	}
	if ps := s.First.Totals.PerServer; ps != nil {
		// A topology's names label its servers; else their numbers.
		names, w := c.ServerNodeNames(), 3
		if c.Names == "" {
			for k := range names {
				names[k] = strconv.Itoa(k + 1)
			}
		}
		for _, n := range names {
			w = max(w, len(n)+1)
		}
		line("servers", fmt.Sprintf("%-*s%7s %7s %8s %7s %5s %10s %5s %12s", w, "#", "served", "/s", "refused", "errors", "down",
			"timed out", "lost", "utilization"), "(first run)")
		for k, v := range ps {
			line("", fmt.Sprintf("%-*s%7d %7.1f %8d %7d %5d %10d %5d %11.1f%%", w, names[k], v.Served, v.ThroughputPerS,
				v.Refused, v.Errors, v.Outage, v.Timeouts, v.Lost, 100*v.Utilization), "")
		}
	}
	if c.CacheKeys > 0 {
		line("cache", fmt.Sprintf("hits %s  misses %s  hit ratio %s", pm(m.Hits, sd.Hits, count), pm(m.Misses, sd.Misses, count),
			pm(m.HitRatio, sd.HitRatio, pct)), "stored "+pm(m.Stored, sd.Stored, count)+" (answers OK within the caller's timeout)")
	}
	if c.Layers > 1 {
		per := make([]string, len(m.CallsPerRequestByLayer))
		for k, v := range m.CallsPerRequestByLayer {
			per[k] = two(v)
		}
		line("by layer", strings.Join(per, ", "), "calls per request, top first (the last is the server's)")
		if m.OrphanCalls > 0 || m.LayerTimeouts > 0 {
			line("orphans", pm(m.OrphanCalls, sd.OrphanCalls, count), "calls at the bottom after a layer above had stopped waiting ("+
				count(m.LayerTimeouts)+" layer timeouts)")
		}
		if a := s.First.Totals.Answer; a != nil {
			line("answer", fmt.Sprintf("p50 %s  p99 %s  max %s", f(a.P50), f(a.P99), f(a.Max)), "(a top-level request's start to its answer, success or not; first run)")
		}
	}
	if v := verdict(c, s.First); v != "" {
		if s.Runs > 1 {
			v = fmt.Sprintf("%s (first run; %s of runs recovered)", v, pct(m.Recovered))
		}
		line("verdict", v, "")
	}
}

// requestColumns are the timeline CSV's request-level columns.
var requestColumns = []string{"requests", "goodput", "served", "refused", "errors", "outage", "timeouts", "throttled",
	"hedges", "queue", "busy", "latency_p50_s", "latency_p99_s", "wasted_work_s"}

func requestCells(b sim.Bucket) []string {
	i := strconv.Itoa
	return []string{i(b.Requests), i(b.Goodput), i(b.Served), i(b.Refused), i(b.Errors), i(b.Outage), i(b.Timeouts),
		i(b.Throttled), i(b.Hedges), i(b.Queue), i(b.Busy), num(b.LatencyP50), num(b.LatencyP99), num(b.WastedWork)}
}

// sweepRequestColumns are a sweep's request-level columns.
var sweepRequestColumns = []string{"requests", "goodput_per_s", "throughput_per_s", "success_ratio", "timeouts", "wasted_work_s",
	"latency_p50_s", "latency_p95_s", "latency_p99_s", "latency_p999_s", "hedges", "recovered_at_s", "recovered"}

func sweepRequestCells(t sim.MeanTotals) []string {
	q := t.Latency
	rec := ""
	if t.RecoveredAt != nil {
		rec = num(*t.RecoveredAt)
	}
	return []string{num(t.Requests), num(t.GoodputPerS), num(t.ThroughputPerS), num(t.SuccessRatio), num(t.Timeouts),
		num(t.WastedWork), num(q.P50), num(q.P95), num(q.P99), num(q.P999), num(t.Hedges), rec, num(t.Recovered)}
}

// anyRequestLevel reports whether a sweep has a request-level row.
func anyRequestLevel(rows []sweepRow) bool {
	for _, r := range rows {
		if r.Totals.RequestLevel {
			return true
		}
	}
	return false
}

// recoveredText is a sweep row's recovery: "-" when it does not apply,
// "never", or when (with the share of runs that recovered).
func recoveredText(r sweepRow, runs int) string {
	t := r.Totals
	switch {
	case r.recovery == "":
		return "-"
	case t.RecoveredAt == nil:
		return "never"
	case runs > 1:
		return fmt.Sprintf("%s (%.0f%%)", backoff.FormatSeconds(*t.RecoveredAt), 100*t.Recovered)
	}
	return backoff.FormatSeconds(*t.RecoveredAt)
}

// faultJSON is a fault in the JSON output.
// faultJSON is a fault: its argument null for the kinds that take none,
// its servers (numbered from 1) null for every server.
type faultJSON struct {
	Kind    string   `json:"kind"`
	Arg     *float64 `json:"arg"`
	Start   float64  `json:"start_s"`
	End     float64  `json:"end_s"`
	Servers []int    `json:"servers"`
}

// faultsJSON is fs in JSON, [] for none.
func faultsJSON(fs []sim.Fault) []faultJSON {
	out := []faultJSON{}
	for _, f := range fs {
		j := faultJSON{Kind: f.Kind.String(), Start: f.Start.Seconds(), End: f.End.Seconds()}
		if f.Kind.HasArg() {
			j.Arg = &f.Arg
		}
		for k := range sim.MaxServers {
			if f.Servers&(1<<k) != 0 {
				j.Servers = append(j.Servers, k+1)
			}
		}
		out = append(out, j)
	}
	return out
}

// cacheColumns are the timeline CSV's columns of a run with a cache.
var cacheColumns = []string{"hits", "misses", "hit_ratio"}

// writeRequestTimelineCSV is writeTimelineCSV with the request-level
// columns, and the cache's when c has one.
func writeRequestTimelineCSV(w io.Writer, c sim.Config, r *sim.Result) error {
	cw := csv.NewWriter(w)
	head := append([]string{"start_s", "calls", "retries", "ok", "rejected", "blocked", "waiting"}, requestColumns...)
	if c.CacheKeys > 0 {
		head = append(head, cacheColumns...)
	}
	cw.Write(head)
	for _, b := range r.Timeline {
		row := append([]string{num(b.Start), strconv.Itoa(b.Calls), strconv.Itoa(b.Retries), strconv.Itoa(b.OK),
			strconv.Itoa(b.Rejected), strconv.Itoa(b.Blocked), strconv.Itoa(b.Waiting)}, requestCells(b)...)
		if c.CacheKeys > 0 {
			row = append(row, strconv.Itoa(b.Hits), strconv.Itoa(b.Misses), num(b.HitRatio))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// percent prints a share with one decimal, or as many more as it takes
// (up to six) not to round a share short of all to 100.0% or one above
// none to 0.0%: 49,999,503 of 50,000,000 printed "100.0%" beside 497
// unfinished.
func percent(v float64) string {
	for d := 1; ; d++ {
		s := strconv.FormatFloat(100*v, 'f', d, 64)
		if r, _ := strconv.ParseFloat(s, 64); d == 6 || !(r == 100 && v < 1) && !(r == 0 && v > 0) {
			return s + "%"
		}
	}
}
