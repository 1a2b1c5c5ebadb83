//go:build browser && !wasm

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/backoff-playground/playground/app/i18n"
)

// axePath is axe-core's script, installed by `make test-browser` (npm,
// pinned in the Makefile); PLAYGROUND_AXE overrides.
func axePath() string {
	if p := os.Getenv("PLAYGROUND_AXE"); p != "" {
		return p
	}
	return "../../tmp/node_modules/axe-core/axe.min.js"
}

// axeScript reads axe-core, or fails the test (CI) or skips it (a
// developer without it).
func axeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axePath())
	if err != nil {
		msg := fmt.Sprintf("axe-core not found (%v): run `make test-browser`, which installs it", err)
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: the accessibility checks must run: " + msg)
		}
		t.Skip(msg)
	}
	if !strings.Contains(string(b[:min(len(b), 200)]), "axe v4.14.1") {
		t.Fatalf("%s is not axe-core 4.14.1", axePath())
	}
	return string(b)
}

// axeViolation is one rule axe found broken, with the nodes that break it.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []struct {
		Target         []any
		FailureSummary string
	}
}

// axeRules are the rule sets checked: WCAG 2.0, 2.1 and 2.2, A and AA,
// and axe's best practices.
const axeRules = `{runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice']}, resultTypes: ['violations']}`

// axeCheck runs axe-core on the tab's page and reports every violation.
func axeCheck(t *testing.T, tb *tab, script, what string) {
	t.Helper()
	if !eval[bool](t, tb, `typeof window.axe === 'object'`) {
		eval[bool](t, tb, script+"\n;true")
	}
	raw := eval[string](t, tb, `axe.run(document, `+axeRules+`).then(r => JSON.stringify(r.violations))`)
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("%s: axe's answer: %v", what, err)
	}
	for _, v := range vs {
		var nodes []string
		for i, n := range v.Nodes {
			if i == 4 {
				nodes = append(nodes, fmt.Sprintf("… %d more", len(v.Nodes)-4))
				break
			}
			nodes = append(nodes, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.FailureSummary, "\n", " ")))
		}
		t.Errorf("%s: axe %s (%s): %s\n    %s", what, v.ID, v.Impact, v.Help, strings.Join(nodes, "\n    "))
	}
}

// TestBrowserAxe: axe-core reports no violation of WCAG 2.0–2.2 A and AA
// or of its best practices on the page in both languages and both themes,
// each embedded view, a lesson, presenter mode, a scenario and the
// two-policy comparison, and with the charts' numbers open.
func TestBrowserAxe(t *testing.T) {
	script := axeScript(t)
	tb := newTab(t, 1280, 900)
	for _, q := range []string{
		"lang=en", "lang=ru", "lang=en&theme=dark", "lang=ru&theme=light",
		"lang=en&view=table", "lang=en&view=delays", "lang=en&view=herd", "lang=ru&view=compare", "lang=en&view=classify",
		"lang=en&lesson=1", "lang=ru&lesson=3&present=1", "lang=en&lesson=15&view=flow&present=1", "lang=ru&lesson=11&view=flow",
		"lang=en&scenario=metastable", "lang=en&b.preset=gax",
		"lang=en&export=go-aws&embed=herd",
	} {
		tb.open(t, q)
		poll[bool](t, tb, "the page to settle", settledOrNoHerdJS)
		axeCheck(t, tb, script, q)
	}
	// The sweep, drawn, and the flow, at a moment with calls on their way.
	tb.open(t, "lang=ru&view=sweep&sweep=clients%3D100%2C300&sweep-lines=none%2Cfull&sweep-runs=1&theme=dark")
	poll[bool](t, tb, "the sweep", `!!document.getElementById('sweep-table') && document.getElementById('sweep').getAttribute('aria-busy') === 'false'`)
	axeCheck(t, tb, script, "the sweep")
	tb.open(t, "lang=en&view=flow")
	poll[bool](t, tb, "the flow", `!!document.getElementById('flow-dots') && !document.getElementById('flow-play').disabled`)
	eval[string](t, tb, setRangeJS("flow-scrub", "2.5"))
	axeCheck(t, tb, script, "the flow")
	// The charts' numbers open: the herd's table (two, with a second
	// policy) and the steady traffic's, in both languages and themes.
	for _, c := range []struct{ q, open string }{
		{"lang=en&b.preset=gax", "herd-numbers"}, {"lang=ru&theme=dark", "herd-numbers"},
		{"lang=ru&scenario=metastable", "req-numbers"}, {"lang=en&theme=dark&scenario=hedge&b.preset=gax", "req-numbers"},
	} {
		tb.open(t, c.q)
		poll[bool](t, tb, "the page to settle", settledOrNoHerdJS)
		eval[bool](t, tb, `(document.getElementById('`+c.open+`-toggle').click(), true)`)
		poll[bool](t, tb, c.open+" open", `!!document.querySelector('#`+c.open+` table')`)
		axeCheck(t, tb, script, c.q+" with #"+c.open+" open")
	}
}

// settledOrNoHerdJS: the herd's run (if the page shows one) has settled.
const settledOrNoHerdJS = `(() => { const p = document.getElementById('herd-progress');
  return (!p || p.hidden) && !document.querySelector('#compare .pending') && !document.getElementById('app-wasm-loader'); })()`

// press sends one key to the focused element.
func press(t *testing.T, tb *tab, key string) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatal(err)
	}
}

func focusID(t *testing.T, tb *tab, id string) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.Focus(chromedp.ID(id))); err != nil {
		t.Fatal(err)
	}
}

func activeID(t *testing.T, tb *tab) string {
	t.Helper()
	return eval[string](t, tb, `document.activeElement ? document.activeElement.id : ''`)
}

// Toggles say whether they are open; disabled buttons look it; each view
// and lesson has one h1 and a document title of its own.
func TestBrowserA11yStructure(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	for _, id := range []string{"embed", "export", "import"} {
		if v := eval[string](t, tb, `document.getElementById('`+id+`').getAttribute('aria-expanded')`); v != "false" {
			t.Errorf("#%s aria-expanded=%q before a click", id, v)
		}
		eval[bool](t, tb, `(document.getElementById('`+id+`').click(), true)`)
		poll[bool](t, tb, id+" expanded", `document.getElementById('`+id+`').getAttribute('aria-expanded') === 'true'`)
	}
	if got := eval[[]string](t, tb, `[...document.querySelectorAll('h1')].map(h => h.textContent)`); len(got) != 1 {
		t.Errorf("the page's h1s: %q", got)
	}
	l := i18n.En
	for _, v := range []string{"table", "delays", "herd", "compare", "classify", "sweep", "flow"} {
		tb.open(t, "lang=en&view="+v)
		h1 := eval[[]string](t, tb, `[...document.querySelectorAll('h1')].map(h => h.textContent)`)
		title := eval[string](t, tb, `document.title`)
		if len(h1) != 1 || title != l.T("view."+v)+" · "+l.T("page.title") {
			t.Errorf("view %s: h1 %q, title %q", v, h1, title)
		}
	}
	tb.open(t, "lang=en&lesson=1")
	poll[bool](t, tb, "lesson 1", `(document.getElementById('lesson-title') || {}).tagName === 'H1' && !document.getElementById('lesson-title').classList.contains('pending')`)
	h1 := exText(t, tb, "lesson-title")
	poll[bool](t, tb, "the lesson's document title", fmt.Sprintf(`document.title.startsWith(%q)`, h1))
	if n := eval[int](t, tb, `document.querySelectorAll('h1').length`); n != 1 {
		t.Errorf("lesson 1 has %d h1s", n)
	}
	if eval[bool](t, tb, `document.getElementById('lesson').hasAttribute('aria-live')`) {
		t.Error("the lesson's whole text is a live region: every change reads it all out")
	}
	// A disabled button looks it: no fill, a dashed edge, a no-entry pointer.
	st := eval[map[string]string](t, tb, `(() => { const b = document.getElementById('lesson-prev'), s = getComputedStyle(b);
	  return {disabled: String(b.disabled), border: s.borderTopStyle, cursor: s.cursor, bg: s.backgroundColor}; })()`)
	if st["disabled"] != "true" || st["border"] != "dashed" || st["cursor"] != "not-allowed" || st["bg"] != "rgba(0, 0, 0, 0)" {
		t.Errorf("lesson 1's disabled Previous: %v", st)
	}
	if v := eval[string](t, tb, `document.getElementById('lesson-answer').getAttribute('aria-expanded')`); v != "false" {
		t.Errorf("#lesson-answer aria-expanded=%q", v)
	}
}

// Keyboard: each arrow press on a slider moves the value shown; arrowing
// the language select does not switch the page, Enter does; the skip link
// jumps past the controls; the focus lands on a sensible element after
// Compare, Remove and a change of lesson.
func TestBrowserA11yKeyboard(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	for _, id := range []string{"base", "cap"} {
		focusID(t, tb, id)
		for i := 0; i < 6; i++ {
			before := exValue(t, tb, id+"-value")
			press(t, tb, kb.ArrowLeft)
			if _, err := pollIn[bool](tb.ctx, fmt.Sprintf(`document.getElementById('%s-value').value !== %q`, id, before),
				10*time.Millisecond, 3*time.Second); err != nil {
				t.Errorf("#%s: arrow press %d left the value at %q", id, i+1, before)
			}
		}
	}

	focusID(t, tb, "lang")
	press(t, tb, kb.ArrowDown)
	time.Sleep(400 * time.Millisecond)
	if lang := eval[string](t, tb, `document.documentElement.lang`); lang != "en" {
		t.Errorf("an arrow press on the language select switched the page to %q", lang)
	}
	press(t, tb, kb.Enter)
	poll[bool](t, tb, "Russian after Enter", `document.documentElement.lang === 'ru'`)
	focusID(t, tb, "lang")
	press(t, tb, kb.ArrowUp)
	focusID(t, tb, "embed") // leaving the select applies it
	poll[bool](t, tb, "English after leaving the select", `document.documentElement.lang === 'en'`)

	tb.open(t, "lang=en")
	press(t, tb, kb.Tab)
	if id := activeID(t, tb); id != "skip" {
		t.Fatalf("the first Tab reaches #%s, want the skip link", id)
	}
	if !eval[bool](t, tb, `(() => { const r = document.getElementById('skip').getBoundingClientRect(); return r.top >= 0 && r.height > 10; })()`) {
		t.Error("the focused skip link is not in sight")
	}
	press(t, tb, kb.Enter)
	poll[bool](t, tb, "the focus on the results", `document.activeElement && document.activeElement.id === 'results'`)

	eval[bool](t, tb, `(document.getElementById('compare-b').click(), true)`)
	poll[bool](t, tb, "the focus on B's card", `document.activeElement && document.activeElement.id === 'b-head'`)
	eval[bool](t, tb, `(document.getElementById('b-remove').click(), true)`)
	poll[bool](t, tb, "the focus back on Compare", `document.activeElement && document.activeElement.id === 'compare-b'`)

	tb.open(t, fmt.Sprintf("lang=en&lesson=%d", wsLessons-1))
	poll[bool](t, tb, "the lesson before the last", `!!document.getElementById('lesson-title') && !document.getElementById('lesson-title').classList.contains('pending')`)
	focusID(t, tb, "lesson-next")
	press(t, tb, kb.Enter)
	poll[bool](t, tb, "the focus on the last lesson's title", `document.activeElement && document.activeElement.id === 'lesson-title' &&
	  !document.activeElement.classList.contains('pending') && document.getElementById('lesson-next').disabled`)
}

// Screen readers: a polite summary once a run settles (the figures, not
// the timing), and charts whose text alternative states their data.
func TestBrowserA11yAnnouncements(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, lang := range []string{"en", "ru"} {
		tb.open(t, "lang="+lang)
		poll[bool](t, tb, "the herd run", settledJS)
		sum := poll[string](t, tb, "the run's summary", `document.getElementById('run-summary').textContent`)
		calls := eval[string](t, tb, `document.querySelector('#metric-calls .metric-value').textContent`)
		t.Logf("%s: %s", lang, sum)
		if !strings.Contains(sum, calls) || strings.Contains(sum, exText(t, tb, "herd-status")) {
			t.Errorf("%s: summary %q: want the calls (%s), not the run's timing", lang, sum, calls)
		}
		if live := eval[string](t, tb, `document.getElementById('run-summary').getAttribute('aria-live') + ' ' + (document.getElementById('herd-status').getAttribute('aria-live') || 'none')`); live != "polite none" {
			t.Errorf("%s: live regions %q, want the summary polite and the status silent", lang, live)
		}
		label := eval[string](t, tb, `document.querySelector('#herd-chart svg').getAttribute('aria-label')`)
		l, _ := i18n.Parse(lang)
		for _, key := range []string{"chart.desc-peak", "chart.desc-capacity"} {
			word := strings.SplitN(l.T(key), "{", 2)[0]
			if !strings.Contains(label, word) {
				t.Errorf("%s: the herd chart's text alternative %q lacks %q", lang, label, word)
			}
		}
		// The chart's text alternative ends with the verdict the page shows.
		if v := exText(t, tb, "herd-verdict"); v == "" || !strings.HasSuffix(label, v) {
			t.Errorf("%s: the herd chart's text alternative %q does not end with the verdict %q", lang, label, v)
		}
	}
	tb.open(t, "lang=en&scenario=metastable-budget")
	poll[bool](t, tb, "the scenario's run", settledJS)
	label := eval[string](t, tb, `document.querySelector('#chart-goodput svg').getAttribute('aria-label')`)
	if !strings.Contains(label, "Most calls:") || !strings.Contains(label, exText(t, tb, "herd-verdict")) {
		t.Errorf("the goodput chart's text alternative %q lacks its peak or the verdict", label)
	}
	if sum := exText(t, tb, "run-summary"); !strings.Contains(sum, exText(t, tb, "herd-verdict")) {
		t.Errorf("the scenario's summary %q lacks the verdict", sum)
	}
}

// contrastJS measures, on the page shown, the focus ring and the form
// fields' edges against what they sit on, and every chart text against
// its background (the nearest opaque one behind it).
const contrastJS = `(() => {
  const rgb = c => { const m = c.match(/[\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const bgOf = el => { for (let e = el; e; e = e.parentElement) { if (e instanceof SVGElement) continue;
    const c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0.5) return c; } return rgb(getComputedStyle(document.body).backgroundColor); };
  const out = {worstText: 99, worstWhat: '', ring: 0, field: 99};
  document.querySelectorAll('svg.chart text').forEach(t => {
    if (!t.getClientRects().length || !t.textContent.trim()) return;
    const r = ratio(rgb(getComputedStyle(t).fill), bgOf(t.closest('svg')));
    if (r < out.worstText) { out.worstText = r; out.worstWhat = t.getAttribute('class') + ' "' + t.textContent + '"'; }
  });
  const card = bgOf(document.querySelector('.card')), page = rgb(getComputedStyle(document.body).backgroundColor);
  const box = document.getElementById('base-value');
  box.focus();
  out.ring = Math.min(ratio(rgb(getComputedStyle(box).outlineColor), card), ratio(rgb(getComputedStyle(box).outlineColor), page));
  box.blur();
  ['base-value', 'preset'].forEach(id => { const s = getComputedStyle(document.getElementById(id)), e = rgb(s.borderTopColor);
    out.field = Math.min(out.field, ratio(e, card), ratio(e, rgb(s.backgroundColor))); });
  return out; })()`

// Contrast in both themes: the focus ring and the fields' edges 3:1 or
// more, every chart text 4.5:1 or more.
func TestBrowserA11yContrast(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, q := range []string{"lang=en&theme=light", "lang=en&theme=dark", "lang=ru&theme=light&b.preset=gax", "lang=en&theme=light&scenario=metastable"} {
		tb.open(t, q)
		poll[bool](t, tb, "the run", settledJS)
		m := eval[map[string]any](t, tb, contrastJS)
		t.Logf("%s: %v", q, m)
		if r := m["ring"].(float64); r < 3 {
			t.Errorf("%s: focus ring %.2f:1", q, r)
		}
		if r := m["field"].(float64); r < 3 {
			t.Errorf("%s: field edges %.2f:1", q, r)
		}
		if r := m["worstText"].(float64); r < 4.5 {
			t.Errorf("%s: chart text %s at %.2f:1", q, m["worstWhat"], r)
		}
	}
}

// Reflow: a lesson's page fits 320 px without sideways scrolling, and
// reduced motion stops the loader's spinner from the first paint.
func TestBrowserA11yReflowAndMotion(t *testing.T) {
	tb := newTab(t, 320, 640)
	for _, q := range []string{"lang=en&lesson=1", "lang=ru&lesson=4", "lang=ru&lesson=13", "lang=en&lesson=7"} {
		tb.open(t, q)
		poll[bool](t, tb, "the lesson", `!!document.getElementById('lesson-title') && !document.getElementById('lesson-title').classList.contains('pending')`)
		w := eval[map[string]any](t, tb, `(() => { const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)
		  .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className); return {page: document.documentElement.scrollWidth, vw: innerWidth, wide: wide}; })()`)
		if w["page"].(float64) > w["vw"].(float64) {
			t.Errorf("%s: %v px wide on a %v px screen: %v", q, w["page"], w["vw"], w["wide"])
		}
		tb.viewportShot(t, "reflow-320-"+strings.ReplaceAll(q, "&", "-"))
	}
	if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
		t.Fatal(err)
	}
	tb.open(t, "lang=en")
	anim := eval[string](t, tb, `(() => { const d = document.createElement('div'); d.className = 'goapp-logo goapp-spin'; document.body.append(d);
	  const a = getComputedStyle(d).animationName; d.remove(); return a; })()`)
	if anim != "none" {
		t.Errorf("with reduced motion the loader spins: animation %q", anim)
	}
}
