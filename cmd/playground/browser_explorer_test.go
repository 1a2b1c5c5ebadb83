//go:build browser && !wasm

// The page's contracts as a user meets them, in both languages: ?lang= and
// the language switch, typed boxes applied only when committed, errors
// under the field that was changed, duplicated parameters, metric cards
// without a value, Back after discrete changes, the attempts slider, the
// compare grid's one scale, the log axis, preset source links and the
// copy button where the clipboard is blocked.

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// exHerdDoneJS is true once the herd run has finished and its cards hold
// its totals (in either language).
const exHerdDoneJS = `(() => { const p = document.getElementById('herd-progress');
  const s = document.getElementById('herd-status');
  return !!p && p.hidden && !!s && /Simulated|Смоделировано/.test(s.textContent)
    && (document.getElementById('metric-calls').getAttribute('data-value') || '') !== ''; })()`

// exParam is the page's URL parameter key ("" when absent).
func exParam(tb testing.TB, t *tab, key string) string {
	tb.Helper()
	return eval[string](tb, t, fmt.Sprintf(`new URLSearchParams(location.search).get(%q) ?? ''`, key))
}

// exHasParam reports whether the page's URL has the key.
func exHasParam(tb testing.TB, t *tab, key string) bool {
	tb.Helper()
	return eval[bool](tb, t, fmt.Sprintf(`new URLSearchParams(location.search).has(%q)`, key))
}

// exPollParam waits until the URL's key reads want.
func exPollParam(tb testing.TB, t *tab, key, want string) {
	tb.Helper()
	poll[bool](tb, t, fmt.Sprintf("the URL to say %s=%s", key, want),
		fmt.Sprintf(`new URLSearchParams(location.search).get(%q) === %q`, key, want))
}

// exText is the trimmed textContent of the element with id ("" if none).
func exText(tb testing.TB, t *tab, id string) string {
	tb.Helper()
	return eval[string](tb, t, fmt.Sprintf(`((document.getElementById(%q) || {}).textContent || '').trim()`, id))
}

// exValue is an input's or a select's value.
func exValue(tb testing.TB, t *tab, id string) string {
	tb.Helper()
	return eval[string](tb, t, fmt.Sprintf(`(document.getElementById(%q) || {}).value ?? '<no #%s>'`, id, id))
}

// exFieldError is the inline error under the control id, "" when hidden
// or empty.
func exFieldError(tb testing.TB, t *tab, id string) string {
	tb.Helper()
	return eval[string](tb, t, fmt.Sprintf(`(() => { const e = document.getElementById(%q);
	  return e && !e.hidden ? e.textContent.trim() : ''; })()`, id+"-error"))
}

// exKeys types text into the box id key by key without committing it;
// replace selects the box's text first.
func exKeys(tb testing.TB, t *tab, id, text string, replace bool) {
	tb.Helper()
	sel := chromedp.ID(id)
	acts := []chromedp.Action[chromedp.Void]{chromedp.Focus(sel)}
	if replace {
		acts = append(acts, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).select()`, id)))
	}
	acts = append(acts, chromedp.SendKeys(sel, text))
	if err := chromedp.Do(t.ctx, acts...); err != nil {
		tb.Fatalf("typing %q into #%s: %v", text, id, err)
	}
}

// exEnter commits the box id with the Enter key (the box keeps focus).
func exEnter(tb testing.TB, t *tab, id string) {
	tb.Helper()
	if err := chromedp.Do(t.ctx, chromedp.SendKeys(chromedp.ID(id), "\r")); err != nil {
		tb.Fatalf("Enter in #%s: %v", id, err)
	}
}

// exSelect picks value in the select id as a user does (input, change).
func exSelect(tb testing.TB, t *tab, id, value string) {
	tb.Helper()
	got := eval[string](tb, t, fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.value = %q;
	  el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return el.value; })()`, id, value))
	if got != value {
		tb.Fatalf("#%s has no option %q (value is %q)", id, value, got)
	}
}

// exSettle waits until an edit the page should ignore would have shown:
// its table and charts render at once, its URL write follows within
// urlEvery (150 ms).
func exSettle(tb testing.TB, t *tab) {
	tb.Helper()
	time.Sleep(200 * time.Millisecond)
	poll[bool](tb, t, "the page to stay unchanged for 150 ms", `performance.now() - window.__pg.lastChange > 150`)
}

// exPollAll waits until every condition holds (the page re-renders a
// moment after the address changes); after 5 s it reports those that do
// not.
func exPollAll(tb testing.TB, t *tab, what string, conds ...string) {
	tb.Helper()
	all := "(" + strings.Join(conds, ") && (") + ")"
	_, err := pollIn[bool](t.ctx, all, 10*time.Millisecond, 5*time.Second)
	if err == nil {
		return
	}
	for _, c := range conds {
		if !eval[bool](tb, t, c) {
			tb.Errorf("%s: %s is false", what, c)
		}
	}
}

// exTableJSON is the delay table (tableJS) as JSON, to compare whole.
func exTableJSON(tb testing.TB, t *tab) string {
	tb.Helper()
	return eval[string](tb, t, `JSON.stringify(`+tableJS+`)`)
}

// exRows is the number of rows of the delay table.
func exRows(tb testing.TB, t *tab) int {
	tb.Helper()
	return eval[int](tb, t, `document.querySelectorAll('#delay-table tbody tr').length`)
}

// exH2 are the page's h2 texts.
func exH2(tb testing.TB, t *tab) []string {
	tb.Helper()
	return eval[[]string](tb, t, `[...document.querySelectorAll('h2')].map(h => h.textContent.trim())`)
}

// exNoProblems fails on console errors, exceptions and CSP violations.
func exNoProblems(tb testing.TB, t *tab) {
	tb.Helper()
	if p := t.problems(tb); len(p) > 0 {
		tb.Errorf("the page logged problems:\n  %s", strings.Join(p, "\n  "))
	}
}

// exLangTab opens a tab whose browser prefers langs (navigator.languages).
func exLangTab(tb testing.TB, langs ...string) *tab {
	tb.Helper()
	t := newTab(tb, 1280, 900)
	js, _ := json.Marshal(langs)
	src := fmt.Sprintf(`(() => { const l = %s; Object.defineProperty(Navigator.prototype, 'languages', {get: () => l.slice(), configurable: true});
	  Object.defineProperty(Navigator.prototype, 'language', {get: () => l[0], configurable: true}); })()`, js)
	if _, err := chromedp.Call(t.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		tb.Fatal(err)
	}
	return t
}

var (
	ruHeads = []string{"Политика повторов", "Один клиент", "Толпа клиентов"}
	enHeads = []string{"Retry policy", "One client", "A herd of clients"}
)

// exCheckLang checks that the page is in lang: <html lang>, the title and
// the section heads.
func exCheckLang(tb testing.TB, t *tab, lang string) {
	tb.Helper()
	heads, other := enHeads, ruHeads
	if lang == "ru" {
		heads, other = ruHeads, enHeads
	}
	if got := eval[string](tb, t, `document.documentElement.lang`); got != lang {
		tb.Errorf("<html lang=%q>, want %q", got, lang)
	}
	h2 := exH2(tb, t)
	for _, h := range heads {
		if !slices.Contains(h2, h) {
			tb.Errorf("no h2 %q in %q (want the %s page)", h, h2, lang)
		}
	}
	for _, h := range other {
		if slices.Contains(h2, h) {
			tb.Errorf("h2 %q of the other language on the %s page", h, lang)
		}
	}
	title := eval[string](tb, t, `document.title`)
	cyr := regexp.MustCompile(`\p{Cyrillic}`).MatchString(title)
	if lang == "ru" && !cyr || lang == "en" && cyr {
		tb.Errorf("document.title %q on the %s page", title, lang)
	}
}

// TestBrowserExplorerLangFromURL: ?lang=ru gives the Russian page with its
// formats, ?lang=en the English one, whatever the browser prefers.
func TestBrowserExplorerLangFromURL(t *testing.T) {
	tb := exLangTab(t, "en-US", "en")
	tb.open(t, "lang=ru&base=1.5s&clients=10000")
	exCheckLang(t, tb, "ru")
	if got := exValue(t, tb, "base-value"); got != "1,5\u00a0с" {
		t.Errorf("#base-value shows %q, want %q (decimal comma, U+00A0, с)", got, "1,5\u00a0с")
	}
	if got := exParam(t, tb, "lang"); got != "ru" {
		t.Errorf("the URL's lang is %q, want ru kept", got)
	}
	// Digit groups with U+202F from five digits.
	status := poll[string](t, tb, "the 10,000-client herd", `(() => { const s = document.getElementById('herd-status').textContent;
	  return /Смоделировано/.test(s) && s; })()`)
	if !strings.Contains(status, "10\u202f000") {
		t.Errorf("#herd-status %q lacks 10\u202f000 (U+202F between digit groups)", status)
	}
	if got := exValue(t, tb, "cap-value"); got != "30\u00a0с" {
		t.Errorf("#cap-value shows %q, want %q", got, "30\u00a0с")
	}
	exNoProblems(t, tb)

	ru := exLangTab(t, "ru-RU", "ru")
	ru.open(t, "lang=en&base=1.5s")
	exCheckLang(t, ru, "en")
	if got := exValue(t, ru, "base-value"); got != "1.5s" {
		t.Errorf("English #base-value shows %q, want 1.5s", got)
	}
}

// TestBrowserExplorerLangFromBrowser: without ?lang the browser's
// navigator.languages decide, and the URL gains no lang key.
func TestBrowserExplorerLangFromBrowser(t *testing.T) {
	for _, c := range []struct {
		langs []string
		want  string
	}{
		{[]string{"ru-RU", "ru", "en-US"}, "ru"},
		{[]string{"ru"}, "ru"},
		{[]string{"en-US", "en"}, "en"},
		{[]string{"de-DE", "de"}, "en"},
	} {
		t.Run(strings.Join(c.langs, ","), func(t *testing.T) {
			tb := exLangTab(t, c.langs...)
			tb.open(t, "attempts=4")
			exCheckLang(t, tb, c.want)
			if got := exValue(t, tb, "lang"); got != c.want {
				t.Errorf("#lang shows %q, want %q", got, c.want)
			}
			// A later edit writes the URL: still no lang key.
			eval[string](t, tb, setRangeJS("attempts", "5"))
			exPollParam(t, tb, "attempts", "5")
			if exHasParam(t, tb, "lang") {
				t.Errorf("the URL gained lang=%s though none was given or chosen", exParam(t, tb, "lang"))
			}
		})
	}
}

// TestBrowserExplorerLangSwitch: #lang changes the language and keeps every
// other key of the URL and the table's values; Back returns to Russian.
func TestBrowserExplorerLangSwitch(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=ru&preset=aws-standard&attempts=4&seed=42&jitter=full")
	exCheckLang(t, tb, "ru")
	before := exTableJSON(t, tb)
	search := eval[string](t, tb, `location.search`)
	if n := exRows(t, tb); n != 3 {
		t.Fatalf("%d rows for attempts=4, want 3", n)
	}
	hist := eval[int](t, tb, `history.length`)

	exSelect(t, tb, "lang", "en")
	exPollParam(t, tb, "lang", "en")
	poll[bool](t, tb, "<html lang=en> and English heads", `document.documentElement.lang === 'en'
	  && [...document.querySelectorAll('h2')].some(h => h.textContent.trim() === 'Retry policy')`)
	exCheckLang(t, tb, "en")
	for k, want := range map[string]string{"attempts": "4", "preset": "aws-standard", "seed": "42", "jitter": "full"} {
		if got := exParam(t, tb, k); got != want {
			t.Errorf("after the switch the URL's %s is %q, want %q (was %s)", k, got, want, search)
		}
	}
	// Every other key of the link keeps its value (the page may add the
	// keys it always writes).
	orig := eval[[][]string](t, tb, fmt.Sprintf(`[...new URLSearchParams(%q)]`, search))
	for _, kv := range orig {
		if kv[0] == "lang" {
			continue
		}
		if got := exParam(t, tb, kv[0]); got != kv[1] {
			t.Errorf("the switch changed %s=%s to %q (URL now %s)", kv[0], kv[1], got, eval[string](t, tb, `location.search`))
		}
	}
	if after := exTableJSON(t, tb); after != before {
		t.Errorf("the switch changed the table:\nbefore %s\nafter  %s", before, after)
	}
	if got := exValue(t, tb, "preset"); got != "aws-standard" {
		t.Errorf("#preset is %q after the switch", got)
	}
	if got := exValue(t, tb, "seed"); got != "42" {
		t.Errorf("#seed is %q after the switch", got)
	}
	if h := eval[int](t, tb, `history.length`); h != hist+1 {
		t.Errorf("history.length %d after the switch, want %d (a discrete change pushes an entry)", h, hist+1)
	}

	eval[bool](t, tb, `(history.back(), true)`)
	poll[bool](t, tb, "Back to the Russian page", `document.documentElement.lang === 'ru' && new URLSearchParams(location.search).get('lang') === 'ru'
	  && [...document.querySelectorAll('h2')].some(h => h.textContent.trim() === 'Политика повторов')`)
	exCheckLang(t, tb, "ru")
	if after := exTableJSON(t, tb); after != before {
		t.Errorf("Back changed the table:\nbefore %s\nafter  %s", before, after)
	}
	exNoProblems(t, tb)
}

// exEnglishUI are English UI strings that must not show on the Russian page.
var exEnglishUI = []string{
	"Retry policy", "One client", "A herd of clients", "calls to the server", "Copy link",
	"Delay before each retry", "no limit", "gave up", "Preset", "Attempts", "Seed", "Re-roll",
	"Advanced", "amplification", "Why jitter", "log scale", "Source:", "retries", "succeeded",
	"rejected", "Simulated", "completion", "seeded clients", "total wait", "capacity", "outage",
	"Clients", "Server", "no client completed", "fixed capacity", "modified from",
}

// TestBrowserExplorerRussianHasNoEnglish reads the Russian page's visible
// text (the language picker aside, which names English in English), its
// tooltips and its accessible labels.
func TestBrowserExplorerRussianHasNoEnglish(t *testing.T) {
	for _, query := range []string{
		"lang=ru",
		"lang=ru&preset=aws-standard&attempts=0&scale=log&server=occ&clients=10",
		"lang=ru&clients=100&server=outage&outage-end=10m&attempts=2&base=1s&cap=1s",
	} {
		t.Run(query, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, query)
			poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
			text := eval[string](t, tb, `(() => { const l = document.getElementById('lang'); l.hidden = true;
			  const s = document.body.innerText; l.hidden = false; return s; })()`)
			// What a pointer or a screen reader shows as well: tooltips,
			// labels, the charts' titles.
			text += "\n" + eval[string](t, tb, `[...document.querySelectorAll('[title], [aria-label], [aria-valuetext], [placeholder]')]
			  .flatMap(e => ['title', 'aria-label', 'aria-valuetext', 'placeholder'].map(a => e.getAttribute(a) || ''))
			  .concat([...document.querySelectorAll('svg title, svg desc')].map(e => e.textContent)).join('\n')`)
			visible := eval[string](t, tb, `document.body.innerText`)
			if !strings.Contains(visible, "Политика повторов") {
				t.Fatalf("not the Russian page: %.200q", visible)
			}
			for _, en := range exEnglishUI {
				if i := strings.Index(text, en); i >= 0 {
					t.Errorf("the Russian page shows %q: …%s…", en, text[max(0, i-60):min(len(text), i+len(en)+60)])
				}
			}
		})
	}
}

// TestBrowserExplorerTypedAttempts: typing 99999 key by key never applies a
// prefix (999); the error names attempts and its range; Enter on an
// invalid value applies nothing; a valid value applies when committed.
func TestBrowserExplorerTypedAttempts(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+lang+"&"+articleQuery)
			before := exTableJSON(t, tb)
			hist := eval[int](t, tb, `history.length`)

			exKeys(t, tb, "attempts-value", "999", true)
			exSettle(t, tb)
			if n := exRows(t, tb); n != 5 {
				t.Errorf("typing 999 (not committed) changed the table to %d rows, want 5", n)
			}
			if got := exParam(t, tb, "attempts"); got != "6" {
				t.Errorf("typing 999 (not committed) wrote attempts=%s to the URL", got)
			}
			exKeys(t, tb, "attempts-value", "99", false)
			msg := poll[string](t, tb, "an inline error for 99999", `(() => { const e = document.getElementById('attempts-value-error');
			  return e && !e.hidden && e.textContent.includes('99999') && e.textContent.trim(); })()`)
			t.Logf("error: %q", msg)
			thousand := map[string]string{"en": "1,000", "ru": "1000"}[lang] // Russian groups from 5 digits
			for _, want := range []string{"attempts", "99999", " 0 ", thousand} {
				if !strings.Contains(msg, want) {
					t.Errorf("the error %q does not say %q", msg, want)
				}
			}
			if !eval[bool](t, tb, `document.getElementById('attempts-value').classList.contains('invalid')`) {
				t.Error("#attempts-value lacks class invalid")
			}
			exEnter(t, tb, "attempts-value")
			exSettle(t, tb)
			if after := exTableJSON(t, tb); after != before {
				t.Errorf("99999 changed the table:\nbefore %s\nafter  %s", before, after)
			}
			if got := exParam(t, tb, "attempts"); got != "6" {
				t.Errorf("after 99999 the URL says attempts=%s, want 6", got)
			}
			if got := exValue(t, tb, "attempts-value"); got != "99999" {
				t.Errorf("the box shows %q, want what was typed (99999)", got)
			}
			if got := exFieldError(t, tb, "attempts-value"); got == "" {
				t.Error("the error went away after Enter on an invalid value")
			}

			// A valid value, committed with Enter.
			exKeys(t, tb, "attempts-value", "9", true)
			exSettle(t, tb)
			if n := exRows(t, tb); n != 5 {
				t.Errorf("typing 9 (not committed) changed the table to %d rows", n)
			}
			exEnter(t, tb, "attempts-value")
			poll[bool](t, tb, "8 rows", `document.querySelectorAll('#delay-table tbody tr').length === 8`)
			exPollParam(t, tb, "attempts", "9")
			if got := exFieldError(t, tb, "attempts-value"); got != "" {
				t.Errorf("the error %q stayed after a valid value", got)
			}
			if h := eval[int](t, tb, `history.length`); h != hist+1 {
				t.Errorf("history.length %d, want %d: a committed value is one entry", h, hist+1)
			}
			exNoProblems(t, tb)
		})
	}
}

// TestBrowserExplorerTypedClients: typing 1000000000 into clients-value
// passes 1000000 on the way (a valid million-client herd): nothing may run.
func TestBrowserExplorerTypedClients(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	poll[bool](t, tb, "the herd run", exHerdDoneJS)
	status := exText(t, tb, "herd-status")
	calls := eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`)
	search := eval[string](t, tb, `location.search`)
	if !strings.Contains(status, "1,000 clients") {
		t.Fatalf("#herd-status %q: want the default 1,000 clients", status)
	}
	// Record every text the status shows and whether progress ever shows.
	eval[bool](t, tb, `(() => { const seen = window.__exSeen = [];
	  const rec = () => { const s = document.getElementById('herd-status'), p = document.getElementById('herd-progress');
	    const v = (s ? s.textContent : '') + (p && !p.hidden ? ' [progress shown]' : '');
	    if (seen[seen.length - 1] !== v) seen.push(v); };
	  rec(); new MutationObserver(rec).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true}); return true; })()`)

	exKeys(t, tb, "clients-value", "1000000000", true)
	exSettle(t, tb)
	if seen := eval[[]string](t, tb, `window.__exSeen`); len(seen) != 1 || seen[0] != status {
		t.Errorf("typing 1000000000 (not committed) started runs; #herd-status showed:\n  %s", strings.Join(seen, "\n  "))
	}
	msg := exFieldError(t, tb, "clients-value")
	if !strings.Contains(msg, "clients") {
		t.Errorf("#clients-value-error %q: want an error naming clients", msg)
	}
	if err := chromedp.Do(tb.ctx, chromedp.SendKeys(chromedp.ID("clients-value"), "\t")); err != nil {
		t.Fatal(err)
	}
	exSettle(t, tb)
	if seen := eval[[]string](t, tb, `window.__exSeen`); len(seen) != 1 || seen[0] != status {
		t.Errorf("committing 1000000000 started runs; #herd-status showed:\n  %s", strings.Join(seen, "\n  "))
	}
	if got := eval[string](t, tb, `document.getElementById('metric-calls').dataset.value`); got != calls {
		t.Errorf("metric-calls %s -> %s after an invalid clients value", calls, got)
	}
	if got := eval[string](t, tb, `location.search`); got != search {
		t.Errorf("an invalid clients value changed the URL: %s -> %s", search, got)
	}
	if got := exFieldError(t, tb, "clients-value"); got == "" {
		t.Error("no error under clients-value after committing 1000000000")
	}

	// A valid value runs when committed.
	exKeys(t, tb, "clients-value", "500", true)
	exEnter(t, tb, "clients-value")
	exPollParam(t, tb, "clients", "500")
	poll[bool](t, tb, "a 500-client run", `/Simulated 500 clients/.test(document.getElementById('herd-status').textContent)`)
	exNoProblems(t, tb)
}

// TestBrowserExplorerTypedCap: 1e9h (passing 1, a valid cap, on the way)
// applies nothing.
func TestBrowserExplorerTypedCap(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&"+articleQuery)
	before := exTableJSON(t, tb)
	tb.typeInto(t, "cap-value", "1e9h")
	exSettle(t, tb)
	msg := exFieldError(t, tb, "cap-value")
	if !strings.Contains(msg, "cap") {
		t.Errorf("#cap-value-error %q: want an error naming cap", msg)
	}
	if after := exTableJSON(t, tb); after != before {
		t.Errorf("1e9h changed the table:\nbefore %s\nafter  %s", before, after)
	}
	if got := exParam(t, tb, "cap"); got != "30s" {
		t.Errorf("the URL says cap=%s, want 30s", got)
	}
	exNoProblems(t, tb)
}

// TestBrowserExplorerTypedRussian: the Russian page's boxes take 250 мс,
// 1,5 с, 2 мин and 1,5 and apply them when committed.
func TestBrowserExplorerTypedRussian(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=ru&base=1s&factor=2&cap=30s&attempts=10&jitter=none")
	steps := []struct {
		id, typed, key, url string
		nominal             []string
		box                 string
	}{
		{"base-value", "250 мс", "base", "250ms", []string{"0.25", "0.5", "1", "2", "4", "8", "16", "30", "30"}, "250\u00a0мс"},
		{"base-value", "1,5 с", "base", "1.5s", []string{"1.5", "3", "6", "12", "24", "30", "30", "30", "30"}, "1,5\u00a0с"},
		{"cap-value", "2 мин", "cap", "2m", []string{"1.5", "3", "6", "12", "24", "48", "96", "120", "120"}, "2\u00a0мин"},
		{"factor-value", "1,5", "factor", "1.5", []string{"1.5", "2.25", "3.375", "5.0625", "7.59375", "11.390625", "17.0859375", "25.62890625", "38.443359375"}, "1,5"},
	}
	for _, s := range steps {
		tb.typeInto(t, s.id, s.typed)
		exPollParam(t, tb, s.key, s.url)
		if got := column(tb.table(t), "nominal"); !slices.Equal(got, s.nominal) {
			t.Errorf("after %q in #%s: nominal %v, want %v", s.typed, s.id, got, s.nominal)
		}
		if got := exValue(t, tb, s.id); got != s.box {
			t.Errorf("#%s shows %q after %q, want %q", s.id, got, s.typed, s.box)
		}
		if e := exFieldError(t, tb, s.id); e != "" {
			t.Errorf("#%s: error %q for %q", s.id, e, s.typed)
		}
	}
	exNoProblems(t, tb)
}

// TestBrowserExplorerCrossFieldError: a value that breaks a rule with
// another field shows its error under the field changed, naming it.
func TestBrowserExplorerCrossFieldError(t *testing.T) {
	for _, c := range []struct{ lang, hi, lo string }{{"en", "0.5", "1.5"}, {"ru", "0,5", "1,5"}} {
		t.Run(c.lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+c.lang+"&jitter=proportional&jitter-lo=0.8&jitter-hi=1.2")
			before := exTableJSON(t, tb)
			for _, s := range []struct{ id, other, typed, name string }{
				{"jitter-hi-value", "jitter-lo-value", c.hi, "jitter-hi"},
				{"jitter-lo-value", "jitter-hi-value", c.lo, "jitter-lo"},
			} {
				tb.typeInto(t, s.id, s.typed)
				msg := poll[string](t, tb, "an error under #"+s.id, fmt.Sprintf(`(() => { const e = document.getElementById(%q);
				  return e && !e.hidden && e.textContent.trim(); })()`, s.id+"-error"))
				t.Logf("%s: %q", s.id, msg)
				if !strings.Contains(msg, s.name) {
					t.Errorf("the error under #%s, %q, does not name %s", s.id, msg, s.name)
				}
				if other := exFieldError(t, tb, s.other); other != "" {
					t.Errorf("an error shows under #%s, which was not changed: %q", s.other, other)
				}
				if after := exTableJSON(t, tb); after != before {
					t.Errorf("%s=%s changed the table", s.name, s.typed)
				}
				if lo, hi := exParam(t, tb, "jitter-lo"), exParam(t, tb, "jitter-hi"); lo != "0.8" || hi != "1.2" {
					t.Errorf("the URL says jitter-lo=%s jitter-hi=%s, want 0.8 and 1.2", lo, hi)
				}
				// Put the valid value back before the next field.
				valid := map[string]string{"jitter-hi-value": "1.2", "jitter-lo-value": "0.8"}[s.id]
				if c.lang == "ru" {
					valid = strings.ReplaceAll(valid, ".", ",")
				}
				tb.typeInto(t, s.id, valid)
				poll[bool](t, tb, "the error to clear", fmt.Sprintf(`(() => { const e = document.getElementById(%q); return !e || e.hidden; })()`, s.id+"-error"))
			}
			exNoProblems(t, tb)
		})
	}
}

// TestBrowserExplorerDuplicateParam: ?attempts=4&attempts=9 uses 4 and
// says so.
func TestBrowserExplorerDuplicateParam(t *testing.T) {
	for _, c := range []struct{ lang, used string }{{"en", "first value, 4"}, {"ru", "первое значение, 4"}} {
		t.Run(c.lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+c.lang+"&attempts=4&attempts=9")
			notice := eval[string](t, tb, `(() => { const n = document.getElementById('notice'); return n && !n.hidden ? n.textContent : ''; })()`)
			t.Logf("notice: %q", notice)
			for _, want := range []string{"attempts", "4", "9", c.used} {
				if !strings.Contains(notice, want) {
					t.Errorf("#notice %q does not say %q", notice, want)
				}
			}
			if n := exRows(t, tb); n != 3 {
				t.Errorf("%d rows, want 3 (attempts 4)", n)
			}
			if got := exValue(t, tb, "attempts-value"); got != "4" {
				t.Errorf("#attempts-value %q, want 4", got)
			}
		})
	}
}

// exCard is one metric card as the page shows it.
type exCard struct {
	Has   bool   `json:"has"`   // data-value attribute present
	Value string `json:"value"` // data-value
	Shown string `json:"shown"` // .metric-value text
	Text  string `json:"text"`  // the whole card's text
}

func exCards(tb testing.TB, t *tab) map[string]exCard {
	tb.Helper()
	return eval[map[string]exCard](tb, t, `Object.fromEntries([...document.querySelectorAll('.metric')].map(m => [m.id, {
	  has: m.hasAttribute('data-value'), value: m.getAttribute('data-value') || '',
	  shown: [...m.querySelectorAll('.metric-value, .metric-share')].map(e => e.textContent).join(' '), text: m.textContent}]))`)
}

// exPercent is the percentage a gave-up card shows, as text.
var exPercent = regexp.MustCompile(`([0-9.,]+)\x{00a0}?%`)

// TestBrowserExplorerMetricCards: a metric without a value shows a dash
// and data-value=""; percentages read 100.0% or 0.0% only when exact.
func TestBrowserExplorerMetricCards(t *testing.T) {
	t.Run("occ-no-capacity", func(t *testing.T) {
		tb := newTab(t, 1280, 900)
		tb.open(t, "lang=en&server=occ&clients=10")
		poll[bool](t, tb, "the herd run", exHerdDoneJS)
		cards := exCards(t, tb)
		if p := cards["metric-peak"]; p.Value != "" || p.Shown != "—" {
			t.Errorf("metric-peak under occ: %+v, want — and no value", p)
		}
		if c := cards["metric-calls"]; c.Value == "" || c.Shown == "—" {
			t.Errorf("metric-calls under occ: %+v, want a value", c)
		} else if n, _ := strconv.Atoi(c.Value); n < 10 {
			t.Errorf("metric-calls %q for 10 clients", c.Value)
		}
	})
	for _, c := range []struct{ lang, full string }{{"en", "100.0%"}, {"ru", "100,0\u00a0%"}} {
		t.Run("none-completed-"+c.lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+c.lang+"&clients=100&server=outage&outage-end=10m&attempts=2&base=1s&cap=1s")
			poll[bool](t, tb, "the herd run", exHerdDoneJS)
			cards := exCards(t, tb)
			if g := cards["metric-gave-up"]; g.Value != "100" {
				t.Fatalf("metric-gave-up %+v: want all 100 clients to give up in this scenario", g)
			}
			for _, id := range []string{"metric-p50", "metric-p99"} {
				if m := cards[id]; m.Value != "" || m.Shown != "—" {
					t.Errorf("%s with no client completed: %+v, want — and no value", id, m)
				}
			}
			if g := cards["metric-gave-up"]; !strings.Contains(g.Shown, c.full) {
				t.Errorf("metric-gave-up shows %q for 100 of 100, want %q", g.Shown, c.full)
			}
		})
	}
	// Scenarios whose share rounds to 100.0% or 0.0% without being exact
	// (9,997 and 4 of 10,000 in the CLI with seed 1), and one exactly 0.
	for _, c := range []struct{ name, query string }{
		{"almost-all", "clients=10000&server=outage&outage-end=14.5s&attempts=5&jitter=full&seed=1&base=1s&factor=2&cap=30s"},
		{"almost-none", "clients=10000&server=outage&outage-end=10s&capacity=300&attempts=10&jitter=full&seed=1&base=1s&factor=2&cap=30s"},
		{"none", "clients=1000&jitter=equal&seed=1"},
	} {
		t.Run("percent-"+c.name, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang=en&"+c.query)
			poll[bool](t, tb, "the herd run", exHerdDoneJS)
			g := exCards(t, tb)["metric-gave-up"]
			gave, err := strconv.Atoi(g.Value)
			if err != nil {
				t.Fatalf("metric-gave-up data-value %q", g.Value)
			}
			clients, _ := strconv.Atoi(exParam(t, tb, "clients"))
			m := exPercent.FindStringSubmatch(g.Shown)
			if m == nil {
				t.Fatalf("metric-gave-up shows %q: no percentage", g.Shown)
			}
			t.Logf("gave up %d of %d: %q", gave, clients, g.Shown)
			switch c.name {
			case "almost-all":
				if gave <= clients*99/100 || gave >= clients {
					t.Fatalf("precondition: %d of %d gave up; want just under all", gave, clients)
				}
			case "almost-none":
				if gave <= 0 || gave >= clients/1000 {
					t.Fatalf("precondition: %d of %d gave up; want just over none", gave, clients)
				}
			case "none":
				if gave != 0 {
					t.Fatalf("precondition: %d gave up, want 0", gave)
				}
			}
			if (m[1] == "100.0") != (gave == clients) || (m[1] == "0.0") != (gave == 0) {
				t.Errorf("%d of %d gave up, shown as %s%%: 100.0%% and 0.0%% only when exact", gave, clients, m[1])
			}
		})
	}
}

// TestBrowserExplorerMetricEmptyDataValue: a card without a value keeps
// its data-value attribute, empty (data-value=""), so a script can tell "no
// value" from "no card" or "not rendered yet".

func TestBrowserExplorerMetricEmptyDataValue(t *testing.T) {
	for _, c := range []struct {
		query string
		ids   []string
	}{
		{"lang=en&server=occ&clients=10", []string{"metric-peak"}},
		{"lang=en&clients=100&server=outage&outage-end=10m&attempts=2&base=1s&cap=1s", []string{"metric-p50", "metric-p99"}},
	} {
		tb := newTab(t, 1280, 900)
		tb.open(t, c.query)
		poll[bool](t, tb, "the herd run", exHerdDoneJS)
		cards := exCards(t, tb)
		for _, id := range c.ids {
			if m := cards[id]; !m.Has || m.Value != "" || m.Shown != "—" {
				t.Errorf("%s: %s has data-value %v %q and shows %q, want data-value=\"\" and —", c.query, id, m.Has, m.Value, m.Shown)
			}
		}
	}
}

// exState is one history entry as the test saw it.
type exState struct {
	search, table string
}

// TestBrowserExplorerHistory: discrete changes push entries that Back
// restores; slider moves replace the current entry.
func TestBrowserExplorerHistory(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&"+articleQuery+"&seed=3")
	h0 := eval[int](t, tb, `history.length`)
	snap := func() exState {
		return exState{eval[string](t, tb, `location.search`), exTableJSON(t, tb)}
	}
	var states []exState
	pushes := 0
	// step makes a change and waits for the URL's key to say want ("":
	// to change).
	step := func(what string, do func(), key, want string, push bool) {
		t.Helper()
		was := exParam(t, tb, key)
		do()
		if want != "" {
			exPollParam(t, tb, key, want)
		} else {
			poll[bool](t, tb, "the URL's "+key+" to change from "+was,
				fmt.Sprintf(`new URLSearchParams(location.search).get(%q) !== %q`, key, was))
		}
		if push {
			pushes++
		}
		exp := h0 + pushes
		if h := eval[int](t, tb, `history.length`); h != exp {
			t.Errorf("%s: history.length %d, want %d (push=%v)", what, h, exp, push)
		}
		if push || len(states) == 0 {
			states = append(states, snap())
		} else {
			states[len(states)-1] = snap()
		}
	}
	step("attempts slider", func() { eval[string](t, tb, setRangeJS("attempts", "4")) }, "attempts", "4", false)
	if n := exRows(t, tb); n != 3 {
		t.Fatalf("%d rows after the slider moved to 4", n)
	}
	step("typed base", func() { tb.typeInto(t, "base-value", "2s") }, "base", "2s", true)
	step("jitter select", func() { exSelect(t, tb, "jitter", "equal") }, "jitter", "equal", true)
	step("delay-log", func() { eval[bool](t, tb, `(document.getElementById('delay-log').click(), true)`) }, "scale", "log", true)
	step("lang", func() { exSelect(t, tb, "lang", "ru") }, "lang", "ru", true)
	step("preset", func() { exSelect(t, tb, "preset", "aws-standard") }, "preset", "aws-standard", true)
	step("cap slider", func() { eval[string](t, tb, setRangeJS("cap", "600")) }, "cap", "", false)
	step("factor slider", func() { eval[string](t, tb, setRangeJS("factor", "3")) }, "factor", "3", false)
	for i := range states {
		t.Logf("entry %d: %s", i, states[i].search)
	}

	checks := []struct {
		what string
		js   string
	}{
		{"the preset entry", `document.getElementById('preset').value === 'aws-standard'`},
		{"the lang entry: Russian, no preset", `document.documentElement.lang === 'ru' && document.getElementById('preset').selectedIndex === 0`},
		{"the delay-log entry: English, log", `document.documentElement.lang === 'en' && document.getElementById('delay-log').checked`},
		{"the jitter entry: linear axis", `!document.getElementById('delay-log').checked && document.getElementById('jitter').value === 'equal'`},
		{"the base entry: no jitter, base 2s", `document.getElementById('jitter').value === 'none' && document.getElementById('base-value').value === '2s'`},
		{"the first entry: base 1s, attempts 4", `document.getElementById('base-value').value === '1s' && document.getElementById('attempts').value === '4'`},
	}
	for i := len(states) - 2; i >= 0; i-- {
		want := states[i]
		eval[bool](t, tb, `(history.back(), true)`)
		poll[bool](t, tb, "Back to "+want.search, fmt.Sprintf(`location.search === %q`, want.search))
		c := checks[len(states)-1-i]
		poll[bool](t, tb, "Back to restore the table of "+want.search, fmt.Sprintf(`JSON.stringify(%s) === %q`, tableJS, want.table))
		exPollAll(t, tb, "Back to "+want.search+" ("+c.what+")", strings.Split(c.js, " && ")...)
	}
	exNoProblems(t, tb)
}

// TestBrowserExplorerAttemptsSlider: 0 = no limit, 1..10 as is, then a log
// scale to 1000 at position 100.
func TestBrowserExplorerAttemptsSlider(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en&"+articleQuery)
	if lo, hi := eval[string](t, tb, `document.getElementById('attempts').min`), eval[string](t, tb, `document.getElementById('attempts').max`); lo != "0" || hi != "100" {
		t.Errorf("#attempts spans %s..%s, want 0..100", lo, hi)
	}
	for _, c := range []struct {
		pos, attempts, rows int
		label               string
	}{
		{0, 0, 30, "no limit"},
		{1, 1, 0, "= 0 retries"},
		{5, 5, 4, "= 4 retries"},
		{10, 10, 9, "= 9 retries"},
		{55, 100, 99, "= 99 retries"},
		{100, 1000, 999, "= 999 retries"},
		{3, 3, 2, "= 2 retries"},
	} {
		eval[string](t, tb, setRangeJS("attempts", strconv.Itoa(c.pos)))
		want := strconv.Itoa(c.attempts)
		exPollParam(t, tb, "attempts", want)
		poll[bool](t, tb, fmt.Sprintf("%d rows", c.rows), fmt.Sprintf(`document.querySelectorAll('#delay-table tbody tr').length === %d`, c.rows))
		if got := exValue(t, tb, "attempts-value"); got != want {
			t.Errorf("position %d: #attempts-value %q, want %s", c.pos, got, want)
		}
		if got := exText(t, tb, "attempts-retries"); got != c.label {
			t.Errorf("position %d: #attempts-retries %q, want %q", c.pos, got, c.label)
		}
	}
	// The URL's value puts the thumb where it belongs, in both languages.
	for _, c := range []struct {
		query, pos, label string
	}{
		{"lang=ru&attempts=0", "0", "без ограничения"},
		{"lang=en&attempts=100", "55", "= 99 retries"},
		{"lang=en&attempts=1000", "100", "= 999 retries"},
		{"lang=ru&attempts=7", "7", "= 6 повторов"},
	} {
		tb.open(t, c.query)
		if got := exValue(t, tb, "attempts"); got != c.pos {
			t.Errorf("%s: the slider is at %s, want %s", c.query, got, c.pos)
		}
		if got := exText(t, tb, "attempts-retries"); got != c.label {
			t.Errorf("%s: #attempts-retries %q, want %q", c.query, got, c.label)
		}
	}
	exNoProblems(t, tb)
}

// exPanel is one compare panel as drawn.
type exPanel struct {
	Jitter  string   `json:"jitter"`
	ViewBox string   `json:"viewBox"`
	Y       []string `json:"y"`
	YPos    []string `json:"yPos"`
	X       []string `json:"x"`
	XPos    []string `json:"xPos"`
	BarTop  float64  `json:"barTop"`
	PlotTop float64  `json:"plotTop"`
	Clipped int      `json:"clipped"`
}

const exPanelsJS = `[...document.querySelectorAll('#compare figure.cmp-cell')].map(f => {
  const svg = f.querySelector('svg');
  const ticks = (a, attr) => [...f.querySelectorAll('svg text.tick')].filter(e => e.getAttribute('text-anchor') === a)
    .map(e => attr ? e.getAttribute(attr) : e.textContent);
  let top = 1e9;
  for (const e of f.querySelectorAll('path.ok, path.rejected')) { const b = e.getBBox(); if (b.height > 0) top = Math.min(top, b.y); }
  const o = f.querySelector('path.outage');
  return {jitter: f.dataset.jitter || '', viewBox: svg ? svg.getAttribute('viewBox') || '' : '',
    y: ticks('end'), yPos: ticks('end', 'y'), x: ticks('middle'), xPos: ticks('middle', 'x'),
    barTop: top, plotTop: o ? o.getBBox().y : -1, clipped: f.querySelectorAll('text.clipped').length};
})`

// TestBrowserExplorerCompareGrid: one panel per jitter kind, one scale for
// all, and a marker on every panel whose bars are cut by the axis.
func TestBrowserExplorerCompareGrid(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+lang)
			poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
			kinds := eval[[]string](t, tb, `[...document.querySelectorAll('#jitter option')].map(o => o.value)`)
			panels := eval[[]exPanel](t, tb, exPanelsJS)
			var got []string
			for _, p := range panels {
				got = append(got, p.Jitter)
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(kinds))) {
				t.Errorf("compare panels %v, want one per jitter kind %v", got, kinds)
			}
			if len(panels) == 0 {
				t.Fatal("no compare panels")
			}
			first := panels[0]
			if len(first.Y) < 2 || len(first.X) < 2 {
				t.Fatalf("panel %s has ticks y %v x %v", first.Jitter, first.Y, first.X)
			}
			anyClipped := false
			for _, p := range panels {
				if p.ViewBox != first.ViewBox || !slices.Equal(p.Y, first.Y) || !slices.Equal(p.YPos, first.YPos) ||
					!slices.Equal(p.X, first.X) || !slices.Equal(p.XPos, first.XPos) {
					t.Errorf("panel %s has its own scale:\n  y %v at %v, x %v at %v\nwhile %s has\n  y %v at %v, x %v at %v",
						p.Jitter, p.Y, p.YPos, p.X, p.XPos, first.Jitter, first.Y, first.YPos, first.X, first.XPos)
				}
				if p.PlotTop < 0 {
					t.Errorf("panel %s: no outage shading (the default server is an outage)", p.Jitter)
					continue
				}
				cut := p.BarTop < p.PlotTop-0.5
				anyClipped = anyClipped || cut
				t.Logf("%s: bars reach y=%.1f, plot top %.1f, %d clipped markers", p.Jitter, p.BarTop, p.PlotTop, p.Clipped)
				if cut != (p.Clipped > 0) {
					t.Errorf("panel %s: bars reach y=%.1f above the plot's top %.1f: %v, but %d clipped markers",
						p.Jitter, p.BarTop, p.PlotTop, cut, p.Clipped)
				}
			}
			if !anyClipped {
				t.Error("no panel's bars are cut by the shared axis: the default herd's first burst should be")
			}
			if lang == "ru" {
				for _, x := range first.X[1:] {
					if !strings.Contains(x, "\u00a0") {
						t.Errorf("Russian time tick %q lacks U+00A0 before its unit", x)
					}
				}
			}
		})
	}
}

// exTick is a y tick label of the delay chart (its first svg) and its
// position.
type exTick struct {
	Text string  `json:"text"`
	Y    float64 `json:"y"`
}

const exLogTicksJS = `[...document.querySelectorAll('#delay-chart svg')][0] ? [...[...document.querySelectorAll('#delay-chart svg')][0].querySelectorAll('text.tick')]
  .filter(e => e.getAttribute('text-anchor') === 'end').map(e => ({text: e.textContent, y: +e.getAttribute('y')})) : []`

// TestBrowserExplorerLogAxis: #delay-log gives round time ticks in the
// page's language, and a 0 on its own line when a delay can be 0.
func TestBrowserExplorerLogAxis(t *testing.T) {
	allowed := map[string][]string{
		"en": {"1ms", "10ms", "100ms", "1s", "10s", "1\u00a0min", "10\u00a0min"},
		"ru": {"1\u00a0мс", "10\u00a0мс", "100\u00a0мс", "1\u00a0с", "10\u00a0с", "1\u00a0мин", "10\u00a0мин"},
	}
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+lang+"&jitter=full&attempts=0&base=1s&cap=30s")
			if exHasParam(t, tb, "scale") || eval[bool](t, tb, `document.getElementById('delay-log').checked`) {
				t.Fatal("the log axis is on before it was asked for")
			}
			if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("delay-log"))); err != nil {
				t.Fatal(err)
			}
			exPollParam(t, tb, "scale", "log")
			ticks := poll[[]exTick](t, tb, "the log ticks", `(() => { const t = `+exLogTicksJS+`; return t.some(x => x.text === '1'+(document.documentElement.lang === 'ru' ? '\u00a0с' : 's')) && t; })()`)
			exCheckLogTicks(t, ticks, allowed[lang], true)

			// The same from the URL, and without a zero under no jitter.
			tb.open(t, "lang="+lang+"&jitter=full&attempts=0&base=1s&cap=30s&scale=log")
			if !eval[bool](t, tb, `document.getElementById('delay-log').checked`) {
				t.Error("?scale=log: #delay-log is not checked")
			}
			exCheckLogTicks(t, eval[[]exTick](t, tb, exLogTicksJS), allowed[lang], true)
			tb.open(t, "lang="+lang+"&jitter=none&base=1s&cap=30s&attempts=6&scale=log")
			exCheckLogTicks(t, eval[[]exTick](t, tb, exLogTicksJS), allowed[lang], false)
			exNoProblems(t, tb)
		})
	}
}

func exCheckLogTicks(t *testing.T, ticks []exTick, allowed []string, zero bool) {
	t.Helper()
	t.Logf("log ticks %v", ticks)
	var zeroY = -1.0
	lowest := -1.0 // the largest y of a non-zero tick (lowest on screen)
	n := 0
	for _, k := range ticks {
		if k.Text == "0" {
			zeroY = k.Y
			continue
		}
		n++
		lowest = max(lowest, k.Y)
		if !slices.Contains(allowed, k.Text) {
			t.Errorf("log tick %q is not one of %q", k.Text, allowed)
		}
	}
	if n < 3 {
		t.Errorf("%d log ticks, want at least 3: %v", n, ticks)
	}
	switch {
	case zero && zeroY < 0:
		t.Errorf("no 0 tick on a log axis where a delay can be 0: %v", ticks)
	case zero && zeroY < lowest+8:
		t.Errorf("the 0 tick at y=%.1f is not on its own line below the lowest tick (y=%.1f)", zeroY, lowest)
	case !zero && zeroY >= 0:
		t.Errorf("a 0 tick where no delay can be 0: %v", ticks)
	}
}

// TestBrowserExplorerPresetSource: a source naming a repository file or an
// RFC links to it.
func TestBrowserExplorerPresetSource(t *testing.T) {
	link := func(tb *tab) (href, target, rel string) {
		r := eval[[]string](t, tb, `(() => { const a = document.querySelector('#preset-source a'); return a ? [a.href, a.target, a.rel] : []; })()`)
		if len(r) != 3 {
			return "", "", ""
		}
		return r[0], r[1], r[2]
	}
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+lang+"&preset=aws-standard")
			href, target, rel := link(tb)
			if href != "https://github.com/aws/aws-sdk-go-v2/blob/HEAD/aws/retry/standard.go" {
				t.Errorf("aws-standard's source links to %q, want its file on GitHub", href)
			}
			if !regexp.MustCompile(`^https://github\.com/[^/]+/[^/]+/blob/HEAD/.+`).MatchString(href) {
				t.Errorf("link %q is not a github.com/.../blob/HEAD/... link", href)
			}
			if target != "_blank" || !strings.Contains(rel, "noopener") {
				t.Errorf("link target %q rel %q, want _blank and noopener", target, rel)
			}
			label := map[string]string{"en": "Source:", "ru": "Источник:"}[lang]
			if s := exText(t, tb, "preset-source"); !strings.HasPrefix(s, label) {
				t.Errorf("#preset-source %q does not start with %q", s, label)
			}
			exSelect(t, tb, "preset", "tcp-rfc6298")
			poll[bool](t, tb, "the RFC link", `(() => { const a = document.querySelector('#preset-source a'); return !!a && a.href.includes('rfc-editor.org'); })()`)
			if href, _, _ := link(tb); href != "https://www.rfc-editor.org/rfc/rfc6298" {
				t.Errorf("tcp-rfc6298 links to %q", href)
			}
			exSelect(t, tb, "preset", "ethernet")
			poll[bool](t, tb, "no link for a standard on paper", `!document.querySelector('#preset-source a') && /IEEE 802\.3/.test(document.getElementById('preset-source').textContent)`)
		})
	}
}

// TestBrowserExplorerPresetArticleEntry: choosing the article's entry
// (the preset list's first) after a preset returns to the article's policy,
// with no preset in the link, and the link loads without a notice.

func TestBrowserExplorerPresetArticleEntry(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		tb := newTab(t, 1280, 900)
		tb.open(t, "lang="+lang+"&preset=aws-standard&seed=5")
		eval[string](t, tb, `(() => { const el = document.getElementById('preset'); el.selectedIndex = 0;
		  el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return el.value; })()`)
		exPollParam(t, tb, "jitter", "full")
		exSettle(t, tb)
		if exHasParam(t, tb, "preset") {
			t.Errorf("%s: the article's entry wrote preset=%q to the URL", lang, exParam(t, tb, "preset"))
		}
		if got := column(tb.table(t), "nominal"); !slices.Equal(got, []string{"1", "2", "4", "8", "16"}) {
			t.Errorf("%s: the article's entry gave nominal %v", lang, got)
		}
		tb.open(t, strings.TrimPrefix(eval[string](t, tb, `location.search`), "?"))
		if n := exText(t, tb, "notice"); n != "" {
			t.Errorf("%s: the link written after choosing the article loads with a notice: %q", lang, n)
		}
		if got := eval[int](t, tb, `document.getElementById('preset').selectedIndex`); got != 0 {
			t.Errorf("%s: the reloaded link selects preset entry %d, want the article's (0)", lang, got)
		}
	}
}

// exFrameEval evaluates js in the execution context id (an iframe's world).
func exFrameEval[T any](tb testing.TB, t *tab, id runtime.ExecutionContextID, js string) T {
	tb.Helper()
	v, err := chromedp.Run(t.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise, func(p *runtime.EvaluateParams) { p.ContextID = id }))
	if err != nil {
		tb.Fatalf("evaluate in the frame %s: %v", js, err)
	}
	return v
}

// exFramePoll waits until js is truthy in the frame's world.
func exFramePoll[T any](tb testing.TB, t *tab, id runtime.ExecutionContextID, what, js string) T {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := chromedp.Run(t.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise, func(p *runtime.EvaluateParams) { p.ContextID = id }))
		if err == nil {
			var zero T
			b, _ := json.Marshal(v)
			z, _ := json.Marshal(zero)
			if string(b) != string(z) && string(b) != "false" && string(b) != `""` && string(b) != "null" {
				return v
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("waiting in the frame for %s: %v\n%s", what, err, t.messages())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exCopyTextShownJS is true while the copy-by-hand box is in the page and
// displayed.
const exCopyTextShownJS = `(() => { const b = document.getElementById('copy-text');
  return !!b && !b.hidden && b.getClientRects().length > 0; })()`

// TestBrowserExplorerCopyInIframe embeds the page in an iframe of another
// origin without allow="clipboard-write": Copy link must not claim a copy;
// it shows the link selected in a read-only box.
func TestBrowserExplorerCopyInIframe(t *testing.T) {
	setup(t)
	var (
		mu    sync.Mutex
		inner string
	)
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		src := inner
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>docs</title><p>Our retry policy:</p>
<iframe id="pg" src="%s?lang=en&amp;attempts=4&amp;seed=9" width="1200" height="800"></iframe>`, src)
	}))
	t.Cleanup(outer.Close)
	url, stop, err := startServer("--addr", "127.0.0.1:0", "--frame-ancestors", outer.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	mu.Lock()
	inner = url
	mu.Unlock()

	tb := newTab(t, 1280, 900)
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(outer.URL)); err != nil {
		t.Fatal(err)
	}
	tree, err := chromedp.Call(tb.ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil || tree.FrameTree == nil || len(tree.FrameTree.ChildFrames) != 1 {
		t.Fatalf("frame tree: %v (%+v)", err, tree)
	}
	frame := tree.FrameTree.ChildFrames[0].Frame
	world, err := chromedp.Call(tb.ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame.ID, WorldName: "explorer"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := world.ExecutionContextID
	exFramePoll[bool](t, tb, ctx, "the framed app to mount", `!document.getElementById('app-wasm-loader') && !!document.getElementById('copy-link')
	  && document.querySelectorAll('#delay-table tbody tr').length === 3`)
	if allowed := exFrameEval[bool](t, tb, ctx, `document.featurePolicy ? document.featurePolicy.allowsFeature('clipboard-write') : false`); allowed {
		t.Fatal("precondition: clipboard-write is allowed in the frame")
	}
	if got := exFrameEval[string](t, tb, ctx, `location.origin`); strings.HasPrefix(outer.URL, got) {
		t.Fatalf("precondition: the frame's origin %s is the embedding page's", got)
	}
	// A real click (user activation), at the button's place in the tab.
	xy := exFrameEval[[]float64](t, tb, ctx, `(() => { const r = document.getElementById('copy-link').getBoundingClientRect();
	  return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	off := eval[[]float64](t, tb, `(() => { const r = document.getElementById('pg').getBoundingClientRect(); return [r.left + 2, r.top + 2]; })()`)
	if err := chromedp.Do(tb.ctx, chromedp.MouseClickXY(off[0]+xy[0], off[1]+xy[1])); err != nil {
		t.Fatal(err)
	}
	status := exFramePoll[string](t, tb, ctx, "the copy status", `(document.getElementById('copy-status') || {}).textContent || ''`)
	if strings.TrimSpace(status) != "Copy this link:" {
		t.Errorf("#copy-status %q in a frame without clipboard access, want \"Copy this link:\"", status)
	}
	box := exFramePoll[map[string]any](t, tb, ctx, "#copy-text", `(() => { const b = document.getElementById('copy-text'); if (!(`+exCopyTextShownJS+`)) return null;
	  return {value: b.value, readOnly: b.readOnly, focused: document.activeElement === b,
	    selected: b.selectionStart === 0 && b.selectionEnd === b.value.length && b.value.length > 0}; })()`)
	t.Logf("copy box %v", box)
	v, _ := box["value"].(string)
	if !strings.HasPrefix(v, url) || !strings.Contains(v, "attempts=4") || !strings.Contains(v, "seed=9") {
		t.Errorf("#copy-text holds %q, want the framed page's link (%s… attempts=4, seed=9)", v, url)
	}
	if box["readOnly"] != true || box["selected"] != true {
		t.Errorf("#copy-text read-only %v, selected %v: want both", box["readOnly"], box["selected"])
	}
	// Chromium reports the refused call itself: that line is the browser's
	// (the test asked for it), anything else is the page's.
	for _, p := range tb.problems(t) {
		if strings.Contains(p, "Permissions policy violation: The Clipboard API has been blocked") {
			t.Logf("expected: %s", p)
			continue
		}
		t.Errorf("problem: %s", p)
	}
}

// TestBrowserExplorerCopyRejected: the same where writeText rejects in a
// top-level page (both languages); and where it resolves, the page says so.
func TestBrowserExplorerCopyRejected(t *testing.T) {
	for _, c := range []struct{ lang, manual, done string }{{"en", "Copy this link:", "Link copied"}, {"ru", "Скопируйте ссылку:", "Ссылка скопирована"}} {
		t.Run(c.lang, func(t *testing.T) {
			tb := newTab(t, 1280, 900)
			tb.open(t, "lang="+c.lang+"&attempts=5")
			eval[bool](t, tb, `(() => { window.__exWrites = [];
			  Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {writeText: s => { window.__exWrites.push(s);
			    return Promise.reject(new DOMException('blocked by the test', 'NotAllowedError')); }}}); return true; })()`)
			if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("copy-link"))); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, tb, "#copy-text to show", exCopyTextShownJS)
			if got := exText(t, tb, "copy-status"); got != c.manual {
				t.Errorf("#copy-status %q after a refused copy, want %q", got, c.manual)
			}
			v := exValue(t, tb, "copy-text")
			if !strings.Contains(v, "attempts=5") || eval[int](t, tb, `window.__exWrites.length`) != 1 {
				t.Errorf("#copy-text %q (writes %v)", v, eval[[]string](t, tb, `window.__exWrites`))
			}
			if !eval[bool](t, tb, `(() => { const b = document.getElementById('copy-text');
			  return b.readOnly && document.activeElement === b && b.selectionStart === 0 && b.selectionEnd === b.value.length; })()`) {
				t.Error("#copy-text is not read-only, focused and selected")
			}

			// The clipboard accepts: the page says it copied, and no box.
			eval[bool](t, tb, `(Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {writeText: s => Promise.resolve()}}), true)`)
			if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.ID("copy-link"))); err != nil {
				t.Fatal(err)
			}
			poll[bool](t, tb, "the copied status", fmt.Sprintf(`document.getElementById('copy-status').textContent.trim() === %q`, c.done))
			if eval[bool](t, tb, exCopyTextShownJS) {
				t.Error("#copy-text still shows after a copy that worked")
			}
		})
	}
}

// exShot saves what the viewport shows as tmp/screenshots/name.png.
func exShot(tb testing.TB, t *tab, name string) string {
	tb.Helper()
	buf, err := chromedp.Run(t.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	dir := "../../tmp/screenshots"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	path := dir + "/" + name + ".png"
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot %s (%d KB)", path, len(buf)/1024)
	return path
}

// TestBrowserExplorerScreenshotsRussian saves the Russian first screen on a
// phone and a laptop for a person to look at, and checks what a program
// can: no horizontal scrolling, no text cut by its box in the first screen.
func TestBrowserExplorerScreenshotsRussian(t *testing.T) {
	for _, vp := range []struct {
		name          string
		width, height int64
	}{{"explorer-ru-phone", 390, 844}, {"explorer-ru-desktop", 1280, 800}} {
		tb := newTab(t, vp.width, vp.height)
		tb.open(t, "lang=ru")
		poll[bool](t, tb, "the herd and compare runs to finish", settledJS)
		exSettle(t, tb)
		if over := eval[int](t, tb, `document.documentElement.scrollWidth - window.innerWidth`); over > 0 {
			t.Errorf("%s: the page is %d px wider than the viewport", vp.name, over)
		}
		// Buttons, labels and cards in view whose text overflows their box.
		cut := eval[[]string](t, tb, `[...document.querySelectorAll('button, label, select, .metric-value, .metric-label, h1, h2, h3, .status')]
		  .filter(e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && r.width > 0
		    && getComputedStyle(e).overflow !== 'visible' && (e.scrollWidth > e.clientWidth + 1); })
		  .map(e => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className) + ': ' + e.textContent.trim().slice(0, 60))`)
		for _, c := range cut {
			t.Errorf("%s: text cut in its box: %s", vp.name, c)
		}
		exShot(t, tb, vp.name)
	}
}
