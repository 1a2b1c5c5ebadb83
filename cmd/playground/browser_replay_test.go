//go:build browser && !wasm

package main

import (
	"strconv"
	"testing"
	"time"
)

// Replay plays the herd's run over simulated time, pauses and steps.
func TestBrowserReplay(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&clients=200")
	poll[bool](t, tb, "the herd run", settledJS)
	seconds := func() float64 {
		v, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('replay-time').dataset.seconds`), 64)
		return v
	}
	if seconds() != 0 {
		t.Fatalf("replay at %v before playing", seconds())
	}
	eval[bool](t, tb, `(document.getElementById('replay-play').click(), true)`)
	poll[bool](t, tb, "the playhead to move", `parseFloat(document.getElementById('replay-time').dataset.seconds) > 0.5`)
	if !eval[bool](t, tb, `(() => { const p = document.getElementById('playhead'); return !p.hidden && p.style.left !== ''; })()`) {
		t.Error("no playhead on the chart")
	}
	eval[bool](t, tb, `(document.getElementById('replay-play').click(), true)`)
	poll[bool](t, tb, "the pause", `document.getElementById('replay-play').dataset.playing === 'false'`)
	at := seconds()
	time.Sleep(300 * time.Millisecond)
	if now := seconds(); now != at {
		t.Errorf("the replay moved while paused: %v then %v", at, now)
	}
	eval[bool](t, tb, `(document.getElementById('replay-step').click(), true)`)
	poll[bool](t, tb, "a step", `parseFloat(document.getElementById('replay-time').dataset.seconds) > `+strconv.FormatFloat(at, 'f', 3, 64))
	counts := eval[string](t, tb, `document.getElementById('replay-counts').textContent`)
	if counts == "" {
		t.Error("no counts at the playhead")
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}
