package chart

import (
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
)

// The charts' numbers as HTML tables, for those who read a table rather
// than a picture: one row per bucket, from the very series a chart draws
// (Series for the herd, RequestSeries for steady traffic), so the two can
// never disagree. Each cell carries its unrounded value in data-value.

// tableWriter writes one <table> with a caption and column headings.
type tableWriter struct{ strings.Builder }

func (w *tableWriter) open(id, caption string, heads []string) {
	w.WriteString(`<table id="` + id + `" class="numbers-table"><caption>` + html.EscapeString(caption) + `</caption><thead><tr>`)
	for _, h := range heads {
		w.WriteString(`<th scope="col">` + html.EscapeString(h) + `</th>`)
	}
	w.WriteString(`</tr></thead><tbody>`)
}

// row writes a bucket's row: its time as the row's heading, then cells
// of text and their exact values (NaN: none, data-value="").
func (w *tableWriter) row(t string, texts []string, values []float64) {
	w.WriteString(`<tr><th scope="row">` + html.EscapeString(t) + `</th>`)
	for i, s := range texts {
		v := ""
		if !math.IsNaN(values[i]) {
			v = strconv.FormatFloat(values[i], 'g', -1, 64)
		}
		w.WriteString(`<td data-value="` + v + `">` + html.EscapeString(s) + `</td>`)
	}
	w.WriteString(`</tr>`)
}

func (w *tableWriter) close() string {
	w.WriteString(`</tbody></table>`)
	return w.String()
}

// countText is a number of calls as the page writes one: whole, or a mean of
// several runs to one decimal.
func countText(l i18n.Lang, v float64) string {
	if v == math.Trunc(v) {
		return l.Int(int64(v))
	}
	return l.Float(math.Round(v*10)/10, -1)
}

// bucketTime is a bucket's span, "10s–12s".
func bucketTime(l i18n.Lang, i int, width float64) string {
	return l.Seconds(float64(i)*width) + "–" + l.Seconds(float64(i+1)*width)
}

// HerdTable is the herd chart's numbers: per bucket the calls answered,
// succeeded and rejected, the load against the capacity (when the server
// has one), the range over several runs (when there are several), and
// whether the server was down.
func HerdTable(l i18n.Lang, h Series, id, caption string) string {
	heads := []string{l.T("numbers.time"), l.T("numbers.calls"), l.T("numbers.ok"), l.T("numbers.rejected")}
	load := h.Capacity > 0
	if load {
		heads = append(heads, l.T("numbers.load"))
	}
	spread := len(h.Lo) == len(h.OK) && len(h.Hi) == len(h.OK) && len(h.Lo) > 0
	if spread {
		heads = append(heads, l.T("numbers.range"))
	}
	outage := h.OutageEnd > h.OutageStart
	if outage {
		heads = append(heads, l.T("numbers.down"))
	}
	var w tableWriter
	w.open(id, caption, heads)
	texts := make([]string, 0, len(heads)-1)
	values := make([]float64, 0, len(heads)-1)
	for i := range h.OK {
		calls := h.OK[i] + h.Rejected[i]
		texts = append(texts[:0], countText(l, calls), countText(l, h.OK[i]), countText(l, h.Rejected[i]))
		values = append(values[:0], calls, h.OK[i], h.Rejected[i])
		if load {
			texts = append(texts, l.Ratio(calls/h.Capacity))
			values = append(values, calls/h.Capacity)
		}
		if spread {
			texts = append(texts, countText(l, h.Lo[i])+"–"+countText(l, h.Hi[i]))
			values = append(values, math.NaN())
		}
		if outage {
			t0, t1 := float64(i)*h.Width, float64(i+1)*h.Width
			text, v := "", 0.0
			if t0 < h.OutageEnd && t1 > h.OutageStart {
				text, v = l.T("numbers.yes"), 1
			}
			texts, values = append(texts, text), append(values, v)
		}
		w.row(bucketTime(l, i, h.Width), texts, values)
	}
	return w.close()
}

// RequestTable is the request-level charts' numbers: per bucket the
// requests offered, the calls sent and the goodput (per second, as the
// chart draws them), the queue and the busy workers at the bucket's end
// (a queue server's), the latency's p50 and p99 (— when no call was
// answered), the cache's hit ratio (— when no request reached it), and
// whether a fault was on.
func RequestTable(l i18n.Lang, s RequestSeries, id, caption string) string {
	heads := []string{l.T("numbers.time"), l.T("numbers.offered"), l.T("numbers.sent"), l.T("numbers.goodput")}
	queue := s.Workers > 0
	if queue {
		heads = append(heads, l.T("numbers.queue"), l.T("numbers.busy"))
	}
	heads = append(heads, l.T("numbers.p50"), l.T("numbers.p99"))
	cache := s.Hits != nil
	if cache {
		heads = append(heads, l.T("numbers.hit-ratio"))
	}
	faults := len(s.Faults) > 0
	if faults {
		heads = append(heads, l.T("numbers.fault"))
	}
	offered, calls, goodput := s.rate(s.Offered), s.rate(s.Calls), s.rate(s.Goodput)
	rate := func(v float64) string { return l.F("metric.per-s", l.Float(v, 1)) }
	latency := func(v float64) (string, float64) {
		if v <= 0 {
			return "—", math.NaN()
		}
		return l.Seconds(v), v
	}
	var w tableWriter
	w.open(id, caption, heads)
	texts := make([]string, 0, len(heads)-1)
	values := make([]float64, 0, len(heads)-1)
	for i := range s.Offered {
		texts = append(texts[:0], rate(offered[i]), rate(calls[i]), rate(goodput[i]))
		values = append(values[:0], offered[i], calls[i], goodput[i])
		if queue {
			texts = append(texts, countText(l, s.Queue[i]), countText(l, s.Busy[i]))
			values = append(values, s.Queue[i], s.Busy[i])
		}
		for _, v := range []float64{s.P50[i], s.P99[i]} {
			t, x := latency(v)
			texts, values = append(texts, t), append(values, x)
		}
		if cache {
			if n := s.Hits[i] + s.Misses[i]; n > 0 {
				texts, values = append(texts, l.Percent(s.Hits[i]/n, 1)), append(values, s.Hits[i]/n)
			} else {
				texts, values = append(texts, "—"), append(values, math.NaN())
			}
		}
		if faults {
			t0, t1 := float64(i)*s.Width, float64(i+1)*s.Width
			var on []string
			for _, b := range s.Faults {
				if t0 < b.End && t1 > b.Start {
					on = append(on, l.T("fault."+b.Kind))
				}
			}
			texts = append(texts, strings.Join(on, ", "))
			values = append(values, float64(len(on)))
		}
		w.row(bucketTime(l, i, s.Width), texts, values)
	}
	return w.close()
}
