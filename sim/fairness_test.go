package sim

import (
	"math"
	"testing"
)

// Jain's index: 1 when all are equal, 1/n when one has everything.
func TestJainIndex(t *testing.T) {
	for _, c := range []struct {
		succ []uint32
		want float64
	}{
		{[]uint32{5, 5, 5, 5}, 1}, {[]uint32{4, 0, 0, 0}, 0.25}, {[]uint32{3, 1}, 0.8}, {[]uint32{0, 0}, 0},
	} {
		f := fairness{loop: true, succ: c.succ}
		if got, _, _ := f.result(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("successes %v: Jain %v, want %v", c.succ, got, c.want)
		}
	}
	f := newFairness(3, false)
	for i, x := range []float64{1, 2, 3} {
		f.ended(i, true, 1, x)
	}
	// (1 + 2 + 3)² / (3 · (1 + 4 + 9)) = 36/42.
	if got, w, per := f.result(); math.Abs(got-36.0/42) > 1e-12 || w.Client != 2 || len(per) != 3 || per[1].Time != 2 {
		t.Errorf("times 1, 2, 3: Jain %v, worst %+v, per %+v", got, w, per)
	}
	f.ended(0, false, 6, 0.5) // a give-up is worse than any success
	if _, w, _ := f.result(); w.Client != 0 || w.GaveUp != 1 {
		t.Errorf("worst %+v, want the client that gave up", w)
	}
}

// The article's two clients: "with two clients randomness gives little,
// and an unlucky one may lose systematically". Two stations that always
// have a frame share an ethernet channel that carries one at a time; after
// each success the winner's new frame draws its backoff from {0, 1} slots
// while the loser's grows with its collisions, so one takes the channel
// (the capture effect): over a tenth of a second, 1 frame against 1,936.
// Only when the loser drops its frame after 16 attempts does it start again
// on equal terms, so over seconds the shares even out, in long spells of
// one winner. Sixteen stations with long frames share it about evenly.
func TestTwoClientsUnlucky(t *testing.T) {
	two := ethernetRun(t, "frame", "51.2us", "traffic", "loop:2", "duration", "100ms")
	tt := two.Totals
	if len(two.PerClient) != 2 || tt.Worst == nil {
		t.Fatalf("per client %v, worst %v", two.PerClient, tt.Worst)
	}
	lucky, unlucky := two.PerClient[0], two.PerClient[1]
	if unlucky.Successes > lucky.Successes {
		lucky, unlucky = unlucky, lucky
	}
	t.Logf("two stations: %d and %d frames sent (shares %.3f, %.3f), Jain %.3f; the unlucky one gave up %d frames",
		lucky.Successes, unlucky.Successes, lucky.Share, unlucky.Share, tt.JainFairness, unlucky.GaveUp)
	if unlucky.Share > 0.01 || tt.JainFairness > 0.52 || tt.Worst.Client != unlucky.Client || tt.Worst.Share != unlucky.Share {
		t.Errorf("two stations: shares %.3f and %.3f, Jain %.3f, worst %+v; want one far behind", lucky.Share, unlucky.Share, tt.JainFairness, *tt.Worst)
	}
	many := ethernetRun(t, "frame", "4352us", "traffic", "loop:16", "duration", "20s").Totals
	if many.JainFairness < 0.9 {
		t.Errorf("16 stations, long frames: Jain %.3f, want near 1", many.JainFairness)
	}
}

// The trace follows what each of a small herd's clients did: every try,
// success and give-up, in time order per client.
func TestTrace(t *testing.T) {
	r := runOf(t, 1, "clients", "50")
	tr := r.Trace
	if tr == nil || tr.Clients != 50 || tr.Truncated {
		t.Fatalf("trace %+v", tr)
	}
	var tries, ok, gave int
	last := make([]float64, 50)
	for _, e := range tr.Events {
		switch e.Kind {
		case TraceTry:
			tries++
		case TraceSuccess:
			ok++
		case TraceGaveUp:
			gave++
		}
		if e.T < last[e.Client] {
			t.Errorf("client %d: an event at %v after one at %v", e.Client, e.T, last[e.Client])
		}
		last[e.Client] = e.T
	}
	tt := r.Totals
	if tries != tt.Calls+tt.Blocked || ok != tt.Succeeded || gave != tt.GaveUp {
		t.Errorf("trace: %d tries, %d successes, %d give-ups; totals %d, %d, %d", tries, ok, gave, tt.Calls+tt.Blocked, tt.Succeeded, tt.GaveUp)
	}
	attempts := 0
	for _, p := range r.PerClient {
		attempts += p.Attempts
	}
	if attempts != tries {
		t.Errorf("per client: %d attempts, trace %d", attempts, tries)
	}
	// A big herd keeps neither.
	if big := runOf(t, 1, "clients", "5000"); big.Trace != nil || big.PerClient != nil || big.Totals.JainFairness <= 0 {
		t.Errorf("5000 clients: trace %v, %d outcomes, Jain %v", big.Trace != nil, len(big.PerClient), big.Totals.JainFairness)
	}
}
