//go:build browser && !wasm

package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The page never writes a link it cannot read back whole. A 2,000-character
// Russian body is too long for one (12 KB encoded; the page reads 8,192
// bytes): the panel says so, the address leaves the body out, and the link
// reopens with no cut and no notice. A hand-made link over 8,192 bytes
// names, in the page's language, each parameter it could not read.
func TestBrowserLongLink(t *testing.T) {
	const maxQueryLen, maxFieldLen = 8192, 2000 // the app's limits (app/state.go)
	tb := newTab(t, 1280, 900)
	tb.open(t, "view=classify&lang=ru&c.status=400")
	body := strings.Repeat("ж", maxFieldLen)
	eval[bool](t, tb, `(() => { const b = document.getElementById('classify-body');
	  b.value = '`+body+`'; b.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
	note := poll[string](t, tb, "the panel saying the body stays out of links", `(() => {
	  const n = document.getElementById('classify-link-note');
	  return n && !n.hidden && n.offsetParent !== null ? n.textContent : ''; })()`)
	if !strings.Contains(note, "«Тело ответа» слишком длинное для ссылки") {
		t.Errorf("the note %q does not name the body in Russian", note)
	}
	link := poll[string](t, tb, "the address without the body", `new URLSearchParams(location.search).get('c.status') === '400' &&
	  !location.search.includes('c.body') ? location.href : ''`)
	if u, _ := url.Parse(link); len(u.RawQuery) > maxQueryLen {
		t.Errorf("the address holds %d bytes of query, over %d", len(u.RawQuery), maxQueryLen)
	}
	tb.viewportShot(t, "long-link-note")
	tb.openURL(t, link)
	got := eval[map[string]any](t, tb, `({status: document.getElementById('classify-status').value,
	  body: document.getElementById('classify-body').value, notice: !!document.querySelector('#notice:not([hidden])')})`)
	if got["status"] != "400" || got["body"] != "" || got["notice"] != false {
		t.Errorf("the written link reopens as %v: want status 400, no body, no notice", got)
	}

	// By hand: the body crosses byte 8,192 and seed comes after it.
	tb.open(t, "view=classify&lang=en&c.status=400&c.body="+url.QueryEscape(body)+"&seed=5")
	items := eval[[]string](t, tb, `[...document.querySelectorAll('#notice li')].map(li => li.textContent)`)
	notices := strings.Join(items, "\n")
	for _, key := range []string{"c.body=", "seed=5"} {
		if !strings.Contains(notices, key) || !strings.Contains(notices, "after the first 8192 bytes") {
			t.Errorf("the notices do not name %s as past the first 8192 bytes:\n%s", key, notices)
		}
	}
	if v := eval[string](t, tb, `document.getElementById('classify-body').value`); v != "" {
		t.Errorf("a body cut at byte 8192 was used: %d characters", len([]rune(v)))
	}

	// Over the 64 KB the server reads, on a first visit (no worker to
	// answer from its cache): a page that says so, not a bare 431.
	first := newTab(t, 1280, 900, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(first.ctx, chromedp.Navigate(env.url+"?c.body="+strings.Repeat("a", 70<<10))); err != nil {
		t.Fatal(err)
	}
	text := eval[string](t, first, `document.body.innerText`)
	if !strings.Contains(text, "This link is longer than the 64 KB") || !strings.Contains(text, "Открыть песочницу без неё") {
		t.Errorf("a 70 KB link shows %.300q", text)
	}
	first.viewportShot(t, "long-link-431")
}

// TestBrowserClassifyOwnsItsFields: the classification panel keeps what is
// typed into it, however fast (each key an event of its own task, before the
// page has taken the last one into its link), and takes a link's values on
// Back and Forward, textareas included.
func TestBrowserClassifyOwnsItsFields(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "view=classify&lang=en")
	poll[bool](t, tb, "the first case's verdict", `document.getElementById('classify-verdict').dataset.retry === 'true'`)
	// The "POST with a key" case: a history entry.
	eval[bool](t, tb, `(document.querySelector('#classify button.case[data-case="5"]').click(), true)`)
	poll[bool](t, tb, "the case in the address", `new URLSearchParams(location.search).get('c.key') === 'order-42'`)
	const key, body = "idem-0123456789-abcdefghij-KLMNOP", `{"error": "try again"}`
	eval[bool](t, tb, fmt.Sprintf(`(async () => {
	  const type = async (id, s) => { const el = document.getElementById(id); el.value = '';
	    for (const ch of s) { el.value += ch; el.dispatchEvent(new Event('input', {bubbles: true}));
	      await new Promise(r => setTimeout(r, 0)); } };
	  await type('classify-key', %q); await type('classify-body', %q); return true; })()`, key, body))
	got := poll[map[string]string](t, tb, "the typed key and body in the address", fmt.Sprintf(`(() => {
	  const q = new URLSearchParams(location.search);
	  return q.get('c.key') === %q && q.get('c.body') === %q ?
	    {key: document.getElementById('classify-key').value, body: document.getElementById('classify-body').value} : null; })()`, key, body))
	if got["key"] != key || got["body"] != body {
		t.Errorf("after fast typing the boxes hold key %q, body %q: want %q, %q", got["key"], got["body"], key, body)
	}
	fields := `(() => { const v = id => document.getElementById(id).value;
	  return [v('classify-status'), v('classify-method'), v('classify-key'), v('classify-body')].join('|'); })()`
	eval[bool](t, tb, `(history.back(), true)`)
	poll[bool](t, tb, "Back's fields: the first case (503 GET, no key, no body)", fields+` === '503|GET||'`)
	eval[bool](t, tb, `(history.forward(), true)`)
	want := "503|POST|" + key + "|" + body
	poll[bool](t, tb, "Forward's fields: the typed call", fmt.Sprintf(`%s === %q`, fields, want))
}
