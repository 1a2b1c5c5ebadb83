package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/backoff-playground/playground/backoff"
)

// channelRun is a run on the shared channel: frame 1 ms, the given
// traffic and policy keys.
func channelRun(t *testing.T, seed uint64, set ...string) Totals {
	t.Helper()
	return runOf(t, seed, append([]string{"server", "channel", "frame", "1ms"}, set...)...).Totals
}

// Pure ALOHA (Abramson, "The ALOHA System", 1970): transmissions arriving
// as a Poisson stream of G per frame time get through with probability
// e^(−2G) (no other may start within a frame either side), so S = G·e^(−2G),
// at most 1/(2e) ≈ 18.4% at G = 0.5: the article's "about 18%". Slotted
// ALOHA (Roberts, 1972) halves the vulnerable time: S = G·e^(−G), at most
// 1/e ≈ 36.8% at G = 1. Each frame is sent once here, so the attempts are
// exactly Poisson.
func TestAlohaThroughput(t *testing.T) {
	for _, c := range []struct {
		kind string
		s    func(g float64) float64
		best float64
	}{
		{"aloha", func(g float64) float64 { return g * math.Exp(-2*g) }, 0.5},
		{"slotted", func(g float64) float64 { return g * math.Exp(-g) }, 1},
	} {
		bestS, bestG := 0.0, 0.0
		for _, g := range []float64{0.1, 0.25, 0.5, 0.75, 1, 1.5, 2} {
			tt := channelRun(t, 1, "channel", c.kind, "traffic", fmt.Sprintf("open:%g", 1000*g), "duration", fmt.Sprintf("%gs", 200/g), "attempts", "1")
			want := c.s(tt.OfferedLoad)
			if math.Abs(tt.OfferedLoad-g) > 0.02*g || math.Abs(tt.ChannelThroughput-want) > 0.03*want {
				t.Errorf("%s at G %g: measured G %.4f, S %.4f; want S = %.4f", c.kind, g, tt.OfferedLoad, tt.ChannelThroughput, want)
			}
			if tt.ChannelThroughput > bestS {
				bestS, bestG = tt.ChannelThroughput, g
			}
		}
		if want := c.s(c.best); bestG != c.best || math.Abs(bestS-want) > 0.005 {
			t.Errorf("%s: best S %.4f at G %g; want %.4f at G %g", c.kind, bestS, bestG, want, c.best)
		}
	}
}

// With retransmissions after a random wait of many frame times, the
// attempts (new frames and retries) are close to a Poisson stream, and the
// channel still carries G·e^(−2G) of the G it is offered.
func TestAlohaRetransmissions(t *testing.T) {
	// (At 150 new frames a second this channel is past its stable load:
	// the backlog of retransmissions grows without bound, ALOHA's
	// instability.)
	for _, rate := range []string{"50", "100"} {
		tt := channelRun(t, 1, "channel", "aloha", "traffic", "open:"+rate, "duration", "500s",
			"growth", "constant", "base", "50ms", "jitter", "full", "attempts", "0")
		g := tt.OfferedLoad
		if want := g * math.Exp(-2*g); math.Abs(tt.ChannelThroughput-want) > 0.05*want || g <= tt.ChannelThroughput {
			t.Errorf("new frames %s/s: G %.4f, S %.4f; want S = G·e^(−2G) = %.4f", rate, g, tt.ChannelThroughput, want)
		}
		t.Logf("new frames %s/s: G %.4f, S %.4f, %d collisions", rate, g, tt.ChannelThroughput, tt.Collisions)
	}
}

// metcalfeBoggs is Ethernet's efficiency with q stations always ready
// (Metcalfe and Boggs, "Ethernet", CACM 1976): A = (1 − 1/q)^(q−1) is the
// chance one station acquires a contention slot, W = (1 − A)/A the mean
// slots wasted, E = (P/C)/(P/C + W·T) for a frame of P/C seconds and slot T.
func metcalfeBoggs(q int, frame, slot float64) float64 {
	a := math.Pow(1-1/float64(q), float64(q-1))
	w := (1 - a) / a
	return frame / (frame + w*slot)
}

// Ethernet's efficiency with saturated stations under 802.3's backoff.
// For long frames (85 slots, Metcalfe and Boggs's 4096 bits at 3 Mbit/s
// over 16 µs slots) it is within 2% of their estimate: 0.988 for 2
// stations, 0.980 for 64. For frames of one slot the estimate falls to
// 1/e; 802.3's backoff does better with few stations (the capture effect
// lets one send back to back while the other backs off: 0.99 for two) and
// passes through 1/e near a hundred, then falls below it: the estimate
// assumes each station sends with probability 1/Q, which 1-persistent
// stations, all sending the moment the channel frees and starting again
// from a small backoff after 16 failed attempts, do not.
func TestEthernetEfficiency(t *testing.T) {
	const slot = 51.2e-6
	for _, c := range []struct {
		q        int
		slots    float64 // frame length
		min, max float64 // S relative to Metcalfe and Boggs (long) or absolute (short)
	}{
		{2, 85, 0.99, 1.02}, {16, 85, 0.98, 1.02}, {64, 85, 0.97, 1.02},
		{2, 1, 0.9, 1}, {16, 1, 0.6, 1}, {64, 1, 1 / math.E, 0.6}, {128, 1, 0.25, 1 / math.E}, {256, 1, 0.1, 0.3},
	} {
		frame := c.slots * slot
		tt := ethernetRun(t, "frame", fmt.Sprintf("%dns", int64(math.Round(frame*1e9))), "traffic", fmt.Sprintf("loop:%d", c.q),
			"duration", fmt.Sprintf("%gs", math.Max(4000*frame, 1))).Totals
		est := metcalfeBoggs(c.q, frame, slot)
		got := tt.ChannelThroughput
		if c.slots > 1 {
			got /= est
		}
		t.Logf("%d stations, frames of %g slots: S %.4f, Metcalfe and Boggs %.4f, %d collisions, %d frames dropped",
			c.q, c.slots, tt.ChannelThroughput, est, tt.Collisions, tt.GaveUp)
		if got < c.min || got > c.max {
			t.Errorf("%d stations, frames of %g slots: S %.4f (estimate %.4f), want %s in [%.3f, %.3f]", c.q, c.slots,
				tt.ChannelThroughput, est, map[bool]string{true: "S/estimate", false: "S"}[c.slots > 1], c.min, c.max)
		}
	}
}

// The capture effect with two saturated stations: after a collision
// between A's new frame (its first try: backoff U{0, 1}) and B's n-th
// collision (U{0 … 2^n − 1}), A sends first with probability
// P(a < b) = 1 − 3/2^(n+1): 5/8, 13/16, 29/32, … so the station that just
// won tends to keep winning, and B backs off ever longer.
func TestEthernetCapture(t *testing.T) {
	c := ethernetConfig(t, "frame", "51.2us", "traffic", "loop:2", "duration", "300s")
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	race := &raceStats{}
	s.req.race = race
	for !s.Advance(1 << 20) {
	}
	for n := 2; n <= 5; n++ {
		want := 1 - 3/math.Pow(2, float64(n+1))
		got := float64(race.wins[n]) / float64(race.races[n])
		se := math.Sqrt(want * (1 - want) / float64(race.races[n]))
		t.Logf("n = %d: the new frame first in %d of %d races (%.4f), want %.4f", n, race.wins[n], race.races[n], got, want)
		if race.races[n] < 100 || math.Abs(got-want) > 4*se {
			t.Errorf("n = %d: %.4f of %d races, want %.4f ± %.4f", n, got, race.races[n], want, 4*se)
		}
	}
}

// ethernetConfig is an ethernet channel of 51.2 µs slots whose stations
// follow 802.3's backoff (the preset "ethernet"), with set over it.
func ethernetConfig(t *testing.T, set ...string) Config {
	t.Helper()
	p, err := backoff.LookupPreset("ethernet")
	if err != nil {
		t.Fatal(err)
	}
	c := configOf(t, append([]string{"server", "channel", "channel", "ethernet", "slot", "51.2us"}, set...)...)
	c.Policy = p.Policy
	return c
}

func ethernetRun(t *testing.T, set ...string) *Result {
	t.Helper()
	r, err := Run(ethernetConfig(t, set...), 1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
