//go:build browser && !wasm

// Controls as a user works them: a herd select's "custom…" entry, the
// AWS preset's throttling switch, and the policy panel under fast input.

package main

import (
	"fmt"
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

// TestBrowserPolicyPanelKeepsUp: the policy panel keeps what it is given
// however fast it comes (each slider position and key an event of its own
// task, before the page has taken the last one into its state): the slider
// and the box end where the user left them, the link holds it (a reload
// shows it), and Back after a preset restores the slider too.
func TestBrowserPolicyPanelKeepsUp(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	start := eval[string](t, tb, `document.getElementById('base').value`)
	eval[bool](t, tb, `(async () => { const s = document.getElementById('base');
	  for (let v = 10; v <= 60; v++) { s.value = String(v); s.dispatchEvent(new Event('input', {bubbles: true}));
	    await new Promise(r => setTimeout(r, 0)); }
	  s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	// The box shows the slider's base as the link writes it (English, ms).
	// The element's value moves at once, the page's (the box, then the
	// address) when it has handled the input: read once the page is still,
	// two address writes later, so a poll taken between the slider's last
	// move and the page's is not read as where the drag ended.
	settled := `(() => {
	  const b = new URLSearchParams(location.search).get('base'), box = document.getElementById('base-value').value;
	  return document.getElementById('base').value === '60' && b === box ? b : ''; })()`
	base := poll[string](t, tb, "the dragged base in the box and the address", settled)
	for range 10 {
		eval[bool](t, tb, `new Promise(r => setTimeout(() => r(true), 400))`)
		again := poll[string](t, tb, "the dragged base, still", settled)
		if again == base {
			break
		}
		base = again
	}
	box := base
	tb.open(t, "lang=en&base="+base)
	if v := eval[string](t, tb, `document.getElementById('base').value`); v != "60" {
		t.Errorf("the link's base %s puts the slider at %s: want 60, where it was left", base, v)
	}
	if v := eval[string](t, tb, `document.getElementById('base-value').value`); v != box {
		t.Errorf("the link's base %s shows %q in the box: it showed %q", base, v, box)
	}

	// Typed fast: every key before the page takes the last.
	tb.open(t, "lang=en")
	eval[bool](t, tb, `(async () => { const b = document.getElementById('cap-value'); b.focus(); b.value = '';
	  for (const ch of '45s') { b.value += ch; b.dispatchEvent(new Event('input', {bubbles: true}));
	    await new Promise(r => setTimeout(r, 0)); }
	  b.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	poll[bool](t, tb, "cap 45s in the box and the address", `document.getElementById('cap-value').value === '45s' &&
	  new URLSearchParams(location.search).get('cap') === '45s'`)

	// The herd's knobs too: the clients typed fast, then a select.
	tb.open(t, "lang=en")
	poll[bool](t, tb, "the herd's knobs", `!!document.getElementById('clients-value')`)
	eval[bool](t, tb, `(async () => { const b = document.getElementById('clients-value'); b.focus(); b.value = '';
	  for (const ch of '2500') { b.value += ch; b.dispatchEvent(new Event('input', {bubbles: true}));
	    await new Promise(r => setTimeout(r, 0)); }
	  b.dispatchEvent(new Event('change', {bubbles: true}));
	  const s = document.getElementById('server'); s.value = 'occ'; s.dispatchEvent(new Event('change', {bubbles: true}));
	  return true; })()`)
	poll[bool](t, tb, "2500 clients and the occ server in the boxes and the address", `(() => {
	  const q = new URLSearchParams(location.search);
	  return document.getElementById('clients-value').value === '2500' && document.getElementById('server').value === 'occ' &&
	    q.get('clients') === '2500' && q.get('server') === 'occ'; })()`)

	// A preset, then Back: the slider goes back with the rest.
	tb.open(t, "lang=en")
	eval[bool](t, tb, `(() => { const s = document.getElementById('preset'); s.value = 'grpc-retry';
	  s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	poll[bool](t, tb, "the preset in the address", `new URLSearchParams(location.search).get('preset') === 'grpc-retry'`)
	moved := eval[string](t, tb, `document.getElementById('base').value`)
	if moved == start {
		t.Fatalf("gRPC's base leaves the slider at %s, as the article's: the test cannot tell Back's", moved)
	}
	eval[bool](t, tb, `(history.back(), true)`)
	poll[bool](t, tb, "Back's preset and base slider", fmt.Sprintf(`document.getElementById('preset').value === 'article' &&
	  document.getElementById('base').value === %q`, start))
}
