//go:build browser && !wasm

// The page as a newcomer finds it: what a click, a small screen, a
// laptop's 1024 px, a projector and a screen reader get.

package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/backoff-playground/playground/app/i18n"
)

// Solve's box, clicked, selects its text as the main boxes do: typing 31s
// replaces the 10s it holds ("10s31s" was solved and refused). A total it
// cannot read names the row's label in the page's language, not the CLI's
// flag.
func TestBrowserSolveBoxSelectsOnClick(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, l := range i18n.Langs {
		tb.open(t, "lang="+l.Code())
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("solve-base")), chromedp.WaitVisible(chromedp.ID("solve-total"))); err != nil {
			t.Fatal(err)
		}
		was := exValue(t, tb, "solve-total")
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("solve-total")), chromedp.SendKeys(chromedp.ID("solve-total"), "31s\r")); err != nil {
			t.Fatal(err)
		}
		poll[bool](t, tb, "Solve's answer", `!document.getElementById('solve-status').hidden`)
		status := exText(t, tb, "solve-status")
		if v := exValue(t, tb, "solve-total"); v != "31s" || strings.Contains(status, "31s"+"31s") || eval[bool](t, tb, `document.getElementById('solve-status').classList.contains('field-error')`) {
			t.Errorf("%s: clicked into %q and typed 31s: the box says %q, Solve says %q", l.Code(), was, v, status)
		}
		// A total that is no duration: the row's own label, in the page's
		// language.
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("solve-total")), chromedp.SendKeys(chromedp.ID("solve-total"), "soon\r")); err != nil {
			t.Fatal(err)
		}
		want := l.F("solve.label", l.T("solve.knob.base")) + ": "
		status = poll[string](t, tb, "Solve's error", `document.getElementById('solve-status').classList.contains('field-error') && document.getElementById('solve-status').textContent`)
		if !strings.HasPrefix(status, want) || strings.Contains(status, "worst-total") {
			t.Errorf("%s: Solve's error %q, want it to start %q", l.Code(), status, want)
		}
	}
}

// layoutShiftJS is the page's cumulative layout shift so far (shifts with
// no input just before them, as Lighthouse counts).
const layoutShiftJS = `new Promise(done => { let sum = 0; new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value; }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(sum), 50); })`

// layoutShiftWhy says what moved in the shifts layoutShiftJS counts: each
// shift's value and its sources (the element, its box before and after).
const layoutShiftWhy = `new Promise(done => { const out = []; new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) out.push(e.value.toFixed(4) + ' at ' + Math.round(e.startTime) + ' ms: ' +
    (e.sources || []).map(s => { const n = s.node, r = (b => Math.round(b.x) + ',' + Math.round(b.y) + ' ' + Math.round(b.width) + 'x' + Math.round(b.height));
      return (n ? (n.id ? '#' + n.id : n.nodeName + (n.className && n.className.baseVal === undefined ? '.' + String(n.className).split(' ').join('.') : '')) : '?') +
        ' ' + r(s.previousRect) + ' -> ' + r(s.currentRect); }).join('; ')); }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(out.join(' | ')), 50); })`

// At 1024x768 (a laptop, not presenting) the worst case, Σ max, is in
// sight in the table's box with no sideways scrolling, in both languages,
// for the page's policy and one whose times are long; the table then fits
// its box (the percentiles give way, as on a phone). Nothing shifts as the
// page starts.
func TestBrowserWorstCaseInSightAt1024(t *testing.T) {
	tb := newTab(t, 1024, 768)
	for _, q := range []string{"lang=en", "lang=ru", "lang=ru&base=7s&cap=3h&attempts=12&jitter=equal"} {
		tb.open(t, q)
		m := eval[map[string]float64](t, tb, `(() => { const w = document.querySelector('.table-wrap'), r = w.getBoundingClientRect();
		  const h = document.querySelector('#delay-table thead th[data-col="cum_max"]').getBoundingClientRect(), c = document.getElementById('total-max').getBoundingClientRect();
		  return {scroll: w.scrollWidth, client: w.clientWidth, scrollLeft: w.scrollLeft, left: r.left, right: r.right,
		    headLeft: h.left, headRight: h.right, totalLeft: c.left, totalRight: c.right, vw: innerWidth}; })()`)
		t.Logf("%s: %+v", q, m)
		if m["scrollLeft"] != 0 || m["headLeft"] < m["left"] || m["headRight"] > m["right"]+1 || m["totalRight"] > m["right"]+1 || m["totalLeft"] < m["left"] {
			t.Errorf("%s: Σ max (its heading %.0f..%.0f px, the total %.0f..%.0f px) is not whole in the table's box (%.0f..%.0f px)",
				q, m["headLeft"], m["headRight"], m["totalLeft"], m["totalRight"], m["left"], m["right"])
		}
		if !strings.Contains(q, "cap=3h") && m["scroll"] > m["client"]+1 {
			t.Errorf("%s: the table is %.0f px wide in its %.0f px box", q, m["scroll"], m["client"])
		}
		if cls := eval[float64](t, tb, layoutShiftJS); cls > 0.02 {
			t.Errorf("%s: layout shift %.3f: %s", q, cls, eval[string](t, tb, layoutShiftWhy))
		}
		tb.viewportShot(t, "laptop-1024-"+strconv.Itoa(len(q)))
	}
}

// On a phone the result in brief stays in sight of the controls: a
// dragged slider changes the worst case and the verdict the reader sees,
// wherever the controls are scrolled to; it shows what the table and the
// herd's card say. Its height is fixed: nothing shifts as the page starts
// or when the verdict arrives.
func TestBrowserPhoneResultInSight(t *testing.T) {
	tb := newTab(t, 412, 823)
	for _, l := range i18n.Langs {
		tb.open(t, "lang="+l.Code())
		poll[bool](t, tb, "the herd run", settledJS)
		inSight := `(() => { const r = document.getElementById('result-strip').getBoundingClientRect();
		  return r.height > 30 && r.top >= 0 && r.bottom <= innerHeight + 0.5; })()`
		for _, y := range []int{0, 600, 1200} {
			eval[bool](t, tb, fmt.Sprintf(`(window.scrollTo(0, %d), true)`, y))
			if !eval[bool](t, tb, inSight) {
				t.Errorf("%s: scrolled to %d px, the result strip is out of sight", l.Code(), y)
			}
		}
		before := exText(t, tb, "strip-worst")
		eval[bool](t, tb, `(window.scrollTo(0, 0), true)`)
		eval[string](t, tb, setRangeJS("factor", "3"))
		worst := poll[string](t, tb, "the new worst case", `(() => { const s = document.getElementById('strip-worst').textContent;
		  return s !== `+strconv.Quote(before)+` && s; })()`)
		total, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('total-max').dataset.seconds`), 64)
		if want := l.F("strip.worst", l.Seconds(total)); worst != want {
			t.Errorf("%s: the strip says %q, the table's worst case is %q", l.Code(), worst, want)
		}
		poll[bool](t, tb, "the herd run", settledJS)
		if v, s := exText(t, tb, "herd-verdict"), exText(t, tb, "strip-verdict"); v == "" || s != v {
			t.Errorf("%s: the strip's verdict %q, the herd's %q", l.Code(), s, v)
		}
		if !eval[bool](t, tb, inSight) {
			t.Errorf("%s: after the slider's move the result strip is out of sight", l.Code())
		}
		tb.viewportShot(t, "phone-strip-"+l.Code())
	}
	// A fresh load: nothing shifts while the page starts and the verdict
	// arrives (the herd runs after four seconds, or the first scroll).
	tb.open(t, "lang=ru")
	time.Sleep(4500 * time.Millisecond)
	poll[bool](t, tb, "the herd run", settledJS)
	if cls := eval[float64](t, tb, layoutShiftJS); cls > 0.02 {
		t.Errorf("phone: layout shift %.3f", cls)
	}
}

// The live region says the worst-case total and the verdict with the
// run's figures, once a run settles.
func TestBrowserLiveRegionSaysVerdictAndWorst(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, q := range []string{"lang=en", "lang=ru", "lang=en&scenario=metastable"} {
		tb.open(t, q)
		poll[bool](t, tb, "the herd run", settledJS)
		l, _ := i18n.Parse(q[5:7])
		total, _ := strconv.ParseFloat(eval[string](t, tb, `document.getElementById('total-max').dataset.seconds`), 64)
		sum := poll[string](t, tb, "the run's summary", `document.getElementById('run-summary').textContent`)
		worst, verdict := l.F("summary.worst", l.Seconds(total)), exText(t, tb, "herd-verdict")
		if !strings.HasPrefix(sum, worst+" ") || verdict == "" || !strings.Contains(sum, verdict) {
			t.Errorf("%s: the live region says %q; want the worst case %q and the verdict %q", q, sum, worst, verdict)
		}
		if live := eval[string](t, tb, `document.getElementById('run-summary').getAttribute('aria-live')`); live != "polite" {
			t.Errorf("%s: the summary is aria-live=%q", q, live)
		}
	}
}

// interactiveJS lists the page's shown controls whose box is less than 44
// px tall (a checkbox counts its label, which takes its clicks; a link in
// a sentence is WCAG 2.5.8's inline exception).
const interactiveJS = `(() => {
  const out = [];
  document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"])').forEach(el => {
    if (el.disabled || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') return;
    if (el.closest('[aria-hidden=true], .visually-hidden, #app-wasm-loader, .skip-link')) return;
    let box = el.getBoundingClientRect();
    if (el.type === 'checkbox' && el.closest('label')) box = el.closest('label').getBoundingClientRect();
    if (el.tagName === 'A' && el.parentElement && el.parentElement.tagName !== 'LI' && !el.classList.contains('button') &&
        el.parentElement.textContent.trim().length > el.textContent.trim().length) return;
    if (box.height < 44 - 0.5) out.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + el.className) + ' ' + box.height.toFixed(1) + 'px');
  });
  return out; })()`

// On a phone (412 px) every control is a thumb's target: at least 44 px
// tall (32 were 28 px), on the page with its panels open, a lesson and the
// lessons' index, in both languages.
func TestBrowserPhoneTargets(t *testing.T) {
	tb := newTab(t, 412, 823)
	for _, q := range []string{"lang=en", "lang=ru&export=go-aws&embed=herd&import=1", "lang=en&b.preset=gax&scenario=metastable", "lang=ru&lesson=3", "lang=en&lesson=list"} {
		tb.open(t, q)
		poll[bool](t, tb, "the page to settle", settledOrNoHerdJS)
		if strings.Contains(q, "lang=en&b.") {
			eval[bool](t, tb, `(document.getElementById('solve-cap').click(), true)`)
			poll[bool](t, tb, "Solve's row", `!!document.getElementById('solve-total')`)
		}
		if small := eval[[]string](t, tb, interactiveJS); len(small) > 0 {
			t.Errorf("%s: %d controls under 44 px tall:\n  %s", q, len(small), strings.Join(small, "\n  "))
		}
	}
}

// ?import=1 opens the Import panel, and the page keeps it in its link as
// it keeps Export and Embed; a paste over the cap says its own size with
// the cap, in both languages.
func TestBrowserImportInTheLink(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, l := range i18n.Langs {
		tb.open(t, "import=1&lang="+l.Code())
		if len(eval[[]string](t, tb, `[...document.querySelectorAll('#notice li')].map(e => e.textContent)`)) > 0 || !eval[bool](t, tb, `!!document.getElementById('import-text')`) ||
			exText(t, tb, "import") == "" || eval[string](t, tb, `document.getElementById('import').getAttribute('aria-expanded')`) != "true" {
			t.Fatalf("%s: import=1 did not open the panel", l.Code())
		}
		eval[bool](t, tb, `(() => { const el = document.getElementById('import-text'); el.value = '#'.repeat(300 * 1024); return true; })()`)
		eval[bool](t, tb, `(document.getElementById('import-apply').click(), true)`)
		want := l.F("import.too-long", l.Int(300*1024), l.F("import.kb", "300"), l.Int(256*1024), l.F("import.kb", "256"))
		if got := poll[string](t, tb, "the import's status", `document.getElementById('import-status').classList.contains('error') && document.getElementById('import-status').textContent`); got != want {
			t.Errorf("%s: a 300 KB paste says %q, want %q", l.Code(), got, want)
		}
		eval[bool](t, tb, `(document.getElementById('import').click(), true)`)
		poll[bool](t, tb, "the link without import", `!new URLSearchParams(location.search).has('import') && !document.getElementById('import-text')`)
		eval[bool](t, tb, `(document.getElementById('import').click(), true)`)
		exPollParam(t, tb, "import", "1")
		if len(eval[[]string](t, tb, `[...document.querySelectorAll('#notice li')].map(e => e.textContent)`)) > 0 {
			t.Errorf("%s: notices about the link", l.Code())
		}
	}
}

// The lessons' index lists every lesson by title; a lesson opened
// from it sets itself up (lesson 1: no jitter, its four knobs all there),
// leads to the index and to the playground with its settings, and Back
// returns.
func TestBrowserLessonIndexAndWayBack(t *testing.T) {
	tb := newTab(t, 1280, 800)
	for _, l := range i18n.Langs {
		tb.open(t, "lesson=list&lang="+l.Code())
		// The page the server drew has the titles; one the service worker
		// kept for another link gets them from the lesson files.
		titles := poll[[]string](t, tb, "the lessons' titles", `(() => { const t = [...document.querySelectorAll('#lesson-list a')].map(a => a.textContent);
		  return t.length === `+strconv.Itoa(wsLessons)+` && !t.includes(`+strconv.Quote(l.F("lesson.count", strconv.Itoa(wsLessons), strconv.Itoa(wsLessons)))+`) && t; })()`)
		if titles[0] == l.F("lesson.count", "1", strconv.Itoa(wsLessons)) || eval[string](t, tb, `document.title`) != l.T("lesson.index")+" · "+l.T("page.title") {
			t.Fatalf("%s: the index lists %q", l.Code(), titles)
		}
		eval[bool](t, tb, `(document.getElementById('lesson-link-1').click(), true)`)
		poll[bool](t, tb, "lesson 1", `!!document.getElementById('lesson-title') && document.getElementById('lesson-title').textContent === `+strconv.Quote(titles[0]))
		exPollParam(t, tb, "jitter", "none")
		for _, id := range []string{"base-value", "factor-value", "cap-value", "attempts-value"} {
			if exValue(t, tb, id) == "<no #"+id+">" {
				t.Errorf("%s: lesson 1 has no #%s", l.Code(), id)
			}
		}
		if v := exValue(t, tb, "factor-value"); v != "2" {
			t.Errorf("%s: lesson 1's factor box says %q", l.Code(), v)
		}
		// Lesson 1's own factor: 3, then the playground with it.
		if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("factor-value")), chromedp.SendKeys(chromedp.ID("factor-value"), "3\r")); err != nil {
			t.Fatal(err)
		}
		exPollParam(t, tb, "factor", "3")
		eval[bool](t, tb, `(document.getElementById('lesson-playground').click(), true)`)
		poll[bool](t, tb, "the playground", `!!document.getElementById('delay-table') && !new URLSearchParams(location.search).has('lesson')`)
		for k, want := range map[string]string{"factor": "3", "jitter": "none", "lang": l.Code()} {
			if got := exParam(t, tb, k); got != want {
				t.Errorf("%s: the playground from lesson 1 has %s=%q, want %q", l.Code(), k, got, want)
			}
		}
		if v := exValue(t, tb, "factor-value"); v != "3" {
			t.Errorf("%s: the playground's factor box says %q", l.Code(), v)
		}
		eval[bool](t, tb, `(history.back(), true)`)
		poll[bool](t, tb, "lesson 1 again", `!!document.getElementById('lesson-index')`)
		eval[bool](t, tb, `(document.getElementById('lesson-index').click(), true)`)
		poll[bool](t, tb, "the index again", `document.querySelectorAll('#lesson-list a').length === `+strconv.Itoa(wsLessons))
		exNoProblems(t, tb)
	}
}

// compareTextJS is the smallest chart text drawn in the compare grid, in
// px, and how many texts were measured.
const compareTextJS = `(() => { let min = 99, n = 0;
  document.querySelectorAll('.compare-grid svg text').forEach(t => {
    if (!t.getClientRects().length || !t.textContent.trim()) return;
    const svg = t.ownerSVGElement, scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * scale); n++; });
  return {min, n}; })()`

// The "Why jitter" grid's chart text is 12 px or more on a laptop (it
// was 9 to 10.7 px at 1280), in both languages.
func TestBrowserCompareTextSize(t *testing.T) {
	for _, w := range []int64{1280, 1024} {
		tb := newTab(t, w, 800)
		for _, l := range i18n.Langs {
			tb.open(t, "lang="+l.Code())
			poll[bool](t, tb, "the compare runs", settledJS)
			m := eval[map[string]float64](t, tb, compareTextJS)
			if m["n"] < 40 || m["min"] < 12-0.05 {
				t.Errorf("%d px, %s: the grid's smallest chart text is %.1f px (%v texts)", w, l.Code(), m["min"], m["n"])
			}
		}
	}
}

// fleet-crash's cards hold their values at 1280, in both languages ("8.27min"
// ran out of its card).
func TestBrowserFleetCardsHoldTheirValues(t *testing.T) {
	tb := newTab(t, 1280, 800)
	for _, l := range i18n.Langs {
		tb.open(t, "scenario=fleet-crash&lang="+l.Code())
		poll[bool](t, tb, "the fleet's run", settledJS)
		out := eval[[]string](t, tb, `[...document.querySelectorAll('.metric')].filter(m => m.getClientRects().length).flatMap(m => {
		  const v = m.querySelector('.metric-value'), r = v.getBoundingClientRect(), c = m.getBoundingClientRect();
		  return v.scrollWidth > v.clientWidth + 1 || r.right > c.right + 0.5 ? [v.textContent + ': ' + v.scrollWidth + ' px in ' + v.clientWidth] : []; })`)
		if len(out) > 0 {
			t.Errorf("%s: values run out of their cards: %s", l.Code(), strings.Join(out, "; "))
		}
	}
}

// fleetTextJS reads the fleet chart's texts as drawn: every pair that
// overlaps, and every text that lies over a strip's plot (crossed by its
// lines).
const fleetTextJS = `(() => {
  const svg = document.querySelector('#chart-fleet svg'), out = [];
  const texts = [...svg.querySelectorAll('text')].map(t => ({r: t.getBoundingClientRect(), s: t.textContent}));
  const strips = [...svg.querySelectorAll('path.outage')].map(p => p.getBoundingClientRect());
  const plot = svg.querySelector('path.axis').getBoundingClientRect();
  texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
    if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) out.push(a.s + ' over ' + b.s); }));
  texts.forEach(a => strips.forEach(s => {
    if (a.r.right > plot.left && a.r.top < s.bottom - 1 && s.top + 1 < a.r.bottom) out.push(a.s + ' in a strip'); }));
  const key = getComputedStyle(document.querySelector('#chart-fleet .key-queue-line')), line = getComputedStyle(svg.querySelector('path.queue-line'));
  return {problems: out, stripPx: strips.length ? strips[0].height : 0, keyStyle: key.borderTopStyle, keyColor: key.borderTopColor, lineColor: line.stroke}; })()`

// Presenter mode's fleet (lesson 15): strips tall enough to read, no label
// crossed by a line or over another, the legend's queue the dashed line the
// strips draw, on a projector and on a phone in Russian.
func TestBrowserPresentFleetStrips(t *testing.T) {
	for _, c := range []struct {
		w, h int64
		lang string
	}{{1024, 768, "en"}, {1024, 768, "ru"}, {412, 823, "ru"}} {
		tb := newTab(t, c.w, c.h)
		tb.open(t, "lesson=15&present=1&lang="+c.lang)
		poll[bool](t, tb, "the fleet", `!!document.querySelector('#chart-fleet svg path.queue-line')`)
		var m struct {
			Problems                      []string
			StripPx                       float64
			KeyStyle, KeyColor, LineColor string
		}
		m = eval[struct {
			Problems                      []string
			StripPx                       float64
			KeyStyle, KeyColor, LineColor string
		}](t, tb, fleetTextJS)
		what := fmt.Sprintf("%dx%d %s", c.w, c.h, c.lang)
		if len(m.Problems) > 0 {
			t.Errorf("%s: %s", what, strings.Join(m.Problems, "; "))
		}
		if m.StripPx < 45 {
			t.Errorf("%s: strips %.0f px tall", what, m.StripPx)
		}
		if m.KeyStyle != "dashed" || m.KeyColor != m.LineColor {
			t.Errorf("%s: the legend's queue is %s %s, the strips' queue line %s", what, m.KeyStyle, m.KeyColor, m.LineColor)
		}
		eval[bool](t, tb, `(document.getElementById('chart-fleet').scrollIntoView(), true)`)
		tb.viewportShot(t, "present-fleet-"+strings.ReplaceAll(what, " ", "-"))
	}
}

// Presenter mode's lesson 4: each panel on a scale of its own (no jitter's
// 15.7 h run made the others slivers at 0), said above the grid, and the
// grid on the projector's screen.
func TestBrowserPresentLesson4Scales(t *testing.T) {
	tb := newTab(t, 1024, 768)
	for _, l := range i18n.Langs {
		tb.open(t, "lesson=4&present=1&lang="+l.Code())
		// Every panel drawn: with some runs still going (no jitter's takes
		// longest) the scale is the finished ones', shared, and the note
		// is empty, as a loaded machine once showed.
		poll[bool](t, tb, "the compare runs", `(() => { const c = [...document.querySelectorAll('.compare-grid .cmp-cell')];
		  return c.length >= 4 && c.every(x => x.querySelector('svg')); })()`)
		note := exText(t, tb, "compare-scale")
		if want := strings.SplitN(l.T("compare.own-short"), "{", 2)[0]; !strings.HasPrefix(note, want) || eval[string](t, tb, `document.getElementById('compare').dataset.shared`) != "false" {
			t.Errorf("%s: the grid's note %q, want own scales (%q)", l.Code(), note, want)
		}
		// Every panel's plot reaches past its first tenth: no sliver.
		widths := eval[[]float64](t, tb, `[...document.querySelectorAll('.compare-grid .cmp-cell')].filter(c => c.getClientRects().length).map(c => {
		  const svg = c.querySelector('svg'), bars = [...svg.querySelectorAll('path.ok, path.rejected, path.hatch-bg')].map(p => p.getBBox()).filter(b => b.width > 0);
		  const right = Math.max(...bars.map(b => b.x + b.width)), left = Math.min(...bars.map(b => b.x));
		  return (right - left) / svg.viewBox.baseVal.width; })`)
		for i, w := range widths {
			if w < 0.25 {
				t.Errorf("%s: panel %d's calls span %.0f%% of its width", l.Code(), i+1, 100*w)
			}
		}
		if bottom := eval[float64](t, tb, `document.querySelector('.compare-grid').getBoundingClientRect().bottom`); bottom > 768 {
			t.Errorf("%s: the grid ends at %.0f px, below the screen", l.Code(), bottom)
		}
		tb.viewportShot(t, "present-lesson4-"+l.Code())
	}
}

// axe finds nothing on the new pages: the lessons' index (and presenter
// mode's), the Import panel opened by its link, and a phone's page with
// the result strip.
func TestBrowserPageAxe(t *testing.T) {
	script := axeScript(t)
	for _, c := range []struct {
		w, h int64
		q    string
	}{{1280, 900, "lang=en&lesson=list"}, {1024, 768, "lang=ru&lesson=list&present=1"}, {1280, 900, "lang=ru&import=1"},
		{412, 823, "lang=ru"}, {1024, 768, "lang=en&lesson=15&present=1"}, {1024, 768, "lang=en&lesson=4&present=1"}} {
		tb := newTab(t, c.w, c.h)
		tb.open(t, c.q)
		poll[bool](t, tb, "the page to settle", settledOrNoHerdJS)
		axeCheck(t, tb, script, fmt.Sprintf("%dx%d %s", c.w, c.h, c.q))
	}
}
