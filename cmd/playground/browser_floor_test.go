//go:build browser && !wasm

package main

import (
	"slices"
	"strings"
	"testing"
)

// TestBrowserImportFloor: tenacity's README example pasted in the import
// panel loads its min as the floor: the floor box shows it, the link holds
// floor=4s and the table starts at 4 s. A floor above the cap typed in the
// box is refused with an error naming it and the cap, the link unchanged;
// in Russian too.
func TestBrowserImportFloor(t *testing.T) {
	tb := newTab(t, 1280, 1000)
	tb.open(t, articleQuery)
	eval[bool](t, tb, openImportJS)
	poll[bool](t, tb, "the import panel", `!!document.getElementById('import-text')`)
	eval[bool](t, tb, applyJS("@retry(stop=stop_after_attempt(5), wait=wait_exponential(multiplier=1, min=4, max=10))\ndef f(): ...\n"))
	exPollParam(t, tb, "floor", "4s")
	poll[bool](t, tb, "4 rows", `document.querySelectorAll('#delay-table tbody tr').length === 4`)
	if got := column(tb.table(t), "nominal"); !slices.Equal(got, []string{"4", "4", "4", "8"}) {
		t.Errorf("nominal delays %v, want 4 4 4 8", got)
	}
	if got := exValue(t, tb, "floor-value"); got != "4s" {
		t.Errorf("#floor-value shows %q, want 4s", got)
	}
	before := exTableJSON(t, tb)
	tb.typeInto(t, "floor-value", "20s")
	exSettle(t, tb)
	msg := exFieldError(t, tb, "floor-value")
	if !strings.Contains(msg, "Floor (floor)") || !strings.Contains(msg, "10s") {
		t.Errorf("#floor-value-error %q: want the floor named and the cap's 10s", msg)
	}
	if exParam(t, tb, "floor") != "4s" || exTableJSON(t, tb) != before {
		t.Error("a floor above the cap changed the policy")
	}
	eval[bool](t, tb, `(() => { document.getElementById('floor-value').scrollIntoView({block: 'center'}); return true; })()`)
	tb.viewportShot(t, "floor")
	exNoProblems(t, tb)

	ru := newTab(t, 1280, 1000)
	ru.open(t, "lang=ru&floor=2s&cap=30s")
	if got := exValue(t, ru, "floor-value"); got != "2\u00a0с" {
		t.Errorf("#floor-value shows %q in Russian, want 2 с", got)
	}
	ru.typeInto(t, "floor-value", "1 мин")
	exSettle(t, ru)
	if msg := exFieldError(t, ru, "floor-value"); !strings.Contains(msg, "Нижний порог (floor)") {
		t.Errorf("#floor-value-error %q in Russian: want the floor named", msg)
	}
	ru.typeInto(t, "floor-value", "5 с")
	exPollParam(t, ru, "floor", "5s")
	if got := column(ru.table(t), "min"); got[0] != "5" {
		t.Errorf("min column %v after a 5 s floor, want 5 first", got)
	}
	exNoProblems(t, ru)
}
