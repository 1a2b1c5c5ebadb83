//go:build browser && !wasm

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/sim"
)

// The Solve control beside a knob: the value it sets is backoff.Solve's,
// the link holds it, the answer and its errors are in the page's language.
func TestBrowserSolveControl(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	click(t, tb, "solve-base")
	poll[bool](t, tb, "the solve row", `!!document.getElementById('solve-row')`)
	// The box shows 10 s already: Enter solves (so do the button, and Tab
	// once the text changed).
	exKeys(t, tb, "solve-total", "10s", true)
	exEnter(t, tb, "solve-total")
	want, err := backoff.Solve(backoff.Default(), backoff.Goal{Knob: backoff.ParamBase, Target: backoff.WorstTotal, Total: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	base := want.Policy.Get(backoff.ParamBase) // 322.580645ms
	poll[bool](t, tb, "the base box to hold the solved base", `document.getElementById('base-value').value === '`+base+`'`)
	exPollParam(t, tb, "base", base)
	if got := exText(t, tb, "solve-status"); got != "Set to "+base+", the largest that fits: worst total 10s, expected 5s." {
		t.Errorf("status %q", got)
	}
	tb.elementShot(t, "section.controls", "solve-en")
	// Out of reach: the least cap is the base, and five retries of it.
	click(t, tb, "solve-cap")
	poll[bool](t, tb, "the cap's row", `document.getElementById('solve-cap').getAttribute('aria-expanded') === 'true'`)
	tb.typeInto(t, "solve-total", "1s")
	poll[bool](t, tb, "the cap's error", `(document.getElementById('solve-status') || {}).className === 'field-error'`)
	if got := exText(t, tb, "solve-status"); !strings.HasPrefix(got, `Fit the cap to a total of: “1s” is not valid: want at least `) ||
		!strings.HasSuffix(got, "the least total the other knobs allow, with Cap (largest delay) (cap) at its least (322.580645ms)") {
		t.Errorf("unreachable status %q", got)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems:\n  %s", strings.Join(p, "\n  "))
	}

	// In Russian, the expected total, attempts.
	ru := newTab(t, 1280, 900)
	ru.open(t, "lang=ru&jitter=none")
	click(t, ru, "solve-attempts")
	poll[bool](t, ru, "the solve row", `!!document.getElementById('solve-row')`)
	eval[bool](t, ru, `(() => { const s = document.getElementById('solve-target'); s.value = 'expected';
	  s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	ru.typeInto(t, "solve-total", "0,5 мин")
	// No jitter: 1 3 7 15 31 s: five attempts fit half a minute.
	exPollParam(t, ru, "attempts", "5")
	if got := exText(t, ru, "solve-status"); got != "Задано 5 — наибольшее, что укладывается: худшее общее ожидание 15\u00a0с, среднее 15\u00a0с." {
		t.Errorf("ru status %q", got)
	}
	if got := eval[string](t, ru, `document.querySelector('label[for=solve-total]').textContent`); got != "Подобрать число попыток под общее ожидание" {
		t.Errorf("ru label %q", got)
	}
	ru.elementShot(t, "section.controls", "solve-ru")
}

// The herd's verdict in words under its chart: the native run's, in both
// languages.
func TestBrowserHerdVerdict(t *testing.T) {
	r := reqRun(t)
	v, ok := sim.HerdVerdictOf(sim.DefaultConfig(), r)
	if !ok {
		t.Fatal("no native herd verdict")
	}
	for _, l := range []i18n.Lang{i18n.En, i18n.Ru} {
		tb := newTab(t, 1280, 900)
		tb.open(t, "lang="+l.Code())
		want := chart.HerdVerdictText(l, v)
		poll[bool](t, tb, "the herd's verdict", `(() => { const e = document.getElementById('herd-verdict');
		  return !!e && !e.hidden && e.textContent !== ''; })()`)
		if got := exText(t, tb, "herd-verdict"); got != want {
			t.Errorf("%s: verdict %q, want %q", l.Code(), got, want)
		}
		if got := eval[string](t, tb, `document.getElementById('herd-verdict').dataset.lastSuccess`); got != strconv.FormatFloat(v.LastSuccess, 'f', -1, 64) {
			t.Errorf("%s: data-last-success %q, want %v", l.Code(), got, v.LastSuccess)
		}
		if p := tb.problems(t); len(p) > 0 {
			t.Errorf("problems:\n  %s", strings.Join(p, "\n  "))
		}
		tb.elementShot(t, "section.herd", "herd-verdict-"+l.Code())
	}
}
