//go:build browser && !wasm

// Presenter mode (?present=1) at a projector's 1024x768, every lesson and
// every one of its one-click setups (the "traps"), in both languages: the
// page fits the screen, a second policy's numbers show, and every text of
// the widget's HTML is at presenter mode's type size.

package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// prLinks is how many one-click setups lesson n has (its file's links).
func prLinks(tb testing.TB, lang string, n int) int {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("../../static/lessons/%s/%02d.txt", lang, n))
	if err != nil {
		tb.Fatal(err)
	}
	_, links, ok := strings.Cut(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n---links\n")
	if !ok {
		return 0
	}
	k := 0
	for _, line := range strings.Split(links, "\n") {
		if strings.Contains(line, "|") {
			k++
		}
	}
	return k
}

// prMeasureJS is what a person sees of presenter mode: the page's height,
// the smallest text of the widget as drawn (an svg text's size times the
// chart's scale; a field's own type) with where it is, the second policy's
// numbers (each card's B line: shown, and on the screen), and the height
// of the widget's column left empty below its last part.
const prMeasureJS = `(() => {
  const w = document.querySelector('.lesson-widget');
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.getAttribute('class') ? '.' + e.getAttribute('class').split(' ').join('.') : '');
  let minPx = 999, minWhat = '', texts = 0, bottom = 0, chartPx = 999, chartWhat = '';
  const over = [];
  for (const e of w.querySelectorAll('*')) {
    if (!shown(e) || e.tagName === 'OPTION') continue;
    bottom = Math.max(bottom, e.getBoundingClientRect().bottom);
    const own = [...e.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).map(n => n.textContent.trim()).join(' ');
    const field = /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(e.tagName);
    if (!own && !field) continue;
    if (e.closest('.visually-hidden')) continue;
    const cs = getComputedStyle(e);
    if (!field && !(e instanceof SVGElement) && cs.display !== 'inline' && cs.overflowX === 'visible' && e.scrollWidth > e.clientWidth + 1)
      over.push(name(e) + ' "' + own.slice(0, 24) + '" (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
    if (e.tagName === 'INPUT' && e.type === 'text' && e.scrollWidth > e.clientWidth + 1)
      over.push(name(e) + ' "' + e.value + '" (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
    let px = parseFloat(cs.fontSize);
    if (e instanceof SVGElement) { const m = e.getScreenCTM(); px *= Math.hypot(m.a, m.b);
      if (px < chartPx) { chartPx = px; chartWhat = name(e) + ' "' + own.slice(0, 24) + '"'; } continue; }
    texts++;
    if (px < minPx) { minPx = px; minWhat = name(e) + ' "' + (own || e.value || '').slice(0, 24) + '"'; }
  }
  const bs = [...w.querySelectorAll('.metric-b')];
  const bHidden = bs.filter(e => shown(e.parentElement)).filter(e => !shown(e) || e.getBoundingClientRect().bottom > innerHeight + 0.5).map(e => e.parentElement.id);
  const layout = document.querySelector('.lesson-layout').getBoundingClientRect();
  return {scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
    innerHeight, innerWidth, minPx, minWhat, texts, chartPx, chartWhat, over,
    hasB: /[?&]b\./.test(location.search), bCards: bs.length, bHidden,
    empty: Math.max(0, layout.bottom - bottom), view: (new URLSearchParams(location.search)).get('view') || ''};
})()`

// prReadyJS is wsReadyJS for a setup too: a table with no rows (one
// attempt: no retry) or the delay chart (view=delays) is ready.
const prReadyJS = `(() => { const w = document.querySelector('.lesson-widget'); if (!w) return false;
  if (w.querySelector('#compare, .herd, #classify-verdict')) return ` + wsReadyJS + `;
  return !!w.querySelector('#delay-table tbody, svg.chart'); })()`

type prMeasure struct {
	ScrollHeight, ScrollWidth, InnerHeight, InnerWidth float64
	MinPx                                              float64
	MinWhat                                            string
	Texts                                              int
	ChartPx                                            float64
	ChartWhat                                          string
	Over                                               []string // texts wider than their boxes
	HasB                                               bool
	BCards                                             int
	BHidden                                            []string
	Empty                                              float64
	View                                               string
}

// Presenter mode's promise for the widget: every text of its HTML (labels,
// fields, buttons, table cells, legends, cards) at prShare of the screen's
// height, the lesson's type: 18.4 px at 768 px, and within its box (save
// prKnownOver's). The charts' own text (drawn
// in their SVG units, 11.8 px at 1024x768) and the column left empty under
// the widget are measured and logged, not yet held to it: both need the
// charts drawn in a frame of the projector's size.
const prShare = 0.024

// prKnownOver are the texts known to run out of their boxes, each where
// the promises meet: Russian's "декоррелированный" is 201 px at the
// lesson's type in a jitter's cell 177 px wide at 1024x768, and the
// widget's words do not break (TestBrowserWorkshopPresenterFits).
var prKnownOver = []string{`figcaption.cmp-title "декоррелированный`}

// TestBrowserPresenterEveryTrap opens each lesson in presenter mode at
// 1024x768, then each of its one-click setups, and holds each to the
// promises above. PR_SHOTS=1 saves a screenshot of each.
func TestBrowserPresenterEveryTrap(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1024, 768)
			for n := 1; n <= wsLessons; n++ {
				tb.open(t, fmt.Sprintf("lesson=%d&present=1&lang=%s", n, lang))
				wsWaitLesson(t, tb, lang, n)
				links := prLinks(t, lang, n)
				for k := -1; k < links; k++ {
					what := fmt.Sprintf("lesson %d", n)
					if k >= 0 {
						what = fmt.Sprintf("lesson %d, setup %d", n, k+1)
						sel := fmt.Sprintf(`.lesson-links button[data-link="%d"]`, k)
						if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
							t.Fatalf("%s: click %s: %v", what, sel, err)
						}
					}
					poll[bool](t, tb, what+"'s widget", prReadyJS)
					wsQuiet(t, tb, 100)
					m := eval[prMeasure](t, tb, prMeasureJS)
					t.Logf("%s (%s): page %.0f px high; widget text %.1f px at least (%s, of %d), chart text %.1f px (%s); B: %v, %d cards, hidden %v; %.0f px empty",
						what, m.View, m.ScrollHeight, m.MinPx, m.MinWhat, m.Texts, m.ChartPx, m.ChartWhat, m.HasB, m.BCards, m.BHidden, m.Empty)
					if os.Getenv("PR_SHOTS") != "" {
						exShot(t, tb, fmt.Sprintf("present-%s-%02d-%d", lang, n, k+1))
					}
					prCheck(t, what, m)
				}
			}
			exNoProblems(t, tb)
		})
	}
}

func prCheck(t *testing.T, what string, m prMeasure) {
	t.Helper()
	if m.ScrollHeight > m.InnerHeight {
		t.Errorf("%s: the page is %.0f px high, %.0f px more than the %.0f px screen", what, m.ScrollHeight, m.ScrollHeight-m.InnerHeight, m.InnerHeight)
	}
	if m.ScrollWidth > m.InnerWidth {
		t.Errorf("%s: the page is %.0f px wide for a %.0f px screen", what, m.ScrollWidth, m.InnerWidth)
	}
	if want := prShare * m.InnerHeight; m.MinPx < want-0.05 {
		t.Errorf("%s: the widget's %s is %.1f px, want at least %.1f px (%.1f%% of the screen's height)", what, m.MinWhat, m.MinPx, want, 100*prShare)
	}
	var over []string
	for _, o := range m.Over {
		if !slices.ContainsFunc(prKnownOver, func(k string) bool { return strings.HasPrefix(o, k) }) {
			over = append(over, o)
		}
	}
	if len(over) > 0 {
		t.Errorf("%s: text runs out of its box: %s", what, strings.Join(over, "; "))
	}
	if m.HasB && m.BCards == 0 {
		t.Errorf("%s: a second policy and no card shows its numbers", what)
	}
	if len(m.BHidden) > 0 {
		t.Errorf("%s: the second policy's numbers are hidden or off the screen on %v", what, m.BHidden)
	}
}

// The lessons that offer the flow beside their chart (3, 8, 11, 15)
// switch to it from the lesson's head, in the link, and in presenter
// mode at a projector's 1024x768 and at 1920x1080 the flow fits the
// screen with all its text, the picture's labels too, at the lesson's type
// size. A link that names the lesson and the view gets the lesson's own
// settings; the switch goes back to the chart.
func TestBrowserPresenterFlow(t *testing.T) {
	flowReady := `!!document.getElementById('flow-dots') && !document.getElementById('flow-play').disabled`
	for _, size := range [][2]int64{{1024, 768}, {1920, 1080}} {
		tb := newTab(t, size[0], size[1])
		for _, lang := range []string{"en", "ru"} {
			for _, n := range []int{3, 8, 11, 15} {
				what := fmt.Sprintf("%dx%d, %s, lesson %d", size[0], size[1], lang, n)
				tb.open(t, fmt.Sprintf("lesson=%d&present=1&lang=%s", n, lang))
				wsWaitLesson(t, tb, lang, n)
				poll[bool](t, tb, what+"'s chart", prReadyJS)
				if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS("#lesson-view-flow"))); err != nil {
					t.Fatalf("%s: the switch to the flow: %v", what, err)
				}
				poll[bool](t, tb, what+"'s flow", flowReady)
				eval[string](t, tb, setRangeJS("flow-scrub", "5.3"))
				wsQuiet(t, tb, 100)
				m := eval[prMeasure](t, tb, prMeasureJS)
				t.Logf("%s: page %.0f px high; widget text %.1f px at least (%s), picture text %.1f px (%s)", what, m.ScrollHeight, m.MinPx, m.MinWhat, m.ChartPx, m.ChartWhat)
				prCheck(t, what, m)
				if want := prShare * m.InnerHeight; m.ChartPx < want-0.5 {
					t.Errorf("%s: the picture's %s is %.1f px, want the lesson's %.1f px", what, m.ChartWhat, m.ChartPx, want)
				}
				if m.View != "flow" {
					t.Errorf("%s: the link says view=%q", what, m.View)
				}
				if os.Getenv("PR_SHOTS") != "" {
					exShot(t, tb, fmt.Sprintf("present-flow-%d-%s-%02d", size[0], lang, n))
				}
			}
		}
		// A link to the lesson's flow: the lesson's fleet, not the page's
		// default herd; back to the chart from the switch.
		tb.open(t, "lesson=15&view=flow&present=1&lang=en")
		wsWaitLesson(t, tb, "en", 15)
		poll[bool](t, tb, "lesson 15's flow", flowReady)
		if nodes := eval[int](t, tb, `document.querySelectorAll('#flow .flow-node').length`); nodes != 2 {
			t.Errorf("?lesson=15&view=flow draws %d servers, the lesson has 2", nodes)
		}
		// A one-click setup keeps the flow shown; the next lesson opens with
		// its own widget.
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS(`.lesson-links button[data-link="0"]`))); err != nil {
			t.Fatal(err)
		}
		poll[bool](t, tb, "the setup, in the flow", `new URLSearchParams(location.search).get('balance') === 'least' && new URLSearchParams(location.search).get('view') === 'flow' && `+flowReady)
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS("#lesson-view-herd"))); err != nil {
			t.Fatal(err)
		}
		poll[bool](t, tb, "the chart again", `!document.getElementById('flow') && !!document.querySelector('.lesson-widget .herd') && !new URLSearchParams(location.search).has('view')`)
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS("#lesson-view-flow"))); err != nil {
			t.Fatal(err)
		}
		poll[bool](t, tb, "the flow again", flowReady)
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS("#lesson-next"))); err != nil {
			t.Fatal(err)
		}
		wsWaitLesson(t, tb, "en", 16)
		poll[bool](t, tb, "lesson 16's own widget", `!document.getElementById('flow') && !new URLSearchParams(location.search).has('view')`)
		exNoProblems(t, tb)
	}
}
