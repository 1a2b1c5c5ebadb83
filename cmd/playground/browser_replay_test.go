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
	// The marks' layer: one path over the chart, hidden until the replay
	// plays; ticks counts its segments.
	const ticks = `((document.getElementById('replay-marks') || {getAttribute: () => ''}).getAttribute('d') || '').split('M').length - 1`
	if eval[bool](t, tb, `(() => { const l = document.querySelector('.replay-layer'); return !l || !l.hidden || l.getClientRects().length > 0; })()`) {
		t.Error("the replay's marks show before it plays")
	}
	eval[bool](t, tb, `(document.getElementById('replay-play').click(), true)`)
	poll[bool](t, tb, "the playhead to move", `parseFloat(document.getElementById('replay-time').dataset.seconds) > 0.5`)
	if !eval[bool](t, tb, `(() => { const p = document.getElementById('playhead'); return !p.hidden && p.style.left !== ''; })()`) {
		t.Error("no playhead on the chart")
	}
	eval[bool](t, tb, `(document.getElementById('replay-play').click(), true)`)
	poll[bool](t, tb, "the pause", `document.getElementById('replay-play').dataset.playing === 'false'`)
	at := seconds()
	// The calls sent so far are marks on the chart: one path, a tick per
	// bucket with calls up to the playhead, in the chart's box.
	marks := eval[map[string]float64](t, tb, `(() => { const l = document.querySelector('.replay-layer'), c = document.querySelector('#herd-chart svg');
	  const a = l.getBoundingClientRect(), b = c.getBoundingClientRect();
	  return {shown: l.hidden ? 0 : 1, elements: l.querySelectorAll('*').length, ticks: `+ticks+`,
	    dx: Math.abs(a.left - b.left) + Math.abs(a.width - b.width), dy: Math.abs(a.top - b.top) + Math.abs(a.height - b.height)}; })()`)
	t.Logf("at %.2f s: %+v", at, marks)
	if marks["shown"] != 1 || marks["ticks"] < 1 {
		t.Errorf("no marks on the chart while replaying: %+v", marks)
	}
	if marks["elements"] != 2 { // the svg and its one path
		t.Errorf("the marks' layer has %.0f elements, want an svg and one path", marks["elements"])
	}
	if marks["dx"] > 1 || marks["dy"] > 1 {
		t.Errorf("the marks' layer is %.1f px (x) and %.1f px (y) off the chart", marks["dx"], marks["dy"])
	}
	eval[bool](t, tb, `(document.getElementById('herd-chart').scrollIntoView(), true)`)
	exShot(t, tb, "replay-marks")
	time.Sleep(300 * time.Millisecond)
	if now := seconds(); now != at {
		t.Errorf("the replay moved while paused: %v then %v", at, now)
	}
	eval[bool](t, tb, `(document.getElementById('replay-step').click(), true)`)
	poll[bool](t, tb, "a step", `parseFloat(document.getElementById('replay-time').dataset.seconds) > `+strconv.FormatFloat(at, 'f', 3, 64))
	if n := eval[float64](t, tb, ticks); n < marks["ticks"] {
		t.Errorf("a step forward left %.0f ticks, fewer than %.0f", n, marks["ticks"])
	}
	counts := eval[string](t, tb, `document.getElementById('replay-counts').textContent`)
	if counts == "" {
		t.Error("no counts at the playhead")
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
}
