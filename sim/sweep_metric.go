package sim

// A sweep metric is one result a sweep plots against its values: read
// from a row's mean totals, with its unit; ok is false where the run has
// no such figure (a herd has no goodput per second, a run without a
// fault nothing to recover from). The page's catalog names each one
// (sweep.y.NAME).
type SweepMetric struct {
	Name string
	// Unit: "per-s", "s", "ratio" (calls per request) or "share" (0 to 1).
	Unit string
	Read func(m *MeanTotals) (v float64, ok bool)
}

// SweepMetrics are the results a sweep can plot, in the order a form
// offers them.
var SweepMetrics = []SweepMetric{
	{"goodput", "per-s", func(m *MeanTotals) (float64, bool) { return m.GoodputPerS, m.RequestLevel }},
	// The 99th percentile of a success's time: a request's latency, a
	// herd client's completion.
	{"p99", "s", func(m *MeanTotals) (float64, bool) {
		if m.RequestLevel {
			return m.Latency.P99, m.Succeeded > 0
		}
		return m.Completion.P99, m.Succeeded > 0
	}},
	{"calls", "ratio", func(m *MeanTotals) (float64, bool) { return m.Amplification, m.Clients > 0 }},
	{"wasted", "s", func(m *MeanTotals) (float64, bool) { return m.WastedWork, m.RequestLevel }},
	// The share of the runs that recovered, where recovery applies.
	{"recovered", "share", func(m *MeanTotals) (float64, bool) { return m.Recovered, m.RequestLevel && m.recoverable }},
	// The mean time the runs that recovered took, from the start.
	{"recovery-time", "s", func(m *MeanTotals) (float64, bool) {
		if m.RecoveredAt == nil {
			return 0, false
		}
		return *m.RecoveredAt, true
	}},
}

// SweepMetricNamed is the metric called name, and whether there is one.
func SweepMetricNamed(name string) (SweepMetric, bool) {
	for _, m := range SweepMetrics {
		if m.Name == name {
			return m, true
		}
	}
	return SweepMetric{}, false
}
