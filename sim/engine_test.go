package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// reqVariants cover the request-level engine: every traffic, every server
// model but occ, timeouts with and without dropping, faults of each kind,
// error rates, the budgets in both scopes, the breaker and hedging.
var reqVariants = []variant{
	{"open-queue", [][2]string{{"traffic", "open:200"}, {"server", "queue"}, {"concurrency", "30"}, {"duration", "30s"}, {"timeout", "1s"}}},
	{"open-stall", [][2]string{{"traffic", "open:250"}, {"server", "queue"}, {"concurrency", "30"}, {"duration", "30s"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@10s-15s"}}},
	{"open-stall-drop", [][2]string{{"traffic", "open:250"}, {"server", "queue"}, {"concurrency", "30"}, {"duration", "30s"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@10s-15s"}, {"drop-expired", "true"}}},
	{"loop-errors", [][2]string{{"traffic", "loop:20:100ms"}, {"server", "capacity"}, {"error-rate", "0.3"}, {"duration", "20s"}}},
	{"closed-queue-timeout", [][2]string{{"clients", "500"}, {"server", "queue"}, {"timeout", "500ms"}, {"drop-expired", "true"}, {"latency-sd", "0"}}},
	{"open-hedge", [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"concurrency", "20"}, {"service-dist", "lognormal:1"}, {"duration", "20s"}, {"hedge", "p95"}, {"hedge-cancel", "true"}}},
	{"open-hedge-fixed", [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"concurrency", "20"}, {"service-dist", "bimodal:0.05:1s"}, {"duration", "20s"}, {"hedge", "300ms"}, {"timeout", "2s"}}},
	{"open-adaptive-breaker", [][2]string{{"traffic", "open:300"}, {"server", "capacity"}, {"duration", "20s"}, {"budget", "adaptive"}, {"breaker", "consecutive:5:1s"}, {"attempts", "3"}}},
	{"queue-limit", [][2]string{{"traffic", "open:250"}, {"server", "queue"}, {"queue-limit", "50"}, {"service-dist", "fixed"}, {"duration", "20s"}, {"retry-after-s", "1s"}, {"honor-retry-after", "true"}}},
	{"faults-capacity", [][2]string{{"traffic", "open:80"}, {"server", "capacity"}, {"duration", "20s"}, {"fault", "slow:2@5s-10s;capacity:0.5@8s-12s;errors:0.5@12s-14s;outage@15s-16s;stall@17s-18s"}}},
	{"faults-queue", [][2]string{{"traffic", "open:80"}, {"server", "queue"}, {"duration", "20s"}, {"timeout", "2s"}, {"fault", "slow:2@5s-10s;capacity:0.5@8s-12s;errors:0.5@12s-14s;outage@15s-16s;stall@17s-18s"}}},
	{"collapse-open", [][2]string{{"traffic", "open:150"}, {"server", "collapse"}, {"collapse-factor", "2"}, {"duration", "20s"}}},
	{"caller-scope", [][2]string{{"traffic", "loop:50"}, {"server", "capacity"}, {"budget", "tokens:20:5:1"}, {"budget-scope", "caller"}, {"error-rate", "0.5"}, {"duration", "10s"}}},
	{"ratio-budget-open", [][2]string{{"traffic", "open:200"}, {"server", "outage"}, {"budget", "ratio"}, {"duration", "20s"}, {"attempts", "0"}, {"deadline", "30s"}}},
	{"outage-open", [][2]string{{"traffic", "open:50"}, {"duration", "30s"}}},
	{"loop-clock", [][2]string{{"traffic", "loop:100:1s"}, {"arrival", "clock:1s"}, {"server", "queue"}, {"duration", "20s"}, {"jitter", "decorrelated"}}},
	{"closed-errors-deadline", [][2]string{{"clients", "2000"}, {"error-rate", "0.5"}, {"attempts", "0"}, {"deadline", "10s"}, {"server", "capacity"}}},
	{"horizon", [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"concurrency", "5"}, {"duration", "30s"}, {"horizon", "20s"}}},
	{"max-calls", [][2]string{{"traffic", "open:100"}, {"duration", "30s"}, {"max-calls", "500"}}},
	{"chain-stall-budget", [][2]string{{"traffic", "open:100"}, {"server", "queue"}, {"concurrency", "30"}, {"duration", "30s"}, {"timeout", "1s"}, {"fault", "stall@5s-10s"}, {"layers", "3"}, {"layer-attempts", "2"}, {"budget", "tokens:50:5:1"}}},
	{"chain-layer-timeout", [][2]string{{"clients", "300"}, {"server", "capacity"}, {"capacity", "200"}, {"error-rate", "0.5"}, {"layers", "4"}, {"layer-attempts", "3,3,2,2"}, {"layer-timeout", "2s"}}},
	{"channel-aloha", [][2]string{{"traffic", "open:300"}, {"server", "channel"}, {"channel", "aloha"}, {"frame", "1ms"}, {"duration", "10s"}, {"growth", "constant"}, {"base", "20ms"}, {"attempts", "10"}}},
	{"channel-slotted", [][2]string{{"traffic", "open:600"}, {"server", "channel"}, {"channel", "slotted"}, {"frame", "1ms"}, {"duration", "10s"}, {"attempts", "1"}}},
	{"channel-ethernet", [][2]string{{"traffic", "loop:20"}, {"server", "channel"}, {"channel", "ethernet"}, {"frame", "500us"}, {"slot", "50us"}, {"duration", "2s"}, {"growth", "exp-minus-one"}, {"base", "50us"}, {"cap", "51150us"}, {"quantum", "50us"}, {"attempts", "16"}}},
	{"chain-top-breaker", [][2]string{{"traffic", "loop:20"}, {"duration", "20s"}, {"layers", "3"}, {"retry-at", "top"}, {"breaker", "consecutive:5:1s"}, {"attempts", "4"}}},
}

// TestRequestInvariants runs every variant as it is and, for open and
// loop traffic, drained too (Config.Drain): then every request ends and
// every call is accounted for.
func TestRequestInvariants(t *testing.T) {
	for _, v := range reqVariants {
		for _, drain := range []bool{false, true} {
			c := v.config(t)
			if drain && c.Traffic == Closed {
				continue
			}
			c.Drain = drain
			name := v.name
			if drain {
				name += "-drain"
			}
			t.Run(name, func(t *testing.T) { checkRequestInvariants(t, c) })
		}
	}
}

func checkRequestInvariants(t *testing.T, c Config) {
	if !c.RequestLevel() {
		t.Fatal("not request-level")
	}
	r := run(t, c, 7)
	tt := r.Totals
	if !tt.RequestLevel || tt.Requests != tt.Clients || tt.Succeeded+tt.GaveUp+tt.Unfinished != tt.Requests {
		t.Errorf("requests %d clients %d: succeeded %d + gave up %d + unfinished %d", tt.Requests, tt.Clients, tt.Succeeded, tt.GaveUp, tt.Unfinished)
	}
	windowed := c.Traffic != Closed && !c.Drain
	if tt.Unfinished > 0 && !r.Truncated && !windowed {
		t.Errorf("unfinished %d, truncated %v", tt.Unfinished, r.Truncated)
	}
	if r.Truncated != (r.TruncatedBy != "") || r.Truncated != (r.StoppedAt != nil) {
		t.Errorf("truncated %v by %q at %v", r.Truncated, r.TruncatedBy, r.StoppedAt)
	}
	sum := sumTimeline(r.Timeline)
	for k, b := range r.Timeline {
		if !b.req {
			t.Fatalf("bucket %d is not request-level", k)
		}
		if b.Queue < 0 || b.Busy < 0 || b.Busy > c.Concurrency && c.Server == Queue || b.LatencyP50 > b.LatencyP99 {
			t.Errorf("bucket %d: %+v", k, b)
		}
	}
	for _, x := range []struct {
		name      string
		got, want int
	}{
		{"requests", sum.Requests, tt.Requests}, {"goodput", sum.Goodput, tt.Succeeded}, {"calls", sum.Calls, tt.Calls},
		{"blocked", sum.Blocked, tt.Blocked}, {"timeouts", sum.Timeouts, tt.Timeouts}, {"hedges", sum.Hedges, tt.Hedges},
		{"served", sum.Served, tt.Served}, {"refused", sum.Refused, tt.Refused}, {"errors", sum.Errors, tt.Errors},
		{"outage", sum.Outage, tt.OutageFails}, {"throttled", sum.Throttled, tt.Throttled},
		{"answers", sum.OK + sum.Rejected, tt.Served + tt.Refused + tt.OutageFails + tt.Collisions},
	} {
		if x.got != x.want {
			t.Errorf("timeline %s %d, totals %d", x.name, x.got, x.want)
		}
	}
	if d := sum.WastedWork - tt.WastedWork; d*d > 1e-12 {
		t.Errorf("timeline wasted %v, totals %v", sum.WastedWork, tt.WastedWork)
	}
	if !r.Truncated && !windowed {
		// Every call is accounted for: served, refused, failed by
		// an outage, dropped, cancelled, or lost in a collision.
		if n := tt.Served + tt.Refused + tt.OutageFails + tt.Dropped + tt.Cancelled + tt.Collisions; n != tt.Calls {
			t.Errorf("calls %d, accounted for %d: %+v", tt.Calls, n, tt.RequestTotals)
		}
		last := r.Timeline[len(r.Timeline)-1]
		if last.Queue != 0 || last.Busy != 0 || last.Waiting != 0 {
			t.Errorf("at the end: queue %d, busy %d, waiting %d", last.Queue, last.Busy, last.Waiting)
		}
	}
	l := tt.Latency
	if tt.Succeeded > 0 && !(0 <= l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.P999 && l.P999 <= l.Max && l.Mean <= l.Max) {
		t.Errorf("latency quantiles out of order: %+v", l)
	}
	if tt.Blocked+tt.Throttled+tt.Calls-tt.Hedges > c.MaxCalls {
		t.Errorf("tries over MaxCalls: %+v", tt)
	}
}

func TestRequestDeterministic(t *testing.T) {
	for _, v := range reqVariants {
		c := v.config(t)
		a, b := run(t, c, 3), run(t, c, 3)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed 3 differ", v.name)
		}
		if r, err := Run(c, 3); err != nil || !reflect.DeepEqual(a, r) {
			t.Errorf("%s: Run differs from Advance in slices (%v)", v.name, err)
		}
		if d := run(t, c, 4); reflect.DeepEqual(a, d) {
			t.Errorf("%s: seeds 3 and 4 give the same run", v.name)
		}
	}
}

// TestRequestGolden pins seeded request-level output, natively and under
// WebAssembly, as TestGolden does the herd's (its own file, so that
// golden.txt stays as it was). Refresh with: go test ./sim -run
// RequestGolden -update
func TestRequestGolden(t *testing.T) {
	var sb strings.Builder
	for _, v := range reqVariants {
		r := run(t, v.config(t), 42)
		fmt.Fprintf(&sb, "== %s\n", v.name)
		writeResult(&sb, r)
		g := func(f float64) string { return fmt.Sprintf("%.6g", f) }
		tt := r.Totals
		rec := "null"
		if tt.RecoveredAt != nil {
			rec = g(*tt.RecoveredAt)
		}
		fmt.Fprintf(&sb, "requests=%d served=%d refused=%d errors=%d outage=%d timeouts=%d throttled=%d dropped=%d cancelled=%d hedges=%d wasted=%s wait=%s recovered=%s %s\n",
			tt.Requests, tt.Served, tt.Refused, tt.Errors, tt.OutageFails, tt.Timeouts, tt.Throttled, tt.Dropped, tt.Cancelled, tt.Hedges,
			g(tt.WastedWork), g(tt.QueueWait), rec, tt.Recovery)
		if tt.OfferedLoad > 0 {
			fmt.Fprintf(&sb, "G=%s S=%s collisions=%d\n", g(tt.OfferedLoad), g(tt.ChannelThroughput), tt.Collisions)
		}
		if tt.CallsPerRequestByLayer != nil {
			fmt.Fprintf(&sb, "by-layer=%v bottom=%s orphans=%d layer-timeouts=%d answer-p50=%s\n", tt.CallsPerRequestByLayer,
				g(tt.BottomLoadRatio), tt.OrphanCalls, tt.LayerTimeouts, g(tt.Answer.P50))
		}
		l := tt.Latency
		fmt.Fprintf(&sb, "latency mean=%s p50=%s p95=%s p99=%s p999=%s max=%s goodput/s=%s throughput/s=%s\n",
			g(l.Mean), g(l.P50), g(l.P95), g(l.P99), g(l.P999), g(l.Max), g(tt.GoodputPerS), g(tt.ThroughputPerS))
		for k, b := range r.Timeline {
			if k%20 == 0 {
				fmt.Fprintf(&sb, "%s req=%d good=%d served=%d q=%d busy=%d to=%d p50=%s p99=%s wasted=%s\n", g(b.Start), b.Requests, b.Goodput,
					b.Served, b.Queue, b.Busy, b.Timeouts, g(b.LatencyP50), g(b.LatencyP99), g(b.WastedWork))
			}
		}
	}
	path := filepath.Join("testdata", "golden_requests.txt")
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := sb.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("golden_requests.txt line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("golden_requests.txt: got %d lines, want %d", len(gl), len(wl))
	}
}

// The request-level keys are in the JSON of request-level runs only; the
// herd's JSON is as it was.
func TestRequestJSON(t *testing.T) {
	herd, err := Run(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.Set(ParamTraffic, "open:50")
	c.Set(ParamDuration, "20s")
	req, err := Run(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(v any) map[string]any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	ht, hb := keys(herd.Totals), keys(herd.Timeline[0])
	rt, rb := keys(req.Totals), keys(req.Timeline[0])
	for _, k := range []string{"requests", "calls", "succeeded", "goodput_per_s", "throughput_per_s", "amplification",
		"success_ratio", "timeouts", "wasted_work_s", "latency_s", "hedges", "recovered_at_s"} {
		if _, ok := rt[k]; !ok {
			t.Errorf("request-level totals: no %q", k)
		}
		if _, ok := ht[k]; ok && k != "calls" && k != "succeeded" && k != "amplification" {
			t.Errorf("herd totals: %q", k)
		}
	}
	for _, k := range []string{"p50", "p95", "p99", "p999"} {
		if _, ok := rt["latency_s"].(map[string]any)[k]; !ok {
			t.Errorf("latency_s: no %q", k)
		}
	}
	for _, k := range []string{"goodput", "queue", "busy", "timeouts", "latency_p99_s"} {
		if _, ok := rb[k]; !ok {
			t.Errorf("request-level bucket: no %q", k)
		}
		if _, ok := hb[k]; ok {
			t.Errorf("herd bucket: %q", k)
		}
	}
	// The herd's fourteen keys and its buckets' eight, zero or not
	// (unfinished, blocked), the fairness of its clients, and its one
	// server as a node.
	if len(ht) != 14 || ht["jain_fairness"] == nil || ht["worst_client"] == nil || len(hb) != 8 ||
		len(ht["per_node"].([]any)) != 1 || len(hb["nodes"].([]any)) != 1 {
		t.Errorf("herd keys: totals %v, bucket %v", ht, hb)
	}
	// The outage model's outage is a fault, over at 10 s.
	if at, ok := rt["recovered_at_s"].(float64); !ok || at < 10 || at > 15 || rt["recovery"] != Recovered {
		t.Errorf("recovered_at_s %v, %v: want 10 to 15, recovered", rt["recovered_at_s"], rt["recovery"])
	}
}

// TestEvQueueOrder pops random pushes, ties included, in (t, key) order
// from the request-level queue: a heap (behind a timing wheel of ticks of
// width seconds, or none) for any time and FIFOs fed in order, as the
// engine feeds them (an oracle for evQueue).
func TestEvQueueOrder(t *testing.T) {
	for _, width := range []float64{0, 1e-4, 0.01, 0.03, 10} {
		t.Run(fmt.Sprint(width), func(t *testing.T) { testEvQueueOrder(t, width) })
	}
}

func testEvQueueOrder(t *testing.T, width float64) {
	rng := backoff.NewRand(1)
	var q evQueue
	if width > 0 {
		q.far = newRevWheel(width)
	}
	var want []rev
	var last [3]float64
	now, seq := 0.0, uint64(0)
	for step := 0; step < 50000; step++ {
		if len(want) == 0 || rng.IntN(2) == 0 {
			e := rev{key: seq << 8, tag: tag{id: uint32(step)}}
			seq++
			switch k := rng.IntN(4); k {
			case 3:
				e.t = now + math.Floor(rng.Float64()*3)*0.01 // ties
				if rng.IntN(64) == 0 {
					e.t = now + rng.Float64()*1e4 // far in the wheel
				}
				q.push(e)
			default:
				// A FIFO's times never go down.
				last[k] = math.Max(last[k], now) + math.Floor(rng.Float64()*2)*0.01
				e.t = last[k]
				q.pushFIFO(k, e)
			}
			want = append(want, e)
			continue
		}
		e := q.pop()
		k := 0
		for j := range want {
			if want[j].less(&want[k]) {
				k = j
			}
		}
		if e != want[k] {
			t.Fatalf("step %d: popped %+v, want %+v", step, e, want[k])
		}
		now = e.t
		want = slices.Delete(want, k, k+1)
	}
	if q.len() != len(want) {
		t.Errorf("len %d, want %d", q.len(), len(want))
	}
}

// TestRequestWheel runs every request-level variant with its queue's
// timing wheel forced on at several tick widths, and off (width 0), and
// big closed and loop runs, which have one from the start, without it:
// any width gives the heap's order, so the same results bit for bit.
func TestRequestWheel(t *testing.T) {
	big := []variant{
		{"closed-chain-faults", [][2]string{{"clients", "5000"}, {"server", "capacity"}, {"capacity", "2000"}, {"error-rate", "0.3"},
			{"layers", "3"}, {"layer-attempts", "2"}, {"fault", "capacity:0.5@1s-3s;outage@4s-5s"}}},
		{"loop-queue", [][2]string{{"traffic", "loop:5000:100ms"}, {"server", "queue"}, {"concurrency", "500"}, {"duration", "5s"}, {"timeout", "1s"}}},
	}
	for _, v := range append(big, reqVariants...) {
		c := v.config(t)
		want := run(t, c, 42)
		for _, width := range []float64{0, 1e-4, 0.01, 1} {
			s, err := New(c, 42)
			if err != nil {
				t.Fatal(err)
			}
			setWheel(&s.req.h, width)
			for !s.Advance(1 << 20) {
			}
			if !reflect.DeepEqual(s.Result(), want) {
				t.Errorf("%s: with a wheel of %g s ticks, the results differ", v.name, width)
			}
		}
	}
}

// setWheel puts a timing wheel of ticks of width seconds (none for 0) in
// front of q's heap, moving the events to where they belong.
func setWheel(q *evQueue, width float64) {
	fifo, inFIFO := q.fifo, q.inFIFO
	q.fifo, q.inFIFO = [3]revFIFO{}, 0
	var es []rev
	for q.len() > 0 {
		es = append(es, q.pop())
	}
	q.fifo, q.inFIFO, q.far = fifo, inFIFO, nil
	if width > 0 {
		q.far = newRevWheel(width)
	}
	for _, e := range es {
		q.push(e)
	}
}

// The events and queued calls the engines move on every step are types Go
// keeps in registers: at most four fields and 32 bytes, each field such a
// type too, no array of more than one element (cmd/compile's ssa.CanSSA,
// Go 1.26). Any other struct of over 16 bytes is moved through memory,
// under WebAssembly with memory.copy, a call out of the compiled code (a
// fifth field in rev cost the request-level engine 3-7% in Chromium).
func TestHotStructsInRegisters(t *testing.T) {
	var inRegisters func(t reflect.Type) string
	inRegisters = func(t reflect.Type) string {
		switch t.Kind() {
		case reflect.Struct:
			if t.NumField() > 4 {
				return fmt.Sprintf("%s has %d fields", t, t.NumField())
			}
			for i := range t.NumField() {
				if why := inRegisters(t.Field(i).Type); why != "" {
					return why
				}
			}
		case reflect.Array:
			if t.Len() > 1 {
				return fmt.Sprintf("%s is an array of %d", t, t.Len())
			}
		}
		if t.Size() > 32 {
			return fmt.Sprintf("%s has %d bytes", t, t.Size())
		}
		return ""
	}
	for _, v := range []any{rev{}, qentry{}, event{}} {
		if why := inRegisters(reflect.TypeOf(v)); why != "" {
			t.Errorf("%T is moved through memory: %s", v, why)
		}
	}
}
