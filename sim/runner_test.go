package sim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestRunnerMatchesRun is the Runner's oracle: one Runner through every
// variant and engine, at sizes that grow and shrink (so buffers are reused
// larger than needed, and outgrown) and on both kinds of queue (a tree up
// to 4096 clients, the wheel above), gives Run's results exactly.
func TestRunnerMatchesRun(t *testing.T) {
	var r Runner
	cases := append(append([]variant{}, variants...), engineCases...)
	for i, v := range cases {
		for _, n := range []int{20_000, 300, 6000} {
			c := DefaultConfig()
			for _, kv := range v.set {
				val := kv[1]
				switch {
				case strings.HasPrefix(val, "open:"):
					val = fmt.Sprintf(val, n/10)
				case kv[0] == "traffic":
					val = fmt.Sprintf(val, n)
				}
				if kv[0] == "preset" {
					c.Policy = variant{set: [][2]string{kv}}.config(t).Policy
					continue
				}
				if err := c.Set(kv[0], val); err != nil {
					t.Fatalf("%s: %v", v.name, err)
				}
			}
			if c.Server != OCC {
				c.Clients = n
			}
			c.MaxCalls = 200_000 // a year's outage with unlimited attempts, in bounded time
			seed := uint64(i*3 + 1)
			want, err := Run(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Run(c, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s at %d clients: the Runner's result differs from Run's\n got %+v\nwant %+v", v.name, n, got.Totals, want.Totals)
			}
		}
	}
	if b := r.spare; b.pool == nil || b.completions == nil || b.callers == nil || b.state == nil || b.reads == nil || b.revs == nil {
		t.Errorf("the Runner kept no buffers to reuse: pool %v, completions %v, callers %v, state %v, reads %v, revs %v",
			b.pool != nil, b.completions != nil, b.callers != nil, b.state != nil, b.reads != nil, b.revs != nil)
	}
}

// engineCases are configs of every engine and server, as URL parameters
// applied to DefaultConfig, with "%d" for the size (callers, or for open
// traffic a tenth of the requests): each runs at several sizes.
var engineCases = []variant{
	{"herd", nil},
	{"herd capacity uniform", [][2]string{{"server", "capacity"}, {"arrival", "uniform:5s"}}},
	{"herd decorrelated", [][2]string{{"jitter", "decorrelated-v2"}}},
	{"herd budget breaker", [][2]string{{"budget", "tokens:100:5:1"}, {"breaker", "consecutive:5:2s"}}},
	{"herd unlimited", [][2]string{{"attempts", "0"}, {"cap", "1s"}, {"outage-end", "8760h"}}},
	{"occ", [][2]string{{"server", "occ"}}},
	{"closed queue", [][2]string{{"server", "queue"}}},
	{"closed timeout", [][2]string{{"timeout", "1s"}}},
	{"closed queue hedge", [][2]string{{"server", "queue"}, {"hedge", "50ms"}, {"timeout", "1s"}}},
	{"closed caller budgets", [][2]string{{"server", "queue"}, {"budget-scope", "caller"}, {"budget", "tokens:10:1:1"}}},
	{"loop", [][2]string{{"server", "queue"}, {"traffic", "loop:%d:0s"}, {"duration", "10s"}}},
	{"open", [][2]string{{"server", "queue"}, {"traffic", "open:%d"}, {"duration", "10s"}}},
	{"open stalled", [][2]string{{"server", "queue"}, {"traffic", "open:%d"}, {"duration", "10s"}, {"concurrency", "30"},
		{"service", "100ms"}, {"timeout", "1s"}, {"attempts", "2"}, {"fault", "stall@2s-8s"}}},
}
