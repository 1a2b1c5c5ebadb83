//go:build browser && !wasm

package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// lsTitle is the open lesson's title, or "" while it loads: the loading
// title ("Loading…", class pending) is not a lesson's. A page the worker
// answers is the cached main page, so a lesson there is fetched and shows
// the loading title first.
const lsTitle = `(document.querySelector('#lesson-title:not(.pending)') || {}).textContent || ''`

// A lesson in each language: its text, its widget set up from its file.
func TestBrowserLessonLanguages(t *testing.T) {
	tb := newTab(t, 1280, 800)
	for _, c := range []struct{ lang, cyr string }{{"ru", "true"}, {"en", "false"}} {
		tb.open(t, "lesson=1&lang="+c.lang)
		title := poll[string](t, tb, "the lesson's title", lsTitle)
		if got := fmt.Sprint(strings.ContainsAny(title, "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ")); got != c.cyr {
			t.Errorf("lang=%s: title %q", c.lang, title)
		}
		poll[bool](t, tb, "lesson 1's table", `document.querySelectorAll('#delay-table tbody tr').length === 5 &&
		  document.getElementById('total-max').dataset.seconds === '31'`)
		// The lesson's text is a file of its own, fetched beside the
		// widget's setup: either may come first.
		if _, err := pollIn[bool](tb.ctx, `!!document.querySelector('#lesson .lesson-try') && !!document.querySelector('#lesson .lesson-question')`,
			10*time.Millisecond, 10*time.Second); err != nil {
			t.Errorf("lang=%s: no prompt or question: %v", c.lang, err)
		}
	}
}

// The answer shows on request; the buttons and the keys move through the
// lessons, and the address follows; keys typed into a field stay there.
func TestBrowserLessonNavigation(t *testing.T) {
	tb := newTab(t, 1280, 800)
	tb.open(t, "lesson=2&lang=en")
	first := poll[string](t, tb, "lesson 2", lsTitle)
	if !eval[bool](t, tb, `document.getElementById('lesson-answer-text').hidden`) {
		t.Error("the answer shows before it is asked for")
	}
	eval[bool](t, tb, `(document.getElementById('lesson-answer').click(), true)`)
	poll[bool](t, tb, "the answer", `!document.getElementById('lesson-answer-text').hidden && document.getElementById('lesson-answer-text').textContent.length > 10`)

	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, tb, "lesson 3 by ArrowRight", `new URLSearchParams(location.search).get('lesson') === '3' && (`+lsTitle+`) !== '' && (`+lsTitle+`) !== `+fmt.Sprintf("%q", first))
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kb.PageUp)); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, tb, "lesson 2 by PageUp", `new URLSearchParams(location.search).get('lesson') === '2' && (`+lsTitle+`) === `+fmt.Sprintf("%q", first))

	// With the focus in a field, the arrows move the caret, not the lesson.
	if err := chromedp.Do(tb.ctx, chromedp.Focus(chromedp.ID("base-value")), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if got := eval[string](t, tb, `new URLSearchParams(location.search).get('lesson')`); got != "2" {
		t.Errorf("ArrowRight in a field moved to lesson %s", got)
	}
	eval[bool](t, tb, `(document.activeElement.blur(), document.getElementById('lesson-next').click(), true)`)
	poll[bool](t, tb, "lesson 3 by its button", `new URLSearchParams(location.search).get('lesson') === '3'`)
	// A one-click setup: lesson 1's first link (tenacity: attempts=1).
	tb.open(t, "lesson=1&lang=en")
	poll[bool](t, tb, "lesson 1's links", `document.querySelectorAll('.lesson-links button[data-link]').length > 0`)
	eval[bool](t, tb, `(document.querySelector('.lesson-links button[data-link]').click(), true)`)
	poll[bool](t, tb, "the setup in the URL and the table", `new URLSearchParams(location.search).get('attempts') === '1' &&
	  new URLSearchParams(location.search).get('lesson') === '1' && document.querySelectorAll('#delay-table tbody tr').length === 0`)
	tb.open(t, fmt.Sprintf("lesson=%d&lang=en", wsLessons))
	poll[string](t, tb, "the last lesson", lsTitle)
	if !eval[bool](t, tb, `document.getElementById('lesson-next').disabled`) {
		t.Error("lesson-next is enabled on the last lesson")
	}
}

// The article's classification cases, one click each, in both languages.
func TestBrowserLessonClassifyCases(t *testing.T) {
	tb := newTab(t, 1280, 800)
	want := []string{"true", "true", "true", "false", "false", "true", "false", "true"}
	for _, lang := range []string{"en", "ru"} {
		tb.open(t, "view=classify&lang="+lang)
		n := eval[int](t, tb, `document.querySelectorAll('.cases button').length`)
		if n != len(want) {
			t.Fatalf("%s: %d cases", lang, n)
		}
		for i, w := range want {
			eval[bool](t, tb, fmt.Sprintf(`(document.querySelectorAll('.cases button')[%d].click(), true)`, i))
			got := poll[string](t, tb, "the verdict", fmt.Sprintf(`(() => { const v = document.getElementById('classify-verdict');
			  return document.getElementById('classify-status').value !== '' && v.dataset.retry === %q ? v.dataset.retry : ''; })()`, w))
			if got != w {
				t.Errorf("%s case %d: retry %s, want %s", lang, i, got, w)
			}
		}
	}
	tb.typeInto(t, "classify-status", "999")
	poll[bool](t, tb, "an error for status 999", `document.getElementById('classify-verdict').dataset.retry === '' || !('retry' in document.getElementById('classify-verdict').dataset) || document.getElementById('classify-verdict').classList.contains('error')`)
}

// After one visit, any link loads offline: a query, a lesson, Russian.
// The server is stopped: nothing answers at its address any more.
func TestBrowserLessonOffline(t *testing.T) {
	setup(t)
	base, stop, err := startServer("--addr", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	tb := newTab(t, 1280, 800)
	tb.openURL(t, base+"?lang=en")
	poll[bool](t, tb, "the worker to control the page, with the lessons cached", `(async () => {
	  const r = await navigator.serviceWorker.ready; if (!r.active) return false;
	  const keys = await caches.keys(); for (const k of keys) { const c = await caches.open(k);
	    if (await c.match(new URL('web/static/lessons/ru/05.txt', location.href).href)) return true; } return false; })()`)
	stop()
	stopped = true
	if _, err := http.Get(base); err == nil {
		t.Fatal("precondition: the server still answers")
	}
	tb.openURL(t, base+"?attempts=4&jitter=none&lang=en")
	poll[bool](t, tb, "3 rows offline", `document.querySelectorAll('#delay-table tbody tr').length === 3`)
	tb.openURL(t, base+"?lesson=5&lang=en")
	if title := poll[string](t, tb, "lesson 5 offline", lsTitle); title == "" {
		t.Error("no lesson offline")
	}
	tb.openURL(t, base+"?lang=ru")
	poll[bool](t, tb, "the Russian page offline", `[...document.querySelectorAll('h2')].some(h => h.textContent === 'Политика повторов')`)
}

// The go-retryablehttp trap, one click in lesson 7: its early rules do not
// retry a 429 that the article's do; the link keeps it in the URL.
func TestBrowserLessonRetryablehttpTrap(t *testing.T) {
	tb := newTab(t, 1280, 800)
	tb.open(t, "lesson=7&lang=en")
	poll[bool](t, tb, "lesson 7's links", `document.querySelectorAll('.lesson-links button[data-link]').length > 0`)
	eval[bool](t, tb, `(document.querySelector('.lesson-links button[data-link]').click(), true)`)
	poll[bool](t, tb, "429 not retried under the old rules", `document.getElementById('classify-status').value === '429' &&
	  document.getElementById('classify-rules').value === 'retryablehttp-2019' &&
	  document.getElementById('classify-verdict').dataset.retry === 'false'`)
	poll[bool](t, tb, "the rules in the URL", `new URLSearchParams(location.search).get('c.rules') === 'retryablehttp-2019'`)
	// The article's rules retry it.
	eval[bool](t, tb, `(() => { const s = document.getElementById('classify-rules'); s.value = 'article';
	  s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	poll[bool](t, tb, "429 retried under the article's rules", `document.getElementById('classify-verdict').dataset.retry === 'true'`)
}

// The trap of Polly's first decorrelated jitter, one click from lesson 4
// in each language, on a projector: its delay chart, a fifth or more of
// the 300 clients' dots exactly on the cap line (the clamp; about 21% over
// ten retries with a cap of 10 times the base), and the lesson still on
// one 1024x768 screen.
func TestBrowserLessonPollyFirstJitterTrap(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1024, 768)
			tb.open(t, "lesson=4&present=1&lang="+lang)
			wsWaitLesson(t, tb, lang, 4)
			sel := `[...document.querySelectorAll('.lesson-links button[data-link]')].find(b => /Polly/.test(b.textContent) && /cap|потолк/.test(b.textContent))`
			if !eval[bool](t, tb, `(() => { const b = `+sel+`; if (!b) return false; b.click(); return true; })()`) {
				t.Fatal("lesson 4 has no link to Polly's first decorrelated jitter")
			}
			exPollParam(t, tb, "preset", "polly-wiki")
			exPollParam(t, tb, "view", "delays")
			exPollParam(t, tb, "lesson", "4")
			got := poll[map[string]float64](t, tb, "the delay chart's dots and cap", `(() => { const svg = document.querySelector('.lesson-widget #delay-chart svg');
			  const cap = svg && svg.querySelector('path.cap'), dots = svg && svg.querySelector('path.dots');
			  if (!cap || !dots) return null;
			  const ys = d => [...d.matchAll(/M\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map(m => +m[2]);
			  const cy = ys(cap.getAttribute('d'))[0], all = ys(dots.getAttribute('d'));
			  return {dots: all.length, atCap: all.filter(y => Math.abs(y - cy) < 0.01).length}; })()`)
			t.Logf("%s: %.0f of %.0f dots on the cap line", lang, got["atCap"], got["dots"])
			if got["dots"] < 2000 || got["atCap"] < 0.15*got["dots"] {
				t.Errorf("%.0f of %.0f dots on the cap line: want 10 retries of 300 clients and a fifth or so at the cap", got["atCap"], got["dots"])
			}
			wsQuiet(t, tb, 100)
			wsCheckFit(t, "lesson 4, Polly's first jitter", eval[wsFit](t, tb, wsFitJS))
			exShot(t, tb, "lesson-polly-first-"+lang)
			exNoProblems(t, tb)
		})
	}
}
