package sim_test

import (
	"fmt"
	"time"

	"github.com/backoff-playground/playground/sim"
)

// Thirty clients call at once a server that serves 10 calls per second,
// with the article's policy (full jitter, base 1 s, 6 attempts). The
// first second sees the burst and most of it rejected; the retries then
// spread out and the server works through them near its capacity.
func ExampleRun() {
	c := sim.DefaultConfig()
	c.Clients = 30
	c.Server = sim.Capacity
	c.Capacity = 10
	c.Bucket = time.Second
	r, err := sim.Run(c, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := r.Totals
	fmt.Printf("%d of %d succeeded, %d gave up, %d calls, last event at %.1fs\n",
		t.Succeeded, t.Clients, t.GaveUp, t.Calls, t.Makespan)
	fmt.Println("start  calls  retries  ok  rejected  waiting")
	for _, b := range r.Timeline {
		fmt.Printf("%4.0fs  %5d  %7d  %2d  %8d  %7d\n", b.Start, b.Calls, b.Retries, b.OK, b.Rejected, b.Waiting)
	}
	// Output:
	// 30 of 30 succeeded, 0 gave up, 100 calls, last event at 17.3s
	// start  calls  retries  ok  rejected  waiting
	//    0s     61       31   7        51       24
	//    1s     18       18   6        14       17
	//    2s     12       12   8         5       10
	//    3s      4        4   3         0        6
	//    4s      1        1   2         0        4
	//    5s      2        2   2         0        2
	//    6s      0        0   0         0        2
	//    7s      1        1   1         0        1
	//    8s      0        0   0         0        1
	//    9s      0        0   0         0        1
	//   10s      0        0   0         0        1
	//   11s      0        0   0         0        1
	//   12s      0        0   0         0        1
	//   13s      0        0   0         0        1
	//   14s      0        0   0         0        1
	//   15s      0        0   0         0        1
	//   16s      0        0   0         0        1
	//   17s      1        1   1         0        0
}

// A page runs a big simulation in slices so it can redraw in between.
func ExampleSim_Advance() {
	c := sim.DefaultConfig()
	c.Clients = 10_000
	s, err := sim.New(c, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	slices := 1
	for !s.Advance(5000) {
		slices++ // a page would show s.Progress() here
	}
	fmt.Printf("done in %d slices, progress %.0f%%, %d succeeded\n", slices, 100*s.Progress(), s.Result().Totals.Succeeded)
	// Output:
	// done in 5 slices, progress 100%, 1813 succeeded
}

// Errors name the field, the value and what is allowed.
func ExampleConfig_Set() {
	c := sim.DefaultConfig()
	fmt.Println(c.Set("clients", "5000000"))
	fmt.Println(c.Set("arrival", "clock:1m"), c.Get("arrival"))
	fmt.Println(c.Set("budget", "tokens"), c.Get("budget"))
	// Output:
	// clients: "5000000" is not valid: want a whole number from 1 to 2000000
	// <nil> clock:1m
	// <nil> tokens:500:5:1
}

// A metastable failure (Bronson et al., HotOS 2021): a server of 300
// calls per second (30 workers of 100 ms), callers with a 1 s timeout and
// one retry, and a 10 s stall at 20 s. Below capacity/(1 + retries) = 150
// requests per second it recovers after the stall; above, the retries of
// the calls that time out keep the queue longer than the timeout, so
// every call times out and is retried: nearly two calls per request, and
// no recovery while the traffic lasts.
func Example_metastable() {
	fmt.Println("rate  calls/request  goodput/s  recovered")
	for rate := 100; rate <= 200; rate += 20 {
		c := sim.DefaultConfig()
		for _, kv := range [][2]string{{"traffic", fmt.Sprintf("open:%d", rate)}, {"duration", "300s"},
			{"server", "queue"}, {"concurrency", "30"}, {"service", "100ms"}, {"timeout", "1s"},
			{"attempts", "2"}, {"fault", "stall@20s-30s"}, {"latency", "1ms"}, {"latency-sd", "0"}} {
			if err := c.Set(kv[0], kv[1]); err != nil {
				fmt.Println(err)
				return
			}
		}
		r, err := sim.Run(c, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		t := r.Totals
		rec := "never"
		if t.RecoveredAt != nil {
			rec = fmt.Sprintf("at %gs", *t.RecoveredAt)
		}
		fmt.Printf("%4d  %13.2f  %9.1f  %s\n", rate, t.Amplification, t.GoodputPerS, rec)
	}
	// Output:
	// rate  calls/request  goodput/s  recovered
	//  100           1.08       93.0  at 44s
	//  120           1.13      105.0  at 58s
	//  140           1.41       83.8  at 140s
	//  160           1.93       10.4  never
	//  180           1.93       11.7  never
	//  200           1.93       13.1  never
}
