//go:build browser && !wasm

// Controls as a user works them: a herd select's "custom…" entry and the
// AWS preset's throttling switch.

package main

import (
	"testing"
)

// TestBrowserExplorerCustomEntry: a herd select's typed box shows only
// once "custom…" is chosen (choosing it changes nothing else), takes a
// value none of the entries has, and goes when a listed entry is chosen.
func TestBrowserExplorerCustomEntry(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		tb := newTab(t, 1280, 900)
		tb.open(t, "lang="+lang)
		poll[bool](t, tb, "the herd", exHerdDoneJS)
		const box = `!!document.getElementById('arrival-value')`
		if eval[bool](t, tb, box) {
			t.Fatalf("%s: #arrival-value shown before custom… was chosen", lang)
		}
		search := eval[string](t, tb, `location.search`)
		exSelect(t, tb, "arrival", "custom")
		poll[bool](t, tb, "the arrival's typed box", box+` && !!document.getElementById('arrival-value').offsetParent`)
		exSettle(t, tb)
		if got := eval[string](t, tb, `location.search`); got != search {
			t.Errorf("%s: choosing custom… changed the URL from %s to %s", lang, search, got)
		}
		tb.typeInto(t, "arrival-value", "uniform:3s")
		exPollParam(t, tb, "arrival", "uniform:3s")
		if !eval[bool](t, tb, box) {
			t.Errorf("%s: the typed box went while its value is none of the list's", lang)
		}
		exSelect(t, tb, "arrival", "uniform:10s")
		exPollParam(t, tb, "arrival", "uniform:10s")
		poll[bool](t, tb, "the typed box to go with a listed entry", `!document.getElementById('arrival-value')`)
		exNoProblems(t, tb)
	}
}

// TestBrowserExplorerThrottleSwitch: aws-standard's switch puts the
// throttled schedule (base 1 s) in place, as a history entry: Back brings
// the preset's own base back.
func TestBrowserExplorerThrottleSwitch(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&preset=aws-standard")
	const first = `document.querySelector('#delay-table tbody tr [data-col=nominal]').dataset.seconds`
	base, nominal := exValue(t, tb, "base-value"), eval[string](t, tb, first)
	if base == "1s" || !eval[bool](t, tb, `!!document.getElementById('throttle').offsetParent && !document.getElementById('throttle').checked`) {
		t.Fatalf("aws-standard: base %s, the switch hidden or on before any click", base)
	}
	h := eval[int](t, tb, `history.length`)
	click(t, tb, "throttle")
	exPollParam(t, tb, "base", "1s")
	exPollAll(t, tb, "the throttled schedule",
		`document.getElementById('base-value').value === '1s'`,
		first+` === '1'`,
		`document.getElementById('throttle').checked`,
		`new URLSearchParams(location.search).get('preset') === 'aws-standard'`)
	if got := eval[int](t, tb, `history.length`); got != h+1 {
		t.Errorf("history.length %d after the switch, want %d (a discrete change pushes)", got, h+1)
	}
	eval[bool](t, tb, `(history.back(), true)`)
	exPollAll(t, tb, "Back to the preset's own base "+base,
		`new URLSearchParams(location.search).get('base') !== '1s'`,
		`document.getElementById('base-value').value === '`+base+`'`,
		first+` === '`+nominal+`'`,
		`!document.getElementById('throttle').checked`)
	exNoProblems(t, tb)
}
