//go:build browser && !wasm

package main

import (
	"math"
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

// Step moves the playhead by exactly one bucket and leaves the replay
// paused; the speed chosen applies when it plays (and choosing it does not
// start it).
func TestBrowserReplayStepAndSpeed(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&clients=200")
	poll[bool](t, tb, "the herd run", settledJS)
	seconds := func() float64 {
		v, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('replay-time').dataset.seconds`), 64)
		return v
	}
	playing := func() string {
		return eval[string](t, tb, `document.getElementById('replay-play').dataset.playing`)
	}
	step := func() float64 {
		eval[bool](t, tb, `(document.getElementById('replay-step').click(), true)`)
		time.Sleep(400 * time.Millisecond) // a playing replay would move 4 s at 10× by now
		return seconds()
	}
	s1 := step()
	if p := playing(); p != "false" {
		t.Errorf("Step started the replay: data-playing=%q at %v s", p, s1)
	}
	s2 := step()
	t.Logf("steps: %v s, then %v s", s1, s2)
	// Two steps from 0, two buckets (the run's bucket width, 0.2 s here).
	bucket, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('replay').dataset.bucketS || ''`), 64)
	if bucket <= 0 || math.Abs(s1-bucket) > 1e-9 || math.Abs(s2-2*bucket) > 1e-9 {
		t.Errorf("two steps from 0 went to %v s and %v s, want one bucket (%v s) each", s1, s2, bucket)
	}
	if p := playing(); p != "false" {
		t.Errorf("after two steps the replay plays: data-playing=%q", p)
	}

	// Speed 1×: choosing it does not play; playing then moves about one
	// simulated second per second (10× would be ten).
	eval[bool](t, tb, `(() => { const s = document.getElementById('replay-speed'); s.value = '1';
	  s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	time.Sleep(300 * time.Millisecond)
	if p, at := playing(), seconds(); p != "false" || at != s2 {
		t.Errorf("choosing a speed changed the replay: data-playing=%q, at %v s (was %v s)", p, at, s2)
	}
	eval[bool](t, tb, `(window.__t0 = performance.now(), document.getElementById('replay-play').click(), true)`)
	time.Sleep(time.Second)
	eval[bool](t, tb, `(document.getElementById('replay-play').click(), window.__t1 = performance.now(), true)`)
	poll[bool](t, tb, "the pause", `document.getElementById('replay-play').dataset.playing === 'false'`)
	wall := eval[float64](t, tb, `(window.__t1 - window.__t0) / 1000`)
	moved := seconds() - s2
	t.Logf("at 1×: %.2f s simulated in %.2f s", moved, wall)
	if moved <= 0 || moved > 1.5*wall {
		t.Errorf("at 1× the replay moved %.2f s in %.2f s of wall time, want at most %.2f s", moved, wall, 1.5*wall)
	}
}
