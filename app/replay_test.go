package app

import (
	"testing"

	"github.com/backoff-playground/playground/sim"
)

func TestCountsAt(t *testing.T) {
	r := &sim.Result{BucketWidth: 1, Timeline: []sim.Bucket{
		{Start: 0, Calls: 10, Retries: 0, OK: 2, Rejected: 7, Waiting: 8},
		{Start: 1, Calls: 8, Retries: 8, OK: 3, Rejected: 4, Waiting: 4},
		{Start: 2, Calls: 4, Retries: 4, OK: 4, Rejected: 0, Waiting: 0},
	}}
	for _, c := range []struct {
		t    float64
		want replayCounts
	}{
		{0.5, replayCounts{Calls: 10}},
		{1, replayCounts{Waiting: 8, InFlight: 1, Succeeded: 2, GaveUp: 0, Calls: 8}},
		{2, replayCounts{Waiting: 4, InFlight: 2, Succeeded: 5, GaveUp: 1, Calls: 4}},
		{3, replayCounts{Waiting: 0, InFlight: 2, Succeeded: 9, GaveUp: 1}},
	} {
		if got := countsAt(r, c.t); got != c.want {
			t.Errorf("t=%v: %+v, want %+v", c.t, got, c.want)
		}
	}
	if replayEnd(r) != 3 || countsAt(nil, 1) != (replayCounts{}) {
		t.Error("end or nil")
	}
}
