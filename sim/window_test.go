package sim

import (
	"math"
	"testing"
)

// The figures the window rule was made for (backoff sim as a user runs
// it): an open run into a server three times too slow, the shared
// channel over a second, and a loop the calls cap stops.
func TestWindowRule(t *testing.T) {
	over := runOf(t, 1, "traffic", "open:300", "duration", "30s", "server", "queue", "concurrency", "10",
		"service", "100ms", "attempts", "1")
	tt := over.Totals
	// 100 calls/s of exponential service over 30 s: 3,000 +- 55.
	if tt.ThroughputPerS > 100+3*math.Sqrt(3000)/30 || tt.GoodputPerS > tt.ThroughputPerS {
		t.Errorf("a 100/s server: throughput %g/s, goodput %g/s", tt.ThroughputPerS, tt.GoodputPerS)
	}
	if tt.Unfinished < 5000 || over.Truncated || tt.Makespan > 30 {
		t.Errorf("the window: %d unfinished, truncated %v, makespan %g s", tt.Unfinished, over.Truncated, tt.Makespan)
	}
	drained := runOf(t, 1, "traffic", "open:300", "duration", "30s", "server", "queue", "concurrency", "10",
		"service", "100ms", "attempts", "1", "drain", "true")
	dt := drained.Totals
	if dt.Unfinished != 0 || dt.Succeeded != tt.Requests || dt.Makespan < 85 ||
		math.Abs(dt.ThroughputPerS-float64(dt.Served)/dt.Makespan) > 1e-9 || dt.ThroughputPerS > 100+3*math.Sqrt(9000)/dt.Makespan {
		t.Errorf("drained: %d unfinished, %d of %d succeeded, makespan %g s, throughput %g/s",
			dt.Unfinished, dt.Succeeded, tt.Requests, dt.Makespan, dt.ThroughputPerS)
	}
	ch := runOf(t, 1, "server", "channel", "channel", "aloha", "frame", "100ms", "traffic", "open:20", "duration", "1s")
	if s := ch.Totals.ChannelThroughput; s < 0 || s > 1 {
		t.Errorf("aloha over 1 s: S %g", s)
	}
	loop := runOf(t, 1, "traffic", "loop:1:0s", "duration", "60s", "error-rate", "1", "budget", "adaptive",
		"attempts", "1", "max-calls", "20000")
	if !loop.Truncated || loop.TruncatedBy != StopCalls || loop.StoppedAt == nil || *loop.StoppedAt >= 60 {
		t.Errorf("a loop the calls cap stops: truncated %v by %q at %v", loop.Truncated, loop.TruncatedBy, loop.StoppedAt)
	}
	hz := runOf(t, 1, "traffic", "open:100", "duration", "30s", "server", "queue", "concurrency", "5", "horizon", "20s")
	if hz.TruncatedBy != StopHorizon || *hz.StoppedAt != 20 {
		t.Errorf("horizon 20s: by %q at %v", hz.TruncatedBy, hz.StoppedAt)
	}
}

// A bucket's latency percentiles reach past 4,096 s: one worker taking an
// hour a call, three callers at once, the third answered after 3 h.
func TestTimelineLongLatency(t *testing.T) {
	r := runOf(t, 1, "clients", "3", "server", "queue", "concurrency", "1", "service", "1h", "service-dist", "fixed",
		"timeout", "0s", "latency", "0", "attempts", "1", "error-rate", "0.000001")
	most := 0.0
	for _, b := range r.Timeline {
		most = math.Max(most, b.LatencyP99)
	}
	if most < 3*3600*0.85 || most > 3*3600*1.15 {
		t.Errorf("the slowest bucket's p99 %g s, want about 10,800", most)
	}
}

// A fault the model cannot honour is refused; --hedge 0 too; a latency of
// 0 has no spread unless one is given after it; open:0.001 names its own
// duration limit.
func TestRefusedValues(t *testing.T) {
	c := DefaultConfig()
	for _, kv := range [][2]string{{"server", "channel"}, {"traffic", "open:10"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"stall@1s-2s", "slow:2@1s-2s", "capacity:0.5@1s-2s"} {
		d := c
		if err := d.Set("fault", f); err != nil {
			t.Fatal(err)
		}
		if err := d.Validate(); err == nil {
			t.Errorf("channel with %s: valid", f)
		}
	}
	for _, f := range []string{"outage@1s-2s", "errors:0.5@1s-2s"} {
		d := c
		if err := d.Set("fault", f); err != nil || d.Validate() != nil {
			t.Errorf("channel with %s: %v %v", f, err, d.Validate())
		}
	}
	d := DefaultConfig()
	if err := d.Set("hedge", "0"); err == nil {
		t.Error("hedge 0 accepted")
	}
	if err := d.Set("latency", "0"); err != nil || d.LatencySD != 0 {
		t.Errorf("latency 0: %v, sd %v", err, d.LatencySD)
	}
	if err := d.Set("latency-sd", "5ms"); err != nil || d.LatencySD == 0 {
		t.Errorf("latency-sd after latency 0: %v, sd %v", err, d.LatencySD)
	}
	o := DefaultConfig()
	if err := o.Set("traffic", "open:0.001"); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("open:0.001 for a minute: %v", err)
	}
	o.Duration = MaxTime + 1
	if err := o.Validate(); err == nil {
		t.Error("open:0.001 past MaxTime: valid")
	}
}
