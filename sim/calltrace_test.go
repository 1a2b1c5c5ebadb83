package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// calls is a Tracer that keeps every call.
type calls []Call

func (cs *calls) Call(c Call) { *cs = append(*cs, c) }

// traced runs c with seed, its calls traced.
func traced(t testing.TB, c Config, seed uint64) (*Result, calls) {
	t.Helper()
	s, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	var cs calls
	s.SetTracer(&cs)
	for !s.Advance(1 << 16) {
	}
	return s.Result(), cs
}

// checkTrace holds a run's trace to its totals: one line per call, the
// requests with an ok line are the successes, times in order, outcomes
// from the list, the unfinished ones exactly those left going.
func checkTrace(c Config, r *Result, cs calls) error {
	tt := r.Totals
	if len(cs) != tt.Calls+tt.Hits {
		return fmt.Errorf("%d lines, %d calls and %d hits", len(cs), tt.Calls, tt.Hits)
	}
	okReqs := map[int]bool{}
	by := map[string]int{}
	servers := c.ServerNodeNames()
	if c.CacheKeys > 0 {
		servers = append(servers, c.NodeNames()[c.Layers-1])
	}
	// An answer that leads to a retry past the window is no event of the
	// makespan's: the window bounds open and loop runs.
	end := tt.Makespan
	if c.Traffic != Closed {
		end = math.Max(end, c.Duration.Seconds())
	}
	if r.StoppedAt != nil {
		end = math.Max(end, *r.StoppedAt)
	}
	for _, x := range cs {
		by[x.Outcome]++
		if !slices.Contains(CallOutcomes, x.Outcome) || !slices.Contains(servers, x.Node) {
			return fmt.Errorf("line %+v", x)
		}
		if x.Request < 1 || x.Request > tt.Clients || x.Try < 1 || x.SentS < 0 {
			return fmt.Errorf("line %+v of %d requests", x, tt.Clients)
		}
		if (x.Outcome == CallUnfinished) != math.IsNaN(x.DoneS) {
			return fmt.Errorf("line %+v: done and outcome disagree", x)
		}
		if !math.IsNaN(x.DoneS) && (x.DoneS < x.SentS || x.DoneS > end+1e-9) {
			return fmt.Errorf("line %+v: done outside [sent, %g]", x, end)
		}
		if x.Outcome == CallOK {
			okReqs[x.Request] = true
		}
	}
	// A chain's layer may stop waiting (LayerTimeout) for a call below
	// that then succeeds for nobody: only there may a request with an ok
	// line fail.
	if len(okReqs) != tt.Succeeded && (!c.LayerTimeout.Any() || c.Layers == 1 || len(okReqs) < tt.Succeeded) {
		return fmt.Errorf("%d requests with an ok line, %d succeeded (%v)", len(okReqs), tt.Succeeded, by)
	}
	if !tt.RequestLevel {
		if by[CallOK]+by[CallRefused]+by[CallUnfinished] != len(cs) {
			return fmt.Errorf("a herd's outcomes %v", by)
		}
		return nil
	}
	gone := by[CallTimeout] + by[CallLost] + by[CallDropped]
	if c.Hedge.On() {
		if gone < tt.Timeouts || by[CallCancelled] > tt.Hedges {
			return fmt.Errorf("timed out %d lines for %d timeouts, cancelled %d of %d hedges", gone, tt.Timeouts, by[CallCancelled], tt.Hedges)
		}
	} else if gone-collisions(c, by) != tt.Timeouts || by[CallCancelled] != 0 {
		return fmt.Errorf("outcomes %v, timeouts %d", by, tt.Timeouts)
	}
	if c.Server != Channel && by[CallLost] > 0 && tt.Lost == 0 {
		return fmt.Errorf("%d lost lines, no call lost", by[CallLost])
	}
	if !c.DropExpired && by[CallDropped] > 0 {
		return fmt.Errorf("%d dropped without drop-expired", by[CallDropped])
	}
	return nil
}

// collisions is the lost lines that were no timeout: the channel's
// collisions.
func collisions(c Config, by map[string]int) int {
	if c.Server == Channel {
		return by[CallLost]
	}
	return 0
}

// Every random config's trace holds to its totals, and a run traced gives
// the bytes it gives untraced.
func TestTraceLaws(t *testing.T) {
	n := 300
	if runtime.GOARCH == "wasm" {
		n = 40
	}
	rng := rand.New(rand.NewPCG(27, 2026))
	seen := map[string]int{}
	for i, valid := 0, 0; valid < n; i++ {
		c, desc := randomEither(rng, i%3 == 0)
		if c.Validate() != nil {
			continue
		}
		valid++
		seed := rng.Uint64()
		r, cs := traced(t, c, seed)
		for _, x := range cs {
			seen[x.Outcome]++
		}
		if err := checkTrace(c, r, cs); err != nil {
			t.Errorf("config %d (%s), seed %d: %v", valid, desc, seed, err)
			continue
		}
		if valid%10 == 0 && !reflect.DeepEqual(r.Totals, run(t, c, seed).Totals) {
			t.Errorf("config %d (%s): traced and untraced runs differ", valid, desc)
		}
	}
	// The sample shows every outcome at its native size (300 configs;
	// drops are the rarest, 15 lines there); under Node's 40 it need not.
	for _, o := range CallOutcomes {
		if seen[o] == 0 && runtime.GOARCH != "wasm" {
			t.Errorf("no %s line in %d configs: %v", o, n, seen)
		}
	}
	t.Logf("outcomes over %d configs: %v", n, seen)
}
